// The share page's live part polls only while the page is visible: a phone in a
// pocket costs nothing. (Done here rather than as an hx-trigger filter, which
// htmx would evaluate as a string, and the Content Security Policy forbids eval.)
document.addEventListener("htmx:beforeRequest", (event) => {
  if (document.hidden && event.detail.elt.hasAttribute("data-live-poll")) {
    event.preventDefault();
  }
});
// Back in view (the phone unlocked, the tab chosen again): ask at once instead of
// showing old standings until the next tick.
document.addEventListener("visibilitychange", () => {
  const live = document.querySelector("[data-live-poll]");
  if (!document.hidden && live && window.htmx) window.htmx.trigger(live, "live-now");
});

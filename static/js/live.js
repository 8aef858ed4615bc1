// The share page's live part polls only while the page is visible: a phone in a
// pocket costs nothing. (Done here rather than as an hx-trigger filter, which
// htmx would evaluate as a string, and the Content Security Policy forbids eval.)
document.addEventListener("htmx:beforeRequest", (event) => {
  if (document.hidden && event.detail.elt.hasAttribute("data-live-poll")) {
    event.preventDefault();
  }
});

// The share page's live part polls only while the page is visible: a phone in a
// pocket costs nothing. (Done here rather than as an hx-trigger filter, which
// htmx would evaluate as a string, and the Content Security Policy forbids eval.)
document.addEventListener("htmx:beforeRequest", (event) => {
  if (document.hidden && event.detail.elt.hasAttribute("data-live-poll")) {
    event.preventDefault();
  }
});
// Back in view (the phone unlocked, the tab chosen again), or the network back:
// ask at once instead of showing old standings until the next tick.
function pollNow() {
  const live = document.querySelector("[data-live-poll]");
  if (!document.hidden && live && window.htmx) window.htmx.trigger(live, "live-now");
}
document.addEventListener("visibilitychange", pollNow);
window.addEventListener("online", pollNow);

// How each poll went, for the offline banner (static/js/offline.js): answered
// (any status) or not (the network gone, or a poll still unanswered after the
// worker's wait for a page, data-poll-wait: a network that hangs), and fresh
// (200 or 304: the standings shown are as of now). A poll given up is aborted,
// so that the next tick asks afresh rather than queue behind it.
const strings = document.getElementById("offline-strings");
const POLL_WAIT = Number(strings && strings.dataset.pollWait) || 4000;
let unanswered = null;

function told(status) {
  const detail = { answered: status > 0, fresh: status === 200 || status === 304 };
  window.dispatchEvent(new CustomEvent("marriage-live", { detail }));
}

document.addEventListener("htmx:beforeSend", (event) => {
  const poll = event.detail.elt;
  if (!poll.hasAttribute("data-live-poll")) return;
  clearTimeout(unanswered);
  unanswered = setTimeout(() => {
    told(0);
    window.htmx.trigger(poll, "htmx:abort");
  }, POLL_WAIT);
});
document.addEventListener("htmx:afterRequest", (event) => {
  if (!event.detail.elt.hasAttribute("data-live-poll")) return;
  clearTimeout(unanswered);
  told(event.detail.xhr ? event.detail.xhr.status : 0);
});

// The share page's live part (templates/scoring/share/view.html): its stream
// (static/js/stream.js) says the session's version whenever it changes, and the
// part is then asked for again (htmx, "live-now", with the version it shows:
// 304 while nothing changed). Without a stream it is asked every
// data-seconds while the page is visible: a phone in a pocket costs nothing.
import { followLive, told } from "./stream.js";

const stream = document.getElementById("live-stream");
const every = (Number(stream && stream.dataset.seconds) || 1) * 1000;

// How each ask went, for the offline banner (static/js/offline.js): answered
// (any status) or not (the network gone, or an ask still unanswered after the
// worker's wait for a page, data-poll-wait: a network that hangs), and fresh
// (200 or 304: the standings shown are as of now). An ask given up is aborted,
// so that the next one asks afresh rather than queue behind it.
const strings = document.getElementById("offline-strings");
const POLL_WAIT = Number(strings && strings.dataset.pollWait) || 4000;
let unanswered = null;
let settle = null; // resolves the ask under way with whether it was answered

function part() {
  return document.querySelector("[data-live-poll]");
}

function settled(answered) {
  if (settle) settle(answered);
  settle = null;
}

function poll() {
  const live = part();
  if (!live || !window.htmx || settle) return Promise.resolve(true);
  return new Promise((resolve) => {
    settle = resolve;
    window.htmx.trigger(live, "live-now");
    // An ask htmx never sent (one under way already) holds nothing up.
    setTimeout(() => {
      if (settle === resolve) settled(false);
    }, POLL_WAIT + 1000);
  });
}

function changed(version) {
  const live = part();
  if (live && live.dataset.etag !== version) poll();
}

// Never asked while the page is hidden. (Done here rather than as an hx-trigger
// filter, which htmx would evaluate as a string, and the Content Security
// Policy forbids eval.)
document.addEventListener("htmx:beforeRequest", (event) => {
  if (document.hidden && event.detail.elt.hasAttribute("data-live-poll")) {
    event.preventDefault();
    settled(true);
  }
});
document.addEventListener("htmx:beforeSend", (event) => {
  const live = event.detail.elt;
  if (!live.hasAttribute("data-live-poll")) return;
  clearTimeout(unanswered);
  unanswered = setTimeout(() => {
    told(false);
    settled(false);
    window.htmx.trigger(live, "htmx:abort");
  }, POLL_WAIT);
});
function answered(event) {
  if (!event.detail.elt.hasAttribute("data-live-poll")) return;
  clearTimeout(unanswered);
  const status = event.detail.xhr ? event.detail.xhr.status : 0;
  told(status > 0, status === 200 || status === 304);
  settled(status > 0);
}
// An answer swapped in replaces the part that asked, whose later events no
// longer reach the document: it is counted before the swap.
document.addEventListener("htmx:beforeSwap", answered);
document.addEventListener("htmx:afterRequest", answered);

followLive({
  streamUrl: () => (stream && stream.dataset.stream) || "",
  poll,
  changed,
  every,
});

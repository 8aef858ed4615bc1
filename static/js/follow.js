// A page that follows its session live (templates/table/_follow.html): its
// stream (static/js/stream.js) says the session's version whenever it changes;
// without a stream, every data-follow-seconds while the page is visible, it
// asks data-follow with the version shown (If-None-Match), which the server
// answers with a bare 304 while nothing changed (one indexed row read, on any
// host). On a change, fetch the page again and swap each [data-follow-part] in
// place. A part carrying data-position (a seat's form) is swapped only when the
// round it is for has moved on, so a count being typed is never wiped.
//
// A module runs once per page however often its <script> comes in (an htmx
// swap of a part that includes table/_follow.html): the #follow of the moment
// is read each time, and a new one (another version, another address) is
// followed from its own version on.
import { followLive, told } from "./stream.js";

let followed = null; // the #follow element whose version etag is
let etag = "";
const first = document.getElementById("follow");
const every = (Number(first && first.dataset.followSeconds) || 1) * 1000;
let busy = false;
let gone = false;
let waiting = ""; // a version the stream told of while the page was being fetched

function current() {
  const follow = document.getElementById("follow");
  if (follow && follow !== followed) {
    followed = follow;
    etag = follow.dataset.followEtag;
  }
  return follow;
}

function swap(doc) {
  // A page that shows another thing now (a member's link that moved on to the
  // next evening): the whole page, not its parts.
  const shown = document.querySelector("[data-follow-page]");
  const now = doc.querySelector("[data-follow-page]");
  if (shown && now && shown.dataset.followPage !== now.dataset.followPage) {
    location.reload();
    return;
  }
  doc.querySelectorAll("[data-follow-part]").forEach((part) => {
    const here = document.getElementById(part.id);
    if (!here) return;
    if (here.dataset.position && here.dataset.position === part.dataset.position) return;
    const fresh = document.importNode(part, true);
    here.replaceWith(fresh);
    if (window.htmx) window.htmx.process(fresh);
  });
  // A part the page no longer has (the standings shown right after a save)
  // gives way to what the page shows now.
  document.querySelectorAll("[data-follow-part]").forEach((here) => {
    if (here.id && !doc.getElementById(here.id)) here.remove();
  });
  document.dispatchEvent(new CustomEvent("marriage-followed"));
}

function refresh() {
  return fetch(location.pathname + location.search, {
    credentials: "same-origin",
    cache: "no-store",
    headers: { "X-Follow": "1" },
  }).then((response) => {
    if (response.status === 404) {
      // What the page shows is gone (a round deleted on another phone): the
      // page itself says so, and where it went.
      gone = true;
      location.reload();
      return;
    }
    if (!response.ok) return;
    return response.text().then((html) => {
      swap(new DOMParser().parseFromString(html, "text/html"));
    });
  });
}

// The stream's word: the version now. The page is fetched again if it shows another.
function changed(version) {
  const follow = current();
  if (!follow || gone || version === etag) return;
  if (busy) {
    waiting = version;
    return;
  }
  busy = true;
  refresh()
    .then(() => {
      if (current() === follow) etag = version;
    })
    .catch(() => {
      // no answer: the stream's next word, or a poll, tries again
    })
    .finally(() => {
      busy = false;
      const next = waiting;
      waiting = "";
      if (next) changed(next);
    });
}

// One poll (without a stream, or asked at once): a promise of whether it was answered.
function poll() {
  const follow = current();
  if (!follow || busy || gone) return Promise.resolve(true);
  const url = follow.dataset.follow;
  busy = true;
  const wait = new AbortController();
  const limit = setTimeout(() => {
    wait.abort();
  }, 4000);
  return fetch(url, {
    credentials: "same-origin",
    cache: "no-store",
    headers: { "If-None-Match": '"' + etag + '"' },
    signal: wait.signal,
  })
    .then((response) => {
      told(true, response.status === 200 || response.status === 304);
      if (response.status === 404) {
        gone = true;
        location.reload(); // revoked: the page says so
        return true;
      }
      if (response.status !== 200) return true;
      const sent = (response.headers.get("ETag") || "").replace(/^W\//, "").replace(/"/g, "");
      return refresh().then(() => {
        if (sent) etag = sent;
        return true;
      });
    })
    .catch(() => {
      told(false);
      return false;
    })
    .finally(() => {
      clearTimeout(limit);
      busy = false;
    });
}

const live = followLive({
  streamUrl() {
    const follow = current();
    return (follow && follow.dataset.stream) || "";
  },
  poll,
  changed,
  every,
});
// Asked by a page that changed something itself (a seat that sent its count).
document.addEventListener("marriage-follow-now", live.now);

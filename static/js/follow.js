// A page that follows its session live (templates/table/_follow.html): every
// data-follow-seconds while the page is visible, ask data-follow with the
// version shown (If-None-Match). The server answers a bare 304 while nothing
// changed (one indexed row read, on any host); on a change, fetch the page
// again and swap each [data-follow-part] in place. A part carrying
// data-position (a seat's form) is swapped only when the round it is for has
// moved on, so a count being typed is never wiped.
//
// A module runs once per page however often its <script> comes in (an htmx
// swap of a part that includes table/_follow.html): the #follow of the moment
// is read at each poll, and a new one (another version, another address) is
// followed from its own version on.
var followed = null; // the #follow element whose version etag is
var etag = "";
var first = document.getElementById("follow");
var every = (Number(first && first.dataset.followSeconds) || 1) * 1000;
var busy = false;
var gone = false;

function told(status) {
  var detail = {
    answered: status > 0,
    fresh: status === 200 || status === 304,
  };
  window.dispatchEvent(new CustomEvent("marriage-live", { detail: detail }));
}

function swap(doc) {
  // A page that shows another thing now (a member's link that moved on to the
  // next evening): the whole page, not its parts.
  var shown = document.querySelector("[data-follow-page]");
  var now = doc.querySelector("[data-follow-page]");
  if (shown && now && shown.dataset.followPage !== now.dataset.followPage) {
    location.reload();
    return;
  }
  doc.querySelectorAll("[data-follow-part]").forEach(function (part) {
    var here = document.getElementById(part.id);
    if (!here) return;
    if (here.dataset.position && here.dataset.position === part.dataset.position) return;
    var fresh = document.importNode(part, true);
    here.replaceWith(fresh);
    if (window.htmx) window.htmx.process(fresh);
  });
  // A part the page no longer has (the standings shown right after a save)
  // gives way to what the page shows now.
  document.querySelectorAll("[data-follow-part]").forEach(function (here) {
    if (here.id && !doc.getElementById(here.id)) here.remove();
  });
  document.dispatchEvent(new CustomEvent("marriage-followed"));
}

function refresh() {
  return fetch(location.pathname + location.search, {
    credentials: "same-origin",
    cache: "no-store",
    headers: { "X-Follow": "1" },
  }).then(function (response) {
    if (response.status === 404) {
      // What the page shows is gone (a round deleted on another phone): the
      // page itself says so, and where it went.
      gone = true;
      location.reload();
      return;
    }
    if (!response.ok) return;
    return response.text().then(function (html) {
      swap(new DOMParser().parseFromString(html, "text/html"));
    });
  });
}

function poll() {
  var follow = document.getElementById("follow");
  if (!follow || busy || gone || document.hidden) return;
  if (follow !== followed) {
    followed = follow;
    etag = follow.dataset.followEtag;
  }
  var url = follow.dataset.follow;
  busy = true;
  var wait = new AbortController();
  var limit = setTimeout(function () {
    wait.abort();
  }, 4000);
  fetch(url, {
    credentials: "same-origin",
    cache: "no-store",
    headers: { "If-None-Match": '"' + etag + '"' },
    signal: wait.signal,
  })
    .then(function (response) {
      told(response.status);
      if (response.status === 404) {
        gone = true;
        location.reload(); // revoked: the page says so
        return;
      }
      if (response.status !== 200) return;
      var sent = (response.headers.get("ETag") || "").replace(/^W\//, "").replace(/"/g, "");
      return refresh().then(function () {
        if (sent) etag = sent;
      });
    })
    .catch(function () {
      told(0);
    })
    .finally(function () {
      clearTimeout(limit);
      busy = false;
    });
}

setInterval(poll, every);
document.addEventListener("visibilitychange", poll);
window.addEventListener("online", poll);
// Asked by a page that changed something itself (a seat that sent its count).
document.addEventListener("marriage-follow-now", poll);

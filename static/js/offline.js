// Offline at the table (README): registers the service worker, says when a page
// shows what the phone kept ("Offline — standings as of 21:14") and when the
// network is back ("Back online. [Show the latest]"), keeps a round
// saved with no network on the phone (offline-queue.js) and lists it in its
// session as waiting to send, sends the waiting rounds when the network returns,
// and clears this user's copies at log-out. The pages work without it.
import * as Queue from "./offline-queue.js";
import * as known from "./known.js";

// Every page has these (base.html includes scoring/offline/_page.html).
const strings = document.getElementById("offline-strings");
const words = strings.dataset;
const banner = document.getElementById("offline-banner");
const loadedAt = Date.now();
const storedAt = Number(document.body.dataset.offlineStored) || 0;
const fallback = "fallback" in words;
const sessionMatch = location.pathname.match(/^\/sessions\/(\d+)\//);
const sessionId = sessionMatch ? sessionMatch[1] : null;
const roundForm = document.getElementById("round-form");
const userKnown = words.user ? Promise.resolve(words.user) : keptUser();

function say(name, params) {
  const text = words[name] || "";
  return text.replace(/%\((\w+)\)s/g, (_, key) =>
    params && key in params ? String(params[key]) : "",
  );
}

function clock(ms) {
  const at = new Date(ms);
  return ("0" + at.getHours()).slice(-2) + ":" + ("0" + at.getMinutes()).slice(-2);
}

// The offline page is kept signed out: whose rounds to list, the worker knows.
function keptUser() {
  if (!window.caches) return Promise.resolve("");
  return caches
    .open("marriage-meta")
    .then((cache) => cache.match("/__offline__/user"))
    .then((hit) => (hit ? hit.text() : ""))
    .catch(() => "");
}

function signedIn(user) {
  return Boolean(user) && user !== "public";
}

// --- The service worker -------------------------------------------------------------------

let registered = null;
const controlled = "serviceWorker" in navigator && Boolean(navigator.serviceWorker.controller);
if ("serviceWorker" in navigator && words.sw) {
  registered = navigator.serviceWorker
    .register(words.sw, { scope: "/", type: "module" })
    .catch(() => null); // no worker (a private window): the pages still work online
  if (!controlled && !storedAt && !fallback) {
    navigator.serviceWorker.ready.then((registration) => {
      // This page came from the network before the worker ran: the worker
      // learns whose it is, and keeps it if the server marked it.
      if (!registration.active) return;
      if (signedIn(words.user)) registration.active.postMessage({ type: "user", user: words.user });
      registration.active.postMessage({ type: "keep", url: location.href });
    });
  }
}

// --- The banner ---------------------------------------------------------------------------

// The share page's live part, polled (static/js/live.js): its standings are
// as of the last poll answered, not of the page's load.
const live = document.querySelector("[data-live-poll]");
let lastPoll = 0;

function showBanner() {
  if (!banner) return;
  banner.textContent = say("offlineAt", {
    time: clock(Math.max(storedAt, lastPoll) || loadedAt),
  });
  banner.hidden = false;
  document.documentElement.classList.add("is-offline");
}

function hideBanner() {
  if (banner) banner.hidden = true;
  document.documentElement.classList.remove("is-offline");
}

if (storedAt || !navigator.onLine) showBanner();
// A kept copy is the page as it was kept, with the message its request got
// ("Round 5 saved."): said once, to that request, and stale on any later day.
if (storedAt) {
  document.querySelectorAll("main > .messages").forEach((said) => {
    said.remove();
  });
}
window.addEventListener("offline", showBanner);
window.addEventListener("online", () => {
  if ((storedAt || fallback) && words.check) {
    startChecking(true); // back once the network answers (below)
    return;
  }
  if (live && !storedAt && !fallback) {
    send(); // the banner goes when a poll answers (below)
    return;
  }
  hideBanner();
  send().then(() => {
    // A copy kept before pages said what to check (no data-check: kept
    // copies are the HTML of the deploy they came from): as then, the page
    // as it is now. (Never the round form, which may be half filled in; the
    // share page catches up by its own polling.)
    if ((storedAt || fallback) && !roundForm && !live) location.reload();
  });
});

// The share page left open: live.js says how each poll went. One not
// answered (the network gone, or hanging while the browser says it is
// online) puts the banner up with the time of the last one answered; one
// answered takes it down. A page shown from the phone learns that the
// network is back from its check (below), as its other pages do.
window.addEventListener("marriage-live", (event) => {
  const detail = event.detail || {};
  if (detail.fresh) lastPoll = Date.now();
  if (returned || ((storedAt || fallback) && words.check)) return;
  if (!detail.answered) showBanner();
  else if (navigator.onLine) hideBanner();
});

// --- The network back, on a page shown from the phone --------------------------------------

// The banner says so, with a button for the page as it is now. The rounds
// waiting are sent; then the page reloads by itself, once (after the sending,
// or SEND_WAIT if that hangs). Never the round form, which may be half filled
// in, and never twice in a row: a reload that brought the kept copy back
// again (the network slow, not gone) leaves it to the button.
const RELOADED = "offline-reloaded";
const SEND_WAIT = 5000;
let returned = false;
let reloading = false;

if (!storedAt && !fallback) {
  try {
    sessionStorage.removeItem(RELOADED); // a page from the network: the next return reloads again
  } catch (error) {
    // no storage
  }
}

function showLatest() {
  try {
    sessionStorage.setItem(RELOADED, location.href);
  } catch (error) {
    // no storage: at worst a slow page is reloaded more than once
  }
  location.reload();
}

function reloadedAlready() {
  try {
    return sessionStorage.getItem(RELOADED) === location.href;
  } catch (error) {
    return false;
  }
}

function backOnline() {
  returned = true;
  stopChecking();
  if (banner) {
    const button = element("button", "button secondary", words.showLatest);
    button.type = "button";
    button.addEventListener("click", showLatest);
    banner.replaceChildren(document.createTextNode(words.backOnline + " "), button);
    banner.hidden = false;
  }
  document.documentElement.classList.remove("is-offline");
  const sent = send().catch(() => null); // the rounds wait for next time
  if (roundForm || reloading || reloadedAlready()) return;
  reloading = true;
  const waited = new Promise((resolve) => {
    setTimeout(resolve, SEND_WAIT);
  });
  Promise.race([sent, waited]).then(showLatest);
}

// --- Is the network back? ------------------------------------------------------------------

// A page shown from the phone while the browser says it is online: the
// network hung rather than went, and no `online` event will say when it
// answers. The page asks, with a small request (the manifest) that the worker
// sends on its own way to the network, the one a reload takes, never from a
// cache (X-Offline-Check): after 5 s, then 10, 20 and every 30 s (the first
// wait from the worker, data-offline-recheck), one at a time, each given up
// after CHECK_LIMIT, until one is answered or the page is left. The `online`
// event asks at once. A check that fails only waits for the next; a hidden
// page asks when it is shown again.
const CHECK_FIRST = Number(document.body.dataset.offlineRecheck) || 5000;
const CHECK_LIMIT = 10000;
const checking = { timer: null, delay: CHECK_FIRST, stopped: true, idle: false, asking: null };

// While rounds wait to be sent, every CHECK_WAITING at most: they go, and
// the page shows them, soon after the network answers.
const CHECK_WAITING = 1000;
const CHECK_WAITING_LIMIT = 3000;
// Rounds of this user wait to be sent (set by render, below). Declared before
// startChecking() runs, which reads it as the page loads.
let waitingHere = false;

function nextCheck() {
  clearTimeout(checking.timer);
  checking.timer = setTimeout(
    check,
    waitingHere ? Math.min(checking.delay, CHECK_WAITING) : checking.delay,
  );
  checking.delay = Math.min(checking.delay * 2, CHECK_FIRST * 6);
}

function check() {
  clearTimeout(checking.timer);
  checking.timer = null;
  if (checking.stopped || !navigator.onLine) return; // offline: the `online` event will say
  if (document.hidden) {
    checking.idle = true;
    return;
  }
  if (checking.asking) checking.asking.abort(); // asked again at once (the `online` event)
  const giveUp = new AbortController();
  checking.asking = giveUp;
  const limit = setTimeout(
    () => {
      giveUp.abort();
    },
    waitingHere ? CHECK_WAITING_LIMIT : CHECK_LIMIT,
  );
  fetch(words.check, {
    cache: "no-store",
    credentials: "same-origin",
    headers: { "X-Offline-Check": "1" },
    signal: giveUp.signal,
  })
    .then(
      (response) => response.ok,
      () => false,
    )
    .then((answered) => {
      clearTimeout(limit);
      if (checking.asking !== giveUp) return; // a newer check asks
      checking.asking = null;
      if (checking.stopped) return;
      if (answered) backOnline();
      else nextCheck();
    });
}

function startChecking(now) {
  if (!(storedAt || fallback) || !words.check || !navigator.onLine || reloading) return;
  checking.stopped = false;
  checking.delay = CHECK_FIRST;
  if (now) check();
  else nextCheck();
}

function stopChecking() {
  checking.stopped = true;
  clearTimeout(checking.timer);
}

document.addEventListener("visibilitychange", () => {
  if (document.hidden || !checking.idle) return;
  checking.idle = false;
  check();
});
window.addEventListener("pagehide", stopChecking);
window.addEventListener("pageshow", (event) => {
  if (event.persisted && !returned) startChecking(); // back from the browser's back-forward cache
});
startChecking();

// --- Sending ------------------------------------------------------------------------------

function send() {
  if (!navigator.onLine) return Promise.resolve(null);
  return userKnown.then((user) => {
    if (!signedIn(user)) return null;
    return Queue.sendAll(user, {
      loginUrl: words.login,
      timeout: Number(words.saveWait) || 0,
    }).then((report) => {
      const here = report.sent.some((record) => record.session === sessionId);
      report.sent.forEach((record) => {
        learn(user, record.session, report.answers[record.key]);
      });
      keepAgain(report.sent);
      // A round of this session arrived: its ledger, as the server now has it.
      if (here && !roundForm && !storedAt) showArrived();
      else render();
      retryLater(report);
      return report;
    });
  });
}

// The worker's Background Sync asked for, where the browser has it: the rounds
// waiting go when the network returns, even with the app closed.
export function sendLater() {
  return (registered || Promise.resolve(null)).then((registration) =>
    Queue.askForSync(registration),
  );
}

// The waiting rounds sent now (the round form saves in place through this:
// round-save.js), with the server's answers: the report of Queue.sendAll.
export function sendWaiting() {
  return send();
}

// What the server said of a session in the answer to a save: the newest the
// phone knows of it (known.js).
function learn(user, session, answer) {
  if (answer && answer.chain) known.remember(user, session, answer.chain);
}

// The session's page as the server now has it, with the rounds just sent
// (at the page's path: a `?queued=` from the worker's redirect is not the
// page asked for any more).
let arriving = false;

function showArrived() {
  if (arriving) return;
  arriving = true;
  location.replace(location.pathname + location.hash);
}

// The copies the phone keeps of the pages of a session whose rounds were
// just sent say the rounds before them (the round form's number, dealer and
// dhoos pending): kept again, as they are now.
function keepAgain(sent) {
  if (!sent.length || !registered) return;
  const sessions = {};
  sent.forEach((record) => {
    // A Marriage session's number; a pot hand's queue is "pots-N", kept by its page.
    if (/^\d+$/.test(record.session)) sessions[record.session] = true;
  });
  keepPagesAgain(Object.keys(sessions));
}

// The worker fetches the pages of `sessions` again, to keep them as they are now.
export function keepPagesAgain(sessions) {
  if (!registered) return;
  registered.then((registration) => {
    if (!registration || !registration.active) return;
    sessions.forEach((session) => {
      ["/sessions/" + session + "/", "/sessions/" + session + "/rounds/new/"].forEach((path) => {
        registration.active.postMessage({
          type: "keep",
          url: new URL(path, location.href).href,
        });
      });
    });
  });
}

// Rounds still waiting after a send that found no network, or a server
// error, while the browser says it is online (a line that looks online but
// fails, no `online` event to come): tried again by themselves, soon
// (RETRY_FIRST), then less often after a server error.
const RETRY_FIRST = 1000;
const RETRY_MOST = 30000;
const retry = { timer: null, delay: RETRY_FIRST };

function retryLater(report) {
  clearTimeout(retry.timer);
  retry.timer = null;
  if (!report || (report.stopped !== "offline" && report.stopped !== "server")) {
    retry.delay = RETRY_FIRST;
    return;
  }
  if (storedAt || fallback) return; // a page shown from the phone checks the network itself (below)
  const wait = report.stopped === "server" ? retry.delay : RETRY_FIRST;
  retry.delay = Math.min(retry.delay * 2, RETRY_MOST);
  retry.timer = setTimeout(() => {
    retry.timer = null;
    if (document.hidden || !navigator.onLine) return; // shown again, or the `online` event, sends
    send();
  }, wait);
}

document.addEventListener("visibilitychange", () => {
  if (!document.hidden && waitingHere && navigator.onLine && !storedAt && !fallback) send();
});

// --- Waiting rounds, in their session's page ---------------------------------------------

const list = document.querySelector("[data-offline-queue]");

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function describe(record) {
  const summary = record.summary || {};
  const parts = [say("savedAt", { time: clock(record.created) })];
  if (summary.winner) parts.push(say("winner", { name: summary.winner }));
  else if (summary.winner === null) parts.push(words.noWinner);
  return parts.join(" · ");
}

function figures(record) {
  const players = (record.summary && record.summary.players) || [];
  return players
    .map((player) => {
      const net = player.net;
      const shown = net === undefined || net === null ? "" : " " + (net > 0 ? "+" : "") + net;
      return player.name + shown;
    })
    .join(" · ");
}

function statusOf(record, held) {
  if (record.status === "refused") return words.refused;
  if (record.status === "login") return words.loginAgain;
  return held ? words.held : words.waiting;
}

function item(record, held) {
  const li = element("li", "queued-round" + (record.status === "refused" ? " refused" : ""));
  li.dataset.key = record.key;
  const head = element("p", "queued-head");
  head.appendChild(element("b", "", describe(record)));
  head.appendChild(document.createTextNode(" · "));
  head.appendChild(element("span", "queued-status", statusOf(record, held)));
  li.appendChild(head);
  const numbers = figures(record);
  if (numbers) li.appendChild(element("p", "small num-line", numbers));
  if (record.status === "refused") {
    const problems = element("ul", "errorlist");
    (record.messages || []).forEach((text) => {
      problems.appendChild(element("li", "", text));
    });
    li.appendChild(problems);
    const actions = element("div", "actions");
    const fix = element("a", "button secondary", words.fix);
    fix.href = record.url + "?fix=" + encodeURIComponent(record.key);
    const discard = element("button", "button secondary", words.discard);
    discard.type = "button";
    discard.dataset.discard = record.key;
    actions.appendChild(fix);
    actions.appendChild(discard);
    li.appendChild(actions);
  }
  return li;
}

function render() {
  if (!list) return Promise.resolve();
  return userKnown
    .then((user) => (signedIn(user) ? Queue.list(user) : []))
    .then((records) => {
      const mine = records.filter(
        (record) => !list.dataset.session || record.session === list.dataset.session,
      );
      waitingHere = records.some((record) => record.status === "waiting");
      // Rounds waiting: the next check whether the network answers comes sooner.
      if (waitingHere && !checking.stopped && checking.timer) nextCheck();
      // "Saved on this phone…" goes once nothing of this session waits to be sent.
      const queuedNote = document.getElementById("offline-queued-note");
      const sending = mine.some((record) => record.status !== "refused");
      if (queuedNote && !sending) queuedNote.remove();
      list.replaceChildren();
      list.hidden = mine.length === 0;
      if (!mine.length) return;
      const section = element("section", "card offline-queue");
      section.setAttribute("aria-labelledby", "offline-queue-title");
      const title = element("h2", "", words.waitingTitle);
      title.id = "offline-queue-title";
      section.appendChild(title);
      const ul = element("ul", "queued-rounds");
      const held = {};
      mine.forEach((record) => {
        ul.appendChild(item(record, held[record.session]));
        if (record.status === "refused") held[record.session] = true;
      });
      section.appendChild(ul);
      list.appendChild(section);
    });
}

if (list) {
  list.addEventListener("click", (event) => {
    const button = event.target.closest("[data-discard]");
    if (!button) return;
    Queue.remove(button.dataset.discard).then(render).then(send);
  });
  const channel = Queue.channel();
  if (channel) {
    // A round of this session sent from elsewhere (the worker's Background
    // Sync, another tab): the ledger as the server now has it, once the
    // rounds of this session have all gone (the list says what still waits).
    channel.onmessage = (event) => {
      const detail = event.data || {};
      if (detail.sent && detail.answer) {
        userKnown.then((user) => {
          learn(user, detail.session, detail.answer);
        });
      }
      render().then(() => {
        if (!detail.sent || detail.session !== sessionId || roundForm || !navigator.onLine) return;
        return userKnown.then((user) =>
          Queue.list(user).then((records) => {
            const left = records.some(
              (record) => record.session === sessionId && record.status === "waiting",
            );
            if (!left) showArrived();
          }),
        );
      });
    };
  }
  window.addEventListener("marriage-queue", render);
}

// --- The round form with no network --------------------------------------------------------

// The round form's own reading of its round (offline-preview.js gives it).
let roundSummary = null;

export function provideRoundSummary(summary) {
  roundSummary = summary;
}

// The round form's save in place (round-save.js): given the submit event, true
// when it took the save (kept and sent by the queue, the screen answered on
// the phone), false to let the form post as it would without scripts.
let roundSave = null;

export function provideRoundSave(save) {
  roundSave = save;
}

// The lines filled in from seats (seat-feed.js marks them), said to the
// server, which credits those values to the seat's phone in the round's
// history: a hidden p-<id>-seat on each.
export function markSeats(form) {
  form.querySelectorAll(".player-row").forEach((row) => {
    const name = "p-" + row.dataset.playerId + "-seat";
    let mark = form.querySelector('input[name="' + name + '"]');
    if (!row.classList.contains("from-seat")) {
      if (mark) mark.remove();
      return;
    }
    if (!mark) {
      mark = document.createElement("input");
      mark.type = "hidden";
      mark.name = name;
      row.appendChild(mark);
    }
    mark.value = "1";
  });
}

// What the ledger shows of a waiting round: names and, where the preview
// worked it out, each player's net.
function summaryOf(form) {
  // The round form's own reading (offline-preview.js): settled on the phone
  // after the rounds kept before it, as the server will.
  const reading = roundSummary ? roundSummary() : null;
  if (reading) return reading;
  const chosen = form.querySelector('input[name="winner"]:checked');
  let winner = null;
  if (chosen && chosen.value !== "none") {
    const label = chosen.closest("label");
    winner = label ? label.textContent.trim() : null;
  }
  const nets = {};
  form.querySelectorAll("#preview .breakdown-player").forEach((row) => {
    const net = row.querySelector(".net");
    if (net) nets[row.dataset.player] = Number(net.textContent.replace(/[^\d-]/g, ""));
  });
  const players = [];
  form.querySelectorAll(".player-row").forEach((row) => {
    const plays = row.querySelector('input[name$="-plays"]');
    if (plays && !plays.checked) return;
    const name = row.dataset.player;
    players.push({ name, net: name in nets ? nets[name] : null });
  });
  return { winner, players };
}

function keepOnPhone(form, fixing) {
  const entries = Array.from(new FormData(form).entries());
  return userKnown.then((user) => {
    const record = Queue.recordFrom({
      user,
      session: sessionId,
      url: new URL(form.action, location.href).pathname,
      entries,
      summary: summaryOf(form),
    });
    const saved = fixing
      ? Queue.get(fixing).then((old) => {
          record.key = fixing;
          if (old) record.created = old.created;
          return Queue.put(record);
        })
      : Queue.put(record);
    return saved
      .then(() => registered)
      .then((registration) => Queue.askForSync(registration))
      .then(() => {
        try {
          sessionStorage.setItem("offline-queued", record.key);
        } catch (error) {
          // no storage: the list says it all the same
        }
        location.href = "/sessions/" + sessionId + "/";
      });
  });
}

if (roundForm && sessionId) {
  const fixing = new URLSearchParams(location.search).get("fix");
  // A kept copy of the new-round form carries the one-time key it was kept
  // with: every round entered from it would share it, and the second would
  // take the first one's place in the queue (or be answered as it by the
  // server). Each showing of the form is a new save: a new key (a fix too,
  // which is sent under the form's key; its refused round saved nothing).
  const keyField = roundForm.querySelector('input[name="save_key"]');
  if (storedAt && keyField && /\/rounds\/new\/$/.test(location.pathname)) {
    keyField.value = freshKey();
  }
  // Capture: before save-once.js, which leaves a prevented submit alone.
  document.addEventListener(
    "submit",
    (event) => {
      if (event.target !== roundForm) return;
      markSeats(roundForm);
      if (roundSave && roundSave(event)) {
        event.preventDefault();
        return;
      }
      if (navigator.onLine && !fixing) {
        // The usual save, through the worker, which keeps it on the phone if
        // it is lost on the way: with what the list then says of it.
        let carried = roundForm.querySelector('input[name="offline_summary"]');
        if (!carried) {
          carried = document.createElement("input");
          carried.type = "hidden";
          carried.name = "offline_summary";
          roundForm.appendChild(carried);
        }
        carried.value = JSON.stringify(summaryOf(roundForm));
        return;
      }
      event.preventDefault();
      keepOnPhone(roundForm, fixing);
    },
    true,
  );
  if (fixing) fillFrom(fixing);
}

function freshKey() {
  if (window.crypto && typeof crypto.randomUUID === "function") return crypto.randomUUID();
  return String(Date.now()) + "-" + Math.random().toString(36).slice(2, 12);
}

// "Fix": the round form filled in with the waiting round's values. Its
// one-time key stays; this form's own token, number and version are kept.
function fillFrom(key) {
  Queue.get(key).then((record) => {
    if (!record) return;
    const keep = { csrfmiddlewaretoken: 1, number: 1, version: 1, save_key: 1 };
    const values = {};
    record.fields.forEach((pair) => {
      if (!keep[pair[0]]) (values[pair[0]] = values[pair[0]] || []).push(pair[1]);
    });
    roundForm.querySelectorAll("input").forEach((input) => {
      if (keep[input.name] || !input.name) return;
      const given = values[input.name] || [];
      if (input.type === "checkbox" || input.type === "radio")
        input.checked = given.includes(input.value);
      else input.value = given.length ? given[0] : "";
    });
    const note = element("div", "message error fixing-note");
    note.setAttribute("role", "status");
    note.appendChild(element("p", "", words.fixing));
    const problems = element("ul", "errorlist");
    (record.messages || []).forEach((text) => {
      problems.appendChild(element("li", "", text));
    });
    note.appendChild(problems);
    roundForm.insertBefore(note, roundForm.firstChild);
    roundForm.dispatchEvent(new Event("change", { bubbles: true }));
  });
}

// Back on the session's page after a save kept on the phone.
let queuedKey = null; // its one-time key
try {
  // (The worker's redirect after a save lost on the way says ?queued=.)
  const queued =
    sessionStorage.getItem("offline-queued") || new URLSearchParams(location.search).get("queued");
  if (queued && list) {
    queuedKey = queued;
    sessionStorage.removeItem("offline-queued");
    if (location.search) history.replaceState(history.state, "", location.pathname + location.hash);
    const note = document.createElement("p");
    note.id = "offline-queued-note";
    note.className = "message";
    note.setAttribute("role", "status");
    note.textContent = words.queued;
    list.parentNode.insertBefore(note, list);
  }
} catch (error) {
  // no storage
}

// --- Log-out: this user's copies and waiting rounds go with them -------------------------

document.addEventListener("submit", (event) => {
  const form = event.target;
  if (!words.logout || new URL(form.action, location.href).pathname !== words.logout) return;
  if (form.dataset.cleared) return;
  event.preventDefault();
  userKnown
    .then((user) => {
      if (!signedIn(user)) return true;
      return Queue.list(user).then((records) => {
        if (records.length && !window.confirm(words.logoutPending)) return false;
        known.forget(user);
        const work = [Queue.removeUser(user)];
        if (window.caches) work.push(caches.delete("marriage-pages-" + user));
        if (navigator.serviceWorker && navigator.serviceWorker.controller) {
          navigator.serviceWorker.controller.postMessage({ type: "forget", user });
        }
        return Promise.all(work).then(() => true);
      });
    })
    .catch(() => true) // storage unreadable: log out all the same
    .then((go) => {
      if (!go) return;
      form.dataset.cleared = "1";
      form.submit();
    });
});

// The round just kept may have been sent while this page loaded (the
// worker's Background Sync goes at once when the network is there), before
// this page listened to the queue: then the page as the server now has it.
function sentMeanwhile() {
  if (!queuedKey || storedAt || fallback || !navigator.onLine) return null;
  return Queue.get(queuedKey).then((record) => {
    if (!record) showArrived();
  });
}

render().then(sentMeanwhile).then(send);

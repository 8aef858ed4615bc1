// Rounds saved on the phone with no network, and sending them once it returns.
// One module for the pages (offline.js, offline-preview.js) and the service
// worker (a module worker, templates/scoring/offline/sw.js): both read and send
// the same IndexedDB queue.
//
// A record: {key (the form's one-time save_key), user (X-Offline-User), session,
// url (where the form posts), fields ([name, value] as the form sent them),
// summary (names and figures for the ledger), created, status ("waiting",
// "refused", "login"), messages (the server's, for a refused round)}.
//
// Sending is in order of saving and exactly once: the server remembers each
// save_key, so a round or an edit of one sent twice (a page and the worker at
// once, an answer lost on the way) is saved once. A round the server refuses
// stays, with its messages, and holds back the later rounds of its session
// until it is fixed or discarded: their numbers and the dhoos carried between
// them depend on it.
const DB_NAME = "marriage-offline";
const STORE = "rounds";
const SYNC_TAG = "marriage-send-rounds";
const LOCK = "marriage-send-rounds";
const channel =
  typeof BroadcastChannel === "function" ? new BroadcastChannel("marriage-queue") : null;

function promised(request) {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => {
      resolve(request.result);
    };
    request.onerror = () => {
      reject(request.error);
    };
  });
}

function open() {
  const request = indexedDB.open(DB_NAME, 1);
  request.onupgradeneeded = () => {
    const store = request.result.createObjectStore(STORE, { keyPath: "key" });
    store.createIndex("user", "user");
  };
  return promised(request);
}

function withStore(mode, work) {
  return open().then(
    (db) =>
      new Promise((resolve, reject) => {
        const tx = db.transaction(STORE, mode);
        let result;
        Promise.resolve(work(tx.objectStore(STORE))).then((value) => {
          result = value;
        }, reject);
        tx.oncomplete = () => {
          db.close();
          resolve(result);
        };
        tx.onerror = tx.onabort = () => {
          db.close();
          reject(tx.error);
        };
      }),
  );
}

function changed(detail) {
  if (channel) channel.postMessage(detail || {});
}

function newKey() {
  if (self.crypto && typeof crypto.randomUUID === "function") return crypto.randomUUID();
  return String(Date.now()) + "-" + Math.random().toString(36).slice(2, 12);
}

// A record from what the form sends. The page adds its reading of the round
// (names, figures) as `offline_summary`: the server ignores it, and a send
// from the queue leaves it out.
function recordFrom(options) {
  const fields = [];
  let key = "";
  let summary = options.summary || null;
  options.entries.forEach((pair) => {
    const name = pair[0];
    const value = typeof pair[1] === "string" ? pair[1] : "";
    if (name === "offline_summary") {
      try {
        summary = JSON.parse(value);
      } catch (error) {
        summary = null;
      }
      return;
    }
    if (name === "save_key") key = value;
    fields.push([name, value]);
  });
  if (!key) {
    // A form without a save_key (a page from before edits had one): a key for the
    // queue alone. Its version makes a second send of an edit refused, never doubled.
    key = "edit-" + newKey();
  }
  return {
    key,
    user: options.user,
    session: String(options.session),
    url: options.url,
    fields,
    summary,
    created: options.created || Date.now(),
    status: "waiting",
    messages: [],
  };
}

function put(record) {
  // Saved again under the same key (Save tapped twice): keep its place in the queue.
  return withStore("readwrite", (store) =>
    promised(store.get(record.key)).then((old) => {
      if (old) record.created = old.created;
      return promised(store.put(record));
    }),
  ).then(() => {
    changed({ session: record.session });
  });
}

function get(key) {
  return withStore("readonly", (store) => promised(store.get(key)));
}

function list(user) {
  if (!user) return Promise.resolve([]);
  return withStore("readonly", (store) => promised(store.index("user").getAll(user))).then(
    (records) => (records || []).sort((a, b) => a.created - b.created),
  );
}

function update(key, changes) {
  return withStore("readwrite", (store) =>
    promised(store.get(key)).then((record) => {
      if (!record) return null;
      Object.keys(changes).forEach((name) => {
        record[name] = changes[name];
      });
      return promised(store.put(record));
    }),
  ).then(() => {
    changed({ key });
  });
}

function remove(key, detail) {
  return withStore("readwrite", (store) => promised(store.delete(key))).then(() => {
    changed(detail || { key });
  });
}

function removeUser(user) {
  return list(user).then((records) => Promise.all(records.map((record) => remove(record.key))));
}

function askForSync(registration) {
  if (!registration || !registration.sync) return Promise.resolve();
  return registration.sync.register(SYNC_TAG).catch(() => {
    // Not allowed here (no permission, a private window): the page sends them.
  });
}

// --- Sending -------------------------------------------------------------------------------

function decode(text) {
  return text
    .replace(/<[^>]+>/g, "")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ")
    .trim();
}

// What the server said about a refused round: the form's list of problems,
// else the page's heading and first paragraph (a round deleted meanwhile).
// Plain text from the server's own HTML, shown with textContent.
function messagesOf(html) {
  const summary = html.match(/<div id="form-errors"[\s\S]*?<\/ul>/);
  let found = [];
  if (summary) {
    const items = summary[0].match(/<li>[\s\S]*?<\/li>/g) || [];
    found = items.map(decode).filter(Boolean);
  }
  if (!found.length) {
    const main = html.match(/<main[^>]*>([\s\S]*?)<\/main>/);
    const body = main ? main[1] : html;
    const parts = body.match(/<(h1|p)[^>]*>[\s\S]*?<\/\1>/g) || [];
    found = parts.slice(0, 2).map(decode).filter(Boolean);
  }
  return found;
}

function tokenOf(html) {
  const match = html.match(/name="csrfmiddlewaretoken" value="([^"]+)"/);
  return match ? match[1] : null;
}

// A send unanswered after `timeout` ms (a network that hangs) is given up, so
// that the next try is not stuck behind it; if it did arrive, the next one is
// answered as it was (its save_key).
function post(record, token, timeout) {
  const body = new URLSearchParams();
  record.fields.forEach((pair) => {
    body.append(pair[0], pair[0] === "csrfmiddlewaretoken" && token ? token : pair[1]);
  });
  const giveUp = typeof AbortController === "function" && timeout ? new AbortController() : null;
  const timer = giveUp
    ? setTimeout(() => {
        giveUp.abort();
      }, timeout)
    : null;
  // Answered as JSON (scoring/views/rounds.py wants_json): the round as saved,
  // the standings and the next round, with no redirect and no page after it.
  const sent = fetch(record.url, {
    method: "POST",
    body,
    credentials: "same-origin",
    headers: { Accept: "application/json" },
    signal: giveUp ? giveUp.signal : undefined,
  });
  return sent.then(
    (response) => {
      clearTimeout(timer);
      return response;
    },
    (error) => {
      clearTimeout(timer);
      throw error;
    },
  );
}

function sessionPath(record) {
  return "/sessions/" + record.session + "/";
}

// One record: "sent" (with the server's `answer`), "login" (signed out
// meanwhile), "server" (a 5xx: later) or "refused" with the server's messages.
// A network failure rejects.
function sendOne(record, options) {
  const loginUrl = (options && options.loginUrl) || "/accounts/login/";
  const timeout = (options && options.timeout) || 0;
  function judge(response, retried) {
    const path = new URL(response.url).pathname;
    if (path === loginUrl) return { outcome: "login" };
    if (response.status >= 500) return { outcome: "server" };
    if ((response.headers.get("Content-Type") || "").startsWith("application/json")) {
      return response.json().then((answer) => {
        if (response.ok && answer.ok) return { outcome: "sent", answer };
        return {
          outcome: "refused",
          messages: answer.messages || [],
          status: response.status,
          answer,
        };
      });
    }
    if (response.redirected && path === sessionPath(record) && response.ok)
      return { outcome: "sent" };
    if (response.status === 403 && !retried) {
      // A token from before a new log-in: a fresh one from the form, and once more.
      return fetch(record.url, { credentials: "same-origin" })
        .then((page) => page.text())
        .then((html) => post(record, tokenOf(html), timeout))
        .then((again) => judge(again, true));
    }
    return response.text().then((html) => ({
      outcome: "refused",
      messages: messagesOf(html),
      status: response.status,
    }));
  }
  return post(record, null, timeout).then((response) => judge(response, false));
}

function sendAllNow(user, options) {
  // answers: the server's answer to each record sent or refused, by key.
  const report = { sent: [], refused: [], stopped: null, answers: {} };
  return list(user).then((records) => {
    const held = {};
    let index = 0;
    function next() {
      if (index >= records.length) return report;
      const record = records[index++];
      if (record.status === "refused" || held[record.session]) {
        held[record.session] = true;
        return next();
      }
      return sendOne(record, options).then(
        (result) => {
          if (result.answer) report.answers[record.key] = result.answer;
          if (result.outcome === "sent") {
            report.sent.push(record);
            return remove(record.key, {
              session: record.session,
              sent: true,
              key: record.key,
              answer: result.answer || null,
            }).then(next);
          }
          if (result.outcome === "refused") {
            held[record.session] = true;
            report.refused.push(record);
            return update(record.key, { status: "refused", messages: result.messages }).then(next);
          }
          report.stopped = result.outcome;
          if (result.outcome === "login")
            return update(record.key, { status: "login" }).then(() => report);
          return report;
        },
        () => {
          report.stopped = "offline"; // the network went again: everything stays
          return report;
        },
      );
    }
    return next();
  });
}

// Sends this user's waiting rounds, one sender at a time across the pages and
// the worker (Web Locks where the browser has them; the save keys make an
// overlap harmless where it does not).
function sendAll(user, options) {
  if (!user || user === "public") {
    return Promise.resolve({ sent: [], refused: [], stopped: null, answers: {} });
  }
  const run = () => sendAllNow(user, options);
  if (self.navigator && navigator.locks && navigator.locks.request) {
    return navigator.locks.request(LOCK, run);
  }
  return run();
}

// A channel the pages and the worker say "the queue changed" on, where there is one.
function newChannel() {
  return typeof BroadcastChannel === "function" ? new BroadcastChannel("marriage-queue") : null;
}

export {
  SYNC_TAG,
  recordFrom,
  put,
  get,
  list,
  update,
  remove,
  removeUser,
  askForSync,
  sendAll,
  messagesOf,
  newChannel as channel,
};

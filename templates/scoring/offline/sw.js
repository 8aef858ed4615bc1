// The service worker (served by scoring.views.offline at /sw.js, scope /).
// README "Offline at the table": static files precached; the pages the server
// marks X-Offline-Cache kept per user (X-Offline-User) and shown when the network
// is gone; a round saved in a dead spot kept in IndexedDB and sent once later.
// A module worker (registered with type "module" by static/js/offline.js): it
// imports the queue module the pages import, by the name static() gives it.
import * as Queue from {{ queue_script|safe }};

const CONFIG = {{ config|safe }};

const STATIC_CACHE = "marriage-static-" + CONFIG.version;
const STATIC_PREFIX = "marriage-static-";
// Deploys whose static files stay on the phone: a page kept before a deploy
// names the files of its own (hashed in production), and shown offline it needs
// them. Each page kept again with the network on names the new ones.
const STATIC_KEPT = 3;
const PAGES_PREFIX = "marriage-pages-";
const META_CACHE = "marriage-meta";
const USER_KEY = "/__offline__/user";
const ROUND_FORM = /^\/sessions\/(\d+)\/rounds\/(?:new|\d+\/edit)\/$/;
// A network that hangs rather than fails (one bar of signal): a kept page is
// shown from the phone after NAVIGATION_TIMEOUT ms, and a round save still
// unanswered after SAVE_TIMEOUT ms is given up and kept on the phone.
const NAVIGATION_TIMEOUT = CONFIG.navigationTimeout;
const SAVE_TIMEOUT = CONFIG.saveTimeout;

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(STATIC_CACHE);
      await cache.addAll(CONFIG.precache);
      // Fetched signed out, so the page names nobody whoever is signed in now.
      const offline = await fetch(CONFIG.offlineUrl, { credentials: "omit" });
      if (offline.ok) await cache.put(CONFIG.offlineUrl, offline);
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      // A new deploy: static files older than the last STATIC_KEPT deploys go
      // (caches.keys() lists caches in the order they were made).
      const statics = (await caches.keys()).filter((name) => name.startsWith(STATIC_PREFIX));
      const older = statics.filter((name) => name !== STATIC_CACHE);
      for (const name of older.slice(0, Math.max(0, older.length - (STATIC_KEPT - 1)))) {
        await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

// The user whose pages are shown, kept across the worker's restarts.
async function currentUser() {
  const meta = await caches.open(META_CACHE);
  const stored = await meta.match(USER_KEY);
  return stored ? stored.text() : "public";
}

async function setUser(user) {
  if (!user) return;
  const before = await currentUser();
  if (before === user) return;
  const meta = await caches.open(META_CACHE);
  await meta.put(USER_KEY, new Response(user));
  // Someone else signed in: nothing of the one before is shown, or kept.
  for (const name of await caches.keys()) {
    if (
      name.startsWith(PAGES_PREFIX) &&
      name !== PAGES_PREFIX + user &&
      name !== PAGES_PREFIX + "public"
    ) {
      await caches.delete(name);
    }
  }
}

async function forget(user) {
  if (user && user !== "public") await caches.delete(PAGES_PREFIX + user);
}

// A page the server marked for keeping, with the time it was kept.
async function keep(response) {
  const user = response.headers.get("X-Offline-User");
  if (!user || response.headers.get("X-Offline-Cache") !== "1" || response.redirected) return;
  const body = response.clone(); // before the page reads the response
  const headers = new Headers(response.headers);
  headers.set("X-Offline-Stored", String(Date.now()));
  const copy = new Response(await body.blob(), {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
  const cache = await caches.open(PAGES_PREFIX + user);
  await cache.put(response.url, copy);
}

// The current user's kept copy of a page (or a public one), marked on <body> as
// shown from the phone (the page's script puts up the "Offline — standings as
// of 21:14" banner from it, and asks every CONFIG.recheck ms and longer whether
// the network answers again); null if the phone keeps none.
async function keptCopy(request) {
  const user = await currentUser();
  for (const name of [PAGES_PREFIX + user, PAGES_PREFIX + "public"]) {
    if (!(await caches.has(name))) continue;
    const cache = await caches.open(name);
    const hit =
      (await cache.match(request)) || (await cache.match(request.url, { ignoreSearch: true }));
    if (!hit) continue;
    const stored = hit.headers.get("X-Offline-Stored") || "";
    const marks =
      ' data-offline-stored="' + stored + '" data-offline-recheck="' + CONFIG.recheck + '"';
    const html = (await hit.text()).replace("<body", "<body" + marks);
    return new Response(html, { status: 200, headers: hit.headers });
  }
  return null;
}

// With no network: the kept copy, else the offline page.
async function kept(request) {
  const copy = await keptCopy(request);
  if (copy) return copy;
  const fallback = await caches.match(CONFIG.offlineUrl);
  return fallback || Response.error();
}

// Network first. A page the phone keeps is shown from the phone if the network
// has not answered within NAVIGATION_TIMEOUT; the answer, when it comes, is
// still kept, for the next visit. A page it does not keep waits for the network.
async function navigate(event) {
  const request = event.request;
  const network = fetch(request).then(async (response) => {
    const user = response.headers.get("X-Offline-User");
    if (user) await setUser(user);
    return { response, keeping: keep(response) };
  });
  event.waitUntil(network.then((answer) => answer.keeping).catch(() => null));
  let timer = null;
  const late = keptCopy(request)
    .catch(() => null)
    .then((copy) => {
      if (!copy) return new Promise(() => {}); // nothing to show instead: wait
      return new Promise((resolve) => {
        timer = setTimeout(() => resolve({ response: copy }), NAVIGATION_TIMEOUT);
      });
    });
  try {
    return (await Promise.race([network, late])).response;
  } catch (error) {
    return kept(request);
  } finally {
    clearTimeout(timer);
  }
}

// A round form (a new round or an edit) sent with no network, or unanswered
// after SAVE_TIMEOUT: kept on the phone, then the session's page. A save given
// up may have reached the server all the same; sent again with its save_key, it
// is answered as the first save, a new round and an edit alike. (A form without
// a save_key, a page from before edits had one, is not given up: an edit sent
// again after one that arrived would be refused as a conflict.)
async function saveRound(event, match) {
  const request = event.request;
  const form = await request
    .clone()
    .formData()
    .catch(() => null);
  const giveUp = new AbortController();
  const timer =
    form && form.get("save_key") ? setTimeout(() => giveUp.abort(), SAVE_TIMEOUT) : null;
  try {
    return await fetch(request, { signal: giveUp.signal });
  } catch (error) {
    if (!form) throw error; // nothing to keep
    // The page sent its reading of the round with it (offline_summary: the
    // winner and each player's net), so the list says the same as for a round
    // the page kept itself.
    const record = Queue.recordFrom({
      user: await currentUser(),
      session: match[1],
      url: new URL(request.url).pathname,
      entries: Array.from(form.entries()),
    });
    await Queue.put(record);
    await Queue.askForSync(self.registration);
    return Response.redirect(
      "/sessions/" + match[1] + "/?queued=" + encodeURIComponent(record.key),
      303,
    );
  } finally {
    clearTimeout(timer);
  }
}

async function olderStatic(request) {
  try {
    const response = await fetch(request);
    if (response.ok) return response;
    return (await caches.match(request)) || response; // gone from the server since
  } catch (error) {
    // A module a kept page imports is named as that deploy named it: hashed in
    // production, so found as it is; where the deploy is a query instead
    // (`?v=`, the browser tests'), the import names none, so any kept copy.
    const hit =
      (await caches.match(request)) || (await caches.match(request, { ignoreSearch: true }));
    if (hit) return hit;
    throw error;
  }
}

async function logOut(event) {
  const user = await currentUser();
  const response = await fetch(event.request);
  if (response.ok || response.redirected || response.type === "opaqueredirect") await forget(user);
  return response;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  // A page shown from the phone asking whether the network answers again: on
  // the worker's own way to the network, the one a reload takes, never a cache.
  if (request.headers.get("X-Offline-Check")) {
    event.respondWith(fetch(request).catch(() => Response.error()));
    return;
  }
  if (request.method === "GET" && CONFIG.precache.includes(url.pathname + url.search)) {
    event.respondWith(
      caches.match(request, { cacheName: STATIC_CACHE }).then((hit) => hit || fetch(request)),
    );
    return;
  }
  // Another static file: one a page kept before a deploy names. The network's,
  // else the copy an earlier deploy's worker kept.
  if (request.method === "GET" && url.pathname.startsWith(CONFIG.staticUrl)) {
    event.respondWith(olderStatic(request));
    return;
  }
  if (request.mode !== "navigate") return;
  if (request.method === "GET") {
    event.respondWith(navigate(event));
    return;
  }
  if (request.method === "POST" && url.pathname === CONFIG.logoutUrl) {
    event.respondWith(logOut(event));
    return;
  }
  const match = request.method === "POST" && url.pathname.match(ROUND_FORM);
  if (match) event.respondWith(saveRound(event, match));
});

self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (data.type === "user") event.waitUntil(setUser(data.user));
  if (data.type === "forget") event.waitUntil(forget(data.user));
  // A page opened before this worker ran: fetched once more, to be kept.
  if (
    data.type === "keep" &&
    typeof data.url === "string" &&
    new URL(data.url).origin === self.location.origin
  ) {
    event.waitUntil(
      fetch(data.url, { credentials: "same-origin" })
        .then(keep)
        .catch(() => null),
    );
  }
});

// The pages of a session whose rounds were just sent, kept again as they are
// now: the round form's number, dealer and dhoos pending follow the rounds
// (the page's script does the same when it sends them).
async function keepAgain(sent) {
  // A Marriage session's number; a pot hand's queue ("pots-N") has no such pages.
  const sessions = new Set(
    sent.map((record) => record.session).filter((session) => /^\d+$/.test(session)),
  );
  for (const session of sessions) {
    for (const path of ["/sessions/" + session + "/", "/sessions/" + session + "/rounds/new/"]) {
      try {
        await keep(await fetch(path, { credentials: "same-origin" }));
      } catch (error) {
        // the network went again: kept next time the page is opened
      }
    }
  }
}

// Background Sync, where the browser has it: the rounds go even with the app closed.
// Rounds left waiting because the network went again or the server failed make
// the sync fail, so that the browser tries again later; signed out, only logging
// in helps (the next page load sends them).
self.addEventListener("sync", (event) => {
  if (event.tag !== Queue.SYNC_TAG) return;
  event.waitUntil(
    currentUser()
      .then((user) => Queue.sendAll(user, { loginUrl: CONFIG.loginUrl, timeout: SAVE_TIMEOUT }))
      .then(async (report) => {
        await keepAgain(report.sent);
        if (report.stopped === "offline" || report.stopped === "server") {
          throw new Error("rounds still waiting to send");
        }
      }),
  );
});

// How a page follows its session live (docs/lan.md, "Live everywhere"): a
// stream (server-sent events, scoring/web/streams.py) says the page's version
// when it opens and whenever it changes, and the page then asks what it shows,
// as after a poll (`changed`). A stream that cannot open (an old browser, a
// proxy, a server that holds none: 204, or a full one: 503), dies, or goes
// quiet leaves the page polling every `every` ms (`poll`), a poll that fails
// waiting longer each time; a stream is tried again after 1, 2, 4 … 60 s.
// A page in the background keeps no stream and asks nothing; shown again, it
// opens one, whose first word catches it up.
//
// Each stream event, and each poll the page reports answered, is told to the
// offline banner as a "marriage-live" event (static/js/offline.js).

const QUIET_MS = 40000; // 2.5 of the stream's beats (HEARTBEAT_SECONDS): quieter is dead
const OPENING_MS = 6000; // a stream still not open then (a proxy holding it) has failed
const RETRY_FIRST_MS = 1000;
const RETRY_MAX_MS = 60000;
const POLL_MAX_MS = 16000; // a failed poll doubles the wait for the next, up to this

// answered: the server said anything; fresh: what the page shows is as of now.
export function told(answered, fresh = answered) {
  const detail = { answered, fresh };
  window.dispatchEvent(new CustomEvent("marriage-live", { detail }));
}

// streamUrl(): the stream's address now ("" for none); poll(): one conditional
// request, a promise of whether it was answered; changed(version): the stream's
// word. Returns { now }: ask at once (the page changed something itself).
export function followLive({ streamUrl, poll, changed, every }) {
  let source = null;
  let sourceUrl = "";
  let opened = false;
  let openedAt = 0;
  let heard = 0;
  let retryAt = 0;
  let retryWait = RETRY_FIRST_MS;
  let pollAt = Date.now() + every;
  let pollWait = every;
  let asking = false;

  function close() {
    if (source) source.close();
    source = null;
    opened = false;
  }

  function failed() {
    close();
    retryAt = Date.now() + retryWait;
    retryWait = Math.min(retryWait * 2, RETRY_MAX_MS);
    pollAt = 0; // at once: the stream may have missed a change
  }

  function open(url) {
    const here = new EventSource(url);
    const mine = (listener) => (event) => {
      if (source === here) listener(event);
    };
    source = here;
    sourceUrl = url;
    opened = false;
    openedAt = Date.now();
    here.addEventListener(
      "open",
      mine(() => {
        opened = true;
        heard = Date.now();
      }),
    );
    here.addEventListener(
      "version",
      mine((event) => {
        opened = true;
        heard = Date.now();
        retryWait = RETRY_FIRST_MS;
        told(true);
        changed(event.data);
      }),
    );
    here.addEventListener(
      "beat",
      mine(() => {
        heard = Date.now();
        told(true);
      }),
    );
    // The reader may no longer see it (a link turned off): the poll says so.
    here.addEventListener(
      "gone",
      mine(() => {
        close();
        retryAt = Date.now() + RETRY_MAX_MS;
        pollAt = 0;
        tick();
      }),
    );
    // A stream that has run its time: another at once.
    here.addEventListener(
      "bye",
      mine(() => {
        close();
        retryAt = 0;
        tick();
      }),
    );
    here.addEventListener(
      "error",
      mine(() => {
        failed();
        tick();
      }),
    );
  }

  function ask() {
    if (asking) return;
    asking = true;
    const started = Date.now();
    pollAt = started + pollWait; // the rhythm is kept from each ask's start
    Promise.resolve()
      .then(poll)
      .then(
        (answered) => answered !== false,
        () => false,
      )
      .then((answered) => {
        pollWait = answered ? every : Math.min(pollWait * 2, POLL_MAX_MS);
        pollAt = Math.max(pollAt, started + pollWait);
        asking = false;
      });
  }

  function tick() {
    if (document.hidden) {
      close();
      return;
    }
    const now = Date.now();
    const url = streamUrl();
    if (source && url !== sourceUrl) close();
    if (source && !opened && now - openedAt > OPENING_MS) failed();
    if (source && opened && now - heard > QUIET_MS) failed();
    if (!source && url && window.EventSource && now >= retryAt) open(url);
    if (!source && now >= pollAt) ask();
  }

  setInterval(tick, Math.min(every / 4, 250));
  document.addEventListener("visibilitychange", tick);
  window.addEventListener("online", () => {
    retryAt = 0;
    retryWait = RETRY_FIRST_MS;
    pollAt = 0;
    pollWait = every;
    tick();
  });
  tick();
  return {
    now() {
      pollAt = 0;
      ask();
    },
  };
}

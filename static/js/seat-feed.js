// The scorer's open round form (a new round) takes in what the seats send
// (templates/table/_round_seats.html): its stream (static/js/stream.js) says
// when a seat sent something, and then, or every second while it has no
// stream and the page is visible, the feed is asked with the last answer's
// ETag; each entry new since the last one fills that player's line and is
// marked with who sent it and when. Which fields there are, and of what kind,
// the answer says (`fields`, declared once in table/entry.py), and each entry
// the start of its player's names on the form (`prefix`): this script knows
// how to fill a kind, not the list. The scorer can still change anything,
// picks the winner and saves: nothing is saved from a seat alone.
//
// A module runs once per page however often its <script> comes in (an htmx
// swap of a part that includes table/_round_seats.html): the feed and the form
// of the moment are read each time, and a new feed (a form swapped in, for
// its round) starts afresh.
import { followLive } from "./stream.js";

let feed = null; // the #seat-feed the entries below came from
let roundForm = null;
const first = document.getElementById("seat-feed");
const every = (Number(first && first.dataset.seconds) || 1) * 1000;
let etag = "";
let applied = {}; // player id -> the "at" of the entry last put in the form
let busy = false;

function setChecked(input, on) {
  if (input) input.checked = Boolean(on);
}

function setValue(input, value) {
  if (input) input.value = value;
}

function mark(row, entry) {
  let note = row.querySelector("[data-seat-note]");
  if (!note) {
    note = document.createElement("p");
    note.className = "seat-note small";
    note.setAttribute("data-seat-note", "");
    row.appendChild(note);
  }
  const time = new Date(entry.at).toTimeString().slice(0, 5);
  note.textContent = feed.dataset.from.replace("%(name)s", entry.name).replace("%(time)s", time);
  row.classList.add("from-seat");
}

// The round's tiplu, once for the round: the first seat's, unless one is picked.
function fillCard(value, label) {
  const tiplu = roundForm.querySelector("[data-maal-tiplu]");
  if (!value || !tiplu || tiplu.value) return;
  tiplu.value = value;
  const face = roundForm.querySelector("[data-maal-tiplu-face]");
  if (face) face.textContent = label || value;
}

// Each kind of field, filled on the player's line from the entry's value;
// `find(name, value)` is the line's input of that name (and value, a radio).
const FILL = {
  choice(find, name, value) {
    setChecked(find(name, value), true);
  },
  flag(find, name, value) {
    setChecked(find(name), value);
  },
  points(find, name, value) {
    setValue(find(name), value ? String(value) : "");
  },
  tally(find, name, value) {
    setValue(find(name), value || "");
  },
};

function apply(entry, fields) {
  const row = roundForm.querySelector('[data-player-id="' + entry.player + '"]');
  if (!row) return false;
  const find = (name, value) => {
    const radio = value === undefined ? "" : `[value="${value}"]`;
    return roundForm.querySelector(`[name="${entry.prefix}${name}"]${radio}`);
  };
  setChecked(find("plays"), true); // a seat that sent plays the round
  fields.forEach(({ name, kind }) => {
    if (kind === "card") fillCard(entry[name], entry[name + "_label"]);
    else if (FILL[kind]) FILL[kind](find, name, entry[name]);
  });
  const summary = row.querySelector("[data-maal-summary]");
  if (summary) summary.textContent = "";
  mark(row, entry);
  return true;
}

function current() {
  const here = document.getElementById("seat-feed");
  if (here && here !== feed) {
    etag = "";
    applied = {};
  }
  feed = here;
  return here;
}

// One ask of the feed: a promise of whether it was answered.
function poll() {
  const here = current();
  roundForm = document.getElementById("round-form");
  if (!here || !roundForm || busy) return Promise.resolve(true);
  const url = here.dataset.seatFeed;
  busy = true;
  const headers = { Accept: "application/json" };
  if (etag) headers["If-None-Match"] = etag;
  return fetch(url, {
    credentials: "same-origin",
    cache: "no-store",
    headers,
  })
    .then((response) => {
      if (response.status !== 200) return true;
      etag = response.headers.get("ETag") || "";
      return response.json().then((answer) => {
        let changed = false;
        (answer.entries || []).forEach((entry) => {
          if (applied[entry.player] === entry.at) return;
          if (apply(entry, answer.fields || [])) {
            applied[entry.player] = entry.at;
            changed = true;
          }
        });
        // The settlement preview follows, as after a tap.
        if (changed) roundForm.dispatchEvent(new Event("change", { bubbles: true }));
        return true;
      });
    })
    .catch(() => false) // no network: the form works as without seats
    .finally(() => {
      busy = false;
    });
}

let waiting = false;

// The stream's word: the feed's validator now. Asked if it is not the last answer's.
function changed(version) {
  current();
  if (etag.replace(/^W\//, "").replace(/"/g, "") === version) return;
  if (busy) {
    waiting = true;
    return;
  }
  poll().then(() => {
    if (waiting) {
      waiting = false;
      poll();
    }
  });
}

followLive({
  streamUrl() {
    const here = current();
    return (here && here.dataset.stream) || "";
  },
  poll,
  changed,
  every,
});

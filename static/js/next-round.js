// The next round as the server will have it once the rounds of the session
// kept on the phone are sent (offline-queue.js): the new rounds kept there,
// settled after the saved rounds with the edits of them kept there applied
// (session-chain.js), as the server's settle_session settles the session
// after every send. Its number, dealer, better default and the dhoos pending
// before it.
//
// Used by the new-round form (offline-preview.js: its line, number, better
// default and preview) and, run as the page's script, by the session's page
// (templates/scoring/sessions/detail.html: its line "Round 3 · Dai deals").
// Both carry the same data, from scoring/templatetags/offline.py's
// offline_chain: {start (the next round as the server has it), seats,
// players [{id, name}] in seat order, saved (null, or the latest saved rounds
// [{id, round}] and the state before them: settled again when an edit of one
// waits), words (the line's, the server's own)}; and the line's markup, the
// server's partial as a skeleton (#next-round-template).
import * as engine from "./settlement.js";
import * as chain from "./session-chain.js";
import * as Queue from "./offline-queue.js";
import { filled } from "./slots.js";
import * as known from "./known.js";

const NEW = /\/rounds\/new\/$/;
const EDIT = /\/rounds\/(\d+)\/edit\/$/;

export function parse(json, fallback) {
  try {
    return JSON.parse(json);
  } catch (error) {
    return fallback;
  }
}

const DEVANAGARI = "०१२३४५६७८९";

// A count as the server reads it (scoring/engine/numbers.py parse_whole, with
// a Nepali keyboard's digits): a whole number with an optional sign, else the
// text as typed, which the engine refuses as the server does.
function points(value) {
  const text = typeof value === "string" ? value.trim() : "";
  if (text === "") return 0;
  const ascii = text.replace(/[०-९]/g, (digit) => String(DEVANAGARI.indexOf(digit)));
  return /^[+-]?[0-9]{1,18}$/.test(ascii) ? Number(ascii) : text;
}

// The round a round form's fields hold (`values` with get: FormData,
// URLSearchParams), its players [{id, name}] in seat order, as
// scoring/forms/rounds.py reads it; null while nobody is picked as winner.
export function roundFromFields(values, players) {
  const chosen = values.get("winner");
  if (!chosen) return null;
  let winner = null;
  const entries = [];
  players.forEach((player) => {
    const prefix = "p-" + player.id + "-";
    if (values.get(prefix + "plays") === null) return;
    const dublees = values.get(prefix + "dublees") !== null;
    if (chosen === player.id) winner = player.name;
    entries.push({
      player: player.name,
      // Dublees show the tiplu: seen, as the server takes it.
      status: values.get(prefix + "status") === "unseen" && !dublees ? "unseen" : "seen",
      maal: points(values.get(prefix + "maal")),
      tunnel: points(values.get(prefix + "tunnel")),
      dhoos: values.get(prefix + "dhoos") !== null,
      dublees,
    });
  });
  return {
    entries,
    winner,
    win_type: values.get("win_type") === "dublee" ? "dublee" : "normal",
    better: values.get("better") !== null,
  };
}

const NOBODY = { entries: [], winner: null, win_type: "normal", better: false };

// Follows the queue for one page's chain `data` under the session's `rules`.
// settle(records, before): the answer for the session's records in the queue
// (in order; `before`: the key of a refused round being fixed, whose place
// the form takes), {state, default, kept [{key, round}], edits (how many kept
// edits it applied), followed (anything kept moves the next round)}.
// arrived(key): a record settle last saw reached the server, which now has
// it (the page's data does not: a page of the server's is not reloaded
// while others wait).
export function follower(data, rules) {
  const players = data.players || [];
  const arrivedNew = []; // new rounds sent since the page's data, in order
  const arrivedEdits = {}; // round id -> the round as an edit sent since made it
  let last = { news: [], edits: {} };

  function settle(records, before) {
    let news = [];
    const edits = {};
    records.forEach((record) => {
      const edit = record.url.match(EDIT);
      const round = roundFromFields(new URLSearchParams(record.fields), players);
      if (edit) {
        if (round) edits[edit[1]] = { key: record.key, round };
      } else if (NEW.test(record.url)) {
        news.push({ key: record.key, round });
      }
    });
    if (before) {
      const at = news.findIndex((item) => item.key === before);
      if (at >= 0) news = news.slice(0, at);
    }
    last = { news, edits };
    let base = data.start;
    let applied = 0;
    const saved = data.saved;
    const changes = { ...arrivedEdits };
    Object.keys(edits).forEach((id) => {
      changes[id] = edits[id].round;
    });
    const touched = saved && saved.rounds.some((item) => item.id in changes);
    if (touched) {
      const rounds = saved.rounds.map((item) => {
        if (item.id in edits) applied += 1;
        return item.id in changes ? changes[item.id] : item.round;
      });
      base = chain.settleWaiting(engine, saved.start, rounds.concat(arrivedNew), rules).state;
    } else if (arrivedNew.length) {
      base = chain.settleWaiting(engine, data.start, arrivedNew, rules).state;
    }
    const answer = chain.settleWaiting(
      engine,
      base,
      news.map((item) => item.round || NOBODY),
      rules,
    );
    return {
      state: answer.state,
      base,
      default: chain.betterDefault(engine, answer.state, rules),
      kept: news,
      edits: applied,
      followed: news.length > 0 || applied > 0,
    };
  }

  function arrived(key) {
    if (last.news.length && last.news[0].key === key) {
      arrivedNew.push(last.news[0].round || NOBODY);
      last.news = last.news.slice(1);
      return;
    }
    Object.keys(last.edits).forEach((id) => {
      if (last.edits[id].key === key) arrivedEdits[id] = last.edits[id].round;
    });
  }

  return { settle, arrived };
}

function say(text, params) {
  return String(text || "").replace(/%\((\w+)\)[sd]/g, (_, name) =>
    params && name in params ? String(params[name]) : "",
  );
}

// The line before a round, templates/scoring/_next_round.html, in its words
// from the server: "Round 3 · Dai deals", and why it starts better. `line`
// gives way to a copy of the page's skeleton of the partial
// (#next-round-template), filled in.
export function sayNextRound(line, data, state, fallback) {
  const skeleton = document.getElementById("next-round-template");
  if (!line || !skeleton || !data.words) return;
  const words = data.words;
  const dealer = chain.dealerOf(data.seats || [], state.number);
  const reasons = [];
  if (fallback.rotation) {
    reasons.push(
      say(fallback.since === null ? words.rotationStart : words.rotationSince, fallback),
    );
  }
  if (fallback.dublee) reasons.push(words.dublee);
  line.replaceWith(
    filled(skeleton, {
      number: state.number,
      round: say(words.round, { number: state.number }),
      dealer: Boolean(dealer),
      deals: dealer ? say(words.deals, { dealer }) : "",
      better: Boolean(fallback.better),
      reason: reasons.join("; "),
    }),
  );
}

// --- The session's page ------------------------------------------------------------------------

function sessionPage() {
  const strings = document.getElementById("offline-strings");
  const user = strings ? strings.dataset.user : "";
  const match = location.pathname.match(/^\/sessions\/(\d+)\//);
  if (!user || user === "public" || !match) return;
  const session = match[1];
  let part = null;
  let data = null;
  let learnt = false; // the phone knows a newer state than the part (known.js)
  let following = null;

  // The part as the server last gave it (the page, or follow.js's swap), or
  // the newer state the phone learnt since this copy was kept.
  function read() {
    part = document.getElementById("session-standings");
    let given = part ? parse(part.dataset.chain || "null", null) : null;
    if (given && !given.start) given = null;
    known.remember(user, session, given);
    data = known.newest(user, session, given);
    learnt = Boolean(given) && data !== given;
    following = data ? follower(data, parse(part.dataset.rules, {})) : null;
  }

  function show() {
    if (!following) return Promise.resolve();
    const mine = following;
    return Queue.list(user).then((records) => {
      if (mine !== following) return; // the part was swapped meanwhile: shown again from it
      const answer = following.settle(records.filter((record) => record.session === session));
      if (answer.followed || learnt)
        sayNextRound(part.querySelector(".next-round"), data, answer.state, answer.default);
    });
  }

  function changed(detail) {
    if (following && detail && detail.sent && detail.key) following.arrived(detail.key);
    show().catch(() => {});
  }

  read();
  show().catch(() => {
    // no queue to read (storage off): the line as the server gave it
  });
  const channel = Queue.channel();
  if (channel) {
    channel.addEventListener("message", (event) => {
      changed(event.data);
    });
  }
  window.addEventListener("marriage-queue", (event) => {
    changed(event.detail);
  });
  // The server's parts again (follow.js): its line, followed on from it.
  document.addEventListener("marriage-followed", () => {
    read();
    show().catch(() => {});
  });
}

const standings =
  typeof document === "undefined" ? null : document.getElementById("session-standings");
if (standings && standings.dataset.chain) sessionPage();

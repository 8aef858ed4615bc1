// The round form's settlement, worked out on the phone at every keystroke
// (no request to the server): static/js/settlement.js is the browser's copy
// of the engine (tests/offline/test_settlement_parity.py holds the two to
// the same figures, notes and refusals), settling the round under the
// session's rules as the form carries them, in the server's own markup
// (_breakdown.html rendered as a skeleton, slots.js). Every problem is listed
// in the preview and beside its field, as the server says them; a winner not
// yet picked is said as soon as anything is in the form (typed, or sent from
// a seat).
//
// A new round's form also follows the newest state of its session the phone
// knows (known.js: the page, or a later answer to a save) and the rounds kept
// on the phone after it (next-round.js, session-chain.js): its number, dealer,
// better default and the dhoos pending before it. What is typed is kept as a
// draft until it is saved. round-save.js saves the round in place and asks
// this module for the round as the form holds it.
import * as engine from "./settlement.js";
import * as phrases from "./breakdown-words.js";
import * as Queue from "./offline-queue.js";
import * as nextRound from "./next-round.js";
import * as known from "./known.js";
import { filled } from "./slots.js";
import { provideRoundSummary } from "./offline.js";

// Loaded by the round form only (templates/scoring/rounds/form.html), which has these.
const form = document.getElementById("round-form");
const preview = document.getElementById("preview");
const t = document.getElementById("offline-preview-strings").dataset;
const skeleton = document.getElementById("breakdown-template");

function parse(json, fallback) {
  try {
    return JSON.parse(json);
  } catch (error) {
    return fallback;
  }
}

const rules = parse(form.dataset.rules, {});
const pagePending = parse(form.dataset.pending, []);
let pageChain = parse(form.dataset.chain || "null", null);
if (pageChain && !pageChain.start) pageChain = null;
const catalogue = parse(form.dataset.catalogue, {});
// The page's number format (localise/numbers.py): its separators, group sizes, money.
export const numbers = parse(form.dataset.numberFormat, { sep: ",", sizes: [3] });
export const num = phrases.grouper(numbers);
const english = (document.documentElement.lang || "en").slice(0, 2) === "en";

function translate(id) {
  return catalogue[id] || id;
}

// The form's players by id, as the rows name them, in seat order.
const formPlayers = Array.from(form.querySelectorAll(".player-row")).map((row) => ({
  id: row.dataset.playerId,
  name: row.dataset.player,
}));

// The round as the form holds it; null while nobody is picked as winner.
function roundOf() {
  return nextRound.roundFromFields(new FormData(form), formPlayers);
}

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function signed(n) {
  return (n > 0 ? "+" : "") + num(n);
}

// The values _breakdown.html's slots name, from settlement.js's result.
function breakdownData(result) {
  const say = { translate, num };
  // What the winner collects, as a sum a table can check: "15 + 34 + (−3) = 46"
  // (the winner_take filter's).
  const pays = result.players.filter((p) => !p.is_winner).map((p) => p.pay);
  const take = pays.reduce((sum, pay) => sum + pay, 0);
  const collects =
    pays.map((pay) => (pay >= 0 ? num(pay) : "(−" + num(-pay) + ")")).join(" + ") +
    " = " +
    (take >= 0 ? num(take) : "−" + num(-take));
  return {
    total: num(result.total),
    n: num(result.n),
    times: num(result.multiplier),
    no_winner: !result.winner,
    total_seen: num(result.total_seen),
    take: collects,
    players: result.players.map((p) => ({
      player: p.player,
      winner_class: p.is_winner ? "winner" : "",
      winner: p.is_winner,
      seen: p.status === "seen",
      dhoos: p.dhoos,
      dublees: p.dublees,
      net: signed(p.net),
      sign: p.net > 0 ? "pos" : p.net < 0 ? "neg" : "", // the sign_class filter's
      points: num(p.points),
      maal: num(p.maal),
      tunnel: Boolean(p.tunnel),
      counted: num(p.counted_tunnel),
      cut: p.counted_tunnel !== p.tunnel,
      held: num(p.tunnel),
      loser: Boolean(result.winner) && !p.is_winner,
      seen_only: Boolean(p.seen_only),
      w: num(p.w),
      ns: num(p.n_s),
      pay: num(p.pay),
      receives: p.is_winner,
      dhoos_net: p.dhoos_net ? signed(p.dhoos_net) : "",
      // A note with no words in the page's language is left out, never shown in English.
      notes: p.notes
        .filter((note) => english || note.id in catalogue)
        .map((note) => ({ note: engine.fill(note.id, note.params, translate) })),
      words: phrases.playerSentence(result, p, say),
    })),
    // Who sat the round out but pays a dhoos in it (next_round_winner, RULES.md 3a).
    outside: (result.outside || []).map((owed) => ({
      said: phrases.outsideSentence(result, owed, say),
    })),
  };
}

// Fields of a player's line, and of the round (scoring/forms/rounds.py).
const ROW_FIELDS = ["plays", "status", "maal", "tunnel", "dhoos", "dublees"];
const ROUND_FIELDS = ["players", "winner", "win_type", "better", "tiplu"];

// A problem as the server words it beside its field: "maal: must be …".
function fieldLine(problem) {
  if (problem.chooseWinner) return t.chooseWinner;
  const text = engine.fill(problem.id, problem.params, translate);
  return problem.field ? translate(problem.field) + ": " + text : text;
}

// Every problem as the server's preview lists them (RoundForm.all_errors):
// the round's own first, grouped by field in the order met, then each
// player's in the form's order, each message after its field's name.
function problemLines(problems, round) {
  const general = new Map();
  const players = new Map(round.entries.map((e) => [e.player, new Map()]));
  function add(groups, key, line) {
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(line);
  }
  problems.forEach((problem) => {
    const row = players.get(problem.player);
    if (problem.chooseWinner) {
      add(general, "winner", t.chooseWinner);
    } else if (row && ROW_FIELDS.includes(problem.field)) {
      add(row, problem.field, problem.player + ", " + fieldLine(problem));
    } else if (ROUND_FIELDS.includes(problem.field)) {
      add(general, problem.field, fieldLine(problem));
    } else {
      const text = engine.fill(problem.id, problem.params, translate);
      add(general, "round", problem.player ? problem.player + ", " + text : text);
    }
  });
  let lines = [];
  [general, ...players.values()].forEach((groups) => {
    groups.forEach((group) => {
      lines = lines.concat(group);
    });
  });
  return lines;
}

// The messages beside each field (the server's _errors.html lists, and the
// marks on the boxes they describe), as the problems have them now.
function placeProblems(problems) {
  const byList = new Map();
  problems.forEach((problem) => {
    const player = problem.player && formPlayers.find((p) => p.name === problem.player);
    let list = null;
    if (problem.chooseWinner) list = "err-winner";
    else if (player && ROW_FIELDS.includes(problem.field) && problem.field !== "plays")
      list = "err-p-" + player.id + "-" + problem.field;
    else if (["players", "winner", "win_type"].includes(problem.field))
      list = "err-" + problem.field;
    if (!list) return;
    if (!byList.has(list)) byList.set(list, []);
    byList.get(list).push(fieldLine(problem));
  });
  form.querySelectorAll("ul.errorlist[id^='err-']").forEach((list) => {
    const lines = byList.get(list.id) || [];
    list.replaceChildren(...lines.map((line) => element("li", "", line)));
    const box = form.querySelector("#" + list.id.slice(4));
    if (box && box.matches("input:not([type=hidden])")) {
      if (lines.length) {
        box.setAttribute("aria-invalid", "true");
        box.setAttribute("aria-describedby", list.id);
      } else if (box.getAttribute("aria-describedby") === list.id) {
        box.removeAttribute("aria-invalid");
        box.removeAttribute("aria-describedby");
      }
    }
  });
  form.querySelectorAll(".player-row").forEach((row) => {
    row.classList.toggle("has-error", Boolean(row.querySelector(".row-errors li")));
  });
}

// --- The chain of rounds: the newest the phone knows, then the rounds kept here ---------------

const editing = !pageChain; // only a new round's form follows the chain
const sessionMatch = location.pathname.match(/^\/sessions\/(\d+)\//);
export const sessionId = sessionMatch ? sessionMatch[1] : null;
const offlineStrings = document.getElementById("offline-strings");
export const user = offlineStrings ? offlineStrings.dataset.user : "";
let fixing = new URLSearchParams(location.search).get("fix");
known.remember(user, sessionId, pageChain);
// The round this form is for, as the newest state the phone knows leaves it,
// followed on after the rounds and edits kept on the phone (next-round.js).
let chainData = pageChain ? known.newest(user, sessionId, pageChain) : null;
let following = chainData ? nextRound.follower(chainData, rules) : null;
let onPhone = false; // rounds or edits kept here move this round: worked out after them
let after = null; // the chain's answer: {state, default} for this round
// Rounds kept here (or a state learnt since the page) have moved the form on.
let followed = Boolean(chainData) && chainData !== pageChain;
const numberField = form.querySelector('input[name="number"]');
const betterBox = form.querySelector("#better");
let betterTouched = false;
if (betterBox) {
  betterBox.addEventListener("change", (event) => {
    if (event.isTrusted) betterTouched = true;
  });
}

function keptRecords() {
  if (editing || !user || !sessionId) return Promise.resolve([]);
  // This session's new rounds and edits of its rounds, in order.
  return Queue.list(user).then((records) => records.filter((r) => r.session === sessionId));
}

// The seats' feed (table/_round_seats.html: its address and its stream's)
// asks for what is sent for this round: a new feed element for a new number,
// which seat-feed.js starts afresh.
function feedFollows(number) {
  const feed = document.getElementById("seat-feed");
  if (!feed) return;
  const at = (address) => {
    const url = new URL(address, location.href);
    url.searchParams.set("position", String(number));
    return url.pathname + url.search;
  };
  if (feed.dataset.seatFeed === at(feed.dataset.seatFeed)) return;
  const fresh = feed.cloneNode(false);
  fresh.dataset.seatFeed = at(feed.dataset.seatFeed);
  if (feed.dataset.stream) fresh.dataset.stream = at(feed.dataset.stream);
  feed.replaceWith(fresh);
}

let lastRecords = []; // the session's records as the queue was last read

// Works the chain out again from the queue; the form follows it.
export function follow() {
  if (editing) return Promise.resolve();
  return keptRecords().then((records) => {
    lastRecords = records;
    return followRecords(records);
  });
}

// The form follows `record` at once, as if read back from the queue (a round
// saved in place: the queue keeps it a moment later).
export function followWith(record) {
  if (editing) return Promise.resolve();
  return Promise.resolve(
    followRecords([...lastRecords.filter((kept) => kept.key !== record.key), record]),
  );
}

function followRecords(records) {
  // Fixing a refused round: the rounds kept before it come before it.
  const answer = following.settle(records, fixing);
  onPhone = answer.followed;
  const fallback = answer.default;
  const moved =
    !after ||
    after.state.number !== answer.state.number ||
    after.default.better !== fallback.better;
  after = { state: answer.state, default: fallback };
  // The form as the server gave it stands until something the phone knows
  // moves it on (a refused save's form keeps the better mark as it was sent).
  followed = followed || onPhone;
  if (!followed) return null;
  if (numberField) numberField.value = String(answer.state.number);
  feedFollows(answer.state.number);
  nextRound.sayNextRound(document.querySelector(".next-round"), chainData, answer.state, fallback);
  sayPending(answer.state.pending);
  if (betterBox && !betterTouched && moved && !restoring) betterBox.checked = fallback.better;
  shown = null; // what is pending may have changed: worked out again
  return show();
}

// The dhoos this round books to its winner, said under its line (the
// server's words: "Buwa owes 15 dhoos to the next winner").
function sayPending(owed) {
  const list = document.getElementById("pending-line");
  if (!list) return;
  list.replaceChildren(
    ...owed.map((d) =>
      element("li", "", t.owes.replace("%(name)s", d.player).replace("%(amount)s", num(d.amount))),
    ),
  );
  list.hidden = !owed.length;
}

// The server's answer to a save (round-save.js): the session as it now has
// it, followed on after the rounds still kept here.
export function restart(data) {
  if (editing || !data || !data.start) return Promise.resolve();
  known.remember(user, sessionId, data);
  // An answer to an earlier save, come after a later one's: the later stands.
  if (chainData && (chainData.version || 0) > data.version) return Promise.resolve();
  chainData = { ...data, words: data.words || (chainData && chainData.words) };
  following = nextRound.follower(chainData, rules);
  followed = true;
  return follow();
}

// The newest standings the phone knows of: the server's points, by name.
export function standingsData() {
  return chainData ? { seats: chainData.seats, ...chainData.standings } : null;
}

export function chainWords() {
  return chainData ? chainData.words : {};
}

// A round or an edit kept here reached the server: the form's starting point
// follows it (the rounds after it are still on the phone).
function arrived(key) {
  if (following) following.arrived(key);
}

function currentPending() {
  return after ? after.state.pending : pagePending;
}

// The round as the form holds it, settled in its place: {round (null with no
// winner), result (null if refused), problems, lines (as the preview lists
// them), number, nets {name: net} (with who sat out and pays a dhoos)}.
export function current() {
  const round = roundOf();
  const number = after ? after.state.number : Number(numberField ? numberField.value : 0);
  if (!round) {
    const problems = [{ chooseWinner: true, field: "winner" }];
    return { round: null, result: null, problems, lines: [t.chooseWinner], number, nets: {} };
  }
  let problems = engine.roundProblems(round, rules);
  let result = null;
  if (!problems.length) {
    try {
      result = engine.settleRound(round, rules, currentPending());
    } catch (error) {
      if (!(error instanceof engine.RoundError)) throw error;
      problems = [error];
    }
  }
  const nets = {};
  if (result) {
    result.players.forEach((p) => {
      nets[p.player] = p.net;
    });
    // A fouler who sat the round out and pays a waiting dhoos in it (next_round_winner).
    (result.outside || []).forEach((owed) => {
      nets[owed.player] = result.nets ? result.nets[owed.player] : -owed.amount;
    });
  }
  return { round, result, problems, lines: problemLines(problems, round), number, nets };
}

// What the ledger lists of this round while it waits on the phone: the
// winner and each player's net as the server will save them (offline.js asks
// when it keeps the round; round-save.js when it saves it in place).
export function summary() {
  const reading = current();
  if (!reading.round) return null;
  const nets = reading.nets;
  const playing = new Set(reading.round.entries.map((entry) => entry.player));
  return {
    winner: reading.round.winner,
    players: reading.round.entries
      .map((entry) => ({
        name: entry.player,
        net: entry.player in nets ? nets[entry.player] : null,
      }))
      .concat(
        Object.keys(nets)
          .filter((name) => !playing.has(name))
          .map((name) => ({ name, net: nets[name] })),
      ),
  };
}
provideRoundSummary(summary);

// --- The preview ---------------------------------------------------------------------------------

let shown = null; // what the preview shows, as JSON

// Anything in the form to settle: a box typed in, a line changed, or a
// line a seat sent (seat-feed.js).
export function entered() {
  if (touched || form.querySelector(".player-row.from-seat")) return true;
  return Array.from(form.querySelectorAll("[data-points]")).some((box) => box.value.trim());
}

function note() {
  if (onPhone && chainData && chainData.words.afterKept) return chainData.words.afterKept;
  return navigator.onLine ? "" : t.onPhone;
}

export function show() {
  const round = roundOf();
  const anything = entered();
  const key = JSON.stringify([round, anything, currentPending(), note()]);
  // Nothing new (the change that ends the typing in a box): the preview stays
  // as it is, so a tap on it is not lost.
  if (key === shown) return Promise.resolve();
  shown = key;
  if (!round && !anything) {
    placeProblems([]);
    preview.replaceChildren(element("p", "muted", t.fillIn));
    return Promise.resolve();
  }
  const reading = current();
  let problems = reading.problems;
  if (!round) {
    // No winner picked yet: said first, with whatever else is wrong already
    // (the line's problems of the round as it stands, win type aside).
    const unsettled = { ...nextRound.roundFromFields(withWinner(), formPlayers), winner: null };
    const others = engine
      .roundProblems(unsettled, rules)
      .filter((problem) => problem.field !== "win_type" && problem.field !== "winner");
    problems = [{ chooseWinner: true, field: "winner" }, ...others];
    reading.lines = problemLines(problems, unsettled);
  }
  placeProblems(problems);
  const content = [element("h2", "", t.settlement)];
  const said = note();
  if (said) content.push(element("p", "muted small offline-note", said));
  if (reading.result && !problems.length) {
    content.push(filled(skeleton, breakdownData(reading.result)));
  } else {
    content[0].textContent = t.notSettled;
    const list = element("ul", "errorlist");
    reading.lines.forEach((line) => list.appendChild(element("li", "", line)));
    content.push(list);
  }
  preview.replaceChildren(...content);
  return Promise.resolve();
}

// The form's values with "no winner" picked: the round's other problems.
function withWinner() {
  const values = new FormData(form);
  values.set("winner", "none");
  return values;
}

form.addEventListener("input", () => show());
form.addEventListener("change", () => show());
window.addEventListener("online", () => show());
window.addEventListener("offline", () => show());

// --- The draft: what is typed, kept on the phone until saved ----------------------------------

const SKIP = { csrfmiddlewaretoken: 1, save_key: 1, number: 1, version: 1, offline_summary: 1 };
let restoring = false;

function draftKey() {
  return (
    "marriage-draft:" + (user || "") + ":" + location.pathname + (fixing ? "?fix=" + fixing : "")
  );
}

function formMark() {
  // The round the draft is for: a new round's number, an edit's version.
  const version = form.querySelector('input[name="version"]');
  return version ? "v" + version.value : "n" + (numberField ? numberField.value : "");
}

function saveDraft() {
  if (restoring) return;
  const fields = [];
  new FormData(form).forEach((value, name) => {
    if (!SKIP[name] && !/-seat$/.test(name) && typeof value === "string")
      fields.push([name, value]);
  });
  try {
    localStorage.setItem(draftKey(), JSON.stringify({ mark: formMark(), fields }));
  } catch (error) {
    // no storage (a private window, full): the form works without a draft
  }
}

export function clearDraft() {
  try {
    localStorage.removeItem(draftKey());
  } catch (error) {
    // no storage
  }
}

// The draft typed into this form before a reload, if it is for the same round.
function restoreDraft() {
  // The draft is restored once the phone's queue is read, which on a slow phone
  // comes after the first taps: a draft saved by those taps must not undo the
  // ones after them.
  if (touched) return false;
  let draft;
  try {
    draft = JSON.parse(localStorage.getItem(draftKey()) || "null");
  } catch (error) {
    draft = null;
  }
  if (!draft || draft.mark !== formMark() || !Array.isArray(draft.fields)) return false;
  const values = new URLSearchParams(draft.fields);
  restoring = true;
  form.querySelectorAll("input").forEach((input) => {
    if (!input.name || SKIP[input.name]) return;
    const given = values.getAll(input.name);
    if (input.type === "checkbox" || input.type === "radio")
      input.checked = given.includes(input.value);
    else input.value = given.length ? given[0] : "";
  });
  if (betterBox) betterTouched = true; // as it was typed
  restoring = false;
  form.dispatchEvent(new Event("change", { bubbles: true }));
  return true;
}

let touched = false; // the reader has typed or tapped a field in this form since it was shown
function noteTouched(event) {
  // A tap on Save (or on a link) enters nothing in the round.
  if (event.isTrusted && event.target.closest("label, input")) touched = true;
}
form.addEventListener("input", noteTouched);
form.addEventListener("change", noteTouched);
form.addEventListener("pointerdown", noteTouched);
form.addEventListener("keydown", noteTouched);
form.addEventListener("input", saveDraft);
form.addEventListener("change", saveDraft);
document.addEventListener(
  "submit",
  (event) => {
    if (event.target === form) clearDraft();
  },
  true,
);

// The form emptied for the next round (round-save.js, after a save in place):
// nothing typed in it yet, its better mark the rules' again, and a fix done.
export function emptied() {
  touched = false;
  betterTouched = false;
  shown = null;
  if (fixing) {
    fixing = null;
    history.replaceState(history.state, "", location.pathname);
  }
  return show();
}

// --- Start, and follow the queue ---------------------------------------------------------------

const started = follow()
  .catch(() => null) // no queue to read (storage off): the form as the server gave it
  .then(() => {
    // A fix is filled in from its waiting round (offline.js), not from a draft.
    if (!fixing) restoreDraft();
    // The server's preview stands until something changes (a refused save's
    // has the server's own messages too), but for the note with no network.
    return navigator.onLine ? null : show();
  });

export function ready() {
  return started;
}

function queueChanged(detail) {
  started.then(() => {
    if (detail && detail.sent && detail.key) arrived(detail.key);
    return follow();
  });
}
const channel = Queue.channel();
if (channel) channel.addEventListener("message", (event) => queueChanged(event.data));
window.addEventListener("marriage-queue", (event) => queueChanged(event.detail));

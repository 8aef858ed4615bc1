// Save answered in place, so the scorer stays at the table: a new round's
// Save shows at once, from the phone's own settlement (offline-preview.js),
// the round's result and the standings after it (the server's markup,
// templates/scoring/_saved_standings.html, as a skeleton filled by
// standings.js) above the next round's empty form (its number, dealer, better
// default and the dhoos pending before it: the chain, next-round.js). The
// round goes to the server in the background through the phone's queue
// (offline-queue.js: kept with its one-time key, sent exactly once, and kept
// there while the network is gone); the server's answer (scoring/views/
// rounds.py, JSON) confirms it, or says where its figures differ and shows
// its own, or refuses the round, said where the eye is with Fix and Discard.
//
// An edit of a saved round answers in place too (the server's standings after
// it, no redirect and no page after it); one the server refuses is posted as
// the form would be without scripts, for the server's page with every problem.
// With no network an edit is kept on the phone as before.
import * as Queue from "./offline-queue.js";
import * as preview from "./offline-preview.js";
import { resolveRules } from "./settlement.js";
import { filled } from "./slots.js";
import { cents, money, moneyAfter, savedData, typedStake } from "./standings.js";
import { keepPagesAgain, provideRoundSave, sendLater, sendWaiting } from "./offline.js";

const form = document.getElementById("round-form");
const panel = document.getElementById("round-saved");
const statusLine = document.getElementById("round-saved-status");
const alertBox = document.getElementById("round-saved-alert");
const standingsBox = document.getElementById("round-saved-standings");
const skeleton = document.getElementById("saved-template");
const t = document.getElementById("offline-preview-strings").dataset;
const editing = Boolean(form.querySelector('input[name="version"]'));
const session = preview.sessionId;
const user = preview.user;
const maxPlayers = Number(resolveRules(parseRules()).max_players) || Infinity;

function parseRules() {
  try {
    return JSON.parse(form.dataset.rules);
  } catch (error) {
    return {};
  }
}

function say(text, params) {
  return String(text || "").replace(/%\((\w+)\)[sd]/g, (_, name) =>
    params && name in params ? String(params[name]) : "",
  );
}

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function freshKey() {
  if (window.crypto && typeof crypto.randomUUID === "function") return crypto.randomUUID();
  return String(Date.now()) + "-" + Math.random().toString(36).slice(2, 12);
}

const NEW = /\/rounds\/new\/$/;
const expected = new Map(); // a save made here: its key -> {number, nets, points} as shown
let shownKey = null; // the save the screen describes
let records = []; // this session's rounds waiting on the phone, in order
let justSaved = false; // the form was emptied by a save: a second tap has nothing to save
let native = false; // the next submit goes as the form would without scripts

function refreshRecords() {
  if (!user || !session) return Promise.resolve(records);
  return Queue.list(user).then((found) => {
    records = found.filter((record) => record.session === session);
    return records;
  });
}

// --- The standings the screen shows ----------------------------------------------------------

function netsOf(record) {
  const nets = {};
  ((record.summary && record.summary.players) || []).forEach((player) => {
    if (player.net !== null && player.net !== undefined) nets[player.name] = player.net;
  });
  return nets;
}

// The server's standings as the phone last heard them, with the new rounds
// waiting on the phone added (`extra`: one about to be kept), as they will be
// once they arrive.
function pointsNow(extra) {
  const known = preview.standingsData();
  const points = { ...((known && known.points) || {}) };
  waitingRounds(extra).forEach((record) => {
    const nets = netsOf(record);
    Object.keys(nets).forEach((name) => {
      points[name] = (points[name] || 0) + nets[name];
    });
  });
  return points;
}

// The stake a round waiting on the phone set from itself on, as typed on its
// form ("from this round on"), or null when it keeps the stake in force.
function stakeOf(record) {
  const typed = (record.fields || []).find(([name]) => name === "stake_per_point");
  return typed ? typedStake(typed[1]) : null;
}

// Each player's money as it will be once the rounds waiting here arrive
// (`extra`: one about to be kept), each round at the stake in force for it;
// null while the whole evening is at one stake (money is then points × it).
function moneyNow(extra) {
  const known = preview.standingsData();
  if (!known || known.stake === undefined) return null;
  const rounds = [];
  let stake = known.stake;
  waitingRounds(extra).forEach((record) => {
    stake = stakeOf(record) || stake;
    rounds.push({ nets: netsOf(record), stake });
  });
  const changed =
    known.changed || rounds.some((round) => cents(round.stake) !== cents(known.stake));
  if (!changed) return null;
  // The server's money; at one stake so far it sends none: its points at it.
  const points = known.points || {};
  const before =
    known.money ||
    moneyAfter(
      {},
      Object.keys(points).map((name) => ({ nets: { [name]: points[name] }, stake: known.stake })),
    );
  return moneyAfter(before, rounds);
}

// The stake in force for the next round typed here: the server's, or the
// last one a round waiting on the phone set.
function stakeNow(extra) {
  const known = preview.standingsData();
  return waitingRounds(extra).reduce(
    (stake, record) => stakeOf(record) || stake,
    known ? known.stake : undefined,
  );
}

function waitingRounds(extra) {
  const waiting = records.filter(
    (record) =>
      NEW.test(record.url) && record.status !== "refused" && (!extra || record.key !== extra.key),
  );
  if (extra) waiting.push(extra);
  return waiting;
}

// The form's line "Stake: NPR 1.00 a point" and its box, for the next round.
function showStake(extra) {
  const box = form.querySelector('input[name="stake_per_point"]');
  if (box) box.value = "";
  const fold = document.getElementById("stake-change");
  if (fold) fold.open = false;
  showStakeLine(extra);
}

function showStakeLine(extra) {
  const shown = document.getElementById("stake-now");
  const stake = stakeNow(extra);
  if (shown && stake !== undefined) shown.textContent = money(1, stake, preview.numbers);
}

// The standings after round `number` (its nets in it, the points after it,
// `cash`: the money after it once the stake changed), for the seats and stake
// of `chain` (the server's answer; by default the newest the form knows).
function standingsTable({ number, nets, points, cash, url, chain }) {
  const seats = chain ? chain.seats : (preview.standingsData() || {}).seats;
  const stake = chain ? chain.standings.stake : (preview.standingsData() || {}).stake;
  const words = chain ? chain.words : preview.chainWords();
  if (!seats || stake === undefined || !skeleton) return null;
  return filled(
    skeleton,
    savedData({
      seats,
      points,
      nets,
      stake,
      money: cash || undefined,
      format: preview.numbers,
      num: preview.num,
      roundWords: say((words && words.round) || "%(number)s", { number }),
      roundUrl: url,
    }),
  );
}

function showPanel(text, table) {
  statusLine.textContent = text;
  statusLine.hidden = !text;
  standingsBox.replaceChildren(...(table ? [table] : []));
  panel.hidden = false;
}

const saveNote = document.getElementById("save-note");

function clearAlert() {
  alertBox.replaceChildren();
  if (saveNote) saveNote.hidden = true;
}

// Said beside Save too, where the eye is while the next round is typed in:
// a link up to what the top of the screen says.
function noteBesideSave(title) {
  if (!saveNote) return;
  const link = element("a", "", title);
  link.href = "#round-saved";
  saveNote.replaceChildren(link);
  saveNote.hidden = false;
}

function showAlert(title, lines, actions) {
  const box = element("div", "error-summary round-alert");
  box.appendChild(element("h2", "", title));
  if (lines && lines.length) {
    const list = element("ul");
    lines.forEach((line) => list.appendChild(element("li", "", line)));
    box.appendChild(list);
  }
  if (actions) box.appendChild(actions);
  alertBox.replaceChildren(box);
  panel.hidden = false;
  if (justSaved) toTop();
  else noteBesideSave(title);
}

// The screen's top, where the answer is said: in view, and read out.
function toTop() {
  window.scrollTo(0, 0);
  statusLine.focus({ preventScroll: true });
}

// --- The form emptied for the next round ----------------------------------------------------

function emptyForm() {
  form.querySelectorAll('input[name="winner"]').forEach((input) => {
    input.checked = false;
  });
  form.querySelectorAll(".player-row").forEach((row, index) => {
    const pid = row.dataset.playerId;
    const field = (name) => form.querySelector('[name="p-' + pid + "-" + name + '"]');
    const plays = field("plays");
    if (plays) plays.checked = index < maxPlayers;
    const seen = form.querySelector('[name="p-' + pid + '-status"][value="seen"]');
    if (seen) seen.checked = true;
    ["dublees", "dhoos"].forEach((name) => {
      const box = field(name);
      if (box) box.checked = false;
    });
    ["maal", "tunnel", "maal_tally", "seat"].forEach((name) => {
      const box = field(name);
      if (box) box.value = "";
    });
    const said = row.querySelector("[data-maal-summary]");
    if (said) said.textContent = "";
    // What a seat sent went into the round just saved.
    row.querySelectorAll("[data-seat-note]").forEach((note) => note.remove());
    row.classList.remove("from-seat");
  });
  const normal = form.querySelector('input[name="win_type"][value="normal"]');
  if (normal) normal.checked = true;
  const tiplu = form.querySelector("[data-maal-tiplu]");
  if (tiplu) tiplu.value = "";
  const face = form.querySelector("[data-maal-tiplu-face]");
  if (face && face.dataset.empty) face.textContent = face.dataset.empty;
  form.querySelectorAll("#form-errors, .fixing-note").forEach((node) => node.remove());
  form.querySelectorAll('input[name="offline_summary"]').forEach((node) => node.remove());
  const key = form.querySelector('input[name="save_key"]');
  if (key) key.value = freshKey();
  justSaved = true;
}

// The form's fields as they were (a save that could not be kept on the phone).
function refill(fields) {
  const values = new URLSearchParams(fields);
  form.querySelectorAll("input").forEach((input) => {
    if (!input.name || input.name === "csrfmiddlewaretoken") return;
    const given = values.getAll(input.name);
    if (input.type === "checkbox" || input.type === "radio")
      input.checked = given.includes(input.value);
    else if (given.length || input.type !== "hidden") input.value = given.length ? given[0] : "";
  });
}

// What the form sends, as the queue keeps it.
function recordOfForm() {
  return Queue.recordFrom({
    user,
    session,
    url: new URL(form.action, location.href).pathname,
    entries: Array.from(new FormData(form).entries()).filter(
      ([name]) => name !== "offline_summary",
    ),
    summary: preview.summary(),
  });
}

// --- A new round ------------------------------------------------------------------------------

function saveNew() {
  const fixing = new URLSearchParams(location.search).get("fix");
  // A second tap on Save (nothing typed since the save): nothing to save.
  if (justSaved) return true;
  const reading = preview.current();
  // A stake the server would refuse: online, its page says why beside the
  // field; with no network, said here, and nothing is kept.
  const stakeBox = form.querySelector('input[name="stake_per_point"]');
  if (stakeBox && stakeBox.value.trim() && !typedStake(stakeBox.value)) {
    if (navigator.onLine) return false;
    showAlert(t.notSaved, [stakeBox.dataset.refused]);
    toTop();
    return true;
  }
  if (!reading.round || reading.problems.length) {
    // Online, the server's page lists every problem, each linked to its field.
    if (navigator.onLine) return false;
    showAlert(t.notSaved, reading.lines);
    toTop();
    return true;
  }
  const record = recordOfForm();
  if (fixing) record.key = fixing; // a refused round fixed: sent again under its own key
  const points = pointsNow(record);
  const cash = moneyNow(record);
  expected.set(record.key, { number: reading.number, nets: reading.nets, points, cash });
  shownKey = record.key;
  clearAlert();
  // "Kept" is said once the phone has kept it (below), "saved" once the server has.
  showPanel(
    say(t.sending, { number: reading.number }),
    standingsTable({ number: reading.number, nets: reading.nets, points, cash }),
  );
  emptyForm();
  showStake(record);
  preview.clearDraft(); // (a fix's draft is under its own address, which emptied() leaves)
  preview.emptied();
  preview.followWith(record);
  toTop();
  const kept = fixing
    ? Queue.get(fixing).then((old) => {
        if (old) record.created = old.created;
        return Queue.put(record);
      })
    : Queue.put(record);
  kept.then(
    () =>
      refreshRecords()
        .then(() => preview.follow())
        .then(send),
    () => {
      // No storage to keep it in: the round back in the form, posted as
      // without scripts (the server's one-time key keeps it once).
      expected.delete(record.key);
      panel.hidden = true;
      refill(record.fields);
      native = true;
      form.requestSubmit();
    },
  );
  return true;
}

function send() {
  return sendWaiting().then((report) => {
    if (report) judge(report);
    // Not sent (no network, a server error, a send given up): the worker's
    // Background Sync sends it later, even with the app closed.
    if (!report || report.stopped) sendLater().catch(() => null);
    return refreshRecords().then(sayWaiting);
  });
}

function judge(report) {
  report.sent
    .filter((record) => record.session === session)
    .forEach((record) => confirmed(record.key, report.answers[record.key]));
  report.refused
    .filter((record) => record.session === session)
    .forEach((record) => refused(record.key, record, report.answers[record.key]));
  if (report.stopped === "login" && expected.has(shownKey)) {
    statusLine.textContent = say(t.login, { number: expected.get(shownKey).number });
  }
}

// The round shown still on the phone after a send: it goes when the network returns.
function sayWaiting() {
  const waiting = records.find((record) => record.key === shownKey);
  if (waiting && waiting.status === "waiting" && expected.has(shownKey)) {
    statusLine.textContent = say(t.kept, { number: expected.get(shownKey).number });
  }
}

// Money as the server and the phone write it ("2.5" and "2.50" are one amount).
function sameMoney(server, phone) {
  const names = new Set([...Object.keys(server || {}), ...Object.keys(phone || {})]);
  return [...names].every(
    (name) => cents((server || {})[name] || "0") === cents((phone || {})[name] || "0"),
  );
}

function sameFigures(server, phone) {
  const names = new Set([...Object.keys(server || {}), ...Object.keys(phone || {})]);
  return [...names].every((name) => (server[name] ?? null) === (phone[name] ?? null));
}

// The server saved a round kept here: its answer confirms what the screen
// showed, or replaces it, saying so.
function confirmed(key, answer) {
  if (!expected.has(key)) return;
  const hoped = expected.get(key);
  expected.delete(key);
  if (!answer || !answer.chain) return;
  const server = answer.chain.standings.points;
  const differs =
    (answer.position && answer.position !== hoped.number) ||
    (answer.nets && !sameFigures(answer.nets, hoped.nets)) ||
    !sameFigures(server, hoped.points) ||
    (hoped.cash && !sameMoney(answer.chain.standings.money, hoped.cash));
  preview
    .restart(answer.chain)
    .then(refreshRecords)
    .then(() => {
      showStakeLine();
      if (shownKey === key) {
        const number = answer.position || hoped.number;
        showPanel(
          answer.message,
          standingsTable({
            number,
            nets: answer.nets || hoped.nets,
            points: pointsNow(),
            cash: moneyNow(),
            url: answer.round_url,
          }),
        );
      } else if (differs && expected.has(shownKey)) {
        // A later round is shown: its standings on top of the server's.
        const later = expected.get(shownKey);
        later.points = pointsNow();
        later.cash = moneyNow();
        showPanel(
          statusLine.textContent,
          standingsTable({
            number: later.number,
            nets: later.nets,
            points: later.points,
            cash: later.cash,
          }),
        );
      }
      if (differs) showAlert(t.differs, []);
      else if (shownKey === key) clearAlert();
    });
  if (session) keepPagesAgain([session]);
}

// The server refused a round kept here: said at the top, with what it said,
// the round kept on the phone until it is fixed or discarded.
function refused(key, record, answer) {
  if (!expected.has(key)) return;
  const hoped = expected.get(key);
  expected.delete(key);
  const messages = (answer && answer.messages) || record.messages || [];
  const actions = element("div", "actions");
  const fix = element("a", "button", t.fix);
  fix.href = record.url + "?fix=" + encodeURIComponent(key);
  const discard = element("button", "button secondary", t.discard);
  discard.type = "button";
  discard.addEventListener("click", () => {
    Queue.remove(key)
      .then(refreshRecords)
      .then(() => preview.follow())
      .then(() => {
        clearAlert();
        panel.hidden = true;
      });
  });
  actions.append(fix, discard);
  if (shownKey === key) showPanel("", null);
  showAlert(say(t.refused, { number: hoped.number }), messages, actions);
}

// A round of this session sent from elsewhere (the worker's Background Sync,
// another tab), or refused there.
const channel = Queue.channel();
if (channel) {
  channel.addEventListener("message", (event) => {
    const detail = event.data || {};
    if (!detail.key || !expected.has(detail.key)) return;
    if (detail.sent) {
      confirmed(detail.key, detail.answer);
      return;
    }
    Queue.get(detail.key).then((record) => {
      if (record && record.status === "refused") refused(detail.key, record, null);
    });
  });
}

// --- An edit ----------------------------------------------------------------------------------

function saveEdit(event) {
  const fixing = new URLSearchParams(location.search).get("fix");
  if (!navigator.onLine || fixing) return false; // kept on the phone, as with no network
  const reading = preview.current();
  if (!reading.round || reading.problems.length) return false; // the server's page
  const record = recordOfForm();
  const button = event.submitter || form.querySelector('.sticky-save button[type="submit"]');
  const label = button ? button.textContent : "";
  if (button) {
    button.disabled = true;
    button.textContent = t.saving;
  }
  form.setAttribute("aria-busy", "true");
  function done() {
    form.removeAttribute("aria-busy");
    if (button) {
      button.disabled = false;
      button.textContent = label;
    }
  }
  Queue.put(record)
    .then(sendWaiting)
    .then((report) => {
      done();
      const answer = report && report.answers[record.key];
      if (report && report.sent.some((sent) => sent.key === record.key)) return edited(answer);
      if (report && report.refused.some((gone) => gone.key === record.key)) {
        // The server's page says why, every problem beside its field.
        return Queue.remove(record.key).then(() => {
          native = true;
          form.requestSubmit();
        });
      }
      return waitingOnPhone(record.key); // the network went: it waits there
    })
    .catch(() => {
      done();
      return waitingOnPhone(record.key);
    });
  return true;
}

function edited(answer) {
  if (!answer) return;
  const version = form.querySelector('input[name="version"]');
  if (version && answer.version) version.value = String(answer.version);
  const key = form.querySelector('input[name="save_key"]');
  if (key) key.value = freshKey();
  preview.clearDraft();
  clearAlert();
  const table =
    answer.chain && answer.position
      ? standingsTable({
          number: answer.position,
          nets: answer.nets || {},
          points: answer.chain.standings.points,
          cash: answer.chain.standings.changed ? answer.chain.standings.money : null,
          url: answer.round_url,
          chain: answer.chain,
        })
      : null;
  showPanel(answer.message, table);
  toTop();
  if (session) keepPagesAgain([session]);
}

// As a save with no network: the session's page lists it as waiting to send.
function waitingOnPhone(key) {
  try {
    sessionStorage.setItem("offline-queued", key);
  } catch (error) {
    // no storage: the list says it all the same
  }
  location.href = "/sessions/" + session + "/";
}

// --- Taking the form's submit -----------------------------------------------------------------

provideRoundSave((event) => {
  if (native) {
    native = false;
    return false;
  }
  if (!session || !user || user === "public") return false;
  return editing ? saveEdit(event) : saveNew();
});

// Something entered after a save (typed, tapped, or sent from a seat): the
// next Save is the next round's.
form.addEventListener("input", () => {
  justSaved = false;
});
form.addEventListener("change", () => {
  justSaved = false;
});

refreshRecords().catch(() => null);

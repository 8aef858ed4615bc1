// A Call Break game's page (templates/callbreak/game.html): a deal is entered
// in two steps, the calls before play and the hands after, each field moving
// on by itself once its number is complete. The hands' total is checked as
// they are typed, each deal's scores and the totals after it are worked out
// on the phone (callbreak.js, the engine's figures), and Save shows them at
// once as a row "on this phone". The deal goes to the server through the
// phone's queue (offline-queue.js: kept with its one-time key, sent exactly
// once, kept there while the network is gone); the server's answer replaces
// the table with its own, and says so if its figures differ.
import * as Queue from "./offline-queue.js";
import { sendWaiting, sendLater } from "./offline.js";
import * as cb from "./callbreak.js";

const form = document.getElementById("cb-deal-form");
const t = document.getElementById("cb-strings").dataset;
const statusLine = document.getElementById("cb-status");
const alertBox = document.getElementById("cb-alert");
const problemsBox = form ? document.getElementById("cb-problems") : null;
const sumLine = form ? document.getElementById("cb-sum") : null;
const playButton = form ? document.getElementById("cb-play") : null;
const offlineStrings = document.getElementById("offline-strings");
const user = offlineStrings ? offlineStrings.dataset.user : "";
const session = t.session;
const DIGITS = {
  "०": "0",
  "१": "1",
  "२": "2",
  "३": "3",
  "४": "4",
  "५": "5",
  "६": "6",
  "७": "7",
  "८": "8",
  "९": "9",
};

function say(text, params) {
  return String(text || "").replace(/%\((\w+)\)s/g, (_, name) =>
    params && name in params ? String(params[name]) : "",
  );
}

function parse(json, fallback) {
  try {
    return JSON.parse(json);
  } catch (error) {
    return fallback;
  }
}

const rules = cb.resolveRules(form ? parse(form.dataset.rules, {}) : {});
const players = form ? parse(form.dataset.players, []) : [];
const inputs = form ? Array.from(form.querySelectorAll("input[data-kind]")) : [];
const bidInputs = inputs.filter((input) => input.dataset.kind === "bid");
const trickInputs = inputs.filter((input) => input.dataset.kind === "tricks");
const order = [...bidInputs, ...trickInputs];
const pending = new Map(); // key → {number, scores}

function freshKey() {
  if (window.crypto && typeof crypto.randomUUID === "function") return crypto.randomUUID();
  return String(Date.now()) + "-" + Math.random().toString(36).slice(2, 12);
}

function digits(text) {
  return String(text || "")
    .trim()
    .replace(/[०-९]/g, (digit) => DIGITS[digit]);
}

function valueOf(input) {
  const text = digits(input.value);
  if (!/^[0-9]{1,2}$/.test(text)) return null;
  return Number(text);
}

function highOf(input) {
  return input.dataset.kind === "bid" ? rules.max_bid : cb.TRICKS;
}

// A number is complete when no further digit could keep it in range: "3"
// for a call, "0" or "1" followed by a digit, "13".
function complete(input) {
  const text = digits(input.value);
  if (!/^[0-9]{1,2}$/.test(text)) return false;
  return text.length === 2 || text === "0" || Number(text) * 10 > highOf(input);
}

function nextOf(input) {
  const at = order.indexOf(input);
  return at >= 0 && at + 1 < order.length ? order[at + 1] : null;
}

// --- The table ------------------------------------------------------------------------------

function tableEl() {
  return document.getElementById("cb-table");
}

function serverDeals() {
  // The deals the page was given, read back from its rows: calls/hands per seat.
  return Array.from(document.querySelectorAll("#cb-rows tr[data-deal-row]")).map((row) => {
    const cells = Array.from(row.querySelectorAll(".cb-call")).map((cell) =>
      cell.textContent.trim().split("/").map(Number),
    );
    return { bids: cells.map((cell) => cell[0]), tricks: cells.map((cell) => cell[1]) };
  });
}

function allDeals() {
  return [...serverDeals(), ...Array.from(pending.values()).map((item) => item.deal)];
}

function showTotals(deals) {
  const totals = cb.totalsOf(deals, rules, players.length);
  document.querySelectorAll("#cb-table [data-total]").forEach((cell) => {
    const b = document.createElement("b");
    b.textContent = cb.tenthsText(totals[Number(cell.dataset.total)]);
    cell.replaceChildren(b);
  });
}

function addRow(number, deal, scores, key) {
  const row = document.createElement("tr");
  row.className = "cb-on-phone";
  row.dataset.key = key;
  const head = document.createElement("th");
  head.scope = "row";
  head.textContent = String(number) + " ";
  const mark = document.createElement("span");
  mark.className = "tag";
  mark.textContent = t.onPhone;
  head.appendChild(mark);
  row.appendChild(head);
  scores.forEach((score, seat) => {
    const cell = document.createElement("td");
    cell.className = "num";
    const call = document.createElement("span");
    call.className = "cb-call-phone muted small";
    call.textContent = deal.bids[seat] + "/" + deal.tricks[seat];
    const figure = document.createElement("span");
    figure.className = "cb-score " + (score > 0 ? "pos" : score < 0 ? "neg" : "");
    figure.textContent = cb.tenthsText(score);
    cell.append(call, " ", figure);
    row.appendChild(cell);
  });
  document.getElementById("cb-rows").appendChild(row);
}

function nextNumber() {
  return serverDeals().length + pending.size + 1;
}

// --- Typing -----------------------------------------------------------------------------------

function read() {
  return {
    bids: bidInputs.map(valueOf),
    tricks: trickInputs.map(valueOf),
  };
}

function problemText(problem) {
  const name = problem.seat !== undefined ? players[problem.seat] : "";
  if (problem.code === "bid") return say(t.bidRange, { ...problem, name });
  if (problem.code === "tricks") return say(t.tricksRange, { ...problem, name });
  if (problem.code === "bids_low") return say(t.bidsLow, problem);
  if (problem.code === "bids_high") return say(t.bidsHigh, problem);
  return "";
}

function showProblems(texts, focus) {
  const list = document.createElement("ul");
  list.className = "errorlist";
  texts.forEach((text) => {
    const item = document.createElement("li");
    item.textContent = text;
    list.appendChild(item);
  });
  problemsBox.replaceChildren(list);
  problemsBox.hidden = texts.length === 0;
  if (focus && texts.length) problemsBox.scrollIntoView({ block: "nearest" });
}

// The hands' total, said under the hands as they are typed.
function showSum(reading) {
  const state = cb.handsTotal(reading.tricks);
  sumLine.textContent = say(t[state.key], state);
  sumLine.classList.toggle("cb-sum-bad", state.bad);
  return state.bad;
}

function preview() {
  const reading = read();
  showSum(reading);
  const found = cb.dealProblems(reading.bids, reading.tricks, rules);
  const shown = found.filter(
    (problem) => problem.code !== "tricks_short" && problem.code !== "tricks_over",
  );
  showProblems(shown.map(problemText).filter(Boolean), false);
  inputs.forEach((input) => {
    const seat = Number(input.dataset.seat);
    const bad = shown.some(
      (problem) =>
        problem.seat === seat &&
        ((problem.code === "bid" && input.dataset.kind === "bid") ||
          (problem.code === "tricks" && input.dataset.kind === "tricks")),
    );
    if (bad) input.setAttribute("aria-invalid", "true");
    else input.removeAttribute("aria-invalid");
  });
  const complete = reading.bids.every((v) => v !== null) && reading.tricks.every((v) => v !== null);
  form.querySelectorAll("[data-preview]").forEach((cell) => {
    const seat = Number(cell.dataset.preview);
    const bid = reading.bids[seat];
    const tricks = reading.tricks[seat];
    cell.textContent =
      bid !== null && tricks !== null && !found.length
        ? cb.tenthsText(cb.dealScore(bid, tricks, rules))
        : "";
  });
  if (complete && !found.length) {
    showTotals([...allDeals(), { bids: reading.bids, tricks: reading.tricks }]);
  } else {
    showTotals(allDeals());
  }
  saveDraft();
  const callsDone = reading.bids.every((v) => v !== null);
  if (playButton) playButton.hidden = !callsDone || reading.tricks.some((v) => v !== null);
}

form &&
  form.addEventListener("input", (event) => {
    const input = event.target.closest("input[data-kind]");
    if (!input) return;
    preview();
    if (complete(input)) {
      const next = nextOf(input);
      // After the last call, play: the hands come after the 13 hands are played.
      if (next && !(input === bidInputs[bidInputs.length - 1])) next.focus();
      else if (input === bidInputs[bidInputs.length - 1] && playButton) playButton.focus();
    }
  });

form &&
  form.addEventListener("keydown", (event) => {
    const input = event.target.closest("input[data-kind]");
    if (!input || event.key !== "Enter") return;
    const next = nextOf(input);
    if (next && input !== bidInputs[bidInputs.length - 1]) {
      event.preventDefault();
      next.focus();
    } else if (input === bidInputs[bidInputs.length - 1]) {
      // The calls are made: play, and the hands come after the 13 are played.
      event.preventDefault();
      preview();
      if (playButton && !playButton.hidden) playButton.focus();
    }
  });

function play() {
  trickInputs[0].focus();
  statusLine.textContent = "";
}

if (playButton) playButton.addEventListener("click", play);

// --- A draft kept on the phone: the calls survive a reload during play ----------------------

function draftKey() {
  return "cb-draft-" + user + "-" + session;
}

function saveDraft() {
  try {
    const values = {};
    inputs.forEach((input) => {
      if (input.value) values[input.name] = input.value;
    });
    if (Object.keys(values).length) localStorage.setItem(draftKey(), JSON.stringify(values));
    else localStorage.removeItem(draftKey());
  } catch (error) {
    // no storage: nothing kept
  }
}

function restoreDraft() {
  try {
    const values = parse(localStorage.getItem(draftKey()), null);
    if (!values) return;
    inputs.forEach((input) => {
      if (!input.value && values[input.name]) input.value = values[input.name];
    });
  } catch (error) {
    // no storage
  }
}

function clearForm() {
  inputs.forEach((input) => {
    input.value = "";
    input.removeAttribute("aria-invalid");
  });
  try {
    localStorage.removeItem(draftKey());
  } catch (error) {
    // no storage
  }
  form.querySelector('input[name="save_key"]').value = freshKey();
  const title = document.getElementById("cb-deal-title");
  title.textContent = say(t.deal, { number: nextNumber() });
  preview();
}

// --- Saving -----------------------------------------------------------------------------------

function say_status(text) {
  statusLine.textContent = text;
}

function showAlert(texts) {
  if (!texts.length) {
    alertBox.hidden = true;
    alertBox.replaceChildren();
    return;
  }
  const list = document.createElement("ul");
  texts.forEach((text) => {
    const item = document.createElement("li");
    item.textContent = text;
    list.appendChild(item);
  });
  alertBox.replaceChildren(list);
  alertBox.hidden = false;
}

function endedOnPhone() {
  const end = cb.gameEnd(allDeals(), rules);
  if (end && form) {
    form.hidden = true;
    say_status(t.ended);
  }
  return end;
}

// The copy of this page the phone keeps (for opening it with no network) is
// kept again as the server now has it, with the deal just sent.
function keepAgain() {
  const worker = navigator.serviceWorker && navigator.serviceWorker.controller;
  if (worker) worker.postMessage({ type: "keep", url: location.href.split("#")[0] });
}

// The server's answer to a deal: its table replaces the phone's, and says so
// where its figures differ.
function confirmed(key, answer) {
  // Told twice (the send's own report, and the queue's channel): once is enough.
  if (!pending.has(key)) return;
  const mine = pending.get(key);
  pending.delete(key);
  if (!answer || !answer.table_html) return;
  const template = document.createElement("template");
  template.innerHTML = answer.table_html;
  const fresh = template.content.firstElementChild;
  // Deals still waiting on the phone stay as rows after the server's.
  tableEl().replaceWith(fresh);
  pending.forEach((item, waitingKey) => addRow(item.number, item.deal, item.scores, waitingKey));
  showTotals(allDeals());
  if (mine && answer.scores && answer.scores.join() !== mine.scores.join()) {
    showAlert([say(t.differs, { number: answer.number })]);
  }
  say_status(answer.message || say(t.saved, { number: answer.number }));
  keepAgain();
  if (answer.ended && form) form.hidden = true;
  else if (form && !pending.size) form.hidden = false;
}

function refused(key, messages) {
  if (!pending.has(key)) return Promise.resolve();
  const mine = pending.get(key);
  pending.delete(key);
  const row = document.querySelector('tr[data-key="' + key + '"]');
  if (row) row.remove();
  showTotals(allDeals());
  if (form) form.hidden = false;
  if (mine && form && inputs.every((input) => !input.value)) {
    mine.deal.bids.forEach((bid, seat) => {
      bidInputs[seat].value = String(bid);
      trickInputs[seat].value = String(mine.deal.tricks[seat]);
    });
    preview();
  }
  showAlert([say(t.refused, { number: mine ? mine.number : "" }), ...(messages || [])]);
  return Queue.remove(key);
}

function handle(report, key) {
  if (!report) return false;
  if (report.sent.some((record) => record.key === key)) {
    confirmed(key, report.answers[key]);
    return true;
  }
  if (report.refused.some((record) => record.key === key)) {
    Queue.get(key).then((record) => refused(key, record ? record.messages : []));
    return true;
  }
  return false;
}

function save(event) {
  event.preventDefault();
  const reading = read();
  const texts = [];
  reading.bids.forEach((bid, seat) => {
    if (bid === null) texts.push(say(t.bidMissing, { name: players[seat] }));
  });
  reading.tricks.forEach((value, seat) => {
    if (value === null) texts.push(say(t.tricksMissing, { name: players[seat] }));
  });
  const found = cb.dealProblems(reading.bids, reading.tricks, rules);
  found.forEach((problem) => {
    if (problem.code === "tricks_short")
      texts.push(say(t.sumShort, { total: problem.total, left: cb.TRICKS - problem.total }));
    else if (problem.code === "tricks_over")
      texts.push(say(t.sumOver, { total: problem.total, over: problem.total - cb.TRICKS }));
    else texts.push(problemText(problem));
  });
  if (texts.length) {
    showProblems(texts, true);
    const first =
      inputs.find((input) => valueOf(input) === null) ||
      inputs.find((input) => input.getAttribute("aria-invalid"));
    if (first) first.focus();
    return;
  }
  if (!user || user === "public") {
    form.submit();
    return;
  }
  const number = nextNumber();
  const deal = { bids: reading.bids, tricks: reading.tricks };
  const scores = cb.dealScores(deal.bids, deal.tricks, rules);
  const entries = Array.from(new FormData(form).entries());
  const record = Queue.recordFrom({
    user,
    session,
    url: form.getAttribute("action"),
    entries,
    summary: {
      winner: undefined,
      players: players.map((name, seat) => ({ name, net: cb.tenthsText(scores[seat]) })),
    },
  });
  pending.set(record.key, { number, deal, scores });
  addRow(number, deal, scores, record.key);
  showAlert([]);
  clearForm();
  say_status(say(t.sending, { number }));
  if (endedOnPhone()) {
    // the form is gone: the answer brings the money
  } else {
    bidInputs[0].focus();
  }
  Queue.put(record)
    .then(() => sendWaiting())
    .then((report) => {
      if (!handle(report, record.key) && pending.has(record.key)) {
        say_status(say(t.queued, { number }));
        sendLater();
      }
    })
    .catch(() => {
      if (pending.has(record.key)) say_status(say(t.queued, { number }));
    });
}

if (form) form.addEventListener("submit", save);

// Deals sent from elsewhere (offline.js when the network returns, the
// worker's Background Sync): their answers arrive on the queue's channel.
const channel = Queue.channel();
if (channel) {
  channel.addEventListener("message", (event) => {
    const detail = event.data || {};
    if (!detail.key || !pending.has(detail.key)) return;
    if (detail.sent) {
      confirmed(detail.key, detail.answer);
      return;
    }
    Queue.get(detail.key).then((record) => {
      if (record && record.status === "refused") refused(detail.key, record.messages);
    });
  });
}

window.addEventListener("online", () => {
  if (!pending.size) return;
  sendWaiting().then((report) => {
    pending.forEach((item, key) => handle(report, key));
  });
});

// Deals of this game still waiting on the phone (saved offline, the page
// reloaded since): shown as rows on this phone.
function showWaiting() {
  if (!user || user === "public") return Promise.resolve();
  return Queue.list(user).then((records) => {
    // New deals only: a change of a saved deal waiting on the phone is sent
    // in its turn, and the server's table shows it once it has arrived.
    const newDeals = form ? form.getAttribute("action") : location.pathname + "deals/";
    const mine = records.filter((record) => record.session === session && record.url === newDeals);
    mine.forEach((record) => {
      const fields = new Map(record.fields);
      const deal = {
        bids: players.map((_, seat) => Number(digits(fields.get("bid_" + seat)))),
        tricks: players.map((_, seat) => Number(digits(fields.get("tricks_" + seat)))),
      };
      const scores = cb.dealScores(deal.bids, deal.tricks, rules);
      const number = nextNumber();
      pending.set(record.key, { number, deal, scores });
      if (record.status === "refused") {
        // Refused while this page was closed (sent by another page or the
        // worker): said here, its numbers back in the form, and out of the
        // queue, where it would hold back the deals after it.
        refused(record.key, record.messages);
      } else {
        addRow(number, deal, scores, record.key);
      }
    });
    if (pending.size) {
      showTotals(allDeals());
      const title = document.getElementById("cb-deal-title");
      if (title) title.textContent = say(t.deal, { number: nextNumber() });
      endedOnPhone();
    }
  });
}

if (form) {
  restoreDraft();
  playButton.hidden = false;
  preview();
}
showWaiting().catch(() => null);

// What the deal's change page left to say (sent, or kept on the phone).
try {
  const note = sessionStorage.getItem("cb-note");
  if (note) {
    sessionStorage.removeItem("cb-note");
    say_status(note);
  }
} catch (error) {
  // no storage
}

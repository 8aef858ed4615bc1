// A pot session's page (pots/templates/pots/detail.html): the boot fills
// every player's amount, ticking a winner or typing what someone took picks
// the outcome, and the hand's money and the running money show at once,
// worked out on the phone (pot-money.js, the engine's arithmetic). On Save
// the running money is the phone's until the server answers; the server's
// then replaces it, and says so if its figures differ. With no network the
// hand waits in the offline queue (offline-queue.js, the queue Marriage
// rounds use), under its one-time key, and is sent once when the network is
// back. Other phones following the session see each change as it is saved
// (stream.js: pushed by the session's stream, or polled). The page works
// without it.
import * as Queue from "./offline-queue.js";
import { followLive, told } from "./stream.js";
import { handMoney, paisaText, parsePaisa, running } from "./pot-money.js";

const form = document.getElementById("pot-hand-form");
const strings = document.getElementById("offline-strings");
const user = strings ? strings.dataset.user : "";
const sessionId = (location.pathname.match(/^\/pots\/(\d+)\//) || [])[1];
const queueSession = "pots-" + sessionId;
const holder = document.getElementById("pot-table");
const edited = new Set(); // the put_in fields changed by hand in this hand: the boot leaves them
let waiting = []; // [{key, hand}]: saved on this phone, not answered yet, in order

function runningSection() {
  return document.getElementById("pot-running");
}

function serverHands() {
  return JSON.parse(runningSection().dataset.hands || "[]");
}

function players() {
  return JSON.parse(runningSection().dataset.players || "[]");
}

function field(name) {
  return form.elements.namedItem(name);
}

function newKey() {
  if (window.crypto && typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

// --- The hand as typed ---------------------------------------------------------------------

// The form's hand as the engine takes it, or null while something typed is
// not money (the server will say what).
function handOfForm() {
  const seats = players().length;
  const boot = parsePaisa(field("boot").value);
  if (boot === null) return null;
  const putIn = [];
  const took = [];
  const winners = [];
  for (let seat = 0; seat < seats; seat++) {
    const typed = field("put_" + seat).value.trim();
    const put = typed === "" ? boot : parsePaisa(typed);
    const out = parsePaisa(field("took_" + seat).value);
    if (put === null || out === null) return null;
    putIn.push(put);
    took.push(out);
    if (field("win_" + seat).checked) winners.push(seat);
  }
  const carryIn = Number(form.dataset.carryIn) || 0;
  const pot = putIn.reduce((a, b) => a + b, 0) + carryIn;
  const outcome = form.querySelector('input[name="outcome"]:checked');
  const kind = outcome ? outcome.value : "winners";
  if (kind === "winners") {
    if (!winners.length || winners.some((seat) => !putIn[seat])) return null;
    return { put_in: putIn, winners, took: null, carry_out: 0 };
  }
  if (kind === "carry") return { put_in: putIn, winners: [], took: null, carry_out: pot, carry: 1 };
  const taken = took.reduce((a, b) => a + b, 0);
  if (taken > pot) return null;
  return { put_in: putIn, winners: [], took, carry_out: pot - taken };
}

// A carried pot is taken by nobody: the engine's `took` of all zeros.
function engineHand(hand) {
  if (hand.carry) return { ...hand, took: new Array(hand.put_in.length).fill(0) };
  return hand;
}

function preview() {
  const box = form.querySelector("[data-preview]");
  const hand = handOfForm();
  if (!box) return;
  if (!hand) {
    box.textContent = "";
    return;
  }
  const names = players();
  const carryIn = Number(form.dataset.carryIn) || 0;
  const { money } = handMoney(engineHand(hand), carryIn, names.length);
  box.textContent =
    form.dataset.thisHand +
    " " +
    names
      .map((name, seat) => name + " " + paisaText(money[seat]))
      .filter((_, seat) => money[seat] !== 0)
      .join(" · ");
}

// --- The running money --------------------------------------------------------------------

function showTotals(totals, pending) {
  const section = runningSection();
  section.querySelectorAll("td[data-seat]").forEach((cell) => {
    const amount = totals[Number(cell.dataset.seat)] || 0;
    cell.textContent = paisaText(amount);
    cell.classList.toggle("pos", amount > 0);
    cell.classList.toggle("neg", amount < 0);
  });
  section.querySelector("[data-pending-note]").hidden = !pending;
}

function phoneTotals() {
  const hands = [...serverHands(), ...waiting.map((item) => engineHand(item.hand))];
  return running(hands, players().length);
}

function setCarry(openPot, text) {
  form.dataset.carryIn = String(openPot);
  const note = form.querySelector("[data-carry-note]");
  if (!note) return;
  note.hidden = !openPot;
  const amount = note.querySelector("[data-carry-amount]");
  if (amount && text) amount.textContent = text;
}

// The page as the server has it now: its running money and hands replace the
// phone's; `phone`, when given, is what the phone had worked out.
function refresh(phone) {
  return fetch(location.pathname, { credentials: "same-origin" })
    .then((response) => (response.ok ? response.text() : Promise.reject(response)))
    .then((html) => {
      const page = new DOMParser().parseFromString(html, "text/html");
      ["pot-running", "pot-hands"].forEach((id) => {
        const fresh = page.getElementById(id);
        const here = document.getElementById(id);
        if (fresh && here) here.replaceWith(document.importNode(fresh, true));
      });
      const freshForm = page.getElementById("pot-hand-form");
      const freshCarry = freshForm && freshForm.querySelector("[data-carry-amount]");
      setCarry(
        Number(freshForm ? freshForm.dataset.carryIn : 0) || 0,
        freshCarry ? freshCarry.textContent : "",
      );
      holder.dataset.version = runningSection().dataset.version;
      if (phone) {
        const server = phoneTotals().totals;
        const same = server.every((amount, seat) => amount === phone[seat]);
        runningSection().querySelector("[data-replaced-note]").hidden = same;
      }
      if (waiting.length) showTotals(phoneTotals().totals, true);
      told(true);
    })
    .catch(() => {});
}

// --- Saving -------------------------------------------------------------------------------

// The next hand starts as the last began: the same boot for everyone.
function startNext() {
  field("save_key").value = newKey();
  edited.clear();
  for (let seat = 0; seat < players().length; seat++) {
    field("win_" + seat).checked = false;
    field("took_" + seat).value = "";
    field("put_" + seat).value = field("boot").value;
  }
  const winners = form.querySelector('input[name="outcome"][value="winners"]');
  if (winners) winners.checked = true;
  delete form.dataset.saving;
  form.removeAttribute("aria-busy");
  form.querySelectorAll('button[type="submit"]').forEach((button) => {
    if (button.dataset.label) button.textContent = button.dataset.label;
    button.disabled = false;
  });
  preview();
}

function keptOffline() {
  form.querySelector("[data-queued-note]").hidden = false;
  const after = phoneTotals();
  setCarry(after.openPot, paisaText(after.openPot, false));
  startNext();
}

function answered(key) {
  waiting = waiting.filter((item) => item.key !== key);
}

function save(event) {
  const hand = handOfForm();
  // Something the phone cannot read: the server's page says what, where it is.
  if (!hand || !user || user === "public" || !window.indexedDB) return;
  event.preventDefault();
  if (form.dataset.saving) return; // a second tap while the first is on its way
  form.dataset.saving = "1";
  const entries = [...new FormData(form).entries()];
  if (!field("save_key").value) {
    field("save_key").value = newKey();
    entries.push(["save_key", field("save_key").value]);
  }
  const record = Queue.recordFrom({
    entries,
    user,
    session: queueSession,
    url: form.action,
    // The hand as the phone read it: a page opened again before it is sent
    // shows it in the running money (the server ignores it).
    summary: { winner: undefined, players: [], potHand: hand },
  });
  waiting.push({ key: record.key, hand });
  const phone = phoneTotals();
  showTotals(phone.totals, true);
  if (!navigator.onLine) {
    Queue.put(record).then(keptOffline);
    return;
  }
  Queue.put(record)
    .then(() =>
      fetch(form.action, {
        method: "POST",
        body: new URLSearchParams(entries),
        credentials: "same-origin",
        headers: { Accept: "application/json" },
      }),
    )
    .then(
      (response) => {
        if (response.ok) {
          return Queue.remove(record.key).then(() => {
            answered(record.key);
            startNext();
            return refresh(phone.totals);
          });
        }
        // Refused (or the server failed): the form again, as the server answers it.
        return Queue.remove(record.key).then(() => {
          answered(record.key);
          form.removeEventListener("submit", save);
          delete form.dataset.saving;
          form.submit();
        });
      },
      // No answer: the network went. It waits in the queue and goes once.
      keptOffline,
    );
}

// The network is back: the queue goes (this page's hands among them), sent
// by this page or another (offline.js, the worker): each hand of this session
// that arrives is told on the queue's channel, and the page then shows what
// the server has.
function sendWaiting() {
  if (!navigator.onLine || !user) return Promise.resolve();
  return Queue.sendAll(user, {}).catch(() => null);
}

function arrived(detail) {
  if (!detail || !detail.sent || detail.session !== queueSession) return;
  const phone = phoneTotals().totals;
  answered(detail.key);
  if (!waiting.length) form.querySelector("[data-queued-note]").hidden = true;
  refresh(phone);
}

// --- Wiring -------------------------------------------------------------------------------

// The boot fills each amount not changed by hand; a winner ticked or an
// amount taken picks the outcome. On the record form and a hand's edit form.
function wireAmounts(hand, after) {
  const named = (name) => hand.elements.namedItem(name);
  const seats = hand.querySelectorAll('input[name^="put_"]').length;
  hand.addEventListener("input", (event) => {
    const name = event.target.name || "";
    if (name.startsWith("put_")) edited.add(name);
    if (name === "boot") {
      for (let seat = 0; seat < seats; seat++) {
        if (!edited.has("put_" + seat)) named("put_" + seat).value = named("boot").value;
      }
    }
    if (name.startsWith("took_") && event.target.value.trim()) {
      hand.querySelector('input[name="outcome"][value="took"]').checked = true;
    }
    if (name.startsWith("win_") && event.target.checked) {
      hand.querySelector('input[name="outcome"][value="winners"]').checked = true;
    }
    after();
  });
  hand.addEventListener("change", after);
  hand.querySelectorAll("[data-boot]").forEach((button) => {
    button.addEventListener("click", () => {
      named("boot").value = button.dataset.boot;
      named("boot").dispatchEvent(new Event("input", { bubbles: true }));
    });
  });
}

const editForm = document.querySelector("form[data-pot-edit]");
if (editForm) wireAmounts(editForm, () => {});

if (form && sessionId) {
  wireAmounts(form, preview);
  form.addEventListener("submit", save);
  window.addEventListener("online", sendWaiting);
  const heard = Queue.channel();
  if (heard) heard.onmessage = (event) => arrived(event.data);
  // Hands of this session still waiting from an earlier visit: in the
  // running money at once, and sent first.
  Queue.list(user)
    .then((records) => {
      const mine = records.filter((r) => r.session === queueSession && r.status === "waiting");
      if (!mine.length) return null;
      waiting = mine
        .filter((r) => r.summary && r.summary.potHand)
        .map((r) => ({ key: r.key, hand: r.summary.potHand }));
      if (waiting.length) {
        showTotals(phoneTotals().totals, true);
        form.querySelector("[data-queued-note]").hidden = false;
        const after = phoneTotals();
        setCarry(after.openPot, paisaText(after.openPot, false));
      }
      return sendWaiting();
    })
    .catch(() => {});
  preview();

  // Pushed: the stream says the session's version the moment it changes
  // (polled every 3 s where no stream can open).
  const follow = (version) => {
    if (String(version) !== holder.dataset.version && !waiting.length) refresh(null);
  };
  followLive({
    streamUrl: () => holder.dataset.potStream,
    every: 3000,
    poll: () =>
      fetch(holder.dataset.potLive, { credentials: "same-origin" })
        .then((response) => (response.ok ? response.json() : Promise.reject(response)))
        .then((answer) => {
          told(true);
          if (String(answer.version) !== holder.dataset.version && !waiting.length) {
            return refresh(null).then(() => true);
          }
          return true;
        }),
    changed: follow,
  });
}

// A saved deal changed (templates/callbreak/deal_edit.html): the hands' total
// is checked as it is typed, in the words of the game's page, and Save goes
// through the phone's queue (offline-queue.js), as a new deal does: sent at
// once, or kept on the phone with its one-time key and sent exactly once when
// the network returns; the game's page follows. A change the server refuses
// is posted as the form would be without scripts, for the page with why.
import * as Queue from "./offline-queue.js";
import { sendLater, sendWaiting } from "./offline.js";
import * as cb from "./callbreak.js";

const form = document.getElementById("cb-edit-form");
const t = document.getElementById("cb-strings").dataset;
const sumLine = document.getElementById("cb-sum");
const offlineStrings = document.getElementById("offline-strings");
const user = offlineStrings ? offlineStrings.dataset.user : "";
const DIGITS = "०१२३४५६७८९";
let native = false;

function valueOf(input) {
  const text = input.value.trim().replace(/[०-९]/g, (digit) => String(DIGITS.indexOf(digit)));
  return /^[0-9]{1,2}$/.test(text) ? Number(text) : null;
}

function say(text, params) {
  return String(text || "").replace(/%\((\w+)\)s/g, (_, name) =>
    params && name in params ? String(params[name]) : "",
  );
}

function showSum() {
  const tricks = Array.from(form.querySelectorAll('input[data-kind="tricks"]')).map(valueOf);
  const state = cb.handsTotal(tricks);
  sumLine.textContent = say(t[state.key], state);
  sumLine.classList.toggle("cb-sum-bad", state.bad);
}

// The game's page, told what became of the change (a message it shows once).
function toGame(note) {
  try {
    if (note) sessionStorage.setItem("cb-note", note);
  } catch (error) {
    // no storage: the page says nothing more
  }
  location.href = form.dataset.gameUrl;
}

function save(event) {
  if (native || !user || user === "public") return;
  event.preventDefault();
  const record = Queue.recordFrom({
    user,
    session: t.session,
    url: location.pathname,
    entries: Array.from(new FormData(form).entries()),
  });
  const queued = say(t.changeQueued, { number: form.dataset.number });
  Queue.put(record)
    .then(() => sendWaiting())
    .then((report) => {
      if (report && report.sent.some((sent) => sent.key === record.key)) {
        const answer = report.answers[record.key];
        return toGame(answer && answer.message);
      }
      if (report && report.refused.some((gone) => gone.key === record.key)) {
        // The server's page says why, beside the fields.
        return Queue.remove(record.key).then(() => {
          native = true;
          form.requestSubmit();
        });
      }
      sendLater();
      return toGame(queued);
    })
    .catch(() => toGame(queued));
}

form.addEventListener("input", showSum);
form.addEventListener("submit", save);
showSum();

// A saved deal changed (templates/callbreak/deal_edit.html): the hands' total
// is checked as it is typed, in the words of the game's page.
import * as cb from "./callbreak.js";

const form = document.getElementById("cb-edit-form");
const t = document.getElementById("cb-strings").dataset;
const sumLine = document.getElementById("cb-sum");
const DIGITS = "०१२३४५६७८९";

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

form.addEventListener("input", showSum);
showSum();

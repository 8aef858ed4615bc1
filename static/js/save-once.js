// Every save once. A form marked data-save-once (one that creates something)
// is sent once however often Save is tapped: the buttons are disabled while it
// is in flight, and its one-time key (the hidden save_key field) lets the
// server answer a repeat, such as a retry on a bad line, with what the first
// one saved. Without this script the server's check alone does the job.
const RETRY_AFTER_MS = 8000; // a send that never answers: Save again, under the same key

function newKey() {
  if (window.crypto && typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => ("0" + b.toString(16)).slice(-2)).join("");
}

function buttons(form) {
  return form.querySelectorAll('button[type="submit"], button:not([type])');
}

function ready(form) {
  delete form.dataset.saving;
  form.removeAttribute("aria-busy");
  buttons(form).forEach((button) => {
    if (button.dataset.label) button.textContent = button.dataset.label;
    button.disabled = false;
  });
}

document.addEventListener("submit", (event) => {
  const form = event.target;
  if (!form.matches("form[data-save-once]") || event.defaultPrevented) return;
  if (form.dataset.saving) {
    event.preventDefault();
    return;
  }
  const key = form.querySelector('input[name="save_key"]');
  if (key && !key.value) key.value = newKey();
  // A disabled button is left out of what is sent: keep the pressed one's value.
  const submitter = event.submitter;
  if (submitter && submitter.name) {
    const copy = document.createElement("input");
    copy.type = "hidden";
    copy.name = submitter.name;
    copy.value = submitter.value;
    form.appendChild(copy);
  }
  form.dataset.saving = "1";
  form.setAttribute("aria-busy", "true");
  buttons(form).forEach((button) => {
    if (button.dataset.saving) {
      button.dataset.label = button.textContent;
      button.textContent = button.dataset.saving;
    }
    button.disabled = true;
  });
  window.setTimeout(() => {
    ready(form);
  }, RETRY_AFTER_MS);
});

// Back to a page from the browser's cache: the form saved already, so what is
// sent from it now is a new save with a new key.
window.addEventListener("pageshow", (event) => {
  if (!event.persisted) return;
  document.querySelectorAll("form[data-save-once]").forEach((form) => {
    const key = form.querySelector('input[name="save_key"]');
    if (key) key.value = newKey();
    ready(form);
  });
});

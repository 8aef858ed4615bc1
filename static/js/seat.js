// A seat's page (templates/table/seat.html): the player's count is sent
// without leaving the page; with no network it is kept on this phone
// (localStorage, per seat link) and sent by itself when the network returns.
// Loaded by the seat's page only, which has these.
const strings = document.getElementById("seat-strings");
const KEY = "seat-entry:" + location.pathname;

function form() {
  return document.querySelector("[data-seat-form]");
}

function say(id, text) {
  const el = document.getElementById(id);
  if (!el) return;
  el.textContent = text;
  el.hidden = !text;
}

function clock(date) {
  return date.toTimeString().slice(0, 5);
}

function kept() {
  try {
    return JSON.parse(localStorage.getItem(KEY) || "null");
  } catch (error) {
    return null;
  }
}

function keep(fields) {
  try {
    localStorage.setItem(KEY, JSON.stringify(fields));
  } catch (error) {
    // no storage: the count stays in the form at least
  }
}

function forget() {
  try {
    localStorage.removeItem(KEY);
  } catch (error) {
    // nothing kept
  }
}

function fieldsOf(el) {
  const fields = [];
  new FormData(el).forEach((value, name) => {
    fields.push([name, String(value)]);
  });
  return fields;
}

function showErrors(errors) {
  const list = document.getElementById("seat-errors");
  if (!list) return;
  list.textContent = "";
  Object.keys(errors || {}).forEach((name) => {
    errors[name].forEach((text) => {
      const item = document.createElement("li");
      item.textContent = text;
      list.appendChild(item);
    });
  });
  if (list.firstChild) list.scrollIntoView({ block: "nearest" });
}

let sending = false;
// Too many sends (429): nothing goes before this time, and the count is kept
// to go by itself then.
let heldUntil = 0;
let heldErrors = null;

function hold(seconds, errors, fields) {
  heldUntil = Date.now() + seconds * 1000;
  heldErrors = errors;
  keep(fields);
  showErrors(errors);
  setTimeout(sendKept, seconds * 1000 + 100);
}

function held() {
  return Date.now() < heldUntil;
}

function send(fields) {
  if (sending) return Promise.resolve();
  sending = true;
  const el = form();
  const token = el && el.querySelector('[name="csrfmiddlewaretoken"]');
  const body = new URLSearchParams();
  fields.forEach((pair) => {
    // The page's own CSRF token: a count kept from an earlier page carries its own.
    const value = pair[0] === "csrfmiddlewaretoken" && token ? token.value : pair[1];
    body.append(pair[0], value);
  });
  const button = el && el.querySelector('button[type="submit"]');
  if (button) button.disabled = true;
  return fetch(el ? el.action : location.pathname, {
    method: "POST",
    credentials: "same-origin",
    headers: {
      "X-Seat-Send": "1",
      "Content-Type": "application/x-www-form-urlencoded",
    },
    body: body.toString(),
  })
    .then((response) => {
      const json = (response.headers.get("Content-Type") || "").includes("json");
      if (!json) {
        // Answered, but not by the seat (a 403, a 500, a proxy's page): kept, said.
        keep(fields);
        showErrors({ server: [strings.dataset.failed] });
        return;
      }
      return response.json().then((answer) => {
        if (response.status === 429) {
          const seconds = Number(response.headers.get("Retry-After")) || answer.retry_after || 60;
          hold(seconds, answer.errors, fields);
          return;
        }
        forget(); // answered: sent, or refused with the reason shown
        say("seat-offline", "");
        if (answer.ok) {
          showErrors({});
          say("seat-sent", strings.dataset.sentAt.replace("%(time)s", clock(new Date())));
          document.dispatchEvent(new CustomEvent("marriage-follow-now"));
        } else {
          showErrors(answer.errors);
        }
      });
    })
    .catch(() => {
      // No answer (no network, or it dropped mid-send): kept to send again.
      keep(fields);
      say("seat-offline", strings.dataset.offline);
    })
    .finally(() => {
      sending = false;
      if (button) button.disabled = false;
    });
}

document.addEventListener("submit", (event) => {
  const el = form();
  if (event.target !== el) return;
  event.preventDefault();
  const fields = fieldsOf(el);
  if (held()) {
    keep(fields);
    showErrors(heldErrors);
    return;
  }
  if (!navigator.onLine) {
    keep(fields);
    say("seat-offline", strings.dataset.offline);
    return;
  }
  send(fields);
});

function sendKept() {
  if (held()) return;
  const fields = kept();
  if (fields && navigator.onLine) send(fields);
}

// A count kept from before: shown in the form, and sent once there is a network.
(function restore() {
  const fields = kept();
  const el = form();
  if (!fields || !el) return;
  fields.forEach((pair) => {
    const input = el.querySelector('[name="' + pair[0] + '"]');
    if (!input) return;
    if (input.type === "radio") {
      const radio = el.querySelector('[name="' + pair[0] + '"][value="' + pair[1] + '"]');
      if (radio) radio.checked = true;
    } else if (input.type === "checkbox") {
      input.checked = true;
    } else if (input.type !== "hidden" || pair[0] !== "csrfmiddlewaretoken") {
      input.value = pair[1];
    }
  });
  say("seat-offline", strings.dataset.offline);
  sendKept();
})();

window.addEventListener("online", sendKept);
window.addEventListener("offline", () => {
  if (kept()) say("seat-offline", strings.dataset.offline);
});
// A poll answered: the network is back even if the browser did not say so.
window.addEventListener("marriage-live", (event) => {
  if (event.detail && event.detail.answered) sendKept();
});

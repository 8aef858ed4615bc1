// The round screen's conveniences; the form works without them. Loaded by the
// round form only (templates/scoring/rounds/form.html).
const form = document.getElementById("round-form");

function rowOf(playerId) {
  return form.querySelector('.player-row[data-player-id="' + playerId + '"]');
}

function visible(element) {
  // Inside a closed "more" a box still has a layout box, but cannot be seen.
  return (
    element.offsetParent !== null && !element.disabled && !element.closest("details:not([open])")
  );
}

// Ticks or unticks a box and announces it, so the preview (and the rules
// below) follow.
function set(box, checked) {
  if (box && box.checked !== checked) {
    box.checked = checked;
    box.dispatchEvent(new Event("change", { bubbles: true }));
  }
}

// Picking a winner: they play, and they are seen (ending a round shows the
// pure sets).
form.addEventListener("change", (event) => {
  const input = event.target;
  if (input.name !== "winner" || !input.checked || input.value === "none") return;
  const row = rowOf(input.value);
  if (!row) return;
  set(row.querySelector('input[name$="-plays"]'), true);
  set(row.querySelector('input[name$="-status"][value="seen"]'), true);
});

// Dublees show the tiplu: ticking "dublees" ticks "seen", and "unseen" unticks
// "dublees" (the server refuses dublees on an unseen player).
form.addEventListener("change", (event) => {
  const input = event.target;
  const row = input.closest(".player-row");
  if (!row) return;
  if (input.name.endsWith("-dublees") && input.checked) {
    set(row.querySelector('input[name$="-status"][value="seen"]'), true);
  } else if (input.name.endsWith("-status") && input.value === "unseen" && input.checked) {
    set(row.querySelector('input[name$="-dublees"]'), false);
  }
});

// A winner who saw by dublees goes out with the eighth dublee: tapping the
// winner's "dublees" (or picking a winner whose "dublees" is on) makes it a
// Dublee win, and Normal takes the winner's "dublees" off, so the two never
// disagree (the server refuses them if they do: scoring/forms/rounds.py).
function winnerRow() {
  const picked = form.querySelector('input[name="winner"]:checked');
  return picked && picked.value !== "none" ? rowOf(picked.value) : null;
}
form.addEventListener("change", (event) => {
  const input = event.target;
  const row = winnerRow();
  if (!row) return;
  const dublees = row.querySelector('input[name$="-dublees"]');
  const winsDublee = form.querySelector('input[name="win_type"][value="dublee"]');
  const winsNormal = form.querySelector('input[name="win_type"][value="normal"]');
  if ((input === dublees || input.name === "winner") && dublees && dublees.checked) {
    set(winsDublee, true);
  } else if (input === winsNormal && input.checked) {
    set(dublees, false);
  }
});

// A number box takes what is typed: its content is selected on focus, so
// tapping "12" and typing 5 gives 5, never 125 or 512.
form.addEventListener("focusin", (event) => {
  if (event.target.matches("[data-points]")) event.target.select();
});
form.addEventListener("mouseup", (event) => {
  // A mouse click would put the caret back where it landed.
  if (
    event.target.matches("[data-points]") &&
    event.target.selectionStart !== event.target.selectionEnd
  ) {
    event.preventDefault();
  }
});

// The keyboard's Next (Enter) goes to the next player's maal (a tunnel, which
// few rounds have, is tapped), and after the last to Save: it never saves the
// round by accident.
form.addEventListener("keydown", (event) => {
  if (event.key !== "Enter" || !event.target.matches("[data-points]")) return;
  event.preventDefault();
  const row = event.target.closest(".player-row");
  const boxes = Array.from(form.querySelectorAll('[name$="-maal"]')).filter(visible);
  const here = boxes.findIndex((box) => box.closest(".player-row") === row);
  const next = boxes[here + 1];
  (next || form.querySelector('.sticky-save button[type="submit"]')).focus();
});

// "In words" in the preview stays open while the preview is worked out again:
// the new one opens if the one it replaces was open (read from the element
// itself, whose "open" is set at the tap; its "toggle" event comes later).
const preview = document.getElementById("preview");
if (preview) {
  new MutationObserver((records) => {
    const words = preview.querySelector(".in-words-all");
    if (!words || words.open) return;
    records.forEach((record) => {
      record.removedNodes.forEach((node) => {
        if (node.nodeType !== Node.ELEMENT_NODE) return;
        const old = node.matches(".in-words-all") ? node : node.querySelector(".in-words-all");
        if (old && old.open) words.open = true;
      });
    });
  }).observe(preview, { childList: true, subtree: true });
}

// A refused save: its summary in view and focused; each item focuses its field.
const summary = document.getElementById("form-errors");
if (summary) {
  summary.scrollIntoView({ block: "start" });
  summary.focus();
  summary.addEventListener("click", (event) => {
    const link = event.target.closest('a[href^="#"]');
    const target = link && document.getElementById(link.getAttribute("href").slice(1));
    if (!target) return;
    event.preventDefault();
    const details = target.closest("details");
    if (details) details.open = true;
    target.focus();
    target.scrollIntoView({ block: "center" });
  });
}

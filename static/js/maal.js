// The maal calculator: +/- counters, and on the round screen the dialog that
// opens from each player's maal field and fills its maal and tunnel fields.
// The server does the counting (scoring/engine/maal.py); this only moves values.

function outcome(calc) {
  return calc.querySelector(".maal-outcome");
}

function recount(calc) {
  calc.dispatchEvent(new Event("maal-count", { bubbles: true }));
}

// Counters: the card buttons and +/- change the count beside them.
document.addEventListener("click", (event) => {
  const button = event.target.closest(".maal-calc [data-step]");
  if (!button) return;
  const input = button.closest(".counter").querySelector("input");
  const value = (parseInt(input.value, 10) || 0) + parseInt(button.dataset.step, 10);
  input.value = Math.max(0, Math.min(21, value));
  recount(button.closest(".maal-calc"));
});

// "+ a marriage" adds its three cards: a marriage is counted from the cards
// (scoring/engine/maal.py), never as a count of its own on top of them.
document.querySelectorAll(".maal-calc [data-steps]").forEach((button) => {
  button.hidden = false;
});
document.addEventListener("click", (event) => {
  const button = event.target.closest(".maal-calc [data-steps]");
  if (!button) return;
  const calc = button.closest(".maal-calc");
  button.dataset.steps.split(" ").forEach((item) => {
    const input = calc.querySelector('.counter[data-item="' + item + '"] input');
    input.value = Math.min(21, (parseInt(input.value, 10) || 0) + 1);
  });
  recount(calc);
});

// While a count is being asked, the total shown is the last one: "Use these
// points" waits for the new one, so a quick tap never takes a stale number.
// (hx-sync="this:replace" drops the older answer, so only the newest swaps in.)
document.addEventListener("htmx:beforeRequest", (event) => {
  const calc = event.target.closest && event.target.closest(".maal-calc");
  const dialog = calc && calc.closest("#maal-dialog");
  if (dialog) dialog.querySelector("[data-maal-use]").disabled = true;
});

// After each count, relabel the cards for the tiplu picked.
document.addEventListener("htmx:afterSwap", (event) => {
  const calc = event.target.closest(".maal-calc");
  if (!calc) return;
  const result = outcome(calc);
  const faces = JSON.parse(result.dataset.faces || "{}");
  calc.querySelectorAll("[data-face]").forEach((face) => {
    if (!faces[face.dataset.face]) return;
    face.textContent = faces[face.dataset.face];
    face.classList.toggle("red", /[♥♦]/.test(face.textContent));
  });
  const dialog = calc.closest("#maal-dialog");
  if (!dialog) return;
  dialog.querySelector("[data-maal-use]").disabled = !result.dataset.ok;
  // The total stays in sight beside the button, however far the list scrolls.
  const total = dialog.querySelector("[data-maal-total]");
  total.textContent = result.querySelector(".maal-short").textContent;
  total.classList.toggle("errorlist", Boolean(result.querySelector(".maal-error")));
});

// --- the round screen ---
const dialog = document.getElementById("maal-dialog");
const roundForm = document.getElementById("round-form");
if (dialog && roundForm) roundScreen();

function roundScreen() {
  const calc = dialog.querySelector(".maal-calc");
  const tipluInput = roundForm.querySelector("[data-maal-tiplu]");
  const tipluFace = roundForm.querySelector("[data-maal-tiplu-face]");
  let current = null; // the player's fieldset being counted

  function field(row, name) {
    return row.querySelector('[name="p-' + row.dataset.playerId + "-" + name + '"]');
  }

  function setRadio(name, value) {
    calc.querySelectorAll('input[name="' + name + '"]').forEach((radio) => {
      radio.checked = radio.value === value;
    });
  }

  function open(row) {
    current = row;
    dialog.querySelector("[data-maal-player]").textContent = row.dataset.player;
    let tally = {};
    try {
      tally = JSON.parse(field(row, "maal_tally").value || "{}");
    } catch (e) {
      tally = {};
    }
    // A stored tally keeps its marriages apart from single cards; the calculator
    // shows them as the cards they are made of.
    const marriages = tally.marriages || 0;
    calc.querySelectorAll('input[name^="n-"]').forEach((input) => {
      const item = input.name.slice(2);
      const cards = /^(tiplu|poplu|jhiplu)$/.test(item) ? marriages : 0;
      input.value = (tally[item] || 0) + cards;
    });
    const tiplu = tipluInput ? tipluInput.value : "";
    setRadio("tiplu_rank", tiplu ? tiplu.slice(0, -1) : "");
    setRadio("tiplu_suit", tiplu ? tiplu.slice(-1) : "");
    dialog.querySelector("[data-maal-use]").disabled = true;
    if (typeof dialog.showModal === "function") dialog.showModal();
    else dialog.setAttribute("open", "");
    recount(calc);
  }

  function close() {
    if (typeof dialog.close === "function") dialog.close();
    else dialog.removeAttribute("open");
    if (current) field(current, "maal").focus();
    current = null;
  }

  // Tell the round form something changed, so its settlement preview follows.
  function changed(input) {
    input.dispatchEvent(new Event("change", { bubbles: true }));
  }

  roundForm.addEventListener("click", (event) => {
    const button = event.target.closest("[data-maal-open]");
    if (button) open(button.closest("[data-player-id]"));
  });

  // Typing maal or tunnel by hand means the calculator's count no longer applies.
  roundForm.addEventListener("input", (event) => {
    const row = event.target.closest("[data-player-id]");
    if (!row || !/-(maal|tunnel)$/.test(event.target.name || "")) return;
    const tally = field(row, "maal_tally");
    if (tally && tally.value) {
      tally.value = "";
      row.querySelector("[data-maal-summary]").textContent = "";
    }
  });

  // The tiplu is one per round: picking it here sets it for everyone.
  calc.addEventListener("change", (event) => {
    if (!/^tiplu_/.test(event.target.name)) return;
    const rank = calc.querySelector('input[name="tiplu_rank"]:checked');
    const suit = calc.querySelector('input[name="tiplu_suit"]:checked');
    if (!rank || !suit || !tipluInput) return;
    tipluInput.value = rank.value + suit.value;
    tipluFace.textContent = rank.parentNode.textContent.trim() + suit.parentNode.textContent.trim();
    changed(tipluInput);
  });

  dialog.querySelector("[data-maal-use]").addEventListener("click", () => {
    const result = outcome(calc);
    if (!current || !result || !result.dataset.ok) return;
    field(current, "maal").value = result.dataset.maal;
    field(current, "tunnel").value = result.dataset.tunnel;
    field(current, "maal_tally").value = result.dataset.tally;
    current.querySelector("[data-maal-summary]").textContent = result.dataset.breakdown;
    const maal = field(current, "maal");
    close();
    changed(maal);
  });

  dialog.querySelector("[data-maal-clear]").addEventListener("click", () => {
    if (current) {
      field(current, "maal_tally").value = "";
      current.querySelector("[data-maal-summary]").textContent = "";
      changed(field(current, "maal"));
    }
    close();
  });

  dialog.querySelector("[data-maal-close]").addEventListener("click", close);
  dialog.addEventListener("cancel", () => {
    current = null;
  });
}

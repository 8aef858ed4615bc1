// The new Call Break game form (templates/callbreak/new.html): a name played
// before, tapped, goes into the first empty player field; the options that
// apply only to some money rules are shown only under them.
const names = document.querySelector("[data-cb-names]");
const fields = [0, 1, 2, 3].map((seat) => document.getElementById("id_player_" + seat));

if (names) {
  names.addEventListener("click", (event) => {
    const chip = event.target.closest("[data-name]");
    if (!chip) return;
    const name = chip.dataset.name;
    if (fields.some((field) => field && field.value.trim() === name)) return;
    const empty = fields.find((field) => field && !field.value.trim());
    if (!empty) return;
    empty.value = name;
    chip.hidden = true;
    const next = fields.find((field) => field && !field.value.trim());
    if (next) next.focus();
  });
}

// Options by settlement, as the engine's only_with says (callbreak/engine/rules.py).
const ONLY_WITH = {
  rank_multipliers: ["by_rank"],
  negative_pays_double: ["by_rank", "winner_takes"],
  big_win_tenths: ["by_rank", "winner_takes"],
};

function settlement() {
  const checked = document.querySelector('input[name="settlement"]:checked');
  return checked ? checked.value : "by_rank";
}

function showOptions() {
  const now = settlement();
  Object.keys(ONLY_WITH).forEach((name) => {
    const box = document.getElementById("field-" + name);
    if (box) box.hidden = !ONLY_WITH[name].includes(now);
  });
}

document.querySelectorAll('input[name="settlement"]').forEach((radio) => {
  radio.addEventListener("change", showOptions);
});
showOptions();

// Small helpers for the session and rules forms; the forms work without them.
// Changing the preset fills every option with that preset's value.
const data = document.getElementById("preset-options");
const preset = document.querySelector("[data-rules-form] select[name=preset]");
if (data && preset) {
  const presets = JSON.parse(data.textContent);
  preset.addEventListener("change", () => {
    const options = presets[preset.value];
    if (!options) return;
    Object.keys(options).forEach((name) => {
      const input = document.querySelector('[data-option="' + name + '"]');
      if (!input) return;
      if (input.type === "checkbox") input.checked = Boolean(options[name]);
      else input.value = options[name];
    });
  });
}
// "+ Didi" adds a past player's name to the players box.
document.querySelectorAll(".quick-add").forEach((box) => {
  const target = document.getElementById(box.dataset.target);
  box.addEventListener("click", (event) => {
    const button = event.target.closest("button[data-name]");
    if (!button || !target) return;
    const names = target.value
      .split("\n")
      .map((s) => s.trim())
      .filter(Boolean);
    if (!names.includes(button.dataset.name)) names.push(button.dataset.name);
    target.value = names.join("\n") + "\n";
    button.disabled = true;
  });
});

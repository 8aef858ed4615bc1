// The summary's Print button: a script file, since the CSP forbids inline handlers.
// The button stays hidden without JavaScript (the browser's own Print still works).
document.querySelectorAll("[data-print]").forEach((button) => {
  button.hidden = false;
  button.addEventListener("click", () => window.print());
});

// The share page's Copy button: the clipboard API where the page is secure
// (https, localhost), else the old select-and-copy, else ask the user to copy.
document.addEventListener("click", async (event) => {
  const button = event.target.closest("[data-copy]");
  if (!button) return;
  const input = document.getElementById(button.dataset.copy);
  const status = document.getElementById("copy-status");
  input.focus();
  input.select();
  let copied;
  try {
    await navigator.clipboard.writeText(input.value);
    copied = true;
  } catch {
    try {
      copied = document.execCommand("copy");
    } catch {
      copied = false;
    }
  }
  if (status) status.textContent = copied ? button.dataset.copied : button.dataset.failed;
});

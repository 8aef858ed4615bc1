// The family purse's Share buttons: the phone's share sheet (Web Share API)
// with the plain text of who pays whom; where there is none (or it fails other
// than by the user cancelling), the text is copied, and the status says so.
document.addEventListener("click", async (event) => {
  const button = event.target.closest("[data-share-text]");
  if (!button) return;
  const text = button.dataset.shareText;
  const status = document.getElementById(button.dataset.status);
  const say = (words) => {
    if (status) status.textContent = words;
  };
  if (navigator.share) {
    try {
      await navigator.share({ text });
      return;
    } catch (error) {
      if (error && error.name === "AbortError") return;
    }
  }
  try {
    await navigator.clipboard.writeText(text);
    say(button.dataset.copied);
  } catch {
    say(button.dataset.failed);
  }
});

// "Share picture": a link to the evening's or group's PNG (its download is
// the fallback). Where the phone can share files (the Web Share API), the
// picture goes to its share sheet instead, straight into WhatsApp or Viber.
document.addEventListener("click", (event) => {
  const link = event.target instanceof Element && event.target.closest("[data-share-picture]");
  if (!link || !navigator.canShare || !navigator.share || typeof File === "undefined") return;
  event.preventDefault();
  fetch(link.href, { credentials: "same-origin" })
    .then((response) => {
      if (!response.ok) throw new Error("no picture");
      return response.blob();
    })
    .then((blob) => {
      const file = new File([blob], link.getAttribute("download") || "marriage.png", {
        type: "image/png",
      });
      const data = { files: [file], title: link.dataset.title || "" };
      if (!navigator.canShare(data)) throw new Error("cannot share files");
      return navigator.share(data).catch((error) => {
        if (error && error.name === "AbortError") return; // the share sheet closed: nothing to do
        throw error;
      });
    })
    .catch(() => {
      // No share sheet for files: the download the link stands for.
      const save = document.createElement("a");
      save.href = link.href;
      save.download = link.getAttribute("download") || "";
      document.body.appendChild(save);
      save.click();
      save.remove();
    });
});

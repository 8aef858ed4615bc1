// Runs in <head>, before the first paint: the theme the user chose with the
// switch (remembered on this phone) goes on <html>; with no choice the page
// follows the phone's own light or dark setting (prefers-color-scheme, app.css).
// A classic script, not a module: a module is always deferred, after the first paint.
(function () {
  "use strict";
  const root = document.documentElement;
  root.classList.add("js");
  try {
    const theme = localStorage.getItem("theme");
    if (theme === "light" || theme === "dark") root.dataset.theme = theme;
  } catch (e) {
    // Storage refused (private mode, settings): the phone's setting decides.
  }
})();

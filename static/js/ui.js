// The parts of every page that need a script: the top menu on a phone, the dark
// theme switch, keeping the screen awake at the table, ledger rows that open
// their round, and the cue on tables that scroll sideways. Everything here is
// an addition: without it the menu is a list of links and the ledger's round
// numbers are links.
const root = document.documentElement;

function remember(key, value) {
  try {
    localStorage.setItem(key, value);
  } catch (e) {
    // Not remembered on this phone; the switch still works on this page.
  }
}

function forget(key) {
  try {
    localStorage.removeItem(key);
  } catch (e) {
    // Nothing was remembered.
  }
}

function recall(key) {
  try {
    return localStorage.getItem(key);
  } catch (e) {
    return null;
  }
}

// --- Menu: on a phone the links fold under a button instead of running off the screen.
const menuButton = document.querySelector("[data-menu-button]");
const nav = document.getElementById("topnav");
if (menuButton && nav) {
  menuButton.hidden = false;
  nav.classList.add("collapsible");
  const setOpen = (open) => {
    menuButton.setAttribute("aria-expanded", open ? "true" : "false");
    nav.classList.toggle("open", open);
  };
  menuButton.addEventListener("click", () => {
    setOpen(menuButton.getAttribute("aria-expanded") !== "true");
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && nav.classList.contains("open")) {
      setOpen(false);
      menuButton.focus();
    }
  });
}

// --- Dark theme: follows the phone until the switch is used, then remembered.
const themeSwitch = document.querySelector("[data-theme-switch]");
const prefersDark = window.matchMedia("(prefers-color-scheme: dark)");
function isDark() {
  return root.dataset.theme ? root.dataset.theme === "dark" : prefersDark.matches;
}
function showTheme() {
  if (themeSwitch) themeSwitch.setAttribute("aria-pressed", isDark() ? "true" : "false");
}
if (themeSwitch) {
  themeSwitch.hidden = false;
  showTheme();
  themeSwitch.addEventListener("click", () => {
    const theme = isDark() ? "light" : "dark";
    if (theme === (prefersDark.matches ? "dark" : "light")) {
      // Back to what the phone says: follow it again (at night, by its schedule).
      delete root.dataset.theme;
      forget("theme");
    } else {
      root.dataset.theme = theme;
      remember("theme", theme);
    }
    showTheme();
  });
  prefersDark.addEventListener("change", showTheme);
}

// --- Keep the screen awake (Screen Wake Lock API) on the pages that ask for it.
// On by default, the switch is remembered; the browser drops the lock whenever the
// page is hidden, so it is asked for again each time the page comes back.
const wakeSwitch = document.querySelector("[data-wake-switch]");
if (wakeSwitch && "wakeLock" in navigator) {
  let lock = null;
  let wanted = recall("keep-awake") !== "off";
  const acquire = () => {
    if (!wanted || lock || document.visibilityState !== "visible") return;
    navigator.wakeLock.request("screen").then(
      (sentinel) => {
        lock = sentinel;
        lock.addEventListener("release", () => {
          lock = null;
        });
      },
      () => {
        lock = null; // refused (battery saver, no permission): the screen may sleep
      },
    );
  };
  const showWake = () => {
    wakeSwitch.setAttribute("aria-pressed", wanted ? "true" : "false");
  };
  wakeSwitch.hidden = false;
  showWake();
  acquire();
  wakeSwitch.addEventListener("click", () => {
    wanted = !wanted;
    remember("keep-awake", wanted ? "on" : "off");
    showWake();
    if (wanted) acquire();
    else if (lock) lock.release();
  });
  document.addEventListener("visibilitychange", acquire);
}

// --- Ledger: a tap anywhere on a round's rows opens the round. The round number
// stays a real link for keyboards and screen readers.
document.addEventListener("click", (event) => {
  const row = event.target.closest("tr[data-href]");
  if (!row || event.target.closest("a, button, input, label")) return;
  if (window.getSelection && String(window.getSelection())) return; // selecting text
  window.location.href = row.dataset.href;
});

// --- Tables wider than the screen: a shade at the edge with more beyond it, and
// on the ledger a line that says so.
function cue(scroller) {
  const more = scroller.scrollWidth - scroller.clientWidth - scroller.scrollLeft > 1;
  scroller.classList.toggle("more-right", more);
  scroller.classList.toggle("more-left", scroller.scrollLeft > 1);
  const hint = scroller.dataset.scrollCue && document.getElementById(scroller.dataset.scrollCue);
  if (hint) hint.hidden = scroller.scrollWidth <= scroller.clientWidth;
}
function cueAll() {
  document.querySelectorAll(".table-scroll").forEach(cue);
}
document.addEventListener(
  "scroll",
  (event) => {
    if (event.target.classList && event.target.classList.contains("table-scroll")) {
      cue(event.target);
    }
  },
  true,
);
window.addEventListener("resize", cueAll);
document.addEventListener("htmx:afterSettle", cueAll); // the share page's live ledger
cueAll();

// --- An amount box selects what it holds when focused: typing 30 over a
// suggested "51.00" gives 30, never "51.0030".
document.addEventListener("focusin", (event) => {
  const box = event.target;
  if (!(box instanceof HTMLInputElement) || !box.hasAttribute("data-select-on-focus")) {
    return;
  }
  box.select();
  // The tap's own mouseup would put the caret back in place of the selection.
  box.addEventListener(
    "mouseup",
    (up) => {
      up.preventDefault();
    },
    { once: true },
  );
});

// The newest state of each session this phone has seen from the server: the
// next round (number, dealer, dhoos pending, better default), the latest
// saved rounds and the standings, as scoring/templatetags/offline.py
// chain_data gives them on a page and in the answer to every save made in
// place (round-save.js). A page kept on the phone shows what the server said
// when it was kept; the phone may have learnt more since (a round saved
// online just before the network dropped), and a form follows the newest it
// knows (next-round.js, offline-preview.js). Versions are the session
// owner's counter, which only grows (scoring/selectors/versions.py).
//
// localStorage, per user (the offline page's bucket) and session; gone with
// the user's other copies at log-out (offline.js).
const PREFIX = "marriage-chain:";

function keyOf(user, session) {
  return PREFIX + user + ":" + session;
}

function read(user, session) {
  try {
    const found = JSON.parse(localStorage.getItem(keyOf(user, session)) || "null");
    return found && found.start && typeof found.version === "number" ? found : null;
  } catch (error) {
    return null; // no storage (a private window): the page's own
  }
}

// Keeps `data` if it is newer than what the phone knew of the session.
export function remember(user, session, data) {
  if (!user || user === "public" || !session || !data || !data.start) return;
  if (typeof data.version !== "number") return;
  const known = read(user, session);
  if (known && known.version >= data.version) return;
  try {
    localStorage.setItem(keyOf(user, session), JSON.stringify(data));
  } catch (error) {
    // full, or no storage: the page's own data stands
  }
}

// The newer of the page's `data` and what the phone knew, in the page's words.
export function newest(user, session, data) {
  if (!user || !session || !data) return data;
  const known = read(user, session);
  if (!known || known.version <= (data.version || 0)) return data;
  return { ...known, words: data.words || known.words };
}

// A user's knowledge, at log-out.
export function forget(user) {
  try {
    const mine = [];
    for (let index = 0; index < localStorage.length; index++) {
      const name = localStorage.key(index);
      if (name && name.startsWith(PREFIX + user + ":")) mine.push(name);
    }
    mine.forEach((name) => localStorage.removeItem(name));
  } catch (error) {
    // no storage
  }
}

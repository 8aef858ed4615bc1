// The round form's settlement preview with no network: the server's preview
// request cannot go, so the round is settled here by static/js/settlement.js,
// the browser's copy of the engine (tests/offline/test_settlement_parity.py holds the
// two to the same figures), under the session's rules as the form carries them.
import * as engine from "./settlement.js";
import * as phrases from "./breakdown-words.js";
import * as Queue from "./offline-queue.js";
import * as nextRound from "./next-round.js";
import { filled } from "./slots.js";
import { provideRoundSummary } from "./offline.js";

// Loaded by the round form only (templates/scoring/rounds/form.html), which has these.
var form = document.getElementById("round-form");
var preview = document.getElementById("preview");
var words = document.getElementById("offline-preview-strings");
var skeleton = document.getElementById("breakdown-template");
var t = words.dataset;

// The engine's copy and the payments in words (the chain of rounds kept here: next-round.js).
var loaded = { engine: engine, words: phrases };

function load() {
  return Promise.resolve(loaded);
}

function parse(json, fallback) {
  try {
    return JSON.parse(json);
  } catch (error) {
    return fallback;
  }
}

var rules = parse(form.dataset.rules, {});
var pending = parse(form.dataset.pending, []);
var chainData = parse(form.dataset.chain || "null", null);
if (chainData && !chainData.start) chainData = null;
var catalogue = parse(form.dataset.catalogue, {});
// The page's number format (localise/numbers.py): its separator and group sizes.
var numbers = parse(form.dataset.numberFormat, { sep: ",", sizes: [3] });
var num = phrases.grouper(numbers);
var english = (document.documentElement.lang || "en").slice(0, 2) === "en";

function translate(id) {
  return catalogue[id] || id;
}

function field(id) {
  return form.querySelector("#" + id);
}

// The form's players by id, as the rows name them, in seat order.
var formPlayers = Array.from(form.querySelectorAll(".player-row")).map(function (row) {
  return { id: row.dataset.playerId, name: row.dataset.player };
});

// The round as the form holds it; null while nobody is picked as winner.
function roundOf() {
  return nextRound.roundFromFields(new FormData(form), formPlayers);
}

function element(tag, className, text) {
  var node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function signed(n) {
  return (n > 0 ? "+" : "") + num(n);
}

// The values _breakdown.html's slots name, from settlement.js's result.
function breakdownData(module, words, result) {
  var say = { translate: translate, num: num };
  // What the winner collects, as a sum a table can check: "15 + 34 + (−3) = 46"
  // (the winner_take filter's).
  var pays = result.players
    .filter(function (p) {
      return !p.is_winner;
    })
    .map(function (p) {
      return p.pay;
    });
  var take = pays.reduce(function (sum, pay) {
    return sum + pay;
  }, 0);
  var collects =
    pays
      .map(function (pay) {
        return pay >= 0 ? num(pay) : "(−" + num(-pay) + ")";
      })
      .join(" + ") +
    " = " +
    (take >= 0 ? num(take) : "−" + num(-take));
  return {
    total: num(result.total),
    n: num(result.n),
    times: num(result.multiplier),
    no_winner: !result.winner,
    total_seen: num(result.total_seen),
    take: collects,
    players: result.players.map(function (p) {
      return {
        player: p.player,
        winner_class: p.is_winner ? "winner" : "",
        winner: p.is_winner,
        seen: p.status === "seen",
        dhoos: p.dhoos,
        dublees: p.dublees,
        net: signed(p.net),
        sign: p.net > 0 ? "pos" : p.net < 0 ? "neg" : "", // the sign_class filter's
        points: num(p.points),
        maal: num(p.maal),
        tunnel: Boolean(p.tunnel),
        counted: num(p.counted_tunnel),
        cut: p.counted_tunnel !== p.tunnel,
        held: num(p.tunnel),
        loser: Boolean(result.winner) && !p.is_winner,
        seen_only: Boolean(p.seen_only),
        w: num(p.w),
        ns: num(p.n_s),
        pay: num(p.pay),
        receives: p.is_winner,
        dhoos_net: p.dhoos_net ? signed(p.dhoos_net) : "",
        // A note with no words in the page's language is left out, never shown in English.
        notes: p.notes
          .filter(function (note) {
            return english || note.id in catalogue;
          })
          .map(function (note) {
            return { note: module.fill(note.id, note.params, translate) };
          }),
        words: words.playerSentence(result, p, say),
      };
    }),
    // Who sat the round out but pays a dhoos in it (next_round_winner, RULES.md 3a).
    outside: (result.outside || []).map(function (owed) {
      return { said: words.outsideSentence(result, owed, say) };
    }),
  };
}

function breakdown(module, words, result) {
  return filled(skeleton, breakdownData(module, words, result));
}

// Fields of a player's line, and of the round (scoring/forms/rounds.py).
var ROW_FIELDS = ["plays", "status", "maal", "tunnel", "dhoos", "dublees"];
var ROUND_FIELDS = ["players", "winner", "win_type", "better", "tiplu"];

// Every problem as the server's preview lists them (RoundForm.all_errors):
// the round's own first, grouped by field in the order met, then each
// player's in the form's order, each message after its field's name.
function problemLines(module, problems, round) {
  var general = new Map();
  var players = new Map(
    round.entries.map(function (e) {
      return [e.player, new Map()];
    }),
  );
  function add(groups, key, line) {
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(line);
  }
  problems.forEach(function (problem) {
    var text = module.fill(problem.id, problem.params, translate);
    var row = players.get(problem.player);
    if (row && ROW_FIELDS.includes(problem.field)) {
      add(row, problem.field, problem.player + ", " + translate(problem.field) + ": " + text);
    } else if (ROUND_FIELDS.includes(problem.field)) {
      add(general, problem.field, translate(problem.field) + ": " + text);
    } else {
      add(general, "round", problem.player ? problem.player + ", " + text : text);
    }
  });
  var lines = [];
  [general].concat(Array.from(players.values())).forEach(function (groups) {
    groups.forEach(function (group) {
      lines = lines.concat(group);
    });
  });
  return lines;
}

var shown = null; // the round the preview shows, as JSON

// --- The rounds kept on the phone before this one -------------------------------------------

var editing = !chainData; // only a new round's form follows them
var sessionMatch = location.pathname.match(/^\/sessions\/(\d+)\//);
var sessionId = sessionMatch ? sessionMatch[1] : null;
var offlineStrings = document.getElementById("offline-strings");
var user = offlineStrings ? offlineStrings.dataset.user : "";
var fixing = new URLSearchParams(location.search).get("fix");
// The round this form is for, as the server's last round leaves it, followed
// on after the rounds and edits kept on the phone (next-round.js).
var following = chainData ? nextRound.follower(chainData, rules) : null;
var onPhone = false; // rounds or edits kept here move this round: settled here
var after = null; // the chain's answer: {state, default} for this round
var followed = false; // rounds kept here have moved the form on
var numberField = form.querySelector('input[name="number"]');
var betterBox = field("better");
var betterTouched = false;
if (betterBox) {
  betterBox.addEventListener("change", function (event) {
    if (event.isTrusted) betterTouched = true;
  });
}

function keptRecords() {
  if (editing || !user || !sessionId) return Promise.resolve([]);
  return Queue.list(user).then(function (records) {
    // This session's new rounds and edits of its rounds, in order.
    return records.filter(function (record) {
      return record.session === sessionId;
    });
  });
}

// Works the chain out again from the queue; the form follows it.
function follow() {
  if (editing) return Promise.resolve();
  return Promise.all([load(), keptRecords()]).then(function (found) {
    // Fixing a refused round: the rounds kept before it come before it.
    var answer = following.settle(found[1], fixing);
    onPhone = answer.followed;
    var fallback = answer.default;
    var moved =
      !after ||
      after.state.number !== answer.state.number ||
      after.default.better !== fallback.better;
    after = { state: answer.state, default: fallback };
    // The form as the server gave it stands until rounds kept here move it
    // on (a refused save's form keeps the better mark as it was sent).
    followed = followed || onPhone;
    if (!followed) return null;
    if (numberField) numberField.value = String(answer.state.number);
    nextRound.sayNextRound(
      document.querySelector(".next-round"),
      chainData,
      answer.state,
      fallback,
    );
    if (betterBox && !betterTouched && moved && !restoring) betterBox.checked = fallback.better;
    shown = null; // what is pending may have changed: worked out again
    if (onPhone || !navigator.onLine) return show();
    return null;
  });
}

// A round or an edit kept here reached the server: the form's starting point
// follows it (the rounds after it are still on the phone).
function arrived(key) {
  following.arrived(key);
}

// What the ledger lists of this round while it waits on the phone: the
// winner and each player's net as the server will save them (offline.js asks
// when it keeps the round).
provideRoundSummary(function () {
  var round = roundOf();
  if (!round) return null;
  var nets = {};
  var outside = [];
  try {
    if (!loaded.engine.roundProblems(round, rules).length) {
      var result = loaded.engine.settleRound(round, rules, currentPending());
      result.players.forEach(function (p) {
        nets[p.player] = p.net;
      });
      // A fouler who sat the round out and pays a waiting dhoos in it (next_round_winner).
      outside = (result.outside || []).map(function (owed) {
        return { name: owed.player, net: result.nets ? result.nets[owed.player] : -owed.amount };
      });
    }
  } catch (error) {
    if (!(error instanceof loaded.engine.RoundError)) throw error;
  }
  return {
    winner: round.winner,
    players: round.entries
      .map(function (entry) {
        return { name: entry.player, net: entry.player in nets ? nets[entry.player] : null };
      })
      .concat(outside),
  };
});

function currentPending() {
  return after ? after.state.pending : pending;
}

function show() {
  var round = roundOf();
  var key = round && JSON.stringify(round);
  // Nothing new (the change that ends the typing in a box): the preview stays
  // as it is, so a tap on it is not lost.
  if (!round || key === shown) return Promise.resolve();
  shown = key;
  return load().then(function (loaded) {
    var module = loaded.engine;
    var note = onPhone && chainData.words.afterKept ? chainData.words.afterKept : t.onPhone;
    var content = [element("h2", "", t.settlement), element("p", "muted small offline-note", note)];
    var problems = module.roundProblems(round, rules);
    if (!problems.length) {
      try {
        var result = module.settleRound(round, rules, currentPending());
        content.push(breakdown(module, loaded.words, result));
      } catch (error) {
        if (!(error instanceof module.RoundError)) throw error;
        problems = [error];
      }
    }
    if (problems.length) {
      content[0].textContent = t.notSettled;
      var list = element("ul", "errorlist");
      problemLines(module, problems, round).forEach(function (line) {
        list.appendChild(element("li", "", line));
      });
      content.push(list);
    }
    preview.replaceChildren.apply(preview, content);
  });
}

// Offline, or rounds of this session still on the phone (the server would
// settle this one without them): the request is not even tried. A request
// that fails (a dead spot the phone does not know about): worked out here
// all the same.
document.body.addEventListener("htmx:beforeRequest", function (event) {
  if (event.detail.elt !== form || (navigator.onLine && !onPhone)) return;
  event.preventDefault();
  show();
});
document.body.addEventListener("htmx:sendError", function (event) {
  if (event.detail.elt === form) show();
});

// --- The draft: what is typed, kept on the phone until saved ----------------------------------

var SKIP = { csrfmiddlewaretoken: 1, save_key: 1, number: 1, version: 1, offline_summary: 1 };
var restoring = false;

function draftKey() {
  return (
    "marriage-draft:" + (user || "") + ":" + location.pathname + (fixing ? "?fix=" + fixing : "")
  );
}

function formMark() {
  // The round the draft is for: a new round's number, an edit's version.
  var version = form.querySelector('input[name="version"]');
  return version ? "v" + version.value : "n" + (numberField ? numberField.value : "");
}

function saveDraft() {
  if (restoring) return;
  var fields = [];
  new FormData(form).forEach(function (value, name) {
    if (!SKIP[name] && typeof value === "string") fields.push([name, value]);
  });
  try {
    localStorage.setItem(draftKey(), JSON.stringify({ mark: formMark(), fields: fields }));
  } catch (error) {
    // no storage (a private window, full): the form works without a draft
  }
}

function clearDraft() {
  try {
    localStorage.removeItem(draftKey());
  } catch (error) {
    // no storage
  }
}

// The draft typed into this form before a reload, if it is for the same round.
function restoreDraft() {
  // The draft is restored once the phone's queue is read, which on a slow phone
  // comes after the first taps: a draft saved by those taps must not undo the
  // ones after them.
  if (touched) return false;
  var draft;
  try {
    draft = JSON.parse(localStorage.getItem(draftKey()) || "null");
  } catch (error) {
    draft = null;
  }
  if (!draft || draft.mark !== formMark() || !Array.isArray(draft.fields)) return false;
  var values = new URLSearchParams(draft.fields);
  restoring = true;
  form.querySelectorAll("input").forEach(function (input) {
    if (!input.name || SKIP[input.name]) return;
    var given = values.getAll(input.name);
    if (input.type === "checkbox" || input.type === "radio")
      input.checked = given.indexOf(input.value) !== -1;
    else input.value = given.length ? given[0] : "";
  });
  if (betterBox) betterTouched = true; // as it was typed
  // "More" open where something behind it is set, as the server opens it.
  form.querySelectorAll("details.more").forEach(function (details) {
    details.querySelectorAll("input").forEach(function (input) {
      var set =
        input.type === "checkbox" || input.type === "radio" ? input.checked : input.value.trim();
      if (set && input.name && !SKIP[input.name]) details.open = true;
    });
  });
  restoring = false;
  form.dispatchEvent(new Event("change", { bubbles: true }));
  return true;
}

var touched = false; // the reader has typed or tapped in this form since it loaded
function noteTouched(event) {
  if (event.isTrusted) touched = true;
}
form.addEventListener("input", noteTouched);
form.addEventListener("change", noteTouched);
form.addEventListener("pointerdown", noteTouched);
form.addEventListener("keydown", noteTouched);
form.addEventListener("input", saveDraft);
form.addEventListener("change", saveDraft);
document.addEventListener(
  "submit",
  function (event) {
    if (event.target === form) clearDraft();
  },
  true,
);

// --- Start, and follow the queue ---------------------------------------------------------------

load();
var started = follow()
  .catch(function () {
    return null; // no queue to read (storage off): the form as the server gave it
  })
  .then(function () {
    // A fix is filled in from its waiting round (offline.js), not from a draft.
    if (!fixing) restoreDraft();
    if (!navigator.onLine || onPhone) return show();
    return null;
  });

function queueChanged(detail) {
  started.then(function () {
    if (detail && detail.sent && detail.key) arrived(detail.key);
    return follow();
  });
}
var channel = Queue.channel();
if (channel) {
  channel.addEventListener("message", function (event) {
    queueChanged(event.data);
  });
}
window.addEventListener("marriage-queue", function (event) {
  queueChanged(event.detail);
});

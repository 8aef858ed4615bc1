// The round form's settlement preview with no network: the server's preview
// request cannot go, so the round is settled here by static/js/settlement.js,
// the browser's copy of the engine (tests/test_settlement_parity.py holds the
// two to the same figures), under the session's rules as the form carries them.
(function () {
  "use strict";
  var form = document.getElementById("round-form");
  var preview = document.getElementById("preview");
  var words = document.getElementById("offline-preview-strings");
  if (!form || !preview || !words || !form.dataset.settlement) return;
  var t = words.dataset;
  var modules = null;
  var num = String; // grouper(numbers), once the modules are loaded

  // The engine's copy (settlement.js) and the payments in words
  // (breakdown-words.js), by dynamic import: static() names them, hashed in production.
  function load() {
    modules =
      modules ||
      Promise.all([import(form.dataset.settlement), import(form.dataset.words)]).then(function (loaded) {
        num = loaded[1].grouper(numbers);
        return { engine: loaded[0], words: loaded[1] };
      });
    return modules;
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
  var catalogue = parse(form.dataset.catalogue, {});
  // The page's number format (localise/numbers.py): its separator and group sizes.
  var numbers = parse(form.dataset.numberFormat, { sep: ",", sizes: [3] });
  var english = (document.documentElement.lang || "en").slice(0, 2) === "en";

  function translate(id) {
    return catalogue[id] || id;
  }

  function field(id) {
    return form.querySelector("#" + id);
  }

  function points(input) {
    var text = input ? input.value.trim() : "";
    if (text === "") return 0;
    return /^\d+$/.test(text) ? Number(text) : text; // refused by the engine, as on the server
  }

  // The round as the form holds it; null while nobody is picked as winner.
  function roundOf() {
    var chosen = form.querySelector('input[name="winner"]:checked');
    if (!chosen) return null;
    var winner = null;
    var entries = [];
    form.querySelectorAll(".player-row").forEach(function (row) {
      var id = row.dataset.playerId;
      var plays = field("p-" + id + "-plays");
      if (plays && !plays.checked) return;
      var unseen = field("p-" + id + "-status-unseen");
      var dhoos = field("p-" + id + "-dhoos");
      var dublees = field("p-" + id + "-dublees");
      if (chosen.value === id) winner = row.dataset.player;
      entries.push({
        player: row.dataset.player,
        // Dublees show the tiplu: seen, as the server takes it.
        status: unseen && unseen.checked && !(dublees && dublees.checked) ? "unseen" : "seen",
        maal: points(field("p-" + id + "-maal")),
        tunnel: points(field("p-" + id + "-tunnel")),
        dhoos: Boolean(dhoos && dhoos.checked),
        dublees: Boolean(dublees && dublees.checked),
      });
    });
    var dublee = field("win_type-dublee");
    var better = field("better");
    return {
      entries: entries,
      winner: winner,
      win_type: dublee && dublee.checked ? "dublee" : "normal",
      better: Boolean(better && better.checked),
    };
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

  function figure(name, value) {
    var span = element("span", "figure", name + " = ");
    span.appendChild(element("b", "", num(value)));
    return span;
  }

  // Every payment in words, folded into one "In words" at the end, as the
  // server's preview has it.
  function inWords(module, result) {
    var box = element("details", "in-words-all");
    box.appendChild(element("summary", "", t.inWords));
    var list = element("ul");
    result.players.forEach(function (p) {
      list.appendChild(element("li", "in-words", module.playerSentence(result, p, { translate: translate, num: num })));
    });
    box.appendChild(list);
    return box;
  }

  function breakdown(module, words, result) {
    var box = element("div", "breakdown");
    var figures = element("p", "figures");
    figures.appendChild(figure("T", result.total));
    figures.appendChild(figure("n", result.n));
    figures.appendChild(figure("m", result.multiplier));
    if (!result.winner) figures.appendChild(element("span", "muted", t.noWinner));
    box.appendChild(figures);
    var explained = element("p", "muted small", t.eachLoser + " ");
    var guide = element("a", "", t.howItWorks);
    guide.href = t.howItWorksUrl;
    explained.appendChild(guide);
    box.appendChild(explained);
    var list = element("ul", "breakdown-list");
    // What the winner collects, as a sum a table can check: "15 + 34 + (−3) = 46"
    // (the winner_take filter's).
    var pays = result.players.filter(function (p) { return !p.is_winner; }).map(function (p) { return p.pay; });
    var take = pays.reduce(function (sum, pay) { return sum + pay; }, 0);
    var collects =
      pays.map(function (pay) { return pay >= 0 ? num(pay) : "(−" + num(-pay) + ")"; }).join(" + ") +
      " = " + (take >= 0 ? num(take) : "−" + num(-take));
    result.players.forEach(function (p) {
      var li = element("li", "breakdown-player" + (p.is_winner ? " winner" : ""));
      li.dataset.player = p.player;
      var who = element("div", "who");
      who.appendChild(element("b", "", p.player));
      if (p.is_winner) who.appendChild(element("span", "tag win", t.winner));
      who.appendChild(element("span", "tag", p.status === "seen" ? t.seen : t.unseen));
      if (p.dhoos) who.appendChild(element("span", "tag dhoos", t.dhoos));
      if (p.dublees) who.appendChild(element("span", "tag", t.byDublees));
      who.appendChild(element("span", "net num " + (p.net > 0 ? "pos" : p.net < 0 ? "neg" : ""), signed(p.net)));
      li.appendChild(who);
      var calc = element("div", "calc");
      calc.appendChild(element("span", "", "S = " + num(p.points)));
      var held = translate("maal") + " " + num(p.maal);
      if (p.tunnel) {
        held += " + " + translate("tunnel") + " " + num(p.counted_tunnel);
        if (p.counted_tunnel !== p.tunnel) held += "/" + num(p.tunnel);
      }
      calc.appendChild(element("span", "muted small", "(" + held + ")"));
      if (result.winner && !p.is_winner) {
        calc.appendChild(element("span", "w", "w = " + num(p.w)));
        // unseen_pairs = skip (RULES.md 3a): T_seen and k·S on an unseen loser's line.
        calc.appendChild(element("span", "ns", (p.seen_only ? "k·S = " : "n·S = ") + num(p.n_s)));
        var base = p.seen_only ? result.total_seen : result.total;
        var sum = "(" + num(base) + " + " + num(p.w) + " − " + num(p.n_s) + ") × " + result.multiplier;
        var formula = element("span", "formula", sum + " = ");
        formula.appendChild(element("b", "", num(p.pay)));
        calc.appendChild(formula);
      } else if (p.is_winner) {
        calc.appendChild(element("span", "formula", t.receives + " " + collects));
      }
      if (p.dhoos_net) calc.appendChild(element("span", "", t.dhoos + " " + signed(p.dhoos_net)));
      li.appendChild(calc);
      // A note with no words in the page's language is left out, never shown in English.
      var shown = p.notes.filter(function (note) {
        return english || note.id in catalogue;
      });
      if (shown.length) {
        var notes = element("ul", "notes small");
        shown.forEach(function (note) {
          notes.appendChild(element("li", "", module.fill(note.id, note.params, translate)));
        });
        li.appendChild(notes);
      }
      list.appendChild(li);
    });
    box.appendChild(list);
    // Who sat the round out but pays a dhoos in it (next_round_winner, RULES.md 3a).
    if (result.outside && result.outside.length) {
      var outside = element("ul", "breakdown-outside small");
      result.outside.forEach(function (owed) {
        outside.appendChild(element("li", "", words.outsideSentence(result, owed, { translate: translate, num: num })));
      });
      box.appendChild(outside);
    }
    box.appendChild(inWords(words, result));
    return box;
  }

  // Fields of a player's line, and of the round (scoring/forms/rounds.py).
  var ROW_FIELDS = ["plays", "status", "maal", "tunnel", "dhoos", "dublees"];
  var ROUND_FIELDS = ["players", "winner", "win_type", "better", "tiplu"];

  // Every problem as the server's preview lists them (RoundForm.all_errors):
  // the round's own first, grouped by field in the order met, then each
  // player's in the form's order, each message after its field's name.
  function problemLines(module, problems, round) {
    var general = new Map();
    var players = new Map(round.entries.map(function (e) { return [e.player, new Map()]; }));
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
      groups.forEach(function (group) { lines = lines.concat(group); });
    });
    return lines;
  }

  var shown = null; // the round the preview shows, as JSON

  function show() {
    var round = roundOf();
    var key = round && JSON.stringify(round);
    // Nothing new (the change that ends the typing in a box): the preview stays
    // as it is, so a tap on it is not lost.
    if (!round || key === shown) return Promise.resolve();
    shown = key;
    return load().then(function (loaded) {
      var module = loaded.engine;
      var content = [element("h2", "", t.settlement), element("p", "muted small offline-note", t.onPhone)];
      var problems = module.roundProblems(round, rules);
      if (!problems.length) {
        try {
          var result = module.settleRound(round, rules, pending);
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

  // Offline: the request is not even tried. A request that fails (a dead spot
  // the phone does not know about): worked out here all the same.
  document.body.addEventListener("htmx:beforeRequest", function (event) {
    if (event.detail.elt !== form || navigator.onLine) return;
    event.preventDefault();
    show();
  });
  document.body.addEventListener("htmx:sendError", function (event) {
    if (event.detail.elt === form) show();
  });
  if (!navigator.onLine) show();
})();

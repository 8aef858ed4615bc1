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
  var engine = null;

  function load() {
    // A dynamic import by URL: static() names the module, hashed in production.
    engine = engine || import(form.dataset.settlement);
    return engine;
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
    return (n > 0 ? "+" : "") + n;
  }

  function figure(name, value) {
    var span = element("span", "figure", name + " = ");
    span.appendChild(element("b", "", String(value)));
    return span;
  }

  function breakdown(module, result) {
    var box = element("div", "breakdown");
    var figures = element("p", "figures");
    figures.appendChild(figure("T", result.total));
    figures.appendChild(figure("n", result.n));
    figures.appendChild(figure("m", result.multiplier));
    box.appendChild(figures);
    var list = element("ul", "breakdown-list");
    var take = 0;
    result.players.forEach(function (p) {
      if (!p.is_winner) take += p.pay;
    });
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
      calc.appendChild(element("span", "", "S = " + p.points));
      if (result.winner && !p.is_winner) {
        calc.appendChild(element("span", "w", "w = " + p.w));
        calc.appendChild(element("span", "ns", "n·S = " + p.n_s));
        var formula = element("span", "formula", "(" + result.total + " + " + p.w + " − " + p.n_s + ") × " + result.multiplier + " = ");
        formula.appendChild(element("b", "", String(p.pay)));
        calc.appendChild(formula);
      } else if (p.is_winner) {
        calc.appendChild(element("span", "formula", t.receives + " " + take));
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
    return box;
  }

  function show() {
    var round = roundOf();
    if (!round) return Promise.resolve();
    return load().then(function (module) {
      var content = [element("h2", "", t.settlement), element("p", "muted small offline-note", t.onPhone)];
      try {
        content.push(breakdown(module, module.settleRound(round, rules, pending)));
      } catch (error) {
        if (!(error instanceof module.RoundError)) throw error;
        content[0].textContent = t.notSettled;
        var problems = element("ul", "errorlist");
        var text = module.fill(error.id, error.params, translate);
        problems.appendChild(element("li", "", error.player ? error.player + ", " + text : text));
        content.push(problems);
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

// A round's payments in words on the phone, for the offline preview: the
// sentences of scoring/words/breakdown_words.py, built the same way from
// settlement.js's figures, phrase by phrase. Each phrase is its catalogue id:
// the page's catalogue (offline_catalogue) gives it in the page's language,
// from the table of scoring/words/offline_words.py that declares each phrase.
// tests/offline/test_settlement_parity.py holds the two to the same words, in English
// and Nepali.

const MINUS = "−"; // U+2212: a minus sign, not a hyphen, in running text

// A whole number grouped as the server groups it (localise/numbers.py), from
// the page's format: {sep: ",", sizes: [3]}; Nepali [3, 2] gives 1,00,000.
export function grouper(format) {
  const sep = format.sep;
  const sizes = format.sizes.length ? format.sizes : [0];
  return function num(value) {
    const digits = String(Math.abs(value));
    if (sizes[0] === 0 || digits.length <= sizes[0]) return String(value);
    const parts = [];
    let end = digits.length;
    for (let index = 0; index < digits.length; index++) {
      const size = sizes[Math.min(index, sizes.length - 1)];
      if (end <= size) break;
      parts.push(digits.slice(end - size, end));
      end -= size;
    }
    parts.push(digits.slice(0, end));
    const grouped = parts.reverse().join(sep);
    return value < 0 ? "-" + grouped : grouped;
  };
}

function filled(text, params) {
  return text.replace(/%\((\w+)\)s/g, (_, name) => String(params[name]));
}

// A next_round_winner dhoos paid by a player who sits the round out
// (settlement.js's result.outside: {player, amount, from}), as
// scoring/words/breakdown_words.py's outside_sentence says it.
export function outsideSentence(result, owed, { translate, num }) {
  return filled(
    translate(
      "%(name)s sits this round out and pays %(winner)s %(amount)s: dhoos from round %(round)s.",
    ),
    {
      name: owed.player,
      winner: result.winner,
      amount: num(owed.amount),
      round: owed.from,
    },
  );
}

// One player's part of the round as a sentence. `translate` maps a phrase to
// the page's language; `num` groups a number (grouper).
export function playerSentence(result, p, { translate, num }) {
  const say = (id, params = {}) => filled(translate(id), params);
  const signed = (value) => (value > 0 ? "+" + num(value) : value < 0 ? MINUS + num(-value) : "0");

  // T + w − n·S (× m) as words: the sum behind one loser's payment.
  function working() {
    // Under unseen_pairs = skip an unseen loser's is T_seen + w − k·S (RULES.md 3a).
    const terms = p.seen_only
      ? [say("the seen players' points %(total)s", { total: num(result.total_seen) })]
      : [say("all points %(total)s", { total: num(result.total) })];
    const base = p.w - result.dublee_bonus;
    const byDublees = p.dublees && p.status === "seen" && !p.dead_hand;
    const bonus = byDublees ? result.dublee_player_bonus : 0;
    if (p.dead_hand) {
      terms.push(say("no game payment (dead hand)"));
    } else if (p.status === "unseen") {
      terms.push(say("plus %(w)s for unseen", { w: num(base) }));
    } else if (base + bonus === 0 && p.dublees) {
      // dublee_players_pay_seen off: say why there is no seen payment.
      terms.push(say("no seen payment (saw by dublees)"));
    } else {
      terms.push(say("plus %(w)s for seen", { w: num(base + bonus) }));
    }
    if (bonus) {
      terms.push(say("minus %(bonus)s for seeing by dublees", { bonus: num(bonus) }));
    }
    if (result.dublee_bonus) {
      terms.push(say("plus %(bonus)s for the dublee win", { bonus: num(result.dublee_bonus) }));
    }
    if (p.points && p.seen_only) {
      terms.push(
        say("minus %(n)s (the seen players) × %(name)s's %(points)s", {
          n: result.seen_count,
          name: p.player,
          points: num(p.points),
        }),
      );
    } else if (p.points) {
      // English and Nepali both take the singular for 1 alone (the .po's Plural-Forms).
      const phrase =
        result.n === 1
          ? "minus %(n)s player × %(name)s's %(points)s"
          : "minus %(n)s players × %(name)s's %(points)s";
      terms.push(say(phrase, { n: result.n, name: p.player, points: num(p.points) }));
    } else {
      terms.push(say("nothing off (%(name)s counts 0)", { name: p.player }));
    }
    if (result.multiplier !== 1) {
      terms.push(say("all × %(times)s for the better round", { times: result.multiplier }));
    }
    return terms.join(", ");
  }

  function loser() {
    const values = {
      loser: p.player,
      winner: result.winner,
      amount: num(Math.abs(p.pay)),
      working: working(),
    };
    if (p.pay > 0) return say("%(loser)s pays %(winner)s %(amount)s: %(working)s.", values);
    if (p.pay < 0) {
      return say(
        "%(loser)s receives %(amount)s from %(winner)s: %(working)s makes −%(amount)s.",
        values,
      );
    }
    return say("%(loser)s and %(winner)s are even: %(working)s makes 0.", values);
  }

  // What comes in first, then what goes out: "16 from B, 17 from D, less 3 to A".
  function winner() {
    const losers = result.players.filter((other) => !other.is_winner);
    const parts = [
      ...losers
        .filter((other) => other.pay > 0)
        .map((other) =>
          say("%(amount)s from %(name)s", { name: other.player, amount: num(other.pay) }),
        ),
      ...losers
        .filter((other) => other.pay < 0)
        .map((other) =>
          say("less %(amount)s to %(name)s", { name: other.player, amount: num(-other.pay) }),
        ),
    ];
    const take = losers.reduce((sum, other) => sum + other.pay, 0);
    const values = { winner: p.player, amount: num(Math.abs(take)), parts: parts.join(", ") };
    if (take > 0) return say("%(winner)s takes %(amount)s as the winner: %(parts)s.", values);
    if (take < 0) return say("%(winner)s won the round but pays %(amount)s: %(parts)s.", values);
    if (parts.length) return say("%(winner)s won the round and comes out even: %(parts)s.", values);
    return say("%(winner)s won the round and comes out even.", values);
  }

  function dhoos() {
    if (!p.dhoos_net) return "";
    if (result.winner === null) {
      const values = { name: p.player, amount: num(Math.abs(p.dhoos_net)) };
      if (p.dhoos_net < 0) return say("%(name)s pays %(amount)s in dhoos.", values);
      return say("%(name)s receives %(amount)s in dhoos.", values);
    }
    return say("With dhoos %(dhoos)s, %(name)s ends the round at %(net)s.", {
      dhoos: signed(p.dhoos_net),
      name: p.player,
      net: signed(p.net),
    });
  }

  const sentences = [];
  if (result.winner !== null) sentences.push(p.is_winner ? winner() : loser());
  sentences.push(dhoos());
  return sentences.filter((sentence) => sentence).join(" ");
}

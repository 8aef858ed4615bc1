// One round's settlement in the browser, for the offline preview: RULES.md
// sections 2 and 3, exactly as scoring/engine/settlement.py computes them.
// tests/offline/test_settlement_parity.py runs both on thousands of generated rounds
// and requires the same figures, the same notes and the same refusals (message
// ids and values: the engine's own, which the page's catalogue translates), so
// there is one truth. Every id this script may give is declared in
// scoring/words/offline_words.py (tests/offline/test_words.py holds it to that).
//
// Plain ES module, no build step. Input and output use the engine's names:
//   round = {entries: [{player, status, maal, tunnel, dhoos, dublees}],
//            winner (name or null), win_type, better}
//   rules = {schema, values} as the page gives them (see resolveRules), or
//           the session's resolved options (Rules.to_options()).

export const MIN_PLAYERS = 2;
export const MAX_POINTS = 10000; // more maal or tunnel points than this in one hand is a typo
export const STATUSES = ["seen", "unseen"];
export const WIN_TYPES = ["normal", "dublee"];

// The rules as the page gives them (scoring/templatetags/offline.py
// `offline_rules`): {schema, values}, where the schema is every option of a
// round's settlement as the engine declares it ({kind, default, choices | min,
// max}) and the values the session's. An option the values omit takes the
// schema's default; there is no copy of the defaults here. A plain object of
// values is taken as it is (already resolved).
export function resolveRules(rules) {
  if (!rules || !rules.schema) return Object.freeze({ ...(rules || {}) });
  const resolved = {};
  for (const [name, option] of Object.entries(rules.schema)) resolved[name] = option.default;
  return Object.freeze({ ...resolved, ...(rules.values || {}) });
}

// A refused round: `id` is the engine's English message with %(name)s
// placeholders (the same catalogue key the server translates), `params` fill it.
export class RoundError extends Error {
  constructor(id, params = {}, { field = "", player = null } = {}) {
    super(fill(id, params));
    this.id = id;
    this.params = params;
    this.field = field;
    this.player = player;
  }
}

// "%(name)s" placeholders, as Python's % fills them; `translate` maps an id
// to the reader's language when the page gives a catalogue.
export function fill(id, params, translate) {
  const text = translate ? translate(id) : id;
  return text.replace(/%\((\w+)\)[sd]/g, (_, name) => String(params[name]));
}

// Python's repr() of what a form or file could put in a field, for messages.
function repr(value) {
  if (value === null || value === undefined) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "string")
    return "'" + value.replace(/\\/g, "\\\\").replace(/'/g, "\\'") + "'";
  return String(value);
}

function isWhole(value) {
  return typeof value === "number" && Number.isInteger(value);
}

// The problem with a maal or tunnel figure, or null when it is fine.
function pointsProblem(value, field, player) {
  if (!isWhole(value)) {
    return new RoundError(
      "must be a whole number, got %(value)s",
      { value: repr(value) },
      { field, player },
    );
  }
  if (value < 0) {
    return new RoundError("must not be negative, got %(value)s", { value }, { field, player });
  }
  if (value > MAX_POINTS) {
    return new RoundError(
      "%(value)s is more than %(max)s points; check the number",
      { value, max: "10,000" },
      { field, player },
    );
  }
  return null;
}

function entryOf(round, player) {
  return round.entries.find((entry) => entry.player === player);
}

// Throw RoundError for anything a table could not have played: the first of
// roundProblems, as the engine's validate_round.
export function validateRound(round, rules) {
  const problems = roundProblems(round, rules);
  if (problems.length) throw problems[0];
}

// Every problem with the round, in the engine's order (round_problems): the
// preview lists them all at once, as the server does. A check that needs an
// earlier one to pass (a winner's status needs an entry) is skipped when it failed.
export function roundProblems(round, options) {
  const rules = resolveRules(options);
  const problems = [];
  const names = new Set();
  for (const entry of round.entries) {
    if (!entry.player) {
      problems.push(new RoundError("every entry needs a player", {}, { field: "player" }));
      continue;
    }
    if (names.has(entry.player)) {
      problems.push(
        new RoundError("appears twice in the round", {}, { field: "player", player: entry.player }),
      );
      continue;
    }
    names.add(entry.player);
    const statusKnown = STATUSES.includes(entry.status);
    if (!statusKnown) {
      problems.push(
        new RoundError(
          "must be seen or unseen, got %(value)s",
          { value: repr(entry.status) },
          { field: "status", player: entry.player },
        ),
      );
    }
    for (const field of ["maal", "tunnel"]) {
      const problem = pointsProblem(entry[field], field, entry.player);
      if (problem) problems.push(problem);
    }
    if (typeof entry.dhoos !== "boolean") {
      problems.push(
        new RoundError(
          "must be true or false, got %(value)s",
          { value: repr(entry.dhoos) },
          { field: "dhoos", player: entry.player },
        ),
      );
    }
    const dublees = entry.dublees === undefined ? false : entry.dublees;
    if (typeof dublees !== "boolean") {
      problems.push(
        new RoundError(
          "must be true or false, got %(value)s",
          { value: repr(dublees) },
          { field: "dublees", player: entry.player },
        ),
      );
    } else if (dublees && statusKnown && entry.status !== "seen") {
      problems.push(
        new RoundError(
          "saw by dublees, so must be seen (dublees show the tiplu)",
          {},
          { field: "dublees", player: entry.player },
        ),
      );
    }
  }
  const count = round.entries.length;
  if (count < MIN_PLAYERS) {
    problems.push(
      new RoundError(
        "a round needs at least %(min)s players, got %(count)s",
        { min: MIN_PLAYERS, count },
        { field: "players" },
      ),
    );
  }
  if (count > rules.max_players) {
    problems.push(
      new RoundError(
        "at most %(max)s players can play a round under these rules, got %(count)s",
        { max: rules.max_players, count },
        { field: "players" },
      ),
    );
  }
  if (!WIN_TYPES.includes(round.win_type)) {
    problems.push(
      new RoundError(
        "must be normal or dublee, got %(value)s",
        { value: repr(round.win_type) },
        { field: "win_type" },
      ),
    );
  }
  if (typeof round.better !== "boolean") {
    problems.push(
      new RoundError(
        "must be true or false, got %(value)s",
        { value: repr(round.better) },
        { field: "better" },
      ),
    );
  }
  if (round.winner === null || round.winner === undefined) {
    if (round.win_type === "dublee") {
      problems.push(new RoundError("a dublee win needs a winner", {}, { field: "win_type" }));
    }
    return problems;
  }
  if (!names.has(round.winner)) {
    problems.push(
      new RoundError(
        "%(name)s has no entry in this round",
        { name: repr(round.winner) },
        { field: "winner", player: round.winner },
      ),
    );
  } else if (entryOf(round, round.winner).status !== "seen") {
    const id =
      round.win_type === "dublee"
        ? "a dublee winner must be seen (seven dublees show the tiplu)"
        : "the winner must be seen: ending the round means having shown the pure sets";
    problems.push(new RoundError(id, {}, { field: "status", player: round.winner }));
  }
  if (round.win_type === "dublee" && count < rules.dublee_min_players) {
    problems.push(
      new RoundError(
        "a dublee win needs at least %(min)s players under these rules, got %(count)s",
        { min: rules.dublee_min_players, count },
        { field: "win_type" },
      ),
    );
  }
  return problems;
}

// A loser given dhoos under dhoos_pays_total, in a round with a winner (3a).
function playsDeadHand(entry, round, rules) {
  const winner = round.winner ?? null;
  return Boolean(
    rules.dhoos_pays_total && entry.dhoos && winner !== null && entry.player !== winner,
  );
}

// Each player's {tunnel, points, notes} after section 3's rules, in the
// engine's order: unseen_tunnel, then dhoos_voids_maal, then unseen_maal on
// what is left, then the moves to the winner (kidnap, a dead hand's).
// Notes are {id, params}: the engine's message id and values.
export function countedPoints(round, rules) {
  const counted = new Map();
  let kidnapped = 0;
  let dead = 0;
  const winner = round.winner ?? null;
  for (const entry of round.entries) {
    const notes = [];
    const unseen = entry.status === "unseen";
    let tunnel = entry.tunnel;
    if (unseen && rules.unseen_tunnel === "void" && tunnel) {
      notes.push({
        id: "tunnel %(points)s void: unseen (tunnel pachaunu)",
        params: { points: tunnel },
      });
      tunnel = 0;
    }
    let points = entry.maal + tunnel;
    if (entry.dhoos && rules.dhoos_voids_maal) {
      // Before kidnap: nothing of a dhoos player's moves to the winner.
      if (points) notes.push({ id: "maal and tunnel %(points)s void: dhoos", params: { points } });
      tunnel = points = 0;
    }
    if (unseen && points && rules.unseen_maal === "void") {
      notes.push({ id: "maal %(points)s void: unseen (murder)", params: { points } });
      points = 0;
    } else if (unseen && points && rules.unseen_maal === "kidnap" && winner !== null) {
      notes.push({ id: "maal %(points)s kidnapped by %(name)s", params: { points, name: winner } });
      kidnapped += points;
      points = 0;
    } else if (points && winner !== null && playsDeadHand(entry, round, rules)) {
      notes.push({ id: "dead hand: %(points)s to %(name)s", params: { points, name: winner } });
      dead += points;
      points = 0;
    }
    counted.set(entry.player, { tunnel, points, notes });
  }
  if (kidnapped && winner !== null) {
    const own = counted.get(winner);
    own.notes.push({
      id: "kidnapped %(points)s from unseen players",
      params: { points: kidnapped },
    });
    own.points += kidnapped;
  }
  if (dead && winner !== null) {
    const own = counted.get(winner);
    own.notes.push({ id: "%(points)s from dead hands", params: { points: dead } });
    own.points += dead;
  }
  return counted;
}

// The game payment w_i of one loser (section 2, with dublee_players_pay_seen,
// and section 3a: a dead hand pays none, dublee_player_bonus comes off).
function gamePayment(entry, round, rules) {
  let w;
  if (playsDeadHand(entry, round, rules)) {
    w = 0;
  } else if (entry.status === "seen") {
    w = entry.dublees && !rules.dublee_players_pay_seen ? 0 : rules.seen_payment;
    if (entry.dublees) w -= rules.dublee_player_bonus;
  } else {
    w = rules.unseen_payment;
  }
  if (round.win_type === "dublee") w += rules.dublee_bonus;
  return w;
}

// What one dhoos costs in this round (dhoos_amount).
function dhoosAmount(round, rules, total) {
  if (rules.dhoos_amount !== "round_total") return rules.dhoos_penalty;
  if (round.winner !== null && round.winner !== undefined) return total;
  return round.entries.reduce((sum, entry) => sum + entry.maal + entry.tunnel, 0);
}

// Every player's net for one round, with the figures behind it. `booked` is
// the next-winner dhoos pending before this round ([{player, amount, from}]):
// each is paid to this round's winner, lapses if its player won, and waits
// (no note) in a round with no winner or, under next_winner, without its
// player; under next_round_winner a player who sits the round out pays all
// the same (result.outside: [{player, amount, from}], in result.nets).
export function settleRound(round, options, booked = []) {
  const rules = resolveRules(options);
  validateRound(round, rules);
  const counted = countedPoints(round, rules);
  const n = round.entries.length;
  const winner = round.winner ?? null;
  let total = 0;
  for (const { points } of counted.values()) total += points;
  const multiplier = round.better ? rules.better_multiplier : 1;

  const seen = round.entries
    .filter((entry) => entry.status === "seen")
    .map((entry) => entry.player);
  let totalSeen = 0;
  for (const player of seen) totalSeen += counted.get(player).points;
  const seenOnly = new Set(
    round.entries
      .filter(
        (entry) => rules.unseen_pairs === "skip" && entry.status === "unseen" && winner !== null,
      )
      .map((entry) => entry.player),
  );
  const pays = new Map(); // player -> {w, n_s, pay}
  if (winner !== null) {
    for (const entry of round.entries) {
      if (entry.player === winner) continue;
      const w = gamePayment(entry, round, rules);
      // unseen_pairs = skip: an unseen loser settles with the seen players only.
      const only = seenOnly.has(entry.player);
      const n_s = (only ? seen.length : n) * counted.get(entry.player).points;
      pays.set(entry.player, { w, n_s, pay: ((only ? totalSeen : total) + w - n_s) * multiplier });
    }
  }
  let winnerTake = 0;
  for (const { pay } of pays.values()) winnerTake += pay;

  // Dhoos is never multiplied by better (RULES.md Decision).
  const amount = dhoosAmount(round, rules, total);
  const dhoosNet = new Map(round.entries.map((entry) => [entry.player, 0]));
  const dhoosNotes = new Map(round.entries.map((entry) => [entry.player, []]));
  const pending = [];
  for (const entry of round.entries) {
    if (!entry.dhoos) continue;
    let payee = rules.dhoos_payee;
    if (payee === "winner" && (winner === null || winner === entry.player)) payee = "all";
    if (payee === "next_winner" || payee === "next_round_winner") {
      pending.push({ player: entry.player, amount });
      dhoosNotes
        .get(entry.player)
        .push({ id: "dhoos: owes %(amount)s to the next winner", params: { amount } });
    } else if (payee === "winner") {
      dhoosNet.set(entry.player, dhoosNet.get(entry.player) - amount);
      dhoosNet.set(winner, dhoosNet.get(winner) + amount);
      dhoosNotes.get(entry.player).push({
        id: "dhoos: pays %(amount)s to %(name)s, the winner",
        params: { amount, name: winner },
      });
    } else {
      for (const other of round.entries) {
        if (other.player === entry.player) continue;
        dhoosNet.set(other.player, dhoosNet.get(other.player) + amount);
      }
      dhoosNet.set(entry.player, dhoosNet.get(entry.player) - amount * (n - 1));
      dhoosNotes.get(entry.player).push({
        id: "dhoos: pays %(penalty)s to each of %(count)s players",
        params: { penalty: amount, count: n - 1 },
      });
    }
  }
  const anyone = rules.dhoos_payee === "next_round_winner";
  const due = winner === null ? [] : booked.filter((owed) => anyone || dhoosNet.has(owed.player));
  const outside = [];
  for (const owed of due) {
    if (owed.player === winner) continue;
    dhoosNet.set(winner, dhoosNet.get(winner) + owed.amount);
    dhoosNotes.get(winner).push({
      id: "dhoos from round %(round)s: %(amount)s from %(name)s",
      params: { round: owed.from, amount: owed.amount, name: owed.player },
    });
    if (!dhoosNet.has(owed.player)) {
      outside.push(owed); // sits this round out: in the round's nets, not among its players
      continue;
    }
    dhoosNet.set(owed.player, dhoosNet.get(owed.player) - owed.amount);
    dhoosNotes.get(owed.player).push({
      id: "dhoos from round %(round)s: pays %(amount)s to %(name)s",
      params: { round: owed.from, amount: owed.amount, name: winner },
    });
  }
  for (const lapse of due) {
    if (lapse.player !== winner) continue;
    dhoosNotes.get(lapse.player).push({
      id: "dhoos of %(amount)s from round %(round)s lapses: won this round",
      params: { round: lapse.from, amount: lapse.amount },
    });
  }

  const players = round.entries.map((entry) => {
    const { tunnel, points, notes: countedNotes } = counted.get(entry.player);
    const notes = [...countedNotes, ...dhoosNotes.get(entry.player)];
    const isWinner = entry.player === winner;
    const { w, n_s, pay } = pays.get(entry.player) || { w: 0, n_s: n * points, pay: 0 };
    const gameNet = isWinner ? winnerTake : -pay;
    if (round.better && winner !== null && multiplier !== 1) {
      notes.push({ id: "better: game payments × %(times)s", params: { times: multiplier } });
    }
    if (round.win_type === "dublee" && !isWinner && rules.dublee_bonus) {
      notes.push({ id: "dublee win: +%(bonus)s to w", params: { bonus: rules.dublee_bonus } });
    }
    if (
      entry.dublees &&
      !isWinner &&
      winner !== null &&
      entry.status === "seen" &&
      !rules.dublee_players_pay_seen
    ) {
      notes.push({ id: "saw by dublees: no seen payment", params: {} });
    }
    const deadHand = !isWinner && playsDeadHand(entry, round, rules);
    if (deadHand) {
      notes.push({ id: "dead hand: no game payment", params: {} });
    } else if (
      entry.dublees &&
      !isWinner &&
      winner !== null &&
      entry.status === "seen" &&
      rules.dublee_player_bonus
    ) {
      notes.push({
        id: "saw by dublees: %(bonus)s off w",
        params: { bonus: rules.dublee_player_bonus },
      });
    }
    if (seenOnly.has(entry.player)) {
      notes.push({
        id: "unseen: settles with the %(count)s seen players only",
        params: { count: seen.length },
      });
    }
    return {
      player: entry.player,
      status: entry.status,
      dublees: Boolean(entry.dublees),
      maal: entry.maal,
      tunnel: entry.tunnel,
      counted_tunnel: tunnel,
      points,
      is_winner: isWinner,
      w,
      n_s,
      pay,
      dhoos: entry.dhoos,
      dhoos_net: dhoosNet.get(entry.player),
      net: gameNet + dhoosNet.get(entry.player),
      notes,
      seen_only: seenOnly.has(entry.player),
      dead_hand: deadHand,
    };
  });
  const nets = Object.fromEntries(players.map((p) => [p.player, p.net]));
  for (const owed of outside) nets[owed.player] = (nets[owed.player] || 0) - owed.amount;
  return {
    players,
    n,
    total,
    multiplier,
    winner,
    win_type: round.win_type,
    better: round.better,
    pending_dhoos: pending,
    // Of each loser's w: the winner ended with eight dublees.
    dublee_bonus: round.win_type === "dublee" && pays.size ? rules.dublee_bonus : 0,
    // Section 3a: T_seen and k for the unseen losers under unseen_pairs = skip,
    // the bonus off the w of a seen loser who saw by dublees, and the dhoos
    // booked here from players who sit the round out.
    total_seen: totalSeen,
    seen_count: seen.length,
    dublee_player_bonus: rules.dublee_player_bonus,
    outside,
    nets,
  };
}

// Rounds kept on the phone and not sent yet, settled in order after the last
// round the server has, as scoring/engine/settlement.py's settle_session will
// settle them once they arrive: the dhoos pending to the next winner carried
// from round to round (booked by the next winner who played, lapsed if the
// player won), each round's number, and each round's better default (a full
// rotation of the deal, a dublee win before it). The round form after them
// says the next number and dealer, and its preview books what they leave
// pending (static/js/offline-preview.js), and the session's page says it too;
// both settle the saved rounds again first when edits of them wait on the
// phone (static/js/next-round.js). tests/offline/test_chain_parity.py
// holds it to the engine on generated sessions.
//
// Plain ES module with no imports (static() names files, hashed in
// production): the engine's copy (settlement.js) is passed in.
//
// A state is the round about to be settled, as the server's round form gives
// it (reports.NextRound, scoring/templatetags/offline.py offline_chain):
//   {number, pending: [{player, amount, from}], counter, players, since, dublee}
// counter: rounds since the last round due by rotation (or the start);
// players: how many played the round before (0: none before); since: the
// number of the last due round (null: the start); dublee: the round before
// was won by eight dublees.

// Whether the round `state` describes starts better, and why (the engine's
// better_defaults for that round).
export function betterDefault(engine, state, options) {
  const rules = engine.resolveRules(options);
  const due = state.players > 0 && state.counter >= state.players;
  const rotation = due && Boolean(rules.better_after_rotation);
  const dublee = Boolean(rules.dublee_triggers_better) && Boolean(state.dublee);
  return {
    better: rotation || dublee,
    rotation,
    dublee,
    rounds: state.counter,
    players: state.players,
    since: state.since ?? null,
  };
}

// One round settled in its place: {result (null if the engine refuses it),
// error, default (its better default), state (the round after it)}. A round
// whose `better` is null or undefined takes its default.
export function step(engine, state, round, options) {
  const rules = engine.resolveRules(options);
  const fallback = betterDefault(engine, state, options);
  const played =
    round.better === null || round.better === undefined
      ? { ...round, better: fallback.better }
      : round;
  let result = null;
  let error = null;
  try {
    result = engine.settleRound(played, options, state.pending);
  } catch (problem) {
    if (!(problem instanceof engine.RoundError)) throw problem;
    error = problem;
  }
  const winner = round.winner ?? null;
  const players = new Set(round.entries.map((entry) => entry.player));
  // Booked (or lapsed) by a round with a winner that the fouler plays; under
  // RULES.md v3's `next_round_winner` by any round with a winner. A refused
  // round books nothing: what was pending stays (the server keeps the rounds
  // after it waiting until it is fixed or discarded).
  const anyRound = rules.dhoos_payee === "next_round_winner";
  const still = result
    ? state.pending.filter((owed) => winner === null || (!anyRound && !players.has(owed.player)))
    : state.pending;
  const deferred = result
    ? (result.pending_dhoos || []).map((owed) => ({
        player: owed.player,
        amount: owed.amount,
        from: state.number,
      }))
    : [];
  const due = state.players > 0 && state.counter >= state.players;
  return {
    result,
    error,
    default: fallback,
    state: {
      number: state.number + 1,
      pending: [...still, ...deferred],
      counter: due ? 0 : state.counter + 1,
      since: due ? state.number : (state.since ?? null),
      players: round.entries.length,
      dublee:
        winner !== null && round.win_type === "dublee" && Boolean(rules.dublee_triggers_better),
    },
  };
}

// Every round in order from `start`: {results: [step answers], state (the round after the last)}.
export function settleWaiting(engine, start, rounds, options) {
  let state = start;
  const results = [];
  for (const round of rounds) {
    const answer = step(engine, state, round, options);
    results.push(answer);
    state = answer.state;
  }
  return { results, state };
}

// Round `number`'s dealer: the deal moves one seat per round, in seat order
// (reports.dealer_of).
export function dealerOf(seats, number) {
  return seats.length ? seats[(number - 1) % seats.length] : null;
}

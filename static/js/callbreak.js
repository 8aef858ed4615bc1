// Call Break's deal scoring on the phone (CALLBREAK.md §5, §6.1, §6.2): the
// same figures as the engine (callbreak/engine/game.py), in whole tenths,
// so a deal's scores and the running table show at once, network or not.
// tests/callbreak/test_js_parity.py holds the two together on random deals
// under random options (tests/js/callbreak_runner.mjs).

export const TRICKS = 13;

export const DEFAULTS = Object.freeze({
  min_bid: 1,
  max_bid: 13,
  overtrick_tenths: 1,
  overtrick_cap: null,
  excess_fails: "never",
  fail_penalty: "bid",
  bonus_bid_threshold: null,
  bonus_bid_score: "thirteen",
  thirteen_wins_game: false,
  deals_per_game: 5,
  target_score_tenths: null,
  bids_total_min: null,
  bids_total_max: null,
  settlement: "by_rank",
});

// A game's rules object (the options that differ from their defaults) with
// every option filled in.
export function resolveRules(options) {
  return { ...DEFAULTS, ...(options || {}) };
}

// One player's score in one deal, in tenths: the first rule that matches of
// failed, bonus call made, too many hands, made.
export function dealScore(bid, tricks, rules) {
  if (tricks < bid) return rules.fail_penalty === "bid" ? -10 * bid : -10 * (bid - tricks);
  const threshold = rules.bonus_bid_threshold;
  if (threshold !== null && bid >= threshold) {
    return rules.bonus_bid_score === "thirteen" ? 130 : 20 * bid;
  }
  if (
    (tricks > bid && rules.excess_fails === "any") ||
    (rules.excess_fails === "at_double" && tricks >= 2 * bid)
  ) {
    return -10 * bid;
  }
  let counted = tricks - bid;
  if (rules.overtrick_cap !== null) counted = Math.min(counted, rules.overtrick_cap);
  return 10 * bid + rules.overtrick_tenths * counted;
}

export function dealScores(bids, tricks, rules) {
  return bids.map((bid, seat) => dealScore(bid, tricks[seat], rules));
}

// Where the game ends: {played, thirteenWinner (a seat or null)}, or null
// while it goes on. deals: [{bids, tricks}] in playing order.
export function gameEnd(deals, rules) {
  if (!deals.length) return null;
  let totals = deals[0].bids.map(() => 0);
  for (let index = 0; index < deals.length; index += 1) {
    const deal = deals[index];
    const scores = dealScores(deal.bids, deal.tricks, rules);
    totals = totals.map((total, seat) => total + scores[seat]);
    const number = index + 1;
    if (rules.thirteen_wins_game) {
      const seat = deal.bids.findIndex((bid, at) => bid === TRICKS && deal.tricks[at] === TRICKS);
      if (seat >= 0) return { played: number, thirteenWinner: seat };
    }
    if (rules.target_score_tenths !== null && Math.max(...totals) >= rules.target_score_tenths) {
      return { played: number, thirteenWinner: null };
    }
    if (rules.deals_per_game !== null && number === rules.deals_per_game) {
      return { played: number, thirteenWinner: null };
    }
  }
  return null;
}

export function totalsOf(deals, rules, players) {
  let totals = new Array(players).fill(0);
  deals.forEach((deal) => {
    const scores = dealScores(deal.bids, deal.tricks, rules);
    totals = totals.map((total, seat) => total + scores[seat]);
  });
  return totals;
}

// Competition ranks: 1 + how many have a higher total; a thirteen winner is
// 1st alone and the others rank from 2 among themselves.
export function ranksOf(scores, thirteenWinner = null) {
  if (thirteenWinner === null) {
    return scores.map((score) => 1 + scores.filter((other) => other > score).length);
  }
  return scores.map((score, seat) => {
    if (seat === thirteenWinner) return 1;
    return (
      2 + scores.filter((other, at) => at !== seat && at !== thirteenWinner && other > score).length
    );
  });
}

// What is wrong with a deal as typed so far: [{code, seat, ...}], as the
// engine's checks of a deal (callbreak/engine/gamefile.py): each value in its
// range; once all four hands are there and valid, their total is 13 (a total
// over 13 before the last is typed is said at once); once all four calls are valid, their total
// within the house's limits. Values are numbers, or null (not typed yet).
export function dealProblems(bids, tricks, rules) {
  const found = [];
  const bidOk = (bid) => bid !== null && bid >= rules.min_bid && bid <= rules.max_bid;
  const tricksOk = (value) => value !== null && value >= 0 && value <= TRICKS;
  bids.forEach((bid, seat) => {
    if (bid !== null && !bidOk(bid)) {
      found.push({ code: "bid", seat, low: rules.min_bid, high: rules.max_bid, value: bid });
    }
  });
  tricks.forEach((value, seat) => {
    if (value !== null && !tricksOk(value)) {
      found.push({ code: "tricks", seat, low: 0, high: TRICKS, value });
    }
  });
  const given = tricks.filter(tricksOk);
  const sum = given.reduce((a, b) => a + b, 0);
  if (tricks.every(tricksOk) && sum !== TRICKS) {
    found.push({ code: sum < TRICKS ? "tricks_short" : "tricks_over", total: sum });
  } else if (sum > TRICKS && tricks.some((value) => value === null)) {
    found.push({ code: "tricks_over", total: sum });
  }
  if (bids.every(bidOk)) {
    const total = bids.reduce((a, b) => a + b, 0);
    if (rules.bids_total_min !== null && total < rules.bids_total_min) {
      found.push({ code: "bids_low", total, limit: rules.bids_total_min });
    }
    if (rules.bids_total_max !== null && total > rules.bids_total_max) {
      found.push({ code: "bids_high", total, limit: rules.bids_total_max });
    }
  }
  return found;
}

// The hands' total as it is typed: which words say it (the page's strings
// sumLeft, sumShort, sumOver, sumOk), their figures, and whether it is wrong.
export function handsTotal(tricks) {
  const given = tricks.filter((value) => value !== null);
  const total = given.reduce((a, b) => a + b, 0);
  const all = given.length === tricks.length;
  if (total > TRICKS) return { key: "sumOver", total, over: total - TRICKS, bad: true };
  if (all && total !== TRICKS) return { key: "sumShort", total, left: TRICKS - total, bad: true };
  if (all) return { key: "sumOk", total, bad: false };
  return { key: "sumLeft", total, left: TRICKS - total, bad: false };
}

// Tenths as the page writes them: 31 → "3.1", -20 → "-2.0".
export function tenthsText(value) {
  const sign = value < 0 ? "-" : "";
  const whole = Math.floor(Math.abs(value) / 10);
  return sign + whole + "." + (Math.abs(value) % 10);
}

// The standings after a round, on the phone: each player's points ranked as
// the server ranks them (scoring/selectors/reports.py build_ledger: best
// first, equal points share a rank, seat order among them) and their money
// written as the server writes it (localise's `money` filter), so that Save
// can show them at once (round-save.js) before the server confirms them.
// tests/offline/test_standings_parity.py holds both to the server's.
//
// Plain ES module with no imports: the grouping of numbers comes in `format`
// ({sep, sizes, decimal}, scoring/templatetags/offline.py offline_number_format).

// The standings: [{name, points, rank}] best first, from `points` {name: n}
// and the players' names in seat order. With `cents` {name: BigInt} (each
// player's money in hundredths, once the stake changed mid-evening), best
// first by money, then points, as the ledger ranks them.
export function ranked(seats, points, cents) {
  const rows = seats.map((name, seat) => ({
    name,
    seat,
    points: points[name] || 0,
    cents: cents ? cents[name] || 0n : 0n,
  }));
  const ahead = (a, b) => a.cents > b.cents || (a.cents === b.cents && a.points > b.points);
  rows.sort((a, b) => (ahead(a, b) ? -1 : ahead(b, a) ? 1 : a.seat - b.seat));
  return rows.map((row) => ({
    name: row.name,
    points: row.points,
    rank: 1 + rows.filter((other) => ahead(other, row)).length,
  }));
}

// A whole number's digits grouped the page's way ("1,00,000" in Nepali).
function grouped(digits, format) {
  const sizes = format.sizes && format.sizes.length ? format.sizes : [0];
  if (sizes[0] === 0 || digits.length <= sizes[0]) return digits;
  const parts = [];
  let end = digits.length;
  for (let index = 0; index < digits.length; index++) {
    const size = sizes[Math.min(index, sizes.length - 1)];
    if (end <= size) break;
    parts.push(digits.slice(end - size, end));
    end -= size;
  }
  parts.push(digits.slice(0, end));
  return parts.reverse().join(format.sep);
}

// A stake ("0.50", "10", "0.125") as a whole number of its smallest unit and
// the places of that unit: exact, with no floating point.
function decimal(text) {
  const [whole, fraction = ""] = String(text).trim().split(".");
  const negative = whole.startsWith("-");
  const digits = (whole.replace("-", "") || "0") + fraction;
  const units = BigInt(digits) * (negative ? -1n : 1n);
  return { units, places: fraction.length };
}

// `points` × `stake` as the server's money filter writes it: two places, or
// more when the amount has them (a stake of 0.125 a point), grouped the
// page's way.
export function money(points, stake, format) {
  const { units, places } = decimal(stake);
  let amount = BigInt(points) * units;
  let scale = places;
  // Normalised, as Decimal.normalize(): no trailing zeros after the point.
  while (scale > 0 && amount % 10n === 0n) {
    amount /= 10n;
    scale -= 1;
  }
  const shown = Math.max(2, scale);
  const negative = amount < 0n;
  const digits = (negative ? -amount : amount).toString().padStart(scale + 1, "0");
  const whole = digits.slice(0, digits.length - scale);
  const fraction = digits.slice(digits.length - scale).padEnd(shown, "0");
  const text = grouped(whole, format) + (format.decimal || ".") + fraction;
  return (negative ? "-" : "") + text;
}

// Money ("12.50", "-0.5", "3") as a whole number of hundredths (paisa).
export function cents(text) {
  const { units, places } = decimal(text);
  return places <= 2 ? units * 10n ** BigInt(2 - places) : units / 10n ** BigInt(places - 2);
}

// Hundredths back as the server writes an amount in its data: "-12.50".
function centsText(value) {
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(3, "0");
  return (negative ? "-" : "") + digits.slice(0, -2) + "." + digits.slice(-2);
}

// A stake as typed on the round form ("from this round on"): two places at
// most, more than 0, as the server reads it; else null (the server refuses
// it, and the round keeps the stake in force meanwhile).
export function typedStake(text) {
  const typed = String(text || "").trim();
  if (!/^[0-9]{1,10}(\.[0-9]{0,2})?$|^\.[0-9]{1,2}$/.test(typed)) return null;
  return cents(typed) > 0n ? typed : null;
}

// Each player's money after more rounds: `before` {name: "12.50"} (the
// server's), plus each round's nets at the stake in force for it (`rounds`
// [{nets, stake}]), exact in hundredths, as the server's money_by_round.
export function moneyAfter(before, rounds) {
  const total = {};
  Object.keys(before || {}).forEach((name) => {
    total[name] = cents(before[name]);
  });
  rounds.forEach(({ nets, stake }) => {
    const { units, places } = decimal(stake);
    Object.keys(nets).forEach((name) => {
      const amount = BigInt(nets[name]) * units * 10n ** BigInt(2 - places);
      total[name] = (total[name] || 0n) + amount;
    });
  });
  const out = {};
  Object.keys(total).forEach((name) => {
    out[name] = centsText(total[name]);
  });
  return out;
}

function signClass(value) {
  return value > 0 ? "pos" : value < 0 ? "neg" : "";
}

// What templates/scoring/_saved_standings.html's skeleton needs: the
// standings after a round, its number and each player's net in it (`nets`
// {name: net}; a player without one sat it out), `num` grouping a number.
// `money` {name: "12.50"}: each player's money (moneyAfter), once the stake
// changed mid-evening; without it, points × `stake`.
export function savedData({
  seats,
  points,
  nets,
  stake,
  money: cash,
  format,
  num,
  roundWords,
  roundUrl,
}) {
  const signed = (value) => (value > 0 ? "+" : "") + num(value);
  const { units } = decimal(stake);
  const stakeSign = units > 0n ? 1 : units < 0n ? -1 : 0;
  const paisa = cash
    ? Object.fromEntries(seats.map((name) => [name, cents(cash[name] || "0")]))
    : null;
  const moneyOf = (row) =>
    paisa
      ? { text: money(paisa[row.name], "0.01", format), sign: signClass(paisa[row.name]) }
      : { text: money(row.points, stake, format), sign: signClass(row.points * stakeSign) };
  return {
    round_words: roundWords,
    linked: Boolean(roundUrl),
    round_url: roundUrl || "",
    rows: ranked(seats, points, paisa).map((row) => {
      const change = nets[row.name];
      const sat = change === undefined || change === null;
      return {
        name: row.name,
        rank: String(row.rank),
        leader: row.rank === 1 && row.points > 0 ? "leader" : "",
        points: signed(row.points),
        points_sign: signClass(row.points),
        sat_out: sat,
        change: sat ? "" : signed(change),
        change_sign: sat ? "" : signClass(change),
        money: moneyOf(row).text,
        money_sign: moneyOf(row).sign,
      };
    }),
  };
}

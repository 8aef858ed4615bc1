// The money of pot hands (CALLBREAK.md §9), as the engine works it out
// (pots/engine/hands.py): whole paisa throughout, never a float. A hand is
// { put_in: [paisa per seat], winners: [seat], took: [paisa per seat] | null,
// carry_out: paisa }; each carries in what the hand before carried out.
// Tested against the engine by tests/pots/test_js_parity.py.

// `amount` shared equally by the `winners` (seats), the odd paisa one each
// to the earlier seats among them.
export function split(amount, winners, seats) {
  const order = [...winners].sort((a, b) => a - b);
  const share = Math.floor(amount / order.length);
  const odd = amount - share * order.length;
  const extra = new Set(order.slice(0, odd));
  return Array.from({ length: seats }, (_, seat) =>
    order.includes(seat) ? share + (extra.has(seat) ? 1 : 0) : 0,
  );
}

function padded(values, seats) {
  return Array.from({ length: seats }, (_, seat) => (values && values[seat]) || 0);
}

// What each seat took out of a hand, and its money per seat (took − put in).
export function handMoney(hand, carryIn, seats) {
  const putIn = padded(hand.put_in, seats);
  const pot = putIn.reduce((a, b) => a + b, 0) + carryIn;
  const taken =
    hand.took != null
      ? padded(hand.took, seats)
      : split(pot - (hand.carry_out || 0), hand.winners || [], seats);
  return { pot, taken, money: taken.map((t, seat) => t - putIn[seat]) };
}

// Every hand's money, the running totals after each, and the pot carried on
// past the last hand (no one's money yet).
export function running(hands, seats) {
  let carry = 0;
  let totals = new Array(seats).fill(0);
  const perHand = [];
  const after = [];
  for (const hand of hands) {
    const { money } = handMoney(hand, carry, seats);
    perHand.push(money);
    totals = totals.map((t, seat) => t + money[seat]);
    after.push(totals);
    carry = hand.carry_out || 0;
  }
  return { perHand, after, totals, openPot: carry };
}

// Paisa as the pages write a net: "+12.50", "-0.05", "0.00".
export function paisaText(amount, signed = true) {
  const sign = amount < 0 ? "-" : signed && amount > 0 ? "+" : "";
  const whole = Math.floor(Math.abs(amount) / 100);
  const part = String(Math.abs(amount) % 100).padStart(2, "0");
  return sign + whole.toLocaleString("en-US") + "." + part;
}

// A money string typed on the form ("10", "2.5", "0.25") as paisa; null when
// it is not one (the server says why).
export function parsePaisa(text) {
  const value = String(text).trim();
  if (value === "") return 0;
  const match = /^(\d{1,8})(?:\.(\d{1,2}))?$/.exec(value);
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] || "").padEnd(2, "0"));
}

// Works out pot sessions' money with static/js/pot-money.js, for
// tests/pots/test_js_parity.py.
// stdin: JSON [{seats, hands}, ...]; stdout: JSON [{perHand, totals, openPot}, ...].
// Usage: node tests/js/pot_runner.mjs < cases.json
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

async function load(path) {
  const source = readFileSync(fileURLToPath(new URL(path, import.meta.url)), "utf8");
  return import("data:text/javascript;base64," + Buffer.from(source).toString("base64"));
}
const pots = await load("../../static/js/pot-money.js");

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const cases = JSON.parse(Buffer.concat(chunks).toString("utf8"));

const out = cases.map(({ seats, hands }) => {
  const { perHand, totals, openPot } = pots.running(hands, seats);
  return { perHand, totals, openPot, texts: totals.map((t) => pots.paisaText(t)) };
});
process.stdout.write(JSON.stringify(out));

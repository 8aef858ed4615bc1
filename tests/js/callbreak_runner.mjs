// Call Break's deal scores, end of game and ranks as the phone works them out
// (static/js/callbreak.js), for tests/callbreak/test_js_parity.py.
// stdin: JSON [{rules, deals: [{bids, tricks}]}, ...];
// stdout: JSON [{deal_scores, end: {played, thirteen_winner} | null, ranks,
// problems: [[code, ...] per deal]}, ...] (a case with "check": true is only checked).
// Usage: node tests/js/callbreak_runner.mjs < cases.json
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

async function load(path) {
  const source = readFileSync(fileURLToPath(new URL(path, import.meta.url)), "utf8");
  return import("data:text/javascript;base64," + Buffer.from(source).toString("base64"));
}
const cb = await load("../../static/js/callbreak.js");

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const cases = JSON.parse(Buffer.concat(chunks).toString("utf8"));

const out = cases.map(({ rules, deals, check }) => {
  const resolved = cb.resolveRules(rules);
  if (check) {
    return {
      problems: deals.map((deal) =>
        cb.dealProblems(deal.bids, deal.tricks, resolved).map((problem) => problem.code),
      ),
    };
  }
  const end = cb.gameEnd(deals, resolved);
  const played = end ? deals.slice(0, end.played) : deals;
  const totals = cb.totalsOf(played, resolved, 4);
  return {
    deal_scores: deals.map((deal) => cb.dealScores(deal.bids, deal.tricks, resolved)),
    end: end ? { played: end.played, thirteen_winner: end.thirteenWinner } : null,
    ranks: cb.ranksOf(totals, end ? end.thirteenWinner : null),
  };
});
process.stdout.write(JSON.stringify(out));

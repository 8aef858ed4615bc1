// The standings after a round as the phone shows them at once on Save
// (static/js/standings.js), for tests/offline/test_standings_parity.py.
// stdin: JSON [{seats, points, stake, format, money?, rounds?}, ...]: with
// `rounds` ([{nets, stake}], the rounds waiting on the phone) each player's
// money is `money` (the server's, before them) plus those rounds at their
// stakes (moneyAfter), and the standings rank by it (savedData).
// stdout: JSON [[{name, rank, points, money}], ...] best first.
// Usage: node tests/js/standings_runner.mjs < cases.json
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

async function load(path) {
  const source = readFileSync(fileURLToPath(new URL(path, import.meta.url)), "utf8");
  return import("data:text/javascript;base64," + Buffer.from(source).toString("base64"));
}
const standings = await load("../../static/js/standings.js");

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const cases = JSON.parse(Buffer.concat(chunks).toString("utf8"));

const out = cases.map(({ seats, points, stake, format, money, rounds }) => {
  if (rounds) {
    const cash = standings.moneyAfter(money || {}, rounds);
    const data = standings.savedData({
      seats,
      points,
      nets: {},
      stake,
      money: cash,
      format,
      num: String,
      roundWords: "",
    });
    return data.rows.map((row) => ({
      name: row.name,
      rank: Number(row.rank),
      points: points[row.name] || 0,
      money: row.money,
    }));
  }
  return standings.ranked(seats, points).map((row) => ({
    ...row,
    money: standings.money(row.points, stake, format),
  }));
});
process.stdout.write(JSON.stringify(out));

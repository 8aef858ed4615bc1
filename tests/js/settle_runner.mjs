// Settles a batch of rounds with static/js/settlement.js for the parity test.
// stdin: JSON [{rules, round, booked?}, ...];
// stdout: JSON [{result} | {error: {field, player, message, id, params}}, ...],
// each with `problems`: every problem with the round ([{field, player, id, params}]).
// Usage: node tests/js/settle_runner.mjs < batch.json
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const moduleUrl = new URL("../../static/js/settlement.js", import.meta.url);
// The module is a plain .js file written for the browser; importing its source
// as a data: URL makes Node read it as an ES module without a package.json.
const source = readFileSync(fileURLToPath(moduleUrl), "utf8");
const { roundProblems, settleRound, RoundError } = await import(
  "data:text/javascript;base64," + Buffer.from(source).toString("base64")
);

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const batch = JSON.parse(Buffer.concat(chunks).toString("utf8"));
const out = batch.map(({ rules, round, booked }) => {
  const problems = roundProblems(round, rules).map(({ field, player, id, params }) => ({ field, player, id, params }));
  try {
    return { result: settleRound(round, rules, booked || []), problems };
  } catch (error) {
    if (!(error instanceof RoundError)) throw error;
    const { field, player, message, id, params } = error;
    return { error: { field, player, message, id, params }, problems };
  }
});
process.stdout.write(JSON.stringify(out));

// Settles rounds kept on a phone after a server's last round with
// static/js/session-chain.js (and settlement.js), for
// tests/offline/test_chain_parity.py.
// stdin: JSON [{rules, start, rounds}, ...] (start: the state the round form gives);
// stdout: JSON [{nets: [{player: net} | null], defaults: [better default], state}, ...].
// Usage: node tests/js/chain_runner.mjs < cases.json
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

async function load(path) {
  const source = readFileSync(fileURLToPath(new URL(path, import.meta.url)), "utf8");
  return import("data:text/javascript;base64," + Buffer.from(source).toString("base64"));
}
const engine = await load("../../static/js/settlement.js");
const chain = await load("../../static/js/session-chain.js");

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const cases = JSON.parse(Buffer.concat(chunks).toString("utf8"));

const out = cases.map(({ rules, start, rounds }) => {
  const { results, state } = chain.settleWaiting(engine, start, rounds, rules);
  return {
    // Every net of the round: its players', and under next_round_winner a
    // fouler's who sat it out (result.nets, where the engine's copy has them).
    nets: results.map(({ result }) =>
      result
        ? result.nets || Object.fromEntries(result.players.map((p) => [p.player, p.net]))
        : null,
    ),
    defaults: results.map((answer) => answer.default),
    state,
    next: chain.betterDefault(engine, state, rules),
  };
});
process.stdout.write(JSON.stringify(out));

// Follows rounds and edits kept on a phone with static/js/next-round.js's
// follower (session-chain.js and settlement.js under it), for
// tests/offline/test_chain_parity.py.
// stdin: JSON [{rules, data (offline_chain's), records [{key, url, fields}]}, ...];
// stdout: JSON [{state, default, followed, edits}, ...].
// Usage: node tests/js/next_round_runner.mjs < cases.json
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

function source(path) {
  return readFileSync(fileURLToPath(new URL(path, import.meta.url)), "utf8");
}
function dataUrl(text) {
  return "data:text/javascript;base64," + Buffer.from(text).toString("base64");
}
// next-round.js imports by relative names, which a data: URL cannot resolve:
// each named here as its own data: URL (the queue's module, which needs
// IndexedDB, as a stub: the records are given).
const modules = {
  "./settlement.js": dataUrl(source("../../static/js/settlement.js")),
  "./session-chain.js": dataUrl(source("../../static/js/session-chain.js")),
  "./slots.js": dataUrl(source("../../static/js/slots.js")),
  "./known.js": dataUrl(source("../../static/js/known.js")),
  "./offline-queue.js": dataUrl("export function list() { return Promise.resolve([]); }"),
};
let text = source("../../static/js/next-round.js");
for (const [name, url] of Object.entries(modules)) {
  text = text.replace(`from "${name}"`, `from "${url}"`);
}
const nextRound = await import(dataUrl(text));

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const cases = JSON.parse(Buffer.concat(chunks).toString("utf8"));

const out = cases.map(({ rules, data, records }) => {
  const answer = nextRound.follower(data, rules).settle(records);
  return {
    state: answer.state,
    default: answer.default,
    followed: answer.followed,
    edits: answer.edits,
  };
});
process.stdout.write(JSON.stringify(out));

// Settles a batch of rounds with static/js/settlement.js for the parity test,
// and with {batch, words} says each player's part in words in each language
// (static/js/breakdown-words.js; words: {language: {catalogue, format}}).
// stdin: JSON [{rules, round, booked?}, ...] or {batch, words};
// stdout: JSON [{result} | {error: {field, player, message, id, params}}, ...],
// each with `problems`: every problem with the round ([{field, player, id, params}]),
// and with words, each result's `sentences`: {language: {player: sentence}}.
// Usage: node tests/js/settle_runner.mjs < batch.json
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

// The modules are plain .js files written for the browser; importing their
// source as a data: URL makes Node read them as ES modules without a package.json.
async function load(path) {
  const source = readFileSync(fileURLToPath(new URL(path, import.meta.url)), "utf8");
  return import("data:text/javascript;base64," + Buffer.from(source).toString("base64"));
}
const { roundProblems, settleRound, RoundError } = await load("../../static/js/settlement.js");
const { grouper, outsideSentence, playerSentence } = await load(
  "../../static/js/breakdown-words.js",
);

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const input = JSON.parse(Buffer.concat(chunks).toString("utf8"));
const batch = Array.isArray(input) ? input : input.batch;
const words = Array.isArray(input) ? {} : input.words;

function sentences(result) {
  const said = {};
  for (const [language, { catalogue, format }] of Object.entries(words)) {
    const translate = (id) => catalogue[id] || id;
    const num = grouper(format);
    said[language] = Object.fromEntries(
      result.players.map((p) => [p.player, playerSentence(result, p, { translate, num })]),
    );
    // Who sat the round out but pays a dhoos in it (next_round_winner).
    const outside = result.outside.map((owed) => outsideSentence(result, owed, { translate, num }));
    if (outside.length) said[language]["(outside)"] = outside;
  }
  return said;
}

const out = batch.map(({ rules, round, booked }) => {
  const problems = roundProblems(round, rules).map(({ field, player, id, params }) => ({
    field,
    player,
    id,
    params,
  }));
  try {
    const result = settleRound(round, rules, booked || []);
    return { result, problems, sentences: sentences(result) };
  } catch (error) {
    if (!(error instanceof RoundError)) throw error;
    const { field, player, message, id, params } = error;
    return { error: { field, player, message, id, params }, problems };
  }
});
process.stdout.write(JSON.stringify(out));

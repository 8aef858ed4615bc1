// JavaScript that Django renders (templates/scoring/offline/sw.js, the service
// worker), checked as the other scripts are. A template's {{ value }} stands
// where an expression goes; read as the string "{ value }", of the same
// length on the same line, the file is a module eslint and prettier can read.
// eslint.config.mjs lints it through asScript; `make lint` and `make format`
// run this file for prettier:
//   node scripts/template-js.mjs --check|--write FILE...
import { readFileSync, writeFileSync } from "node:fs";
import { argv, exit } from "node:process";
import { fileURLToPath } from "node:url";

const VALUE = /\{\{([^{}"\n]*)\}\}/g;
const STANDIN = /"\{([^{}"\n]*)\}"/g;
const HAS_STANDIN = /"\{[^{}"\n]*\}"/;

// The template as a script: each {{ value }} becomes "{ value }".
export function asScript(text) {
  return text.replace(VALUE, (_, inner) => `"{${inner}}"`);
}

// And back: the script's "{ value }" are the template's {{ value }}.
function asTemplate(text) {
  return text.replace(STANDIN, (_, inner) => `{{${inner}}}`);
}

async function main(mode, files) {
  const prettier = await import("prettier");
  let unformatted = 0;
  for (const file of files) {
    const text = readFileSync(file, "utf8");
    if (HAS_STANDIN.test(text)) {
      console.error(`${file}: a string "{…}" would read as a template value`);
      exit(2);
    }
    const options = { ...(await prettier.resolveConfig(file)), filepath: file };
    const formatted = asTemplate(await prettier.format(asScript(text), options));
    if (formatted === text) continue;
    if (mode === "--write") {
      writeFileSync(file, formatted);
      console.log(file);
    } else {
      console.error(`[warn] ${file}`);
      unformatted += 1;
    }
  }
  if (unformatted) {
    console.error(`${unformatted} template script(s) not formatted: make format`);
    exit(1);
  }
}

if (argv[1] === fileURLToPath(import.meta.url)) {
  const [mode, ...files] = argv.slice(2);
  if (!["--check", "--write"].includes(mode) || !files.length) {
    console.error("usage: node scripts/template-js.mjs --check|--write FILE...");
    exit(2);
  }
  await main(mode, files);
}

// The browser's JavaScript: every file an ES module (static/js, stats/static,
// and the service worker, templates/scoring/offline/sw.js, a module worker
// rendered by Django: read with its {{ values }} as strings, by
// scripts/template-js.mjs), except static/js/theme.js, a classic script on
// purpose: it runs in <head> before the first paint, which a module (always
// deferred) cannot. The test runners and that script are Node modules.
import js from "@eslint/js";
import globals from "globals";
import { asScript } from "./scripts/template-js.mjs";

const CLASSIC = ["static/js/theme.js"];

export default [
  { ignores: ["node_modules/", "staticfiles/", ".venv/"] },
  js.configs.recommended,
  {
    files: ["static/js/**/*.js", "stats/static/**/*.js"],
    ignores: CLASSIC,
    languageOptions: { sourceType: "module", globals: { ...globals.browser, htmx: "readonly" } },
  },
  {
    files: CLASSIC,
    languageOptions: { sourceType: "script", globals: globals.browser },
  },
  {
    files: ["templates/**/*.js"],
    processor: {
      meta: { name: "django-template-js" },
      preprocess: (text) => [asScript(text)],
      postprocess: (messages) => messages.flat(),
    },
    languageOptions: { sourceType: "module", globals: globals.serviceworker },
  },
  {
    files: ["tests/js/**/*.mjs", "scripts/**/*.mjs", "eslint.config.mjs"],
    languageOptions: { sourceType: "module", globals: globals.node },
  },
  {
    rules: {
      "no-unused-vars": ["error", { args: "after-used", caughtErrors: "none" }],
      // One modern style: block-scoped names, const unless reassigned.
      "no-var": "error",
      "prefer-const": "error",
      // Callbacks as arrows (a bare expression where one is all they return),
      // { name } for name: name.
      "prefer-arrow-callback": "error",
      "arrow-body-style": ["error", "as-needed"],
      "object-shorthand": "error",
      // f(...args) and { ...obj }, not f.apply(null, args) and Object.assign({}, obj).
      "prefer-spread": "error",
      "prefer-object-spread": "error",
    },
  },
];

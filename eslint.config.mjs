// The browser's JavaScript: every file an ES module (static/js, stats/static;
// the service worker, templates/scoring/offline/sw.js, is a module worker
// rendered by Django, so not linted here), except static/js/theme.js, a classic
// script on purpose: it runs in <head> before the first paint, which a module
// (always deferred) cannot. The test runners are Node modules.
import js from "@eslint/js";
import globals from "globals";

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
    files: ["tests/js/**/*.mjs"],
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
    },
  },
];

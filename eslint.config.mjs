// The browser's JavaScript: ES modules where a page loads them as modules, classic
// scripts (an IIFE each, "use strict") elsewhere; the test runner is a Node module.
import js from "@eslint/js";
import globals from "globals";

const MODULES = ["static/js/settlement.js", "static/js/breakdown-words.js", "static/js/session-chain.js"];

export default [
  { ignores: ["node_modules/", "staticfiles/", ".venv/"] },
  js.configs.recommended,
  {
    files: ["static/js/**/*.js", "stats/static/**/*.js"],
    ignores: MODULES,
    languageOptions: { sourceType: "script", globals: { ...globals.browser, htmx: "readonly" } },
  },
  {
    files: MODULES,
    languageOptions: { sourceType: "module", globals: globals.browser },
  },
  {
    files: ["tests/js/**/*.mjs"],
    languageOptions: { sourceType: "module", globals: globals.node },
  },
  {
    rules: {
      "no-unused-vars": ["error", { args: "after-used", caughtErrors: "none" }],
    },
  },
];

"""What the record adds to scoring (scoring.plugins): a session's printable
summary and its ledger as CSV, at the end of its owner's menu."""

from __future__ import annotations

from scoring.plugins import Plugin

PLUGIN = Plugin(name="stats", parts={"session_exports": "stats/_session_exports.html"})

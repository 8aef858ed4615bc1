"""A pytest plugin (`-p tests.one_declaration.plugin`) that adds one rule option
to `scoring.engine.rules` as a contributor would: one declaration on `Rules`,
inserted into the module's source as it is imported, before Django starts.
Nothing else is changed, so whatever then works proves that the declaration is
enough (CONTRIBUTING: "A new rule option")."""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import sys
from pathlib import Path

RULES = Path(__file__).resolve().parents[2] / "scoring" / "engine" / "rules.py"
ANCHOR = "    # The maal calculator's point table (RULES.md section 4).\n"
DECLARATION = """    house_tea_break: bool = option(
        False,
        label=gettext_noop("Tea break"),
        help=gettext_noop("A made-up house rule: a tea break after every round."),
    )
"""


class PatchedRules(importlib.machinery.SourceFileLoader):
    def get_data(self, path: str) -> bytes:
        source = Path(path).read_text(encoding="utf-8")
        assert source.count(ANCHOR) == 1, "the anchor moved: update tests/one_declaration"
        return source.replace(ANCHOR, DECLARATION + ANCHOR).encode()

    def path_stats(self, path: str) -> dict[str, float]:
        raise OSError  # never a cached .pyc: always the patched source


class Finder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path, target=None):
        if fullname != "scoring.engine.rules":
            return None
        loader = PatchedRules(fullname, str(RULES))
        return importlib.util.spec_from_file_location(fullname, RULES, loader=loader)


assert "scoring.engine.rules" not in sys.modules, "load this plugin before Django"
sys.meta_path.insert(0, Finder())

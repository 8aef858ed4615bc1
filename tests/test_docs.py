"""The repository's own documents: the README points only inside the repository, and
docs/RULES.md is the spec, kept word for word."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTE = (
    "> The spec the scoring engine (`scoring/engine/`) implements; "
    "the app explains it at `/how-it-works/`.\n\n"
)


@pytest.mark.parametrize("name", ["README.md", "CONTRIBUTING.md"])
def test_the_docs_name_no_path_outside_the_repository(name):
    text = (ROOT / name).read_text(encoding="utf-8")
    assert "../" not in text
    assert "docs/RULES.md" in text and "/how-it-works/" in text


def test_every_relative_link_of_the_readme_exists():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    for target in re.findall(r"\]\(([^)#:]+)\)", text):
        assert (ROOT / target).exists(), target


def test_docs_rules_is_the_spec_with_a_note_on_top():
    text = (ROOT / "docs" / "RULES.md").read_text(encoding="utf-8")
    assert text.startswith(NOTE)
    assert text[len(NOTE) :].startswith("# Marriage scoring rules")
    shared = ROOT.parent / "shared" / "RULES.md"
    if shared.exists():  # the shared copy, where this checkout has one beside it
        assert text[len(NOTE) :] == shared.read_text(encoding="utf-8")

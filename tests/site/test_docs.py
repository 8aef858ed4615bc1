"""The repository's own documents: the README points only inside the repository, and
docs/RULES.md is the spec, kept word for word."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NOTE = (
    "> The spec the scoring engine (`scoring/engine/`) implements; "
    "the app explains it at `/how-it-works/`. The source texts it cites (`seeds/`) "
    "are not part of this repository.\n\n"
)
DOCS = ["README.md", "CONTRIBUTING.md", *(f"docs/{p.name}" for p in (ROOT / "docs").glob("*.md"))]
# A path on the machine the docs were written on: /work/…, /root/…, /tmp/….
MACHINE_PATH = re.compile(r"(?<![\w.-])/(work|root|tmp)(/|\b)")


@pytest.mark.parametrize("name", DOCS)
def test_the_docs_name_no_path_outside_the_repository(name):
    text = (ROOT / name).read_text(encoding="utf-8")
    assert "../" not in text
    assert not MACHINE_PATH.search(text), MACHINE_PATH.search(text)


@pytest.mark.parametrize("name", ["README.md", "CONTRIBUTING.md"])
def test_the_readme_points_to_the_rules_in_the_repository(name):
    text = (ROOT / name).read_text(encoding="utf-8")
    assert "docs/RULES.md" in text and "/how-it-works/" in text


@pytest.mark.parametrize(
    ("text", "caught"),
    [
        ("see /work/shared/RULES.md", True),
        ("written to /tmp/x.json", True),
        ("as (/root)", True),
        ("at `/how-it-works/`", False),
        ("in static/tmp/ or https://example.com/work/", False),
    ],
)
def test_a_machine_path_is_caught(text, caught):
    assert bool(MACHINE_PATH.search(text)) is caught


def test_the_readme_is_a_front_door():
    """What it is, the two commands, a map and links: the rest lives in docs/."""
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 200
    assert "make run" in lines[10] and "make test" in lines[11]
    assert len(list((ROOT / "docs").glob("*.md"))) >= 3


@pytest.mark.parametrize("name", DOCS)
def test_every_relative_link_resolves(name):
    path = ROOT / name
    for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", path.read_text(encoding="utf-8")):
        if "://" in target or target.startswith("mailto:"):
            continue
        assert (path.parent / target).exists(), f"{name}: {target}"


def test_the_readme_names_every_top_level_module():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    for module in sorted((ROOT / "scoring").glob("*.py")):
        if module.name != "__init__.py":
            assert f"scoring/{module.name}" in text, module.name
    for package in sorted(p for p in (ROOT / "scoring").iterdir() if (p / "__init__.py").exists()):
        if package.name != "migrations":
            assert f"scoring/{package.name}/" in text, package.name
    for folder in sorted(p for p in ROOT.iterdir() if (p / "__init__.py").exists()):
        assert f"{folder.name}/" in text, folder.name


def test_every_test_file_the_docs_name_exists():
    """The map of the tests (CONTRIBUTING) and every page that cites a test name a
    file that is there: a test file moved or renamed is followed by its mentions."""
    for name in DOCS:
        text = (ROOT / name).read_text(encoding="utf-8")
        for path in re.findall(r"\btests/[\w/]+\.(?:py|mjs)\b", text):
            assert (ROOT / path).exists(), f"{name}: {path}"

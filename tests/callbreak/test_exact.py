"""The game engines (callbreak/engine/, pots/engine/) are exact and pure, read
from their source: no float (no float literal, no `float`, no `/`, which on
two ints gives one, no `math`, no `round`), and no Django."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENGINES = ("callbreak/engine", "pots/engine")
SOURCES = sorted(path for engine in ENGINES for path in (ROOT / engine).glob("*.py"))


def inexact(source: str) -> list[str]:
    """What in `source` could bring a float in, or reach outside the engine's world."""
    found = []
    for node in ast.walk(ast.parse(source)):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Constant) and isinstance(node.value, (float, complex)):
            found.append(f"{line}: a float literal")
        elif isinstance(node, ast.Name) and node.id in ("float", "round", "complex"):
            found.append(f"{line}: {node.id}")
        elif isinstance(node, (ast.BinOp, ast.AugAssign)) and isinstance(node.op, ast.Div):
            found.append(f"{line}: / (a float from two ints)")
        elif isinstance(node, ast.Import):
            found.extend(f"{line}: import {a.name}" for a in node.names if _outside(a.name))
        elif (
            isinstance(node, ast.ImportFrom)
            and node.module
            and not node.level
            and _outside(node.module)
        ):
            found.append(f"{line}: from {node.module}")
    return sorted(found, key=lambda item: int(item.split(":")[0]))


def _outside(module: str) -> bool:
    top = module.split(".")[0]
    return top in ("django", "math", "statistics", "random", "time") or (
        top == "scoring" and not module.startswith("scoring.engine")
    )


def test_the_check_finds_what_it_looks_for():
    source = (
        "x = 0.5\n"
        "y = float('1')\n"
        "z = a / b\n"
        "w //= 2\n"
        "from django.db import models\n"
        "import math\n"
        "from scoring.engine.messages import message\n"
        "from scoring.models import Round\n"
    )
    assert inexact(source) == [
        "1: a float literal",
        "2: float",
        "3: / (a float from two ints)",
        "5: from django.db",
        "6: import math",
        "8: from scoring.models",
    ]


def test_there_are_engines_to_check():
    assert {path.parent.parent.name for path in SOURCES} == {"callbreak", "pots"}


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_an_engine_module_is_exact_and_pure(path):
    assert inexact(path.read_text(encoding="utf-8")) == []

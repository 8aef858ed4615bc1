"""The layout shows the layers (CONTRIBUTING, "Where things live"): no import
circles among the project's modules, and reads never reach for writes: the
selectors (reads) import no service (writes) and no view; the
services import no view. Imports inside functions count too, so a circle cannot
hide in a function body."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any, cast

import pytest

ROOT = Path(__file__).resolve().parents[2]
APPS = (
    "scoring",
    "groups",
    "table",
    "stats",
    "accounts",
    "localise",
    "callbreak",
    "pots",
    "marriage_site",
)


def _modules() -> dict[str, Path]:
    found = {}
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if "migrations" in parts:
                continue
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found[name] = path
    return found


MODULES = _modules()


def _imports(name: str, path: Path) -> set[str]:
    """The project modules `name` imports: `from .x import y` is module x.y if
    there is one, else x."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                target = ".".join([*base, *([node.module] if node.module else [])])
            else:
                target = node.module or ""
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                found.add(sub if sub in MODULES else target)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {m for m in found if m in MODULES and m != name}


GRAPH = {name: _imports(name, path) for name, path in MODULES.items()}


def _circles() -> list[list[str]]:
    """Tarjan's strongly connected components of more than one module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    circles: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in GRAPH[node]:
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    for node in GRAPH:
        if node not in index:
            visit(node)
    return circles


def test_the_modules_import_each_other_in_no_circle():
    assert _circles() == []


def _layer(name: str) -> str | None:
    parts = name.split(".")
    return next(
        (layer for layer in ("selectors", "services", "views", "web") if layer in parts), None
    )


@pytest.mark.parametrize(
    ("layer", "never"),
    [("selectors", {"services", "views"}), ("services", {"views"})],
)
def test_reads_never_import_writes_and_writes_never_import_views(layer, never):
    crossed = {
        (name, other)
        for name, imported in GRAPH.items()
        if _layer(name) == layer
        for other in imported
        if _layer(other) in never
    }
    assert crossed == set()


def test_the_check_sees_the_layers():
    assert _layer("scoring.selectors.saves") == "selectors"
    assert _layer("groups.selectors") == "selectors"
    assert _layer("groups.services") == "services"
    assert _layer("scoring.views.rounds") == "views"
    assert "scoring.selectors.saves" in GRAPH["scoring.services.rounds"]


# --- money has one home -------------------------------------------------------------------------

# A multiplication with a stake on either side: `x * stake`, `stake_per_point * x`,
# `e.net * r.session.stake`, in code or inside a string (an SQL aggregate).
_TIMES_STAKE = re.compile(
    r"(?<!\*)\*(?!\*)\s*[\w.\[\]()\"']*stake|\bstake\w*[\w.\[\]()]*\s*\*(?!\*)"
)

# Where a stake may be multiplied outside scoring/engine/, and why.
MONEY_TWINS = {
    # Call Break's own engine: settlement by rank (its spec, CALLBREAK.md), not
    # points × stake; a pure engine like scoring's.
    "callbreak/engine/game.py",
    # The browser's copy of the standings Save shows at once, held to the
    # server's figures by tests/offline/test_standings_parity.py.
    "static/js/standings.js",
}


def _money_sources() -> list[Path]:
    found = [
        path
        for path in MODULES.values()
        if not path.relative_to(ROOT).as_posix().startswith("scoring/engine/")
    ]
    found += sorted((ROOT / "static" / "js").glob("*.js"))
    return found


def _multiplies_a_stake(path: Path) -> list[str]:
    return [
        f"{path.relative_to(ROOT).as_posix()}:{number}: {line.strip()}"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if _TIMES_STAKE.search(line) and not line.lstrip().startswith(("#", "//"))
    ]


def test_nothing_outside_the_engine_multiplies_by_a_stake():
    """Points become money in one engine function (ledger.money_by_round,
    through at_stake/money/Transfer.money): a stake per round later changes
    that function, not the pages, files, CSVs and SQL sums that show money."""
    found = [
        line
        for path in _money_sources()
        if path.relative_to(ROOT).as_posix() not in MONEY_TWINS
        for line in _multiplies_a_stake(path)
    ]
    assert found == []


def test_the_money_check_sees_a_multiplication_by_a_stake():
    for line in (
        "money=total[player.id] * stake,",
        "row.money += e.net * r.session.stake",
        "Payment(t.payer, t.payee, t.points, t.points * stake)",
        "key: (name, count, points, points * stake, wins)",
        '"SELECT SUM(e.net) * s.stake_per_point FROM x"',
        "amount = stake_per_point * points",
        "const amount = BigInt(points) * stake;",
    ):
        assert _TIMES_STAKE.search(line), line
    for line in (
        "at_stake(points, stake)",
        "stake ** 2",
        "money: Decimal = stake",
        "# points × stake",
    ):
        assert not _TIMES_STAKE.search(line), line
    # The twins named are real files that do multiply (an exception not needed is stale).
    for twin in MONEY_TWINS:
        assert _multiplies_a_stake(ROOT / twin), twin


# --- apps meet through public names -----------------------------------------------------------


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _package(name: str) -> str:
    return name.split(".")[0]


def _private_imports(name: str, path: Path) -> set[str]:
    """Private names `name` imports from another package: `from scoring.x import
    _y`, a module `_x` on the way (`scoring.management.commands._y`), or
    `module._y` of a module imported from another package."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    modules: set[str] = set()  # local names bound to another package's modules
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                target = ".".join([*base, *([node.module] if node.module else [])])
            else:
                target = node.module or ""
            if _package(target) not in APPS or _package(target) == _package(name):
                continue
            for alias in node.names:
                full = f"{target}.{alias.name}"
                if any(_private(part) for part in full.split(".")):
                    found.add(full)
                if full in MODULES:
                    modules.add(alias.asname or alias.name)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if _package(alias.name) in APPS and _package(alias.name) != _package(name):
                    if any(_private(part) for part in alias.name.split(".")):
                        found.add(alias.name)
                    if alias.asname:
                        modules.add(alias.asname)
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in modules
            and _private(node.attr)
        ):
            found.add(f"{node.value.id}.{node.attr}")
    return found


def test_no_private_name_is_imported_across_packages():
    """Another app uses scoring (or Call Break) through its public names: the
    version API (`version_from`, `stamp`, `counters_table`), the commands'
    helpers (`scoring.management.sessionfiles`), and so on."""
    found = {
        (name, private)
        for name, path in MODULES.items()
        for private in _private_imports(name, path)
    }
    assert found == set()


def test_the_private_check_sees_a_private_name(tmp_path):
    module = tmp_path / "versions.py"
    module.write_text(
        "from scoring.selectors.versions import _version\n"
        "from scoring.management.commands._sessionfiles import read_text\n"
        "from scoring.selectors import versions\n"
        "from ._own import fine\n"
        "versions._stamp(1)\n",
        encoding="utf-8",
    )
    assert _private_imports("groups.versions", module) == {
        "scoring.selectors.versions._version",
        "scoring.management.commands._sessionfiles.read_text",
        "versions._stamp",
    }


# The apps that add to scoring (a session's seats, a family's groups, the
# record): scoring names none of them, in an import or in an ORM lookup
# through one of their relations (`co_scorers__user_id`); they join through
# scoring.plugins.
PLUGINS = ("groups", "table", "stats")


def test_scoring_imports_none_of_its_plugins():
    found = {
        (name, other)
        for name, imported in GRAPH.items()
        if _package(name) == "scoring"
        for other in imported
        if _package(other) in PLUGINS
    }
    # Imports hidden from the graph (a plugin module not found is not in it).
    for name, path in MODULES.items():
        if _package(name) != "scoring":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and not node.level:
                if _package(node.module or "") in PLUGINS:
                    found.add((name, node.module or ""))
            elif isinstance(node, ast.Import):
                found.update((name, a.name) for a in node.names if _package(a.name) in PLUGINS)
    assert found == set()


def _plugin_relations() -> set[str]:
    """The names by which the plugins' models reach scoring's (related_name and
    related_query_name of their relations to a scoring model)."""
    from django.apps import apps

    names = set()
    for app in PLUGINS:
        for model in apps.get_app_config(app).get_models():
            for field in model._meta.get_fields():
                remote = getattr(field, "remote_field", None)
                if (
                    field.is_relation
                    and not field.auto_created
                    and remote is not None
                    and remote.model._meta.app_label == "scoring"
                ):
                    names.add(cast(Any, field).related_query_name())
    return {name for name in names if not name.endswith("+")}  # "+": no way back


def test_scoring_names_no_relation_of_its_plugins():
    relations = _plugin_relations()
    assert "co_scorers" in relations  # table.CoScorer, the check sees it
    names = "|".join(map(re.escape, sorted(relations)))
    # A lookup (`co_scorers__user_id`) or a related manager (`session.co_scorers.`).
    pattern = re.compile(rf"\b({names})__\w|\.({names})\.")
    found = [
        f"{path.relative_to(ROOT)}:{number}"
        for name, path in MODULES.items()
        if _package(name) == "scoring"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if pattern.search(line) and not line.lstrip().startswith("#")
    ]
    assert found == []


# --- services take keywords ---------------------------------------------------------------------


def _service_modules() -> list[str]:
    return sorted(
        name
        for name in MODULES
        if _layer(name) == "services" and _package(name) in ("scoring", "groups", "table")
    )


def test_no_public_service_function_has_positional_parameters():
    """Every write is called with its arguments named (the HackSoft styleguide):
    `add_round(session=…, round_input=…)`, never in an order to remember."""
    import importlib
    import inspect

    positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    found = []
    for name in _service_modules():
        module = importlib.import_module(name)
        for attr, value in vars(module).items():
            if attr.startswith("_") or not inspect.isfunction(value):
                continue
            if value.__module__ != name:
                continue  # imported from elsewhere: checked where it lives
            params = inspect.signature(value).parameters.values()
            found += [f"{name}.{attr}({p.name})" for p in params if p.kind in positional]
    assert found == []


def test_the_service_check_reads_every_service_module():
    modules = _service_modules()
    assert {"scoring.services.rounds", "groups.services", "table.services"} <= set(modules)


# An ORM call: a manager, a lookup shortcut, or a queryset method.
_ORM = re.compile(
    r"\.objects\b|get_object_or_404|get_list_or_404|"
    r"\.(filter|exclude|all|aggregate|annotate|values_list|select_related|prefetch_related)\("
)


@pytest.mark.parametrize("views", ["table/views.py"])
def test_the_views_read_through_selectors(views):
    """A view asks a selector (or an access helper) for what it shows; it
    makes no query of its own."""
    source = (ROOT / views).read_text(encoding="utf-8")
    found = [
        f"{views}:{number}: {line.strip()}"
        for number, line in enumerate(source.splitlines(), 1)
        if _ORM.search(line) and not line.lstrip().startswith("#")
    ]
    assert found == []


def test_the_javascript_is_in_one_modern_style():
    """eslint forbids `var` (and a `let` never reassigned); `make lint` runs it
    over every script, so none is left."""
    config = (ROOT / "eslint.config.mjs").read_text(encoding="utf-8")
    assert '"no-var": "error"' in config and '"prefer-const": "error"' in config
    declared = re.compile(r"(^|[;{(\s])var\s+[A-Za-z_$]")
    found = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in sorted((ROOT / "static" / "js").rglob("*.js"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if declared.search(line) and not line.lstrip().startswith("//")
    ]
    assert found == []


def _url_names(module: str) -> set[str]:
    import importlib

    urls = importlib.import_module(module)
    patterns = [*getattr(urls, "urlpatterns", []), *getattr(urls, "session_urls", [])]
    return {p.name for p in patterns if getattr(p, "name", None)}


def test_scorings_templates_name_no_plugin():
    """A plugin's part of scoring's pages is its own template in a slot
    (scoring.plugins): scoring's templates include none of the plugins'
    templates and link to none of their pages."""
    names = set().union(*(_url_names(f"{app}.urls") for app in PLUGINS))
    url = re.compile(r"\{%\s*url\s+'([\w:]+)'")
    templates = [
        ROOT / "templates" / "home.html",
        *(ROOT / "templates" / "scoring").rglob("*.html"),
    ]
    found = []
    for path in templates:
        text = path.read_text(encoding="utf-8")
        found += [f"{path.name}: {name}" for name in url.findall(text) if name in names]
        found += [
            f"{path.name}: {app}/"
            for app in PLUGINS
            if re.search(rf"\{{%\s*(include|extends)\s+\"{app}/", text)
        ]
    assert found == []

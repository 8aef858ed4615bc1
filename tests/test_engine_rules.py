"""The `Rules` value: every RULES.md option, the five presets, overrides on top."""

from __future__ import annotations

import ast
import dataclasses
import subprocess
import sys
from pathlib import Path

import pytest

from scoring.engine import PRESETS, RuleError, Rules, make_rules, rules_from_options
from scoring.engine.maal import PRESET_TABLES
from scoring.engine.rules import (
    OPTION_HELP,
    OPTION_LABELS,
    OPTION_NAMES,
    OPTIONS,
    check_option,
    closest_preset,
    preset_of,
)

ENGINE = Path(__file__).resolve().parents[1] / "scoring" / "engine"

# RULES.md section 3 and 5, option by option, with each preset's value.
PAGAT = {
    "seen_payment": 3,
    "unseen_payment": 10,
    "dublee_bonus": 5,
    "unseen_maal": "count",
    "unseen_tunnel": "void",
    "better_multiplier": 2,
    "dublee_triggers_better": False,
    "dhoos_penalty": 15,
    "max_players": 5,
    "dhoos_amount": "fixed",
    "dhoos_payee": "all",
    "dhoos_voids_maal": False,
    "dublee_players_pay_seen": True,
    "dublee_min_players": 2,
    "better_after_rotation": False,
    "maal_table": "pagat",
    "alter": False,
    "printed_jokers": False,
    "printed_joker_value": 5,
    "master_card": False,
    "master_card_value": 5,
    # RULES.md section 3a (v3): no preset sets them.
    "unseen_pairs": "settle",
    "dhoos_pays_total": False,
    "dublee_player_bonus": 0,
}
PRESET_OPTIONS = {
    "pagat": PAGAT,
    "kidnap": PAGAT | {"unseen_maal": "kidnap", "maal_table": "tiers", "alter": True},
    "murder": PAGAT
    | {"dublee_bonus": 0, "unseen_maal": "void", "maal_table": "tiers", "alter": True},
    "wikipedia": PAGAT | {"dublee_bonus": 0, "unseen_tunnel": "count", "maal_table": "flat"},
    # RULES.md section 5: murder's columns but the dublee bonus kept, and three options.
    "nepal": PAGAT
    | {
        "unseen_maal": "void",
        "maal_table": "tiers",
        "alter": True,
        "dublee_players_pay_seen": False,
        "dhoos_payee": "next_winner",
        "dhoos_voids_maal": True,
    },
}


def later_options(preset: str) -> dict[str, object]:
    """The options declared after this table was written, at their declared value
    in `preset` (a default that changes nothing, unless the declaration names the
    preset): each is tested with its own rows, so adding one edits no test here."""
    return {
        name: OPTIONS[name].presets.get(preset, OPTIONS[name].default)
        for name in OPTION_NAMES
        if name not in PAGAT
    }


@pytest.mark.parametrize("preset", PRESET_OPTIONS)
def test_each_preset_has_the_options_of_rules_md(preset):
    expected = PRESET_OPTIONS[preset] | later_options(preset)
    assert make_rules(preset).to_options() == expected
    assert PRESETS[preset].to_options() == expected


def test_the_presets_are_exactly_the_five_of_rules_md():
    assert list(PRESETS) == ["pagat", "kidnap", "murder", "wikipedia", "nepal"]


def test_the_older_presets_keep_every_newer_option_at_its_default():
    newer = {
        "dhoos_amount": "fixed",
        "dhoos_payee": "all",
        "dhoos_voids_maal": False,
        "dublee_players_pay_seen": True,
        "dublee_min_players": 2,
        "better_after_rotation": False,
        "master_card_value": 5,
    }
    for name in ("pagat", "kidnap", "murder", "wikipedia"):
        options = PRESETS[name].to_options()
        assert {key: options[key] for key in newer} == newer
    # A session saved before the options existed reads back as the same rules.
    assert rules_from_options({"preset": "murder"}) == PRESETS["murder"]


def test_pagat_is_the_default():
    assert make_rules() == Rules() == PRESETS["pagat"]
    assert rules_from_options({}) == PRESETS["pagat"]


def test_every_option_is_named_labelled_and_explained():
    assert set(OPTION_NAMES) >= set(PAGAT)
    assert set(OPTION_HELP) == set(OPTION_LABELS) == {*OPTION_NAMES, "maal_points"}
    assert all(OPTION_LABELS.values())
    assert all(text.endswith(")") or text.endswith(".") for text in OPTION_HELP.values())


def test_rules_are_immutable():
    rules = make_rules()
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.seen_payment = 4


def test_overrides_go_on_top_of_the_preset():
    rules = make_rules("kidnap", seen_payment=5, unseen_tunnel="count")
    assert rules.to_options() == PRESET_OPTIONS["kidnap"] | later_options("kidnap") | {
        "seen_payment": 5,
        "unseen_tunnel": "count",
    }
    assert rules.differences(PRESETS["kidnap"]) == {"seen_payment": 5, "unseen_tunnel": "count"}


def test_rules_from_a_session_files_rules_object():
    rules = rules_from_options({"preset": "murder", "dhoos_penalty": 20, "max_players": 8})
    assert rules == dataclasses.replace(PRESETS["murder"], dhoos_penalty=20, max_players=8)
    assert rules_from_options({"unseen_maal": "kidnap"}).to_options() == PAGAT | later_options(
        "pagat"
    ) | {"unseen_maal": "kidnap"}


@pytest.mark.parametrize("preset", PRESET_OPTIONS)
def test_resolved_options_read_back_as_the_same_rules(preset):
    rules = make_rules(preset, better_multiplier=3, master_card=True)
    assert rules_from_options(rules.to_options()) == rules


# Every option with a value it takes and one it refuses, with the exact message.
VALID = [
    ("seen_payment", 0),
    ("seen_payment", 10_000),
    ("unseen_payment", 100),
    ("dublee_bonus", 0),
    ("unseen_maal", "count"),
    ("unseen_maal", "void"),
    ("unseen_maal", "kidnap"),
    ("unseen_tunnel", "count"),
    ("unseen_tunnel", "void"),
    ("better_multiplier", 1),
    ("better_multiplier", 100),
    ("dublee_triggers_better", True),
    ("dhoos_penalty", 0),
    ("max_players", 2),
    ("max_players", 8),
    ("maal_table", "pagat"),
    ("maal_table", "flat"),
    ("maal_table", "tiers"),
    ("alter", True),
    ("printed_jokers", True),
    ("printed_joker_value", 2),
    ("printed_joker_value", 5),
    ("master_card", True),
    ("dhoos_amount", "fixed"),
    ("dhoos_amount", "round_total"),
    ("dhoos_payee", "all"),
    ("dhoos_payee", "winner"),
    ("dhoos_payee", "next_winner"),
    ("dhoos_voids_maal", True),
    ("dublee_players_pay_seen", False),
    ("dublee_min_players", 2),
    ("dublee_min_players", 8),
    ("better_after_rotation", True),
    ("master_card_value", 0),
    ("master_card_value", 10),
    ("master_card_value", 100),
    ("dhoos_payee", "next_round_winner"),
    ("unseen_pairs", "settle"),
    ("unseen_pairs", "skip"),
    ("dhoos_pays_total", True),
    ("dublee_player_bonus", 0),
    ("dublee_player_bonus", 10_000),
]


@pytest.mark.parametrize(("name", "value"), VALID)
def test_every_option_takes_its_values(name, value):
    rules = make_rules(**{name: value})
    assert getattr(rules, name) == value
    assert rules.differences(PRESETS["pagat"]) == ({} if PAGAT[name] == value else {name: value})


WHOLE = "must be a whole number from"
INVALID = [
    ("seen_payment", -1, f"rule seen_payment: {WHOLE} 0 to 10000, got -1"),
    ("seen_payment", 10_001, f"rule seen_payment: {WHOLE} 0 to 10000, got 10001"),
    ("seen_payment", 2.5, f"rule seen_payment: {WHOLE} 0 to 10000, got 2.5"),
    ("seen_payment", "3", f"rule seen_payment: {WHOLE} 0 to 10000, got '3'"),
    ("seen_payment", True, f"rule seen_payment: {WHOLE} 0 to 10000, got True"),
    ("unseen_payment", -10, f"rule unseen_payment: {WHOLE} 0 to 10000, got -10"),
    ("dublee_bonus", None, f"rule dublee_bonus: {WHOLE} 0 to 10000, got None"),
    (
        "unseen_maal",
        "steal",
        "rule unseen_maal: must be one of count, void, kidnap, got 'steal'",
    ),
    ("unseen_tunnel", "kidnap", "rule unseen_tunnel: must be one of count, void, got 'kidnap'"),
    ("better_multiplier", 0, f"rule better_multiplier: {WHOLE} 1 to 100, got 0"),
    ("better_multiplier", 101, f"rule better_multiplier: {WHOLE} 1 to 100, got 101"),
    (
        "dublee_triggers_better",
        "yes",
        "rule dublee_triggers_better: must be true or false, got 'yes'",
    ),
    ("dublee_triggers_better", 1, "rule dublee_triggers_better: must be true or false, got 1"),
    ("dhoos_penalty", -15, f"rule dhoos_penalty: {WHOLE} 0 to 10000, got -15"),
    ("max_players", 1, f"rule max_players: {WHOLE} 2 to 8, got 1"),
    ("max_players", 9, f"rule max_players: {WHOLE} 2 to 8, got 9"),
    ("maal_table", "house", "rule maal_table: must be one of pagat, flat, tiers, got 'house'"),
    ("alter", None, "rule alter: must be true or false, got None"),
    ("printed_jokers", "on", "rule printed_jokers: must be true or false, got 'on'"),
    ("printed_joker_value", 1, f"rule printed_joker_value: {WHOLE} 2 to 5, got 1"),
    ("printed_joker_value", 6, f"rule printed_joker_value: {WHOLE} 2 to 5, got 6"),
    ("master_card", 0, "rule master_card: must be true or false, got 0"),
    (
        "dhoos_amount",
        "double",
        "rule dhoos_amount: must be one of fixed, round_total, got 'double'",
    ),
    (
        "dhoos_payee",
        "dealer",
        "rule dhoos_payee: must be one of all, winner, next_winner, next_round_winner, "
        "got 'dealer'",
    ),
    ("dhoos_voids_maal", "true", "rule dhoos_voids_maal: must be true or false, got 'true'"),
    (
        "dublee_players_pay_seen",
        0,
        "rule dublee_players_pay_seen: must be true or false, got 0",
    ),
    ("dublee_min_players", 1, f"rule dublee_min_players: {WHOLE} 2 to 8, got 1"),
    ("dublee_min_players", 9, f"rule dublee_min_players: {WHOLE} 2 to 8, got 9"),
    ("better_after_rotation", None, "rule better_after_rotation: must be true or false, got None"),
    ("master_card_value", -1, f"rule master_card_value: {WHOLE} 0 to 100, got -1"),
    ("master_card_value", 101, f"rule master_card_value: {WHOLE} 0 to 100, got 101"),
    ("tiplu_value", 3, "unknown rule option 'tiplu_value'"),
    # RULES.md section 3a's refusals: booleans and 2.0 are not whole numbers.
    ("dublee_player_bonus", True, f"rule dublee_player_bonus: {WHOLE} 0 to 10000, got True"),
    ("dublee_player_bonus", 2.0, f"rule dublee_player_bonus: {WHOLE} 0 to 10000, got 2.0"),
    ("dublee_player_bonus", -1, f"rule dublee_player_bonus: {WHOLE} 0 to 10000, got -1"),
    ("dhoos_pays_total", 1, "rule dhoos_pays_total: must be true or false, got 1"),
    ("dhoos_pays_total", "true", "rule dhoos_pays_total: must be true or false, got 'true'"),
    (
        "unseen_pairs",
        "none",
        "rule unseen_pairs: must be one of settle, skip, got 'none'",
    ),
    (
        "dhoos_payee",
        "next_round",
        "rule dhoos_payee: must be one of all, winner, next_winner, next_round_winner, "
        "got 'next_round'",
    ),
    (
        "maal_points",
        {"kings": [1]},
        "rule maal_points, unknown item 'kings'",
    ),
]


@pytest.mark.parametrize(("name", "value", "message"), INVALID)
def test_every_option_refuses_a_bad_value_by_name(name, value, message):
    with pytest.raises(RuleError) as error:
        make_rules(**{name: value})
    assert str(error.value) == message
    with pytest.raises(RuleError) as error:
        check_option(name, value)
    assert str(error.value) == message


def test_all_of_the_options_of_this_table_are_tested_here():
    assert {name for name, _ in VALID} >= set(PAGAT)
    assert {name for name, _, _ in INVALID} >= set(PAGAT)


@pytest.mark.parametrize("name", OPTION_NAMES)
def test_every_declared_option_takes_its_values_and_refuses_another_kind(name):
    """From the declaration alone, so an option added later is checked here too."""
    declared = OPTIONS[name]
    takes = {
        "bool": [False, True],
        "choice": list(declared.choices),
        "whole": [declared.low, declared.high],
    }[declared.kind]
    for value in takes:
        assert getattr(make_rules(**{name: value}), name) == value
    with pytest.raises(RuleError, match=rf"^rule {name}: must be "):
        check_option(name, "not a value")


def test_unknown_preset():
    message = "unknown rules preset 'house' (one of pagat, kidnap, murder, wikipedia, nepal)"
    with pytest.raises(RuleError, match=r"^unknown rules preset 'house' \(one of") as error:
        make_rules("house")
    assert str(error.value) == message
    with pytest.raises(RuleError) as error:
        rules_from_options({"preset": "house"})
    assert str(error.value) == message


def test_preset_that_is_not_a_name():
    with pytest.raises(RuleError) as error:
        rules_from_options({"preset": ["pagat"]})
    assert str(error.value) == "rule preset: must be a preset name, got ['pagat']"


def test_a_custom_maal_point_table():
    rules = make_rules("murder", maal_points=PRESET_TABLES["flat"].to_options())
    assert rules.maal_points == PRESET_TABLES["flat"]
    assert rules.to_options()["maal_points"] == PRESET_TABLES["flat"].to_options()
    assert rules_from_options(rules.to_options()) == rules
    assert make_rules(maal_points=None).maal_points is None
    assert "maal_points" not in make_rules().to_options()
    # Dropping the custom table is a difference from a session that had one.
    assert PRESETS["murder"].differences(rules) == {"maal_points": None}


def test_preset_of_and_closest_preset():
    for name, rules in PRESETS.items():
        assert preset_of(rules) == name
        assert closest_preset(rules) == name
    assert preset_of(make_rules("kidnap", seen_payment=4)) is None
    assert closest_preset(make_rules("kidnap", seen_payment=4)) == "kidnap"
    assert closest_preset(make_rules("pagat", unseen_maal="void")) == "pagat"


# --- the engine is pure Python ------------------------------------------------------------


def _imported_modules(path: Path) -> set[str]:
    modules: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            modules.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            modules.add(node.module)
    return modules


def test_engine_sources_import_nothing_from_django():
    sources = sorted(ENGINE.glob("*.py"))
    assert {p.name for p in sources} >= {
        "__init__.py",
        "rules.py",
        "settlement.py",
        "ledger.py",
        "sessionfile.py",
    }
    for path in sources:
        outside = {m for m in _imported_modules(path) if m.split(".")[0] not in _STDLIB}
        assert outside == set(), f"{path.name} imports {outside}"


_STDLIB = set(sys.stdlib_module_names) | {"__future__"}


def test_importing_the_engine_loads_no_django():
    code = (
        "import sys; import scoring.engine, scoring.engine.sessionfile, scoring.engine.maal; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'django'))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ENGINE.parents[1],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert out.strip() == "[]"


def test_which_rules_look_back_comes_from_the_declarations():
    assert not Rules().looks_back()
    nepal = PRESETS["nepal"]
    assert nepal.looks_back() and nepal.looks_back("dhoos") and not nepal.looks_back("better")
    assert make_rules(better_after_rotation=True).looks_back("better")
    assert make_rules(dublee_triggers_better=True).looks_back("better")
    assert not make_rules(dublee_triggers_better=True).looks_back("dhoos")
    assert not make_rules(dhoos_payee="winner").looks_back()


def test_a_declaration_the_engine_cannot_read_is_refused_at_import():
    from scoring.engine import rules as rules_module
    from scoring.engine.rules import option

    @dataclasses.dataclass(frozen=True)
    class Odd:
        ratio: float = option(1.5, label="Ratio", help="A ratio.")

    with pytest.raises(TypeError, match="rule option ratio: declare it as bool, int with"):
        rules_module._declared(Odd)

    @dataclasses.dataclass(frozen=True)
    class Elsewhere:
        tea: bool = option(False, presets={"london": True}, label="Tea", help="Tea.")

    with pytest.raises(TypeError, match="rule option tea: no preset 'london'"):
        rules_module._declared(Elsewhere)

"""The one hypothesis strategy for rules, for every property test that draws them.

Each option is drawn from its declaration (`OPTIONS` in scoring/engine/rules.py:
its kind, its range or its values), so an option added there is drawn here
without a word changed. A property that needs an option held pins it by keyword
(`any_rules(max_players=6)`, or a strategy of its own as the value); one that is
about some options only names them (`vary=`), the rest staying at the preset's.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import Any

from hypothesis import strategies as st

from scoring.engine import Rules, make_rules
from scoring.engine.rules import OPTION_NAMES, OPTIONS, PRESET_NAMES

# A whole number is drawn within NEAR of its lowest value most of the time (the
# figures a table plays with, where options meet the points of a round), and
# anywhere in its declared range otherwise.
NEAR = 50
# The options of a round's settlement (section 4's maal calculator aside).
SETTLING: tuple[str, ...] = tuple(name for name in OPTION_NAMES if OPTIONS[name].settles)
# The options under which a round's result depends on the rounds before it.
LOOKING_BACK: tuple[str, ...] = tuple(name for name in OPTION_NAMES if OPTIONS[name].looks_back)


@cache  # built once per option: drawing is then as cheap as a hand-written strategy
def option_values(
    name: str, *, near: int = NEAR, anywhere: bool = True, favour_looking_back: bool = False
) -> st.SearchStrategy[Any]:
    """Any value option `name` can take, by its declaration. `anywhere=False` keeps a
    whole number within `near` of its lowest value; `favour_looking_back` draws the
    values of a choice under which rounds depend on earlier ones twice as often."""
    declared = OPTIONS[name]
    if declared.kind == "bool":
        return st.booleans()
    if declared.kind == "choice":
        values = list(declared.choices)
        if favour_looking_back and declared.looks_back:
            values += [v for v in declared.choices if v in declared.looks_back_when]
        return st.sampled_from(values)
    if declared.kind == "whole":
        close = st.integers(declared.low, min(declared.high, declared.low + near))
        if not anywhere or declared.high <= declared.low + near:
            return close
        return close | st.integers(declared.low, declared.high)
    raise ValueError(f"rule option {name}: no strategy for its kind {declared.kind!r}")


def _pinned(draw: st.DrawFn, pinned: dict[str, Any]) -> dict[str, Any]:
    unknown = set(pinned) - set(OPTION_NAMES)
    if unknown:
        raise ValueError(f"not rule options: {sorted(unknown)}")
    return {
        name: draw(value) if isinstance(value, st.SearchStrategy) else value
        for name, value in pinned.items()
    }


@st.composite
def any_rules(
    draw: st.DrawFn,
    *,
    presets: Iterable[str] = PRESET_NAMES,
    vary: Iterable[str] | None = None,
    near: int = NEAR,
    **pinned: Any,
) -> Rules:
    """Any rules: one of `presets`, then every option (or those of `vary`) drawn from
    its declaration, but the `pinned` ones (a value, or a strategy of values)."""
    preset = draw(st.sampled_from(tuple(presets)))
    names = OPTION_NAMES if vary is None else tuple(vary)
    values = draw(_values(tuple(name for name in names if name not in pinned), near))
    return make_rules(preset, **values, **_pinned(draw, pinned))


@cache
def _values(names: tuple[str, ...], near: int) -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries({name: option_values(name, near=near) for name in names})


@st.composite
def overrides(
    draw: st.DrawFn,
    *,
    names: Iterable[str] = SETTLING,
    at_most: int | None = None,
    near: int = NEAR,
    anywhere: bool = True,
    favour_looking_back: bool = False,
) -> dict[str, Any]:
    """Options changed on top of a preset, as a form or a file gives them: half the
    time none; otherwise every option of `names`, or at most `at_most` of them."""
    if draw(st.booleans()):
        return {}
    names = tuple(names)
    if at_most is not None:
        names = tuple(draw(st.lists(st.sampled_from(names), max_size=at_most, unique=True)))
    return {
        name: draw(
            option_values(
                name, near=near, anywhere=anywhere, favour_looking_back=favour_looking_back
            )
        )
        for name in names
    }

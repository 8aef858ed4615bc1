"""The maal calculator (RULES.md section 4): roles, point tables, grouping, limits."""

from __future__ import annotations

import json
from decimal import Decimal
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine.maal import (
    MASTER_CARD,
    PRESET_TABLES,
    PRINTED_JOKER,
    TIER_ITEMS,
    Card,
    MaalError,
    PointTable,
    Tally,
    alter_of,
    card_role,
    check_tally,
    jhiplu_of,
    maal_cards,
    parse_tiplu,
    point_table_for,
    point_table_from_options,
    poplu_of,
    score,
    score_cards,
    tally_from_cards,
    tier_points,
    tunnel_kind,
)
from scoring.engine.rules import OPTION_NAMES, PRESETS, RuleError, make_rules, rules_from_options
from scoring.engine.sessionfile import SessionDoc, export_document, parse_document

PAGAT = make_rules("pagat")
FLAT = make_rules("wikipedia")  # the flat table
TIERS = make_rules("pagat", maal_table="tiers")
ALL_ON = make_rules("kidnap", printed_jokers=True, master_card=True)  # tiers, alter on


def c(code: str) -> Card:
    return Card.parse(code)


# -- cards and roles -----------------------------------------------------------


def test_parse_cards_in_every_spelling():
    assert c("QH") == Card("Q", "H")
    assert c("10s") == Card("10", "S")
    assert c("TD") == Card("10", "D")
    assert c("K♣") == Card("K", "C")
    assert c("a h").label == "A♥"
    assert Card("10", "S").code == "10S"


@pytest.mark.parametrize("code", ["", "H", "1X", "11H", "ZZ", "QHH"])
def test_bad_card_codes_are_refused(code):
    with pytest.raises(MaalError, match="is not a card"):
        Card.parse(code)


def test_bad_tiplu_names_the_field():
    with pytest.raises(MaalError, match=r"^tiplu: 'XX' is not a card"):
        parse_tiplu("XX")


def test_roles_for_an_ordinary_tiplu():
    tiplu = c("7H")
    assert card_role("7H", tiplu, PAGAT) == "tiplu"
    assert card_role("8H", tiplu, PAGAT) == "poplu"
    assert card_role("6H", tiplu, PAGAT) == "jhiplu"
    # Alter off: the same-colour seven is just an ordinary joker.
    assert card_role("7D", tiplu, PAGAT) == "ordinary_joker"
    assert card_role("7D", tiplu, ALL_ON) == "alter"
    assert card_role("7S", tiplu, ALL_ON) == "ordinary_joker"
    assert card_role("7C", tiplu, ALL_ON) == "ordinary_joker"
    assert card_role("8D", tiplu, ALL_ON) == "ordinary"
    assert card_role("5H", tiplu, ALL_ON) == "ordinary"
    assert card_role(PRINTED_JOKER, tiplu, ALL_ON) == "printed_joker"
    assert card_role(MASTER_CARD, tiplu, ALL_ON) == "master_card"


@pytest.mark.parametrize(
    ("tiplu", "poplu", "jhiplu", "alter"),
    [
        ("AH", "2H", "KH", "AD"),  # above A is 2, below A is K
        ("2S", "3S", "AS", "2C"),  # below 2 is A
        ("KD", "AD", "QD", "KH"),  # above K is A
        ("10C", "JC", "9C", "10S"),
    ],
)
def test_wrap_around(tiplu, poplu, jhiplu, alter):
    card = c(tiplu)
    assert poplu_of(card) == c(poplu)
    assert jhiplu_of(card) == c(jhiplu)
    assert alter_of(card) == c(alter)
    assert card_role(poplu, card, ALL_ON) == "poplu"
    assert card_role(jhiplu, card, ALL_ON) == "jhiplu"
    assert card_role(alter, card, ALL_ON) == "alter"


def test_every_card_has_one_role_and_the_counts_match_three_decks():
    tiplu = c("AH")
    roles = [card_role(card, tiplu, ALL_ON) for card in _deck()]
    # One deck: 1 tiplu, 1 poplu, 1 jhiplu, 1 alter, 2 ordinary jokers, 46 ordinary.
    assert roles.count("tiplu") == 1
    assert roles.count("poplu") == 1
    assert roles.count("jhiplu") == 1
    assert roles.count("alter") == 1
    assert roles.count("ordinary_joker") == 2
    assert roles.count("ordinary") == 46
    assert [card_role(card, tiplu, PAGAT) for card in _deck()].count("ordinary_joker") == 3


def _deck():
    from scoring.engine.maal import all_cards

    return all_cards()


def test_printed_jokers_and_master_card_need_the_option():
    with pytest.raises(MaalError, match=r"^printed jokers are not in play in this session$"):
        card_role(PRINTED_JOKER, c("7H"), PAGAT)
    with pytest.raises(MaalError, match=r"^the master card is not in play in this session$"):
        card_role(MASTER_CARD, c("7H"), PAGAT)


def test_maal_cards_for_a_picker():
    assert maal_cards(c("KD"), PAGAT) == (
        ("tiplu", "K♦"),
        ("poplu", "A♦"),
        ("jhiplu", "Q♦"),
    )
    assert [role for role, _ in maal_cards(c("KD"), ALL_ON)] == [
        "tiplu",
        "poplu",
        "jhiplu",
        "alter",
        "printed_joker",
        "master_card",
    ]


def test_tunnel_kinds():
    tiplu = c("7H")
    assert tunnel_kind("4S", tiplu, ALL_ON) == "ordinary"
    assert tunnel_kind("8H", tiplu, ALL_ON) == "poplu"
    assert tunnel_kind("6H", tiplu, ALL_ON) == "jhiplu"
    assert tunnel_kind("7D", tiplu, ALL_ON) == "alter"
    assert tunnel_kind("7D", tiplu, PAGAT) == "ordinary_joker"
    assert tunnel_kind("7S", tiplu, ALL_ON) == "ordinary_joker"
    with pytest.raises(MaalError, match="a tunnel of 7♥ is impossible when 7♥ is the tiplu"):
        tunnel_kind("7H", tiplu, ALL_ON)


# -- the point tables ------------------------------------------------------------


def test_tier_points_extend_linearly_past_the_last_tier():
    assert [tier_points((3, 7), n) for n in range(4)] == [0, 3, 7, 11]
    assert [tier_points((5,), n) for n in range(4)] == [0, 5, 10, 15]
    assert [tier_points((5, 15, 30), n) for n in range(1, 7)] == [5, 15, 30, 45, 60, 75]
    assert tier_points((), 3) == 0


def _split(result):
    """(total, maal, tunnel) of a score."""
    return result.total, result.maal, result.tunnel


def test_pagat_table():
    table = point_table_for(PAGAT)
    for item in ("tiplu", "poplu", "marriage", "tunnel", "joker_tunnel", "poplu_tunnel"):
        assert getattr(table, item) == getattr(PRESET_TABLES["pagat"], item)
    assert [score(Tally(tiplu=n), PAGAT).maal for n in (1, 2)] == [3, 7]
    assert [score(Tally(poplu=n), PAGAT).maal for n in (1, 2, 3)] == [2, 5, 10]
    assert [score(Tally(jhiplu=n), PAGAT).maal for n in (1, 2, 3)] == [2, 5, 10]
    assert [score(Tally(marriages=n), PAGAT).maal for n in (1, 2)] == [10, 30]
    assert score(Tally(tunnels=3), PAGAT).tunnel == 15
    assert score(Tally(joker_tunnels=2), PAGAT).tunnel == 20
    # A maal tunnel's cards count as maal (3 poplu = 10 each), the rest as tunnel.
    two = score(Tally(poplu_tunnels=1, jhiplu_tunnels=1), PAGAT)
    assert (two.total, two.maal, two.tunnel) == (40, 20, 20)
    assert score(Tally(master_card=1), make_rules(master_card=True)).maal == 5


def test_pagat_fills_its_missing_items_from_flat():
    rules = make_rules("pagat", alter=True, printed_jokers=True, printed_joker_value=3)
    table = point_table_for(rules)
    assert (table.alter, table.alter_tunnel, table.printed_joker) == ((5,), (30,), (3,))
    result = score(Tally(alter=2, printed_jokers=2, alter_tunnels=0), rules)
    assert result.breakdown == "2 alter = 10, 2 printed jokers = 6"


def test_flat_table():
    rules = make_rules("wikipedia", alter=True, printed_jokers=True, printed_joker_value=4)
    assert [score(Tally(tiplu=n), rules).maal for n in (1, 2)] == [3, 6]
    assert [score(Tally(poplu=n), rules).maal for n in (1, 2, 3)] == [2, 4, 6]
    assert [score(Tally(alter=n), rules).maal for n in (1, 2, 3)] == [5, 10, 15]
    assert score(Tally(printed_jokers=3), rules).maal == 12
    assert score(Tally(tunnels=2), rules).tunnel == 10
    assert score(Tally(joker_tunnels=1), rules).tunnel == 5
    # 15 = three poplu as maal (2 each) + 9 tunnel; 30 = three alter (5 each) + 15.
    assert _split(score(Tally(poplu_tunnels=1), rules)) == (15, 6, 9)
    assert _split(score(Tally(alter_tunnels=1), rules)) == (30, 15, 15)
    # A marriage adds 10 on top of its three cards: 3 + 2 + 2 + 10.
    one = score(Tally(marriages=1), rules)
    assert one.maal == 17
    assert one.breakdown == "1 tiplu = 3, 1 poplu = 2, 1 jhiplu = 2, 1 marriage = 10"
    # Cards given loose form the marriage all the same.
    assert score(Tally(tiplu=2, poplu=2, jhiplu=1), rules).maal == 6 + 4 + 2 + 10


def test_tiers_table():
    rules = ALL_ON
    assert point_table_for(rules) == PRESET_TABLES["tiers"]
    assert [score(Tally(tiplu=n), rules).maal for n in (1, 2)] == [3, 8]
    assert [score(Tally(poplu=n), rules).maal for n in (1, 2, 3)] == [2, 5, 10]
    assert [score(Tally(alter=n), rules).maal for n in (1, 2, 3)] == [5, 15, 30]
    assert [score(Tally(marriages=n), rules).maal for n in (1, 2)] == [10, 25]
    assert [score(Tally(printed_jokers=n), rules).maal for n in range(1, 7)] == [
        5,
        15,
        30,
        45,
        60,
        75,
    ]
    assert [score(Tally(tunnels=n), rules).tunnel for n in range(1, 6)] == [5, 15, 30, 45, 60]
    assert [score(Tally(joker_tunnels=n), rules).tunnel for n in (1, 2)] == [5, 15]
    # A maal tunnel's three cards count as maal (3 poplu = 10, 3 alter = 30).
    assert [
        _split(score(Tally(poplu_tunnels=1), rules)),
        _split(score(Tally(poplu_tunnels=1, jhiplu_tunnels=1), rules)),
    ] == [(10, 10, 0), (30, 20, 10)]
    assert _split(score(Tally(alter_tunnels=1), rules)) == (35, 30, 5)
    # The printed-joker value option is the flat/pagat value; tiers keep their own.
    assert point_table_for(make_rules("kidnap", printed_joker_value=2)).printed_joker == (5, 15, 30)


def test_presets_use_their_tables():
    assert point_table_for(PRESETS["kidnap"]) == PRESET_TABLES["tiers"]
    assert point_table_for(PRESETS["murder"]) == PRESET_TABLES["tiers"]
    assert point_table_for(PRESETS["wikipedia"]) == PRESET_TABLES["flat"]


# -- grouping ------------------------------------------------------------------


def test_marriage_grouping_tiplu_poplu_jhiplu_poplu():
    # One marriage and a single poplu (10 + 2), not 3 + 5 + 2.
    result = score_cards(["7H", "8H", "6H", "8H"], c("7H"), PAGAT)
    assert result.maal == 12
    assert result.tally == Tally(poplu=1, marriages=1)
    assert result.breakdown == "1 poplu = 2, 1 marriage = 10"
    assert result.tunnel == 0


def test_two_marriages_beat_pairs():
    result = score(Tally(tiplu=2, poplu=2, jhiplu=2), PAGAT)
    assert result.maal == 30
    assert result.breakdown == "2 marriages = 30"


def test_the_best_grouping_may_be_no_marriage():
    # 2 tiplu + 3 poplu + 1 jhiplu: 7 + 10 + 2 = 19 beats a marriage (10 + 3 + 5 = 18).
    result = score(Tally(tiplu=1, poplu=2, marriages=1), PAGAT)
    assert result.maal == 19
    assert result.breakdown == "2 tiplu = 7, 3 poplu = 10, 1 jhiplu = 2"
    assert score(Tally(tiplu=2, poplu=3, jhiplu=1), TIERS).maal == 20


def test_a_tie_shows_the_marriage():
    # A house table where a marriage is worth its cards: 3 + 2 + 2 = 7 either way.
    table = PRESET_TABLES["pagat"].to_options() | {"marriage": [7]}
    table |= {"alter": [5], "printed_joker": [5], "alter_tunnel": [30]}
    result = score(Tally(tiplu=1, poplu=1, jhiplu=1), make_rules(maal_points=table))
    assert result.maal == 7
    assert result.breakdown == "1 marriage = 7"


def test_tunnel_and_the_same_card_in_hand_is_refused():
    with pytest.raises(MaalError, match=r"^4 × Q♦: three decks hold only 3 of each card"):
        score_cards(["QD"], c("KD"), PAGAT, tunnels=["QD"])


def test_cards_with_tunnels_scored():
    rules = make_rules("kidnap")  # tiers, alter on
    result = score_cards(
        ["AD", "QD", "KD", "KH", "KH", "KS", "4C"],
        c("KD"),
        rules,
        tunnels=["9S", "KC", "JH"],
    )
    assert result.tally == Tally(marriages=1, alter=2, tunnels=2, joker_tunnels=1)
    assert result.maal == 10 + 15
    assert result.tunnel == 15 + 5
    assert result.breakdown == (
        "1 marriage = 10, 2 alter = 15, 2 tunnels = 15, 1 tunnel of ordinary jokers = 5"
    )


def test_tunnels_of_poplu_and_jhiplu_are_one_item():
    result = score_cards([], c("5S"), TIERS, tunnels=["6S", "4S"])
    assert _split(result) == (30, 20, 10)
    assert result.breakdown == "2 tunnels of poplu and jhiplu = 30"


# -- impossible tallies ----------------------------------------------------------


@pytest.mark.parametrize(
    ("tally", "rules", "message"),
    [
        (Tally(tiplu=3), PAGAT, "3 tiplu: only 2 are in play (the third lies under the stock)"),
        (Tally(poplu=4), PAGAT, "4 poplu: three decks hold only 3"),
        (Tally(jhiplu=4), PAGAT, "4 jhiplu: three decks hold only 3"),
        (
            Tally(tiplu=2, marriages=1),
            PAGAT,
            "3 tiplu (1 marriage included): only 2 are in play (the third lies under the stock)",
        ),
        (
            Tally(marriages=3),
            PAGAT,
            "3 tiplu (3 marriages included): only 2 are in play (the third lies under the stock)",
        ),
        (
            Tally(marriages=1, poplu_tunnels=1),
            PAGAT,
            "1 poplu (1 marriage included) and a tunnel of poplu: the tunnel holds all 3",
        ),
        (Tally(poplu_tunnels=2), PAGAT, "2 tunnels of poplu: three decks hold only 3 poplu"),
        (
            Tally(alter=1),
            PAGAT,
            "alter is off in this session: the alter cards are ordinary jokers "
            "(a tunnel of them is a tunnel of ordinary jokers)",
        ),
        (Tally(alter=4), ALL_ON, "4 alter: three decks hold only 3"),
        (
            Tally(alter=1, alter_tunnels=1),
            ALL_ON,
            "1 alter and a tunnel of alter: the tunnel holds all 3",
        ),
        (
            Tally(joker_tunnels=4),
            PAGAT,
            "4 tunnels of ordinary jokers: they come in only 3 suits, so at most 3 tunnels",
        ),
        (
            Tally(joker_tunnels=3),
            ALL_ON,
            "3 tunnels of ordinary jokers: they come in only 2 suits, so at most 2 tunnels",
        ),
        (Tally(printed_jokers=1), PAGAT, "printed jokers are not in play in this session"),
        (Tally(printed_jokers=7), ALL_ON, "7 printed jokers: only 6 are in play (two per deck)"),
        (Tally(master_card=1), PAGAT, "the master card is not in play in this session"),
        (Tally(master_card=2), ALL_ON, "2 master cards: there is only one"),
        (Tally(tunnels=7, tiplu=1), PAGAT, "22 cards of maal and tunnels: a hand holds only 21"),
        (Tally(poplu=-1), PAGAT, "poplu: must be a whole number ≥ 0, got -1"),
    ],
)
def test_impossible_tallies_are_refused(tally, rules, message):
    with pytest.raises(MaalError) as error:
        score(tally, rules)
    assert str(error.value) == message


def test_impossible_cards_are_refused():
    with pytest.raises(MaalError, match=r"^3 tiplu: only 2 are in play"):
        tally_from_cards(["QH", "QH", "QH"], c("QH"), PAGAT)
    with pytest.raises(MaalError, match=r"^4 × K♥: three decks hold only 3 of each card"):
        tally_from_cards(["KH"] * 4, c("QH"), PAGAT)
    with pytest.raises(MaalError, match=r"^'ZZ' is not a card"):
        tally_from_cards(["ZZ"], c("QH"), PAGAT)
    assert tally_from_cards(["KH"] * 3, c("QH"), PAGAT) == Tally(poplu=3)


def test_a_full_legal_hand_is_accepted():
    tally = Tally(tunnels=7)
    check_tally(tally, PAGAT)
    assert score(tally, PAGAT).tunnel == 35


# -- tallies as stored ------------------------------------------------------------


def test_tally_round_trips_through_a_dict():
    tally = Tally(poplu=1, marriages=1, joker_tunnels=1)
    assert tally.to_dict() == {"poplu": 1, "marriages": 1, "joker_tunnels": 1}
    assert Tally.from_dict(json.loads(json.dumps(tally.to_dict()))) == tally
    assert Tally.from_dict({}) == Tally()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"kings": 1}, "unknown maal item 'kings'"),
        ({"tiplu": "2"}, "tiplu: must be a whole number, got '2'"),
        ({"tiplu": True}, "tiplu: must be a whole number, got True"),
        ({"marriages": -1}, "marriages: must not be negative, got -1"),
        ([1, 2], "a tally must be an object of counts, got [1, 2]"),
    ],
)
def test_bad_stored_tallies(data, message):
    with pytest.raises(MaalError) as error:
        Tally.from_dict(data)
    assert str(error.value) == message


# -- custom tables in the rules ------------------------------------------------------


def test_custom_table_in_rules_round_trips_through_json():
    custom = PRESET_TABLES["tiers"].to_options() | {"tiplu": [4, 9], "marriage_on_top": True}
    rules = make_rules("pagat", maal_points=custom)
    assert rules.maal_points is not None
    assert rules.maal_points.tiplu == (4, 9)
    options = json.loads(json.dumps(rules.to_options()))
    assert rules_from_options(options) == rules
    assert point_table_for(rules) == rules.maal_points
    assert score(Tally(tiplu=1, marriages=1), rules).maal == 9 + 2 + 2 + 10
    assert "maal_points" not in OPTION_NAMES
    assert "maal_points" not in PRESETS["pagat"].to_options()
    assert set(rules.differences(PRESETS["pagat"])) == {"maal_points"}


def test_custom_table_survives_a_session_file():
    rules = make_rules("murder", maal_points=PRESET_TABLES["flat"])
    doc = SessionDoc(
        name="Tihar",
        currency="NPR",
        stake_per_point=Decimal("1.00"),
        rules=rules,
        players=("Asha", "Bikash"),
    )
    exported = json.loads(json.dumps(export_document(doc)))
    assert parse_document(exported).rules == rules


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"tiplu": [7, 3]}, "rule maal_points, tiplu: holding more must not score less, got 7, 3"),
        (
            {"tiplu": []},
            "rule maal_points, tiplu: give at least one number (0 if it is worth nothing)",
        ),
        (
            {"poplu": [2, -1]},
            "rule maal_points, poplu: each tier must be a whole number from 0 to 1000, got -1",
        ),
        ({"alter": "5, x"}, "rule maal_points, alter: write whole numbers such as 2, 5, 10"),
        ({"kings": [1]}, "rule maal_points, unknown item 'kings'"),
        (
            {"marriage_on_top": "yes"},
            "rule maal_points, marriage_on_top: must be true or false, got 'yes'",
        ),
    ],
)
def test_bad_custom_tables(change, message):
    options = PRESET_TABLES["pagat"].to_options() | {"alter": [5], "printed_joker": [5]}
    options |= {"alter_tunnel": [30]}
    with pytest.raises(RuleError) as error:
        make_rules("pagat", maal_points=options | change)
    assert str(error.value) == message


def test_a_custom_table_needs_every_item():
    options = PRESET_TABLES["flat"].to_options()
    del options["tiplu"]
    with pytest.raises(RuleError, match=r"^rule maal_points, tiplu: missing$"):
        make_rules("pagat", maal_points=options)


def test_tiers_can_be_typed_as_text():
    options = {item: "5" for item in TIER_ITEMS} | {"tiplu": "3, 7"}
    table = point_table_from_options(options)
    assert table.tiplu == (3, 7)
    assert table.alter == (5,)


# -- the grouping is the best one (property) -------------------------------------


def _brute_force_best(roles: list[str], table: PointTable) -> int:
    """Try every way to place each card in one of two marriages or leave it single."""
    best = 0
    for placement in product((None, 0, 1), repeat=len(roles)):
        marriages: dict[int, list[str]] = {0: [], 1: []}
        singles: list[str] = []
        for role, slot in zip(roles, placement, strict=True):
            (singles if slot is None else marriages[slot]).append(role)
        formed = [m for m in marriages.values() if m]
        if any(sorted(m) != ["jhiplu", "poplu", "tiplu"] for m in formed):
            continue
        count = len(formed)
        loose = {role: singles.count(role) for role in ("tiplu", "poplu", "jhiplu")}
        if table.marriage_on_top:
            loose = {role: n + count for role, n in loose.items()}
        points = (
            tier_points(table.tiplu, loose["tiplu"])
            + tier_points(table.poplu, loose["poplu"])
            + tier_points(table.poplu, loose["jhiplu"])
            + tier_points(table.marriage, count)
        )
        best = max(best, points)
    return best


tiers_strategy = st.lists(st.integers(0, 40), min_size=1, max_size=4).map(
    lambda xs: tuple(sorted(xs))
)


@settings(max_examples=150, deadline=None)
@given(
    tiplu=st.integers(0, 2),
    poplu=st.integers(0, 3),
    jhiplu=st.integers(0, 3),
    tiplu_tiers=tiers_strategy,
    poplu_tiers=tiers_strategy,
    marriage_tiers=tiers_strategy,
    on_top=st.booleans(),
)
def test_chosen_grouping_is_never_beaten(
    tiplu, poplu, jhiplu, tiplu_tiers, poplu_tiers, marriage_tiers, on_top
):
    table = PointTable(
        **{item: (0,) for item in TIER_ITEMS},
        marriage_on_top=on_top,
    )
    table = point_table_from_options(
        table.to_options()
        | {"tiplu": tiplu_tiers, "poplu": poplu_tiers, "marriage": marriage_tiers}
    )
    rules = make_rules("pagat", maal_points=table)
    cards = ["QH"] * tiplu + ["KH"] * poplu + ["JH"] * jhiplu
    result = score_cards(cards, c("QH"), rules)
    roles = ["tiplu"] * tiplu + ["poplu"] * poplu + ["jhiplu"] * jhiplu
    assert result.maal == _brute_force_best(roles, table)
    # The grouping shown holds the same cards.
    assert (result.tally.tiplu_cards, result.tally.poplu_cards, result.tally.jhiplu_cards) == (
        tiplu,
        poplu,
        jhiplu,
    )
    assert result.maal == sum(line.points for line in result.lines)


@settings(max_examples=100, deadline=None)
@given(
    tiplu=st.sampled_from([f"{r}{s}" for r in ("A", "2", "7", "K") for s in "SHDC"]),
    data=st.data(),
)
def test_every_real_hand_is_accepted(tiplu, data):
    """A hand dealt from the three decks (one tiplu under the stock) is never refused,
    and its points are the sum of its lines."""
    from scoring.engine.maal import all_cards

    rules = ALL_ON
    shoe = [card.code for card in all_cards() for _copy in range(3)]
    shoe.remove(tiplu)
    shoe += [PRINTED_JOKER] * 6 + [MASTER_CARD]
    hand = data.draw(st.lists(st.sampled_from(range(len(shoe))), max_size=21, unique=True))
    result = score_cards([shoe[i] for i in hand], c(tiplu), rules)
    assert result.maal == sum(line.points for line in result.lines)
    assert result.tunnel == 0


# --- RULES.md v2, section 4 Decisions ---------------------------------------------------------


def test_master_card_value_is_the_master_cards_maal():
    for preset in ("pagat", "kidnap", "wikipedia", "nepal"):
        assert score(Tally(master_card=1), make_rules(preset, master_card=True)).maal == 5
        ten = make_rules(preset, master_card=True, master_card_value=10)
        assert score(Tally(master_card=1), ten).maal == 10
        assert score_cards([MASTER_CARD], c("7H"), ten).breakdown == "1 master card = 10"
    # A house's own point table keeps its own value.
    own = make_rules(master_card=True, master_card_value=10, maal_points=PRESET_TABLES["tiers"])
    assert score(Tally(master_card=1), own).maal == 5


def test_a_maal_tunnels_cards_count_as_maal_and_only_the_rest_as_tunnel():
    # pagat: a poplu tunnel is 20 = maal 10 (three poplu) + tunnel 10.
    result = score_cards([], c("5S"), PAGAT, tunnels=["6S"])
    assert (result.maal, result.tunnel, result.breakdown) == (10, 10, "1 tunnel of poplu = 20")
    # Ordinary tunnels and tunnels of ordinary jokers are all tunnel points.
    assert _split(score_cards([], c("5S"), PAGAT, tunnels=["9C", "5H"])) == (15, 0, 15)
    # The maal part is never more than the row's value (a house table of 4 for the tunnel).
    table = PRESET_TABLES["tiers"].to_options() | {"poplu_tunnel": [4]}
    assert _split(score(Tally(poplu_tunnels=1), make_rules(maal_points=table))) == (4, 4, 0)


def test_exposing_a_maal_tunnel_never_costs_an_unseen_player_anything():
    """Under unseen_tunnel = void an unseen player's tunnel points are void; the
    tunnel's three cards still count as the maal they are."""
    from scoring.engine import Entry, RoundInput, settle_round

    held = score(Tally(poplu=3), PAGAT)
    exposed = score(Tally(poplu_tunnels=1), PAGAT)

    def counted(result) -> int:
        entries = (
            Entry("A", maal=0),
            Entry("B", "unseen", maal=result.maal, tunnel=result.tunnel),
        )
        return settle_round(RoundInput(entries, winner="A"), PAGAT).of("B").points

    assert counted(held) == counted(exposed) == 10


def test_a_hand_is_21_cards_every_card_listed_and_3_per_tunnel():
    ten = ["2S", "3S", "4S", "5S", "6S", "8S", "9S", "JS", "QS", "KS"]
    assert tally_from_cards(ten, c("7H"), PAGAT, tunnels=["2C", "3C", "4C"]).tunnels == 3
    with pytest.raises(MaalError) as error:
        tally_from_cards([*ten, "AS"], c("7H"), PAGAT, tunnels=["2C", "3C", "4C", "5C"])
    assert str(error.value) == (
        "23 cards (every card listed, and 3 per tunnel): a hand holds only 21"
    )


def test_a_tiplu_given_as_text_raises_the_engines_error():
    calls = [
        lambda: card_role("QH", "QH", PAGAT),
        lambda: tunnel_kind("QH", "7H", PAGAT),
        lambda: maal_cards("7H", PAGAT),
        lambda: poplu_of("7H"),
        lambda: jhiplu_of("7H"),
        lambda: alter_of("7H"),
        lambda: tally_from_cards(["QH"], "7H", PAGAT),
        lambda: score_cards(["QH"], "7H", PAGAT),
    ]
    for call in calls:
        with pytest.raises(MaalError) as error:
            call()
        assert str(error.value).startswith("the tiplu must be a card such as QH, got '")


def test_copies_in_play_across_a_rounds_players():
    from scoring.engine.maal import check_round_tallies

    check_round_tallies({"Dai": Tally(tiplu=1), "Aama": Tally(marriages=1)})
    cases = [
        (
            {"Dai": Tally(tiplu=1), "Aama": Tally(marriages=1), "Didi": Tally(tiplu=1)},
            "3 tiplu held by Dai 1, Aama 1, Didi 1: only 2 in play",
        ),
        (
            {"Dai": Tally(jhiplu_tunnels=1), "Aama": Tally(marriages=1)},
            "4 jhiplu held by Dai 3, Aama 1: only 3 in play",
        ),
        (
            {"Dai": Tally(alter=2), "Aama": Tally(alter=2)},
            "4 alter held by Dai 2, Aama 2: only 3 in play",
        ),
        (
            {"Dai": Tally(printed_jokers=4), "Aama": Tally(printed_jokers=3)},
            "7 printed jokers held by Dai 4, Aama 3: only 6 in play",
        ),
        (
            {"Dai": Tally(master_card=1), "Aama": Tally(master_card=1)},
            "2 master cards held by Dai 1, Aama 1: only 1 in play",
        ),
    ]
    for tallies, text in cases:
        with pytest.raises(MaalError) as error:
            check_round_tallies(tallies)
        assert str(error.value) == text


def test_a_seats_tally_is_refused_only_for_what_it_adds():
    from scoring.engine.maal import check_added_tally

    check_added_tally({"Dai": Tally(tiplu=1)}, "Aama", Tally(marriages=1))
    with pytest.raises(MaalError) as error:
        check_added_tally({"Dai": Tally(tiplu=1), "Didi": Tally(tiplu=1)}, "Aama", Tally(tiplu=1))
    assert str(error.value) == "3 tiplu held by Dai 1, Didi 1, Aama 1: only 2 in play"
    # The others hold too many already: one of them is wrong, not this one.
    check_added_tally({"Dai": Tally(tiplu=2), "Didi": Tally(tiplu=1)}, "Aama", Tally(tiplu=1))
    # A tally of more than exist is refused whatever the others hold.
    with pytest.raises(MaalError) as error:
        check_added_tally({"Dai": Tally(tiplu=2), "Didi": Tally(tiplu=1)}, "Aama", Tally(tiplu=3))
    assert str(error.value) == "6 tiplu held by Dai 2, Didi 1, Aama 3: only 2 in play"
    # Its own earlier tally is not among the others.
    check_added_tally({"Aama": Tally(tiplu=2)}, "Aama", Tally(tiplu=2))


tally_strategy = st.builds(
    Tally,
    tiplu=st.integers(0, 3),
    poplu=st.integers(0, 3),
    marriages=st.integers(0, 2),
    alter=st.integers(0, 3),
    master_card=st.integers(0, 1),
)


@given(
    others=st.dictionaries(st.sampled_from(["Dai", "Didi", "Buwa"]), tally_strategy, max_size=3),
    mine=tally_strategy,
)
def test_a_seats_tally_blocks_no_true_count_and_lets_no_overcount_in(others, mine):
    """Refused exactly when the others fit and with it would not, or when it
    alone holds more than exist; so of a round's seats sending one by one,
    those accepted together are possible whenever the first ones were."""
    from scoring.engine.maal import check_added_tally, check_round_tallies

    def fits(tallies) -> bool:
        try:
            check_round_tallies(tallies)
        except MaalError:
            return False
        return True

    try:
        check_added_tally(others, "Aama", mine)
        accepted = True
    except MaalError:
        accepted = False
    if fits(others):
        assert accepted == fits({**others, "Aama": mine})
    elif not fits({"Aama": mine}):
        assert not accepted

"""Drawing seats: a card each from one deck, the highest deals first and the
others sit in the order of their cards."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from scoring.engine.seating import DECK, card_strength, draw_seats


def fixed(cards):
    """A choice that hands out `cards` in turn (each must still be in the deck)."""
    queue = list(cards)

    def choose(deck):
        card = queue.pop(0)
        assert card in deck
        return card

    return choose


def test_the_highest_card_deals_and_the_rest_sit_by_their_cards():
    drawn = draw_seats(["Aama", "Buwa", "Didi", "Dai"], fixed(["10H", "AS", "10S", "2C"]))
    assert drawn.cards == (("Buwa", "AS"), ("Didi", "10S"), ("Aama", "10H"), ("Dai", "2C"))
    assert drawn.dealer == "Buwa"
    assert drawn.seating == ("Buwa", "Didi", "Aama", "Dai")


def test_ace_is_high_and_suits_break_equal_ranks():
    assert card_strength("AC") > card_strength("KS")
    assert card_strength("KS") > card_strength("KH") > card_strength("KD") > card_strength("KC")
    assert len(set(DECK)) == 52


@given(st.integers(min_value=2, max_value=12), st.randoms(use_true_random=False))
def test_every_player_draws_one_card_of_one_deck(count, random):
    players = [f"P{i}" for i in range(count)]
    drawn = draw_seats(players, random.choice)
    assert sorted(drawn.seating) == sorted(players)
    cards = [card for _player, card in drawn.cards]
    assert len(set(cards)) == count and set(cards) <= set(DECK)
    assert cards == sorted(cards, key=card_strength, reverse=True)

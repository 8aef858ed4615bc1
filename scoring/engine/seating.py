"""Drawing seats: every player draws a card from one deck, the highest card
deals first, and the others sit round the table in the order of their cards,
highest first (ace high; on equal ranks, spades over hearts over diamonds over
clubs, so one deck never ties). The randomness is the caller's: the service
passes `secrets.choice`, a test a fixed choice."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .maal import SUITS

# Low to high.
DRAW_RANKS: tuple[str, ...] = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
DRAW_SUITS: tuple[str, ...] = ("C", "D", "H", "S")
DECK: tuple[str, ...] = tuple(rank + suit for rank in DRAW_RANKS for suit in SUITS)


def card_strength(card: str) -> tuple[int, int]:
    """ "KS" → (11, 3): the rank's place, then the suit's."""
    return DRAW_RANKS.index(card[:-1]), DRAW_SUITS.index(card[-1])


@dataclass(frozen=True, slots=True)
class Draw:
    """Each player's card, in the seating the draw gives: the first deals round 1."""

    cards: tuple[tuple[str, str], ...]  # (player, card)

    @property
    def dealer(self) -> str:
        return self.cards[0][0]

    @property
    def seating(self) -> tuple[str, ...]:
        return tuple(player for player, _card in self.cards)


def draw_seats(players: Sequence[str], choose: Callable[[list[str]], str]) -> Draw:
    """A card for each player from one deck, without putting any back (at most
    52 players, far above the session's limit), and the seating it gives."""
    if len(players) > len(DECK):
        raise ValueError(f"at most {len(DECK)} players can draw from one deck")
    deck = list(DECK)
    drawn = []
    for player in players:
        card = choose(deck)
        deck.remove(card)
        drawn.append((player, card))
    drawn.sort(key=lambda pair: card_strength(pair[1]), reverse=True)
    return Draw(tuple(drawn))

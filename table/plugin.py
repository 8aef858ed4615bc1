"""What the table of phones adds to scoring (scoring.plugins): the sessions a
co-scorer scores, listed on their home page, and the values a seat's own phone
sent, credited in a round's history."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from scoring.models import GameSession
from scoring.plugins import Context, Plugin

from .selectors import seat_sources


def co_scored(user_id: int) -> QuerySet[GameSession, Any]:
    """The sessions `user_id` co-scores (CoScorer), as ids for a subquery."""
    return GameSession.objects.filter(co_scorers__user_id=user_id).values("pk")


def home(user_id: int) -> Context:
    # Listed apart on the home page: their rounds only.
    return {
        "co_scored": list(
            GameSession.objects.filter(co_scorers__user_id=user_id)
            .order_by("-played_on", "-id")
            .values_list("pk", "name", "owner__username", "played_on")
        )
    }


PLUGIN = Plugin(
    name="table",
    scored_sessions=co_scored,
    home=home,
    round_sources=seat_sources,
    parts={
        "home": "table/_home_co_scored.html",
        "session_menu": "table/_session_menu.html",
        "round_new": "table/_round_seats.html",
    },
)

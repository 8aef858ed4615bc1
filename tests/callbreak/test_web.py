"""Call Break on the web: starting a game, deals saved once, refused with the
engine's words, edited, deleted and restored through the history, the result
(ranks, money, transfers) as the engine settles it, the watch page, import
and export, and the how-it-works page's worked game."""

from __future__ import annotations

import io
import json
from decimal import Decimal

import pytest
from django.urls import reverse
from hypothesis import HealthCheck, given, settings

from callbreak import selectors, services
from callbreak.engine import game_money, read_game, settle_document
from callbreak.engine.rules import Rules
from callbreak.models import CallBreakChange, CallBreakDeal, CallBreakGame
from scoring.models import SavedKey
from tests.callbreak.strategies import any_games

pytestmark = pytest.mark.django_db

PLAYERS = ["Asha", "Bikash", "Chandra", "Dipa"]
# CALLBREAK.md's C01: D +60, A -10, B -20, C -30 at a stake of 10.
C01 = [
    ((3, 4, 2, 3), (4, 4, 1, 4)),
    ((6, 1, 1, 2), (6, 4, 0, 3)),
    ((3, 1, 1, 1), (2, 9, 2, 0)),
    ((1, 1, 2, 7), (0, 0, 4, 9)),
    ((2, 1, 5, 2), (3, 1, 6, 3)),
]


def start_post(**overrides: str) -> dict[str, str]:
    data = {f"player_{seat}": name for seat, name in enumerate(PLAYERS)}
    data.update(
        {
            "stake": "10",
            "settlement": "by_rank",
            "deals_per_game": "5",
            "min_bid": "1",
            "max_bid": "13",
            "overtrick_tenths": "1",
            "excess_fails": "never",
            "fail_penalty": "bid",
            "bonus_bid_score": "thirteen",
            "rank_multipliers": "6, -1, -2, -3",
        }
    )
    data.update(overrides)
    return data


def deal_post(bids, tricks, key: str | None = None) -> dict[str, str]:
    data = {f"bid_{seat}": str(bid) for seat, bid in enumerate(bids)}
    data.update({f"tricks_{seat}": str(value) for seat, value in enumerate(tricks)})
    if key:
        data["save_key"] = key
    return data


@pytest.fixture
def game(owner):
    return services.start_game(owner=owner, players=PLAYERS, rules=Rules(), stake=Decimal("10"))


def play(client, game, deals=C01):
    url = reverse("callbreak_deal_new", args=[game.pk])
    for bids, tricks in deals:
        response = client.post(url, deal_post(bids, tricks), HTTP_ACCEPT="application/json")
        assert response.status_code == 200, response.content


def test_starting_a_game_keeps_the_options_that_differ(logged_in, owner):
    response = logged_in.post(
        reverse("callbreak_new"),
        start_post(overtrick_tenths="0", settlement="winner_takes", save_key="k" * 20),
    )
    game = CallBreakGame.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("callbreak_game", args=[game.pk])
    assert game.players == PLAYERS
    assert game.rules == {"overtrick_tenths": 0, "settlement": "winner_takes"}
    assert game.stake == Decimal("10.00")
    again = logged_in.post(reverse("callbreak_new"), start_post(save_key="k" * 20))
    assert again["Location"] == response["Location"]
    assert CallBreakGame.objects.count() == 1


def test_a_bad_start_names_the_field_and_the_problem(logged_in):
    response = logged_in.post(
        reverse("callbreak_new"),
        start_post(player_3="asha", stake="10.005", bonus_bid_threshold="14"),
    )
    assert response.status_code == 422
    text = response.content.decode()
    assert "Player 4: Asha is already a player of this game" in text
    assert "Bonus calls from: must be from 5 to 13, got 14" in text
    assert not CallBreakGame.objects.exists()


def test_engine_cross_checks_reach_the_form(logged_in):
    response = logged_in.post(
        reverse("callbreak_new"), start_post(deals_per_game="", target_score_tenths="")
    )
    assert response.status_code == 422
    assert "set exactly one of them" in response.content.decode()


def test_recent_names_are_offered(logged_in, game):
    text = logged_in.get(reverse("callbreak_new")).content.decode()
    for name in PLAYERS:
        assert f'data-name="{name}"' in text


def test_five_deals_settle_as_the_engine(logged_in, game):
    play(logged_in, game)
    table = selectors.game_table(game)
    assert table.ended
    assert selectors.money_by_player(game) == {
        "Asha": Decimal("-10.00"),
        "Bikash": Decimal("-20.00"),
        "Chandra": Decimal("-30.00"),
        "Dipa": Decimal("60.00"),
    }
    text = logged_in.get(reverse("callbreak_game", args=[game.pk])).content.decode()
    assert "Chandra pays Dipa 30.00" in text
    assert "Bikash pays Dipa 20.00" in text
    assert "Asha pays Dipa 10.00" in text
    assert 'id="cb-deal-form"' not in text
    assert settle_document(selectors.document_of(game))["money"]["Dipa"] == "60.00"


def test_money_by_player_is_none_while_the_game_goes_on(game, client):
    assert selectors.money_by_player(game) is None


def test_a_deal_is_answered_as_json_and_saved_once(logged_in, game):
    url = reverse("callbreak_deal_new", args=[game.pk])
    data = deal_post((3, 4, 2, 3), (4, 4, 1, 4), key="a" * 32)
    first = logged_in.post(url, data, HTTP_ACCEPT="application/json").json()
    again = logged_in.post(url, data, HTTP_ACCEPT="application/json").json()
    assert first["ok"] and again["ok"]
    assert first["scores"] == [31, 40, -20, 31] == again["scores"]
    assert first["number"] == 1 == again["number"]
    assert CallBreakDeal.objects.count() == 1
    assert SavedKey.objects.get().kind == "cb_deal"


def test_a_key_of_another_game_is_refused(logged_in, owner, game):
    other = services.start_game(owner=owner, players=PLAYERS, rules=Rules(), stake=Decimal("1"))
    data = deal_post((3, 4, 2, 3), (4, 4, 1, 4), key="b" * 32)
    logged_in.post(reverse("callbreak_deal_new", args=[game.pk]), data)
    response = logged_in.post(reverse("callbreak_deal_new", args=[other.pk]), data)
    assert response.status_code == 400
    assert other.deals.count() == 0


def test_tricks_not_13_are_refused_naming_the_deal(logged_in, game):
    url = reverse("callbreak_deal_new", args=[game.pk])
    response = logged_in.post(
        url, deal_post((3, 4, 2, 3), (4, 4, 1, 3)), HTTP_ACCEPT="application/json"
    )
    assert response.status_code == 422
    assert response.json()["messages"] == ["E_TRICKS_SUM: deal 1: tricks total 12, not 13"]
    page = logged_in.post(url, deal_post((0, 4, 2, 3), (4, 4, "x", 4)))
    assert page.status_code == 422
    text = page.content.decode()
    assert "Asha: must be from 1 to 13, got 0" in text
    assert "Chandra: must be a whole number, got &#x27;x&#x27;" in text
    assert not CallBreakDeal.objects.exists()


def test_no_deal_after_the_game_ended(logged_in, game):
    play(logged_in, game)
    response = logged_in.post(
        reverse("callbreak_deal_new", args=[game.pk]),
        deal_post((3, 4, 2, 3), (4, 4, 1, 4)),
        HTTP_ACCEPT="application/json",
    )
    assert response.status_code == 422
    assert response.json()["messages"] == ["E_DEALS: deal 6: the game ended after deal 5"]


def test_edit_delete_and_restore_through_the_history(logged_in, game):
    play(logged_in, game, C01[:2])
    first = game.deals.first()
    response = logged_in.post(
        reverse("callbreak_deal_edit", args=[game.pk, first.pk]),
        deal_post((3, 4, 2, 3), (5, 3, 1, 4)),
    )
    assert response.status_code == 302
    first.refresh_from_db()
    assert first.tricks == [5, 3, 1, 4]
    logged_in.post(reverse("callbreak_deal_delete", args=[game.pk, first.pk]))
    assert selectors.game_table(game).totals == (60, 13, -10, 21)
    changes = list(game.changes.all())
    assert [c.action for c in changes][:2] == [CallBreakChange.DELETED, CallBreakChange.EDITED]
    history = logged_in.get(reverse("callbreak_changes", args=[game.pk])).content.decode()
    assert "Deal deleted" in history and "Asha called 3, took 5" in history
    logged_in.post(reverse("callbreak_restore", args=[game.pk, changes[0].pk]))
    table = selectors.game_table(game)
    assert [row.deal.pk for row in table.rows] == [first.pk, first.pk + 1]
    assert table.rows[0].scores == (32, -40, -20, 31)
    # Undoing the edit: the deal as it was first entered.
    logged_in.post(reverse("callbreak_restore", args=[game.pk, changes[1].pk]))
    assert selectors.game_table(game).rows[0].scores == (31, 40, -20, 31)


def test_an_edit_that_breaks_the_deal_is_refused(logged_in, game):
    play(logged_in, game, C01[:1])
    deal = game.deals.get()
    response = logged_in.post(
        reverse("callbreak_deal_edit", args=[game.pk, deal.pk]),
        deal_post((3, 4, 2, 3), (9, 4, 1, 4)),
    )
    assert response.status_code == 422
    assert "E_TRICKS_SUM: deal 1: tricks total 18, not 13" in response.content.decode()


def test_another_users_game_is_not_found(client, django_user_model, game):
    other = django_user_model.objects.create_user("sita", password="pw-sita-12345")
    client.force_login(other)
    assert client.get(reverse("callbreak_game", args=[game.pk])).status_code == 404
    assert client.get(reverse("callbreak_export", args=[game.pk])).status_code == 404


def test_watch_page_and_its_poll(client, logged_in, game):
    play(logged_in, game, C01[:1])
    game.refresh_from_db()
    url = reverse("callbreak_watch", args=[game.watch_token])
    response = client.get(url)
    assert response.status_code == 200
    assert "3.1" in response.content.decode()
    live = reverse("callbreak_watch_live", args=[game.watch_token])
    etag = response.content.decode().split('data-etag="')[1].split('"')[0]
    assert client.get(live, HTTP_IF_NONE_MATCH=f'"{etag}"').status_code == 304
    play(logged_in, game, C01[1:2])
    assert client.get(live, HTTP_IF_NONE_MATCH=f'"{etag}"').status_code == 200
    assert client.get(reverse("callbreak_watch", args=["nope"])).status_code == 404


def test_export_then_import(logged_in, game):
    play(logged_in, game)
    exported = logged_in.get(reverse("callbreak_export", args=[game.pk]))
    document = json.loads(exported.content)
    assert document["format"] == "callbreak-game/1"
    upload = io.BytesIO(exported.content)
    upload.name = "game.json"
    response = logged_in.post(reverse("callbreak_import"), {"file": upload})
    assert response.status_code == 302
    imported = CallBreakGame.objects.exclude(pk=game.pk).get()
    assert selectors.money_by_player(imported) == selectors.money_by_player(game)


def test_a_refused_file_names_code_and_place(logged_in):
    document = {
        "format": "callbreak-game/1",
        "players": PLAYERS,
        "stake": "10",
        "deals": [{"bids": dict.fromkeys(PLAYERS, 3), "tricks": dict.fromkeys(PLAYERS, 3)}],
        "rules": {"deals_per_game": 1},
    }
    upload = io.BytesIO(json.dumps(document).encode())
    upload.name = "game.json"
    response = logged_in.post(reverse("callbreak_import"), {"file": upload})
    assert response.status_code == 422
    assert "E_TRICKS_SUM: deal 1: tricks total 12, not 13" in response.content.decode()
    bad = io.BytesIO(b"{nope")
    bad.name = "game.json"
    response = logged_in.post(reverse("callbreak_import"), {"file": bad})
    assert "not JSON" in response.content.decode()
    assert not CallBreakGame.objects.exists()


def test_how_it_works_shows_the_engines_worked_game(client):
    text = client.get(reverse("callbreak_how")).content.decode()
    result = settle_document(
        {
            "format": "callbreak-game/1",
            "players": PLAYERS,
            "stake": "10.00",
            "deals": [
                {
                    "bids": dict(zip(PLAYERS, bids, strict=True)),
                    "tricks": dict(zip(PLAYERS, tricks, strict=True)),
                }
                for bids, tricks in C01
            ],
        }
    )
    assert result["money"] == {
        "Asha": "-10.00",
        "Bikash": "-20.00",
        "Chandra": "-30.00",
        "Dipa": "60.00",
    }
    for transfer in result["transfers"]:
        assert f"{transfer['from']} pays {transfer['to']} {transfer['amount']}" in text
    assert "+60.00" in text and "-44.00" in text and "+208.00" in text
    assert "13.5" in text


def test_the_service_checks_the_names_as_a_document_would(owner):
    with pytest.raises(services.DealRefused) as refused:
        services.start_game(
            owner=owner, players=["Asha", "asha", "C", "D"], rules=Rules(), stake=Decimal("1")
        )
    assert str(refused.value).startswith("E_PLAYERS: ")
    assert not CallBreakGame.objects.exists()


def test_a_save_tells_the_live_channel_once_committed(
    logged_in, game, monkeypatch, django_capture_on_commit_callbacks
):
    from scoring.web import push

    told: list[int] = []
    monkeypatch.setattr(push, "publish", told.append)
    with django_capture_on_commit_callbacks(execute=True):
        play(logged_in, game, C01[:1])
    assert told == [services.stream_id(game)]
    # Carried as digits by Redis and PostgreSQL, and never a session's number.
    assert str(told[0]).isdigit() and len(str(told[0])) < 20
    assert told[0] > 10**15


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(document=any_games())
def test_any_game_saved_and_read_back_settles_as_its_document(owner, document):
    """A game under any house options, saved deal by deal through the services,
    reads back as its document and settles to the engine's money."""
    value = read_game(document)
    game = services.start_game(
        owner=owner, players=value.players, rules=value.rules, stake=value.stake
    )
    for deal in value.deals:
        services.add_deal(game=game, user=owner, bids=deal.bids, tricks=deal.tricks)
    assert selectors.money_by_player(game) == game_money(document)
    assert settle_document(selectors.document_of(game)) == settle_document(document)
    result = selectors.game_table(game).result
    assert result is not None and list(result.ranks) == list(
        settle_document(document)["ranks"].values()
    )


def test_delete_sent_twice_deletes_once(logged_in, game):
    play(logged_in, game, C01[:2])
    deal = game.deals.first()
    url = reverse("callbreak_deal_delete", args=[game.pk, deal.pk])
    first, again = logged_in.post(url), logged_in.post(url)
    assert first.status_code == again.status_code == 302
    assert game.changes.filter(action=CallBreakChange.DELETED).count() == 1


def test_the_game_page_is_kept_on_the_phone_and_the_watch_page_is_not(logged_in, client, game):
    page = logged_in.get(reverse("callbreak_game", args=[game.pk]))
    assert page["X-Offline-Cache"] == "1"
    watch = client.get(reverse("callbreak_watch", args=[game.watch_token]))
    assert "X-Offline-Cache" not in watch


def test_the_deal_address_opened_goes_to_the_game(logged_in, game):
    response = logged_in.get(reverse("callbreak_deal_new", args=[game.pk]))
    assert response.status_code == 302
    assert response["Location"] == reverse("callbreak_game", args=[game.pk])


def test_a_change_sent_again_is_answered_and_not_applied_twice(logged_in, game):
    """The phone's queue sends a change with its key; sent again after a later
    change, it is answered as the first was and does not undo the later one."""
    play(logged_in, game, C01[:1])
    deal = game.deals.get()
    url = reverse("callbreak_deal_edit", args=[game.pk, deal.pk])
    first = deal_post((3, 4, 2, 3), (5, 3, 1, 4), key="e" * 32)
    answer = logged_in.post(url, first, HTTP_ACCEPT="application/json")
    assert answer.json() == {"ok": True, "message": "Deal 1 changed."}
    logged_in.post(url, deal_post((3, 4, 2, 3), (4, 4, 1, 4), key="f" * 32))
    again = logged_in.post(url, first, HTTP_ACCEPT="application/json")
    assert again.json() == {"ok": True, "message": "Deal 1 changed."}
    deal.refresh_from_db()
    assert deal.tricks == [4, 4, 1, 4]
    assert game.changes.filter(action=CallBreakChange.EDITED).count() == 2
    refused = logged_in.post(
        url, deal_post((3, 4, 2, 3), (9, 4, 1, 4), key="g" * 32), HTTP_ACCEPT="application/json"
    )
    assert refused.status_code == 422
    assert refused.json()["messages"] == ["E_TRICKS_SUM: deal 1: tricks total 18, not 13"]

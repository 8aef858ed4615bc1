"""A table of phones: co-scorers with one-time invites, seat links that need no
log-in, seat entries kept in the database for the scorer's open round form,
the live checks that pages poll, `seat_links` and `make lan`'s addresses."""

from __future__ import annotations

import datetime
import json
import re
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scoring.models import GameSession, Round, RoundChange
from table.lan import lan_environment
from table.models import CoScorer, Invite, Seat, SeatEntry
from tests.web_helpers import WORKED, make_session, round_data

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.django_db


@pytest.fixture
def helper(django_user_model):
    return django_user_model.objects.create_user("sita", password="pw-sita-12345")


@pytest.fixture
def co_client(helper, session):
    CoScorer.objects.create(session=session, user=helper)
    client = Client()
    client.force_login(helper)
    return client


def _ids(session) -> dict[str, int]:
    return {p.name: p.pk for p in session.players.all()}


# --- Co-scorers ---------------------------------------------------------------------------------


def test_an_invite_is_accepted_once_by_a_logged_in_user(
    logged_in, session, helper, django_user_model
):
    logged_in.post(reverse("invite_create", args=[session.pk]))
    invite = Invite.objects.get(session=session)
    url = reverse("invite_accept", args=[invite.token])
    page = logged_in.get(reverse("scorers_manage", args=[session.pk])).content.decode()
    assert f"http://testserver{url}" in page  # the address the page was reached by
    # Signed out: the log-in page first, then back here.
    anonymous = Client().get(url)
    assert anonymous.status_code == 302 and anonymous["Location"].startswith(reverse("login"))
    sita = Client()
    sita.force_login(helper)
    assert "Accept" in sita.get(url).content.decode()
    answer = sita.post(url)
    assert answer.status_code == 302
    assert answer["Location"] == reverse("session_detail", args=[session.pk])
    assert list(CoScorer.objects.values_list("user__username", flat=True)) == ["sita"]
    # One time: used up, the link is a 404 for anyone else.
    other = django_user_model.objects.create_user("hari", password="pw-hari-12345")
    hari = Client()
    hari.force_login(other)
    assert hari.get(url).status_code == 404
    assert hari.post(url).status_code == 404
    assert CoScorer.objects.count() == 1


def test_an_invite_opened_logged_out_survives_signing_up(logged_in, session):
    """A new co-scorer with no account: the invite, the log-in page, "Sign up",
    and after signing up the invite again, ready to accept."""
    invite = Invite.objects.create(session=session)
    url = reverse("invite_accept", args=[invite.token])
    newcomer = Client()
    login_page = newcomer.get(url, follow=True)
    signup_link = f"{reverse('signup')}?next={url}"
    assert f'href="{signup_link}"' in login_page.content.decode()
    form = newcomer.get(signup_link).content.decode()
    assert f'<input type="hidden" name="next" value="{url}">' in form
    data = {
        "username": "gita",
        "password1": "pw-gita-long-12345",
        "password2": "pw-gita-long-12345",
    }
    answer = newcomer.post(reverse("signup"), {**data, "next": url})
    assert answer.status_code == 302 and answer["Location"] == url
    assert "Accept" in newcomer.get(url).content.decode()
    newcomer.post(url)
    assert list(CoScorer.objects.values_list("user__username", flat=True)) == ["gita"]


def test_signing_up_never_sends_the_reader_to_another_site(client):
    data = {
        "username": "gita",
        "password1": "pw-gita-long-12345",
        "password2": "pw-gita-long-12345",
    }
    answer = client.post(reverse("signup"), {**data, "next": "https://evil.example/"})
    assert answer.status_code == 302 and answer["Location"] == reverse("home")


def test_a_co_scorers_sessions_list_shows_the_session_at_once(logged_in, session, helper):
    sita = Client()
    sita.force_login(helper)
    home = sita.get(reverse("home")).content.decode()
    assert "Tihar night" not in home  # the list is rendered, and kept for this version
    invite = Invite.objects.create(session=session)
    sita.post(reverse("invite_accept", args=[invite.token]))
    home = sita.get(reverse("home")).content.decode()
    assert "Sessions you score with others" in home
    assert f'href="{reverse("session_detail", args=[session.pk])}">Tihar night</a>' in home


def test_a_revoked_invite_is_a_404(logged_in, session, helper):
    logged_in.post(reverse("invite_create", args=[session.pk]))
    invite = Invite.objects.get()
    logged_in.post(reverse("invite_revoke", args=[session.pk, invite.pk]))
    sita = Client()
    sita.force_login(helper)
    assert sita.post(reverse("invite_accept", args=[invite.token])).status_code == 404
    assert not CoScorer.objects.exists()


def test_the_owner_opening_their_own_invite_changes_nothing(logged_in, session):
    invite = Invite.objects.create(session=session)
    url = reverse("invite_accept", args=[invite.token])
    assert "your own session" in logged_in.get(url).content.decode()
    logged_in.post(url)
    assert Invite.objects.filter(pk=invite.pk).exists()
    assert not CoScorer.objects.exists()


def test_a_co_scorer_enters_edits_deletes_and_restores_rounds(co_client, session):
    answer = co_client.post(
        reverse("round_new", args=[session.pk]),
        {**round_data(session, WORKED, "Didi"), "save_key": "co-key-0001"},
    )
    assert answer.status_code == 302
    round_ = Round.objects.get(session=session)
    edit = round_data(session, {**WORKED, "Aama": ("seen", 6)}, "Didi")
    answer = co_client.post(
        reverse("round_edit", args=[session.pk, round_.pk]), {**edit, "version": "1"}
    )
    assert answer.status_code == 302
    co_client.post(reverse("round_delete", args=[session.pk, round_.pk]))
    assert not Round.objects.exists()
    deleted = RoundChange.objects.get(action="delete")
    co_client.post(reverse("round_restore", args=[session.pk, deleted.pk]))
    assert Round.objects.filter(session=session).count() == 1
    # The history names her for every change.
    actions = list(RoundChange.objects.order_by("id").values_list("action", "user__username"))
    assert actions == [
        ("create", "sita"),
        ("edit", "sita"),
        ("delete", "sita"),
        ("restore", "sita"),
    ]
    page = co_client.get(reverse("session_changes", args=[session.pk])).content.decode()
    assert "sita" in page


def test_a_co_scorers_session_page_shows_rounds_not_the_owners_links(co_client, session):
    page = co_client.get(reverse("session_detail", args=[session.pk])).content.decode()
    assert reverse("round_new", args=[session.pk]) in page
    assert reverse("session_changes", args=[session.pk]) in page
    for owner_only in ("session_rules", "session_edit", "session_share", "seats_manage"):
        assert reverse(owner_only, args=[session.pk]) not in page


def test_no_link_on_a_co_scorers_pages_leads_to_a_404(co_client, session):
    co_client.post(reverse("round_new", args=[session.pk]), round_data(session, WORKED, "Didi"))
    round_ = Round.objects.get()
    pages = [
        reverse("session_detail", args=[session.pk]),
        reverse("round_detail", args=[session.pk, round_.pk]),
        reverse("round_new", args=[session.pk]),
        reverse("session_changes", args=[session.pk]),
    ]
    checked = set()
    for page in pages:
        html = co_client.get(page).content.decode()
        for link in re.findall(r'href="(/[^"#?]*)', html):
            if link.startswith("/static/") or link in checked:
                continue
            checked.add(link)
            assert co_client.get(link).status_code != 404, (page, link)
    assert reverse("settle_up", args=[session.pk]) not in checked  # the owner's money
    assert reverse("round_new", args=[session.pk]) in checked


@pytest.mark.parametrize(
    "name",
    [
        "session_edit",
        "session_delete",
        "session_rules",
        "session_share",
        "share_create",
        "player_add",
        "seats_manage",
        "seats_make",
        "scorers_manage",
        "invite_create",
        "session_export",
        "settle_up",
    ],
)
def test_a_co_scorer_cannot_touch_the_session_itself(co_client, session, name):
    url = reverse(name, args=[session.pk])
    assert co_client.get(url).status_code in (404, 405)
    assert co_client.post(url, {"name": "Mine now", "preset": "murder"}).status_code == 404
    session.refresh_from_db()
    assert session.name == "Tihar night"
    assert GameSession.objects.filter(pk=session.pk).exists()
    assert not Seat.objects.exists() and not Invite.objects.exists()


def test_a_removed_co_scorer_is_refused_at_once(co_client, logged_in, session):
    co = CoScorer.objects.get()
    logged_in.post(reverse("co_scorer_remove", args=[session.pk, co.pk]))
    assert co_client.get(reverse("session_detail", args=[session.pk])).status_code == 404
    answer = co_client.post(
        reverse("round_new", args=[session.pk]), round_data(session, WORKED, "Didi")
    )
    assert answer.status_code == 404
    assert not Round.objects.exists()


def test_a_co_scorer_of_one_session_is_nobody_in_another(co_client, owner):
    other = make_session(owner, name="Dashain")
    assert co_client.get(reverse("session_detail", args=[other.pk])).status_code == 404
    assert co_client.get(reverse("round_new", args=[other.pk])).status_code == 404


def test_two_scorers_saving_at_once_get_what_one_scorer_gets(co_client, logged_in, session):
    """One-time keys are each scorer's own; an edit opened before the other's edit
    is refused with a link to the round as it is now."""
    data = round_data(session, WORKED, "Didi")
    first = logged_in.post(
        reverse("round_new", args=[session.pk]), {**data, "save_key": "same-key-01"}
    )
    again = logged_in.post(
        reverse("round_new", args=[session.pk]), {**data, "save_key": "same-key-01"}
    )
    assert first.status_code == again.status_code == 302
    assert Round.objects.count() == 1
    # Her key is hers: the same string from her phone is a new round of hers.
    co_client.post(reverse("round_new", args=[session.pk]), {**data, "save_key": "same-key-01"})
    co_client.post(reverse("round_new", args=[session.pk]), {**data, "save_key": "same-key-01"})
    assert Round.objects.count() == 2
    round_ = Round.objects.order_by("number").first()
    edit_url = reverse("round_edit", args=[session.pk, round_.pk])
    mine = round_data(session, {**WORKED, "Aama": ("seen", 6)}, "Didi")
    hers = round_data(session, {**WORKED, "Aama": ("seen", 9)}, "Didi")
    assert logged_in.post(edit_url, {**mine, "version": "1"}).status_code == 302
    stale = co_client.post(edit_url, {**hers, "version": "1"})
    assert stale.status_code == 409
    html = stale.content.decode()
    assert 'id="conflict-reload"' in html and f'href="{edit_url}"' in html
    round_.refresh_from_db()
    assert round_.entries.get(player__name="Aama").maal == 6


# --- Seats --------------------------------------------------------------------------------------


@pytest.fixture
def seats(logged_in, session):
    logged_in.post(reverse("seats_make", args=[session.pk]))
    return {s.player.name: s for s in Seat.objects.select_related("player")}


def _seat_url(seat: Seat) -> str:
    return reverse("seat_page", args=[seat.token])


def _send(seat: Seat, position: int = 1, client: Client | None = None, **fields) -> object:
    pid = seat.player_id
    data = {"position": str(position)}
    data.update({f"p-{pid}-{k}": v for k, v in fields.items()})
    return (client or Client()).post(_seat_url(seat), data, headers={"X-Seat-Send": "1"})


def test_the_seats_page_has_a_link_and_qr_code_per_player(logged_in, session, seats, settings):
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "192.168.1.20"]
    page = logged_in.get(
        reverse("seats_manage", args=[session.pk]), HTTP_HOST="192.168.1.20:8000"
    ).content.decode()
    for seat in seats.values():
        assert f'value="http://192.168.1.20:8000{_seat_url(seat)}"' in page
    assert page.count('<figure class="share-qr"><svg') == 4
    assert "127.0.0.1" not in page
    assert len({s.token for s in seats.values()}) == 4
    assert all(len(s.token) >= 32 for s in seats.values())


def test_a_seat_page_needs_no_log_in_and_shows_that_players_form(session, seats):
    aama = seats["Aama"]
    page = Client().get(_seat_url(aama)).content.decode()
    pid = aama.player_id
    for field in ("status", "maal", "tunnel", "dhoos", "dublees", "maal_tally"):
        assert f'name="p-{pid}-{field}"' in page
    assert f'name="p-{seats["Buwa"].player_id}-maal"' not in page
    assert "Round 1" in page


def test_a_seats_entry_is_kept_for_the_scorers_open_form(logged_in, session, seats):
    answer = _send(seats["Buwa"], status="unseen", maal="2")
    assert answer.status_code == 200
    assert answer.json()["ok"] is True
    entry = SeatEntry.objects.get()
    assert (entry.player.name, entry.position, entry.status, entry.maal) == ("Buwa", 1, "unseen", 2)
    feed = logged_in.get(reverse("seat_feed", args=[session.pk]) + "?position=1")
    assert feed.status_code == 200
    (sent,) = feed.json()["entries"]
    assert sent["name"] == "Buwa" and sent["status"] == "unseen" and sent["maal"] == 2
    # Unchanged since: a bare 304.
    again = logged_in.get(
        reverse("seat_feed", args=[session.pk]) + "?position=1",
        HTTP_IF_NONE_MATCH=feed["ETag"],
    )
    assert again.status_code == 304
    # Sent again (a change of mind): replaced, and the feed moves on.
    _send(seats["Buwa"], status="unseen", maal="3")
    assert SeatEntry.objects.get().maal == 3
    moved = logged_in.get(
        reverse("seat_feed", args=[session.pk]) + "?position=1",
        HTTP_IF_NONE_MATCH=feed["ETag"],
    )
    assert moved.status_code == 200 and moved.json()["entries"][0]["maal"] == 3
    # Nothing is saved to the ledger from a seat alone.
    assert not Round.objects.exists()


def test_the_feed_says_each_fields_kind_and_the_form_names_of_its_player(logged_in, session, seats):
    """A seat entry's fields are declared once (table/entry.py): the feed sends
    them with their kinds, and seat-feed.js fills the round form from that."""
    _send(seats["Buwa"], status="unseen", maal="2", dhoos="on")
    answer = logged_in.get(reverse("seat_feed", args=[session.pk]) + "?position=1").json()
    assert answer["fields"] == [
        {"name": "status", "kind": "choice"},
        {"name": "maal", "kind": "points"},
        {"name": "tunnel", "kind": "points"},
        {"name": "dhoos", "kind": "flag"},
        {"name": "dublees", "kind": "flag"},
        {"name": "maal_tally", "kind": "tally"},
        {"name": "tiplu", "kind": "card"},
    ]
    (sent,) = answer["entries"]
    pid = seats["Buwa"].player_id
    assert sent["prefix"] == f"p-{pid}-"
    assert {f["name"]: sent[f["name"]] for f in answer["fields"]} == {
        "status": "unseen",
        "maal": 2,
        "tunnel": 0,
        "dhoos": True,
        "dublees": False,
        "maal_tally": "",
        "tiplu": "",
    }
    script = (ROOT / "static" / "js" / "seat-feed.js").read_text(encoding="utf-8")
    for field in answer["fields"]:
        assert f'"{field["name"]}"' not in script, field


def test_the_round_form_follows_the_seat_feed(logged_in, session):
    page = logged_in.get(reverse("round_new", args=[session.pk])).content.decode()
    assert 'data-seat-feed="' + reverse("seat_feed", args=[session.pk]) + '?position=1"' in page
    assert "js/seat-feed" in page


def test_seat_entries_refused_with_the_round_forms_messages(session, seats):
    answer = _send(seats["Aama"], maal="five", tunnel="-2")
    assert answer.status_code == 422
    assert answer.json()["errors"] == {
        "maal": ["maal: must be a whole number, got 'five'"],
        "tunnel": ["tunnel: must not be negative, got -2"],
    }
    answer = _send(seats["Aama"], maal="20000")
    assert answer.json()["errors"] == {
        "maal": ["maal: 20000 is more than 10,000 points; check the number"]
    }
    assert not SeatEntry.objects.exists()


def test_a_count_for_a_round_saved_meanwhile_is_refused(logged_in, session, seats):
    logged_in.post(reverse("round_new", args=[session.pk]), round_data(session, WORKED, "Didi"))
    answer = _send(seats["Aama"], position=1, maal="5")
    assert answer.status_code == 409
    assert answer.json()["errors"] == {
        "round": [
            "Round 1 was saved meanwhile, so this count was not sent. Enter your count for round 2."
        ]
    }
    assert _send(seats["Aama"], position=2, maal="5").status_code == 200
    assert SeatEntry.objects.get().position == 2


def test_the_calculators_card_check_covers_every_seat_together(session, seats):
    # A tiplu each from two seats, and a third: only two are in play (three
    # decks, the one turned up lies under the stock).
    one = json.dumps({"tiplu": 1})  # 3 points under pagat
    assert _send(seats["Aama"], maal="3", maal_tally=one, tiplu="QH").status_code == 200
    assert _send(seats["Buwa"], maal="3", maal_tally=one, tiplu="QH").status_code == 200
    refused = _send(seats["Didi"], maal="3", maal_tally=one, tiplu="QH")
    assert refused.status_code == 422
    (message,) = refused.json()["errors"]["maal"]
    assert message == "maal: 3 tiplu held by Aama 1, Buwa 1, Didi 1: only 2 in play"
    assert SeatEntry.objects.count() == 2


def test_a_tally_must_agree_with_the_points_beside_it(session, seats):
    refused = _send(seats["Aama"], maal="9", maal_tally=json.dumps({"tiplu": 1}), tiplu="QH")
    assert refused.status_code == 422
    assert refused.json()["errors"]["maal"][0].startswith("maal: the calculator counted maal 3")


def test_a_seat_cannot_reach_another_players_entry_or_session(owner, session, seats):
    _send(seats["Buwa"], status="unseen", maal="2")
    aama = Client().get(_seat_url(seats["Aama"])).content.decode()
    assert f'name="p-{seats["Buwa"].player_id}' not in aama
    # Posting Buwa's fields through Aama's seat changes only Aama's entry.
    buwa = seats["Buwa"].player_id
    Client().post(
        _seat_url(seats["Aama"]),
        {"position": "1", f"p-{buwa}-maal": "40", "maal": "4"},
        headers={"X-Seat-Send": "1"},
    )
    assert dict(SeatEntry.objects.values_list("player__name", "maal")) == {"Buwa": 2, "Aama": 4}
    # The feed is the scorer's: a seat (no log-in) is sent to log in.
    feed = Client().get(reverse("seat_feed", args=[session.pk]) + "?position=1")
    assert feed.status_code == 302


def test_made_up_revoked_and_deleted_seats_are_404(logged_in, session, seats):
    made_up = reverse("seat_page", args=["x" * 32])
    assert Client().get(made_up).status_code == 404
    aama = seats["Aama"]
    old = _seat_url(aama)
    logged_in.post(reverse("seat_renew", args=[session.pk, aama.pk]))
    for url in (old, old + "live/", old + "maal/"):
        assert Client().get(url).status_code in (404, 405)
        assert Client().post(url, {"position": "1", "maal": "3"}).status_code == 404
    renewed = Seat.objects.get(player=aama.player)
    assert Client().get(_seat_url(renewed)).status_code == 200
    logged_in.post(reverse("seat_revoke", args=[session.pk, renewed.pk]))
    assert Client().get(_seat_url(renewed)).status_code == 404
    buwa = _seat_url(seats["Buwa"])
    logged_in.post(reverse("session_delete", args=[session.pk]))
    assert Client().get(buwa).status_code == 404
    assert Client().get(buwa + "live/").status_code == 404


def test_a_seat_follows_its_session_and_sees_the_result(logged_in, session, seats):
    seat = seats["Dai"]
    live = Client().get(_seat_url(seat) + "live/")
    assert live.status_code == 200
    etag = live["ETag"]
    # The page carries the same validator its polls are answered by.
    first = Client().get(_seat_url(seat)).content.decode()
    assert f'data-follow-etag="{etag.strip(chr(34))}"' in first
    assert Client().get(_seat_url(seat) + "live/", HTTP_IF_NONE_MATCH=etag).status_code == 304
    logged_in.post(reverse("round_new", args=[session.pk]), round_data(session, WORKED, "Didi"))
    moved = Client().get(_seat_url(seat) + "live/", HTTP_IF_NONE_MATCH=etag)
    assert moved.status_code == 200
    page = Client().get(_seat_url(seat)).content.decode()
    assert "Round 1: result" in page and "Didi won" in page
    assert re.search(r'class="seat-me"><td>Dai</td>\s*<td class="num neg">-17</td>', page)
    assert "Round 2" in page
    assert "You sat this round out." not in page
    # A player who sat the round out is told so beside its result.
    sat_out = round_data(session, {k: v for k, v in WORKED.items() if k != "Dai"}, "Didi")
    logged_in.post(reverse("round_new", args=[session.pk]), sat_out)
    assert "You sat this round out." in Client().get(_seat_url(seat)).content.decode()


def test_the_seats_maal_calculator_counts_through_the_seat(session, seats):
    url = reverse("seat_maal", args=[seats["Aama"].token])
    answer = Client().post(url, {"tiplu_rank": "Q", "tiplu_suit": "H", "n-tiplu": "1"})
    assert answer.status_code == 200
    assert 'data-maal="3"' in answer.content.decode()


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("²", "maal: must be a whole number, got '²'"),
        ("٣", "maal: must be a whole number, got '٣'"),
        ("1_000", "maal: must be a whole number, got '1_000'"),
        ("9" * 5000, "maal: 5,000 digits is more than 10,000 points; check the number"),
    ],
)
def test_a_seats_numbers_are_read_by_the_round_forms_parser(session, seats, typed, message):
    answer = _send(seats["Aama"], maal=typed)
    assert answer.status_code == 422
    assert answer.json()["errors"] == {"maal": [message]}
    # A Nepali keyboard's digits are the number they show, as on the round form.
    assert _send(seats["Aama"], maal="५").status_code == 200
    assert SeatEntry.objects.get().maal == 5


@pytest.mark.parametrize("position", ["²", "٣", "1_0", "9" * 5000, ""])
def test_a_seats_round_that_is_no_number_is_refused_not_a_500(session, seats, position):
    seat = seats["Aama"]
    answer = Client().post(
        _seat_url(seat),
        {"position": position, f"p-{seat.player_id}-maal": "3"},
        headers={"X-Seat-Send": "1"},
    )
    assert answer.status_code == 422
    assert answer.json()["errors"] == {
        "round": [
            "This count does not say which round it is for; reload the page and send it again."
        ]
    }
    page = Client().post(_seat_url(seat), {"position": position})
    assert page.status_code == 422
    assert "This count does not say which round it is for" in page.content.decode()
    assert not SeatEntry.objects.exists()


@pytest.mark.parametrize("position", ["²", "٣", "1_0", "9" * 5000, "0", "-1"])
def test_the_seat_feeds_round_that_is_no_number_is_a_404(logged_in, session, position):
    feed = logged_in.get(reverse("seat_feed", args=[session.pk]), {"position": position})
    assert feed.status_code == 404


def test_a_seat_sends_at_most_thirty_a_minute(session, seats, monkeypatch):
    now = [1_800_000_000.0]
    monkeypatch.setattr("accounts.ratelimit.time.time", lambda: now[0])
    aama, buwa = seats["Aama"], seats["Buwa"]
    answers = [_send(aama, maal=str(n % 10)).status_code for n in range(30)]
    assert answers == [200] * 30
    refused = _send(aama, maal="7")
    assert refused.status_code == 429
    assert refused["Retry-After"] == "60"
    assert refused.json() == {
        "ok": False,
        "errors": {
            "round": ["Too many sends from this seat: wait 60 seconds and send your count again."]
        },
        "retry_after": 60,
    }
    assert SeatEntry.objects.get(player=aama.player).maal == 9  # the 30th, not the 31st
    # The page without its script says so too, in the form.
    page = Client().post(_seat_url(aama), {"position": "1", f"p-{aama.player_id}-maal": "7"})
    assert page.status_code == 429 and page["Retry-After"] == "60"
    assert "Too many sends from this seat: wait 60 seconds" in page.content.decode()
    # Another seat is its own count; and a minute later this one sends again.
    assert _send(buwa, maal="2").status_code == 200
    now[0] += 61
    assert _send(aama, maal="7").status_code == 200
    assert SeatEntry.objects.get(player=aama.player).maal == 7


def test_another_seats_impossible_tally_blocks_only_that_seat(session, seats):
    one, two = json.dumps({"tiplu": 1}), json.dumps({"tiplu": 2})
    # Two seats sent at the same moment: each alone possible, together three
    # tiplu where two are in play. Which one is wrong the server cannot tell.
    for name, tally, maal in (("Aama", {"tiplu": 2}, 7), ("Buwa", {"tiplu": 1}, 3)):
        SeatEntry.objects.create(
            session=session,
            player=seats[name].player,
            position=1,
            maal=maal,
            maal_tally=tally,
            tiplu="QH",
        )
    # Didi's true count (no tiplu, one poplu) is not theirs to answer for.
    poplu = json.dumps({"poplu": 1})
    assert _send(seats["Didi"], maal="2", maal_tally=poplu, tiplu="QH").status_code == 200
    # Nor is a tiplu she adds to a card already over: the scorer's form checks them all.
    assert _send(seats["Didi"], maal="3", maal_tally=one, tiplu="QH").status_code == 200
    # A seat that sends again is checked against the others: Aama's two are
    # one too many beside Buwa's and Didi's, and say so.
    refused = _send(seats["Aama"], maal="7", maal_tally=two, tiplu="QH")
    assert refused.status_code == 422
    assert refused.json()["errors"]["maal"] == [
        "maal: 4 tiplu held by Buwa 1, Didi 1, Aama 2: only 2 in play"
    ]


def test_a_revoked_seats_count_leaves_the_scorers_feed(logged_in, session, seats):
    assert _send(seats["Aama"], maal="5").status_code == 200
    assert _send(seats["Buwa"], maal="2").status_code == 200
    url = reverse("seat_feed", args=[session.pk]) + "?position=1"
    before = logged_in.get(url)
    assert [e["name"] for e in before.json()["entries"]] == ["Aama", "Buwa"]
    logged_in.post(reverse("seat_revoke", args=[session.pk, seats["Aama"].pk]))
    after = logged_in.get(url, HTTP_IF_NONE_MATCH=before["ETag"])
    assert after.status_code == 200
    assert [e["name"] for e in after.json()["entries"]] == ["Buwa"]


def test_seat_links_prints_name_tab_url(session):
    out = StringIO()
    call_command("seat_links", str(session.pk), "--base", "http://192.168.1.20:8000", stdout=out)
    lines = out.getvalue().splitlines()
    seats = {s.player.name: s.token for s in Seat.objects.select_related("player")}
    assert lines == [
        f"{name}\thttp://192.168.1.20:8000/t/{seats[name]}/"
        for name in ("Aama", "Buwa", "Didi", "Dai")
    ]
    # Again: the same links, none made twice.
    out2 = StringIO()
    call_command("seat_links", str(session.pk), "--base", "http://192.168.1.20:8000", stdout=out2)
    assert out2.getvalue().splitlines() == lines


# --- Live pages --------------------------------------------------------------------------------


def test_the_session_page_follows_changes_by_conditional_requests(logged_in, co_client, session):
    url = reverse("session_live", args=[session.pk])
    first = logged_in.get(url)
    assert first.status_code == 200
    page = logged_in.get(reverse("session_detail", args=[session.pk])).content.decode()
    etag = first["ETag"].strip('"')
    assert f'data-follow-etag="{etag}"' in page
    assert logged_in.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    assert co_client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    co_page = co_client.get(reverse("session_detail", args=[session.pk])).content.decode()
    assert f'data-follow-etag="{etag}"' in co_page
    co_client.post(reverse("round_new", args=[session.pk]), round_data(session, WORKED, "Didi"))
    assert logged_in.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 200


# --- make lan ----------------------------------------------------------------------------------


def test_lan_settings_add_this_machines_addresses():
    env = lan_environment(["192.168.1.20", "10.0.0.5"], 8000, {})
    assert env == {
        "ALLOWED_HOSTS": "localhost,127.0.0.1,[::1],192.168.1.20,10.0.0.5",
        "CSRF_TRUSTED_ORIGINS": "http://192.168.1.20:8000,http://10.0.0.5:8000",
    }
    kept = lan_environment(["192.168.1.20"], 8080, {"ALLOWED_HOSTS": "scores.example.org"})
    assert kept["ALLOWED_HOSTS"] == "scores.example.org,192.168.1.20"


def test_a_phone_on_the_wifi_is_let_in_by_the_lan_settings(client, settings, session, owner):
    settings.ALLOWED_HOSTS = lan_environment(["192.168.1.20"], 8000, {})["ALLOWED_HOSTS"].split(",")
    client.force_login(owner)
    page = client.get(reverse("session_share", args=[session.pk]), HTTP_HOST="192.168.1.20:8000")
    assert page.status_code == 200
    client.post(reverse("share_create", args=[session.pk]), HTTP_HOST="192.168.1.20:8000")
    page = client.get(reverse("session_share", args=[session.pk]), HTTP_HOST="192.168.1.20:8000")
    assert 'value="http://192.168.1.20:8000/s/' in page.content.decode()


# --- Member links: one per member of a group, for every evening -----------------------------------


@pytest.fixture
def family(owner):
    """A group of four with one evening played yesterday and done, no rounds."""
    from groups import services as groups

    group = groups.create_group(
        owner=owner, name="Pokhara family", currency="NPR", members=["Aama", "Buwa", "Didi", "Dai"]
    )
    return group


def _evening(owner, group, name, played_on, players=("Aama", "Buwa", "Didi", "Dai")):
    from groups import services as groups

    session = make_session(owner, players=players, name=name)
    GameSession.objects.filter(pk=session.pk).update(played_on=played_on)
    session.refresh_from_db()
    groups.add_evening(group=group, session=session)
    return session


def _links(group) -> dict[str, str]:
    out = StringIO()
    call_command("member_links", str(group.pk), "--base", "http://192.168.1.20:8000", stdout=out)
    return dict(line.split("\t") for line in out.getvalue().splitlines())


def test_member_links_prints_name_tab_url_per_member(family):
    links = _links(family)
    assert list(links) == ["Aama", "Buwa", "Didi", "Dai"]
    assert all(
        re.fullmatch(r"http://192\.168\.1\.20:8000/m/[A-Za-z0-9_-]{32}/", u) for u in links.values()
    )
    assert _links(family) == links  # made once: the same links every time
    out = StringIO()
    call_command("member_links", "Pokhara family", "--base", "http://h:1", stdout=out)
    assert out.getvalue().splitlines()[0].split("\t")[1].startswith("http://h:1/m/")


def test_member_links_refuses_an_unknown_group_in_one_line():
    with pytest.raises(CommandError) as refused:
        call_command("member_links", "Nobody's family")
    assert str(refused.value) == 'group: no group "Nobody\'s family"'
    assert refused.value.returncode == 2


def test_a_member_link_follows_the_newest_evening(owner, family):
    today = timezone.localdate()
    links = _links(family)
    aama = links["Aama"].removeprefix("http://192.168.1.20:8000")
    phone = Client()
    # Before any evening: said so, no round anywhere.
    page = phone.get(aama).content.decode()
    assert "No evening is being played now" in page and "Round 1" not in page
    # The first evening starts: Aama's seat in it.
    first = _evening(owner, family, "Tihar 1", today)
    page = phone.get(aama).content.decode()
    assert "Tihar 1" in page and "Round 1" in page and f'name="evening" value="{first.pk}"' in page
    seat = Seat.objects.get(player__session=first, player__name="Aama")
    assert f'action="{aama}"' in page  # counts go through the lasting link
    pid = seat.player_id
    sent = phone.post(
        aama,
        {"position": "1", "evening": str(first.pk), f"p-{pid}-maal": "5"},
        headers={"X-Seat-Send": "1"},
    )
    assert sent.json()["ok"] is True
    assert SeatEntry.objects.get().player_id == pid
    # The evening's own seat link keeps working beside it.
    assert phone.get(reverse("seat_page", args=[seat.token])).status_code == 200
    # The night ends: a day later and quiet for hours, the link says so.
    GameSession.objects.filter(pk=first.pk).update(
        played_on=today - datetime.timedelta(days=1),
        updated_at=timezone.now() - datetime.timedelta(hours=9),
    )
    page = phone.get(aama).content.decode()
    assert "No evening is being played now" in page and "Round 1" not in page
    assert "How the last evening ended: Tihar 1" in page
    # The next evening starts: the same link opens Aama's seat in it.
    second = _evening(owner, family, "Tihar 2", today)
    page = phone.get(aama).content.decode()
    assert "Tihar 2" in page and f'name="evening" value="{second.pk}"' in page
    # A count kept on the phone from the night before is refused, saying why.
    late = phone.post(
        aama,
        {"position": "1", "evening": str(first.pk), f"p-{pid}-maal": "5"},
        headers={"X-Seat-Send": "1"},
    )
    assert late.status_code == 409
    assert late.json()["errors"]["round"] == [
        "A new evening began meanwhile, so this count was not sent. "
        "Enter your count for round 1 of “Tihar 2”."
    ]


def test_a_member_link_polls_with_the_evening_it_opens(owner, family):
    today = timezone.localdate()
    aama = _links(family)["Aama"].removeprefix("http://192.168.1.20:8000")
    live = aama + "live/"
    between = Client().get(live)
    assert between.status_code == 200
    assert Client().get(live, HTTP_IF_NONE_MATCH=between["ETag"]).status_code == 304
    _evening(owner, family, "Tihar 1", today)
    assert Client().get(live, HTTP_IF_NONE_MATCH=between["ETag"]).status_code == 200


def test_a_member_not_playing_tonight_is_told_so(owner, family):
    _evening(owner, family, "Tihar 1", timezone.localdate(), players=("Aama", "Buwa", "Didi"))
    page = Client().get(_links(family)["Dai"].removeprefix("http://192.168.1.20:8000"))
    assert "Dai is not a player of this evening." in page.content.decode()


def test_a_made_up_renewed_or_revoked_member_link_is_a_404(
    logged_in, family, django_assert_num_queries
):
    with django_assert_num_queries(0):
        assert Client().get("/m/not-a-token/").status_code == 404
        assert Client().get("/m/" + "x" * 33 + "/").status_code == 404
        assert Client().get("/m/not-a-token/live/").status_code == 404
    assert Client().get("/m/" + "A" * 32 + "/").status_code == 404
    links = _links(family)
    old = links["Buwa"].removeprefix("http://192.168.1.20:8000")
    buwa = family.members.get(name="Buwa")
    logged_in.post(reverse("group_link_renew", args=[family.pk, buwa.pk]))
    assert Client().get(old).status_code == 404
    new = _links(family)["Buwa"].removeprefix("http://192.168.1.20:8000")
    assert new != old and Client().get(new).status_code == 200
    logged_in.post(reverse("group_link_revoke", args=[family.pk, buwa.pk]))
    assert Client().get(new).status_code == 404
    assert Client().get(new + "live/").status_code == 404


def test_the_links_page_is_one_sheet_of_codes(logged_in, family, settings):
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "192.168.1.20"]
    url = reverse("group_links", args=[family.pk])
    page = logged_in.get(url, HTTP_HOST="192.168.1.20:8000").content.decode()
    assert "Make member links" in page and "share-qr" not in page
    logged_in.post(reverse("group_links_make", args=[family.pk]), HTTP_HOST="192.168.1.20:8000")
    page = logged_in.get(url, HTTP_HOST="192.168.1.20:8000").content.decode()
    assert page.count('<figure class="share-qr"><svg') == 4
    assert "Make member links" not in page
    for link in _links(family).values():
        assert f'value="{link}"' in page


@pytest.mark.parametrize("typed", ["²", "٣", "５", "1_000", "-3", "9" * 5000, "10001", "x" * 40])
def test_a_seat_and_the_round_form_read_points_with_one_reader(logged_in, session, seats, typed):
    """scoring/forms/points.py reads points on both: the same typing is refused
    with the same words on a seat's phone as on the scorer's form (never a 500)."""
    from html import unescape

    sent = _send(seats["Aama"], maal=typed)
    assert sent.status_code == 422
    (seat_says,) = sent.json()["errors"]["maal"]
    aama = seats["Aama"].player_id
    data = round_data(session, WORKED, "Didi") | {f"p-{aama}-maal": typed}
    form = logged_in.post(reverse("round_new", args=[session.pk]), data)
    assert form.status_code == 422
    assert seat_says.startswith("maal: ")
    assert f"Aama, {seat_says}" in unescape(form.content.decode())

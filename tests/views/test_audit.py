"""The audit trail: every change to a round is recorded with who, when, and the
round before and after; the history pages show it; a deleted round comes back."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from scoring import services
from scoring.engine import Entry, RoundError, RoundInput
from scoring.models import Round, RoundChange
from tests.web_helpers import WORKED, make_session, played, round_data, rules_post

pytestmark = pytest.mark.django_db

PASSWORD = "tihar-cards-2083"


@pytest.fixture
def owner():
    return get_user_model().objects.create_user("aama", password=PASSWORD)


@pytest.fixture
def session(owner):
    return make_session(owner)


@pytest.fixture
def client(owner):
    client = Client()
    client.force_login(owner)
    return client


def worked_input() -> RoundInput:
    return RoundInput(
        entries=tuple(Entry(player=n, status=s, maal=m) for n, (s, m) in WORKED.items()),
        winner="Didi",
    )


def second_input() -> RoundInput:
    return RoundInput(
        entries=(
            Entry(player="Aama", status="seen", maal=10),
            Entry(player="Buwa", status="seen", maal=4),
            Entry(player="Didi", status="seen", maal=3),
            Entry(player="Dai", status="seen", maal=0, dhoos=True),
        ),
        winner="Aama",
    )


def nets(snap) -> dict[str, int]:
    return {e["player"]: e["net"] for e in snap["entries"]}


def test_create_edit_delete_are_recorded_with_who_and_what(session, owner):
    round_ = services.add_round(session=session, round_input=worked_input(), user=owner)
    created = RoundChange.objects.get()
    assert (created.action, created.user, created.round_pk) == ("create", owner, round_.pk)
    assert created.before is None
    assert created.after["number"] == 1
    assert created.after["winner"] == "Didi"
    assert nets(created.after) == {"Aama": 3, "Buwa": -16, "Didi": 30, "Dai": -17}

    services.replace_round(round_=round_, given=second_input(), user=owner, expected_version=1)
    edit = RoundChange.objects.filter(action="edit").get()
    assert edit.before == created.after
    assert edit.after["winner"] == "Aama"
    assert edit.after["entries"][3] == {
        "player": "Dai",
        "player_id": session.players.get(name="Dai").pk,
        "status": "seen",
        "maal": 0,
        "tunnel": 0,
        "dhoos": True,
        "net": edit.after["entries"][3]["net"],
        "maal_tally": None,
    }
    round_.refresh_from_db()
    assert round_.version == 2

    services.delete_round(round_=round_, user=owner)
    deleted = RoundChange.objects.filter(action="delete").get()
    assert deleted.before == edit.after
    assert deleted.after is None
    assert deleted.round_pk == round_.pk
    assert [c.action for c in RoundChange.objects.all()] == ["delete", "edit", "create"]


def test_undo_is_recorded_as_undo(session, owner, client):
    services.add_round(session=session, round_input=worked_input(), user=owner)
    services.add_round(session=session, round_input=second_input(), user=owner)
    last = session.rounds.order_by("-number").first()
    response = client.post(reverse("round_undo", args=[session.pk]), {"round": last.pk})
    assert response.status_code == 302
    change = RoundChange.objects.first()
    assert change.action == "undo"
    assert change.user == owner
    assert change.before["number"] == 2


def test_edit_opened_at_an_old_version_is_refused(session, owner):
    round_ = services.add_round(session=session, round_input=worked_input())
    services.replace_round(round_=round_, given=second_input(), expected_version=1)
    stale = Round.objects.get(pk=round_.pk)
    with pytest.raises(services.RoundConflict) as caught:
        services.replace_round(round_=stale, given=worked_input(), expected_version=1)
    assert str(caught.value) == (
        "This round was changed by someone else since you opened it; reload to see their version."
    )
    assert isinstance(caught.value, RoundError)
    round_.refresh_from_db()
    assert round_.winner.name == "Aama"  # the first edit stands
    assert round_.version == 2
    assert RoundChange.objects.filter(action="edit").count() == 1


def test_editing_a_deleted_round_is_refused(session):
    round_ = services.add_round(session=session, round_input=worked_input())
    stale = Round.objects.get(pk=round_.pk)
    services.delete_round(round_=round_)
    with pytest.raises(services.RoundConflict, match="deleted by someone else"):
        services.replace_round(round_=stale, given=second_input(), expected_version=1)
    assert not Round.objects.exists()


def test_restore_puts_a_deleted_round_back_in_its_place(session, owner):
    first = services.add_round(session=session, round_input=worked_input())
    second = services.add_round(session=session, round_input=second_input())
    third = services.add_round(session=session, round_input=worked_input())
    totals_before = session_totals(session)
    services.delete_round(round_=second, user=owner)
    change = RoundChange.objects.get(action="delete")
    restored = services.restore_round(change=change, user=owner)
    assert restored.pk == second.pk  # old links to the round work again
    assert restored.number == 2
    assert [r.pk for r in session.rounds.order_by("number")] == [first.pk, second.pk, third.pk]
    assert session_totals(session) == totals_before
    change.refresh_from_db()
    assert change.restored
    log = RoundChange.objects.first()
    assert (log.action, log.user, log.round_pk) == ("restore", owner, second.pk)
    assert nets(log.after) == nets(change.before)
    with pytest.raises(services.RestoreError, match="already been restored"):
        services.restore_round(change=change)


def test_restore_goes_to_the_end_when_its_place_was_taken(session):
    services.add_round(session=session, round_input=worked_input())
    last = services.add_round(session=session, round_input=second_input())
    services.delete_round(round_=last, action="undo")
    newer = services.add_round(session=session, round_input=worked_input())  # takes number 2
    restored = services.restore_round(change=RoundChange.objects.get(action="undo"))
    assert (newer.number, restored.number) == (2, 3)


def test_restore_is_refused_when_a_player_was_removed(session):
    round_ = services.add_round(session=session, round_input=worked_input())
    services.delete_round(round_=round_)
    session.players.filter(name="Dai").delete()
    with pytest.raises(
        services.RestoreError,
        match=re.escape("Dai is no longer in this session, so the round cannot be restored."),
    ):
        services.restore_round(change=RoundChange.objects.get(action="delete"))
    assert not Round.objects.exists()


def test_restore_follows_a_renamed_player(session):
    round_ = services.add_round(session=session, round_input=worked_input())
    services.delete_round(round_=round_)
    session.players.filter(name="Dai").update(name="Dai (Kathmandu)")
    restored = services.restore_round(change=RoundChange.objects.get(action="delete"))
    assert {e.player.name for e in restored.entries.all()} >= {"Dai (Kathmandu)"}


def session_totals(session) -> dict[str, int]:
    from django.db.models import Sum

    from scoring.models import RoundEntry

    rows = (
        RoundEntry.objects.filter(round__session=session)
        .values_list("player__name")
        .annotate(total=Sum("net"))
    )
    return dict(rows)


# --- Through the pages -------------------------------------------------------------------------


def test_round_history_page_shows_who_when_before_and_after(session, owner, client):
    round_ = services.add_round(session=session, round_input=worked_input(), user=owner)
    services.replace_round(round_=round_, given=second_input(), user=owner)
    page = client.get(reverse("round_changes", args=[session.pk, round_.pk]))
    assert page.status_code == 200
    body = page.content.decode()
    assert "Changes to this round" in body
    assert "Edited" in body and "Created" in body
    assert "aama" in body
    assert "Didi won" in body and "Aama won" in body
    assert "seen · maal 5 · net +3" in body  # Aama as created
    # The edit: only what changed stands out, and is said "old → new".
    assert '<td>seen · <del class="was">maal 5</del> · <del class="was">net +3</del></td>' in body
    assert "<td>seen · maal 0 · <ins>dhoos</ins> · <ins>net -65</ins></td>" in body
    moves = re.findall(r"<li>([^<]*)</li>", body[body.index('class="change-moves"') :])
    assert moves[:6] == [
        "Round: Didi won → Aama won",
        "Aama: maal 5 → 10",
        "Buwa: unseen → seen",
        "Buwa: maal 2 → 4",
        "Didi: maal 7 → 3",
        "Dai: — → dhoos",
    ]


def test_an_edit_of_one_value_marks_that_value_alone(session, owner, client):
    """The family's trip: Bhai's maal 0 → 4 changed every net, and every line
    was bold. Now the maal is said and marked; the nets that follow are
    marked as values, never the whole line."""
    round_ = services.add_round(session=session, round_input=worked_input(), user=owner)
    edited = RoundInput(
        entries=tuple(Entry(n, s, m if n != "Dai" else 4) for n, (s, m) in WORKED.items()),
        winner="Didi",
    )
    services.replace_round(round_=round_, given=edited, user=owner)
    body = client.get(reverse("round_changes", args=[session.pk, round_.pk])).content.decode()
    start = body.index('class="card change change-edit"')
    edit = body[start : body.index('class="card change change-create"')]  # newest first
    assert re.findall(r'<ul class="change-moves"[^>]*>\s*<li>([^<]*)</li>\s*</ul>', edit) == [
        "Dai: maal 0 → 4"
    ]
    # T = 14 + 4 = 18: Dai, seen 4, pays 18 + 3 − 16 = 5 (−17 before).
    assert "<td>seen · <ins>maal 4</ins> · <ins>net -5</ins></td>" in edit
    assert '<tr class="changed"><th>Round</th>' not in edit
    assert "<td>Didi won</td>" in edit  # the round line: nothing marked


def test_session_history_lists_deleted_rounds_and_restores_them(session, owner, client):
    services.add_round(session=session, round_input=worked_input(), user=owner)
    second = services.add_round(session=session, round_input=second_input(), user=owner)
    client.post(reverse("round_delete", args=[session.pk, second.pk]))
    assert not Round.objects.filter(pk=second.pk).exists()
    page = client.get(reverse("session_changes", args=[session.pk])).content.decode()
    assert "Deleted" in page
    assert "Restore this round" in page
    change = RoundChange.objects.get(action="delete")
    assert change.user == owner
    response = client.post(reverse("round_restore", args=[session.pk, change.pk]), follow=True)
    assert "Round restored as round 2." in response.content.decode()
    assert Round.objects.filter(pk=second.pk, number=2).exists()
    # The deleted round's own history is still there, now with the restore.
    history = client.get(reverse("round_changes", args=[session.pk, second.pk]))
    actions = [item["change"].action for item in history.context["changes"]]
    assert actions == ["restore", "delete", "create"]
    # Restoring twice: a clear message, nothing created.
    again = client.post(reverse("round_restore", args=[session.pk, change.pk]), follow=True)
    assert "This round has already been restored." in again.content.decode()
    assert session.rounds.count() == 2


def test_history_of_an_unknown_round_is_404(session, client):
    assert client.get(reverse("round_changes", args=[session.pk, 999])).status_code == 404


def test_round_saved_through_the_form_records_the_user(session, owner, client):
    response = client.post(
        reverse("round_new", args=[session.pk]), round_data(session, WORKED, "Didi")
    )
    assert response.status_code == 302
    change = RoundChange.objects.get()
    assert (change.action, change.user) == ("create", owner)


def test_edit_form_carries_the_version_it_was_opened_at(session, owner, client):
    round_ = services.add_round(session=session, round_input=worked_input(), user=owner)
    services.replace_round(round_=round_, given=second_input(), user=owner)
    page = client.get(reverse("round_edit", args=[session.pk, round_.pk])).content.decode()
    assert '<input type="hidden" name="version" value="2">' in page


def test_session_and_round_pages_link_to_their_history(session, owner, client):
    round_ = services.add_round(session=session, round_input=worked_input(), user=owner)
    page = client.get(reverse("session_detail", args=[session.pk])).content.decode()
    assert f'href="{reverse("session_changes", args=[session.pk])}"' in page
    page = client.get(reverse("round_detail", args=[session.pk, round_.pk])).content.decode()
    assert f'href="{reverse("round_changes", args=[session.pk, round_.pk])}"' in page


def test_a_rules_change_records_every_round_it_re_settles(session, owner, client):
    services.add_round(session=session, round_input=worked_input(), user=owner)
    services.add_round(session=session, round_input=second_input(), user=owner)
    # Murder: unseen maal is void. Only round 1 had an unseen player (Buwa, 2 maal).
    data = rules_post(session.get_rules(), unseen_maal="void", recompute="on")
    assert client.post(reverse("session_rules", args=[session.pk]), data).status_code == 302
    change = RoundChange.objects.get(action="rules")
    assert change.user == owner
    assert change.round_pk == Round.objects.get(number=1).pk
    assert nets(change.before) == {"Aama": 3, "Buwa": -16, "Didi": 30, "Dai": -17}
    assert nets(change.after) == {"Aama": 5, "Buwa": -22, "Didi": 32, "Dai": -15}
    # The round history shows it, and offers no restore (nothing was removed).
    html = client.get(reverse("round_changes", args=[session.pk, change.round_pk])).content
    html = html.decode()
    assert "Re-settled under new rules" in html and "aama" in html
    assert "Restore this round" not in html


def test_rules_change_label_in_nepali(session, owner, client):
    services.add_round(session=session, round_input=worked_input(), user=owner)
    data = rules_post(session.get_rules(), unseen_maal="void", recompute="on")
    client.post(reverse("session_rules", args=[session.pk]), data)
    client.cookies["django_language"] = "ne"
    html = client.get(reverse("session_changes", args=[session.pk])).content.decode()
    assert "नयाँ नियमअनुसार फेरि हिसाब गरियो" in html and "थपियो" in html


def test_the_restore_button_of_another_users_delete_is_a_404(logged_in, session, django_user_model):
    (round_,) = played(session, ("Aama", {}))
    logged_in.post(reverse("round_delete", args=[session.pk, round_.pk]))
    change = RoundChange.objects.get(action="delete")
    other = django_user_model.objects.create_user("sita", password="pw-sita-12345")
    logged_in.force_login(other)
    response = logged_in.post(reverse("round_restore", args=[session.pk, change.pk]))
    assert response.status_code == 404
    assert not Round.objects.exists()


def test_counts_sent_from_seats_are_credited_to_the_scorer_and_their_phones(session, owner, client):
    """Buwa's and Dai's seats sent their lines for round 1; the scorer saved
    the round with Buwa's as sent and Dai's maal changed: the round is the
    scorer's, and its history says which values came from whose phone."""
    from table import services as table_services

    seats = {seat.player.name: seat for seat in table_services.make_seats(session=session)}
    sent = {"Buwa": ("unseen", 2), "Dai": ("seen", 5)}
    for name, (status, maal) in sent.items():
        table_services.send_entry(
            seat=seats[name],
            position=1,
            values=table_services.SeatValues(
                status=status,
                maal=maal,
                tunnel=0,
                dhoos=False,
                dublees=False,
                maal_tally=None,
                tiplu="",
            ),
        )
    ids = {p.name: p.pk for p in session.players.all()}
    data = round_data(session, WORKED, "Didi")  # Dai's maal 0, not the 5 his seat sent
    data |= {f"p-{ids['Buwa']}-seat": "1", f"p-{ids['Dai']}-seat": "1"}
    assert client.post(reverse("round_new", args=[session.pk]), data).status_code == 302
    change = RoundChange.objects.get(action="create")
    assert change.user == owner
    entries = {e["player"]: e for e in change.after["entries"]}
    assert entries["Buwa"]["from_seat"] == ["status", "maal", "tunnel", "dhoos", "dublees"]
    assert entries["Dai"]["from_seat"] == ["status", "tunnel", "dhoos", "dublees"]
    assert "from_seat" not in entries["Aama"]
    body = client.get(reverse("session_changes", args=[session.pk])).content.decode()
    assert "from Buwa’s phone: unseen · maal 2</span>" in body
    assert "from Dai’s phone: seen</span>" in body
    assert "· aama" in body  # saved by the scorer

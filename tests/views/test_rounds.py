"""The round screens: enter, preview, breakdown, edit, delete, undo, settle-up."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.urls import reverse

from scoring.models import Player, Round, RoundChange, RoundEntry
from tests.web_helpers import WORKED, make_session, round_data

pytestmark = pytest.mark.django_db


def nets_of(round_: Round) -> dict[str, int]:
    return {e.player.name: e.net for e in round_.entries.select_related("player")}


def enter(client, session, rows, winner, **kwargs):
    return client.post(
        reverse("round_new", args=[session.pk]), round_data(session, rows, winner, **kwargs)
    )


def test_round_form_has_a_row_per_player_with_stable_names(logged_in, session):
    response = logged_in.get(reverse("round_new", args=[session.pk]))
    html = response.content.decode()
    for player in session.players.all():
        assert f'data-player="{player.name}"' in html
        for field in ("plays", "status", "maal", "tunnel", "dhoos", "dublees"):
            assert f'name="p-{player.pk}-{field}"' in html
        assert f'name="winner" value="{player.pk}"' in html
    assert 'name="winner" value="none"' in html
    assert 'name="win_type" value="normal"' in html
    assert 'name="win_type" value="dublee"' in html
    assert 'name="better" value="on"' in html
    assert '<form method="post" id="round-form"' in html
    assert 'class="maal-field"' in html
    assert 'hx-post="' + reverse("round_preview", args=[session.pk]) + '"' in html


def test_entering_the_worked_example_stores_exact_nets(logged_in, session):
    response = enter(logged_in, session, WORKED, "Didi")
    assert response.status_code == 302
    assert response["Location"] == reverse("session_detail", args=[session.pk])
    round_ = Round.objects.get(session=session)
    assert round_.winner.name == "Didi"
    assert nets_of(round_) == {"Aama": 3, "Buwa": -16, "Didi": 30, "Dai": -17}
    entry = RoundEntry.objects.get(round=round_, player__name="Buwa")
    assert (entry.status, entry.maal, entry.tunnel, entry.dhoos) == ("unseen", 2, 0, False)


def test_dublee_better_and_dhoos_round(logged_in, session):
    # Aama wins with eight dublees on a better round; Dai got dhoos.
    rows = {
        "Aama": ("seen", 12),
        "Buwa": ("seen", 3),
        "Didi": ("unseen", 0, 5),
        "Dai": ("seen", 4, 0, True),
    }
    response = enter(logged_in, session, rows, "Aama", win_type="dublee", better=True)
    assert response.status_code == 302
    # T = 12 + 3 + 0 (Didi's tunnel void: unseen) + 4 = 19; n = 4; m = 2.
    # Buwa (19 + 8 − 12) × 2 = 30; Didi (19 + 15 − 0) × 2 = 68; Dai (19 + 8 − 16) × 2 = 22.
    # Dai's dhoos: 15 to each of 3 others.
    assert nets_of(Round.objects.get(session=session)) == {
        "Aama": 120 + 15,
        "Buwa": -30 + 15,
        "Didi": -68 + 15,
        "Dai": -22 - 45,
    }


def test_preview_partial_shows_exact_figures(logged_in, session):
    data = round_data(session, WORKED, "Didi")
    response = logged_in.post(
        reverse("round_preview", args=[session.pk]), data, HTTP_HX_REQUEST="true"
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in html  # just the partial
    assert "T = <b>14</b>" in html
    assert "n = <b>4</b>" in html
    assert "m = <b>1</b>" in html
    assert "(14 + 3 − 20) × 1 = <b>-3</b>" in html  # Aama: Didi pays her 3
    assert "(14 + 10 − 8) × 1 = <b>16</b>" in html  # Buwa
    assert "(14 + 3 − 0) × 1 = <b>17</b>" in html  # Dai
    assert '<span class="net num pos">+30</span>' in html
    assert "receives (−3) + 16 + 17 = 30" in html  # Didi
    assert not Round.objects.exists()  # a preview saves nothing


def test_preview_names_kidnapped_maal(logged_in, owner):
    session = make_session(owner, preset="kidnap")
    rows = {"Aama": ("seen", 5), "Buwa": ("unseen", 4), "Didi": ("seen", 7), "Dai": ("seen", 0)}
    response = logged_in.post(
        reverse("round_preview", args=[session.pk]),
        round_data(session, rows, "Didi"),
        HTTP_HX_REQUEST="true",
    )
    html = response.content.decode()
    assert "maal 4 kidnapped by Didi" in html
    assert "kidnapped 4 from unseen players" in html
    # T = 5 + 0 + 11 + 0 = 16; Buwa pays (16 + 10 − 0) × 1 = 26.
    assert "T = <b>16</b>" in html
    assert "(16 + 10 − 0) × 1 = <b>26</b>" in html


def test_preview_of_an_invalid_round_lists_the_errors(logged_in, session):
    data = round_data(session, {**WORKED, "Didi": ("unseen", 7)}, "Didi")
    data[f"p-{session.players.get(name='Aama').pk}-maal"] = "-4"
    response = logged_in.post(
        reverse("round_preview", args=[session.pk]), data, HTTP_HX_REQUEST="true"
    )
    html = response.content.decode()
    assert "Aama, maal: must not be negative, got -4" in html
    assert "T = " not in html
    # The same messages replace those beside the fields (htmx out-of-band swaps).
    aama, didi = (session.players.get(name=n).pk for n in ("Aama", "Didi"))
    assert (
        f'<ul class="errorlist" id="err-p-{aama}-maal" hx-swap-oob="true">'
        "<li>maal: must not be negative, got -4</li></ul>"
    ) in html
    assert f'<ul class="errorlist" id="err-p-{didi}-maal" hx-swap-oob="true"></ul>' in html


def test_preview_without_htmx_renders_the_whole_form(logged_in, session):
    response = logged_in.post(
        reverse("round_preview", args=[session.pk]), round_data(session, WORKED, "Didi")
    )
    html = response.content.decode()
    assert "<html" in html
    assert "T = <b>14</b>" in html


def test_round_detail_shows_the_breakdown(logged_in, session):
    enter(logged_in, session, WORKED, "Didi")
    round_ = Round.objects.get(session=session)
    response = logged_in.get(reverse("round_detail", args=[session.pk, round_.pk]))
    html = response.content.decode()
    assert "Round 1" in html
    assert "T = <b>14</b>" in html
    assert "(14 + 10 − 8) × 1 = <b>16</b>" in html


def test_editing_a_past_round_changes_the_totals(logged_in, session):
    enter(logged_in, session, WORKED, "Didi")
    enter(logged_in, session, WORKED, "Didi")
    first = Round.objects.filter(session=session).order_by("number").first()
    edit_url = reverse("round_edit", args=[session.pk, first.pk])
    form = logged_in.get(edit_url).content.decode()
    # The form comes back filled in with the round as saved.
    buwa = session.players.get(name="Buwa").pk
    assert f'name="p-{buwa}-status" value="unseen" checked' in form
    assert f'name="p-{buwa}-maal" value="2"' in form
    # Buwa was in fact seen: he pays 14 + 3 − 8 = 9 instead of 16.
    response = logged_in.post(
        edit_url, {**round_data(session, {**WORKED, "Buwa": ("seen", 2)}, "Didi"), "version": "1"}
    )
    assert response.status_code == 302
    assert nets_of(first) == {"Aama": 3, "Buwa": -9, "Didi": 23, "Dai": -17}
    detail = logged_in.get(reverse("session_detail", args=[session.pk])).content.decode()
    # Didi: 23 + 30; Buwa: −9 − 16.
    assert '<td class="num pos">+53</td>' in detail
    assert '<td class="num neg">-25</td>' in detail


def test_delete_a_round_after_confirming(logged_in, session):
    enter(logged_in, session, WORKED, "Didi")
    enter(logged_in, session, {**WORKED, "Aama": ("seen", 9)}, "Aama")
    first = Round.objects.filter(session=session).order_by("number").first()
    url = reverse("round_delete", args=[session.pk, first.pk])
    confirm = logged_in.get(url)
    assert "Delete round 1? You can restore it afterwards." in confirm.content.decode()
    assert Round.objects.count() == 2  # asking is not deleting
    response = logged_in.post(url)
    assert response.status_code == 302
    assert list(Round.objects.values_list("winner__name", flat=True)) == ["Aama"]
    detail = logged_in.get(reverse("session_detail", args=[session.pk])).content.decode()
    assert "Round 1 deleted." in detail


def test_undo_deletes_the_last_round(logged_in, session):
    enter(logged_in, session, WORKED, "Didi")
    enter(logged_in, session, {**WORKED, "Aama": ("seen", 9)}, "Aama")
    url = reverse("round_undo", args=[session.pk])
    assert "Delete round 2? You can restore it afterwards." in logged_in.get(url).content.decode()
    response = logged_in.post(url)
    assert response.status_code == 302
    assert list(Round.objects.values_list("winner__name", flat=True)) == ["Didi"]
    logged_in.post(url)
    assert not Round.objects.exists()
    # Nothing left to undo: a message, not an error.
    response = logged_in.post(url, follow=True)
    assert "There is no round to undo." in response.content.decode()


def test_undo_refuses_when_another_round_was_added_meanwhile(logged_in, session):
    enter(logged_in, session, WORKED, "Didi")
    shown = Round.objects.get().pk
    enter(logged_in, session, WORKED, "Aama")
    response = logged_in.post(reverse("round_undo", args=[session.pk]), {"round": shown})
    assert response.status_code == 302
    assert Round.objects.count() == 2


def test_sit_out_and_a_player_joining_mid_session(logged_in, session):
    enter(logged_in, session, WORKED, "Didi")
    response = logged_in.post(reverse("player_add", args=[session.pk]), {"name": "  Bhai  "})
    assert response.status_code == 302
    assert session.players.filter(name="Bhai").exists()
    # Round 2: Bhai plays, Aama sits out. Bhai wins; everyone seen, no maal.
    rows = {"Buwa": ("seen", 0), "Didi": ("seen", 0), "Dai": ("seen", 0), "Bhai": ("seen", 0)}
    assert enter(logged_in, session, rows, "Bhai").status_code == 302
    second = Round.objects.get(session=session, number=2)
    assert nets_of(second) == {"Buwa": -3, "Didi": -3, "Dai": -3, "Bhai": 9}
    html = logged_in.get(reverse("session_detail", args=[session.pk])).content.decode()
    # Aama's cell in round 2 is blank; Bhai's in round 1 too.
    assert '<td class="num"></td>' in html
    assert html.count('<td class="num"></td>') == 2


def test_round_form_errors_beside_fields_and_nothing_saved(logged_in, session):
    ids = {p.name: p.pk for p in session.players.all()}
    data = round_data(session, WORKED, "Didi")
    data[f"p-{ids['Aama']}-maal"] = "-3"
    data[f"p-{ids['Dai']}-tunnel"] = "lots"
    data[f"p-{ids['Buwa']}-maal"] = "10001"
    response = logged_in.post(reverse("round_new", args=[session.pk]), data)
    assert response.status_code == 422
    html = response.content.decode()
    assert "maal: must not be negative, got -3" in html
    assert "tunnel: must be a whole number, got &#x27;lots&#x27;" in html
    assert "maal: 10001 is more than 10,000 points; check the number" in html
    assert not Round.objects.exists()
    # Each message sits in its player's card.
    aama_card = html.split('data-player="Aama"')[1].split("</fieldset>")[0]
    assert "maal: must not be negative, got -3" in aama_card
    dai_card = html.split('data-player="Dai"')[1].split("</fieldset>")[0]
    assert "tunnel: must be a whole number" in dai_card


@pytest.mark.parametrize(
    ("rows", "winner", "win_type", "field_id", "message"),
    [
        (WORKED, None, "normal", None, None),  # baseline: no winner is allowed
        ({**WORKED, "Didi": ("unseen", 7)}, "Didi", "normal", "Didi",
         "status: the winner must be seen: ending the round means having shown the pure sets"),
        ({**WORKED, "Didi": ("unseen", 7)}, "Didi", "dublee", "Didi",
         "status: a dublee winner must be seen (seven dublees show the tiplu)"),
        (WORKED, None, "dublee", "err-win_type", "win_type: a dublee win needs a winner"),
        ({"Aama": ("seen", 1)}, "Aama", "normal", "err-players",
         "players: a round needs at least 2 players, got 1"),
    ],
)  # fmt: skip
def test_round_rule_errors(logged_in, session, rows, winner, win_type, field_id, message):
    data = round_data(session, rows, winner, win_type=win_type)
    response = logged_in.post(reverse("round_new", args=[session.pk]), data)
    if message is None:
        assert response.status_code == 302
        return
    html = response.content.decode()
    assert not Round.objects.exists()
    if field_id.startswith("err-"):
        block = html.split(f'id="{field_id}"')[1].split("</ul>")[0]
    else:
        block = html.split(f'data-player="{field_id}"')[1].split("</fieldset>")[0]
    assert message in block


def summary_of(html: str) -> list[tuple[str, str]]:
    """The refused save's summary at the top: (link target, message) per item."""
    start = html.index('id="form-errors"')
    block = html[start : html.index("</ul>", start)]
    return [
        (href, " ".join(unescape(text).split()))
        for href, text in re.findall(r'<li>(?:<a href="([^"]*)">)?(.*?)(?:</a>)?</li>', block, re.S)
    ]


def test_a_refused_save_lists_every_problem_at_once(logged_in, session):
    # Aama's maal has a typo and the winner, Didi, is marked unseen: both are
    # told on the first save, not one after the other.
    ids = {p.name: p.pk for p in session.players.all()}
    data = round_data(session, {**WORKED, "Didi": ("unseen", 7)}, "Didi")
    data[f"p-{ids['Aama']}-maal"] = "5x"
    response = logged_in.post(reverse("round_new", args=[session.pk]), data)
    assert response.status_code == 422
    assert not Round.objects.exists()
    html = response.content.decode()
    assert summary_of(html) == [
        (f"#p-{ids['Aama']}-maal", "Aama, maal: must be a whole number, got '5x'"),
        (
            f"#p-{ids['Didi']}-status-unseen",
            "Didi, status: the winner must be seen: "
            "ending the round means having shown the pure sets",
        ),
    ]
    # The live preview says the same.
    preview = logged_in.post(
        reverse("round_preview", args=[session.pk]), data, HTTP_HX_REQUEST="true"
    ).content.decode()
    problems = preview.split("<h2>Not settled yet</h2>")[1].split("</ul>")[0]
    assert [" ".join(unescape(m).split()) for m in re.findall(r"<li>(.*?)</li>", problems)] == [
        "Aama, maal: must be a whole number, got '5x'",
        "Didi, status: the winner must be seen: ending the round means having shown the pure sets",
    ]


def test_every_rule_of_the_round_is_judged_beside_the_typos(logged_in, owner):
    session = make_session(owner, dublee_min_players=4)
    ids = {p.name: p.pk for p in session.players.all()}
    # Dai sits out: a dublee win by an unseen Didi with 3 players, and a typo.
    rows = {"Aama": ("seen", 5), "Buwa": ("seen", 2), "Didi": ("unseen", 7)}
    data = round_data(session, rows, "Didi", win_type="dublee")
    data[f"p-{ids['Aama']}-tunnel"] = "x"
    html = logged_in.post(reverse("round_new", args=[session.pk]), data).content.decode()
    assert summary_of(html) == [
        (f"#p-{ids['Aama']}-tunnel", "Aama, tunnel: must be a whole number, got 'x'"),
        (
            f"#p-{ids['Didi']}-status-unseen",
            "Didi, status: a dublee winner must be seen (seven dublees show the tiplu)",
        ),
        (
            "#win_type-dublee",
            "win_type: a dublee win needs at least 4 players under these rules, got 3",
        ),
    ]
    # A winner who sits out, one player left and a negative maal: each its own
    # message, the round's ones linked to "Who won?" and the first row.
    data = round_data(session, {"Aama": ("seen", -2)}, "Buwa", win_type="dublee")
    html = logged_in.post(reverse("round_new", args=[session.pk]), data).content.decode()
    assert summary_of(html) == [
        (f"#winner-{ids['Aama']}", "winner: Buwa sits this round out"),
        (f"#p-{ids['Aama']}-plays", "players: a round needs at least 2 players, got 1"),
        (f"#p-{ids['Aama']}-maal", "Aama, maal: must not be negative, got -2"),
    ]
    assert not Round.objects.exists()


def test_winner_must_play_and_be_chosen(logged_in, session):
    data = round_data(session, {"Aama": ("seen", 1), "Buwa": ("seen", 2)}, "Didi")
    html = logged_in.post(reverse("round_new", args=[session.pk]), data).content.decode()
    assert "winner: Didi sits this round out" in html
    data.pop("winner")
    html = logged_in.post(reverse("round_new", args=[session.pk]), data).content.decode()
    assert "winner: choose the winner, or &quot;no winner&quot;" in html
    assert not Round.objects.exists()


def test_too_many_players_for_the_rules(logged_in, owner):
    session = make_session(owner, players=("A", "B", "C"), max_players=2)
    rows = {"A": ("seen", 0), "B": ("seen", 0), "C": ("seen", 0)}
    html = enter(logged_in, session, rows, "A").content.decode()
    assert "players: at most 2 players can play a round under these rules, got 3" in html
    # The new-round form starts with only as many seats as the rules allow.
    form = logged_in.get(reverse("round_new", args=[session.pk])).content.decode()
    c = Player.objects.get(session=session, name="C").pk
    assert f'name="p-{c}-plays" value="on">' in form
    assert f'name="p-{c}-plays" value="on" checked' not in form


def test_better_is_ticked_after_a_dublee_when_the_rules_say_so(logged_in, owner):
    session = make_session(owner, dublee_triggers_better=True)
    url = reverse("round_new", args=[session.pk])
    assert 'name="better" value="on" checked' not in logged_in.get(url).content.decode()
    enter(logged_in, session, WORKED, "Didi", win_type="dublee")
    assert 'name="better" value="on" checked' in logged_in.get(url).content.decode()
    enter(logged_in, session, WORKED, "Didi")
    assert 'name="better" value="on" checked' not in logged_in.get(url).content.decode()


def test_settle_up_lists_the_fewest_payments(logged_in, session):
    enter(logged_in, session, WORKED, "Didi")
    # Round 2: Aama wins; everyone seen, no maal: each pays 3.
    enter(logged_in, session, {n: ("seen", 0) for n in WORKED}, "Aama")
    # Totals: Aama +12, Buwa −19, Didi +27, Dai −20; stake NPR 2.50.
    html = logged_in.get(reverse("settle_up", args=[session.pk])).content.decode()
    assert "Dai pays Didi NPR 50.00" in html
    assert "Buwa pays Aama NPR 30.00" in html
    assert "Buwa pays Didi NPR 17.50" in html
    payments = html.split('class="payment-list"')[1].split("</ul>")[0]
    assert payments.count("<li>") == 3
    assert "3 payments clear every balance, the fewest possible." in html


def test_settle_up_with_a_half_rupee_stake(logged_in, owner):
    session = make_session(owner, players=("Dai", "Buwa"), stake="0.50")
    rows = {"Dai": ("seen", 0), "Buwa": ("seen", 422)}
    # Buwa wins: T = 422, Dai pays 422 + 3 − 0 = 425 points, × 0.50.
    enter(logged_in, session, rows, "Buwa")
    html = logged_in.get(reverse("settle_up", args=[session.pk])).content.decode()
    assert "Dai pays Buwa NPR 212.50" in html


def test_an_invalid_edit_changes_nothing(logged_in, session):
    enter(logged_in, session, WORKED, "Didi")
    round_ = Round.objects.get()
    data = round_data(session, {**WORKED, "Dai": ("seen", 3)}, "Didi")
    data[f"p-{session.players.get(name='Buwa').pk}-tunnel"] = "2.5"
    data["version"] = str(round_.version)
    response = logged_in.post(reverse("round_edit", args=[session.pk, round_.pk]), data)
    html = response.content.decode()
    assert response.status_code == 422
    assert "tunnel: must be a whole number, got &#x27;2.5&#x27;" in html
    assert nets_of(round_) == {"Aama": 3, "Buwa": -16, "Didi": 30, "Dai": -17}


def test_a_forged_winner_is_refused(logged_in, session, owner):
    stranger = make_session(owner, players=("X", "Y"), name="Other").players.first()
    data = round_data(session, WORKED, None)
    data["winner"] = str(stranger.pk)
    html = logged_in.post(reverse("round_new", args=[session.pk]), data).content.decode()
    assert "winner: not a player of this session" in html
    assert not Round.objects.exists()


def test_the_empty_round_form_follows_each_change_at_once(
    logged_in, owner, django_assert_num_queries
):
    session = make_session(owner, dublee_triggers_better=True)
    url = reverse("round_new", args=[session.pk])
    logged_in.get(url)
    with django_assert_num_queries(1):  # the session; its players and ledger are kept per version
        html = logged_in.get(url).content.decode()
    assert 'name="better" value="on" checked' not in html and "Aama" in html
    # After a dublee win the next round is better: the new form says so at once.
    enter(logged_in, session, WORKED, "Didi", win_type="dublee")
    assert 'name="better" value="on" checked' in logged_in.get(url).content.decode()


def test_a_round_save_takes_at_most_ten_queries(logged_in, owner, django_assert_max_num_queries):
    session = make_session(owner)
    url = reverse("round_new", args=[session.pk])
    enter(logged_in, session, WORKED, "Didi")
    data = round_data(session, WORKED, "Didi")
    # At the table the phone opens the form, then saves with its one-time key.
    form = logged_in.get(url).content.decode()
    data["save_key"] = re.search(r'name="save_key" value="([^"]+)"', form).group(1)
    # The session; the key, looked up before the form is read (a repeat is answered
    # as its first save); the transaction's start; the version moved and the row
    # locked, with the last number; the owner's counter moved (versions.py); the
    # round, its entries, its change and its key; the commit.
    with django_assert_max_num_queries(10):
        response = logged_in.post(url, data)
    assert response.status_code == 302
    assert list(Round.objects.filter(session=session).values_list("number", flat=True)) == [1, 2]
    assert RoundEntry.objects.filter(round__session=session, round__number=2).count() == 4
    html = logged_in.get(reverse("session_detail", args=[session.pk])).content.decode()
    assert "Round 2 saved." in html and "+60" in html


def test_a_save_after_another_phones_change_reads_everything_again(owner):
    from scoring import services
    from scoring.models import GameSession
    from tests.web_helpers import worked_round

    session = make_session(owner)
    stale = GameSession.objects.get(pk=session.pk)
    players = list(stale.players.all())
    services.add_round(session, worked_round())  # another phone, after this one read
    round_ = services.add_round(stale, worked_round(), players=players)
    assert (round_.number, round_.position) == (2, 2)
    assert list(Round.objects.filter(session=session).values_list("number", flat=True)) == [1, 2]


def test_an_edit_that_changes_nothing_records_nothing(logged_in, session):
    from scoring.models import RoundChange

    enter(logged_in, session, WORKED, "Didi")
    logged_in.get(reverse("session_detail", args=[session.pk]))  # "Round 1 saved." shown
    round_ = Round.objects.get(session=session)
    url = reverse("round_edit", args=[session.pk, round_.pk])
    data = round_data(session, WORKED, "Didi") | {"version": str(round_.version)}
    response = logged_in.post(url, data, follow=True)
    assert [str(m) for m in response.context["messages"]] == ["Nothing changed in round 1."]
    round_.refresh_from_db()
    assert round_.version == 1
    assert list(RoundChange.objects.values_list("action", flat=True)) == ["create"]
    # A real change is recorded, once.
    changed = round_data(session, {**WORKED, "Aama": ("seen", 6)}, "Didi")
    response = logged_in.post(url, changed | {"version": "1"}, follow=True)
    assert [str(m) for m in response.context["messages"]] == ["Round 1 changed."]
    assert RoundChange.objects.filter(action="edit").count() == 1


def test_a_stale_edit_says_so_with_a_link_to_the_newer_version(logged_in, session):
    enter(logged_in, session, WORKED, "Didi")
    round_ = Round.objects.get(session=session)
    url = reverse("round_edit", args=[session.pk, round_.pk])
    changed = round_data(session, {**WORKED, "Aama": ("seen", 6)}, "Didi")
    assert logged_in.post(url, changed | {"version": "1"}).status_code == 302  # another phone
    stale = logged_in.post(url, round_data(session, WORKED, "Aama") | {"version": "1"})
    assert stale.status_code == 409
    html = stale.content.decode()
    summary = html[
        html.index('id="form-errors"') : html.index("</div>", html.index('id="form-errors"'))
    ]
    assert (
        "<li>This round was changed by someone else since you opened it; "
        "reload to see their version.</li>"
    ) in summary
    link = re.search(r'<a class="button" id="conflict-reload" href="([^"]+)">([^<]+)</a>', summary)
    assert link is not None
    assert (link[1], link[2]) == (url, "Reload to see their version")
    # The link opens the round as it is now: its newer version, to change again.
    reloaded = logged_in.get(link[1]).content.decode()
    aama = session.players.get(name="Aama").pk
    assert f'name="p-{aama}-maal" value="6"' in reloaded
    assert 'name="version" value="2"' in reloaded
    assert nets_of(round_)["Aama"] == 6  # the first edit stands: Aama 6 maal, +3 before


def test_a_refused_edit_for_another_reason_has_no_reload_link(logged_in, session):
    enter(logged_in, session, WORKED, "Didi")
    round_ = Round.objects.get(session=session)
    url = reverse("round_edit", args=[session.pk, round_.pk])
    bad = round_data(session, {**WORKED, "Aama": ("seen", -1)}, "Didi") | {"version": "1"}
    assert 'id="conflict-reload"' not in logged_in.post(url, bad).content.decode()


def found(pattern: str, text: str) -> str:
    match = re.search(pattern, text)
    assert match is not None, pattern
    return match[1]


def names_of_round(client, session, round_: Round) -> dict[str, str]:
    """What each page calls `round_`: the ledger, its own page, its edit form,
    its delete question and every line of the History about it."""
    ledger = client.get(reverse("session_detail", args=[session.pk]) + "?all=1").content.decode()
    link = re.search(
        rf'<a class="round-link" href="{reverse("round_detail", args=[session.pk, round_.pk])}"'
        r' aria-label="Round (\d+)">(\d+)</a>',
        ledger,
    )
    page = client.get(reverse("round_detail", args=[session.pk, round_.pk])).content.decode()
    form = client.get(reverse("round_edit", args=[session.pk, round_.pk])).content.decode()
    ask = client.get(reverse("round_delete", args=[session.pk, round_.pk])).content.decode()
    history = client.get(reverse("session_changes", args=[session.pk])).content.decode()
    about = f'href="{reverse("round_changes", args=[session.pk, round_.pk])}"'
    lines = {
        found(r"round (\d+)", line)
        for line in re.findall(r'<p id="change-\d+-what">(.*?)</p>', history, re.S)
        if about in line
    }
    assert link is not None and link[1] == link[2]
    return {
        "ledger": link[1],
        "page": found(r"<h1>Round (\d+)</h1>", page),
        "form": found(r"<h1[^>]*>Edit round (\d+)</h1>", form),
        "delete": found(r"Delete round (\d+)\? .", ask),
        "history": ",".join(sorted(lines)),
    }


def test_one_round_number_everywhere_after_deletes_undos_and_restores(logged_in, session):
    for _ in range(4):
        enter(logged_in, session, WORKED, "Didi")
    rounds = list(Round.objects.filter(session=session).order_by("number"))
    fourth = rounds[3]
    everywhere = dict.fromkeys(["ledger", "page", "form", "delete", "history"], "4")
    assert names_of_round(logged_in, session, fourth) == everywhere

    deleted = logged_in.post(reverse("round_delete", args=[session.pk, rounds[1].pk]), follow=True)
    assert [str(m) for m in deleted.context["messages"]] == ["Round 2 deleted."]
    # Round 4 is the third round now, on every page, and in the message of its edit.
    assert names_of_round(logged_in, session, fourth) == dict.fromkeys(everywhere, "3")
    edit = round_data(session, {**WORKED, "Aama": ("seen", 6)}, "Didi") | {"version": "1"}
    edited = logged_in.post(reverse("round_edit", args=[session.pk, fourth.pk]), edit, follow=True)
    assert [str(m) for m in edited.context["messages"]] == ["Round 3 changed."]
    history = logged_in.get(reverse("session_changes", args=[session.pk])).content.decode()
    # The deleted round keeps the number it had, the one a restore gives it back.
    assert found(r"<strong>\s*Deleted round (\d+)", history) == "2"

    undone = logged_in.post(reverse("round_undo", args=[session.pk]), follow=True)
    assert [str(m) for m in undone.context["messages"]] == ["Round 3 undone."]
    history = logged_in.get(reverse("session_changes", args=[session.pk])).content.decode()
    assert found(r"<strong>\s*Undone round (\d+)", history) == "3"

    # Restored, round 2 is round 2 again and round 4 round 4.
    change = RoundChange.objects.get(round_pk=rounds[1].pk, action="delete")
    restored = logged_in.post(reverse("round_restore", args=[session.pk, change.pk]), follow=True)
    assert [str(m) for m in restored.context["messages"]] == ["Round restored as round 2."]
    change = RoundChange.objects.get(round_pk=fourth.pk, action="undo")
    restored = logged_in.post(reverse("round_restore", args=[session.pk, change.pk]), follow=True)
    assert [str(m) for m in restored.context["messages"]] == ["Round restored as round 4."]
    assert names_of_round(logged_in, session, fourth) == everywhere


def test_a_round_naming_a_removed_player_is_refused_not_saved_without_them(logged_in, owner):
    """A round entered while a player was still there (kept on a phone offline,
    an old tab) arrives after they were removed: refused, never saved without them."""
    session = make_session(owner, players=("Aama", "Buwa", "Didi", "Dai"))
    data = round_data(session, WORKED, "Didi")
    dai = session.players.get(name="Dai")
    dai.delete()
    response = logged_in.post(reverse("round_new", args=[session.pk]), data)
    assert response.status_code == 422
    html = response.content.decode()
    assert (
        "A player in this round is no longer in the session (removed since the round was "
        "entered). Check the players and enter the round again."
    ) in html
    assert not Round.objects.filter(session=session).exists()

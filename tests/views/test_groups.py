"""The family purse on the web: groups, members, payments (two taps from a
suggested payment), the audit trail with restore, files, and each evening's
settle-up page saying what its group carried in."""

from __future__ import annotations

import datetime
import io
import json
import re
from decimal import Decimal
from html import unescape

import pytest
from django.urls import reverse

from groups import services
from groups.models import Evening, Group, Member, Payment, PaymentChange
from scoring.engine.limits import MAX_FILE_BYTES
from scoring.models import GameSession
from tests.samples import EXPECTED, family
from tests.web_helpers import session_post

pytestmark = pytest.mark.django_db

SHARE_TEXT = (
    "Pokhara family\nAama pays Didi NPR 37.50\nBhai pays Hajurba NPR 18.00\n"
    "Bhai pays Didi NPR 15.00"
)


@pytest.fixture
def group(owner):
    """Pokhara family, imported from tests/samples.py's file."""
    from scoring.engine.groupfile import loads

    return services.import_group(doc=loads(json.dumps(family())), owner=owner)


def text(response) -> str:
    html = response.content.decode()
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def test_the_group_page_shows_balances_who_pays_whom_payments_and_evenings(logged_in, group):
    page = text(logged_in.get(reverse("group_detail", args=[group.pk])))
    assert "Aama → Didi: NPR 37.50 Mark paid" in page
    assert "Bhai → Hajurba: NPR 18.00" in page
    assert "Bhai → Didi: NPR 15.00" in page
    assert "3 payments clear every balance, the fewest possible." in page
    assert (
        "Aama -37.50 Share Aama Bhai -33.00 Share Bhai Didi 52.50 Share Didi Hajurba 18.00" in page
    )
    assert "Bhai → Didi: NPR 20.00" in page  # the payment made
    assert "Tihar 2" in page and "Aama -25.00 · Bhai 7.00 · Hajurba 18.00" in page


def test_mark_paid_then_record_payment_shrinks_the_list(logged_in, group):
    page = logged_in.get(reverse("group_detail", args=[group.pk])).content.decode()
    mark = (
        re.search(r'href="([^"]*payments/new/\?from=[^"]*)"', page).group(1).replace("&amp;", "&")
    )
    form = logged_in.get(mark)
    html = form.content.decode()
    aama, didi = (Member.objects.get(group=group, name=n).pk for n in ("Aama", "Didi"))
    assert f'<option value="{aama}" selected>Aama</option>' in html
    assert f'<option value="{didi}" selected>Didi</option>' in html
    assert 'value="37.50"' in html
    key = re.search(r'name="save_key" value="([^"]+)"', html).group(1)
    data = {
        "payer": aama,
        "payee": didi,
        "amount": "37.50",
        "paid_on": "2026-10-05",
        "method": "cash",
        "note": "",
        "save_key": key,
    }
    response = logged_in.post(mark, data, follow=True)
    page = text(response)
    assert "Payment recorded: Aama paid Didi NPR 37.50." in page
    assert "Aama → Didi: NPR 37.50 Mark paid" not in page
    assert "2 payments clear every balance" in page
    # The same form sent again (a double tap) records nothing more.
    logged_in.post(mark, data)
    assert Payment.objects.filter(group=group).count() == 2


def test_a_part_payment_and_the_payment_forms_refusals(logged_in, group):
    url = reverse("group_payment_new", args=[group.pk])
    bhai, hajurba = (Member.objects.get(group=group, name=n).pk for n in ("Bhai", "Hajurba"))
    base = {"payer": bhai, "payee": hajurba, "paid_on": "2083-06-19", "method": "khalti"}
    for amount, error in [
        ("0", "Amount: Ensure this value is greater than or equal to 0.01."),
        ("-5", "Amount: Ensure this value is greater than or equal to 0.01."),
        ("abc", "Amount: Enter a number."),
        ("10000000.01", "Amount: Ensure this value is less than or equal to 10000000."),
    ]:
        response = logged_in.post(url, {**base, "amount": amount})
        assert response.status_code == 422
        assert error in text(response)
    response = logged_in.post(url, {**base, "payee": bhai, "amount": "5"})
    assert "To: Bhai cannot pay themselves" in text(response)
    response = logged_in.post(url, {**base, "amount": "10", "paid_on": "2083-13-40"})
    assert response.status_code == 422
    assert Payment.objects.filter(group=group).count() == 1
    logged_in.post(url, {**base, "amount": "10"})
    payment = Payment.objects.get(group=group, amount=Decimal("10.00"))
    assert str(payment.paid_on) == "2026-10-05"  # 19 Asoj 2083 BS
    page = text(logged_in.get(reverse("group_detail", args=[group.pk])))
    assert "Bhai → Hajurba: NPR 8.00" in page


def test_edit_delete_and_restore_go_through_the_audit_trail(logged_in, group, owner):
    payment = Payment.objects.get(group=group)
    url = reverse("group_payment_edit", args=[group.pk, payment.pk])
    data = {
        "payer": payment.payer_id,
        "payee": payment.payee_id,
        "amount": "25.00",
        "paid_on": "2026-10-03",
        "method": "cash",
        "note": "",
        "version": payment.version,
    }
    assert logged_in.post(url, data).status_code == 302
    # The same edit again carries the old version: refused as stale.
    response = logged_in.post(url, data)
    assert "This payment was changed or deleted after you opened it; open it again." in text(
        response
    )
    logged_in.post(reverse("group_payment_delete", args=[group.pk, payment.pk]))
    assert not Payment.objects.filter(pk=payment.pk).exists()
    change = PaymentChange.objects.get(group=group, action="delete")
    assert change.before["amount"] == "25.00" and change.user == owner
    history = text(logged_in.get(reverse("group_changes", args=[group.pk])))
    assert "Deleted Bhai → Didi: NPR 25.00" in history and "Restore" in history
    logged_in.post(reverse("group_payment_restore", args=[group.pk, change.pk]))
    restored = Payment.objects.get(pk=payment.pk)
    assert restored.amount == Decimal("25.00")
    assert [c.action for c in PaymentChange.objects.filter(group=group)] == [
        "restore",
        "delete",
        "edit",
        "create",
    ]


def test_members_rename_once_for_all_evenings_and_removal_refused(logged_in, group):
    bhai = Member.objects.get(group=group, name="Bhai")
    logged_in.post(reverse("group_member_edit", args=[group.pk, bhai.pk]), {"name": "Bhai Sahib"})
    assert sorted(
        GameSession.objects.filter(purse_evening__group=group)
        .filter(players__name="Bhai Sahib")
        .values_list("name", flat=True)
    ) == ["Tihar 1", "Tihar 2"]
    response = logged_in.post(reverse("group_member_delete", args=[group.pk, bhai.pk]), follow=True)
    assert (
        "Bhai Sahib played 2 evenings and has 1 payment in this group; their balance "
        "depends on them, so they stay a member" in text(response)
    )
    assert Member.objects.filter(pk=bhai.pk).exists()
    new = logged_in.post(reverse("group_members", args=[group.pk]), {"name": "kaka"})
    assert new.status_code == 302
    kaka = Member.objects.get(group=group, name="kaka")
    logged_in.post(reverse("group_member_delete", args=[group.pk, kaka.pk]))
    assert not Member.objects.filter(pk=kaka.pk).exists()
    response = logged_in.post(reverse("group_members", args=[group.pk]), {"name": "AAMA"})
    assert "AAMA is a member already (as Aama)" in text(response)


def test_a_new_evening_of_the_group_and_an_existing_session_added(logged_in, group, owner):
    response = logged_in.get(reverse("group_evening_new", args=[group.pk]))
    html = response.content.decode()
    # The last evening as the table left it (Tihar 2: murder, 1.00 a point, its seating).
    assert 'id="id_players">\nAama\nBhai\nHajurba</textarea>' in html
    assert 'name="stake_per_point" value="1.00"' in html
    assert '<option value="murder" selected>' in html
    assert "Rules, stake and seating as at Tihar 2: change anything before you start." in text(
        response
    )
    data = session_post(name="Tihar 3", players="Aama\nDidi\nSanu")
    response = logged_in.post(reverse("group_evening_new", args=[group.pk]), data)
    assert response.status_code == 302, text(response)
    session = GameSession.objects.get(name="Tihar 3")
    assert Evening.objects.get(session=session).group == group
    assert Member.objects.filter(group=group, name="Sanu").exists()
    other = GameSession.objects.create(owner=owner, name="Bhai tika", currency="NPR")
    response = logged_in.post(reverse("group_evening_add", args=[group.pk]), {"session": other.pk})
    assert Evening.objects.get(session=other).group == group


def test_the_settle_up_page_says_what_the_group_carried_in(logged_in, group):
    second = GameSession.objects.get(name="Tihar 2")
    page = text(logged_in.get(reverse("settle_up", args=[second.pk])))
    assert "Pokhara family" in page
    assert "Carried in from 1 earlier evening" in page
    assert "Aama -12.50" in page and "Bhai -60.00" in page and "Didi 72.50" in page
    assert "Aama → Didi: NPR 37.50" in page  # the whole group's payments to make now


def test_the_first_evening_says_only_payments_were_carried_in(logged_in, group):
    members = {m.name: m for m in group.members.all()}
    services.record_payment(
        group=group,
        payer=members["Aama"],
        payee=members["Didi"],
        amount=Decimal("5.00"),
        paid_on=datetime.date(2026, 9, 30),  # the day before Tihar 1
    )
    first = GameSession.objects.get(name="Tihar 1")
    page = text(logged_in.get(reverse("settle_up", args=[first.pk])))
    assert (
        "Carried in from the group's payments made by this evening's date (no earlier evening):"
        in page
    )
    assert "earlier evenings of the group" not in page and "Carried in from 0" not in page
    assert "Aama 5.00" in page and "Didi -5.00" in page


def test_web_export_then_import_gives_the_same_balances(logged_in, group):
    exported = b"".join(logged_in.get(reverse("group_export", args=[group.pk])).streaming_content)
    document = json.loads(exported)
    assert {k: document[k] for k in ("balances", "transfers")} == EXPECTED
    upload = io.BytesIO(exported)
    upload.name = "group.json"
    response = logged_in.post(reverse("group_import"), {"file": upload})
    assert response.status_code == 302
    copy = Group.objects.exclude(pk=group.pk).get()
    again = json.loads(
        b"".join(logged_in.get(reverse("group_export", args=[copy.pk])).streaming_content)
    )
    assert {k: again[k] for k in ("balances", "transfers")} == EXPECTED


def test_a_bad_group_file_on_the_web_saves_nothing(logged_in):
    data = family()
    data["payments"][0]["to"] = "Sanu"
    upload = io.BytesIO(json.dumps(data).encode())
    upload.name = "group.json"
    response = logged_in.post(reverse("group_import"), {"file": upload})
    assert response.status_code == 422
    assert "payment 1, to: Sanu is not a member of the group" in text(response)
    assert Group.objects.count() == 0 and GameSession.objects.count() == 0


@pytest.mark.parametrize("extra", [100 * 1024, 1])  # stopped by its length, or as it streams
@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("en", "Group file: larger than the limit of 12,582,912 bytes for a group file"),
        ("ne", "फाइल धेरै ठूलो भयो: समूहको फाइल बढीमा 1,25,82,912 बाइटको हुन सक्छ"),
    ],
)
def test_a_group_file_over_the_limit_is_refused_naming_it(logged_in, extra, language, message):
    # The upload handler keeps none of it (scoring/web/uploads.py): the form says
    # why, as the session import does, not that no file was sent.
    logged_in.cookies["django_language"] = language
    upload = io.BytesIO(b" " * (MAX_FILE_BYTES + extra))
    upload.name = "group.json"
    response = logged_in.post(reverse("group_import"), {"file": upload})
    assert response.status_code == 422
    assert message in text(response)
    assert Group.objects.count() == 0


def test_another_users_group_is_a_404(client, group, django_user_model):
    other = django_user_model.objects.create_user("sita", password="pw-sita-12345")
    client.force_login(other)
    for name, args in [
        ("group_detail", [group.pk]),
        ("group_members", [group.pk]),
        ("group_payment_new", [group.pk]),
        ("group_changes", [group.pk]),
        ("group_export", [group.pk]),
        ("group_print", [group.pk]),
    ]:
        assert client.get(reverse(name, args=args)).status_code == 404


def test_the_share_text_is_plain_and_in_the_pages_language(logged_in, group):
    page = logged_in.get(reverse("group_detail", args=[group.pk])).content.decode()
    assert SHARE_TEXT in page
    logged_in.cookies["django_language"] = "ne"
    page = logged_in.get(reverse("group_detail", args=[group.pk]), HTTP_ACCEPT_LANGUAGE="ne")
    assert "Aama → Didi: रु. 37.50" in page.content.decode()


def test_a_group_of_a_lakh_is_grouped_the_nepali_way(logged_in, group):
    aama, didi = (Member.objects.get(group=group, name=n) for n in ("Aama", "Didi"))
    services.record_payment(
        group=group,
        payer=didi,
        payee=aama,
        amount=Decimal("174000"),
        paid_on=Payment.objects.get().paid_on,
        user=None,
    )
    page = logged_in.get(reverse("group_detail", args=[group.pk]), HTTP_ACCEPT_LANGUAGE="ne")
    html = page.content.decode()
    # Didi paid Aama a lakh and more: Aama now owes it back, grouped the Nepali way.
    assert "Aama → Didi: रु. 1,74,037.50" in html
    assert "1,74,037.50" in text(page)


def test_the_group_page_is_kept_for_offline_reading(logged_in, group):
    response = logged_in.get(reverse("group_detail", args=[group.pk]))
    assert response["X-Offline-Cache"] == "1"
    assert "X-Offline-Cache" not in logged_in.get(reverse("group_members", args=[group.pk]))


def test_the_group_page_lists_the_latest_evenings_and_payments(logged_in, group, owner):
    from groups.views import EVENINGS_SHOWN, PAYMENTS_SHOWN

    aama, didi = (Member.objects.get(group=group, name=n) for n in ("Aama", "Didi"))
    for _number in range(PAYMENTS_SHOWN + 1):
        services.record_payment(
            group=group,
            payer=aama,
            payee=didi,
            amount=Decimal("1"),
            paid_on=Payment.objects.first().paid_on,
        )
    page = text(logged_in.get(reverse("group_detail", args=[group.pk])))
    assert "and 2 earlier payments" in page  # the file's own payment and one more
    # Every payment counts in the balances: Aama paid 11.00 of her 37.50.
    assert PAYMENTS_SHOWN == 10
    assert "Aama → Hajurba: NPR 18.00 Mark paid" in page  # 18.00 + 8.50 = 26.50 still owed
    assert "Aama → Didi: NPR 8.50 Mark paid" in page
    assert "Bhai → Didi: NPR 33.00 Mark paid" in page
    assert EVENINGS_SHOWN == 10 and "earlier evening" not in page


def test_the_settle_up_page_follows_the_groups_payments_and_earlier_evenings(logged_in, group):
    second = GameSession.objects.get(name="Tihar 2")
    url = reverse("settle_up", args=[second.pk])
    assert "Aama → Didi: NPR 37.50" in text(logged_in.get(url))
    aama, didi = (Member.objects.get(group=group, name=n) for n in ("Aama", "Didi"))
    services.record_payment(
        group=group, payer=aama, payee=didi, amount=Decimal("37.50"), paid_on=second.played_on
    )
    page = text(logged_in.get(url))
    assert "Aama → Didi" not in page
    # An earlier evening changed (1.00 a point, not 2.50): what was carried in
    # follows, with the payment made on this evening's date (Aama -5.00 + 37.50).
    first = GameSession.objects.get(name="Tihar 1")
    first.stake_per_point = Decimal("1.00")
    first.save()
    carried = text(logged_in.get(url)).split("What the whole group")[0]
    assert "Aama 32.50 Bhai -24.00 Didi -8.50" in carried


def test_a_player_who_joins_an_evening_later_becomes_a_member(logged_in, group):
    second = GameSession.objects.get(name="Tihar 2")
    response = logged_in.post(reverse("player_add", args=[second.pk]), {"name": "Kanchha"})
    assert response.status_code == 302
    assert Member.objects.filter(group=group, name="Kanchha").exists()
    # A member already (ignoring case): no second member.
    other = GameSession.objects.get(name="Tihar 1")
    logged_in.post(reverse("player_add", args=[other.pk]), {"name": "kanchha"})
    assert Member.objects.filter(group=group, name_key="kanchha").count() == 1


def test_a_new_groups_currency_is_bounded_once_upper_cased(logged_in):
    members = "Aama\nBhai"
    response = logged_in.post(
        reverse("group_list"), {"name": "Pokhara", "currency": "ß" * 8, "members": members}
    )
    assert response.status_code == 422
    assert (
        "a currency may be at most 8 characters once in capitals, got SSSSSSSSSSSSSSSS (16)"
    ) in unescape(response.content.decode())
    assert not Group.objects.exists()


def test_the_group_file_is_sent_as_it_is_read_byte_for_byte(logged_in, group, owner):
    from groups.selectors import group_doc
    from scoring.engine.groupfile import dumps, export_group

    exported = logged_in.get(reverse("group_export", args=[group.pk]))
    assert exported.streaming
    assert exported["Content-Disposition"] == f'attachment; filename="group-{group.pk}.json"'
    sent = b"".join(exported.streaming_content).decode()
    assert sent == dumps(export_group(group_doc(group)))
    # A group of no evenings and no payments: the same empty lists as dumps writes.
    empty = services.create_group(owner=owner, name="Sano", currency="NPR", members=["Aama"])
    none = b"".join(logged_in.get(reverse("group_export", args=[empty.pk])).streaming_content)
    assert none.decode() == dumps(export_group(group_doc(empty)))
    assert '"sessions": [],' in none.decode() and '"payments": [],' in none.decode()


def test_the_group_file_is_read_in_one_snapshot_an_evening_at_a_time(group, monkeypatch):
    from django.db import connection

    from groups import selectors

    seen = []
    real = selectors.session_doc

    def reading(session):
        seen.append(connection.in_atomic_block)
        return real(session)

    monkeypatch.setattr(selectors, "session_doc", reading)
    monkeypatch.setattr(selectors, "FILE_EVENINGS_AT_ONCE", 1)
    chunks = selectors.group_file(group)
    head = next(chunks)
    assert head.startswith('{\n  "format": "marriage-group/1"') and not seen  # before any evening
    rest = list(chunks)
    assert seen == [True, True]  # each evening read inside the one transaction
    assert json.loads(head + "".join(rest))["name"] == "Pokhara family"


def test_the_home_page_lists_groups_and_an_evening_links_to_its_group(logged_in, owner, group):
    home = text(logged_in.get(reverse("home")))
    assert "Groups Pokhara family 2 evenings" in home
    tihar = GameSession.objects.get(name="Tihar 2")
    page = logged_in.get(reverse("session_detail", args=[tihar.pk])).content.decode()
    assert f'<a href="{reverse("group_detail", args=[group.pk])}">← Pokhara family</a>' in page
    # A session leaves the group: its page no longer names it, at once.
    logged_in.post(reverse("group_evening_remove", args=[group.pk, tihar.pk]))
    page = logged_in.get(reverse("session_detail", args=[tihar.pk])).content.decode()
    assert "← Pokhara family" not in page
    assert "Pokhara family 1 evening" in text(logged_in.get(reverse("home")))


@pytest.mark.parametrize("language", ["en", "ne"])
def test_the_groups_picture_is_a_png_for_its_owner_only(
    logged_in, group, language, django_user_model
):
    import io

    from django.test import Client
    from PIL import Image

    from groups.cards import group_picture

    url = reverse("group_card", args=[group.pk])
    logged_in.cookies["django_language"] = language
    response = logged_in.get(url)
    assert response.status_code == 200 and response["Content-Type"] == "image/png"
    with Image.open(io.BytesIO(response.content)) as image:
        assert image.size[0] >= 600
    assert len(response.content) <= 300_000
    assert logged_in.get(url, HTTP_IF_NONE_MATCH=response["ETag"]).status_code == 304
    other = Client()
    other.force_login(django_user_model.objects.create_user("hari", password="pw-hari-12345"))
    assert other.get(url).status_code == 404
    from django.utils import translation

    with translation.override("ne"):
        balances, pays = group_picture(group).sections
    assert [tuple(c.text for c in row) for row in balances.rows] == [
        ("Aama", "-37.50"),
        ("Bhai", "-33.00"),
        ("Didi", "+52.50"),
        ("Hajurba", "+18.00"),
    ]
    assert pays.lines[0] == "Aama ले Didi लाई रु. 37.50 तिर्ने"


def test_a_picture_of_sixty_members_stays_within_bounds(owner):
    from groups.cards import group_card

    names = [f"Member number {i}" for i in range(60)]
    big = services.create_group(owner=owner, name="A big family", currency="NPR", members=names)
    assert len(group_card(big)) <= 300_000


def _festival_dates(group):
    """Tihar 1 played in Dashain 2082 (5 Oct 2025), Tihar 2 in Tihar 2083 (8 Nov 2026)."""
    one, two = (GameSession.objects.get(name=n) for n in ("Tihar 1", "Tihar 2"))
    GameSession.objects.filter(pk=one.pk).update(played_on=datetime.date(2025, 10, 5))
    GameSession.objects.filter(pk=two.pk).update(played_on=datetime.date(2026, 11, 8))


def test_the_records_of_each_season(group):
    from groups.selectors import group_records

    _festival_dates(group)
    seasons = group_records(group)
    assert [s.year for s in seasons] == [2083, 2082]
    tihar, dashain = seasons
    assert [(e.name, e.festival) for e in tihar.evenings] == [("Tihar 2", "tihar")]
    assert [(e.name, e.festival) for e in dashain.evenings] == [("Tihar 1", "dashain")]
    assert [(r.name, r.evenings, r.wins, r.won, r.lost) for r in tihar.members] == [
        ("Hajurba", 1, 0, Decimal("18.00"), Decimal("0.00")),
        ("Bhai", 1, 1, Decimal("7.00"), Decimal("0.00")),
        ("Aama", 1, 0, Decimal("0.00"), Decimal("-25.00")),
    ]
    assert (tihar.biggest_round.name, tihar.biggest_round.value) == ("Hajurba", 18)
    assert (tihar.best_evening.name, tihar.best_evening.value) == ("Hajurba", Decimal("18.00"))
    assert (tihar.longest_run.name, tihar.longest_run.value) == ("Bhai", 1)
    assert (tihar.most_maal.name, tihar.most_maal.value) == ("Hajurba", 12)
    assert tihar.most_dublee_wins is None
    assert [(r.name, r.won, r.lost) for r in dashain.members] == [
        ("Didi", Decimal("72.50"), Decimal("0.00")),
        ("Aama", Decimal("0.00"), Decimal("-12.50")),
        ("Bhai", Decimal("0.00"), Decimal("-60.00")),
    ]
    assert (dashain.biggest_round.name, dashain.biggest_round.value) == ("Didi", 29)
    assert (dashain.most_maal.name, dashain.most_maal.value) == ("Didi", 10)


def test_a_run_of_rounds_won_and_dublee_wins_count_in_order():
    from stats.records import EntryRow, RoundRow, evening_figures

    def round_(position, winner, win_type="normal"):
        entries = [
            EntryRow(i, n, n.lower(), "seen", 3, 0, False, 5 if n == winner else -1)
            for i, n in enumerate(["Aama", "Buwa"])
        ]
        return RoundRow(
            position,
            None,
            position,
            position,
            1 if winner else None,
            winner or "",
            win_type,
            False,
            entries,
            winner_key=winner.lower() if winner else "",  # as _read_rounds works it out
            swing=5,
        )

    rounds = [
        round_(1, "Aama"),
        round_(2, "Aama", "dublee"),
        round_(3, "Buwa"),
        round_(4, "Aama"),
        round_(5, "Aama"),
        round_(6, "Aama"),
        round_(7, None),
    ]
    figures = evening_figures(rounds)
    assert (figures["aama"].wins, figures["aama"].longest_run, figures["aama"].dublee_wins) == (
        5,
        3,
        1,
    )
    assert (figures["buwa"].wins, figures["buwa"].longest_run) == (1, 1)


@pytest.mark.parametrize("language", ["en", "ne"])
def test_the_records_page_in_both_languages(logged_in, group, language):
    _festival_dates(group)
    logged_in.cookies["django_language"] = language
    page = text(logged_in.get(reverse("group_records", args=[group.pk])))
    if language == "en":
        assert "Season 2083 1 evening" in page
        assert "Biggest round Hajurba +18 · round 1 of Tihar 2" in page
        assert "Best evening Hajurba NPR 18.00 · Tihar 2" in page
        assert "Hajurba 1 0 0 18.00 0.00" in page
        assert "Tihar 2 · 8 Nov 2026 Tihar" in page and "Tihar 1 · 5 Oct 2025 Dashain" in page
    else:
        assert "सिजन 2083" in page
        assert "Hajurba रु. 18.00" in page
        assert "तिहार" in page and "दशैं" in page
        assert "22 कात्तिक 2083 (8 नोभेम्बर 2026)" in page


def test_the_records_page_after_a_save_reads_that_evening_alone(logged_in, group):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    url = reverse("group_records", args=[group.pk])
    logged_in.get(url)
    tihar = GameSession.objects.get(name="Tihar 2")
    tihar.name = "Tihar two"
    tihar.save(update_fields=["name"])  # a new version of that evening
    with CaptureQueriesContext(connection) as queries:
        page = text(logged_in.get(url))
    assert "Tihar two" in page
    # Not a query per evening: the other evening's pieces are kept. 13: the
    # version (group, evenings), the group, its members, the evenings again in
    # the snapshot, the saved evening's stakes, sums, session, rounds and
    # entries, and one for each kind of other game (filed, Call Break, pots).
    assert len(queries) <= 13

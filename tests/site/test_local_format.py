"""Numbers, money and dates the reader's way: grouped 1,000,000.00 in English and
10,00,000.00 in Nepali on every page that shows money, plain in CSV; Bikram Sambat
dates (with the Gregorian beside them) in Nepali, checked against published pairs."""

from __future__ import annotations

import csv
import datetime
import io
import re
from decimal import Decimal

import pytest
from django.conf import settings
from django.template import Context, Template
from django.urls import reverse
from django.utils import translation
from hypothesis import given
from hypothesis import settings as settings_hypothesis
from hypothesis import strategies as st

from localise.bikram_sambat import BikramSambatError, bs_label, from_bs, parse_date, to_bs
from scoring.models import GameSession
from tests.samples import make_dashain

pytestmark = pytest.mark.django_db

# Published Bikram Sambat – Gregorian pairs: New Year (1 Baishakh) of 2079–2083,
# Constitution Day 2072 (3 Asoj = 20 September 2015), Republic Day 2065 (15 Jestha =
# 28 May 2008), Vijaya Dashami 2081 (26 Asoj = 12 October 2024), Democracy Day 2007
# (7 Falgun = 18 February 1951).
PUBLISHED_PAIRS = [
    ((2079, 1, 1), datetime.date(2022, 4, 14)),
    ((2080, 1, 1), datetime.date(2023, 4, 14)),
    ((2081, 1, 1), datetime.date(2024, 4, 13)),
    ((2082, 1, 1), datetime.date(2025, 4, 14)),
    ((2083, 1, 1), datetime.date(2026, 4, 14)),
    ((2072, 6, 3), datetime.date(2015, 9, 20)),
    ((2065, 2, 15), datetime.date(2008, 5, 28)),
    ((2081, 6, 26), datetime.date(2024, 10, 12)),
    ((2007, 11, 7), datetime.date(1951, 2, 18)),
]


@pytest.mark.parametrize(("bs", "ad"), PUBLISHED_PAIRS)
def test_bikram_sambat_matches_published_dates(bs, ad):
    assert from_bs(*bs) == ad
    assert to_bs(ad) == bs


def test_bikram_sambat_labels_and_typed_dates():
    dashain = datetime.date(2026, 10, 2)
    assert bs_label(dashain) == "16 असोज 2083"
    assert bs_label(dashain, nepali=False) == "16 Ashwin 2083"
    today = datetime.date(2026, 11, 23)
    for typed in (
        "2083-06-16",
        "2083/6/16",
        "२०८३-०६-१६",
        "2083-06-16 BS",
        "2083-06-16 वि.सं.",
        "2026-10-02",
        "2026-10-02 AD",
    ):
        assert parse_date(typed, today=today) == dashain, typed
    for bad in ("2083-06-33", "2083-13-01", "16 Asoj", "", "2026-02-30"):
        with pytest.raises(BikramSambatError):
            parse_date(bad, today=today)


def render(source: str, language: str, **context) -> str:
    with translation.override(language):
        return Template("{% load local_format %}" + source).render(Context(context))


def test_money_and_numbers_group_the_readers_way():
    million = Decimal("1000000")
    assert render("{{ v|money }}", "en", v=million) == "1,000,000.00"
    assert render("{{ v|money }}", "ne", v=million) == "10,00,000.00"  # a column lines up
    assert render("{{ v|money }}", "ne", v=Decimal("-12500.5")) == "-12,500.50"
    assert render("{{ v|money }}", "en", v=Decimal("0.125")) == "0.125"
    assert render("{{ v|money }}", "ne", v=Decimal("69500.00")) == "69,500.00"
    assert render("{{ v|money }}", "ne", v=Decimal("2.50")) == "2.50"
    whole = Decimal("69500")
    assert render("{{ c|currency }} {{ v|money }}", "ne", c="NPR", v=whole) == "रु. 69,500.00"
    assert render("{{ v|money_in:c }}", "ne", c="NPR", v=Decimal("-174000")) == "रु. 1,74,000.00"
    assert render("{{ v|money_in:c }}", "en", c="NPR", v=Decimal("66")) == "NPR 66.00"
    assert render("{{ v|money_in:c }}", "ne", c="USD", v=Decimal("97.5")) == "USD 97.50"
    assert render("{{ c|currency }} {{ v|money }}", "en", c="NPR", v=Decimal("69500")) == (
        "NPR 69,500.00"
    )
    assert render("{{ c|currency }}", "ne", c="USD") == "USD"
    assert render("{{ v|num }} {{ w|signed }} {{ z|signed }}", "ne", v=100000, w=250000, z=-16) == (
        "1,00,000 +2,50,000 -16"
    )
    assert render("{{ v|num }}", "en", v=100000) == "100,000"


def test_dates_in_nepali_are_bikram_sambat_with_the_gregorian_beside():
    day = datetime.date(2026, 11, 23)
    assert render("{{ d|local_date }}", "en", d=day) == "23 Nov 2026"
    assert render("{{ d|local_date }}", "ne", d=day) == "7 मंसिर 2083 (23 नोभेम्बर 2026)"
    assert render('{{ d|local_date:"j F Y" }}', "ne", d=datetime.date(2026, 10, 2)) == (
        "16 असोज 2083 (2 अक्टोबर 2026)"
    )


@pytest.fixture
def rich(owner):
    """The Dashain session at 12,500 a point: Aama is owed 4,87,500 (39 points)."""
    session = make_dashain(owner)
    GameSession.objects.filter(pk=session.pk).update(
        stake_per_point=Decimal("12500"), share_token="share-token-rich-0123456789"
    )
    return GameSession.objects.get(pk=session.pk)


@pytest.mark.parametrize(
    ("language", "stake", "amount", "date"),
    [
        ("en", "NPR 12,500.00", "NPR 362,500.00", "2 Oct 2026"),
        ("ne", "रु. 12,500.00", "रु. 3,62,500.00", "16 असोज 2083 (2 अक्टोबर 2026)"),
    ],
)
def test_money_grouped_on_every_page(logged_in, rich, language, stake, amount, date):
    """Buwa pays 29 points × 12,500 = 3,62,500 on settle-up and the share page; the
    session and share pages head with the stake and the date; the ledger's standings
    show every balance grouped."""
    logged_in.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    pages = {
        "settle": reverse("settle_up", args=[rich.pk]),
        "session": reverse("session_detail", args=[rich.pk]),
        "share": reverse("share_view", args=[rich.share_token]),
        "summary": reverse("session_summary", args=[rich.pk]),
    }
    html = {what: logged_in.get(url).content.decode() for what, url in pages.items()}
    for what in ("settle", "share", "summary"):
        assert amount in html[what].replace("<strong>", "").replace("</strong>", ""), what
    for what in ("session", "share"):
        assert f"{stake} " in html[what], what
        assert date in html[what], what
    assert "1000000" not in "".join(html.values()) and "362500" not in "".join(html.values())
    # The standings (session page and share page): Aama +39 points, +4,87,500.00.
    aama = "+487,500.00" if language == "en" else "4,87,500.00"
    for what in ("session", "share"):
        assert aama.lstrip("+") in html[what], what


def test_csv_has_plain_numbers(logged_in, rich):
    """Whatever the reader's language, the CSV's figures are plain: no grouping."""
    logged_in.cookies[settings.LANGUAGE_COOKIE_NAME] = "ne"
    body = logged_in.get(reverse("ledger_csv", args=[rich.pk])).content.decode()
    rows = list(csv.reader(io.StringIO(body)))
    assert rows[0][0] == "\ufeffRound"
    figures = [cell for row in rows[1:] for cell in row[4:]]
    assert figures and all(re.fullmatch(r"-?\d+", cell) for cell in figures if cell), figures
    assert rows[-1][-4:] == ["39", "-29", "7", "-17"]  # running totals, last round


@settings_hypothesis(max_examples=300, deadline=None)
@given(
    value=st.integers(min_value=-(10**15), max_value=10**15),
    cents=st.integers(min_value=-(10**9), max_value=10**9),
    language=st.sampled_from(["en", "ne"]),
)
def test_numbers_formatted_once_per_page_read_as_the_filters_do(value, cents, language):
    """The ledger table formats its numbers with NumberFormat (the format read once
    per page): the text is the filters' to the character, in both languages."""
    from localise.numbers import NumberFormat
    from localise.templatetags.local_format import money, num, signed

    amount = Decimal(cents) / 100
    with translation.override(language):
        fmt = NumberFormat.current()
        assert fmt.num(value) == num(value)
        assert fmt.signed(value) == signed(value)
        assert fmt.money(amount) == money(amount)


@pytest.mark.parametrize(
    "value", [5, -3, 0, Decimal("2.50"), Decimal("-0.01"), Decimal("0.00"), 1.5, None, "", "x"]
)
def test_sign_class_is_what_the_if_tags_it_replaced_gave(value):
    """`|sign_class` stands for `{% if v > 0 %}pos{% elif v < 0 %}neg{% endif %}`."""
    context = Context({"v": value})
    tags = Template("{% if v > 0 %}pos{% elif v < 0 %}neg{% endif %}").render(context)
    assert Template("{% load local_format %}{{ v|sign_class }}").render(context) == tags


@pytest.mark.parametrize(
    ("language", "value", "shown"),
    [
        ("en", "next_winner", "next winner"),
        ("en", "round_total", "round total"),
        ("en", "kidnap", "kidnap"),
        ("ne", "next_winner", "अर्को जित्ने"),
    ],
)
def test_rule_values_are_words_in_either_language(language, value, shown):
    assert render("{{ value|rule_value }}", language, value=value) == shown


# --- every figure grouped: a round's breakdown, dhoos waiting, the import's limit ------------


def big_round():
    """Aama wins a better round holding 10,000 maal: each of five pays (10,000 + 3) × 2,
    and she receives 1,00,030."""
    from scoring.engine import make_rules
    from scoring.engine.settlement import Entry, RoundInput, settle_round

    names = ("Aama", "Buwa", "Didi", "Dai", "Kaka", "Hajurba")
    entries = tuple(Entry(name, "seen", 10000 if name == "Aama" else 0) for name in names)
    round_ = RoundInput(entries=entries, winner="Aama", better=True)
    return settle_round(round_, make_rules("pagat", max_players=6))


@pytest.mark.parametrize(
    ("language", "figures"),
    [
        ("en", ["T = <b>10,000</b>", "S = 10,000", "+100,030", "-20,006",
                "(10,000 + 3 − 0) × 2 = <b>20,006</b>",
                "20,006 + 20,006 + 20,006 + 20,006 + 20,006 = 100,030"]),
        ("ne", ["T = <b>10,000</b>", "S = 10,000", "+1,00,030", "-20,006",
                "(10,000 + 3 − 0) × 2 = <b>20,006</b>",
                "20,006 + 20,006 + 20,006 + 20,006 + 20,006 = 1,00,030"]),
    ],
)  # fmt: skip
def test_a_rounds_breakdown_is_grouped(language, figures):
    template = Template("{% include 'scoring/rounds/_breakdown.html' %}")
    with translation.override(language):
        html = template.render(Context({"result": big_round(), "on_guide": True}))
    for figure in figures:
        assert figure in html, figure
    assert "100030" not in html and "10000" not in html


@pytest.mark.parametrize(("language", "owes"), [("en", "150,000"), ("ne", "1,50,000")])
def test_dhoos_waiting_is_grouped(language, owes):
    ledger = {"pending": [{"player": "Buwa", "amount": 150000, "round": 3}]}
    template = Template("{% include 'scoring/_pending_dhoos.html' %}")
    with translation.override(language):
        html = " ".join(template.render(Context({"ledger": ledger})).split())
    assert owes in html and "150000" not in html


@pytest.mark.parametrize(
    ("language", "form_says", "file_says"),
    [
        ("en", "larger than the limit of 12,582,912 bytes for a session file",
         "file: larger than the limit of 12,582,912 bytes"),
        ("ne", "1,25,82,912 बाइट", "फाइल: 1,25,82,912 बाइटको सीमाभन्दा ठूलो"),
    ],
)  # fmt: skip
def test_the_import_limit_is_grouped(language, form_says, file_says):
    """12 MiB, said in the reader's grouping by the form and by the engine's message."""
    from scoring.engine.sessionfile import SessionFileError, loads
    from scoring.forms.files import ImportForm
    from scoring.words.i18n import translate

    with translation.override(language):
        form = ImportForm({}, {}, too_large=True)
        assert not form.is_valid()
        assert form_says in form.errors["file"][0]
        with pytest.raises(SessionFileError) as caught:
            loads(" " * (12 * 1024 * 1024 + 1))
        assert translate(caught.value.msg) == file_says


@pytest.mark.parametrize("language", ["en", "ne"])
def test_history_dates_in_either_calendar(language):
    """The round history's From and To read a Bikram Sambat date as the session form does."""
    from stats.forms import HistoryForm

    with translation.override(language):
        form = HistoryForm({"date_from": "2083-06-16", "date_to": "2026-10-31"}, players={})
        assert form.is_valid(), form.errors
        assert form.cleaned_data["date_from"] == datetime.date(2026, 10, 2)
        assert form.cleaned_data["date_to"] == datetime.date(2026, 10, 31)
        form = HistoryForm({"date_from": "2083-13-40"}, players={})
        assert not form.is_valid()
        assert form.errors["date_from"] == [
            "Enter a valid date. Bikram Sambat has no 2083-13-40."
            if language == "en"
            else "सही मिति लेख्नुहोस्। विक्रम संवत्मा 2083-13-40 भन्ने मिति हुँदैन।"
        ]


# --- Dashain and Tihar (localise/festivals.py) ---------------------------------------------------


@pytest.mark.parametrize(
    ("bs_year", "ghatasthapana", "bhai_tika"),
    [
        (2075, datetime.date(2018, 10, 10), datetime.date(2018, 11, 9)),
        (2077, datetime.date(2020, 10, 17), None),  # an extra Ashwin: the second one's
        (2078, datetime.date(2021, 10, 7), datetime.date(2021, 11, 6)),
        (2079, datetime.date(2022, 9, 26), datetime.date(2022, 10, 27)),
        (2080, datetime.date(2023, 10, 15), datetime.date(2023, 11, 15)),
        (2081, datetime.date(2024, 10, 3), datetime.date(2024, 11, 3)),
        (2082, datetime.date(2025, 9, 22), datetime.date(2025, 10, 23)),
        (2083, datetime.date(2026, 10, 11), None),
    ],
)
def test_dashain_and_tihar_as_the_calendar_gives_them(bs_year, ghatasthapana, bhai_tika):
    """Ghatasthapana and Bhai Tika as Nepal kept them: the windows come from the moon."""
    from localise.festivals import festivals

    found = festivals(bs_year)
    assert found.dashain[0] == ghatasthapana
    assert 13 <= (found.dashain[1] - found.dashain[0]).days <= 15  # to Kojagrat Purnima
    if bhai_tika:
        assert found.tihar[1] == bhai_tika
    assert 4 <= (found.tihar[1] - found.tihar[0]).days <= 5
    assert found.dashain[1] < found.tihar[0]


def test_an_evening_is_known_dashain_or_tihar_by_its_day():
    from localise.festivals import festival_of

    assert festival_of(datetime.date(2026, 10, 20)) == "dashain"  # Vijaya Dashami 2083
    assert festival_of(datetime.date(2026, 11, 8)) == "tihar"  # Laxmi Puja 2083
    assert festival_of(datetime.date(2026, 10, 2)) == ""
    assert festival_of(datetime.date(1900, 1, 1)) == ""  # outside the calendar's tables

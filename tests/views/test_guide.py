"""The "How scoring works" page and every breakdown in words: the page's figures are
the engine's (RULES.md section 2's worked example: A +3, B −16, C +30, D −17), in
English and Nepali, and each player's payment is said in a sentence."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

from scoring import services
from scoring.engine import PRESETS, Entry, RoundInput, make_rules, settle_round
from scoring.engine.rules import OPTION_LABELS, OPTION_NAMES, TABLE_OPTION
from scoring.models import new_share_token
from scoring.words import guide
from scoring.words.breakdown_words import round_sentences
from tests.web_helpers import make_session

pytestmark = pytest.mark.django_db

WORKED_NETS = {"A": "+3", "B": "-16", "C": "+30", "D": "-17"}


def page(client, language: str) -> str:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    response = client.get(reverse("how_it_works"))
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.parametrize("language", ["en", "ne"])
def test_the_worked_example_is_settled_by_the_engine(client, language):
    html = page(client, language)
    for player, net in WORKED_NETS.items():
        row = f'<tr data-player="{player}"><th scope="row">{player}</th><td class="num">{net}</td>'
        assert row in html, (language, player)
    # The breakdown of the same round, figure by figure.
    assert "(14 + 10 − 8) × 1 = <b>16</b>" in html
    assert "(14 + 3 − 20) × 1 = <b>-3</b>" in html


def test_the_page_is_public_and_linked(client, owner, logged_in):
    assert client.get(reverse("how_it_works")).status_code == 200
    href = f'href="{reverse("how_it_works")}"'
    assert href in client.get(reverse("home")).content.decode()  # the top bar, signed out
    session = make_session(owner)
    entries = (Entry("Aama", "seen", 5), Entry("Buwa", "unseen", 2), Entry("Didi", "seen", 7))
    round_ = services.add_round(
        session=session, round_input=RoundInput(entries=entries, winner="Didi")
    )
    session.share_token = new_share_token()
    session.save(update_fields=["share_token"])
    for url in (
        reverse("home"),
        reverse("session_rules", args=[session.pk]),
        reverse("round_detail", args=[session.pk, round_.pk]),
        reverse("share_view", args=[session.share_token]),
    ):
        assert href in logged_in.get(url).content.decode(), url


SENTENCES_EN = {
    "A": "A receives 3 from C: all points 14, plus 3 for seen, minus 4 players × A's 5 makes −3.",
    "B": "B pays C 16: all points 14, plus 10 for unseen, minus 4 players × B's 2.",
    "C": "C takes 30 as the winner: 16 from B, 17 from D, less 3 to A.",
    "D": "D pays C 17: all points 14, plus 3 for seen, nothing off (D counts 0).",
}
SENTENCES_NE = {
    "A": "A ले C बाट 3 पाउने: सबैको जम्मा अंक 14, जोड सिनको 3, घटाउ 4 जना × A को 5, बराबर −3।",
    "B": "B ले C लाई 16 तिर्ने: सबैको जम्मा अंक 14, जोड अनसिनको 10, घटाउ 4 जना × B को 2।",
    "C": "जित्ने C ले 30 पाउने: B बाट 16, D बाट 17, घटाउ A लाई 3।",
    "D": "D ले C लाई 17 तिर्ने: सबैको जम्मा अंक 14, जोड सिनको 3, घटाउ केही छैन (D को 0)।",
}


@pytest.mark.parametrize(("language", "expected"), [("en", SENTENCES_EN), ("ne", SENTENCES_NE)])
def test_the_worked_example_in_words(client, language, expected):
    with translation.override(language):
        assert round_sentences(guide.worked_example()) == expected
    html = page(client, language)
    for sentence in expected.values():
        assert f'<p class="in-words">{sentence.replace("'", "&#x27;")}</p>' in html


def words(round_: RoundInput, language: str = "en", **options) -> dict[str, str]:
    with translation.override(language):
        return round_sentences(settle_round(round_, make_rules("pagat", **options)))


def test_a_better_round_in_words():
    said = words(guide.BETTER)
    assert said["B"] == (
        "B pays C 32: all points 14, plus 10 for unseen, minus 4 players × B's 2, "
        "all × 2 for the better round."
    )
    assert said["C"] == "C takes 60 as the winner: 32 from B, 34 from D, less 6 to A."
    assert words(guide.BETTER, "ne")["B"] == (
        "B ले C लाई 32 तिर्ने: सबैको जम्मा अंक 14, जोड अनसिनको 10, घटाउ 4 जना × B को 2, "
        "सबैलाई 2 ले गुणा (बेटर राउन्ड)।"
    )


def test_a_dublee_win_and_a_player_who_saw_by_dublees_in_words():
    said = words(guide.DUBLEE_WIN)
    assert said["B"] == (
        "B pays C 21: all points 14, plus 10 for unseen, plus 5 for the dublee win, "
        "minus 4 players × B's 2."
    )
    said = words(guide.BY_DUBLEES, dublee_players_pay_seen=False)
    assert said["A"] == (
        "A receives 6 from C: all points 14, no seen payment (saw by dublees), "
        "minus 4 players × A's 5 makes −6."
    )


def test_dhoos_in_words():
    said = words(guide.DHOOS)
    assert said["D"] == (
        "D pays C 17: all points 14, plus 3 for seen, nothing off (D counts 0). "
        "With dhoos −45, D ends the round at −62."
    )
    assert said["A"].endswith("With dhoos +15, A ends the round at +18.")
    no_winner = RoundInput(entries=(Entry("A", maal=3), Entry("B", dhoos=True)), winner=None)
    assert words(no_winner) == {"A": "A receives 15 in dhoos.", "B": "B pays 15 in dhoos."}
    assert words(no_winner, "ne") == {
        "A": "A ले धुसबापत 15 पाउने।",
        "B": "B ले धुसबापत 15 तिर्ने।",
    }


def test_even_and_a_winner_who_pays_in_words():
    # A seen 3 loser against T 3 + w 3 − 2·3 = 0.
    even = RoundInput(entries=(Entry("A", maal=3), Entry("B")), winner="B")
    said = words(even)
    assert (
        said["A"]
        == "A and B are even: all points 3, plus 3 for seen, minus 2 players × A's 3 makes 0."
    )
    assert said["B"] == "B won the round and comes out even."
    pays = RoundInput(entries=(Entry("A", maal=20), Entry("B")), winner="B")
    assert words(pays)["B"] == "B won the round but pays 17: less 17 to A."


def test_every_option_appears_with_its_example(client):
    with translation.override("en"):
        options = {option.name: option for option in guide.options()}
    assert list(options) == [*OPTION_NAMES, TABLE_OPTION]
    for name in guide.EXAMPLES:
        # Each example written for an option shows what it changes: a figure or a refusal.
        option = options[name]
        changed = any(cell.changed for row in option.rows for cell in row.cells)
        refused = any(column.problem for column in option.columns)
        assert changed or refused, option.name
    assert all(len(option.columns) >= 2 for option in options.values())
    nets = {row.label: [c.value for c in row.cells] for row in options["unseen_maal"].rows}
    assert nets == {"A": [3, 5, 3], "B": [-16, -22, -24], "C": [30, 32, 38], "D": [-17, -15, -17]}
    assert [c.head for c in options["unseen_maal"].columns] == ["count", "void", "kidnap"]
    assert options["max_players"].columns[1].problem == (
        "at most 4 players can play a round under these rules, got 5"
    )
    maal = options["maal_table"].rows[0]
    assert [c.value for c in maal.cells] == [19, 24, 20]
    for language in ("en", "ne"):
        html = page(client, language)
        with translation.override(language):
            for name in options:
                section = re.search(
                    rf'<section class="card guide-option" id="option-{name}".*?</section>',
                    html,
                    re.S,
                )
                assert section, (language, name)
                assert translation.gettext(OPTION_LABELS[name]) in section.group(), (language, name)
                assert 'role="region"' in section.group()


@translation.override("en")
def test_the_presets_side_by_side():
    presets = guide.presets()
    assert presets["heads"] == list(PRESETS)
    nets = {row.label: [c.value for c in row.cells] for row in presets["nets"]}
    assert nets == {
        "A": [3, 3, 5, 3, 5],
        "B": [-16, -24, -22, -16, -22],
        "C": [30, 38, 32, 30, 32],
        "D": [-17, -17, -15, -17, -15],
    }
    rows = {row.label: row.values for row in presets["rows"]}
    assert rows["Unseen maal"] == ("count", "kidnap", "void", "count", "void")
    assert rows["Dhoos paid to"] == ("all", "all", "all", "all", "next winner")
    tables = {row.label: row.values for row in guide.maal_tables()["rows"]}
    assert tables["Tiplu"] == ("3, 7", "3 each", "3, 8")
    assert tables["Marriage"] == ("10, 30", "10 each, on top of its cards", "10, 25")
    assert tables["Tunnel of alter"] == ("–", "30 each", "35 each")


def test_the_presets_and_tables_in_nepali():
    with translation.override("ne"):
        presets = guide.presets()
        tables = {row.label: row.values for row in guide.maal_tables()["rows"]}
        heads = guide.maal_tables()["heads"]
    assert presets["heads"] == ["पगत", "किडन्याप", "मर्डर", "विकिपिडिया", "नेपाल"]
    assert heads == ["पगत", "एकनास", "तहगत"]
    rows = {row.label: row.values for row in presets["rows"]}
    assert rows["अनसिनको माल"] == ("गनिन्छ", "किडन्याप", "शून्य", "गनिन्छ", "शून्य")
    assert tables["टिप्लु"][:2] == ("3, 7", "प्रत्येक 3")


def test_an_option_with_no_example_of_its_own_is_shown_where_it_changes_a_figure(monkeypatch):
    # The dublee bonus changes nothing on the worked example (not a dublee win): an
    # option added without an example is tried on the other options' rounds instead.
    monkeypatch.delitem(guide.EXAMPLES, "dublee_bonus")
    with translation.override("en"):
        options = {option.name: option for option in guide.options()}
    bonus = options["dublee_bonus"]
    assert [c.head for c in bonus.columns] == ["5", "0"]
    assert "eight dublees" in bonus.setting  # a dublee win, where the bonus is paid
    assert any(cell.changed for row in bonus.rows for cell in row.cells)

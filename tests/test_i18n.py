"""English and Nepali: the language switch, Nepali pages, Nepali number formats, and a
catalogue with every string translated."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation
from django.utils.formats import number_format

from .test_stats import make_dashain, make_tihar

pytestmark = pytest.mark.django_db

PO_FILE = Path(settings.BASE_DIR) / "locale" / "ne" / "LC_MESSAGES" / "django.po"


def test_landing_page_in_nepali_by_accept_language(client):
    html = client.get(reverse("home"), headers={"accept-language": "ne"}).content.decode()
    assert '<html lang="ne">' in html
    assert "<title>म्यारिज अंक पुस्तिका</title>" in html
    assert "{#" not in html and "{%" not in html  # no template comment leaked
    assert "लग इन" in html
    # The switch offers the other language.
    assert 'value="en"' in html and ">English</button>" in html


def test_english_by_default(client):
    html = client.get(reverse("home")).content.decode()
    assert '<html lang="en">' in html
    assert "<title>Marriage scorekeeper</title>" in html
    assert ">नेपाली</button>" in html


def test_language_switch_sets_the_cookie_and_goes_back(client):
    response = client.post(
        reverse("set_language"), {"language": "ne"}, headers={"referer": "/history/?winner=didi"}
    )
    assert response.status_code == 302
    assert response["Location"] == "/history/?winner=didi"
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "ne"
    html = client.get(reverse("home")).content.decode()
    assert '<html lang="ne">' in html


def test_player_page_in_nepali_with_game_terms(logged_in, owner):
    make_dashain(owner)
    make_tihar(owner)
    logged_in.cookies[settings.LANGUAGE_COOKIE_NAME] = "ne"
    html = logged_in.get(reverse("player_detail", args=["Aama"])).content.decode()
    for words in ("डुब्ली जित", "अन्त्यमा सिन", "अन्त्यमा अनसिन", "औसत माल", "आमनेसामने", "कुल अंक"):
        assert words in html, words
    assert "Dublee wins" not in html
    assert "Head to head" not in html


def test_history_page_in_nepali(logged_in, owner):
    make_dashain(owner)
    logged_in.cookies[settings.LANGUAGE_COOKIE_NAME] = "ne"
    html = logged_in.get(reverse("round_history"), {"dublee": "on"}).content.decode()
    assert "राउन्डको इतिहास" in html
    assert "1 राउन्ड भेटियो" in html
    assert "Aama जित्नुभयो" in html
    assert ">डुब्ली</span>" in html


def test_summary_and_chart_in_nepali(logged_in, owner):
    session = make_dashain(owner)
    logged_in.cookies[settings.LANGUAGE_COOKIE_NAME] = "ne"
    html = logged_in.get(reverse("session_summary", args=[session.pk])).content.decode()
    assert "हिसाब मिलाउनुहोस्" in html
    assert "<strong>Buwa</strong> ले <strong>Aama</strong> लाई NPR 72.50 तिर्ने (29 अंक)" in html
    assert "चलिरहेको जम्मा: Dashain" in html  # the chart's title
    assert ">राउन्ड</text>" in html  # its x axis


def test_numbers_group_in_lakhs_in_nepali():
    with translation.override("en"):
        assert number_format(1234567, 0, force_grouping=True) == "1,234,567"
    with translation.override("ne"):
        assert number_format(1234567, 0, force_grouping=True) == "12,34,567"
        assert number_format(-1234567.5, 2, force_grouping=True) == "-12,34,567.50"


def test_big_amounts_on_the_leaderboard_follow_the_language(logged_in, owner):
    session = make_dashain(owner)
    session.stake_per_point = 10000
    session.save()
    html = logged_in.get(reverse("leaderboard")).content.decode()
    assert "+390,000.00" in html  # Aama: 39 points × 10,000
    logged_in.cookies[settings.LANGUAGE_COOKIE_NAME] = "ne"
    html = logged_in.get(reverse("leaderboard")).content.decode()
    assert "+3,90,000.00" in html


def po_entries() -> list[tuple[str, list[str]]]:
    """(msgid, msgstrs) of every entry in the Nepali catalogue, header excluded."""
    text = PO_FILE.read_text(encoding="utf-8")
    entries = []
    for block in text.split("\n\n")[1:]:
        lines = [line for line in block.splitlines() if not line.startswith("#")]
        if not lines:
            continue
        current = None
        parts: dict[str, str] = {}
        for line in lines:
            match = re.match(r'^(msgid|msgid_plural|msgstr(?:\[\d\])?) "(.*)"$', line)
            if match:
                current = match.group(1)
                parts[current] = match.group(2)
            elif current:
                parts[current] += line.strip()[1:-1]
        strs = [v for k, v in parts.items() if k.startswith("msgstr")]
        entries.append((parts.get("msgid", ""), strs))
    return entries


def test_every_string_has_a_nepali_translation():
    text = PO_FILE.read_text(encoding="utf-8")
    assert "#, fuzzy" not in text
    entries = po_entries()
    assert len(entries) > 300
    missing = [msgid for msgid, strs in entries if not all(strs)]
    assert missing == []


def test_compiled_catalogue_is_up_to_date():
    """The .mo is committed so the app runs without gettext; it must match the .po."""
    mo = PO_FILE.with_suffix(".mo")
    assert mo.exists()
    with translation.override("ne"):
        for msgid, strs in po_entries():
            if "\\" in msgid or len(strs) != 1:
                continue  # escapes and plurals: checked through the pages above
            assert translation.gettext(msgid) == strs[0].replace('\\"', '"'), msgid


def test_engine_option_words_are_in_the_catalogue():
    from scoring.engine.maal import ITEM_LABELS, TALLY_LABELS
    from scoring.engine.rules import OPTION_HELP, OPTION_LABELS
    from scoring.engine_text import ITEM_WORDS, OPTION_WORDS, TALLY_WORDS

    assert set(OPTION_WORDS) == set(OPTION_LABELS.values()) | set(OPTION_HELP.values())
    assert set(ITEM_WORDS) == set(ITEM_LABELS.values())
    assert set(TALLY_WORDS) == set(TALLY_LABELS.values())
    with translation.override("ne"):
        assert translation.gettext("Dhoos penalty") == "धुस जरिवाना"
        assert translation.gettext("Tunnel of poplu or jhiplu") == "पोप्लु वा झिप्लुको टनेल"


# --- every string of every page is translatable, and translated ------------------------------

TEMPLATE_DIRS = [Path(settings.BASE_DIR) / "templates", Path(settings.BASE_DIR) / "stats/templates"]
SOURCE_DIRS = [Path(settings.BASE_DIR) / "scoring", Path(settings.BASE_DIR) / "stats"]
TEXT_ATTRIBUTES = re.compile(r'\b(title|aria-label|placeholder|alt)="([^"]*)"')


def templates() -> list[Path]:
    return sorted(p for folder in TEMPLATE_DIRS for p in folder.rglob("*.html"))


def untranslated(source: str) -> list[str]:
    """Words a template shows that are not inside {% translate %} or {% blocktranslate %}."""
    text = re.sub(r"{% *comment *%}.*?{% *endcomment *%}|{#.*?#}", " ", source, flags=re.S)
    text = re.sub(r"{% *blocktranslate.*?{% *endblocktranslate *%}", " ", text, flags=re.S)
    text = re.sub(r"<(script|style)\b.*?</\1>", " ", text, flags=re.S)
    found = []
    for match in TEXT_ATTRIBUTES.finditer(text):
        value = re.sub(r"{%.*?%}|{{.*?}}", "", match.group(2))
        if re.search(r"[A-Za-z]{2,}", value):
            found.append(f'{match.group(1)}="{match.group(2)}"')
    body = re.sub(r"<[^>]*>", " ", re.sub(r"{%.*?%}|{{.*?}}", " ", text, flags=re.S))
    found.extend(line.strip() for line in body.splitlines() if re.search(r"[A-Za-z]{2,}", line))
    return found


def test_the_template_scanner_finds_plain_text():
    source = '<p title="Hi there">Plain words {{ x }}</p>{% translate "ok" %}<i>{{ n }}</i>'
    assert untranslated(source) == ['title="Hi there"', "Plain words"]


def test_no_template_shows_untranslated_text():
    problems = {
        str(path.relative_to(settings.BASE_DIR)): found
        for path in templates()
        if (found := untranslated(path.read_text(encoding="utf-8")))
    }
    assert problems == {}


def test_every_literal_string_is_in_the_catalogue():
    """Catches a string added after the last makemessages (the .po would lack it)."""
    msgids = {msgid.replace('\\"', '"') for msgid, _strs in po_entries()}
    literals = set()
    for path in templates():
        literals |= set(re.findall(r'{% *translate "([^"]+)"', path.read_text(encoding="utf-8")))
    for folder in SOURCE_DIRS:
        for path in folder.rglob("*.py"):
            if "migrations" in path.parts:
                continue
            source = path.read_text(encoding="utf-8")
            literals |= set(re.findall(r'\b_\("((?:[^"\\]|\\.)+)"\)', source))
    missing = sorted(literals - msgids)
    assert missing == []


def test_rule_options_from_the_engine_are_shown_in_nepali(logged_in, owner):
    session = make_dashain(owner)
    logged_in.cookies[settings.LANGUAGE_COOKIE_NAME] = "ne"
    html = logged_in.get(reverse("session_rules", args=[session.pk])).content.decode()
    assert "धुस जरिवाना" in html  # Dhoos penalty
    assert "अनसिनको माल" in html  # Unseen maal
    assert "Dhoos penalty" not in html


def test_engine_messages_and_notes_are_translated():
    from scoring.engine import RoundError
    from scoring.engine_text import engine_error, engine_message

    note = "maal 6 kidnapped by Kaka"
    error = RoundError("a round needs at least 2 players, got 1", field="players")
    with translation.override("en"):
        assert engine_message(note) == note  # English stays word for word
        assert engine_error(error) == str(error)
        assert engine_message("something new") == "something new"
    with translation.override("ne"):
        assert engine_message(note) == "माल 6 Kaka ले किडन्याप गर्नुभयो"
        assert engine_message("dhoos: pays 15 to each of 3 players") == (
            "धुस: अरू 3 जना प्रत्येकलाई 15 तिर्ने"
        )
        assert engine_error(error) == "खेलाडीहरू: राउन्डमा कम्तीमा 2 खेलाडी चाहिन्छ, 1 जना मात्र छन्"


def test_round_breakdown_notes_in_nepali(logged_in, owner):
    session = make_tihar(owner)
    round_1 = session.rounds.get(number=1)
    logged_in.cookies[settings.LANGUAGE_COOKIE_NAME] = "ne"
    html = logged_in.get(reverse("round_detail", args=[session.pk, round_1.pk])).content.decode()
    assert "माल 6 Kaka ले किडन्याप गर्नुभयो" in html
    assert "अनसिन खेलाडीहरूबाट 6 माल किडन्याप" in html


def test_maal_breakdown_is_translated():
    from scoring.engine_text import engine_message

    text = "2 poplu = 5, 1 marriage = 10, 2 tunnels of poplu and jhiplu = 30"
    with translation.override("en"):
        assert engine_message(text) == text
    with translation.override("ne"):
        assert engine_message(text) == ("2 पोप्लु = 5, 1 म्यारिज = 10, 2 पोप्लु र झिप्लुको टनेल = 30")
        assert engine_message("no maal") == "माल छैन"


# --- the maal calculator's errors (MaalError) ------------------------------------------------


def maal_error_cases() -> list[tuple[str, object]]:
    """(what, a call raising one MaalError) for every `raise MaalError` of the engine."""
    from scoring.engine import maal as m
    from scoring.engine.rules import Rules

    plain = Rules()  # no alter, printed jokers or master card
    everything = Rules(alter=True, printed_jokers=True, master_card=True)
    seven = m.Card("7", "H")
    table = m.PRESET_TABLES["tiers"].to_options()

    def tally(rules: Rules = everything, **counts: int):
        return lambda: m.check_tally(m.Tally(**counts), rules)

    return [
        ("rank", lambda: m.Card("Z", "S")),
        ("suit", lambda: m.Card("A", "X")),
        ("not a string", lambda: m.Card.parse(5)),  # type: ignore[arg-type]
        ("not a card", lambda: m.Card.parse("ZZ")),
        ("tiplu", lambda: m.parse_tiplu("ZZ")),
        ("printed joker", lambda: m.card_role(m.PRINTED_JOKER, seven, plain)),
        ("master card", lambda: m.card_role(m.MASTER_CARD, seven, plain)),
        ("tunnel of tiplu", lambda: m.tunnel_kind("7H", seven, plain)),
        ("tiers text", lambda: m.check_tiers("2, x", "Tiplu")),
        ("tiers type", lambda: m.check_tiers(5, "Tiplu")),
        ("no tiers", lambda: m.check_tiers([], "Tiplu")),
        ("many tiers", lambda: m.check_tiers([1] * 9, "Tiplu")),
        ("big tier", lambda: m.check_tiers([2000], "Poplu, jhiplu (each kind)")),
        ("falling tiers", lambda: m.check_tiers([5, 2], "Tiplu")),
        ("table type", lambda: m.point_table_from_options(5)),
        ("table item", lambda: m.point_table_from_options({"queen": [1]})),
        ("table missing", lambda: m.point_table_from_options({})),
        ("on top", lambda: m.point_table_from_options({**table, "marriage_on_top": "yes"})),
        ("tally type", lambda: m.Tally.from_dict(5)),
        ("tally item", lambda: m.Tally.from_dict({"queen": 1})),
        ("tally count", lambda: m.Tally.from_dict({"tiplu": "2"})),
        ("tally negative", lambda: m.Tally.from_dict({"poplu": -1})),
        ("checked negative", tally(tiplu=-1)),
        ("tiplu", tally(tiplu=1, marriages=2)),
        ("poplu tunnels", tally(poplu_tunnels=2)),
        ("poplu", tally(jhiplu=3, marriages=1)),
        ("poplu and tunnel", tally(poplu=1, poplu_tunnels=1)),
        ("alter off", tally(plain, alter=1)),
        ("alter tunnels", tally(alter_tunnels=2)),
        ("alter", tally(alter=4)),
        ("alter and tunnel", tally(alter=1, alter_tunnels=1)),
        ("joker tunnels", tally(joker_tunnels=3)),
        ("printed jokers off", tally(plain, printed_jokers=1)),
        ("printed jokers", tally(printed_jokers=7)),
        ("master card off", tally(plain, master_card=1)),
        ("master cards", tally(master_card=2)),
        ("hand", tally(tunnels=8)),
        ("copies", lambda: m.tally_from_cards(["QH"] * 4, seven, plain)),
        ("no tiplu", lambda: m.check_entry_tally({}, "", plain, 0, 0)),
        ("typed over", lambda: m.check_entry_tally({"poplu": 2}, "7H", plain, 0, 0)),
        ("tiplu as text", lambda: m.card_role("QH", "7H", plain)),  # type: ignore[arg-type]
        ("hand of cards", lambda: m.tally_from_cards(["2S"] * 22, seven, plain)),
        (
            "copies in the round",
            lambda: m.check_round_tallies({"A": m.Tally(tiplu=2), "B": m.Tally(marriages=1)}),
        ),
    ]


def test_every_maal_error_is_shown_in_nepali():
    """Each `raise MaalError` of maal.py is reached by a case, and each message is
    translated whole in Nepali while English stays the engine's words."""
    import ast
    import traceback

    from scoring.engine import maal
    from scoring.engine_text import engine_message

    source = Path(maal.__file__).read_text(encoding="utf-8")
    raises = {
        node.lineno
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Raise)
        and isinstance(node.exc, ast.Call)
        and getattr(node.exc.func, "id", "") == "MaalError"
    }
    assert len(raises) >= 40
    reached = set()
    for what, call in maal_error_cases():
        with pytest.raises(maal.MaalError) as caught:
            call()
        frame = [f for f in traceback.extract_tb(caught.tb) if f.filename == maal.__file__][-1]
        reached.add(frame.lineno)
        english = str(caught.value)
        with translation.override("en"):
            assert engine_message(english) == english
        with translation.override("ne"):
            nepali = engine_message(english)
        assert re.search("[\u0900-\u097f]", nepali), (what, english)
        # What is left in Latin letters are the values (card codes, keys), never English.
        words = set(re.findall(r"[a-z]{3,}", nepali))
        assert words <= {"object", "queen", "yes", "marriage", "top"}, (what, nepali)
    assert reached == raises


def test_maal_error_messages_in_nepali():
    from scoring.engine_text import engine_message

    with translation.override("ne"):
        assert engine_message("3 tiplu (1 marriage included): only 2 are in play (the third") == (
            "3 tiplu (1 marriage included): only 2 are in play (the third"
        )  # not an engine message: unchanged
        assert (
            engine_message(
                "3 tiplu (1 marriage included): only 2 are in play (the third lies under the stock)"
            )
            == "3 टिप्लु (1 म्यारिज समेत): खेलमा 2 वटा मात्र हुन्छन् (तेस्रो थाकमुनि हुन्छ)"
        )
        assert engine_message("2 tunnels of jhiplu: three decks hold only 3 jhiplu") == (
            "झिप्लुको 2 टनेल: तीन गड्डी तासमा 3 वटा झिप्लु मात्र हुन्छन्"
        )
        assert engine_message("poplu: must not be negative, got -1") == (
            "पोप्लु: 0 भन्दा कम हुन हुँदैन; यहाँ -1 छ"
        )
        assert engine_message(
            "tiplu: 'ZZ' is not a card: write rank then suit, such as QH or 10S"
        ) == ("टिप्लु: 'ZZ' पत्ता होइन: पहिले अंक अनि रङ लेख्नुहोस्, जस्तै QH वा 10S")
        assert engine_message(
            "the calculator counted maal 5 and tunnel 0 (2 poplu = 5), not 0 and 0; "
            "count again or clear the calculator"
        ) == (
            "क्याल्कुलेटरले माल 5 र टनेल 0 गन्यो (2 पोप्लु = 5), 0 र 0 होइन; "
            "फेरि गन्नुहोस् वा क्याल्कुलेटर खाली गर्नुहोस्"
        )


def test_every_maal_message_is_in_the_catalogue():
    from scoring.engine_text import MAAL_MESSAGES

    translated = {msgid.replace('\\"', '"'): strs for msgid, strs in po_entries()}
    for _pattern, msgid in MAAL_MESSAGES:
        assert all(translated.get(msgid, [""])), msgid


def test_impossible_tally_in_the_maal_calculator_is_explained_in_nepali(logged_in, owner):
    session = make_dashain(owner)
    logged_in.cookies[settings.LANGUAGE_COOKIE_NAME] = "ne"
    url = reverse("maal_calculator", args=[session.pk])
    html = logged_in.post(
        url, {"tiplu_rank": "7", "tiplu_suit": "H", "n-tiplu": "3"}, headers={"hx-request": "true"}
    ).content.decode()
    assert "3 टिप्लु: खेलमा 2 वटा मात्र हुन्छन् (तेस्रो थाकमुनि हुन्छ)" in html
    assert "only 2 are in play" not in html


def test_falling_point_table_is_explained_in_nepali(logged_in, owner):
    session = make_dashain(owner)
    session.rounds.all().delete()
    logged_in.cookies[settings.LANGUAGE_COOKIE_NAME] = "ne"
    data = {"tiplu": "5 2", "poplu": "2", "alter": "5", "marriage": "10", "printed_joker": "5"}
    data |= {"master_card": "5", "tunnel": "5", "joker_tunnel": "5", "poplu_tunnel": "10"}
    data |= {"alter_tunnel": "35"}
    html = logged_in.post(reverse("maal_table", args=[session.pk]), data).content.decode()
    assert "टिप्लु: धेरै हुँदा अंक घट्नु हुँदैन; यहाँ 5, 2 छ" in html

"""English and Nepali: the language switch, Nepali pages, Nepali number formats, and a
catalogue with every string translated."""

from __future__ import annotations

import ast
import re
from gettext import GNUTranslations
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation
from django.utils.formats import number_format

from tests.samples import make_dashain, make_tihar

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
    assert "राउन्ड खोज्नुहोस्" in html
    assert "1 राउन्ड भेटियो" in html
    assert "Aama जित्नुभयो" in html
    assert ">डुब्ली</span>" in html


def test_summary_and_chart_in_nepali(logged_in, owner):
    session = make_dashain(owner)
    logged_in.cookies[settings.LANGUAGE_COOKIE_NAME] = "ne"
    html = logged_in.get(reverse("session_summary", args=[session.pk])).content.decode()
    assert "कसले कसलाई तिर्ने" in html
    said = " ".join(html.split())
    assert '<li>Buwa ले Aama लाई रु. 72.50 तिर्ने <span class="muted small">(29 अंक)</span>' in said
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
    assert "+3,90,000.00" in html  # a money column always has its two decimals


def po_entries() -> list[tuple[str, list[str]]]:
    """(msgid, msgstrs) of every entry in the Nepali catalogue, header excluded; an
    entry with a context has msgid "context\x04msgid", as gettext keys it."""
    text = PO_FILE.read_text(encoding="utf-8")
    entries = []
    for block in text.split("\n\n")[1:]:
        lines = [line for line in block.splitlines() if not line.startswith("#")]
        if not lines:
            continue
        current = None
        parts: dict[str, str] = {}
        for line in lines:
            match = re.match(r'^(msgctxt|msgid|msgid_plural|msgstr(?:\[\d\])?) "(.*)"$', line)
            if match:
                current = match.group(1)
                parts[current] = match.group(2)
            elif current:
                parts[current] += line.strip()[1:-1]
        strs = [v for k, v in parts.items() if k.startswith("msgstr")]
        msgid = parts.get("msgid", "")
        if "msgctxt" in parts:
            msgid = f"{parts['msgctxt']}\x04{msgid}"
        entries.append((msgid, strs))
    return entries


def test_every_string_has_a_nepali_translation():
    text = PO_FILE.read_text(encoding="utf-8")
    assert "#, fuzzy" not in text
    entries = po_entries()
    assert len(entries) > 300
    missing = [msgid for msgid, strs in entries if not all(strs)]
    assert missing == []


def test_nepali_is_written_with_the_digits_0_to_9():
    """The app writes 0-9 in Nepali as the phone keyboard and the banks do
    (marriage_site/formats/ne), never ०-९: a "कम्तीमा २ जना" beside "2" reads as a slip."""
    devanagari = re.compile("[\u0966-\u096f]")
    found = [msgid for msgid, strs in po_entries() if any(devanagari.search(s) for s in strs)]
    assert found == []


def test_the_payment_form_names_payer_and_payee_not_dates(logged_in, owner):
    """From/To have a context each: तिर्ने/पाउने on the payment form, the date
    range's मितिदेखि/मितिसम्म on the round search."""
    with translation.override("ne"):
        assert translation.pgettext("payment", "From") == "तिर्ने"
        assert translation.pgettext("payment", "To") == "पाउने"
        assert translation.pgettext("date range", "From") == "मितिदेखि"
    from groups import services

    group = services.create_group(owner=owner, name="Pokhara", currency="NPR", members=["A", "B"])
    logged_in.cookies[settings.LANGUAGE_COOKIE_NAME] = "ne"
    html = logged_in.get(reverse("group_payment_new", args=[group.pk])).content.decode()
    assert ">तिर्ने<" in html.replace("\n", "") or "तिर्ने</label>" in html
    assert "पाउने" in html
    assert "मितिदेखि" not in html and "मितिसम्म" not in html


def test_compiled_catalogue_is_up_to_date():
    """The .mo is committed so the app runs without gettext; it must match the .po."""
    mo = PO_FILE.with_suffix(".mo")
    assert mo.exists()
    with translation.override("ne"):
        for msgid, strs in po_entries():
            if "\\" in msgid or len(strs) != 1:
                continue  # escapes and plurals: checked through the pages above
            if "\x04" in msgid:
                context, msgid = msgid.split("\x04")
                nepali = translation.pgettext(context, msgid)
            else:
                nepali = translation.gettext(msgid)
            assert nepali == strs[0].replace('\\"', '"'), msgid


def test_engine_option_words_are_marked_and_in_the_catalogue():
    from scoring.engine.maal import ITEM_LABELS, TALLY_LABELS
    from scoring.engine.rules import OPTION_HELP, OPTION_LABELS

    marked = set(engine_msgids())
    for words in (OPTION_LABELS, OPTION_HELP, ITEM_LABELS, TALLY_LABELS):
        assert set(words.values()) <= marked
    with translation.override("ne"):
        assert translation.gettext("Dhoos penalty") == "धुस जरिवाना"
        assert translation.gettext("Tunnel of poplu or jhiplu") == "पोप्लु वा झिप्लुको टनेल"


# --- every message the engine can produce has Nepali ---------------------------------------

ENGINE_DIR = Path(settings.BASE_DIR) / "scoring" / "engine"


def engine_sources() -> list[Path]:
    return sorted(ENGINE_DIR.glob("*.py"))


def message_makers() -> set[str]:
    """What builds an engine message: Message, message() and every EngineError class."""
    import importlib
    import inspect

    from scoring.engine.messages import EngineError

    names = {"Message", "message"}
    for path in engine_sources():
        module = importlib.import_module(f"scoring.engine.{path.stem}")
        names |= {
            name
            for name, value in vars(module).items()
            if inspect.isclass(value) and issubclass(value, EngineError)
        }
    return names


def engine_msgids() -> dict[str, str]:
    """Every id the engine marks with its gettext_noop: {msgid: "file:line"}."""
    found: dict[str, str] = {}
    for path in engine_sources():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "gettext_noop":
                where = f"{path.name}:{node.lineno}"
                (text,) = node.args
                assert isinstance(text, ast.Constant) and isinstance(text.value, str), where
                found.setdefault(text.value, where)
    return found


def unmarked_messages(source: str, makers: set[str]) -> list[int]:
    """Lines where an engine error or message is built from text not marked with
    gettext_noop (a literal or an f-string): the catalogue could never have it."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if (
            isinstance(node, ast.Call)
            and getattr(node.func, "id", "") in makers
            and node.args
            and isinstance(node.args[0], (ast.JoinedStr, ast.Constant))
        ):
            lines.append(node.lineno)
    return lines


def test_the_message_scanner_finds_unmarked_text():
    source = (
        'raise RuleError(f"rule {name}: bad")\n'
        'x = message("plain %(a)s", a=1)\n'
        'raise MaalError(message(gettext_noop("fine %(a)s"), a=1))\n'
        "raise RoundError(PROBLEM, field='maal')\n"
    )
    assert unmarked_messages(source, {"RuleError", "MaalError", "RoundError", "message"}) == [1, 2]


def test_every_engine_message_is_marked():
    makers = message_makers()
    assert {"RoundError", "MaalError", "RuleError", "SessionFileError"} <= makers
    unmarked = {
        path.name: lines
        for path in engine_sources()
        if (lines := unmarked_messages(path.read_text(encoding="utf-8"), makers))
    }
    assert unmarked == {}


def test_every_engine_message_has_nepali_with_the_same_placeholders():
    """Fails when the engine gains a message (an error, a note, a label) that the
    compiled Nepali catalogue lacks, or whose Nepali drops or renames a value."""
    with PO_FILE.with_suffix(".mo").open("rb") as mo:
        catalogue = GNUTranslations(mo)._catalog
    msgids = engine_msgids()
    assert len(msgids) > 100
    problems = []
    for msgid, where in msgids.items():
        nepali = catalogue.get(msgid, "")
        if not nepali:
            problems.append(f"{where}: no Nepali for {msgid!r}")
        elif set(re.findall(r"%\((\w+)\)", nepali)) != set(re.findall(r"%\((\w+)\)", msgid)):
            problems.append(f"{where}: placeholders differ in {nepali!r}")
    assert problems == []


def test_every_field_a_round_error_names_is_a_word():
    """The field before a RoundError's message is shown translated, so it is marked."""
    from scoring.engine.settlement import FIELD_WORDS

    fields = set()
    services = sorted((Path(settings.BASE_DIR) / "scoring" / "services").glob("*.py"))
    for path in [*engine_sources(), *services]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "RoundError":
                for keyword in node.keywords:
                    if keyword.arg == "field" and isinstance(keyword.value, ast.Constant):
                        fields.add(keyword.value.value)
    assert "maal" in fields
    assert fields <= set(FIELD_WORDS)


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
    from scoring.engine import Entry, RoundError, RoundInput, make_rules, settle_round
    from scoring.engine.messages import message
    from scoring.words.i18n import translate

    kidnap = RoundInput(
        (Entry("Kaka", maal=3), Entry("Aama", "unseen", maal=6), Entry("Buwa", dhoos=True)),
        winner="Kaka",
    )
    result = settle_round(kidnap, make_rules("kidnap"))
    note = result.of("Aama").notes[0]
    dhoos = result.of("Buwa").notes[0]
    with pytest.raises(RoundError) as caught:
        settle_round(RoundInput((Entry("Aama"),)), make_rules())
    error = caught.value
    assert str(note) == "maal 6 kidnapped by Kaka"
    assert str(error) == "players: a round needs at least 2 players, got 1"
    unknown = message("something new, %(count)s times", count=2)
    with translation.override("en"):
        assert translate(note) == str(note)  # English stays word for word
        assert translate(error.msg) == str(error)
        assert translate(unknown) == "something new, 2 times"
    with translation.override("ne"):
        assert translate(note) == "माल 6 Kaka ले किडन्याप गर्नुभयो"
        assert translate(dhoos) == "धुस: अरू 2 जना प्रत्येकलाई 15 तिर्ने"
        assert translate(error.msg) == "खेलाडीहरू: राउन्डमा कम्तीमा 2 खेलाडी चाहिन्छ, 1 जना मात्र छन्"
        assert translate(error.problem) == "राउन्डमा कम्तीमा 2 खेलाडी चाहिन्छ, 1 जना मात्र छन्"
        assert translate(unknown) == "something new, 2 times"


def test_a_round_error_names_the_player_and_field_in_nepali():
    from scoring.engine import Entry, RoundError, RoundInput, make_rules, settle_round
    from scoring.words.i18n import translate

    round_ = RoundInput((Entry("Buwa", maal=-3), Entry("Aama")), winner="Aama")
    with pytest.raises(RoundError) as caught:
        settle_round(round_, make_rules())
    assert str(caught.value) == "player Buwa, maal: must not be negative, got -3"
    with translation.override("ne"):
        assert translate(caught.value.msg) == "खेलाडी Buwa, माल: 0 भन्दा कम हुन हुँदैन; यहाँ -3 छ"


def test_round_breakdown_notes_in_nepali(logged_in, owner):
    session = make_tihar(owner)
    round_1 = session.rounds.get(number=1)
    logged_in.cookies[settings.LANGUAGE_COOKIE_NAME] = "ne"
    html = logged_in.get(reverse("round_detail", args=[session.pk, round_1.pk])).content.decode()
    assert "माल 6 Kaka ले किडन्याप गर्नुभयो" in html
    assert "अनसिन खेलाडीहरूबाट 6 माल किडन्याप" in html


def test_maal_breakdown_is_translated():
    from scoring.engine.maal import Tally, score
    from scoring.engine.rules import Rules
    from scoring.words.i18n import translate

    counted = score(Tally(tiplu=1, poplu=3, jhiplu=1, joker_tunnels=1), Rules())
    tunnels = score(Tally(tiplu=2, poplu_tunnels=1, jhiplu_tunnels=1), Rules())
    nothing = score(Tally(), Rules())
    assert counted.breakdown == "2 poplu = 5, 1 marriage = 10, 1 tunnel of ordinary jokers = 10"
    assert tunnels.breakdown == "2 tiplu = 7, 2 tunnels of poplu and jhiplu = 40"
    with translation.override("en"):
        assert translate(counted.parts) == counted.breakdown
        assert translate(nothing.parts) == "no maal"
    with translation.override("ne"):
        assert translate(counted.parts) == "2 पोप्लु = 5, 1 म्यारिज = 10, 1 साधारण जोकरको टनेल = 10"
        assert translate(tunnels.parts) == "2 टिप्लु = 7, 2 पोप्लु र झिप्लुको टनेल = 40"
        assert translate(nothing.parts) == "माल छैन"


# --- the maal calculator's errors (MaalError) ------------------------------------------------


def maal_error_cases() -> list[tuple[str, object]]:
    """(what, a call raising one MaalError) for every `raise MaalError` of the engine."""
    from scoring.engine import maal as m
    from scoring.engine.messages import Message
    from scoring.engine.rules import Rules

    plain = Rules()  # no alter, printed jokers or master card
    everything = Rules(alter=True, printed_jokers=True, master_card=True)
    seven = m.Card("7", "H")
    table = m.PRESET_TABLES["tiers"].to_options()
    # Labels as the web passes them: words, translated.
    tiplu, poplu = Message(m.ITEM_LABELS["tiplu"]), Message(m.ITEM_LABELS["poplu"])

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
        ("tiers text", lambda: m.check_tiers("2, x", tiplu)),
        ("tiers type", lambda: m.check_tiers(5, tiplu)),
        ("no tiers", lambda: m.check_tiers([], tiplu)),
        ("many tiers", lambda: m.check_tiers([1] * 9, tiplu)),
        ("big tier", lambda: m.check_tiers([2000], poplu)),
        ("falling tiers", lambda: m.check_tiers([5, 2], tiplu)),
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
        (
            "copies a seat adds",
            lambda: m.check_added_tally({"A": m.Tally(tiplu=2)}, "B", m.Tally(marriages=1)),
        ),
    ]


def test_every_maal_error_is_shown_in_nepali():
    """Each `raise MaalError` of maal.py is reached by a case, and each message is
    translated whole in Nepali while English stays the engine's words."""
    import ast
    import traceback

    from scoring.engine import maal
    from scoring.words.i18n import translate

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
            assert translate(caught.value.msg) == english
        with translation.override("ne"):
            nepali = translate(caught.value.msg)
        assert re.search("[\u0900-\u097f]", nepali), (what, english)
        # What is left in Latin letters are the values (card codes, keys), never English.
        words = set(re.findall(r"[a-z]{3,}", nepali))
        # ("tiplu" as the key of a session file's point table, "tiplu: missing".)
        assert words <= {"object", "queen", "yes", "marriage", "top", "tiplu"}, (what, nepali)
    assert reached == raises


def test_maal_error_messages_in_nepali():
    from scoring.engine import maal as m
    from scoring.engine.rules import Rules
    from scoring.words.i18n import translate

    cases = [
        (
            lambda: m.check_tally(m.Tally(tiplu=2, marriages=1), Rules()),
            "3 tiplu (1 marriage included): only 2 are in play (the third lies under the stock)",
            "3 टिप्लु (1 म्यारिज समेत): खेलमा 2 वटा मात्र हुन्छन् (तेस्रो थाकमुनि हुन्छ)",
        ),
        (
            lambda: m.check_tally(m.Tally(jhiplu_tunnels=2), Rules()),
            "2 tunnels of jhiplu: three decks hold only 3 jhiplu",
            "झिप्लुको 2 टनेल: तीन गड्डी तासमा 3 वटा झिप्लु मात्र हुन्छन्",
        ),
        (
            lambda: m.Tally.from_dict({"poplu": -1}),
            "poplu: must not be negative, got -1",
            "पोप्लु: 0 भन्दा कम हुन हुँदैन; यहाँ -1 छ",
        ),
        (
            lambda: m.parse_tiplu("ZZ"),
            "tiplu: 'ZZ' is not a card: write rank then suit, such as QH or 10S",
            "टिप्लु: 'ZZ' पत्ता होइन: पहिले अंक अनि रङ लेख्नुहोस्, जस्तै QH वा 10S",
        ),
        (
            lambda: m.check_entry_tally({"poplu": 2}, "7H", Rules(), 0, 0),
            "the calculator counted maal 5 and tunnel 0 (2 poplu = 5), not 0 and 0; "
            "count again or clear the calculator",
            "क्याल्कुलेटरले माल 5 र टनेल 0 गन्यो (2 पोप्लु = 5), 0 र 0 होइन; "
            "फेरि गन्नुहोस् वा क्याल्कुलेटर खाली गर्नुहोस्",
        ),
    ]
    for call, english, nepali in cases:
        with pytest.raises(m.MaalError) as caught:
            call()
        assert str(caught.value) == english
        with translation.override("ne"):
            assert translate(caught.value.msg) == nepali


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


def test_session_file_errors_are_explained_in_nepali(logged_in):
    import json

    from django.core.files.uploadedfile import SimpleUploadedFile

    from scoring.engine.sessionfile import MAX_MESSAGE_LENGTH, loads

    demo = (Path(settings.BASE_DIR) / "scoring" / "demo" / "dashain.json").read_text("utf-8")
    bad_round = json.loads(demo)
    bad_round["rounds"][1]["entries"][0]["maal"] = -3
    long_name = json.loads(demo)
    long_name["name"] = "x" * 5000 + "\x00"
    with pytest.raises(ValueError, match=r"^round 2, player Aama, maal: must not be negative"):
        loads(json.dumps(bad_round))
    logged_in.cookies[settings.LANGUAGE_COOKIE_NAME] = "ne"
    pages = []
    for doc in (bad_round, long_name):
        upload = SimpleUploadedFile("night.json", json.dumps(doc).encode(), "application/json")
        pages.append(logged_in.post(reverse("session_import"), {"file": upload}).content.decode())
    assert "राउन्ड 2, खेलाडी Aama, माल: 0 भन्दा कम हुन हुँदैन; यहाँ -3 छ" in pages[0]
    # Shortened like the English: the pasted name does not become the page.
    # The file's key in the reader's words (name: खेलको नाम).
    start = "खेलको नाम: नियन्त्रण अक्षर हुन हुँदैन; यहाँ '"
    shown = re.search(r"खेलको नाम: नियन्त्रण अक्षर हुन हुँदैन; यहाँ &#x27;(x+)…", pages[1])
    assert shown is not None and len(start + shown[1] + "…") == MAX_MESSAGE_LENGTH


def test_the_player_chart_dates_sessions_in_bikram_sambat_in_nepali(logged_in, owner):
    """ne-review-2 item 4: the bars of a player's page are labelled with the
    Bikram Sambat date in Nepali, as every other date there."""
    make_dashain(owner)  # played on 2 Oct 2026: 16 असोज 2083
    url = reverse("player_detail", args=["Aama"])
    assert ">2026-10-02</text>" in logged_in.get(url).content.decode()
    logged_in.cookies[settings.LANGUAGE_COOKIE_NAME] = "ne"
    html = logged_in.get(url).content.decode()
    assert ">16 असोज 2083</text>" in html and "2026-10-02</text>" not in html

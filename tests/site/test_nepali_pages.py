"""Every page in Nepali shows no English: each page of the access matrix
(tests/site/test_security.py) as the signed-out reader, the owner and a share-link
viewer sees it, plus the pages' error states (a refused round, sign-up, log-in,
new session, rules, import) and the error pages.

What is read: the text, and the attributes a reader sees or hears (title,
aria-label, placeholder, alt, a button's value, and the data-* attributes our
templates fill with a translated text for the scripts to show). Not read: scripts,
styles, an element marked lang="en" (the language switch's "English"), and the
attributes that are data (href, class, name, ids, data-* holding codes)."""

from __future__ import annotations

import json
import re
from decimal import Decimal
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from groups.services import add_evening, create_group, record_payment
from scoring import services
from scoring.engine import Entry, RoundInput
from scoring.engine.limits import MAX_FILE_BYTES
from scoring.services import create_share_link
from tests.samples import demo_doc
from tests.site.test_security import ACCESS, _named_patterns, _url_for
from tests.web_helpers import make_session, round_data

pytestmark = pytest.mark.django_db

ROOT = Path(settings.BASE_DIR)
USERNAME = "hajurba"
PLAYERS = ("Aama", "Buwa", "Didi", "Dai")

# English a Nepali page may show, each for a reason:
ALLOWED = {
    *PLAYERS,  # the fixture's player names, as typed by the family
    USERNAME,  # the log-in name, shown as the log-out button's title
    "NPR",  # an ISO currency code, written so on every Nepali receipt
    "JSON",  # file-format names on the import and export pages
    "CSV",
    "QR",  # the share page's QR code: the name the code goes by in Nepali too
}
# Not words but codes, taken out before the words are read: a placeholder our
# scripts fill in ("%(time)s"), the session, Call Break and pot files' format
# names, the sum's T_seen (a title in the breakdown the round form carries for
# its offline preview).
CODES = re.compile(
    r"%\(\w+\)[sd]|(?:marriage-(?:session|group)|pot-session|callbreak-game)/\d+|\bT_seen\b"
)
# A card as the calculator and files write it (rank then suit, "QH", "10S"), and a
# single letter: the sum's T, w, n, S, m and the worked example's players A–D.
CODE = re.compile(r"^(?:[A-Za-z]|(?:[AJQK]|10|[2-9])[SHDC])$")

ATTRIBUTES = {"title", "aria-label", "placeholder", "alt", "aria-description"}


def _text_data_attributes() -> set[str]:
    """The data-* attributes our templates fill with a translated text."""
    found: set[str] = set()
    for path in (ROOT / "templates").rglob("*.html"):
        source = path.read_text(encoding="utf-8")
        found |= set(re.findall(r'(data-[a-z-]+)="\{% *(?:translate|blocktranslate)', source))
    return found


TEXT_DATA = _text_data_attributes()


class _Shown(HTMLParser):
    """Collects (where, text) for everything a reader sees or hears."""

    SKIP = {"script", "style"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, bool]] = []  # (tag, skipped)
        self.found: list[tuple[str, str]] = []

    def _skipping(self) -> bool:
        return any(skipped for _tag, skipped in self.stack)

    def handle_starttag(self, tag, attrs):
        values = dict(attrs)
        skipped = tag in self.SKIP or (values.get("lang") or "ne").split("-")[0] != "ne"
        if tag not in {"meta", "link", "input", "br", "img", "hr", "source", "wbr"}:
            self.stack.append((tag, skipped))
        if skipped or self._skipping():
            return
        for name, value in attrs:
            if value and (name in ATTRIBUTES or name in TEXT_DATA):
                self.found.append((f"<{tag} {name}>", value))
        if values.get("value") and (
            tag == "button" or values.get("type") in {"submit", "button", "reset"}
        ):
            self.found.append((f"<{tag} value>", values["value"] or ""))

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if self.stack and self.stack[-1][0] == tag:
            self.stack.pop()

    def handle_endtag(self, tag):
        for index in range(len(self.stack) - 1, -1, -1):
            if self.stack[index][0] == tag:
                del self.stack[index:]
                return

    def handle_data(self, data):
        if data.strip() and not self._skipping():
            tag = self.stack[-1][0] if self.stack else ""
            self.found.append((f"<{tag}>", data))


def english_words(html: str) -> list[str]:
    """Each English word shown, with where: "<h2>: Settle up"."""
    parser = _Shown()
    parser.feed(html)
    leaks = []
    for where, text in parser.found:
        if text.startswith(("/", "http")):
            continue  # an address a script fetches (data-settlement), not a text
        words = [
            w
            for w in re.findall(r"[A-Za-z]+", CODES.sub("", text))
            if w not in ALLOWED and not CODE.match(w)
        ]
        if words:
            leaks.append(f"{where} {' '.join(words)}  ⟵  {text.strip()[:80]}")
        if "::" in text or ": :" in text:  # a translation ending in ":" before the template's
            leaks.append(f"{where} a double colon  ⟵  {text.strip()[:80]}")
    return leaks


def test_the_scanner_finds_english_in_text_and_shown_attributes():
    html = (
        '<html lang="ne"><head><title>खेल</title><script>var English = 1;</script></head>'
        '<body><p>हिसाब <b>Settle up</b></p><button title="Dark theme">◐</button>'
        '<a href="/sessions/" class="button">Aama</a><span lang="en">English</span>'
        '<input type="submit" value="Save"><input type="hidden" name="save_key" value="abc">'
        "<p>T = 14, n·S = 8, QH, NPR 2.50</p></body></html>"
    )
    assert [leak.split("  ⟵")[0] for leak in english_words(html)] == [
        "<b> Settle up",
        "<button title> Dark theme",
        "<input value> Save",
    ]


@pytest.fixture
def world(django_user_model):
    owner = django_user_model.objects.create_user(USERNAME, password="pw-hajurba-2083")
    session = make_session(owner, players=PLAYERS, name="तिहार २०८३")
    entries = (
        Entry("Aama", "seen", 5),
        Entry("Buwa", "unseen", 2, tunnel=5),
        Entry("Didi", "seen", 7),
        Entry("Dai", "seen", 0, dhoos=True),
    )
    services.add_round(session=session, round_input=RoundInput(entries=entries, winner="Didi"))
    services.add_round(
        session=session,
        round_input=RoundInput(entries=entries[:3], winner="Aama", win_type="dublee", better=True),
    )
    doomed = services.add_round(
        session=session, round_input=RoundInput(entries=entries[:2], winner="Aama")
    )
    services.delete_round(round_=doomed, user=owner)
    create_share_link(session=session)
    # A family group with this evening and a payment (the purse's pages).
    group = create_group(owner=owner, name="पोखरा परिवार", currency="NPR", members=list(PLAYERS))
    add_evening(group=group, session=session)
    aama, buwa = group.members.all()[:2]
    record_payment(
        group=group, payer=buwa, payee=aama, amount=Decimal("174"), paid_on=session.played_on
    )
    session.refresh_from_db()
    clients = {"anonymous": Client(), "owner": Client()}
    clients["owner"].force_login(owner)
    for client in clients.values():
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = "ne"
    return {"session": session, "owner": owner, "clients": clients}


def refused_files() -> list[bytes]:
    """A stake that is not a number, a round's entry without its player, and a file
    one byte over the limit."""
    bad_stake, bad_entry = demo_doc(), demo_doc()
    bad_stake["stake_per_point"] = "धेरै"
    del bad_entry["rounds"][0]["entries"][0]["player"]
    return [json.dumps(bad_stake).encode(), json.dumps(bad_entry).encode(),
            b" " * (MAX_FILE_BYTES + 1)]  # fmt: skip


def _pages(world) -> list[tuple[str, str, str, dict | None]]:
    """(who, method, url, data) for every page and error state to read."""
    session = world["session"]
    pages: list[tuple[str, str, str, dict | None]] = []
    for name, (kind, method) in ACCESS.items():
        if method != "GET" or name not in _named_patterns():
            continue
        who = "owner" if kind in {"owner", "user", "scorer", "invite"} else "anonymous"
        pages.append((who, "GET", _url_for(name, world), None))
    pages += [
        ("owner", "GET", reverse("home"), None),
        ("owner", "GET", reverse("how_it_works"), None),
        ("owner", "GET", reverse("session_detail", args=[session.pk]) + "?all=1", None),
        ("owner", "GET", "/no/such/page/", None),
        ("anonymous", "GET", "/no/such/page/", None),
    ]
    # Error states: the messages beside the fields must name them in Nepali.
    bad_round = round_data(
        session, {"Aama": ("seen", -3), "Buwa": ("unseen", "x"), "Didi": ("seen", 4)}, None
    )
    bad_round["winner"] = ""
    pages += [
        ("owner", "POST", reverse("round_new", args=[session.pk]), bad_round),
        ("owner", "POST", reverse("round_preview", args=[session.pk]), bad_round),
        (
            "anonymous",
            "POST",
            reverse("signup"),
            {"username": "x y", "password1": "12345", "password2": "54321"},
        ),
        ("anonymous", "POST", reverse("signup"), {"username": "a", "password1": "password"}),
        ("anonymous", "POST", reverse("login"), {"username": USERNAME, "password": "wrong"}),
        ("owner", "POST", reverse("session_new"), {"name": "", "stake_per_point": "-5"}),
        ("owner", "POST", reverse("session_rules", args=[session.pk]), {"seen_payment": "-1"}),
        ("owner", "POST", reverse("session_import"), {}),
        ("owner", "POST", reverse("player_add", args=[session.pk]), {"name": "Aama"}),
    ]
    # A refused file names its fields in Nepali; a file over the limit says it grouped.
    for content in refused_files():
        upload = SimpleUploadedFile("night.json", content, "application/json")
        pages.append(("owner", "POST", reverse("session_import"), {"file": upload}))
    # A share link turned off while the page was open: its live part says so.
    pages.append(
        ("anonymous", "GET", reverse("share_live", args=["turned-off-0123456789ab"]), None)
    )
    return pages


def test_no_page_in_nepali_shows_english(world):
    leaks: dict[str, list[str]] = {}
    read = 0
    for who, method, url, data in _pages(world):
        client = world["clients"][who]
        response = client.get(url) if method == "GET" else client.post(url, data)
        if response.status_code in (301, 302) or not response.get("Content-Type", "").startswith(
            "text/html"
        ):
            continue  # a redirect, a download (JSON, CSV): not a page
        html = response.content.decode()
        # A whole page is in Nepali; a part (htmx) is read as it is.
        assert '<html lang="ne">' in html or "<html" not in html, url
        read += 1
        if found := english_words(html):
            leaks[f"{who} {method} {url}"] = found
    assert read >= 40
    report = "\n".join(f"{page}:\n  " + "\n  ".join(items) for page, items in leaks.items())
    assert not leaks, f"English on Nepali pages:\n{report}"


def test_a_refused_round_names_the_fields_in_nepali(world):
    session = world["session"]
    data = round_data(session, {"Aama": ("seen", -3), "Buwa": ("unseen", 2)}, None)
    data["winner"] = ""
    html = world["clients"]["owner"].post(reverse("round_new", args=[session.pk]), data)
    html = html.content.decode()
    assert "Aama, माल: 0 भन्दा कम हुन हुँदैन; यहाँ -3 छ" in html
    assert "जित्ने: कसले जित्यो छान्नुहोस्, वा “कोही जितेन”" in html
    # Not shown: the phone's catalogue, keyed by the English ids it translates.
    shown = re.sub(r'data-catalogue="[^"]*"', "", html)
    assert "maal:" not in shown and "winner:" not in shown


def test_the_rules_page_names_the_preset_once_with_one_colon(world):
    session = world["session"]
    html = world["clients"]["owner"].get(reverse("session_rules", args=[session.pk]))
    assert "<h2>यो खेलमा चल्ने नियम: पगत नियम</h2>" in html.content.decode()


def test_a_refused_file_names_its_fields_in_nepali(world):
    said = []
    for content in refused_files():
        upload = SimpleUploadedFile("night.json", content, "application/json")
        response = world["clients"]["owner"].post(reverse("session_import"), {"file": upload})
        assert response.status_code == 422
        said.append(response.content.decode().replace("&quot;", '"').replace("&#x27;", "'"))
    assert "प्रति अंक दर: \"2.50\" जस्तो दशमलव संख्या हुनुपर्छ; यहाँ 'धेरै' छ" in said[0]
    assert "राउन्ड 1, पङ्क्ति 1, खेलाडी: छुटेको छ" in said[1]
    assert "फाइल धेरै ठूलो भयो: खेल फाइल बढीमा 1,25,82,912 बाइटको हुन सक्छ" in said[2]
    assert "stake_per_point" not in said[0] and "player:" not in said[1]


def test_a_share_link_turned_off_says_so_in_nepali(world):
    gone = world["clients"]["anonymous"].get(
        reverse("share_live", args=["turned-off-0123456789ab"])
    )
    assert gone.status_code == 404
    assert "लिङ्क बनाउनुहुनेले यो सेयर लिङ्क बन्द गर्नुभएको छ" in gone.content.decode()

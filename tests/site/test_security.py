"""Security: production settings pass `check --deploy`, every page carries a
Content Security Policy it actually obeys, hostile names are shown as text,
share tokens are unguessable and revocable, log-in failures are rate limited, and
every view's access is checked for anonymous, owner, other user and share viewer."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from decimal import Decimal
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import quote

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from groups.models import Group, MemberLink
from groups.services import (
    add_evening,
    create_group,
    make_member_links,
    record_payment,
    revoke_member_link,
)
from scoring import services
from scoring.engine import Entry, RoundInput
from scoring.models import GameSession
from scoring.services import create_share_link
from table import services as table_services
from table.models import CoScorer, Invite
from tests.web_helpers import make_session

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "tihar-cards-2083"

# --- check --deploy ----------------------------------------------------------------------------

PRODUCTION_ENV = {
    "SECRET_KEY": "k" + secrets.token_urlsafe(48),
    "DEBUG": "0",
    "ALLOWED_HOSTS": "scores.example.org",
    "CSRF_TRUSTED_ORIGINS": "https://scores.example.org",
    "SECURE_COOKIES": "1",
    "SECURE_SSL_REDIRECT": "1",
    "SECURE_HSTS_SECONDS": "31536000",
    "BEHIND_PROXY": "1",
}


def check_deploy(**env: str) -> subprocess.CompletedProcess[str]:
    keep = {k: v for k, v in os.environ.items() if k not in PRODUCTION_ENV}
    keep.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)  # a test-only switch; rightly an error here
    keep["DJANGO_SETTINGS_MODULE"] = "marriage_site.settings"
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env={**keep, **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_check_deploy_is_clean_with_production_settings():
    result = check_deploy(**PRODUCTION_ENV)
    assert result.returncode == 0, result.stderr + result.stdout
    assert "System check identified no issues (0 silenced)." in result.stdout


def test_check_deploy_complains_without_them():
    """The settings really come from the environment: the defaults are for development."""
    result = check_deploy(DEBUG="1")
    assert result.returncode != 0
    for warning in ("security.W004", "security.W008", "security.W009", "security.W012"):
        assert warning in result.stderr
    assert "security.W018" in result.stderr  # DEBUG on


def test_production_cookie_and_proxy_settings_come_from_the_environment():
    code = (
        "from django.conf import settings as s; "
        "print(s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, s.SECURE_SSL_REDIRECT, "
        "s.SECURE_HSTS_SECONDS, s.SECURE_PROXY_SSL_HEADER, s.ALLOWED_HOSTS, "
        "s.CSRF_TRUSTED_ORIGINS, s.DEBUG)"
    )
    keep = {k: v for k, v in os.environ.items() if k not in PRODUCTION_ENV}
    result = subprocess.run(
        [sys.executable, "-c", f"import django; django.setup(); {code}"],
        cwd=ROOT,
        env={**keep, **PRODUCTION_ENV, "DJANGO_SETTINGS_MODULE": "marriage_site.settings"},
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert result.stdout.strip() == (
        "True True True 31536000 ('HTTP_X_FORWARDED_PROTO', 'https') "
        "['scores.example.org'] ['https://scores.example.org'] False"
    )


# --- fixtures ----------------------------------------------------------------------------------

HOSTILE_SESSION = '<script>alert("session")</script>'
HOSTILE_PLAYER = "<img src=x onerror=alert(1)>"
HOSTILE_OTHER = '"><b onmouseover=alert(2)>B'


@pytest.fixture
def people(db):
    User = get_user_model()
    owner = User.objects.create_user("owner", password=PASSWORD)
    other = User.objects.create_user("other", password=PASSWORD)
    return owner, other


def _one_round(session: GameSession) -> None:
    names = [p.name for p in session.players.all()]
    services.add_round(
        session=session,
        round_input=RoundInput(
            entries=(
                Entry(player=names[0], status="seen", maal=5),
                Entry(player=names[1], status="unseen", maal=2),
                Entry(player=names[2], status="seen", maal=7),
            ),
            winner=names[2],
        ),
    )


@pytest.fixture
def world(people):
    """An owner's session with one round and a share link; another user; clients."""
    owner, other = people
    session = make_session(owner, players=("Aama", HOSTILE_PLAYER, HOSTILE_OTHER))
    session.name = HOSTILE_SESSION
    session.save()
    _one_round(session)
    create_share_link(session=session)
    group = create_group(owner=owner, name=HOSTILE_SESSION, currency="NPR", members=["Aama"])
    add_evening(group=group, session=session)
    members = list(group.members.all())
    record_payment(
        group=group,
        payer=members[0],
        payee=members[1],
        amount=Decimal("5"),
        paid_on=session.played_on,
        user=owner,
    )
    # A co-scorer (issue 21): rounds yes, the session itself no.
    co_scorer = get_user_model().objects.create_user("co-scorer", password=PASSWORD)
    CoScorer.objects.create(session=session, user=co_scorer)
    clients = {
        "anonymous": Client(),
        "owner": Client(),
        "other": Client(),
        "viewer": Client(),
        "co_scorer": Client(),
    }
    clients["owner"].force_login(owner)
    clients["other"].force_login(other)
    clients["co_scorer"].force_login(co_scorer)
    # A share-link viewer: has opened the public page, has no account.
    assert clients["viewer"].get(reverse("share_view", args=[session.share_token])).status_code
    return {"session": session, "owner": owner, "other": other, "clients": clients}


# --- The access matrix -------------------------------------------------------------------------
# Every named URL, and who may use it:
#   public  - anyone;  user - any logged-in user (their own data only);
#   owner   - the session's owner; anyone else gets 404, the anonymous a log-in redirect;
#   scorer  - the owner or a co-scorer (table.CoScorer); anyone else as for owner;
#   share   - anyone holding the share token; a wrong token is 404;
#   seat    - anyone holding that player's seat link; a wrong or revoked one is 404;
#   invite  - a logged-in user holding a co-scorer invite; the anonymous log in first;
#   member  - anyone holding a group member's lasting link; a made-up or revoked one is 404.
# The method is the one the view is used with (POST views are tried with an empty form).
# A live page's stream (…_stream) is let in as its page is; here, without an event
# loop to hold it (scoring/web/streams.py), it answers 204 where the page answers 200.
ACCESS = {
    "home": ("public", "GET"),
    "how_it_works": ("public", "GET"),
    "signup": ("public", "GET"),
    "login": ("public", "GET"),
    "logout": ("public", "POST"),
    "set_language": ("public", "POST"),
    "session_new": ("user", "GET"),
    "session_import": ("user", "GET"),
    "round_history": ("user", "GET"),
    "leaderboard": ("user", "GET"),
    "player_detail": ("user", "GET"),
    "share_view": ("share", "GET"),
    "share_live": ("share", "GET"),
    "share_stream": ("share", "GET"),
    "service_worker": ("public", "GET"),
    "web_manifest": ("public", "GET"),
    "offline_page": ("public", "GET"),
    "session_detail": ("scorer", "GET"),
    "session_export": ("owner", "GET"),
    "session_share": ("owner", "GET"),
    "session_card": ("scorer", "GET"),
    "share_create": ("owner", "POST"),
    "share_revoke": ("owner", "POST"),
    "settle_up": ("owner", "GET"),
    "session_rules": ("owner", "GET"),
    "session_edit": ("owner", "GET"),
    "session_delete": ("owner", "GET"),
    "player_add": ("owner", "GET"),
    "player_edit": ("owner", "GET"),
    "player_delete": ("owner", "POST"),
    "player_move": ("owner", "POST"),
    "seats_draw": ("owner", "GET"),
    "round_undo": ("scorer", "POST"),
    "maal_calculator": ("scorer", "GET"),
    "maal_table": ("owner", "GET"),
    "round_new": ("scorer", "GET"),
    "round_preview": ("scorer", "POST"),
    "round_detail": ("scorer", "GET"),
    "round_edit": ("scorer", "GET"),
    "round_delete": ("scorer", "GET"),
    "round_changes": ("scorer", "GET"),
    "session_changes": ("scorer", "GET"),
    "round_restore": ("scorer", "POST"),
    "ledger_csv": ("owner", "GET"),
    "session_summary": ("owner", "GET"),
    "session_live": ("scorer", "GET"),
    "seat_feed": ("scorer", "GET"),
    "session_stream": ("scorer", "GET"),
    "seat_feed_stream": ("scorer", "GET"),
    "seats_manage": ("owner", "GET"),
    "seats_make": ("owner", "POST"),
    "seat_renew": ("owner", "POST"),
    "seat_revoke": ("owner", "POST"),
    "scorers_manage": ("owner", "GET"),
    "invite_create": ("owner", "POST"),
    "invite_revoke": ("owner", "POST"),
    "co_scorer_remove": ("owner", "POST"),
    "seat_page": ("seat", "GET"),
    "seat_live": ("seat", "GET"),
    "seat_stream": ("seat", "GET"),
    "seat_maal": ("seat", "POST"),
    "invite_accept": ("invite", "GET"),
    # The family purse (groups/): a group is owned like a session.
    "group_list": ("user", "GET"),
    "group_import": ("user", "GET"),
    "group_detail": ("owner", "GET"),
    "group_print": ("owner", "GET"),
    "group_card": ("owner", "GET"),
    "group_records": ("owner", "GET"),
    "group_delete": ("owner", "GET"),
    "group_export": ("owner", "GET"),
    "group_members": ("owner", "GET"),
    "group_member_edit": ("owner", "GET"),
    "group_member_delete": ("owner", "POST"),
    "group_evening_new": ("owner", "GET"),
    "group_evening_add": ("owner", "GET"),
    "group_evening_remove": ("owner", "POST"),
    "group_payment_new": ("owner", "GET"),
    "group_payment_edit": ("owner", "GET"),
    "group_payment_delete": ("owner", "POST"),
    "group_changes": ("owner", "GET"),
    "group_payment_restore": ("owner", "POST"),
    "group_links": ("owner", "GET"),
    "group_links_make": ("owner", "POST"),
    "group_link_renew": ("owner", "POST"),
    "group_link_revoke": ("owner", "POST"),
    "member_seat": ("member", "GET"),
    "member_live": ("member", "GET"),
    "member_stream": ("member", "GET"),
    # Call Break (callbreak/): a game is owned like a session; its watch link
    # is read by anyone holding it, as a share link.
    "callbreak_list": ("user", "GET"),
    "callbreak_new": ("user", "GET"),
    "callbreak_import": ("user", "GET"),
    "callbreak_how": ("public", "GET"),
    "callbreak_game": ("owner", "GET"),
    "callbreak_deal_new": ("owner", "POST"),
    "callbreak_deal_edit": ("owner", "GET"),
    "callbreak_deal_delete": ("owner", "GET"),
    "callbreak_changes": ("owner", "GET"),
    "callbreak_restore": ("owner", "POST"),
    "callbreak_export": ("owner", "GET"),
    "callbreak_watch": ("watch", "GET"),
    "callbreak_watch_live": ("watch", "GET"),
    "callbreak_watch_stream": ("watch", "GET"),
    # Pot hands (pots/): a pot session is owned like a session.
    "pot_list": ("user", "GET"),
    "pot_import": ("user", "GET"),
    "pot_detail": ("owner", "GET"),
    "pot_hand_add": ("owner", "POST"),
    "pot_hand_edit": ("owner", "GET"),
    "pot_hand_delete": ("owner", "POST"),
    "pot_history": ("owner", "GET"),
    "pot_restore": ("owner", "POST"),
    "pot_export": ("owner", "GET"),
    "pot_live": ("owner", "GET"),
    "pot_stream": ("owner", "GET"),
}


def _named_patterns(resolver: URLResolver | None = None, prefix: str = "") -> set[str]:
    names: set[str] = set()
    for item in (resolver or get_resolver()).url_patterns:
        if isinstance(item, URLResolver):
            if item.namespace == "admin":
                continue  # Django's own admin, with its own permission checks
            names |= _named_patterns(item)
        elif isinstance(item, URLPattern) and item.name:
            names.add(item.name)
    return names


def test_access_matrix_covers_every_named_url():
    missing = _named_patterns() - set(ACCESS)
    assert not missing, f"add these views to ACCESS in {__file__}: {sorted(missing)}"


def _table_of(world) -> dict:
    """The session's seats, an invite and a co-scorer's membership, made once per world."""
    if "table" not in world:
        session = world["session"]
        seats = table_services.make_seats(session=session)
        invite = Invite.objects.create(session=session)
        co_scorer = CoScorer.objects.filter(session=session).first()
        if co_scorer is None:
            user = get_user_model().objects.create_user(
                "हरि", password=PASSWORD
            )  # a name, in Nepali pages too
            co_scorer = CoScorer.objects.create(session=session, user=user)
        world["table"] = {"seat": seats[0], "invite": invite, "co_scorer": co_scorer}
    return world["table"]


def _callbreak_of(world):
    """The owner's Call Break game, with a deal: the session's players (here,
    hostile names among them) and its name."""
    if "callbreak" not in world:
        from callbreak import services as callbreak_services
        from callbreak.engine import Rules

        session = world["session"]
        names = [player.name for player in session.players.all()][:4]
        names += [name for name in ("Dai", "Didi", "Buwa") if name not in names][: 4 - len(names)]
        game = callbreak_services.start_game(
            owner=world["owner"],
            players=names,
            rules=Rules(),
            stake=Decimal("10"),
            name=session.name,
        )
        callbreak_services.add_deal(
            game=game, user=world["owner"], bids=(3, 4, 2, 3), tricks=(4, 4, 1, 4)
        )
        world["callbreak"] = game
    return world["callbreak"]


def _pots_of(world) -> dict:
    """The owner's pot session with a hand kept and one deleted, made once per
    world: named as the world's session, played by its first two players."""
    if "pots" not in world:
        from pots import services as pot_services

        session = world["session"]
        pots = pot_services.create_session(
            owner=world["owner"],
            name=session.name,
            players=[p.name for p in session.players.all()[:2]],
            played_on=session.played_on,
        )
        hand = pot_services.record_hand(session=pots, put_in=[500, 500], winners=[0])
        gone = pot_services.record_hand(session=pots, put_in=[100, 100], winners=[1])
        pot_services.delete_hand(hand=gone)
        change = pots.changes.get(action="delete")
        world["pots"] = {"session": pots, "hand": hand, "change": change}
    return world["pots"]


def _url_for(name: str, world) -> str:
    session = world["session"]
    from django.urls import NoReverseMatch

    if name.startswith("callbreak_") and name not in (
        "callbreak_list",
        "callbreak_new",
        "callbreak_import",
        "callbreak_how",
    ):
        game = _callbreak_of(world)
        if name.startswith("callbreak_watch"):
            return reverse(name, args=[game.watch_token])
        kwargs = {"game_id": game.pk}
        if name in ("callbreak_deal_edit", "callbreak_deal_delete"):
            kwargs["deal_id"] = game.deals.first().pk
        if name == "callbreak_restore":
            kwargs["change_id"] = game.changes.first().pk
        return reverse(name, kwargs=kwargs)
    if name.startswith("pot_"):
        pots = _pots_of(world)
        for kwargs in (
            {"session_id": pots["session"].pk, "hand_id": pots["hand"].pk},
            {"session_id": pots["session"].pk, "change_id": pots["change"].pk},
            {"session_id": pots["session"].pk},
            {},
        ):
            try:
                return reverse(name, kwargs=kwargs)
            except NoReverseMatch:
                continue

    if name.startswith("seat_") and name not in (
        "seat_feed",
        "seat_feed_stream",
        "seat_renew",
        "seat_revoke",
    ):
        return reverse(name, args=[_table_of(world)["seat"].token])
    if name == "invite_accept":
        return reverse(name, args=[_table_of(world)["invite"].token])
    if name.startswith(("group_link_", "member_")):
        group = Group.objects.get(evenings__session=session)
        link = make_member_links(group=group)[0]
        if name.startswith("member_"):
            return reverse(name, args=[link.token])
        return reverse(name, args=[group.pk, link.member_id])
    if name in ("seat_renew", "seat_revoke", "invite_revoke", "co_scorer_remove"):
        table = _table_of(world)
        thing = {
            "seat_renew": table["seat"],
            "seat_revoke": table["seat"],
            "invite_revoke": table["invite"],
            "co_scorer_remove": table["co_scorer"],
        }[name]
        return reverse(name, args=[session.pk, thing.pk])
    candidates = [
        {},
        {"session_id": session.pk},
        {"token": session.share_token},
        {"name": "Aama"},
        {"session_id": session.pk, "round_id": session.rounds.first().pk},
        {"session_id": session.pk, "player_id": session.players.get(name="Aama").pk},
        {"session_id": session.pk, "change_id": session.changes.first().pk},
    ]
    group = Group.objects.get(evenings__session=session)
    candidates += [
        {"group_id": group.pk},
        {"group_id": group.pk, "member_id": group.members.all()[0].pk},
        {"group_id": group.pk, "payment_id": group.payments.all()[0].pk},
        {"group_id": group.pk, "change_id": group.changes.all()[0].pk},
        {"group_id": group.pk, "session_id": session.pk},
    ]
    for kwargs in candidates:
        try:
            return reverse(name, kwargs=kwargs)
        except NoReverseMatch:
            continue
    raise AssertionError(f"cannot build a URL for {name}")


def _request(client: Client, method: str, url: str):
    return client.get(url) if method == "GET" else client.post(url, {})


def _allowed(name: str) -> tuple[int, ...]:
    """What a reader let in is answered."""
    return (204,) if name.endswith("_stream") else (200, 302)


def _existing(names):
    known = _named_patterns()
    return [n for n in names if n in known]


@pytest.mark.parametrize(
    "name", _existing(n for n, (kind, _m) in ACCESS.items() if kind == "owner") or ["home"]
)
def test_owner_views(world, name):
    if ACCESS[name][0] != "owner":
        pytest.skip("no owner views")
    method = ACCESS[name][1]
    url = _url_for(name, world)
    clients = world["clients"]
    login_url = reverse("login")
    for who in ("anonymous", "viewer"):
        response = _request(clients[who], method, url)
        assert response.status_code == 302, (who, name)
        assert response["Location"].startswith(f"{login_url}?next="), (who, name)
    assert _request(clients["other"], method, url).status_code == 404, name
    # A co-scorer enters rounds only: every other view of the session is a 404.
    assert _request(clients["co_scorer"], method, url).status_code == 404, name
    # Let in: a page, a redirect, a stream's "poll", or a form refused (422:
    # the empty POST was read, so access was granted).
    assert _request(clients["owner"], method, url).status_code in (200, 204, 302, 422), name


@pytest.mark.parametrize("name", _existing(n for n, (k, _m) in ACCESS.items() if k == "scorer"))
def test_scorer_views(world, name):
    """The owner and a co-scorer are let in; anyone else is refused as for the owner's views."""
    method = ACCESS[name][1]
    url = _url_for(name, world)
    clients = world["clients"]
    for who in ("anonymous", "viewer"):
        response = _request(clients[who], method, url)
        assert response.status_code == 302, (who, name)
        assert response["Location"].startswith(f"{reverse('login')}?next="), (who, name)
    assert _request(clients["other"], method, url).status_code == 404, name
    assert _request(clients["co_scorer"], method, url).status_code in _allowed(name), name
    assert _request(clients["owner"], method, url).status_code in _allowed(name), name


@pytest.mark.parametrize("name", _existing(n for n, (k, _m) in ACCESS.items() if k == "seat"))
def test_seat_views_need_the_seat_link_and_nothing_else(world, name):
    method = ACCESS[name][1]
    url = _url_for(name, world)
    for client in world["clients"].values():
        assert _request(client, method, url).status_code == _allowed(name)[0], name
    seat = _table_of(world)["seat"]
    wrong = url.replace(seat.token, seat.token[:-1] + ("y" if seat.token.endswith("x") else "x"))
    assert _request(world["clients"]["anonymous"], method, wrong).status_code == 404
    table_services.revoke_seat(seat=seat)
    for client in world["clients"].values():
        assert _request(client, method, url).status_code == 404, name


@pytest.mark.parametrize("name", _existing(n for n, (k, _m) in ACCESS.items() if k == "member"))
def test_member_views_need_the_member_link_and_nothing_else(world, name):
    method = ACCESS[name][1]
    url = _url_for(name, world)
    for client in world["clients"].values():
        assert _request(client, method, url).status_code in _allowed(name), name
    link = MemberLink.objects.get(token=url.split("/")[2])
    wrong = url.replace(link.token, link.token[:-1] + ("y" if link.token.endswith("x") else "x"))
    assert _request(world["clients"]["anonymous"], method, wrong).status_code == 404
    revoke_member_link(link=link)
    for client in world["clients"].values():
        assert _request(client, method, url).status_code == 404, name


def test_an_invite_needs_a_log_in_and_works_once(world):
    url = _url_for("invite_accept", world)
    clients = world["clients"]
    for who in ("anonymous", "viewer"):
        assert clients[who].get(url)["Location"].startswith(reverse("login")), who
    assert clients["other"].get(url).status_code == 200
    assert clients["other"].post(url).status_code == 302
    for who in ("other", "co_scorer", "owner"):
        assert clients[who].get(url).status_code == 404, who


@pytest.mark.parametrize("name", _existing(n for n, (k, _m) in ACCESS.items() if k == "user"))
def test_user_views(world, name):
    url = _url_for(name, world)
    clients = world["clients"]
    for who in ("anonymous", "viewer"):
        response = clients[who].get(url)
        assert response.status_code == 302, (who, name)
        assert response["Location"].startswith(reverse("login")), (who, name)
    assert clients["owner"].get(url).status_code == 200
    # Another user's view shows only their own data: the owner's session is not there.
    other_page = clients["other"].get(url)
    assert other_page.status_code in (200, 404)
    assert b"onerror" not in other_page.content


@pytest.mark.parametrize("name", ["share_view", "share_live", "share_stream"])
def test_share_views_need_the_token_and_nothing_else(world, name):
    session = world["session"]
    url = reverse(name, args=[session.share_token])
    for client in world["clients"].values():
        assert client.get(url).status_code == _allowed(name)[0]
    last = "y" if session.share_token.endswith("x") else "x"
    wrong = reverse(name, args=[session.share_token[:-1] + last])
    assert world["clients"]["anonymous"].get(wrong).status_code == 404


@pytest.mark.parametrize(
    "name", ["callbreak_watch", "callbreak_watch_live", "callbreak_watch_stream"]
)
def test_watch_views_need_the_token_and_nothing_else(world, name):
    game = _callbreak_of(world)
    url = reverse(name, args=[game.watch_token])
    for client in world["clients"].values():
        assert client.get(url).status_code == _allowed(name)[0]
    last = "y" if game.watch_token.endswith("x") else "x"
    wrong = reverse(name, args=[game.watch_token[:-1] + last])
    assert world["clients"]["anonymous"].get(wrong).status_code == 404


@pytest.mark.parametrize("name", ["home", "signup", "login", "how_it_works", "callbreak_how"])
def test_public_views(world, name):
    assert world["clients"]["anonymous"].get(reverse(name)).status_code == 200


def test_share_viewer_cannot_write_anything(world):
    """Holding the link gives read access only: every write answers with the log-in page."""
    session = world["session"]
    viewer = world["clients"]["viewer"]
    rounds = session.rounds.count()
    for name in ("round_new", "round_undo", "share_revoke", "session_delete"):
        if name in _named_patterns():
            response = viewer.post(_url_for(name, world), {})
            assert response.status_code == 302
    assert session.rounds.count() == rounds
    session.refresh_from_db()
    assert session.share_token


# --- Share tokens ------------------------------------------------------------------------------


def test_share_tokens_are_long_random_and_distinct(people):
    owner, _other = people
    session = make_session(owner)
    tokens = {create_share_link(session=session) for _ in range(200)}
    assert len(tokens) == 200
    for token in tokens:
        assert len(token) >= 32  # 24 random bytes, base64: 192 bits
        assert all(c.isalnum() or c in "-_" for c in token)


def test_revoked_and_replaced_tokens_stop_working(world):
    session = world["session"]
    owner = world["clients"]["owner"]
    old = session.share_token
    owner.post(reverse("share_create", args=[session.pk]))
    session.refresh_from_db()
    assert session.share_token != old
    assert owner.get(reverse("share_view", args=[old])).status_code == 404
    assert owner.get(reverse("share_view", args=[session.share_token])).status_code == 200
    current = session.share_token
    owner.post(reverse("share_revoke", args=[session.pk]))
    session.refresh_from_db()
    assert session.share_token is None
    for name in ("share_view", "share_live", "share_stream"):
        assert Client().get(reverse(name, args=[current])).status_code == 404


# --- Hostile names -----------------------------------------------------------------------------

RAW = [HOSTILE_SESSION, HOSTILE_PLAYER, '"><b onmouseover']


def _pages(world) -> list[tuple[str, str]]:
    """(who, url) for every GET page that shows the session or its players."""
    pages = []
    for name, (kind, method) in ACCESS.items():
        if method != "GET" or name not in _named_patterns() or name.endswith("_stream"):
            continue
        if kind in ("owner", "scorer"):
            pages.append(("owner", _url_for(name, world)))
        elif kind in ("share", "seat"):
            pages.append(("anonymous", _url_for(name, world)))
        elif kind == "user":
            pages.append(("owner", _url_for(name, world)))
    pages.append(("owner", reverse("home")))
    if "player_detail" in _named_patterns():
        pages.append(("owner", reverse("player_detail", args=[HOSTILE_PLAYER])))
    return pages


def test_hostile_names_are_shown_as_text_everywhere(world):
    checked = 0
    for who, url in _pages(world):
        response = world["clients"][who].get(url)
        assert response.status_code == 200, url
        if not response["Content-Type"].startswith("text/html"):
            continue  # JSON and CSV downloads are data, not markup
        body = response.content.decode()
        for raw in RAW:
            assert raw not in body, f"{url} shows {raw!r} unescaped"
        checked += 1
    assert checked >= 10
    # And the names are there, escaped, on the session's own page and the share page.
    session = world["session"]
    for who, url in (
        ("owner", reverse("session_detail", args=[session.pk])),
        ("anonymous", reverse("share_view", args=[session.share_token])),
    ):
        body = world["clients"][who].get(url).content.decode()
        assert "&lt;script&gt;alert(&quot;session&quot;)&lt;/script&gt;" in body
        assert "&lt;img src=x onerror=alert(1)&gt;" in body


def test_hostile_names_can_be_typed_into_the_forms(people):
    """A name entered through the site (not only the database) comes back as text."""
    owner, _other = people
    client = Client()
    client.force_login(owner)
    session = make_session(owner, players=("Aama", "Buwa"))
    response = client.post(reverse("player_add", args=[session.pk]), {"name": HOSTILE_PLAYER})
    assert response.status_code in (200, 302)
    assert session.players.filter(name=HOSTILE_PLAYER).exists()
    body = client.get(reverse("session_detail", args=[session.pk])).content.decode()
    assert HOSTILE_PLAYER not in body
    assert "&lt;img src=x onerror=alert(1)&gt;" in body


# --- Content Security Policy -------------------------------------------------------------------


class _Inline(HTMLParser):
    """Collects what the policy would block: scripts without src or nonce, inline
    event handlers, style attributes and <style> elements."""

    def __init__(self) -> None:
        super().__init__()
        self.scripts: list[dict[str, str | None]] = []
        self.problems: list[str] = []

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "script":
            self.scripts.append(attributes)
        if tag == "style" and "nonce" not in attributes:
            self.problems.append("<style> element")
        for name, _value in attrs:
            if name.startswith("on"):
                self.problems.append(f"<{tag} {name}=...>")
            if name == "style":
                self.problems.append(f"<{tag} style=...>")
            if name.startswith("hx-on"):
                self.problems.append(f"<{tag} {name}=...> (needs eval)")


def test_every_page_sends_a_csp_and_obeys_it(world):
    pages = [*_pages(world), ("anonymous", reverse("login")), ("anonymous", reverse("home"))]
    checked = 0
    for who, url in pages:
        response = world["clients"][who].get(url)
        if not response["Content-Type"].startswith("text/html"):
            continue
        policy = response["Content-Security-Policy"]
        assert "default-src 'self'" in policy
        assert "object-src 'none'" in policy
        assert "frame-ancestors 'none'" in policy
        assert "style-src 'self';" in policy + ";"
        assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
        parser = _Inline()
        parser.feed(response.content.decode())
        assert parser.problems == [], f"{url}: {parser.problems}"
        for script in parser.scripts:
            if script.get("type") == "application/json":
                continue  # json_script data: never executed
            if script.get("src"):
                assert script["src"].startswith("/static/"), (url, script)
            else:
                nonce = script.get("nonce")
                assert nonce and f"'nonce-{nonce}'" in policy, f"{url}: inline script {script}"
        checked += 1
    assert checked >= 10


def test_htmx_is_told_not_to_inject_its_inline_styles(world):
    body = world["clients"]["owner"].get(reverse("home")).content.decode()
    assert """<meta name="htmx-config" content='{"includeIndicatorStyles": false}'>""" in body


# --- Log-in rate limiting ----------------------------------------------------------------------


@pytest.fixture
def login_user(db):
    cache.clear()
    yield get_user_model().objects.create_user("didi", password=PASSWORD)
    cache.clear()


def _login(client: Client, username: str, password: str, ip: str = "10.0.0.1"):
    return client.post(
        reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=ip
    )


TOO_MANY = "Too many failed log-in attempts. Try again in 15 minutes."


def test_five_failures_then_even_the_right_password_is_refused(login_user):
    client = Client()
    for _attempt in range(5):
        response = _login(client, "didi", "wrong")
        assert response.status_code == 422
        assert "Please enter a correct username and password." in response.content.decode()
    response = _login(client, "didi", PASSWORD)
    assert response.status_code == 429
    assert TOO_MANY in response.content.decode()
    assert "_auth_user_id" not in client.session
    # The same person from another address, and another username here, still get in.
    assert _login(Client(), "didi", PASSWORD, ip="10.0.0.2").status_code == 302


def test_the_block_ends_after_the_window(login_user, monkeypatch):
    import time as time_module

    client = Client()
    for _attempt in range(5):
        _login(client, "didi", "wrong")
    assert _login(client, "didi", PASSWORD).status_code == 429
    later = time_module.time() + 15 * 60 + 1
    monkeypatch.setattr("accounts.ratelimit.time.time", lambda: later)
    response = _login(client, "didi", PASSWORD)
    assert response.status_code == 302
    assert response["Location"] == reverse("home")


def test_a_success_clears_the_count(login_user):
    client = Client()
    for _attempt in range(4):
        _login(client, "didi", "wrong")
    assert _login(client, "didi", PASSWORD).status_code == 302
    client.post(reverse("logout"))
    for _attempt in range(4):
        assert _login(client, "didi", "wrong").status_code == 422
    assert _login(client, "didi", PASSWORD).status_code == 302


def test_usernames_differing_in_case_share_a_count(login_user):
    client = Client()
    for name in ("didi", "DIDI", "Didi", "dIdi", "didI"):
        _login(client, name, "wrong")
    assert _login(client, "didi", PASSWORD).status_code == 429


def test_spraying_many_usernames_from_one_address_is_limited(login_user):
    client = Client()
    for index in range(20):
        _login(client, f"guess{index}", "wrong")
    response = _login(client, "didi", PASSWORD)
    assert response.status_code == 429
    assert _login(Client(), "didi", PASSWORD, ip="10.9.9.9").status_code == 302


def test_behind_a_proxy_the_forwarded_address_counts(login_user, settings):
    settings.BEHIND_PROXY = True
    client = Client()
    for _attempt in range(5):
        client.post(
            reverse("login"),
            {"username": "didi", "password": "wrong"},
            REMOTE_ADDR="127.0.0.1",
            HTTP_X_FORWARDED_FOR="spoofed, 203.0.113.7",
        )
    blocked = client.post(
        reverse("login"),
        {"username": "didi", "password": PASSWORD},
        REMOTE_ADDR="127.0.0.1",
        HTTP_X_FORWARDED_FOR="203.0.113.7",
    )
    assert blocked.status_code == 429
    other_phone = client.post(
        reverse("login"),
        {"username": "didi", "password": PASSWORD},
        REMOTE_ADDR="127.0.0.1",
        HTTP_X_FORWARDED_FOR="203.0.113.8",
    )
    assert other_phone.status_code == 302


def test_admin_login_is_rate_limited_too(login_user):
    login_user.is_staff = True
    login_user.save()
    client = Client()
    url = reverse("admin:login")
    for _attempt in range(5):
        client.post(url, {"username": "didi", "password": "wrong"}, REMOTE_ADDR="10.0.0.5")
    response = client.post(url, {"username": "didi", "password": PASSWORD}, REMOTE_ADDR="10.0.0.5")
    assert response.status_code == 429
    assert TOO_MANY in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_quoted_player_name_in_url_is_text(world):
    """player_detail takes a name from the URL; a hostile one is echoed as text."""
    if "player_detail" not in _named_patterns():
        pytest.skip("no player page")
    url = "/players/" + quote("<script>x</script>") + "/"
    response = world["clients"]["owner"].get(url)
    assert b"<script>x</script>" not in response.content


def test_logged_in_pages_are_private(logged_in, session):
    for url in (reverse("home"), reverse("session_detail", args=[session.pk]), "/history/"):
        response = logged_in.get(url)
        assert response.status_code == 200
        assert "private" in response["Cache-Control"], url
    assert "private" not in Client().get(reverse("home")).get("Cache-Control", "")

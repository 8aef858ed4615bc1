"""Shared by every test."""

import pytest
from django.conf import settings
from django.core.cache import caches
from django.utils import translation

from accounts.sessions import PendingMarks
from callbreak.selectors import forget_money as forget_callbreak_money
from groups.selectors import forget_pieces
from pots.selectors import forget_money as forget_pot_money
from scoring.selectors.versions import forget_computed
from stats.records import forget_pieces as forget_record_pieces
from tests.samples import make_dashain, make_tihar
from tests.web_helpers import make_session


@pytest.fixture(autouse=True)
def _empty_cache():
    """Each test starts with an empty cache: log-in failures counted by one test
    (accounts/ratelimit.py) must not lock out the next test's log-in, and data
    computed by one test must not be read by the next (ids and times repeat);
    nor does a test that took Redis away leave marks to write at the next
    test's first request (accounts/sessions.py)."""
    PendingMarks.rows = False
    for cache in caches.all():
        cache.clear()
    forget_computed()
    forget_pieces()
    forget_record_pieces()
    forget_pot_money()
    forget_callbreak_money()
    yield
    PendingMarks.rows = False
    for cache in caches.all():
        cache.clear()
    forget_computed()
    forget_pieces()
    forget_record_pieces()
    forget_pot_money()
    forget_callbreak_money()


@pytest.fixture(autouse=True)
def _language_reset():
    """Each test starts in the site's language and leaves it so: a request through
    LocaleMiddleware (a Nepali page) activates its language in the test's thread
    and leaves it active, and a later test that reads a message or runs a command
    would then get it in Nepali (found by running the suite in random order)."""
    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.deactivate()


@pytest.fixture
def owner(django_user_model):
    """The user who keeps the score: owns the sessions the tests look at."""
    return django_user_model.objects.create_user("ram", password="pw-ram-12345")


@pytest.fixture
def logged_in(client, owner):
    client.force_login(owner)
    return client


@pytest.fixture
def session(owner):
    """Four players (Aama, Buwa, Didi, Dai) under pagat rules, no rounds yet."""
    return make_session(owner)


@pytest.fixture
def sessions(owner):
    """The record's two evenings, worked out by hand in tests/samples.py."""
    return make_dashain(owner), make_tihar(owner)

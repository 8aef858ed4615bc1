"""Shared by every test."""

import pytest
from django.core.cache import cache


@pytest.fixture(autouse=True)
def _empty_cache():
    """Each test starts with an empty cache: log-in failures counted by one test
    (scoring/auth.py) must not lock out the next test's log-in."""
    cache.clear()
    yield
    cache.clear()

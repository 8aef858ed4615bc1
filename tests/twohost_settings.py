"""The production settings for the two-host tests' app servers
(tests/site/test_two_hosts.py), except that static files are served by their plain
names: the tests read pages, not static files, and spare collectstatic's
compression of every file."""

from marriage_site.settings import *  # noqa: F403
from marriage_site.settings import STORAGES

STORAGES = {
    **STORAGES,
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

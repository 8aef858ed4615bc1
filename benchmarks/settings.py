"""The production settings plus one trivial view (benchmarks/urls.py), the
yardstick every page's time is compared with."""

from marriage_site.settings import *  # noqa: F403

ROOT_URLCONF = "benchmarks.urls"

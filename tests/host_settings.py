"""The settings of an app host that a browser test starts with scripts/host
(tests/browser/test_push.py), on the tests' own database: the test settings,
with static files served from their folders (nothing collected)."""

from marriage_site.settings_test import *  # noqa: F403

WHITENOISE_USE_FINDERS = True

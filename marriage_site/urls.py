from django.contrib import admin
from django.urls import include, path

from accounts.ratelimit import RateLimitedAdminAuthenticationForm
from accounts.views import admin_log_in
from scoring.urls import session_urls
from stats.urls import session_urls as record_urls
from table.urls import session_urls as table_urls

# The admin's log-in counts failures like the site's own (accounts/ratelimit.py).
admin.site.login_form = RateLimitedAdminAuthenticationForm

urlpatterns = [
    path("admin/login/", admin_log_in),  # before the admin's own: answers 429 when locked
    path("admin/", admin.site.urls),
    # The language switch in the top bar posts here (English / नेपाली).
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("accounts.urls")),
    path("", include("scoring.urls")),
    path("", include("table.urls")),
    # Every page of one session, each view taking `session_id`.
    path("sessions/<int:session_id>/", include(session_urls + record_urls + table_urls)),
    path("", include("stats.urls")),
    path("", include("groups.urls")),
    # Call Break and pot hands, the evening's other games (docs/callbreak.md).
    path("callbreak/", include("callbreak.urls")),
    path("", include("pots.urls")),
]

# Errors in the site's style and language; a 500 page that needs no database.
handler500 = "scoring.views.errors.server_error"

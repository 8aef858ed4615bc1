from django.contrib import admin
from django.urls import include, path

from accounts.ratelimit import RateLimitedAdminAuthenticationForm

# The admin's log-in counts failures like the site's own (accounts/ratelimit.py).
admin.site.login_form = RateLimitedAdminAuthenticationForm

urlpatterns = [
    path("admin/", admin.site.urls),
    # The language switch in the top bar posts here (English / नेपाली).
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("accounts.urls")),
    path("", include("scoring.urls")),
    path("", include("stats.urls")),
]

"""Signing up, and logging in with failed attempts rate limited (ratelimit.py)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.views import LoginView, LogoutView
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _

from .ratelimit import TOO_MANY, RateLimitedAuthenticationForm


class RateLimitedLoginView(LoginView):
    form_class = RateLimitedAuthenticationForm

    def form_invalid(self, form) -> HttpResponse:
        response = super().form_invalid(form)
        # Refused as every form is (422), or 429 once the limit is reached.
        response.status_code = 429 if form.has_error("__all__", TOO_MANY) else 422
        return response


log_in = RateLimitedLoginView.as_view()


def admin_log_in(request: HttpRequest) -> HttpResponse:
    """The admin's own log-in page (its form counts failures too), answering 429
    once the limit is reached, like the site's."""
    from django.contrib import admin

    response = admin.site.login(request)
    form = (getattr(response, "context_data", None) or {}).get("form")
    if form is not None and form.is_bound and form.has_error("__all__", TOO_MANY):
        response.status_code = 429
    return response


def _next_page(request: HttpRequest) -> str:
    """Where the reader was going before signing up (a co-scorer's invite opened
    logged out): a page of this site only, as the log-in page checks it."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    if len(target) > 2000 or not url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return ""
    return target


def signup(request: HttpRequest) -> HttpResponse:
    target = _next_page(request)
    if request.user.is_authenticated:
        return redirect(target or "home")
    form: UserCreationForm = UserCreationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user)
        messages.success(request, _("Welcome, %(name)s.") % {"name": user.get_username()})
        return redirect(target or "home")
    status = 422 if form.is_bound and form.errors else 200  # refused as every form is
    return render(
        request, "registration/signup.html", {"form": form, "next": target}, status=status
    )


def log_out(request: HttpRequest) -> HttpResponse:
    """Django's log-out, and the browser told to drop its HTTP cache of the site:
    it holds this user's private pages (the back button). The phone's offline
    copies and waiting rounds go by script and service worker (static/js/offline.js)."""
    response = LogoutView.as_view()(request)
    if request.method == "POST" and response.status_code < 400:
        response.headers["Clear-Site-Data"] = '"cache"'
    return response

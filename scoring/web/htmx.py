"""The request type of a view that answers htmx: django-htmx's middleware adds
`request.htmx` (see its example project)."""

from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails

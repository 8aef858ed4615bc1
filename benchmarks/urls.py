from django.http import HttpRequest, HttpResponse
from django.template import engines
from django.urls import include, path

EMPTY_PAGE = engines["django"].from_string(
    '{% extends "base.html" %}{% block content %}<p>ok</p>{% endblock %}'
)


def trivial(request: HttpRequest) -> HttpResponse:
    """No database, no template: what the server and middleware cost alone."""
    return HttpResponse("ok", content_type="text/plain")


def empty_page(request: HttpRequest) -> HttpResponse:
    """The site's layout with nothing in it: the cost of any page's frame."""
    return HttpResponse(EMPTY_PAGE.render({}, request))


urlpatterns = [
    path("bench/trivial/", trivial, name="bench_trivial"),
    path("bench/empty-page/", empty_page, name="bench_empty_page"),
    path("", include("marriage_site.urls")),
]

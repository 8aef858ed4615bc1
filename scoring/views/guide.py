"""The public "How scoring works" page: the method, every rule option and the
presets, each figure computed by the engine (scoring/words/guide.py)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from ..words import guide


def how_it_works(request: HttpRequest) -> HttpResponse:
    return render(request, "scoring/guide/how_it_works.html", guide.page())

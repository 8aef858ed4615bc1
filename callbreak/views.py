"""Call Break's pages: plain function views, each fetching what it shows
through callbreak/web/access.py and writing only through callbreak/services.py.

A deal saved by the page's script (static/js/callbreak-page.js, through the
phone's queue) asks for JSON: the deal's scores and the table as the server
now has it, which the phone checks its own figures against.
"""

from __future__ import annotations

import json
from functools import partial
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.http.response import HttpResponseBase
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.translation import gettext as _
from django.views.decorators.http import condition, require_POST

from . import selectors, services
from .engine.refusals import DocumentRefused
from .forms import DealForm, GameFileForm, StartForm, document_text, refusal_line, stake_of
from .models import CallBreakGame
from .web import words
from .web.access import (
    change_for_user,
    deal_for_user,
    deal_was_deleted,
    game_for_user,
    watched_game,
)
from .web.scoring_api import (
    follow,
    live_etag,
    read_snapshot,
    repeated_save,
    too_large,
)

POLL_SECONDS = 1


def wants_json(request: HttpRequest) -> bool:
    return "application/json" in request.headers.get("Accept", "")


@login_required
def game_list(request: HttpRequest) -> HttpResponse:
    games = selectors.games_of(request.user)[:100]
    return render(request, "callbreak/list.html", {"games": games})


@login_required
def game_new(request: HttpRequest) -> HttpResponse:
    earlier = repeated_save(request, kind=services.KIND_GAME)
    if earlier is not None:
        return redirect("callbreak_game", game_id=earlier.object_pk)
    groups = list(selectors.groups_of(request.user))
    form = StartForm(request.POST or None, groups=groups, initial={"played_on": selectors.today()})
    if request.method == "POST" and form.is_valid() and form.rules is not None:
        data = form.cleaned_data
        game = services.start_game(
            owner=request.user,
            players=data["players"],
            rules=form.rules,
            stake=stake_of(form),
            name=data.get("name") or "",
            played_on=data.get("played_on"),
            group=data.get("group"),
            save_key=request.POST.get("save_key"),
        )
        return redirect("callbreak_game", game_id=game.pk)
    context = {
        "form": form,
        "recent": selectors.recent_player_names(request.user),
    }
    return render(request, "callbreak/new.html", context, status=422 if form.is_bound else 200)


def _table_context(game: CallBreakGame, *, can_edit: bool) -> dict[str, Any]:
    table = selectors.game_table(game)
    return {"game": game, "table": table, "can_edit": can_edit, **words.table_words(table)}


def _rules_data(game: CallBreakGame) -> str:
    return json.dumps(game.rules)


@login_required
def game_detail(request: HttpRequest, game_id: int) -> HttpResponse:
    with read_snapshot():  # the game and its deals as of one moment
        game = game_for_user(request, game_id)
        context = _table_context(game, can_edit=True)
    context.update(
        rules_json=_rules_data(game),
        players_json=json.dumps(game.players, ensure_ascii=False),
        watch_url=request.build_absolute_uri(reverse("callbreak_watch", args=[game.watch_token])),
        deal_form=DealForm(None, game.players),
    )
    response = render(request, "callbreak/game.html", context)
    # Kept on the phone by the service worker, as a session's page is: opened
    # again with no network, it shows the game, and the deals waiting to send.
    response["X-Offline-Cache"] = "1"
    return response


def _answer(request: HttpRequest, game: CallBreakGame, deal_pk: int) -> dict[str, Any]:
    with read_snapshot():
        game.refresh_from_db()
        context = _table_context(game, can_edit=True)
    table = context["table"]
    row = next((row for row in table.rows if row.deal.pk == deal_pk), None)
    return {
        "ok": True,
        "number": row.number if row else None,
        "scores": list(row.scores) if row else None,
        "totals": list(table.totals),
        "ended": table.ended,
        "next": table.next_number,
        "table_html": render_to_string("callbreak/_table.html", context, request=request),
        "message": _("Deal %(number)s saved.") % {"number": row.number if row else ""},
    }


@login_required
def deal_new(request: HttpRequest, game_id: int) -> HttpResponse:
    game = game_for_user(request, game_id)
    if request.method != "POST":
        # The deal form is on the game's page (a link to fix a deal kept on
        # the phone lands here).
        return redirect("callbreak_game", game_id=game.pk)
    earlier = repeated_save(request, kind=services.KIND_DEAL)
    if earlier is not None:  # a repeat: answered as the first save was
        deal = services.replayed_deal(game, earlier.object_pk)
        return _saved(request, game, deal.pk)
    rules = selectors.rules_of(game)
    form = DealForm(request.POST, game.players, min_bid=rules.min_bid, max_bid=rules.max_bid)
    problems: list[str] = []
    if form.is_valid():
        try:
            deal = services.add_deal(
                game=game,
                user=request.user,
                bids=form.bids,
                tricks=form.tricks,
                save_key=request.POST.get("save_key"),
            )
        except services.DealRefused as error:
            problems = [refusal_line(item) for item in error.refusals]
        else:
            return _saved(request, game, deal.pk)
    problems = list(form.errors.values()) + problems
    if wants_json(request):
        return JsonResponse({"ok": False, "messages": problems, "errors": form.errors}, status=422)
    context = _table_context(game, can_edit=True)
    context.update(deal_form=form, problems=problems)
    return render(request, "callbreak/game.html", context, status=422)


def _saved(request: HttpRequest, game: CallBreakGame, deal_pk: int) -> HttpResponse:
    if wants_json(request):
        return JsonResponse(_answer(request, game, deal_pk))
    return redirect("callbreak_game", game_id=game.pk)


@login_required
def deal_edit(request: HttpRequest, game_id: int, deal_id: int) -> HttpResponse:
    game = game_for_user(request, game_id)
    deal = deal_for_user(request, game, deal_id)
    number = selectors.deal_numbers(game).get(deal.pk)
    if repeated_save(request, kind=services.KIND_EDIT, object_pk=deal.pk) is not None:
        # The same change sent again (a retry from the phone's queue): answered
        # as the first was, and not applied over a later change.
        return _edited(request, game, number)
    rules = selectors.rules_of(game)
    bounds = {"min_bid": rules.min_bid, "max_bid": rules.max_bid}
    problems: list[str] = []
    if request.method == "POST":
        form = DealForm(request.POST, game.players, **bounds)
        if form.is_valid():
            try:
                services.edit_deal(
                    deal=deal,
                    user=request.user,
                    bids=form.bids,
                    tricks=form.tricks,
                    save_key=request.POST.get("save_key"),
                )
            except services.DealRefused as error:
                problems = [refusal_line(item) for item in error.refusals]
            else:
                return _edited(request, game, number)
        problems = list(form.errors.values()) + problems
        if wants_json(request):
            return JsonResponse({"ok": False, "messages": problems}, status=422)
    else:
        initial = {f"bid_{seat}": bid for seat, bid in enumerate(deal.bids)}
        initial.update({f"tricks_{seat}": tricks for seat, tricks in enumerate(deal.tricks)})
        form = DealForm(initial, game.players, **bounds)
    context = {
        "game": game,
        "deal": deal,
        "number": number,
        "deal_form": form,
        "problems": problems,
        "rules_json": _rules_data(game),
    }
    return render(request, "callbreak/deal_edit.html", context, status=422 if problems else 200)


def _edited(request: HttpRequest, game: CallBreakGame, number: int | None) -> HttpResponse:
    said = _("Deal %(number)s changed.") % {"number": number}
    if wants_json(request):  # the phone's queue: the game's page is where it goes next
        return JsonResponse({"ok": True, "message": said})
    messages.success(request, said)
    return redirect("callbreak_game", game_id=game.pk)


@login_required
def deal_delete(request: HttpRequest, game_id: int, deal_id: int) -> HttpResponse:
    game = game_for_user(request, game_id)
    if request.method == "POST" and deal_was_deleted(request, game, deal_id):
        # Delete tapped twice, or sent again: it is gone already, as asked.
        return redirect("callbreak_game", game_id=game.pk)
    deal = deal_for_user(request, game, deal_id)
    number = selectors.deal_numbers(game).get(deal.pk)
    if request.method == "POST":
        try:
            services.delete_deal(deal=deal, user=request.user)
        except services.DealRefused as error:
            for item in error.refusals:
                messages.error(request, refusal_line(item))
        else:
            messages.success(
                request,
                _("Deal %(number)s deleted. Its history can put it back.") % {"number": number},
            )
        return redirect("callbreak_game", game_id=game.pk)
    return render(
        request, "callbreak/deal_delete.html", {"game": game, "deal": deal, "number": number}
    )


@login_required
def game_changes(request: HttpRequest, game_id: int) -> HttpResponse:
    game = game_for_user(request, game_id)
    changes = list(selectors.changes_of(game)[:200])
    context = {"game": game, "changes": [words.describe_change(game, change) for change in changes]}
    return render(request, "callbreak/changes.html", context)


@login_required
@require_POST
def change_restore(request: HttpRequest, game_id: int, change_id: int) -> HttpResponse:
    game = game_for_user(request, game_id)
    change = change_for_user(request, game, change_id)
    try:
        services.restore_change(change=change, user=request.user)
    except services.DealRefused as error:
        for item in error.refusals:
            messages.error(request, refusal_line(item))
        return redirect("callbreak_changes", game_id=game.pk)
    messages.success(request, _("Restored: the deal is as it was before that change."))
    return redirect("callbreak_game", game_id=game.pk)


# --- Files ----------------------------------------------------------------------------------


@login_required
def game_export(request: HttpRequest, game_id: int) -> HttpResponse:
    with read_snapshot():
        game = game_for_user(request, game_id)
        document = selectors.document_of(game)
    response = HttpResponse(document_text(document), content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="callbreak-{game.pk}.json"'
    return response


@login_required
def game_import(request: HttpRequest) -> HttpResponse:
    earlier = repeated_save(request, kind=services.KIND_IMPORT)
    if earlier is not None:
        return redirect("callbreak_game", game_id=earlier.object_pk)
    groups = list(selectors.groups_of(request.user))
    if request.method == "POST":
        form = GameFileForm(
            request.POST, request.FILES, too_large=too_large(request), groups=groups
        )
    else:
        form = GameFileForm(groups=groups, initial={"played_on": selectors.today()})
    if form.is_bound and form.is_valid():
        try:
            game = services.import_game(
                owner=request.user,
                document=form.document,
                played_on=form.cleaned_data.get("played_on"),
                group=form.cleaned_data.get("group"),
                save_key=request.POST.get("save_key"),
            )
        except DocumentRefused as error:  # read once more by the service: never half-saved
            for item in error.refusals:
                form.add_error("file", refusal_line(item))
        else:
            messages.success(request, _("Game imported."))
            return redirect("callbreak_game", game_id=game.pk)
    return render(
        request, "callbreak/import.html", {"form": form}, status=422 if form.is_bound else 200
    )


# --- Watching on another phone -----------------------------------------------------------------


def _watch_context(game: CallBreakGame) -> dict[str, Any]:
    etag = live_etag(str(game.version))
    context = _table_context(game, can_edit=False)
    context.update(
        poll_url=reverse("callbreak_watch_live", args=[game.watch_token]),
        live_etag=etag,
        poll_seconds=POLL_SECONDS,
        poll_headers=json.dumps({"If-None-Match": f'"{etag}"'}),
    )
    return context


def _no_shared_caches(response: HttpResponse) -> HttpResponse:
    patch_cache_control(response, no_cache=True, private=True)
    patch_vary_headers(response, ["Accept-Language", "Cookie"])
    response.headers["X-Robots-Tag"] = "noindex"
    return response


def watch(request: HttpRequest, token: str) -> HttpResponse:
    with read_snapshot():  # the version the page says and the deals it shows agree
        context = _watch_context(watched_game(token))
    return _no_shared_caches(render(request, "callbreak/watch.html", context))


def _watch_etag(request: HttpRequest, token: str) -> str | None:
    version = (
        CallBreakGame.objects.filter(watch_token=token).values_list("version", flat=True).first()
    )
    return None if version is None else live_etag(str(version))


@condition(etag_func=_watch_etag)
def watch_live(request: HttpRequest, token: str) -> HttpResponse:
    with read_snapshot():
        context = _watch_context(watched_game(token))
    return _no_shared_caches(render(request, "callbreak/watch.html#live", context))


def _watch_followed(token: str) -> tuple[int, str] | None:
    row = CallBreakGame.objects.filter(watch_token=token).values_list("pk", "version").first()
    if row is None:
        return None
    return services.stream_id(row[0]), live_etag(str(row[1]))


async def watch_stream(request: HttpRequest, token: str) -> HttpResponseBase:
    return await follow(request, partial(_watch_followed, token))


# --- How it works --------------------------------------------------------------------------


def how_it_works(request: HttpRequest) -> HttpResponse:
    return render(request, "callbreak/how_it_works.html", words.guide())

from django.urls import path

from .views import audit, files, live, maal, offline, players, rounds, rules, sessions, share
from .views.guide import how_it_works

# Everything under /sessions/<id>/: each view takes session_id and fetches it
# through views.access.
session_urls = [
    path("", sessions.session_detail, name="session_detail"),
    path("edit/", sessions.session_edit, name="session_edit"),
    path("delete/", sessions.session_delete, name="session_delete"),
    path("settle/", sessions.settle_up, name="settle_up"),
    # What its pages follow: the poll, and the stream that tells them when to
    # ask it (marriage_site/asgi.py serves …/stream/).
    path("live/", live.session_live, name="session_live"),
    path("stream/", live.session_stream, name="session_stream"),
    path("export.json", files.session_export, name="session_export"),
    path("rules/", rules.session_rules, name="session_rules"),
    path("maal/", maal.maal_calculator, name="maal_calculator"),
    path("maal-table/", maal.maal_table, name="maal_table"),
    path("players/add/", players.player_add, name="player_add"),
    path("players/<int:player_id>/edit/", players.player_edit, name="player_edit"),
    path("players/<int:player_id>/delete/", players.player_delete, name="player_delete"),
    path("players/<int:player_id>/move/", players.player_move, name="player_move"),
    path("players/draw/", players.seats_draw, name="seats_draw"),
    path("rounds/new/", rounds.round_new, name="round_new"),
    path("rounds/preview/", rounds.round_preview, name="round_preview"),
    path("rounds/<int:round_id>/", rounds.round_detail, name="round_detail"),
    path("rounds/<int:round_id>/edit/", rounds.round_edit, name="round_edit"),
    path("rounds/<int:round_id>/delete/", rounds.round_delete, name="round_delete"),
    path("undo/", rounds.round_undo, name="round_undo"),
    path("changes/", audit.session_changes, name="session_changes"),
    path("rounds/<int:round_id>/changes/", audit.round_changes, name="round_changes"),
    path("changes/<int:change_id>/restore/", audit.round_restore, name="round_restore"),
    path("share/", share.session_share, name="session_share"),
    path("card.png", share.session_card, name="session_card"),
    path("share/new/", share.share_create, name="share_create"),
    path("share/revoke/", share.share_revoke, name="share_revoke"),
]

urlpatterns = [
    path("", sessions.home, name="home"),
    path("how-it-works/", how_it_works, name="how_it_works"),
    path("sessions/new/", sessions.session_new, name="session_new"),
    path("sessions/import/", files.session_import, name="session_import"),
    # A session's pages (session_urls): marriage_site/urls.py, one include()
    # with the record's (stats).
    # The public page of a share link, and the part of it that phones poll.
    path("s/<slug:token>/", share.share_view, name="share_view"),  # token_urlsafe: no NUL
    path("s/<slug:token>/live/", share.share_live, name="share_live"),
    # The stream that tells the page when to ask (marriage_site/asgi.py serves …/stream/).
    path("s/<slug:token>/stream/", share.share_stream, name="share_stream"),
    # Offline at the table: the service worker at the root (its scope is the
    # whole site), the web app manifest, and the page shown for one never opened.
    path("sw.js", offline.service_worker, name="service_worker"),
    path("manifest.webmanifest", offline.web_manifest, name="web_manifest"),
    path("offline/", offline.offline_page, name="offline_page"),
]

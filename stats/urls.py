from django.urls import path

from . import views

urlpatterns = [
    path("history/", views.round_history, name="round_history"),
    path("leaderboard/", views.leaderboard_view, name="leaderboard"),
    # A name may hold any character but "/" breaks nothing with <path:>.
    path("players/<path:name>/", views.player_detail, name="player_detail"),
]

# A session's pages of the record: under the session's own include() with
# scoring's (marriage_site/urls.py), as `session_id`.
session_urls = [
    path("ledger.csv", views.ledger_csv, name="ledger_csv"),
    path("summary/", views.session_summary, name="session_summary"),
]

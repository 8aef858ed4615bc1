from django.urls import path

from . import views

urlpatterns = [
    path("history/", views.round_history, name="round_history"),
    path("leaderboard/", views.leaderboard_view, name="leaderboard"),
    # A name may hold any character but "/" breaks nothing with <path:>.
    path("players/<path:name>/", views.player_detail, name="player_detail"),
    path("sessions/<int:session_id>/ledger.csv", views.ledger_csv, name="ledger_csv"),
    path("sessions/<int:session_id>/summary/", views.session_summary, name="session_summary"),
]

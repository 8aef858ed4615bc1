from django.urls import path

from . import views

urlpatterns = [
    path("", views.game_list, name="callbreak_list"),
    path("new/", views.game_new, name="callbreak_new"),
    path("import/", views.game_import, name="callbreak_import"),
    path("how-it-works/", views.how_it_works, name="callbreak_how"),
    path("<int:game_id>/", views.game_detail, name="callbreak_game"),
    path("<int:game_id>/deals/", views.deal_new, name="callbreak_deal_new"),
    path("<int:game_id>/deals/<int:deal_id>/edit/", views.deal_edit, name="callbreak_deal_edit"),
    path(
        "<int:game_id>/deals/<int:deal_id>/delete/", views.deal_delete, name="callbreak_deal_delete"
    ),
    path("<int:game_id>/changes/", views.game_changes, name="callbreak_changes"),
    path(
        "<int:game_id>/changes/<int:change_id>/restore/",
        views.change_restore,
        name="callbreak_restore",
    ),
    path("<int:game_id>/export.json", views.game_export, name="callbreak_export"),
    # A read-only page for the other phones at the table, and what it polls.
    path("watch/<slug:token>/", views.watch, name="callbreak_watch"),
    path("watch/<slug:token>/live/", views.watch_live, name="callbreak_watch_live"),
    path("watch/<slug:token>/stream/", views.watch_stream, name="callbreak_watch_stream"),
]

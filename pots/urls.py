from django.urls import path

from . import views

app_name = "pots"
urlpatterns = [
    path("pots/", views.pot_list, name="list"),
    path("pots/import/", views.pot_import, name="import"),
    path("pots/<int:session_id>/", views.pot_detail, name="detail"),
    path("pots/<int:session_id>/hands/", views.hand_add, name="hand_add"),
    path("pots/<int:session_id>/hands/<int:hand_id>/", views.hand_edit, name="hand_edit"),
    path(
        "pots/<int:session_id>/hands/<int:hand_id>/delete/",
        views.hand_delete,
        name="hand_delete",
    ),
    path("pots/<int:session_id>/history/", views.pot_history, name="history"),
    path(
        "pots/<int:session_id>/history/<int:change_id>/restore/",
        views.hand_restore,
        name="restore",
    ),
    path("pots/<int:session_id>/export.json", views.pot_export, name="export"),
    path("pots/<int:session_id>/live/", views.pot_live, name="live"),
    path("pots/<int:session_id>/stream/", views.pot_stream, name="stream"),
]

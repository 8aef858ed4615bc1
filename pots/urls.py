from django.urls import path

from . import views

urlpatterns = [
    path("pots/", views.pot_list, name="pot_list"),
    path("pots/import/", views.pot_import, name="pot_import"),
    path("pots/<int:session_id>/", views.pot_detail, name="pot_detail"),
    path("pots/<int:session_id>/hands/", views.hand_add, name="pot_hand_add"),
    path("pots/<int:session_id>/hands/<int:hand_id>/", views.hand_edit, name="pot_hand_edit"),
    path(
        "pots/<int:session_id>/hands/<int:hand_id>/delete/",
        views.hand_delete,
        name="pot_hand_delete",
    ),
    path("pots/<int:session_id>/history/", views.pot_history, name="pot_history"),
    path(
        "pots/<int:session_id>/history/<int:change_id>/restore/",
        views.hand_restore,
        name="pot_restore",
    ),
    path("pots/<int:session_id>/export.json", views.pot_export, name="pot_export"),
    path("pots/<int:session_id>/live/", views.pot_live, name="pot_live"),
    path("pots/<int:session_id>/stream/", views.pot_stream, name="pot_stream"),
]

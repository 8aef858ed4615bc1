from django.contrib.auth import views as auth_views
from django.urls import path

from . import views, views_maal

urlpatterns = [
    path("", views.home, name="home"),
    path("accounts/signup/", views.signup, name="signup"),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("sessions/new/", views.session_new, name="session_new"),
    path("sessions/<int:session_id>/", views.session_detail, name="session_detail"),
    path("sessions/<int:session_id>/settle/", views.settle_up, name="settle_up"),
    path("sessions/<int:session_id>/rules/", views.session_rules, name="session_rules"),
    path("sessions/<int:session_id>/players/add/", views.player_add, name="player_add"),
    path("sessions/<int:session_id>/undo/", views.round_undo, name="round_undo"),
    path("sessions/<int:session_id>/maal/", views_maal.maal_calculator, name="maal_calculator"),
    path("sessions/<int:session_id>/maal-table/", views_maal.maal_table, name="maal_table"),
    path("sessions/<int:session_id>/rounds/new/", views.round_new, name="round_new"),
    path("sessions/<int:session_id>/rounds/preview/", views.round_preview, name="round_preview"),
    path(
        "sessions/<int:session_id>/rounds/<int:round_id>/",
        views.round_detail,
        name="round_detail",
    ),
    path(
        "sessions/<int:session_id>/rounds/<int:round_id>/edit/",
        views.round_edit,
        name="round_edit",
    ),
    path(
        "sessions/<int:session_id>/rounds/<int:round_id>/delete/",
        views.round_delete,
        name="round_delete",
    ),
]

from django.contrib.auth import views as auth_views
from django.urls import path

from . import auth, views, views_audit, views_files, views_maal, views_manage, views_share

urlpatterns = [
    path("", views.home, name="home"),
    path("accounts/signup/", views.signup, name="signup"),
    path("accounts/login/", auth.login, name="login"),  # failed attempts are rate limited
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("sessions/new/", views.session_new, name="session_new"),
    path("sessions/<int:session_id>/", views.session_detail, name="session_detail"),
    path("sessions/import/", views_files.session_import, name="session_import"),
    path(
        "sessions/<int:session_id>/export.json",
        views_files.session_export,
        name="session_export",
    ),
    path("sessions/<int:session_id>/share/", views_share.session_share, name="session_share"),
    path(
        "sessions/<int:session_id>/share/new/",
        views_share.share_create,
        name="share_create",
    ),
    path(
        "sessions/<int:session_id>/share/revoke/",
        views_share.share_revoke,
        name="share_revoke",
    ),
    path("s/<str:token>/", views_share.share_view, name="share_view"),
    path("s/<str:token>/live/", views_share.share_live, name="share_live"),
    path("sessions/<int:session_id>/settle/", views.settle_up, name="settle_up"),
    path("sessions/<int:session_id>/rules/", views.session_rules, name="session_rules"),
    path("sessions/<int:session_id>/players/add/", views.player_add, name="player_add"),
    path("sessions/<int:session_id>/edit/", views_manage.session_edit, name="session_edit"),
    path("sessions/<int:session_id>/delete/", views_manage.session_delete, name="session_delete"),
    path(
        "sessions/<int:session_id>/players/<int:player_id>/edit/",
        views_manage.player_edit,
        name="player_edit",
    ),
    path(
        "sessions/<int:session_id>/players/<int:player_id>/delete/",
        views_manage.player_delete,
        name="player_delete",
    ),
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
    path("sessions/<int:session_id>/changes/", views_audit.session_changes, name="session_changes"),
    path(
        "sessions/<int:session_id>/rounds/<int:round_id>/changes/",
        views_audit.round_changes,
        name="round_changes",
    ),
    path(
        "sessions/<int:session_id>/changes/<int:change_id>/restore/",
        views_audit.round_restore,
        name="round_restore",
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

from django.urls import path

from . import views

urlpatterns = [
    path("groups/", views.group_list, name="group_list"),
    path("groups/import/", views.group_import, name="group_import"),
    path("groups/<int:group_id>/", views.group_detail, name="group_detail"),
    path("groups/<int:group_id>/print/", views.group_print, name="group_print"),
    path("groups/<int:group_id>/card.png", views.group_card, name="group_card"),
    path("groups/<int:group_id>/records/", views.group_records, name="group_records"),
    path("groups/<int:group_id>/delete/", views.group_delete, name="group_delete"),
    path("groups/<int:group_id>/export.json", views.group_export, name="group_export"),
    path("groups/<int:group_id>/members/", views.member_list, name="group_members"),
    path(
        "groups/<int:group_id>/members/<int:member_id>/",
        views.member_edit,
        name="group_member_edit",
    ),
    path(
        "groups/<int:group_id>/members/<int:member_id>/delete/",
        views.member_delete,
        name="group_member_delete",
    ),
    path("groups/<int:group_id>/links/", views.member_links, name="group_links"),
    path("groups/<int:group_id>/links/make/", views.member_links_make, name="group_links_make"),
    path(
        "groups/<int:group_id>/links/<int:member_id>/renew/",
        views.member_link_renew,
        name="group_link_renew",
    ),
    path(
        "groups/<int:group_id>/links/<int:member_id>/revoke/",
        views.member_link_revoke,
        name="group_link_revoke",
    ),
    path("groups/<int:group_id>/evenings/new/", views.evening_new, name="group_evening_new"),
    path("groups/<int:group_id>/evenings/add/", views.evening_add, name="group_evening_add"),
    path(
        "groups/<int:group_id>/evenings/<int:session_id>/remove/",
        views.evening_remove,
        name="group_evening_remove",
    ),
    path("groups/<int:group_id>/payments/new/", views.payment_new, name="group_payment_new"),
    path(
        "groups/<int:group_id>/payments/<int:payment_id>/",
        views.payment_edit,
        name="group_payment_edit",
    ),
    path(
        "groups/<int:group_id>/payments/<int:payment_id>/delete/",
        views.payment_delete,
        name="group_payment_delete",
    ),
    path("groups/<int:group_id>/changes/", views.payment_changes, name="group_changes"),
    path(
        "groups/<int:group_id>/changes/<int:change_id>/restore/",
        views.payment_restore,
        name="group_payment_restore",
    ),
]

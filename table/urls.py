from django.urls import path

from . import views

# Under /sessions/<id>/ (marriage_site/urls.py): each takes session_id.
session_urls = [
    path("seats/", views.seats_manage, name="seats_manage"),
    path("seats/make/", views.seats_make, name="seats_make"),
    path("seats/<int:seat_id>/renew/", views.seat_renew, name="seat_renew"),
    path("seats/<int:seat_id>/revoke/", views.seat_revoke, name="seat_revoke"),
    path("seats/feed/", views.seat_feed, name="seat_feed"),
    # The stream that tells the round form when to ask (marriage_site/asgi.py serves …/stream/).
    path("seats/stream/", views.seat_feed_stream, name="seat_feed_stream"),
    path("scorers/", views.scorers_manage, name="scorers_manage"),
    path("scorers/invite/", views.invite_create, name="invite_create"),
    path("scorers/invite/<int:invite_id>/revoke/", views.invite_revoke, name="invite_revoke"),
    path("scorers/<int:co_scorer_id>/remove/", views.co_scorer_remove, name="co_scorer_remove"),
]

urlpatterns = [
    # A seat link: no log-in, the token is the key. A token is token_urlsafe's
    # letters only (a slug): a NUL or any other character is a 404 before any
    # query, as a share link's is.
    path("t/<slug:token>/", views.seat_page, name="seat_page"),
    path("t/<slug:token>/live/", views.seat_live, name="seat_live"),
    path("t/<slug:token>/stream/", views.seat_stream, name="seat_stream"),
    path("t/<slug:token>/maal/", views.seat_maal, name="seat_maal"),
    # A member's lasting link: their seat in the group's evening in progress
    # (a slug too, as every token).
    path("m/<slug:token>/", views.member_seat, name="member_seat"),
    path("m/<slug:token>/live/", views.member_live, name="member_live"),
    # A co-scorer invite, accepted by a logged-in user.
    path("join/<slug:token>/", views.invite_accept, name="invite_accept"),
]

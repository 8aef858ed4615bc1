from django.urls import path

from . import views

urlpatterns = [
    path("accounts/signup/", views.signup, name="signup"),
    path("accounts/login/", views.log_in, name="login"),  # failed attempts are rate limited
    path("accounts/logout/", views.log_out, name="logout"),  # clears the browser's cache
]

from django.contrib.auth import views as auth_views
from django.urls import path

from . import views

urlpatterns = [
    path("accounts/signup/", views.signup, name="signup"),
    path("accounts/login/", views.log_in, name="login"),  # failed attempts are rate limited
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
]

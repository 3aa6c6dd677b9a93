from django.urls import path

from . import views

urlpatterns = [
    path("settings/profile/", views.profile_edit, name="profile-edit"),
]

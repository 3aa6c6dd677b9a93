from django.urls import path

from . import api

urlpatterns = [path("notifications/", api.NotificationList.as_view(), name="api-notifications")]

from django.urls import path

from . import views

urlpatterns = [
    path("notifications/", views.notification_list, name="notifications"),
    path("notifications/<int:notification_id>/", views.notification_open, name="notification-open"),
    path("notifications/read-all/", views.notification_read_all, name="notifications-read-all"),
    path("notifications/settings/", views.notification_settings, name="notification-settings"),
    path("notifications/unsubscribe/<str:token>/", views.unsubscribe, name="notifications-unsubscribe"),
]

from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"

    def ready(self):
        from django.contrib.auth.signals import user_logged_in, user_logged_out
        from django.db.models.signals import post_save

        from . import receivers
        from .models import User

        # Revoked means revoked: the end of a sign-in closes the sockets it opened.
        user_logged_out.connect(receivers.close_session_sockets, dispatch_uid="accounts.close_session_sockets")
        user_logged_in.connect(receivers.remember_language, dispatch_uid="accounts.remember_language")
        post_save.connect(
            receivers.close_sockets_of_deactivated, sender=User, dispatch_uid="accounts.close_sockets_of_deactivated"
        )

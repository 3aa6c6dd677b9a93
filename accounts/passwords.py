"""Django calls ``password_changed`` of each entry of ``AUTH_PASSWORD_VALIDATORS`` whenever a
user's password is saved, whichever way it was set (allauth's change and reset forms, the
admin, ``manage.py changepassword``): the one hook that catches every way."""

from . import services


class RevokeCredentialsOnPasswordChange:
    """Not a rule for passwords: ends the user's API tokens and unlocks the account when a
    new password is saved (accounts.services.user_revoke_credentials)."""

    def validate(self, password, user=None):
        return None

    def password_changed(self, password, user=None):
        if user is not None and user.pk is not None:
            services.user_revoke_credentials(user=user)

    def get_help_text(self):
        return "Changing your password signs you out on your other devices and ends your API tokens."

from allauth.account.models import EmailAddress
from axes.utils import reset as lockout_reset
from rest_framework.authtoken.models import Token

from .models import User


def user_update_bio(*, user: User, bio: str) -> User:
    user.bio = bio.strip()
    user.full_clean(exclude=["password"])
    user.save(update_fields=["bio"])
    return user


def user_revoke_credentials(*, user: User) -> None:
    """What a new password must end, whoever set it (the user, a reset link, the admin):
    the user's API tokens, and any lockout of the account (its owner has just proved who
    they are). Other sessions end by themselves: Django signs each session with the password
    hash and drops a session whose signature no longer matches on its next request, and the
    session that changed the password is kept (allauth's update_session_auth_hash)."""
    Token.objects.filter(user=user).delete()
    lockout_reset(username=user.username.lower())


def user_confirm_email(*, user: User) -> None:
    """Mark the user's e-mail address as confirmed, for accounts the site makes itself (the
    demo players, an administrator's): sign-up confirms through the link it mails."""
    EmailAddress.objects.update_or_create(
        user=user, email=user.email.lower(), defaults={"verified": True, "primary": True}
    )

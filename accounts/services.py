from allauth.account.models import EmailAddress
from axes.utils import reset as lockout_reset
from rest_framework.authtoken.models import Token

import live

from .models import User


def user_lock(*, user) -> None:
    """Lock the person's account row until the transaction ends, so two requests of theirs at
    once count what they already have one after the other (the caps on open matches, bot
    matches, tournaments and challenges)."""
    list(User.objects.select_for_update().filter(pk=user.pk).values_list("pk", flat=True))


def user_update_bio(*, user: User, bio: str) -> User:
    user.bio = bio.strip()
    user.full_clean(exclude=["password"])
    user.save(update_fields=["bio"])
    return user


def user_revoke_credentials(*, user: User) -> None:
    """What a new password must end, whoever set it (the user, a reset link, the admin):
    the user's API tokens, their open sockets, and any lockout of the account (its owner has
    just proved who they are). Other sessions end by themselves: Django signs each session
    with the password hash and drops a session whose signature no longer matches on its next
    request, and the session that changed the password is kept (allauth's
    update_session_auth_hash). Every socket closes, that session's too: its key was cycled
    and the page's socket holds the old one; the page says so and a reload carries on."""
    Token.objects.filter(user=user).delete()
    user_close_sockets(user=user)
    lockout_reset(username=user.username.lower())


def user_close_sockets(*, user: User, session_key: str | None = None) -> None:
    """Once committed, close the person's open sockets (match, header, lobby, tournament
    pages): all of them, or only those of the session ``session_key`` (signing out). They
    close with ``live.credentials.SIGNED_OUT``, which the pages read as "signed out"."""
    live.close_user_sockets(user.pk, session_key=session_key)


def user_confirm_email(*, user: User) -> None:
    """Mark the user's e-mail address as confirmed, for accounts the site makes itself (the
    demo players, an administrator's): sign-up confirms through the link it mails."""
    EmailAddress.objects.update_or_create(
        user=user, email=user.email.lower(), defaults={"verified": True, "primary": True}
    )

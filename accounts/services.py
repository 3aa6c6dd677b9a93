from allauth.account.models import EmailAddress
from axes.utils import reset as lockout_reset
from django.conf import settings
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy
from rest_framework.authtoken.models import Token

import live
from portal.errors import ServiceError, lazy_message
from portal.page_cache import bump_on_commit, viewer_area

from .models import USERNAME_MAX_LENGTH, User
from .time_zones import is_zone


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


def _checked_zone(name: str) -> str:
    name = (name or "").strip()
    if not is_zone(name):
        if not name:
            raise AccountError(
                _("Choose a time zone from the list, such as Europe/Paris or Asia/Tokyo."), field="time_zone"
            )
        raise AccountError(
            lazy_message(
                _("%(name)s is not a time zone we know: choose one from the list, such as Europe/Paris or Asia/Tokyo."),
                name=name[:64],
            ),
            field="time_zone",
        )
    return name


def user_set_time_zone(*, user: User, time_zone: str) -> User:
    """Save the zone the person's pages and mails show times in; an unknown name is refused
    and changes nothing."""
    user.time_zone = _checked_zone(time_zone)
    user.save(update_fields=["time_zone"])
    return user


def user_set_language(*, user: User, language: str) -> User:
    """Save the language of the person's pages: a code of ``settings.LANGUAGES``, or empty to
    follow the browser. An unknown code is refused and changes nothing."""
    language = (language or "").strip()
    if language and language not in dict(settings.LANGUAGES):
        raise AccountError(
            lazy_message(_("%(language)s is not a language of the site."), language=language[:16]), field="language"
        )
    user.language = language
    user.save(update_fields=["language"])
    return user


def user_adopt_browser_time_zone(*, user: User, time_zone: str) -> bool:
    """Save the zone the person's browser reports, once: only while they have none saved
    (their own choice is never overridden). Whether it was saved; an unknown name is refused."""
    time_zone = _checked_zone(time_zone)
    if user.time_zone:
        return False
    saved = User.objects.filter(pk=user.pk, time_zone="").update(time_zone=time_zone) == 1
    if saved:
        user.time_zone = time_zone
        bump_on_commit(viewer_area(user.pk))  # its kept pages show times in the zone it had
    return saved


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


# --------------------------------------------------------------------------------------
# Bot accounts: a person's own bots, separate accounts that play through the API with their
# token. The site never plays for them (their ``bot_name`` is empty) and they never sign in to
# the pages (no usable password; the log-in form and ``adapter.AccountAdapter`` refuse them).


class AccountError(ServiceError):
    """A refused request about an account (bot accounts); the message is for people."""

    def __init__(self, message: str | Promise, code: str = "bad_request", field: str | None = None):
        super().__init__(code, message, field)


BOT_CANNOT_SIGN_IN = (
    "{name} is a bot account: a bot plays through the API with its token and cannot sign in to the "
    "site. Its owner manages it from their own account."
)


def _check_bot_name(name: str) -> str:
    name = (name or "").strip()
    if not name:
        raise AccountError(_("Give your bot a name."), field="name")
    if len(name) > USERNAME_MAX_LENGTH:
        raise AccountError(
            lazy_message(_("A name has at most %(max)s characters."), max=USERNAME_MAX_LENGTH), field="name"
        )
    try:
        UnicodeUsernameValidator()(name)
    except ValidationError:
        raise AccountError(_("A name may hold letters, digits and @ . + - _ only."), field="name") from None
    if name.lower() in {word.lower() for word in settings.ACCOUNT_USERNAME_BLACKLIST}:
        raise AccountError(lazy_message(_("%(name)s cannot be taken."), name=repr(name)), field="name")
    if User.objects.filter(username__iexact=name).exists():
        raise AccountError(
            lazy_message(_("The name %(name)s is taken: choose another."), name=repr(name)), "name_taken", field="name"
        )
    return name


def bot_account_create(*, owner: User, name: str, description: str = "") -> tuple[User, str]:
    """``owner`` registers a bot account of their own; returns it with its API token, which
    is shown once (a new one can be issued later, ending this one). At most
    ``BOT_ACCOUNTS_PER_PERSON`` per person; a bot owns no bots."""
    if not owner.is_authenticated or not owner.is_active:
        raise AccountError(_("Sign in to register a bot."), "forbidden")
    if owner.is_bot:
        raise AccountError(_("A bot cannot own bots."), "forbidden")
    description = (description or "").strip()
    if len(description) > 1000:
        raise AccountError(_("A description has at most 1000 characters."), field="description")
    with transaction.atomic():
        user_lock(user=owner)  # two registrations at once count one after the other
        limit = settings.BOT_ACCOUNTS_PER_PERSON
        if User.objects.filter(owner=owner).count() >= limit:
            raise AccountError(
                lazy_message(
                    ngettext_lazy(
                        "You already have %(limit)s bot, the most one person may register.",
                        "You already have %(limit)s bots, the most one person may register.",
                        "limit",
                    ),
                    limit=limit,
                ),
                "too_many_bots",
            )
        bot = User(username=_check_bot_name(name), is_bot=True, owner=owner, bio=description)
        bot.set_unusable_password()
        try:
            with transaction.atomic():
                bot.save()
        except IntegrityError:
            raise AccountError(
                lazy_message(_("The name %(name)s is taken: choose another."), name=repr(name)),
                "name_taken",
                field="name",
            ) from None
        token = Token.objects.create(user=bot)
    return bot, token.key


def bot_account_of(*, owner: User, username: str) -> User:
    """``owner``'s bot called ``username``; anyone else's is not found."""
    bot = User.objects.filter(username=username, is_bot=True, owner__isnull=False).first()
    if bot is None or not owner.is_authenticated or bot.owner_id != owner.pk:
        raise AccountError(_("You have no bot of that name."), "not_found")
    return bot


def bot_token_reissue(*, owner: User, username: str) -> str:
    """A new API token for ``owner``'s bot; the old one stops working at once (and the sockets
    it opened close)."""
    bot = bot_account_of(owner=owner, username=username)
    with transaction.atomic():
        Token.objects.filter(user=bot).delete()
        token = Token.objects.create(user=bot)
        user_close_sockets(user=bot)
    return token.key


def bot_unpause(*, owner: User, username: str) -> User:
    """The owner lets their paused bot join and be challenged again; the timeouts before now no
    longer count towards the next pause."""
    bot = bot_account_of(owner=owner, username=username)
    bot.bot_paused_at = None
    bot.bot_unpaused_at = timezone.now()
    bot.save(update_fields=["bot_paused_at", "bot_unpaused_at"])
    return bot


def bot_check_may_play(bot: User) -> None:
    """Refuse a seat or a challenge to a paused bot account."""
    if bot.is_bot_account and bot.bot_paused:
        raise AccountError(
            lazy_message(
                _(
                    "%(name)s is paused after timing out %(times)s times in a row: "
                    "its owner can unpause it on its page."
                ),
                name=bot.username,
                times=settings.BOT_ACCOUNT_TIMEOUTS_TO_PAUSE,
            ),
            "bot_paused",
        )


def bot_check_not_against_owner(players, *, rated: bool) -> None:
    """Refuse a rated match in which a bot account would play its own owner (``players``: the
    accounts that would sit in it)."""
    if not rated:
        return
    ids = {player.pk for player in players}
    for player in players:
        if player.is_bot and player.owner_id is not None and player.owner_id in ids:
            raise AccountError(
                lazy_message(
                    _(
                        "%(bot)s belongs to %(owner)s: a bot never plays a rated match against its own owner. "
                        "Make the match casual."
                    ),
                    bot=player.username,
                    owner=player.owner.username,
                ),
                "own_bot",
            )


def bot_timed_out(*, bot_id: int) -> bool:
    """A bot account ran out of time in a match: paused once its last
    ``BOT_ACCOUNT_TIMEOUTS_TO_PAUSE`` matches since it was last unpaused all ended that way for
    it. True if it is paused now."""
    with transaction.atomic():
        user_lock(user=User(pk=bot_id))
        bot = User.objects.filter(pk=bot_id, is_bot=True, owner__isnull=False).first()
        if bot is None or bot.bot_paused:
            return False
        needed = settings.BOT_ACCOUNT_TIMEOUTS_TO_PAUSE
        seats = bot.seats.filter(Q(match__status__in=["finished", "aborted"]) | Q(timed_out=True) | Q(resigned=True))
        if bot.bot_unpaused_at is not None:
            seats = seats.filter(joined_at__gte=bot.bot_unpaused_at)
        latest = list(seats.order_by("-joined_at", "-pk").values_list("timed_out", flat=True)[:needed])
        if len(latest) < needed or not all(latest):
            return False
        bot.bot_paused_at = timezone.now()
        bot.save(update_fields=["bot_paused_at"])
    return True

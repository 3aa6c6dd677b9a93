"""The API's log-in: ``POST /api/auth/token/`` gives a token for a username and password; and
a person's bot accounts (``/api/bots/``), each with a token of its own.

DRF's own view, with the lockout every way in shares (accounts.lockout) and the API's usual
throttles (DRF's view has none). A locked-out client gets 429 with the time to try again,
even with the right password.
"""

from allauth.account.utils import has_verified_email
from django.conf import settings
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import exceptions, serializers, status
from rest_framework.authtoken.models import Token
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.decorators import api_view, permission_classes
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.settings import api_settings

from portal.api_errors import ErrorSerializer
from portal.api_fields import TextField
from portal.pagination import page_of, paginated
from portal.sockets import token_account, token_key

from . import selectors, services
from .lockout import lockout_explanation
from .models import User

REFUSED = inline_serializer("LoginRefused", {"code": serializers.CharField(), "message": serializers.CharField()})


class TokenView(ObtainAuthToken):
    throttle_classes = api_settings.DEFAULT_THROTTLE_CLASSES
    # DRF's view names its own parsers: the site's read JSON under its size and depth limits.
    parser_classes = api_settings.DEFAULT_PARSER_CLASSES

    @extend_schema(
        responses={200: inline_serializer("Token", {"token": serializers.CharField()}), 400: REFUSED, 429: REFUSED}
    )
    def post(self, request, *args, **kwargs):
        serializer = self.get_serializer(data=request.data)
        if not serializer.is_valid():
            if getattr(request, "axes_locked_out", False):
                # axes marks the request it was given (this DRF request) while authenticating
                message, seconds = lockout_explanation(request, request.axes_credentials)
                raise exceptions.Throttled(wait=seconds, detail=message)
            raise exceptions.ValidationError(serializer.errors)
        user = serializer.validated_data["user"]
        if settings.ACCOUNT_EMAIL_VERIFICATION == "mandatory" and not has_verified_email(user):
            # As the site's log-in form: no way in before the address is confirmed.
            raise exceptions.ValidationError(
                {"non_field_errors": ["Confirm your e-mail address first: follow the link in the mail we sent you."]}
            )
        token, _created = Token.objects.get_or_create(user=user)
        return Response({"token": token.key})


obtain_auth_token = TokenView.as_view()


def requester(request):
    """Whom a request speaks for, read in a database thread (for the async views that stream):
    its API token (``Authorization: Token <key>``, or ``Bearer <key>``) if it sends one, else
    its session's person (or the anonymous user). None: a token that is no active account's."""
    key = token_key(request.headers.get("Authorization", ""))
    if key is not None:
        return token_account(key)
    user = request.user
    user.is_authenticated  # noqa: B018 -- read the session here, in this thread
    return user


# --------------------------------------------------------------------------------------
# Bot accounts: a person registers their own bots and manages their tokens. A bot's own token
# manages nothing (a bot owns no bots).

WRITE_ERRORS = {400: ErrorSerializer, 403: ErrorSerializer, 404: ErrorSerializer, 409: ErrorSerializer}


class BotAccountSerializer(serializers.Serializer):
    username = serializers.CharField()
    description = serializers.CharField()
    owner = serializers.CharField()
    paused = serializers.BooleanField(help_text="Paused after timing out in a row: it cannot join or be challenged.")
    paused_at = serializers.DateTimeField(allow_null=True)
    url = serializers.CharField(help_text="Its player page.")


class BotAccountCreatedSerializer(BotAccountSerializer):
    token = serializers.CharField(help_text="Its API token, shown this once.")


class BotAccountCreateSerializer(serializers.Serializer):
    name = TextField(max_length=150, help_text="The bot's username.")
    description = TextField(max_length=1000, required=False, allow_blank=True, default="")


def bot_json(bot: User) -> dict:
    return {
        "username": bot.username,
        "description": bot.bio,
        "owner": bot.owner.username if bot.owner else "",
        "paused": bot.bot_paused,
        "paused_at": bot.bot_paused_at,
        "url": bot.get_absolute_url(),
    }


@paginated()
@extend_schema(methods=["GET"], responses={200: BotAccountSerializer(many=True), 403: ErrorSerializer})
@extend_schema(
    methods=["POST"], request=BotAccountCreateSerializer, responses={201: BotAccountCreatedSerializer, **WRITE_ERRORS}
)
@api_view(["GET", "POST"])
@permission_classes([IsAuthenticated])
def bot_accounts(request):
    """Your bot accounts, oldest first; or register one (its token is in the answer, once)."""
    if request.method == "GET":
        return page_of(request, selectors.bot_accounts_of(request.user), bot_json)
    serializer = BotAccountCreateSerializer(data=request.data)
    serializer.is_valid(raise_exception=True)
    bot, token = services.bot_account_create(owner=request.user, **serializer.validated_data)
    return Response({**bot_json(bot), "token": token}, status=status.HTTP_201_CREATED)


@extend_schema(
    request=None, responses={200: inline_serializer("BotToken", {"token": serializers.CharField()}), **WRITE_ERRORS}
)
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def bot_token(request, username):
    """A new API token for one of your bots; its old token stops working at once."""
    return Response({"token": services.bot_token_reissue(owner=request.user, username=username)})


@extend_schema(request=None, responses={200: BotAccountSerializer, **WRITE_ERRORS})
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def bot_unpause(request, username):
    """Unpause one of your bots, paused after timing out in a row: it may join and be challenged again."""
    return Response(bot_json(services.bot_unpause(owner=request.user, username=username)))

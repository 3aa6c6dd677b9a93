"""The API's log-in: ``POST /api/auth/token/`` gives a token for a username and password.

DRF's own view, with the lockout every way in shares (accounts.lockout) and the API's usual
throttles (DRF's view has none). A locked-out client gets 429 with the time to try again,
even with the right password.
"""

from allauth.account.utils import has_verified_email
from django.conf import settings
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import exceptions, serializers
from rest_framework.authtoken.models import Token
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.response import Response
from rest_framework.settings import api_settings

from .lockout import lockout_explanation

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
    kind, _, key = request.headers.get("Authorization", "").partition(" ")
    if kind in ("Token", "Bearer") and key.strip():
        token = Token.objects.select_related("user").filter(key=key.strip()).first()
        if token is None or not token.user.is_active:
            return None
        return token.user
    user = request.user
    user.is_authenticated  # noqa: B018 -- read the session here, in this thread
    return user

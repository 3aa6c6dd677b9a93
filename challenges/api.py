"""The REST API of challenges and rematch offers, over the same services as the pages.
Errors carry the API's codes (statuses from ``portal.errors.HTTP_STATUS``, through the API's
exception handler): a bad body 400, not allowed 403, nothing there 404, and an answer that
comes too late (already answered, withdrawn, expired, or over a limit) 409."""

from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.decorators import api_view, permission_classes
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from games.models import Match
from portal.api_errors import ErrorSerializer
from portal.api_fields import TextField
from portal.pagination import page_of, paginated

from . import selectors, services
from .models import State
from .services import ChallengeError

User = get_user_model()

WRITE_ERRORS = {400: ErrorSerializer, 403: ErrorSerializer, 404: ErrorSerializer, 409: ErrorSerializer}


def _bad_body(serializer) -> Response:
    return Response(
        {
            "code": "bad_request",
            "message": "Some fields are missing or wrong; see errors.",
            "errors": serializer.errors,
        },
        status=status.HTTP_400_BAD_REQUEST,
    )


class ChallengeCreateSerializer(serializers.Serializer):
    username = TextField(max_length=150, help_text="The player challenged.")
    game = TextField(max_length=32)
    players = serializers.IntegerField(min_value=1, max_value=99)
    options = serializers.DictField(required=False, default=dict)
    rated = serializers.BooleanField(required=False, default=True)
    speed = serializers.ChoiceField(choices=Match.Speed.values, required=False, default="live")
    seconds_per_move = serializers.IntegerField(required=False, allow_null=True, default=None)
    days_per_move = serializers.IntegerField(required=False, allow_null=True, default=None)


class ChallengeOutSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    challenger = serializers.CharField()
    challenged = serializers.CharField()
    game = serializers.CharField()
    game_name = serializers.CharField()
    num_players = serializers.IntegerField()
    options = serializers.DictField()
    speed = serializers.ChoiceField(choices=Match.Speed.values)
    seconds_per_move = serializers.IntegerField(allow_null=True, help_text="null when untimed")
    rated = serializers.BooleanField()
    state = serializers.ChoiceField(choices=State.choices)
    created_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField()
    match = serializers.IntegerField(allow_null=True, help_text="The match made once accepted.")
    match_url = serializers.CharField(allow_null=True)


class RematchAnswerOutSerializer(serializers.Serializer):
    user_id = serializers.IntegerField()
    username = serializers.CharField()
    answer = serializers.ChoiceField(choices=["pending", "accepted", "declined"])


class RematchOutSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    match = serializers.IntegerField(help_text="The finished match.")
    state = serializers.ChoiceField(choices=State.choices)
    offered_by = serializers.CharField()
    offered_by_id = serializers.IntegerField()
    rated = serializers.BooleanField()
    answers = RematchAnswerOutSerializer(many=True, help_text="The people asked (bots accept at once).")
    created_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField()
    new_match = serializers.IntegerField(allow_null=True, help_text="The rematch, once everyone accepted.")
    new_match_url = serializers.CharField(allow_null=True)


class LatestRematchSerializer(serializers.Serializer):
    offer = RematchOutSerializer(allow_null=True)


STATE_FILTER = OpenApiParameter("state", str, enum=State.values, description="Only the challenges in this state.")


@paginated()
@extend_schema(
    methods=["GET"],
    parameters=[STATE_FILTER],
    responses={200: ChallengeOutSerializer(many=True), 400: ErrorSerializer, 403: ErrorSerializer},
)
@extend_schema(
    methods=["POST"],
    request=ChallengeCreateSerializer,
    responses={201: ChallengeOutSerializer, **WRITE_ERRORS},
)
@api_view(["GET", "POST"])
@permission_classes([IsAuthenticated])
def challenges(request):
    """Your challenges, sent and received, newest first, 50 a page; or challenge a
    player (a bot accepts at once: the answer then names the match)."""
    if request.method == "GET":
        rows = selectors.challenges_for_api(request.user)
        state = request.query_params.get("state")
        if state is not None:
            if state not in State.values:
                message = f"A challenge's state is one of {', '.join(State.values)}."
                raise ChallengeError(message, "bad_request")
            rows = rows.filter(state=state)
        return page_of(request, rows, selectors.challenge_json)
    serializer = ChallengeCreateSerializer(data=request.data)
    if not serializer.is_valid():
        return _bad_body(serializer)
    terms = dict(serializer.validated_data)
    to = User.objects.filter(username__iexact=terms.pop("username"), is_active=True).first()
    if to is None:
        raise ChallengeError(_("There is no such player."), "not_found")
    challenge = services.challenge_create(user=request.user, to=to, num_players=terms.pop("players"), **terms)
    return Response(selectors.challenge_json(challenge), status=status.HTTP_201_CREATED)


def _challenge_write(call):
    @extend_schema(request=None, responses={200: ChallengeOutSerializer, **WRITE_ERRORS})
    @api_view(["POST"])
    @permission_classes([IsAuthenticated])
    def view(request, challenge_id):
        challenge = call(challenge_id=challenge_id, user=request.user)
        return Response(selectors.challenge_json(challenge))

    view.__doc__ = call.__doc__
    return view


challenge_accept = _challenge_write(services.challenge_accept)
challenge_decline = _challenge_write(services.challenge_decline)
challenge_cancel = _challenge_write(services.challenge_cancel)


@extend_schema(methods=["GET"], responses={200: LatestRematchSerializer, 403: ErrorSerializer})
@extend_schema(methods=["POST"], request=None, responses={201: RematchOutSerializer, **WRITE_ERRORS})
@api_view(["GET", "POST"])
@permission_classes([IsAuthenticated])
def match_rematch(request, match_id):
    """The latest rematch offer of a finished match you played (``offer`` null if none); or
    offer one (only its players may)."""
    if request.method == "GET":
        match = Match.objects.filter(pk=match_id, seats__user=request.user).first()
        if match is None:
            raise ChallengeError(_("There is no such match among yours."), "not_found")
        offer, answers = selectors.latest_rematch(match.pk)
        return Response({"offer": selectors.rematch_json(offer, answers) if offer else None})
    offer = services.rematch_offer(match_id=match_id, user=request.user)
    return Response(selectors.rematch_json(offer), status=status.HTTP_201_CREATED)


def _rematch_write(call, **extra):
    @extend_schema(request=None, responses={200: RematchOutSerializer, **WRITE_ERRORS})
    @api_view(["POST"])
    @permission_classes([IsAuthenticated])
    def view(request, offer_id):
        offer = call(offer_id=offer_id, user=request.user, **extra)
        return Response(selectors.rematch_json(offer))

    return view


rematch_accept = _rematch_write(services.rematch_answer, accept=True)
rematch_decline = _rematch_write(services.rematch_answer, accept=False)
rematch_cancel = _rematch_write(services.rematch_cancel)

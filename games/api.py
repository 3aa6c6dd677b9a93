"""The REST API over the same services as the socket. Errors carry the socket's codes: a
service's refusal goes to the API's exception handler (``portal.api_errors``), which gives it
the status of its code."""

import datetime
import functools

from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.handlers.asgi import ASGIRequest
from django.http import Http404, StreamingHttpResponse
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.decorators import (
    api_view,
    content_negotiation_class,
    parser_classes,
    permission_classes,
    renderer_classes,
)
from rest_framework.exceptions import ParseError
from rest_framework.negotiation import BaseContentNegotiation
from rest_framework.parsers import BaseParser
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response

from portal.api_errors import ErrorSerializer
from portal.api_fields import TextField
from portal.json_limits import BoundedJSONParser
from portal.pagination import StrictPageNumberPagination, page_of, paginated

from . import engine_text, exports, records, selectors, services
from .engines import all_games
from .models import ChatMessage, Match
from .services import imports

# A stale or finished refusal of these codes carries the match as the caller sees it, to resync.
RESYNC_CODES = ("stale", "finished")


def with_snapshot_on_conflict(view):
    """A move or a takeback refused as stale or finished answers with the caller's snapshot
    beside the code and the message (when they may see the match), as the socket does."""

    @functools.wraps(view)
    def wrapped(request, match_id, *args, **kwargs):
        try:
            return view(request, match_id, *args, **kwargs)
        except services.MatchError as exc:
            if exc.code in RESYNC_CODES:
                match = selectors.match_with_seats(match_id)
                if match is not None and services.can_view(match, request.user):
                    exc.extra["snapshot"] = selectors.match_payload(match, request.user, chat=False)
            raise

    return wrapped


class MatchCreateSerializer(serializers.Serializer):
    game = TextField()
    players = serializers.IntegerField()
    options = serializers.DictField(required=False, default=dict)
    rated = serializers.BooleanField(required=False, default=True)
    visibility = serializers.ChoiceField(choices=Match.Visibility.values, required=False, default="public")
    speed = serializers.ChoiceField(choices=Match.Speed.values, required=False, default="live")
    seconds_per_move = serializers.IntegerField(required=False, allow_null=True, default=None)
    days_per_move = serializers.IntegerField(required=False, allow_null=True, default=None)
    accepts_bots = serializers.BooleanField(
        required=False, default=False, help_text="Whether people's bot accounts may take a free seat."
    )


class ActSerializer(serializers.Serializer):
    action = TextField(max_length=64)
    version = serializers.IntegerField()


class TakebackRequestSerializer(serializers.Serializer):
    version = serializers.IntegerField(help_text="The version of the position the request is about.")


class TakebackAnswerSerializer(serializers.Serializer):
    accept = serializers.BooleanField()
    version = serializers.IntegerField(help_text="The version of the position the answer is about.")


class BotSeatSerializer(serializers.Serializer):
    bot = TextField(max_length=32, required=False, default="random")


class ChatSerializer(serializers.Serializer):
    text = TextField(max_length=ChatMessage.MAX_LENGTH)


class MatchSummarySerializer(serializers.ModelSerializer):
    seats = serializers.SerializerMethodField()

    class Meta:
        model = Match
        fields = [
            "id",
            "game",
            "num_players",
            "status",
            "version",
            "rated",
            "speed",
            "accepts_bots",
            "created_at",
            "seats",
        ]

    def get_seats(self, match) -> list[dict]:
        return selectors.seats_json(match)


# -- what the responses hold, for the published schema ---------------------------------


class GameOutSerializer(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()
    summary = serializers.CharField()
    player_counts = serializers.ListField(child=serializers.IntegerField())
    options = serializers.ListField(child=serializers.DictField())


class SeatOutSerializer(serializers.Serializer):
    index = serializers.IntegerField()
    username = serializers.CharField(allow_null=True)
    url = serializers.CharField(allow_null=True)
    is_bot = serializers.BooleanField()
    bot = serializers.CharField(allow_null=True)
    resigned = serializers.BooleanField()
    timed_out = serializers.BooleanField()
    place = serializers.IntegerField(allow_null=True)
    score = serializers.IntegerField(allow_null=True)
    record_name = serializers.CharField(
        allow_null=True, help_text="In an imported match (no account seated): the player its record named."
    )


class ClocksSerializer(serializers.Serializer):
    speed = serializers.CharField()
    seconds_per_move = serializers.IntegerField(allow_null=True)
    to_move = serializers.IntegerField(allow_null=True)
    deadline = serializers.DateTimeField(allow_null=True)
    seconds_left = serializers.FloatField(allow_null=True)


class LegalActionSerializer(serializers.Serializer):
    action = serializers.CharField()
    label = serializers.CharField()


class ChatMessageOutSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    user = serializers.CharField()
    text = serializers.CharField()
    at = serializers.DateTimeField()


class TakebackOutSerializer(serializers.Serializer):
    seat = serializers.IntegerField(help_text="The seat asking to take back its last move.")
    accepted = serializers.ListField(child=serializers.IntegerField(), help_text="Seats that accepted.")
    waiting = serializers.ListField(child=serializers.IntegerField(), help_text="Seats still to answer.")
    declined_by = serializers.IntegerField(allow_null=True, help_text="The seat that declined, if one did.")


class SnapshotSerializer(serializers.Serializer):
    """A match as one person sees it: their seat's view and legal actions (selectors.match_payload)."""

    id = serializers.IntegerField()
    game = serializers.CharField()
    game_name = serializers.CharField()
    status = serializers.ChoiceField(choices=Match.Status.choices)
    end_reason = serializers.CharField(allow_blank=True)
    version = serializers.IntegerField()
    rated = serializers.BooleanField()
    num_players = serializers.IntegerField()
    options = serializers.DictField()
    seat = serializers.IntegerField(allow_null=True, help_text="The caller's seat; null for a spectator.")
    seats = SeatOutSerializer(many=True)
    clocks = ClocksSerializer()
    view = serializers.DictField(help_text="The game's own view for this seat: never a secret of another.")
    legal_actions = LegalActionSerializer(many=True)
    moves = serializers.IntegerField()
    takeback = TakebackOutSerializer(
        allow_null=True, help_text="A request to take back a move, while it holds (casual matches only)."
    )
    prompt_others = serializers.CharField(
        help_text="What the seat to move does now, in words naming it, for everyone else (the seat "
        "to move reads view.prompt, said to it)."
    )
    outcome = serializers.CharField(
        help_text="A finished match's result in one sentence: who won and why (empty before it ends)."
    )
    chat = ChatMessageOutSerializer(many=True, required=False)


class CreatedMatchSerializer(SnapshotSerializer):
    invite_token = serializers.CharField()


class MoveOutSerializer(serializers.Serializer):
    index = serializers.IntegerField()
    seat = serializers.IntegerField(allow_null=True, help_text="null for a chance outcome")
    action = serializers.CharField(help_text="A secret chance outcome stays masked (the dice game's card:?).")
    label = serializers.CharField()
    created_at = serializers.DateTimeField()


# What a write on a match may answer besides success: a bad body or an illegal action (400),
# not allowed (403), no such match (404), stale version or finished match (409).
MATCH_WRITE_ERRORS = {400: ErrorSerializer, 403: ErrorSerializer, 404: ErrorSerializer, 409: ErrorSerializer}
INVITE_TOKEN = OpenApiParameter("token", str, description="The invite token of an invite-only match.")
LABELS_LANGUAGE = OpenApiParameter(
    "lang",
    str,
    description="The moves' labels in this language (de, fr or es) instead of English; the actions are the same.",
)


def _match_or_404(request, match_id):
    match = selectors.match_with_seats(match_id)
    if match is None or not services.can_view(match, request.user, request.query_params.get("token")):
        raise Http404
    if services.match_check_clock(match=match):
        match = selectors.match_with_seats(match_id)
    return match


class MovePagination(StrictPageNumberPagination):
    page_size = 500


class ChatPagination(StrictPageNumberPagination):
    page_size = 100


@paginated()
@extend_schema(
    summary="The games",
    description="Every game the site has, with its player counts and options.",
    responses=GameOutSerializer(many=True),
)
@api_view(["GET"])
@permission_classes([AllowAny])
def games(request):
    return page_of(
        request,
        [
            {
                "slug": g.slug,
                "name": g.name,
                "summary": g.summary,
                "player_counts": list(g.allowed_player_counts()),
                "options": [_option_json(g, o) for o in g.options],
            }
            for g in all_games()
        ],
    )


def _option_json(game, option) -> dict:
    data = {"name": option.name, "label": option.label, "default": option.default}
    if option.values is not None:  # a number: the values allowed for each number of players
        data["values"] = {str(n): list(game.option_values(option, n)) for n in game.allowed_player_counts()}
    return data


@paginated()
@extend_schema(
    methods=["GET"],
    description="The public matches waiting for players, newest first, 50 a page.",
    parameters=[OpenApiParameter("game", str, description="Only this game's open matches.")],
    responses=MatchSummarySerializer(many=True),
)
@extend_schema(
    methods=["POST"],
    request=MatchCreateSerializer,
    responses={201: CreatedMatchSerializer, 400: ErrorSerializer, 403: ErrorSerializer},
)
@api_view(["GET", "POST"])
def matches(request):
    if request.method == "GET":
        qs = selectors.open_matches()
        game = request.query_params.get("game")
        if game:
            # Only a game the site has can match: anything else (a NUL byte included, which
            # PostgreSQL refuses in a text parameter) lists nothing.
            qs = qs.filter(game=game) if game in {g.slug for g in all_games()} else qs.none()
        return page_of(request, qs, lambda match: MatchSummarySerializer(match).data)
    serializer = MatchCreateSerializer(data=request.data)
    serializer.is_valid(raise_exception=True)
    data = serializer.validated_data
    match = services.match_create(
        user=request.user,
        game=data["game"],
        num_players=data["players"],
        options=data["options"],
        rated=data["rated"],
        visibility=data["visibility"],
        speed=data["speed"],
        seconds_per_move=data["seconds_per_move"],
        days_per_move=data["days_per_move"],
        accepts_bots=data["accepts_bots"],
    )
    match = selectors.match_with_seats(match.pk)
    body = selectors.match_payload(match, request.user, chat=False)
    body["invite_token"] = match.invite_token
    return Response(body, status=status.HTTP_201_CREATED)


@extend_schema(parameters=[INVITE_TOKEN], responses=SnapshotSerializer)
@api_view(["GET"])
@permission_classes([AllowAny])
def match_detail(request, match_id):
    match = _match_or_404(request, match_id)
    return Response(selectors.match_payload(match, request.user))


@paginated(MovePagination)
@extend_schema(
    description="The match's moves, first to last, 500 a page.",
    parameters=[INVITE_TOKEN, LABELS_LANGUAGE],
    responses=MoveOutSerializer(many=True),
)
@api_view(["GET"])
@permission_classes([AllowAny])
def match_moves(request, match_id):
    match = _match_or_404(request, match_id)
    language = request.query_params.get("lang")
    if language not in dict(settings.LANGUAGES) or language == "en":
        return page_of(request, selectors.moves_json(match))

    def said(row: dict) -> dict:  # the match page's move list, in the page's language
        return {**row, "label": engine_text.translated(row["label"], language)}

    return page_of(request, selectors.moves_json(match), said)


@extend_schema(parameters=[INVITE_TOKEN], request=None, responses={200: SnapshotSerializer, **MATCH_WRITE_ERRORS})
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def match_join(request, match_id):
    services.match_join(
        match_id=match_id, user=request.user, token=request.query_params.get("token") or request.data.get("token")
    )
    return Response(selectors.match_payload(selectors.match_with_seats(match_id), request.user, chat=False))


@extend_schema(request=ActSerializer, responses={200: SnapshotSerializer, **MATCH_WRITE_ERRORS})
@api_view(["POST"])
@permission_classes([IsAuthenticated])
@with_snapshot_on_conflict
def match_actions(request, match_id):
    serializer = ActSerializer(data=request.data)
    if not serializer.is_valid():
        return Response(
            {"code": "bad_request", "message": "Send an action and a version.", "errors": serializer.errors}, status=400
        )
    data = serializer.validated_data
    services.match_act(match_id=match_id, user=request.user, action=data["action"], version=data["version"])
    return Response(selectors.match_payload(selectors.match_with_seats(match_id), request.user, chat=False))


@extend_schema(request=BotSeatSerializer, responses={200: SnapshotSerializer, **MATCH_WRITE_ERRORS})
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def match_seat_bot(request, match_id, index):
    serializer = BotSeatSerializer(data=request.data)
    serializer.is_valid(raise_exception=True)
    services.match_seat_bot(match_id=match_id, user=request.user, index=index, bot=serializer.validated_data["bot"])
    return Response(selectors.match_payload(selectors.match_with_seats(match_id), request.user, chat=False))


@extend_schema(request=None, responses={200: SnapshotSerializer, **MATCH_WRITE_ERRORS})
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def match_resign(request, match_id):
    services.match_resign(match_id=match_id, user=request.user)
    return Response(selectors.match_payload(selectors.match_with_seats(match_id), request.user, chat=False))


@extend_schema(request=None, responses={200: SnapshotSerializer, **MATCH_WRITE_ERRORS})
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def match_abort(request, match_id):
    services.match_abort(match_id=match_id, user=request.user)
    return Response(selectors.match_payload(selectors.match_with_seats(match_id), request.user, chat=False))


@paginated(ChatPagination)
@extend_schema(
    methods=["GET"],
    description="The match's chat, oldest first, 100 a page.",
    parameters=[INVITE_TOKEN],
    responses=ChatMessageOutSerializer(many=True),
)
@extend_schema(
    methods=["POST"],
    parameters=[INVITE_TOKEN],
    request=ChatSerializer,
    responses={201: ChatMessageOutSerializer, **MATCH_WRITE_ERRORS},
)
@api_view(["GET", "POST"])
def match_chat(request, match_id):
    match = _match_or_404(request, match_id)
    if request.method == "POST":
        serializer = ChatSerializer(data=request.data)
        if not serializer.is_valid():
            return Response({"code": "bad_request", "message": "Write 1 to 500 characters."}, status=400)
        message = services.chat_post(match_id=match.pk, user=request.user, text=serializer.validated_data["text"])
        return Response(selectors.chat_json(message), status=status.HTTP_201_CREATED)
    return page_of(request, selectors.chat_of(match), selectors.chat_json)


@with_snapshot_on_conflict
def _takeback(request, match_id, serializer_class, service, message: str) -> Response:
    serializer = serializer_class(data=request.data)
    if not serializer.is_valid():
        return Response({"code": "bad_request", "message": message, "errors": serializer.errors}, status=400)
    service(match_id=match_id, user=request.user, **serializer.validated_data)
    return Response(selectors.match_payload(selectors.match_with_seats(match_id), request.user, chat=False))


@extend_schema(request=TakebackRequestSerializer, responses={200: SnapshotSerializer, **MATCH_WRITE_ERRORS})
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def match_takeback(request, match_id):
    """Ask to take back your last move (casual matches): the snapshot shows the request, or,
    if only bots had to agree, the position without the move."""
    return _takeback(
        request, match_id, TakebackRequestSerializer, services.takeback_request, "Send the version you see."
    )


@extend_schema(request=TakebackAnswerSerializer, responses={200: SnapshotSerializer, **MATCH_WRITE_ERRORS})
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def match_takeback_answer(request, match_id):
    """Accept or decline the other player's request to take back their move."""
    return _takeback(
        request,
        match_id,
        TakebackAnswerSerializer,
        services.takeback_answer,
        "Send accept (true or false) and the version you see.",
    )


# -- exports of finished matches -------------------------------------------------------------


class ExportSeatSerializer(serializers.Serializer):
    index = serializers.IntegerField()
    username = serializers.CharField(allow_null=True)
    is_bot = serializers.BooleanField()
    resigned = serializers.BooleanField()
    timed_out = serializers.BooleanField()
    place = serializers.IntegerField(allow_null=True)
    score = serializers.IntegerField(allow_null=True)
    rating_before = serializers.FloatField(allow_null=True, help_text="null when the match did not rate this seat.")
    rating_after = serializers.FloatField(allow_null=True)


class ExportMoveSerializer(LegalActionSerializer):
    """A move: its action (a secret chance outcome stays masked, the dice game's card:?) and label."""

    index = serializers.IntegerField()
    seat = serializers.IntegerField(allow_null=True, help_text="null for a chance outcome")


class MatchExportSerializer(serializers.Serializer):
    """A finished match as anyone may see it, and the same as a text record (docs/RECORDS.md)."""

    id = serializers.IntegerField()
    game = serializers.CharField()
    game_name = serializers.CharField()
    num_players = serializers.IntegerField()
    options = serializers.DictField()
    rated = serializers.BooleanField()
    speed = serializers.CharField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    end_reason = serializers.CharField(allow_blank=True)
    seats = ExportSeatSerializer(many=True)
    moves = ExportMoveSerializer(many=True)
    record = serializers.CharField(help_text=f"The match as a text record ({records.FORMAT}, docs/RECORDS.md).")
    imported = serializers.BooleanField(help_text="Imported from a record (its players are names, not accounts).")


class RecordImportSerializer(serializers.Serializer):
    record = serializers.CharField(
        trim_whitespace=False, help_text=f"One game record in the text format ({records.FORMAT}, docs/RECORDS.md)."
    )


class RecordRefusedSerializer(ErrorSerializer):
    line = serializers.IntegerField(required=False, help_text="The line of the record at fault, when there is one.")


class RecordTextParser(BaseParser):
    """A record sent as it is, ``Content-Type: text/x-territory-game-record`` (or ``text/plain``)."""

    media_type = f"{records.MEDIA_TYPE}"

    def parse(self, stream, media_type=None, parser_context=None):
        limit = settings.JSON_MAX_BYTES  # as a record sent in JSON
        data = stream.read(limit + 1) if stream is not None else b""
        if len(data) > limit:
            raise ParseError(f"A record is at most {limit} bytes.")
        try:
            return {"record": data.decode("utf-8")}
        except UnicodeDecodeError as exc:
            raise ParseError("A record is UTF-8 text.") from exc


class PlainRecordParser(RecordTextParser):
    media_type = "text/plain"


EXPORT_FILTERS = [
    OpenApiParameter("game", str, description="Only this game's matches (a game's slug)."),
    OpenApiParameter(
        "since",
        str,
        description="Only matches finished at or after this moment: a date (YYYY-MM-DD, midnight UTC) "
        "or an ISO 8601 date and time.",
    ),
    OpenApiParameter(
        "until",
        str,
        description="Only matches finished before this moment (a date: before that day begins, UTC).",
    ),
]
NDJSON = "application/x-ndjson"
NDJSON_RESPONSES = {
    (200, NDJSON): OpenApiResponse(
        MatchExportSerializer,
        description="One match a line, as the export of one match gives it, in the order they finished.",
    ),
    400: ErrorSerializer,
    404: ErrorSerializer,
}


class StreamNegotiation(BaseContentNegotiation):
    """A stream is NDJSON whatever the client accepts (``Accept: application/x-ndjson`` as well
    as ``*/*``); a refusal before it starts is JSON."""

    def select_parser(self, request, parsers):
        return parsers[0] if parsers else None

    def select_renderer(self, request, renderers, format_suffix=None):
        return renderers[0], renderers[0].media_type


class BadFilter(ValueError):
    pass


def _moment(request, name: str) -> datetime.datetime | None:
    text = request.query_params.get(name)
    if text is None:
        return None
    try:
        moment = parse_datetime(text)
        day = None if moment else parse_date(text)
    except ValueError:
        moment = day = None
    if day is not None:
        moment = datetime.datetime.combine(day, datetime.time(), tzinfo=datetime.UTC)
    if moment is None:
        raise BadFilter(f"{name} is a date (YYYY-MM-DD) or an ISO 8601 date and time, not {text[:40]!r}.")
    return moment if timezone.is_aware(moment) else moment.replace(tzinfo=datetime.UTC)


def _export_stream(request, user=None) -> Response | StreamingHttpResponse:
    try:
        game = request.query_params.get("game")
        if game is not None and game not in {g.slug for g in all_games()}:
            raise BadFilter(f"There is no game {game[:40]!r}.")
        matches = exports.filtered(
            exports.finished_public(),
            user=user,
            game=game,
            since=_moment(request, "since"),
            until=_moment(request, "until"),
        )
    except BadFilter as exc:
        return Response({"code": "bad_request", "message": str(exc)}, status=400)
    # Served by an ASGI server, the chunks are read one at a time in the database's thread;
    # a synchronous server (the test client, a WSGI server) reads them in order.
    if isinstance(request._request, ASGIRequest):

        async def lines():
            chunks = exports.ndjson_chunks(matches)
            while (text := await sync_to_async(_next_text)(chunks)) is not None:
                yield text

        content = lines()
    else:
        content = (exports.ndjson_text(chunk) for chunk in exports.ndjson_chunks(matches))
    response = StreamingHttpResponse(content, content_type=NDJSON)
    response["Cache-Control"] = "no-store"
    return response


def _next_text(chunks) -> str | None:
    chunk = next(chunks, None)
    return None if chunk is None else exports.ndjson_text(chunk)


@extend_schema(
    operation_id="match_export",
    summary="A finished match's record",
    description="The match as anyone may see it: settings, seats with places, scores and ratings, every "
    "move (a secret chance outcome masked, as in the move list) and the same as a text record. "
    "404 while it is being played, and for an aborted match.",
    parameters=[INVITE_TOKEN],
    responses={200: MatchExportSerializer, 404: ErrorSerializer},
)
@api_view(["GET"])
@permission_classes([AllowAny])
def match_export(request, match_id):
    match = _match_or_404(request, match_id)
    if match.status != Match.Status.FINISHED:
        raise Http404("The record is published when the match is finished")
    return Response(exports.match_json(exports.one(match.pk) or match))


@extend_schema(
    operation_id="matches_export",
    summary="Every finished public match, as a stream",
    description="NDJSON (one JSON object a line, `application/x-ndjson`): the export of each finished "
    "public match, in the order they finished, filtered by game and by when they finished. The stream "
    "has no cap: read it to the end.",
    parameters=EXPORT_FILTERS,
    responses=NDJSON_RESPONSES,
)
@api_view(["GET"])
@renderer_classes([JSONRenderer])
@content_negotiation_class(StreamNegotiation)
@permission_classes([AllowAny])
def matches_export(request):
    return _export_stream(request)


@extend_schema(
    operation_id="player_matches_export",
    summary="A player's finished matches, as a stream",
    description="As the stream of every match, for the public matches in which the player held a seat.",
    parameters=EXPORT_FILTERS,
    responses=NDJSON_RESPONSES,
)
@api_view(["GET"])
@renderer_classes([JSONRenderer])
@content_negotiation_class(StreamNegotiation)
@permission_classes([AllowAny])
def player_matches_export(request, username):
    user = get_object_or_404(get_user_model(), username__iexact=username, is_active=True)
    return _export_stream(request, user=user)


@extend_schema(
    operation_id="matches_import",
    summary="Import a game record",
    description='A finished game in the text format of docs/RECORDS.md (as JSON `{"record": ...}`, or the '
    f"text itself as `{records.MEDIA_TYPE}` or `text/plain`), replayed through its game's rules and kept as "
    "a finished, unrated, public match whose players are the record's names (no account's). The answer is "
    "its export. A record that does not replay, or is not a finished game, is refused with 400, the line at "
    "fault and why; nothing is kept. At most 30 imports in 10 minutes per person.",
    request={
        "application/json": RecordImportSerializer,
        records.MEDIA_TYPE: {"type": "string"},
        "text/plain": {"type": "string"},
    },
    responses={201: MatchExportSerializer, 400: RecordRefusedSerializer, 429: ErrorSerializer},
)
@api_view(["POST"])
@parser_classes([BoundedJSONParser, RecordTextParser, PlainRecordParser])
@permission_classes([IsAuthenticated])
def matches_import(request):
    serializer = RecordImportSerializer(data=request.data)
    if not serializer.is_valid():
        return Response(
            {
                "code": "bad_request",
                "message": 'Send a record: {"record": "[Format ..."}.',
                "errors": serializer.errors,
            },
            status=400,
        )
    match = imports.record_import(user=request.user, text=serializer.validated_data["record"])
    return Response(exports.match_json(exports.one(match.pk) or match), status=status.HTTP_201_CREATED)


class AnalysisOutSerializer(serializers.Serializer):
    status = serializers.ChoiceField(
        choices=["none", "queued", "running", "done", "failed"], help_text="none: nobody asked for it yet."
    )
    progress = serializers.IntegerField(help_text="The share of the positions judged so far, in percent.")
    budget = serializers.CharField(help_text="The search budget it is (or would be) computed at.")
    result = serializers.JSONField(
        allow_null=True,
        help_text=(
            "Once done: per position each seat's value (values), each judged decision with the best move found, "
            "what the choice cost and its grade (decisions), per seat a summary (seats), the thresholds, and the "
            "biggest swing (swing). null until then."
        ),
    )


class AnalysisStatusSerializer(serializers.Serializer):
    status = serializers.CharField()
    progress = serializers.IntegerField()


# What asking about an analysis may answer besides success: a malformed request (400), not
# signed in (403), a match one may not see (404), a match not finished or too many of one's
# analyses waiting (409).
ANALYSIS_ERRORS = {400: ErrorSerializer, 403: ErrorSerializer, 404: ErrorSerializer, 409: ErrorSerializer}


@extend_schema(
    methods=["GET"],
    description="The analysis of a finished match and its result once done (status none: not asked for yet).",
    responses={200: AnalysisOutSerializer, **ANALYSIS_ERRORS},
)
@extend_schema(
    methods=["POST"],
    description=(
        "Ask for the analysis of a finished match (its players; anyone signed in for a public match). Answers "
        "the stored one when it was asked for before; a few of one's own may wait at once."
    ),
    request=None,
    responses={200: AnalysisOutSerializer, 202: AnalysisOutSerializer, **ANALYSIS_ERRORS},
)
@api_view(["GET", "POST"])
@permission_classes([IsAuthenticated])
def match_analysis(request, match_id):
    if request.method == "POST":
        analysis = services.analysis_request(user=request.user, match_id=match_id)
        done = analysis.status == analysis.Status.DONE
        return Response(services.analysis_json(analysis), status=200 if done else 202)
    return Response(services.analysis_json(services.analysis_for(user=request.user, match_id=match_id)))


@extend_schema(
    description="How far the analysis of a finished match has come, without its result: for polling.",
    responses={200: AnalysisStatusSerializer, **ANALYSIS_ERRORS},
)
@api_view(["GET"])
@permission_classes([IsAuthenticated])
def match_analysis_status(request, match_id):
    found = services.analysis_json(services.analysis_for(user=request.user, match_id=match_id))
    return Response({"status": found["status"], "progress": found["progress"]})

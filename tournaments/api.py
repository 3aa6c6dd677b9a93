"""The REST API of tournaments: list, detail, join, withdraw, standings. Errors have the API's
shape, ``{"code", "message"}`` (a service's refusal goes to the API's exception handler); an
invitation-only tournament is found only with its token (``?token=``) by anyone but its
entrants and creator."""

from __future__ import annotations

from django.http import Http404
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import generics, serializers
from rest_framework.decorators import api_view, permission_classes
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response

from games.catalog import game_slugs
from portal.api_errors import ErrorSerializer
from portal.pagination import StrictPageNumberPagination, page_of, paginated

from . import selectors, services
from .models import Tournament

INVITE_TOKEN = OpenApiParameter("token", str, description="The invite token of an invitation-only tournament.")
LIST_STATUSES = ("upcoming", "running", "finished")


class TournamentSummarySerializer(serializers.ModelSerializer):
    game_name = serializers.CharField()
    entrant_count = serializers.IntegerField(help_text="Entrants who have not withdrawn.")
    winner = serializers.CharField(source="winner.username", allow_null=True, default=None)
    url = serializers.CharField(source="get_absolute_url")

    class Meta:
        model = Tournament
        fields = [
            "id",
            "name",
            "game",
            "game_name",
            "table_size",
            "format",
            "speed",
            "seconds_per_move",
            "rated",
            "accepts_bots",
            "status",
            "registration_opens_at",
            "starts_at",
            "rounds",
            "current_round",
            "entrant_count",
            "winner",
            "url",
        ]


class EntrantSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    username = serializers.CharField()
    is_bot = serializers.BooleanField()
    withdrawn = serializers.BooleanField()


class TieBreakSerializer(serializers.Serializer):
    name = serializers.CharField()
    value = serializers.FloatField()


class StandingSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    entrant = EntrantSerializer()
    points = serializers.FloatField()
    tie_breaks = TieBreakSerializer(many=True, help_text="In the order they break ties.")
    played = serializers.IntegerField()
    byes = serializers.IntegerField()


class TableSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    match = serializers.IntegerField(help_text="The match's id (GET /api/matches/{id}/).")
    status = serializers.CharField(help_text="The match's status.")
    entrants = serializers.ListField(child=serializers.IntegerField(), help_text="Entrant ids in seat order.")
    places = serializers.ListField(
        child=serializers.IntegerField(allow_null=True), help_text="Places in seat order, null until it ends."
    )


class RoundSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    finished = serializers.BooleanField()
    tables = TableSerializer(many=True)
    byes = serializers.ListField(child=serializers.IntegerField(), help_text="Entrant ids given a bye.")


class TournamentDetailSerializer(TournamentSummarySerializer):
    creator = serializers.CharField(source="creator.username")
    notice = serializers.CharField(allow_blank=True)
    forum_topic = serializers.CharField(source="forum_topic.get_absolute_url", allow_null=True, default=None)
    entrants = serializers.SerializerMethodField()
    rounds_played = serializers.SerializerMethodField()

    class Meta(TournamentSummarySerializer.Meta):
        fields = [
            *TournamentSummarySerializer.Meta.fields,
            "creator",
            "notice",
            "forum_topic",
            "entrants",
            "rounds_played",
        ]

    @extend_schema_field(EntrantSerializer(many=True))
    def get_entrants(self, tournament) -> list[dict]:
        return [_entrant_json(e) for e in self.context["entrants"]]

    @extend_schema_field(RoundSerializer(many=True))
    def get_rounds_played(self, tournament) -> list[dict]:
        return [
            {
                "number": round_.number,
                "finished": round_.finished_at is not None,
                "tables": [_table_json(table) for table in round_.tables.all()],
                "byes": [bye.entrant_id for bye in round_.byes.all()],
            }
            for round_ in self.context["rounds"]
        ]


def _entrant_json(entrant) -> dict:
    return {
        "id": entrant.pk,
        "name": entrant.name,
        "username": entrant.user.username,
        "is_bot": entrant.is_bot,
        "withdrawn": entrant.withdrawn,
    }


def _table_json(table) -> dict:
    places = {seat.index: seat.place for seat in table.match.seats.all()}
    seats = list(table.seats.all())
    return {
        "number": table.number,
        "match": table.match_id,
        "status": table.match.status,
        "entrants": [seat.entrant_id for seat in seats],
        "places": [places.get(seat.index) for seat in seats],
    }


class TournamentPagination(StrictPageNumberPagination):
    page_size = 20


class StandingsPagination(StrictPageNumberPagination):
    page_size = 100


@extend_schema(
    summary="Tournaments",
    description="Public tournaments, 20 a page: `upcoming` (taking entries, soonest first, the default), "
    "`running` or `finished` (cancelled ones too, latest first).",
    parameters=[
        OpenApiParameter("status", str, enum=list(LIST_STATUSES), description="Which list; upcoming by default."),
        OpenApiParameter("game", str, description="Only this game's tournaments."),
    ],
    responses={200: TournamentSummarySerializer(many=True), 400: ErrorSerializer, 404: ErrorSerializer},
)
class TournamentList(generics.ListAPIView):
    serializer_class = TournamentSummarySerializer
    pagination_class = TournamentPagination
    permission_classes = [AllowAny]

    def list(self, request, *args, **kwargs):
        wanted = request.query_params.get("status", "upcoming")
        if wanted not in LIST_STATUSES:
            return Response(
                {"code": "bad_request", "message": f"status is one of {', '.join(LIST_STATUSES)}."}, status=400
            )
        return super().list(request, *args, **kwargs)

    def get_queryset(self):
        game = self.request.query_params.get("game")
        qs = selectors.listed(self.request.query_params.get("status", "upcoming"), None).select_related("winner")
        if game is not None:
            qs = qs.filter(game=game) if game in game_slugs() else qs.none()
        return qs


def _tournament_or_404(request, tournament_id) -> Tournament:
    tournament = Tournament.objects.select_related("creator", "winner", "forum_topic").filter(pk=tournament_id).first()
    if tournament is None or not services.can_view(tournament, request.user, request.query_params.get("token")):
        raise Http404
    return tournament


def _detail(request, tournament_id) -> dict:
    tournament = _tournament_or_404(request, tournament_id)
    tournament.entrant_count = tournament.entrants.filter(withdrawn=False).count()
    context = {"entrants": selectors.entrants_of(tournament), "rounds": selectors.rounds_of(tournament)}
    return TournamentDetailSerializer(tournament, context=context).data


WRITE_ERRORS = {400: ErrorSerializer, 403: ErrorSerializer, 404: ErrorSerializer, 409: ErrorSerializer}


@extend_schema(
    summary="A tournament",
    description="Its settings, entrants and every round's tables (with their matches) and byes.",
    parameters=[INVITE_TOKEN],
    responses={200: TournamentDetailSerializer},
)
@api_view(["GET"])
@permission_classes([AllowAny])
def tournament_detail(request, tournament_id):
    return Response(_detail(request, tournament_id))


@extend_schema(
    summary="Enter a tournament",
    description="While it takes entries. An invitation-only one needs its token.",
    parameters=[INVITE_TOKEN],
    request=None,
    responses={200: TournamentDetailSerializer, **WRITE_ERRORS},
)
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def tournament_join(request, tournament_id):
    services.tournament_join(tournament_id=tournament_id, user=request.user, token=request.query_params.get("token"))
    return Response(_detail(request, tournament_id))


@extend_schema(
    summary="Withdraw from a tournament",
    description="Before the start the entry is removed; once it runs, the caller resigns the match they "
    "are playing in it, is not paired again and stays in the standings.",
    request=None,
    responses={200: TournamentDetailSerializer, **WRITE_ERRORS},
)
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def tournament_withdraw(request, tournament_id):
    services.tournament_withdraw(tournament_id=tournament_id, user=request.user)
    return Response(_detail(request, tournament_id))


@paginated(StandingsPagination)
@extend_schema(
    summary="A tournament's standings",
    description="Best first, from the tables finished so far: points, then the tie-breaks in order; 100 a page.",
    parameters=[INVITE_TOKEN],
    responses={200: StandingSerializer(many=True)},
)
@api_view(["GET"])
@permission_classes([AllowAny])
def tournament_standings(request, tournament_id):
    tournament = _tournament_or_404(request, tournament_id)
    rows = selectors.standing_rows(tournament, selectors.entrants_of(tournament))
    return page_of(
        request,
        [
            {
                "rank": row.rank,
                "entrant": _entrant_json(row.entrant),
                "points": row.points,
                "tie_breaks": [{"name": name, "value": value} for name, value in row.tie_breaks],
                "played": row.played,
                "byes": row.byes,
            }
            for row in rows
        ],
    )

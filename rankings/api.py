"""Read-only API of the rankings: a game's ranking, a player's ratings and rating history."""

from django.contrib.auth import get_user_model
from django.http import Http404
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import generics, serializers
from rest_framework.permissions import AllowAny

from games.catalog import get_game
from games.models import Match
from portal.pagination import StrictPageNumberPagination

from . import selectors
from .models import Rating, RatingChange


class RankingPagination(StrictPageNumberPagination):
    page_size = selectors.RANKING_PAGE_SIZE


class HistoryPagination(StrictPageNumberPagination):
    page_size = 100


class RankingRowSerializer(serializers.ModelSerializer):
    place = serializers.SerializerMethodField()
    username = serializers.CharField(source="user.username")
    is_bot = serializers.BooleanField(source="user.is_bot")
    provisional = serializers.BooleanField()
    url = serializers.CharField(source="user.get_absolute_url")

    class Meta:
        model = Rating
        fields = ["place", "username", "is_bot", "rating", "provisional", "rated_games", "wins", "url"]

    def get_place(self, row) -> int:
        return row.place


class PlayerRatingSerializer(serializers.ModelSerializer):
    game_name = serializers.CharField()
    place = serializers.IntegerField()
    players = serializers.IntegerField(help_text="How many players have a rating in this game.")
    provisional = serializers.BooleanField()

    class Meta:
        model = Rating
        fields = ["game", "game_name", "rating", "provisional", "place", "players", "rated_games", "wins"]


class RatingChangeSerializer(serializers.ModelSerializer):
    change = serializers.FloatField()
    match = serializers.SerializerMethodField(help_text="The match's id; null for an invite-only match.")

    def get_match(self, row) -> int | None:
        return row.match_id if row.match_visibility == Match.Visibility.PUBLIC else None

    class Meta:
        model = RatingChange
        fields = ["match", "created", "before", "after", "change", "place"]


def _game_or_404(slug):
    try:
        return get_game(slug)
    except KeyError:
        raise Http404("No such game") from None


@extend_schema(
    summary="The ranking of a game",
    description="Every rated player of the game, best first, 50 a page. Ratings are unrounded Elo; "
    "`provisional` is true for fewer than 20 rated games.",
)
class GameRanking(generics.ListAPIView):
    serializer_class = RankingRowSerializer
    pagination_class = RankingPagination
    permission_classes = [AllowAny]

    def get_queryset(self):
        game = _game_or_404(self.kwargs["slug"])
        return selectors.RankingList(game.slug)

    def paginate_queryset(self, queryset):
        page = super().paginate_queryset(queryset)
        start = (self.paginator.page.number - 1) * self.paginator.page_size
        for place, row in enumerate(page, start=start + 1):
            row.place = place
        return page


@extend_schema(
    summary="A player's ratings", description="The player's rating, place and record in each game they play, 50 a page."
)
class PlayerRatings(generics.ListAPIView):
    serializer_class = PlayerRatingSerializer
    pagination_class = StrictPageNumberPagination
    permission_classes = [AllowAny]

    def get_queryset(self):
        user = get_object_or_404(get_user_model(), username__iexact=self.kwargs["username"], is_active=True)
        return selectors.player_ratings(user)


@extend_schema(
    summary="A player's rating history in one game",
    description="One entry per rated match, oldest first, 100 a page: the rating before and after it and "
    "the player's place in the match.",
)
class PlayerRatingHistory(generics.ListAPIView):
    serializer_class = RatingChangeSerializer
    pagination_class = HistoryPagination
    permission_classes = [AllowAny]

    def get_queryset(self):
        user = get_object_or_404(get_user_model(), username__iexact=self.kwargs["username"], is_active=True)
        game = _game_or_404(self.kwargs["slug"])
        return selectors.rating_history(user, game.slug)

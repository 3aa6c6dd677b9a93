"""The signed-in person's notifications over the API."""

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import generics, serializers
from rest_framework.permissions import IsAuthenticated

from portal.api_errors import ErrorSerializer
from portal.pagination import StrictPageNumberPagination

from . import selectors
from .models import Notification


class NotificationPagination(StrictPageNumberPagination):
    page_size = 30


class NotificationSerializer(serializers.ModelSerializer):
    kind = serializers.ChoiceField(choices=Notification.Kind.choices)
    url = serializers.CharField(help_text="Where the event is: the match, the topic's post, the challenge.")
    text = serializers.CharField(
        source="shown_text", help_text="What happened, in the language of the request's Accept-Language."
    )

    class Meta:
        model = Notification
        fields = ["id", "kind", "text", "url", "created", "read"]


@extend_schema(
    summary="Your notifications",
    description="What happened for the signed-in person (your turn in a correspondence match, a match "
    "finished, a challenge, a rematch offer, a reply in a forum topic you wrote in), newest first, 30 a page.",
    responses={
        200: NotificationSerializer(many=True),
        401: OpenApiResponse(ErrorSerializer, description="Not signed in (a bad token)."),
        403: OpenApiResponse(ErrorSerializer, description="Not signed in."),
        404: OpenApiResponse(ErrorSerializer, description="No such page."),
    },
)
class NotificationList(generics.ListAPIView):
    serializer_class = NotificationSerializer
    pagination_class = NotificationPagination
    permission_classes = [IsAuthenticated]

    def get_queryset(self):
        return selectors.recent(self.request.user)

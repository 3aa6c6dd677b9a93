"""The API's own facts: which version of the portal answers."""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.decorators import api_view, permission_classes
from rest_framework.permissions import AllowAny
from rest_framework.response import Response

from . import __version__


class VersionSerializer(serializers.Serializer):
    version = serializers.CharField(help_text="The portal's version, as CHANGELOG.md numbers them.")


@extend_schema(responses=VersionSerializer)
@api_view(["GET"])
@permission_classes([AllowAny])
def version(request):
    """The version of the portal serving this API."""
    return Response({"version": __version__})

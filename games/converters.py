"""Path converters shared by the site's pages and the API."""

from django.urls import register_converter
from django.urls.converters import IntConverter


class RowIdConverter(IntConverter):
    """An id as a database row can hold it: a longer one is no such match (404), not a 500."""

    regex = "[0-9]{1,18}"


register_converter(RowIdConverter, "row_id")

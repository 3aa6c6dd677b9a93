"""The API's page numbers, read strictly."""

from rest_framework.exceptions import NotFound
from rest_framework.pagination import PageNumberPagination


class StrictPageNumberPagination(PageNumberPagination):
    """DRF's page numbers, less its leniency: ``?page=`` (empty) or anything but a number is
    an invalid page (404), as the schema publishes ``page`` as an integer, not the first page."""

    def get_page_number(self, request, paginator):
        value = request.query_params.get(self.page_query_param)
        if value is not None and not value.isdigit():
            raise NotFound(self.invalid_page_message)
        return super().get_page_number(request, paginator)

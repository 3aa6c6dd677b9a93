"""Pages of long lists: the site's pages (in the shape ``templates/_pagination.html`` links
them) and the API's page numbers, read strictly."""

from django.core.paginator import Page, Paginator
from rest_framework.exceptions import NotFound
from rest_framework.pagination import PageNumberPagination


def paginate(items, per_page: int, number) -> Page:
    """The page ``number`` of ``items`` (the last one when past the end, the first when not a
    number), with the page numbers to link in ``links`` (gaps elided)."""
    page = Paginator(items, per_page).get_page(number)
    page.links = list(page.paginator.get_elided_page_range(page.number, on_each_side=2, on_ends=1))
    return page


class StrictPageNumberPagination(PageNumberPagination):
    """DRF's page numbers, less its leniency: ``?page=`` (empty) or anything but a number is
    an invalid page (404), as the schema publishes ``page`` as an integer, not the first page."""

    def get_page_number(self, request, paginator):
        value = request.query_params.get(self.page_query_param)
        if value is not None and not value.isdigit():
            raise NotFound(self.invalid_page_message)
        return super().get_page_number(request, paginator)

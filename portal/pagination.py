"""Pages of long lists: the site's pages (in the shape ``templates/_pagination.html`` links
them) and the API's page numbers, read strictly."""

from django.core.paginator import Page, Paginator
from rest_framework.exceptions import NotFound
from rest_framework.pagination import PageNumberPagination
from rest_framework.response import Response


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


def paginated(pagination_class: type[PageNumberPagination] = StrictPageNumberPagination):
    """For an ``@api_view`` function whose GET is a list: the list goes out in pages of
    ``pagination_class`` (through ``page_of``), and the published schema says so, as it does for
    DRF's generic list views. Put it above ``@api_view``."""

    def decorate(view):
        view.cls.pagination_class = pagination_class
        return view

    return decorate


def page_of(request, items, serialize=None) -> Response:
    """The page the request asks for of ``items`` (a query set or a list), as every list of the
    API answers: ``count``, ``next``, ``previous`` (links, null at either end) and ``results``,
    each row through ``serialize`` when given."""
    paginator = request.parser_context["view"].pagination_class()
    rows = paginator.paginate_queryset(items, request)
    return paginator.get_paginated_response([serialize(row) for row in rows] if serialize else rows)

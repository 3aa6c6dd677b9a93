"""Pages of a long list, in the shape ``templates/_pagination.html`` links them."""

from django.core.paginator import Page, Paginator


def paginate(items, per_page: int, number) -> Page:
    """The page ``number`` of ``items`` (the last one when past the end, the first when not a
    number), with the page numbers to link in ``links`` (gaps elided)."""
    page = Paginator(items, per_page).get_page(number)
    page.links = list(page.paginator.get_elided_page_range(page.number, on_each_side=2, on_ends=1))
    return page

"""What a post shows for what the forum does not display: images and links it will not follow."""

from portal.markdown import render_markdown


def test_an_image_in_a_post_shows_as_a_link_to_it_saying_it_is_an_image():
    html = render_markdown("Look: ![my board](https://example.org/board.png)")
    assert '<a href="https://example.org/board.png" rel="nofollow ugc noopener noreferrer">image: my board</a>' in html
    assert "<img" not in html


def test_a_link_the_site_will_not_follow_is_plain_text_not_a_dead_link():
    html = render_markdown("[click me](javascript:alert(1)) or ![pic](data:image/png;base64,AAAA)")
    assert html == "<p>click me or image: pic</p>"


def test_ordinary_links_stay_links():
    html = render_markdown("[rules](/games/territories/rules/) and <https://example.org>")
    assert '<a href="/games/territories/rules/"' in html and '<a href="https://example.org"' in html

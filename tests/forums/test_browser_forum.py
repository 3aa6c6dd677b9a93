"""In a real browser: a topic in Markdown, then a reply by someone else through the quote button."""

import pytest

from tests.conftest import DEMO_PASSWORD

pytestmark = pytest.mark.browser


def log_in(context, base, username):
    page = context.new_page()
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=login]", username)
    page.fill("input[name=password]", DEMO_PASSWORD)
    page.get_by_role("button", name="Sign In").click()
    page.wait_for_url(f"{base}/")
    return page


def test_a_topic_in_markdown_gets_a_quoting_reply_from_another_user(asgi_server, alice, bob, browser, screenshot):
    alice_context = browser.new_context()
    page = log_in(alice_context, asgi_server, "alice")
    page.goto(f"{asgi_server}/forum/")
    page.get_by_role("link", name="General").click()
    page.get_by_role("link", name="New topic").click()
    page.get_by_label("Title").fill("Three tips for the Game of God")
    page.get_by_label("Message").fill("Play **slowly** at first:\n\n- watch the corners\n- count the stacks")
    page.get_by_role("button", name="Start the topic").click()
    page.wait_for_selector("h1.topic-heading")
    topic_url = page.url
    first = page.locator("article.forum-post").first
    assert first.locator(".post-body strong").inner_text() == "slowly"
    assert first.locator(".post-body li").all_inner_texts() == ["watch the corners", "count the stacks"]

    # bob, on a phone-sized screen
    bob_context = browser.new_context(viewport={"width": 375, "height": 800})
    page = log_in(bob_context, asgi_server, "bob")
    page.goto(topic_url)
    page.locator("article.forum-post").first.get_by_role("link", name="Quote").click()
    box = page.get_by_label("Your reply")
    assert box.input_value().startswith("> **alice** wrote:\n>\n> Play **slowly** at first:")
    assert "quote=" not in page.url  # the script filled the box; no reload
    assert page.evaluate("document.activeElement.id") == "reply-body"
    box.press("End")
    box.type("Good advice, but corners first.")
    page.get_by_role("button", name="Post reply").click()
    page.wait_for_selector("article.forum-post >> nth=1")

    reply = page.locator("article.forum-post").nth(1)
    quote = reply.locator(".post-body blockquote")
    assert quote.count() == 1
    assert quote.locator("strong").first.inner_text() == "alice"
    assert "Play slowly at first:" in quote.inner_text() and quote.locator("li").count() == 2
    assert reply.locator(".post-body > p").last.inner_text() == "Good advice, but corners first."
    assert page.evaluate("document.documentElement.scrollWidth") <= 375  # nothing sticks out at 375 px
    screenshot(page, "forum-topic-375px")

    # alice sees the reply on her page too
    alice_page = alice_context.pages[0]
    alice_page.reload()
    assert alice_page.locator("article.forum-post").count() == 2
    alice_context.close()
    bob_context.close()

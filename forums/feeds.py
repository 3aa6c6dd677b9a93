"""An Atom feed per forum: its latest posts."""

from django.conf import settings
from django.contrib.syndication.views import Feed
from django.http import Http404
from django.utils.feedgenerator import Atom1Feed

from . import selectors


class ForumFeed(Feed):
    feed_type = Atom1Feed

    def get_object(self, request, slug):
        forum = selectors.forum_by_slug(slug)
        if forum is None:
            raise Http404("No such forum")
        return forum

    def title(self, forum):
        return f"{forum.name} forum · {settings.SITE_NAME}"

    def subtitle(self, forum):
        return forum.description

    def link(self, forum):
        return forum.get_absolute_url()

    def items(self, forum):
        return selectors.forum_feed_posts(forum)

    def item_title(self, post):
        return post.topic.title if post.pk == selectors.first_post_id(post.topic) else f"Re: {post.topic.title}"

    def item_description(self, post):
        # Sent as an escaped type="html" summary; body_html is the sanitised rendering.
        return post.body_html

    def item_link(self, post):
        return post.get_absolute_url()

    def item_guid(self, post):
        return f"{post.get_absolute_url()}#{post.pk}"

    def item_pubdate(self, post):
        return post.created_at

    def item_updateddate(self, post):
        return post.edited_at or post.created_at

    def item_author_name(self, post):
        return post.author.username if post.author else "A former member"

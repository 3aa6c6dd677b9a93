from django.urls import path

from . import views
from .feeds import ForumFeed

urlpatterns = [
    path("forum/", views.forum_index, name="forum-index"),
    path("forum/search/", views.search, name="forum-search"),
    path("forum/moderation/", views.moderation_log, name="forum-moderation-log"),
    path("forum/reports/", views.report_queue, name="forum-reports"),
    path("forum/reports/<int:report_id>/dismiss/", views.report_dismiss, name="forum-report-dismiss"),
    path("forum/discuss/<int:match_id>/", views.discuss_match, name="forum-discuss-match"),
    path("forum/topic/<int:topic_id>/", views.topic_detail, name="forum-topic"),
    path("forum/topic/<int:topic_id>/reply/", views.topic_reply, name="forum-topic-reply"),
    path("forum/topic/<int:topic_id>/moderate/", views.topic_moderate, name="forum-topic-moderate"),
    path("forum/topic/<int:topic_id>/move/", views.topic_move, name="forum-topic-move"),
    path("forum/topic/<int:topic_id>/delete/", views.topic_delete, name="forum-topic-delete"),
    path("forum/post/<int:post_id>/", views.post_permalink, name="forum-post"),
    path("forum/post/<int:post_id>/edit/", views.post_edit, name="forum-post-edit"),
    path("forum/post/<int:post_id>/delete/", views.post_delete, name="forum-post-delete"),
    path("forum/post/<int:post_id>/report/", views.post_report, name="forum-post-report"),
    # Forum slugs come last: "search", "topic" and the like above are not forums.
    path("forum/<slug:slug>/", views.forum_detail, name="forum-detail"),
    path("forum/<slug:slug>/new/", views.topic_new, name="forum-topic-new"),
    path("forum/<slug:slug>/feed/", ForumFeed(), name="forum-feed"),
]

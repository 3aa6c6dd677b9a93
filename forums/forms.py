from django import forms
from django.utils.translation import gettext_lazy as _

from .models import Forum, Post, PostReport, Topic

MARKDOWN_HELP = _("Markdown: **bold**, *italic*, - lists, > quotes, `code`, [links](https://…). HTML is shown as text.")


class PostForm(forms.Form):
    body = forms.CharField(
        label=_("Your reply"),
        max_length=Post.BODY_MAX,
        strip=False,
        widget=forms.Textarea(attrs={"rows": 8, "id": "reply-body"}),
        help_text=MARKDOWN_HELP,
    )


class TopicForm(forms.Form):
    title = forms.CharField(label=_("Title"), max_length=Topic.TITLE_MAX)
    body = forms.CharField(
        label=_("Message"),
        max_length=Post.BODY_MAX,
        strip=False,
        widget=forms.Textarea(attrs={"rows": 12}),
        help_text=MARKDOWN_HELP,
    )


class PostEditForm(forms.Form):
    title = forms.CharField(label=_("Title of the topic"), max_length=Topic.TITLE_MAX, required=False)
    body = forms.CharField(
        label=_("Message"),
        max_length=Post.BODY_MAX,
        strip=False,
        widget=forms.Textarea(attrs={"rows": 12}),
        help_text=MARKDOWN_HELP,
    )

    def __init__(self, *args, edits_title: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        if edits_title:
            self.fields["title"].required = True
        else:
            del self.fields["title"]


class ReasonForm(forms.Form):
    reason = forms.CharField(
        label=_("Reason"),
        max_length=1000,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("Kept in the moderation log and shown to moderators."),
    )


class ReportForm(forms.Form):
    reason = forms.CharField(
        label=_("What is wrong with this post?"),
        max_length=PostReport.REASON_MAX,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("Only the moderators read it."),
    )


class MoveForm(forms.Form):
    forum = forms.ModelChoiceField(label=_("Move to"), queryset=Forum.objects.all(), empty_label=None)
    reason = forms.CharField(label=_("Reason (optional)"), max_length=1000, required=False)

    def __init__(self, *args, topic=None, **kwargs):
        super().__init__(*args, **kwargs)
        if topic is not None:
            self.fields["forum"].queryset = Forum.objects.exclude(pk=topic.forum_id)


class SearchForm(forms.Form):
    q = forms.CharField(label=_("Search the forum"), max_length=200, required=False)

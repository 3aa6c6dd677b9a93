"""allauth's adapter with one rule more: no session for a bot account, whichever way in
(the log-in form, a password reset that signs in, an e-mail confirmation). A bot account has
no usable password, so this is the second door; the form says why first."""

from __future__ import annotations

from types import SimpleNamespace

from allauth.account.adapter import DefaultAccountAdapter
from django.conf import settings
from django.contrib import messages
from django.shortcuts import redirect
from django.utils import translation

from portal.languages import user_language

from .services import BOT_CANNOT_SIGN_IN


class AccountAdapter(DefaultAccountAdapter):
    def send_mail(self, template_prefix: str, email: str, context: dict) -> None:
        """allauth's mails (confirm your address, reset your password) name the site by its
        name, never by the host and port the request came to ("127.0.0.1:8301"): the site
        framework is not installed, so allauth would take the request's host for both.

        They are written (allauth's own templates and their translations) in the language
        saved on the recipient's account, else in that of the page that sent them (someone
        signing up has saved none yet)."""
        site = SimpleNamespace(name=settings.SITE_NAME, domain=settings.SITE_NAME)
        language = user_language(context.get("user"), default=translation.get_language())
        with translation.override(language):
            super().send_mail(template_prefix, email, {**context, "current_site": site})

    def format_email_subject(self, subject: str) -> str:
        return f"[{settings.SITE_NAME}] {subject}"

    def pre_login(self, request, user, **kwargs):
        if getattr(user, "is_bot", False):
            messages.error(request, BOT_CANNOT_SIGN_IN.format(name=user.username))
            return redirect("account_login")
        return super().pre_login(request, user, **kwargs)

"""allauth's adapter with one rule more: no session for a bot account, whichever way in
(the log-in form, a password reset that signs in, an e-mail confirmation). A bot account has
no usable password, so this is the second door; the form says why first."""

from __future__ import annotations

from allauth.account.adapter import DefaultAccountAdapter
from django.contrib import messages
from django.shortcuts import redirect

from .services import BOT_CANNOT_SIGN_IN


class AccountAdapter(DefaultAccountAdapter):
    def pre_login(self, request, user, **kwargs):
        if getattr(user, "is_bot", False):
            messages.error(request, BOT_CANNOT_SIGN_IN.format(name=user.username))
            return redirect("account_login")
        return super().pre_login(request, user, **kwargs)

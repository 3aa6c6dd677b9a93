from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from portal import refusals

from . import selectors, services
from .forms import BioForm, BotAccountForm


@login_required
def profile_edit(request):
    # Only ever the signed-in user's own profile: there is no user id in this URL to tamper with.
    form = BioForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        services.user_update_bio(user=request.user, bio=form.cleaned_data["bio"])
        messages.success(request, "Your profile was saved.")
        return redirect("player", username=request.user.username)
    return render(request, "accounts/profile_edit.html", {"form": form})


@login_required
def bot_accounts(request):
    """The signed-in person's bot accounts, and the form that registers one. A new bot's API
    token is shown on the answer to that form, once."""
    form = BotAccountForm(request.POST or None)
    context: dict[str, Any] = {"form": form}
    if request.method == "POST" and form.is_valid():
        with refusals.on_form(form):
            bot, token = services.bot_account_create(
                owner=request.user, name=form.cleaned_data["name"], description=form.cleaned_data["description"]
            )
            context.update(new_token=token, token_bot=bot, form=BotAccountForm())
    context.update(bots=selectors.bot_accounts_of(request.user), cap=settings.BOT_ACCOUNTS_PER_PERSON)
    return render(request, "accounts/bot_accounts.html", context)


@login_required
@require_POST
def bot_token(request, username):
    """A new token for one of the person's bots, shown once; the old one stops working."""
    context: dict[str, Any] = {"form": BotAccountForm()}
    with refusals.as_message(request) as refused:
        token = services.bot_token_reissue(owner=request.user, username=username)
        context.update(new_token=token, token_bot=services.bot_account_of(owner=request.user, username=username))
    if refused:
        return redirect("bot-accounts")
    context.update(bots=selectors.bot_accounts_of(request.user), cap=settings.BOT_ACCOUNTS_PER_PERSON)
    return render(request, "accounts/bot_accounts.html", context)


@login_required
@require_POST
def bot_unpause(request, username):
    with refusals.as_message(request):
        bot = services.bot_unpause(owner=request.user, username=username)
        messages.success(request, f"{bot.username} may join matches and be challenged again.")
    return redirect("player", username=username)

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render

from games.bots import bot_description

from . import services
from .bot_strength import bot_strengths
from .forms import BioForm
from .models import User


def player(request, username):
    profile = get_object_or_404(User, username__iexact=username, is_active=True)
    from rankings.sections import player_section  # ratings, rating history, recent matches

    strengths = bot_strengths(profile.bot_name) if profile.is_bot and profile.bot_name else []
    # A bot's page says how its level plays, from the level itself (games.bots), so the text
    # follows the code; the bio its account was made with is history.
    about = (bot_description(profile.bot_name) if profile.is_bot else "") or profile.bio
    return render(
        request,
        "accounts/player.html",
        {"profile": profile, "about": about, "bot_strengths": strengths, **player_section(profile)},
    )


@login_required
def profile_edit(request):
    # Only ever the signed-in user's own profile: there is no user id in this URL to tamper with.
    form = BioForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        services.user_update_bio(user=request.user, bio=form.cleaned_data["bio"])
        messages.success(request, "Your profile was saved.")
        return redirect("player", username=request.user.username)
    return render(request, "accounts/profile_edit.html", {"form": form})

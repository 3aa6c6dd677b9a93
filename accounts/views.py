from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render

from . import services
from .forms import BioForm


@login_required
def profile_edit(request):
    # Only ever the signed-in user's own profile: there is no user id in this URL to tamper with.
    form = BioForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        services.user_update_bio(user=request.user, bio=form.cleaned_data["bio"])
        messages.success(request, "Your profile was saved.")
        return redirect("player", username=request.user.username)
    return render(request, "accounts/profile_edit.html", {"form": form})

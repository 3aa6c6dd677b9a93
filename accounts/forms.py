from allauth.account.forms import SignupForm as AllauthSignupForm
from django import forms
from django.core.validators import MaxLengthValidator

from .models import USERNAME_MAX_LENGTH, User


class SignupForm(AllauthSignupForm):
    """Sign-up with a username short enough to sit in a seat, a table row or a phone's
    screen. Accounts made before the limit keep their names (pages cut them with an ellipsis
    and show them whole on hover)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        field = self.fields["username"]
        field.max_length = USERNAME_MAX_LENGTH
        field.validators.append(MaxLengthValidator(USERNAME_MAX_LENGTH))
        field.widget.attrs["maxlength"] = str(USERNAME_MAX_LENGTH)
        field.help_text = f"Up to {USERNAME_MAX_LENGTH} characters: letters, digits and @ . + - _"


class BioForm(forms.ModelForm):
    class Meta:
        model = User
        fields = ["bio"]
        widgets = {"bio": forms.Textarea(attrs={"rows": 5, "maxlength": 1000})}
        labels = {"bio": "About you"}
        help_texts = {"bio": "Up to 1000 characters, shown on your public profile."}

from allauth.account.forms import LoginForm as AllauthLoginForm
from allauth.account.forms import SignupForm as AllauthSignupForm
from django import forms
from django.conf import settings
from django.contrib.auth import password_validation
from django.core.validators import MaxLengthValidator
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from .models import USERNAME_MAX_LENGTH, User
from .passwords import RevokeCredentialsOnPasswordChange
from .services import BOT_CANNOT_SIGN_IN
from .time_zones import ZONE_HINT, choices


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
        if "password1" in self.fields:
            # The rules a new password must meet; what changing one does belongs to the forms
            # that change it, not to a new account's.
            rules = [
                validator
                for validator in password_validation.get_default_password_validators()
                if not isinstance(validator, RevokeCredentialsOnPasswordChange)
            ]
            self.fields["password1"].help_text = password_validation.password_validators_help_text_html(rules)


class BioForm(forms.ModelForm):
    class Meta:
        model = User
        fields = ["bio"]
        widgets = {"bio": forms.Textarea(attrs={"rows": 5, "maxlength": 1000})}
        labels = {"bio": _("About you")}
        help_texts = {"bio": _("Up to 1000 characters, shown on your public profile.")}


class TimeZoneForm(forms.Form):
    time_zone = forms.ChoiceField(
        label=_("Time zone"),
        choices=choices,
        error_messages={
            "invalid_choice": "%(value)s is not a time zone we know: " + ZONE_HINT,
            "required": "Choose a time zone: " + ZONE_HINT,
        },
        help_text=_("Dates and times on the site and in our e-mails are shown in this zone."),
    )


class LanguageForm(forms.Form):
    """The language of the pages, on the profile page (posted to ``language_set``)."""

    language = forms.ChoiceField(
        label=_("Language"),
        choices=[("", _("Your browser's language")), *settings.LANGUAGES],
        required=False,
        help_text=_("The language of the pages, wherever you sign in."),
    )


class LoginForm(AllauthLoginForm):
    """allauth's log-in form, which tells a bot account's name apart: a bot cannot sign in
    (it has no password), and saying so beats "the username and/or password are not correct"."""

    def clean(self):
        login = (self.cleaned_data.get("login") or "").strip()
        if login:
            bot = User.objects.filter(Q(username__iexact=login) | Q(email__iexact=login), is_bot=True).first()
            if bot is not None:
                raise forms.ValidationError(BOT_CANNOT_SIGN_IN.format(name=bot.username), code="bot_account")
        return super().clean()


class BotAccountForm(forms.Form):
    name = forms.CharField(
        max_length=USERNAME_MAX_LENGTH,
        help_text=f"Its username: up to {USERNAME_MAX_LENGTH} characters, letters, digits and @ . + - _",
    )
    description = forms.CharField(
        required=False,
        max_length=1000,
        widget=forms.Textarea(attrs={"rows": 4, "maxlength": 1000}),
        help_text="Up to 1000 characters, shown on its public page: how it plays, where its code lives.",
    )

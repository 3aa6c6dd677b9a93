from django import forms

from .models import User


class BioForm(forms.ModelForm):
    class Meta:
        model = User
        fields = ["bio"]
        widgets = {"bio": forms.Textarea(attrs={"rows": 5, "maxlength": 1000})}
        labels = {"bio": "About you"}
        help_texts = {"bio": "Up to 1000 characters, shown on your public profile."}

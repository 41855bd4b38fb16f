"""Forms for the reading pages: every query parameter is read through one of these."""

from django import forms

from games.loo.catalogue import SOURCE_IDS
from games.loo.rulesets import PRESETS

SOURCE_CHOICES = [(source, PRESETS[source].title) for source in SOURCE_IDS]


class SourceViewForm(forms.Form):
    """How to read a source: the text with margin notes, or side by side with the rules."""

    view = forms.ChoiceField(
        choices=[("text", "Text with notes"), ("side-by-side", "Side by side with the rules")],
        required=False,
    )

    def mode(self) -> str:
        return (self.is_valid() and self.cleaned_data["view"]) or "text"


class CompareForm(forms.Form):
    a = forms.ChoiceField(label="Compare", choices=SOURCE_CHOICES, initial="hoffmann")
    b = forms.ChoiceField(label="with", choices=SOURCE_CHOICES, initial="peel")
    differ = forms.BooleanField(label="Only the rules on which they differ", required=False)

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        if data.get("a") and data.get("a") == data.get("b"):
            raise forms.ValidationError("Choose two different sources.")
        return data


class SearchForm(forms.Form):
    q = forms.CharField(label="Search the sources, rules and glossary", max_length=100)

    def clean_q(self) -> str:
        q = " ".join(self.cleaned_data["q"].split())
        if not any(ch.isalnum() for ch in q):
            raise forms.ValidationError("Type a word to search for.")
        return q


class ErrorReportForm(forms.Form):
    """A reader's report of an error in a passage: what is wrong, and optionally where the
    right reading comes from. Stored for staff only (lessons.models.ErrorReport)."""

    what = forms.CharField(
        label="What is wrong",
        help_text="The words that are wrong, and what they should be.",
        widget=forms.Textarea(attrs={"rows": 5}),
        min_length=5,
        max_length=2000,
        error_messages={
            "required": "Say what is wrong in this passage.",
            "min_length": "Say a little more: what is wrong, and what it should be.",
            "max_length": "Keep it under 2,000 characters.",
        },
    )
    evidence = forms.CharField(
        label="Where the right reading comes from (optional)",
        help_text="A page of a printed copy, a scan, another edition.",
        required=False,
        max_length=500,
        error_messages={"max_length": "Keep it under 500 characters."},
    )

    def clean_what(self) -> str:
        what = self.cleaned_data["what"].strip()
        if not any(ch.isalnum() for ch in what):
            raise forms.ValidationError("Say what is wrong in words.")
        return what

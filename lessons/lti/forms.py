"""The deep-linking page's forms: a quiz or a lesson given to the course's class (the
quizzes' own assignment form: dates, time limit, attempts, grade kept, feedback), or the rule
trainer on a rule set."""

from __future__ import annotations

from typing import Any

from django import forms

from games.loo.rulesets import PRESETS


class TrainerForm(forms.Form):
    rules = forms.ChoiceField(label="Rule set")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)
        self.fields["rules"].choices = [(p.id, p.title) for p in PRESETS.values()]  # type: ignore[attr-defined]

    def title(self) -> str:
        return f"Rule trainer: {PRESETS[self.cleaned_data['rules']].title}"

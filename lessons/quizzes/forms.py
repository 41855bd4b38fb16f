"""A teacher's forms: a quiz (:class:`QuizForm`) and an assignment (:class:`AssignmentForm`).
Dates are read and shown in the teacher's time zone (the views activate it)."""

from __future__ import annotations

from typing import Any

from django import forms

from games.loo import catalogue
from games.loo.questions import QuestionError
from games.loo.rulesets import DEFAULT_PRESET, GAME_NAMES, PRESETS
from lessons.course.models import Lesson
from lessons.quizzes.drawing import derive_seed
from lessons.quizzes.models import (
    DEFAULT_DELAY,
    MAX_ATTEMPTS,
    MAX_DELAY,
    MAX_QUESTIONS,
    Assignment,
    Feedback,
    Grading,
    Quiz,
    QuizVersion,
)
from lessons.trainer import bank
from lessons.trainer.forms import GAME_CHOICES, RULES_CHOICES

ANY = "any"
GROUP = "group:"
LESSON = "lesson:"


def topic_choices() -> list[tuple[str, Any]]:
    return [
        (ANY, "Any rule"),
        ("Groups of rules", [(GROUP + g, label) for g, label in catalogue.GROUPS]),
        (
            "The rules of a lesson",
            [(LESSON + slug, title) for slug, title in Lesson.objects.values_list("slug", "title")],
        ),
    ]


def topics_of(scope: str) -> tuple[list[str], str]:
    """The rule ids a scope stands for ([] for any rule) and the scope in words."""
    if scope.startswith(LESSON):
        lesson = Lesson.objects.filter(slug=scope[len(LESSON) :]).first()
        if lesson is None:
            raise KeyError(scope)
        return list(lesson.teaches), f"the rules of the lesson “{lesson.title}”"
    if scope.startswith(GROUP):
        rules = bank.scope_rules(scope)
        return list(rules or ()), bank.scope_name(scope)
    if scope == ANY:
        return [], "any rule"
    raise KeyError(scope)


class QuizForm(forms.Form):
    title = forms.CharField(max_length=120)
    rules = forms.ChoiceField(label="Rule set", choices=RULES_CHOICES, initial=DEFAULT_PRESET)
    game = forms.ChoiceField(choices=GAME_CHOICES, initial="three-card")
    scope = forms.ChoiceField(label="Rules the questions are about", initial=ANY)
    kinds = forms.MultipleChoiceField(
        label="Kinds of question",
        widget=forms.CheckboxSelectMultiple,
        help_text="None ticked: any kind about the play.",
        required=False,
    )
    count = forms.IntegerField(
        label="Number of questions", min_value=1, max_value=MAX_QUESTIONS, initial=10
    )
    same_for_all = forms.TypedChoiceField(
        label="Questions",
        choices=[("1", "The same for every student"), ("0", "A variant for each student")],
        coerce=lambda v: v == "1",
        initial="1",
        widget=forms.RadioSelect,
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, label_suffix="", **kwargs)  # type: ignore[misc]
        self.fields["scope"].choices = topic_choices()  # type: ignore[attr-defined]
        self.fields["kinds"].choices = [(k, bank.kind_name(k)) for k in bank.kinds()]  # type: ignore[attr-defined]

    @classmethod
    def for_version(cls, version: QuizVersion) -> QuizForm:
        scope = version.scope or ANY
        return cls(
            initial={
                "title": version.title,
                "rules": version.rules,
                "game": version.game,
                "scope": scope,
                "kinds": version.kinds,
                "count": version.count,
                "same_for_all": "1" if version.same_for_all else "0",
            }
        )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        preset, game, scope = data.get("rules"), data.get("game"), data.get("scope")
        if not (preset and game and scope):
            return data
        if game not in bank.games_of(preset):
            self.add_error(
                "game",
                f"{PRESETS[preset].title} describes no {GAME_NAMES[game]}: choose "
                + " or ".join(GAME_NAMES[g] for g in bank.games_of(preset))
                + ".",
            )
            return data
        try:
            topics, words = topics_of(scope)
        except KeyError:
            self.add_error("scope", "Choose a group of rules, a lesson or any rule.")
            return data
        data["topics"], data["topics_from"] = topics, words
        trial = QuizVersion(
            rules=preset,
            game=game,
            topics=topics,
            kinds=data.get("kinds") or [],
            seed=derive_seed("trial", preset, game, scope),
        )
        try:
            trial.make_question(0)
        except QuestionError:
            self.add_error(
                "scope",
                f"No question of these kinds asks about {words} under {PRESETS[preset].title} "
                f"at {GAME_NAMES[game]}: choose other rules or kinds.",
            )
        return data

    def version_fields(self, seed: int) -> dict[str, Any]:
        data = self.cleaned_data
        return {
            "title": data["title"],
            "rules": data["rules"],
            "game": data["game"],
            "topics": data["topics"],
            "topics_from": data["topics_from"],
            "scope": data["scope"],
            "kinds": list(data.get("kinds") or []),
            "count": data["count"],
            "same_for_all": data["same_for_all"],
            "seed": seed,
        }


class DateTimeInput(forms.DateTimeInput):
    input_type = "datetime-local"

    def __init__(self) -> None:
        super().__init__(format="%Y-%m-%dT%H:%M")


class AssignmentForm(forms.ModelForm):
    what = forms.ChoiceField(label="Assign")
    attempts = forms.IntegerField(
        label="Attempts allowed",
        min_value=0,
        max_value=MAX_ATTEMPTS,
        initial=1,
        help_text=f"1 to {MAX_ATTEMPTS}, or 0 for unlimited.",
    )

    class Meta:
        model = Assignment
        fields = ["opens", "closes", "time_limit", "grading", "feedback", "delay"]
        widgets = {"opens": DateTimeInput(), "closes": DateTimeInput()}
        labels = {
            "time_limit": "Time limit (minutes)",
            "grading": "Grade kept",
            "feedback": "Show the answers",
            "delay": "Wait between attempts (minutes)",
        }
        help_texts = {
            "time_limit": "Leave empty for none.",
            "feedback": "Until then, students can change their answers until they submit; "
            "after each answer, the first answer stands.",
            "delay": f"How long a student waits after an attempt before the next. Leave empty "
            f"for {DEFAULT_DELAY} minute with unlimited attempts, none otherwise.",
        }

    def __init__(self, quizzes: list[Quiz], *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, label_suffix="", **kwargs)  # type: ignore[misc]
        self.quizzes = {str(q.pk): q for q in quizzes}
        lessons = list(Lesson.objects.values_list("slug", "title"))
        self.fields["what"].choices = [  # type: ignore[attr-defined]
            ("Your quizzes", [(f"quiz:{q.pk}", str(q)) for q in quizzes]),
            ("Lessons of the course", [(f"lesson:{s}", t) for s, t in lessons]),
        ]
        self.fields["grading"].choices = Grading.choices  # type: ignore[attr-defined]
        self.fields["feedback"].choices = Feedback.choices  # type: ignore[attr-defined]
        instance = self.instance
        if instance.pk:
            self.initial["what"] = (
                f"quiz:{instance.quiz_id}" if instance.quiz_id else f"lesson:{instance.lesson_id}"
            )
            self.initial["attempts"] = instance.attempts_allowed or 0
        for name in ("opens", "closes"):
            self.fields[name].input_formats = ["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"]  # type: ignore[attr-defined]

    def clean_delay(self) -> int | None:
        value: int | None = self.cleaned_data.get("delay")
        if value is not None and not 0 <= value <= MAX_DELAY:
            raise forms.ValidationError(f"A wait between attempts is 0 to {MAX_DELAY} minutes.")
        return value

    def clean_time_limit(self) -> int | None:
        value: int | None = self.cleaned_data.get("time_limit")
        if value is not None and not 1 <= value <= 24 * 60:
            raise forms.ValidationError("A time limit is 1 to 1440 minutes.")
        return value

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        opens, closes = data.get("opens"), data.get("closes")
        if opens and closes and closes <= opens:
            self.add_error("closes", "An assignment closes after it opens.")
        what = data.get("what") or ""
        if (
            self.instance.pk
            and what != self.initial.get("what")
            and self.instance.attempts.exists()
        ):
            self.add_error("what", "Students have started this assignment: what it is stays.")
        if what.startswith("quiz:"):
            quiz = self.quizzes.get(what[5:])
            if quiz is None:
                self.add_error("what", "Choose one of your quizzes or a lesson.")
            self.instance.quiz, self.instance.lesson = quiz, None
        elif what.startswith("lesson:"):
            lesson = Lesson.objects.filter(slug=what[7:]).first()
            self.instance.quiz, self.instance.lesson = None, lesson
            if lesson is None:
                self.add_error("what", "Choose one of your quizzes or a lesson.")
        attempts = data.get("attempts")
        self.instance.attempts_allowed = attempts or None
        return data


class ReportForm(forms.Form):
    note = forms.CharField(
        label="What is wrong with this question?",
        widget=forms.Textarea(attrs={"rows": 2}),
        max_length=2000,
        required=False,
    )

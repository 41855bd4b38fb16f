from django.apps import AppConfig


class TrainerConfig(AppConfig):
    """The rule trainer: questions from the engine's bank, asked one at a time and graded at
    once, with the learner's record per rule. Its stored question and the partials that show
    one (templates/trainer/parts.html) are meant for the lessons and quizzes as well."""

    name = "lessons.trainer"
    label = "trainer"

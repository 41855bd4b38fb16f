from django.urls import path

from lessons.quizzes import exception_views, own_views, results_views, views

app_name = "quizzes"

urlpatterns = [
    # A teacher's quizzes.
    path("", views.list_quizzes, name="quiz-list"),
    path("new/", views.new_quiz, name="quiz-new"),
    path("<int:pk>/", views.show_quiz, name="quiz"),
    path("<int:pk>/edit/", views.edit_quiz, name="quiz-edit"),
    # A teacher's questions of his own (the card-table editor, a form per step).
    path("own/", own_views.list_own, name="own-list"),
    path("own/new/", own_views.start_own, name="own-new"),
    path("own/new/cards/", own_views.own_cards, name="own-cards"),
    path("own/new/preview/", own_views.preview_own, name="own-preview"),
    path("own/new/save/", own_views.save_own, name="own-save"),
    path("own/<int:pk>/", own_views.show_own, name="own"),
    path("own/<int:pk>/delete/", own_views.delete_own, name="own-delete"),
    # A class's assignments and results (its teacher).
    path("class/<int:pk>/", views.list_class_assignments, name="class-assignments"),
    path("class/<int:pk>/assign/", views.assign, name="assign"),
    path("class/<int:pk>/gradebook/", results_views.show_gradebook, name="gradebook"),
    path("class/<int:pk>/gradebook.csv", results_views.download_gradebook, name="gradebook-csv"),
    path("class/<int:pk>/mastery/", views.show_mastery, name="mastery"),
    path("class/<int:pk>/mastery/<int:membership>/", views.show_mastery, name="mastery-student"),
    path("assignment/<int:pk>/edit/", views.edit_assignment, name="assignment-edit"),
    path("assignment/<int:pk>/delete/", views.delete_assignment, name="assignment-delete"),
    path("assignment/<int:pk>/results/", results_views.show_results, name="results"),
    path(
        "assignment/<int:pk>/results/<int:student>/",
        views.show_student_results,
        name="student-results",
    ),
    path(
        "assignment/<int:pk>/results/<int:student>/exception/",
        exception_views.set_exception,
        name="exception",
    ),
    path("assignment/<int:pk>/exceptions/", exception_views.group_exceptions, name="exceptions"),
    path("assignment/<int:pk>/regrade/", results_views.regrade, name="regrade"),
    path("assignment/<int:pk>/answers.csv", results_views.download_answers, name="answers-csv"),
    path("assignment/<int:pk>/results.csv", results_views.download_results, name="results-csv"),
    path("assignment/<int:pk>/questions.csv", results_views.download_items, name="items-csv"),
    # A student's assignments and attempts.
    path("mine/", views.list_my_assignments, name="my-assignments"),
    path("assignment/<int:pk>/", views.show_assignment, name="assignment"),
    path("assignment/<int:pk>/start/", views.start_attempt, name="attempt-start"),
    path("attempt/<int:pk>/", views.show_attempt, name="attempt"),
    path("attempt/<int:pk>/q/<int:number>/answer/", views.answer_question, name="attempt-answer"),
    path("attempt/<int:pk>/q/<int:number>/report/", views.report_problem, name="report"),
    path("attempt/<int:pk>/submit/", views.submit_attempt, name="attempt-submit"),
]

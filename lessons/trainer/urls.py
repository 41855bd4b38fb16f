from django.urls import path

from lessons.trainer import views

app_name = "trainer"

urlpatterns = [
    path("", views.show_trainer, name="choose"),
    path("ask/", views.ask_question, name="ask"),
    path("reviews/", views.show_reviews, name="reviews"),
    path("reviews/due/", views.review_due, name="review-due"),
    path("coverage/", views.show_coverage, name="coverage"),
    path("q/<int:pk>/", views.show_question, name="question"),
    path("q/<int:pk>/answer/", views.answer_question, name="question-answer"),
    path("q/<int:pk>/next/", views.ask_next_question, name="question-next"),
]

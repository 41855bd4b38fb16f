from django.urls import path

from lessons.course import views

app_name = "course"

urlpatterns = [
    path("", views.show_course, name="home"),
    path("<slug:slug>/", views.show_lesson, name="lesson"),
    path("<slug:slug>/<slug:key>/start/", views.start_step, name="start"),
    path("<slug:slug>/<slug:key>/q/<int:pk>/answer/", views.answer, name="answer"),
]

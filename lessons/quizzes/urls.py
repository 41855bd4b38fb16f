from django.urls import URLPattern

app_name = "quizzes"

urlpatterns: list[URLPattern] = []

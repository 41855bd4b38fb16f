from django.urls import URLPattern

app_name = "lessons"

urlpatterns: list[URLPattern] = []

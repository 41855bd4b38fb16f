from django.urls import URLPattern

app_name = "classes"

urlpatterns: list[URLPattern] = []

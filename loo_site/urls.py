from django.contrib import admin
from django.urls import include, path

from loo_site import views

urlpatterns = [
    path("", views.show_start_page, name="home"),
    path("healthz/", views.check_health, name="healthz"),
    path("play/", include("games.urls")),
    path("", include("lessons.urls")),
    path("admin/", admin.site.urls),
]

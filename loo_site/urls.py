from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path, reverse_lazy

from loo_site import views

urlpatterns = [
    path("", views.show_start_page, name="home"),
    path("healthz/", views.check_health, name="healthz"),
    path("healthz/ready/", views.check_readiness, name="readiness"),
    path("accounts/", views.show_account, name="account"),
    path("accounts/sign-up/", views.sign_up, name="sign-up"),
    path("accounts/log-in/", views.LogInView.as_view(), name="login"),
    path("accounts/log-out/", auth_views.LogoutView.as_view(), name="logout"),
    path(
        "accounts/password/",
        views.PasswordChangeView.as_view(success_url=reverse_lazy("password-changed")),
        name="password-change",
    ),
    path(
        "accounts/password/changed/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password-changed",
    ),
    path("accounts/delete/", views.delete_account, name="delete-account"),
    path("accounts/deleted/", views.show_account_deleted, name="account-deleted"),
    path("play/", include("games.urls")),
    path("trainer/", include("lessons.trainer.urls")),
    path("learn/", include("lessons.course.urls")),
    path("classes/", include("lessons.classes.urls")),
    path("quizzes/", include("lessons.quizzes.urls")),
    path("lti/", include("lessons.lti.urls")),
    path("", include("lessons.urls")),
    path("admin/", admin.site.urls),
]

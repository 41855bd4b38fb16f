from django.urls import path

from lessons.lti import views

app_name = "lti"

urlpatterns = [
    path("jwks.json", views.show_jwks, name="jwks"),
    path("login/", views.start_oidc_login, name="login"),
    path("launch/", views.launch, name="launch"),
    path("deep-link/<str:key>/", views.pick_activity, name="deep-link"),
    path("class/<int:pk>/", views.show_class, name="class"),
    path("class/<int:pk>/sync/", views.sync_class_list, name="sync"),
    path("class/<int:pk>/send-again/", views.send_grades_again, name="send-again"),
]

from django.urls import path

from lessons.classes import account_views, announcements, lockout_views, table_views, views

app_name = "classes"

urlpatterns = [
    path("", views.list_classes, name="list"),
    path("new/", views.create_class, name="create"),
    path("join/", views.join_class, name="join"),
    path("<int:pk>/", views.show_class, name="class"),
    path("<int:pk>/edit/", views.edit_class, name="edit"),
    path("<int:pk>/code/", views.change_code, name="code"),
    path("<int:pk>/archive/", views.archive_class, name="archive"),
    path("<int:pk>/copy/", views.copy_class, name="copy"),
    path("<int:pk>/delete/", views.delete_class, name="delete"),
    path("<int:pk>/teachers/", views.show_teachers, name="teachers"),
    path("<int:pk>/add-students/", views.add_students, name="add-students"),
    path("<int:pk>/roster/", views.act_on_roster, name="roster"),
    path("<int:pk>/locked-out/", lockout_views.show_lockouts, name="lockouts"),
    path("<int:pk>/students/<int:membership>/", views.show_student, name="student"),
    path(
        "<int:pk>/students/<int:membership>/password/",
        account_views.reset_password,
        name="reset-password",
    ),
    # Login slips, new passwords in bulk, renaming (issue 37).
    path("<int:pk>/slips/", account_views.show_slips, name="slips"),
    path("<int:pk>/slips/new-passwords/", account_views.new_passwords, name="new-passwords"),
    path(
        "<int:pk>/students/<int:membership>/rename/",
        account_views.rename_student,
        name="rename-student",
    ),
    # Announcements (issue 37).
    path("<int:pk>/announcements/", announcements.post, name="announce"),
    path(
        "<int:pk>/announcements/<int:announcement>/remove/",
        announcements.remove,
        name="announcement-remove",
    ),
    path("<int:pk>/announcements/read/", announcements.mark_read, name="announcements-read"),
    path("<int:pk>/students/<int:membership>/remove/", views.remove_student, name="remove-student"),
    path("<int:pk>/students/<int:membership>/delete/", views.delete_student, name="delete-student"),
    # A class's tables for people (issue 29): the tables themselves are games' pages.
    path("<int:pk>/tables/new/", table_views.open_tables, name="open-tables"),
    path("<int:pk>/tables/start/", table_views.start_tables, name="start-tables"),
    path("<int:pk>/tables/<int:number>/seats/", table_views.table_seats, name="table-seats"),
    path("<int:pk>/tables/<int:number>/take-away/", table_views.take_away, name="take-away"),
    path("<int:pk>/tables/<int:number>/sit/", table_views.sit, name="sit"),
]

from django.contrib import admin

from lessons.quizzes.models import ProblemReport


@admin.register(ProblemReport)
class ProblemReportAdmin(admin.ModelAdmin):
    """Staff see every reported question by what makes it again."""

    list_display = ["created", "kind", "rules", "game", "rule", "seed", "version", "assignment"]
    list_filter = ["kind", "rules", "version"]
    readonly_fields = [f.name for f in ProblemReport._meta.fields]

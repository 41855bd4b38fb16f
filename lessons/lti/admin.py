"""Registering a platform (docs/lti.md): a Platform with its deployment ids, entered by an
administrator from what the platform shows when Lanterloo is added to it; the tool's keys."""

from django.contrib import admin

from lessons.lti.models import Deployment, LtiAccount, LtiContext, Platform, ScoreOutbox, ToolKey


class DeploymentInline(admin.TabularInline):
    model = Deployment
    extra = 1


@admin.register(Platform)
class PlatformAdmin(admin.ModelAdmin):
    list_display = ["name", "issuer", "client_id", "active"]
    list_filter = ["active"]
    search_fields = ["name", "issuer", "client_id"]
    inlines = [DeploymentInline]


@admin.register(ToolKey)
class ToolKeyAdmin(admin.ModelAdmin):
    """The tool's keys: only the public half is shown; a key is made by ``lti_keys``."""

    list_display = ["kid", "active", "created"]
    fields = ["kid", "active", "created", "public_key"]
    readonly_fields = ["kid", "created", "public_key"]

    def has_add_permission(self, request: object) -> bool:
        return False


@admin.register(LtiAccount)
class LtiAccountAdmin(admin.ModelAdmin):
    list_display = ["subject", "issuer", "user", "created"]
    search_fields = ["subject", "user__username"]
    readonly_fields = ["platform", "issuer", "subject", "user", "created"]


@admin.register(LtiContext)
class LtiContextAdmin(admin.ModelAdmin):
    list_display = ["title", "context_id", "platform", "school_class", "synced"]
    readonly_fields = [f.name for f in LtiContext._meta.fields]


@admin.register(ScoreOutbox)
class ScoreOutboxAdmin(admin.ModelAdmin):
    list_display = ["placement", "student", "changed", "sent", "score", "tries", "failed"]
    list_filter = ["failed"]
    readonly_fields = [f.name for f in ScoreOutbox._meta.fields]

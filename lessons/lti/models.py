"""Lanterloo as an LTI 1.3 tool (issue 40): what links a learning platform's people, courses,
activities and gradebook columns to Lanterloo's accounts, classes, assignments and grades.

- :class:`ToolKey`: the tool's own RSA keys (published at ``/lti/jwks.json``), in the database.
- :class:`Platform` and :class:`Deployment`: a platform an administrator registered in the
  admin (its issuer, the client id it gave Lanterloo, its endpoints) and its deployment ids.
- :class:`LoginState`: one OIDC login's state and nonce, used once by the launch that follows.
- :class:`LtiAccount`: (issuer, subject) → a Lanterloo account made at its first launch.
- :class:`LtiContext`: a course of one platform → the Lanterloo class made for it.
- :class:`Placement`: an activity placed by deep linking (a quiz assignment, a lesson, the
  trainer on a rule set), bound to the platform's resource link at its first launch, with
  the gradebook column (line item) its grades go to.
- :class:`ScoreOutbox`: a grade waiting to be sent, sent by a worker outside any request.

Nothing here is in the quizzes' or classes' models: they know nothing of LTI.
"""

from __future__ import annotations

import json
import secrets
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.db import models
from django.utils import timezone
from jwcrypto.jwk import JWK

#: How long a login's state and nonce wait for their launch.
LOGIN_SECONDS = 10 * 60


def origin_of(url: str) -> str:
    """``https://moodle.school.example`` of ``https://moodle.school.example/mod/lti/auth.php``."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme and parts.netloc else ""


class ToolKeyQuerySet(models.QuerySet["ToolKey"]):
    def active(self) -> ToolKeyQuerySet:
        return self.filter(active=True)


class ToolKey(models.Model):
    """One of the tool's RSA key pairs. The newest active one signs (deep-linking answers, the
    client assertions that ask a platform for a token); every active one is in the JWKS, so
    that a new key can be published before it signs and an old one kept until platforms have
    forgotten it. ``manage.py lti_keys`` makes one (docs/lti.md)."""

    kid = models.CharField("key id", max_length=100, unique=True, editable=False)
    public_key = models.TextField(editable=False)
    private_key = models.TextField(editable=False)
    active = models.BooleanField(default=True)
    created = models.DateTimeField(auto_now_add=True)

    objects = ToolKeyQuerySet.as_manager()

    class Meta:
        ordering = ["-created", "-pk"]

    def __str__(self) -> str:
        return self.kid

    @classmethod
    def generate(cls) -> ToolKey:
        key = JWK.generate(kty="RSA", size=2048)
        return cls.objects.create(
            kid=key.thumbprint(),
            public_key=key.export_to_pem().decode(),
            private_key=key.export_to_pem(private_key=True, password=None).decode(),
        )

    @classmethod
    def signing(cls) -> ToolKey:
        """The newest active key, made if there is none."""
        return cls.objects.active().first() or cls.generate()

    def jwk(self) -> dict[str, Any]:
        public: dict[str, Any] = json.loads(JWK.from_pem(self.public_key.encode()).export_public())
        public.update(kid=self.kid, alg="RS256", use="sig")
        return public


class PlatformQuerySet(models.QuerySet["Platform"]):
    def active(self) -> PlatformQuerySet:
        return self.filter(active=True)


class Platform(models.Model):
    """A learning platform registered by an administrator: what it told the school's
    administrator when Lanterloo was added to it (docs/lti.md says where each field is found
    in Moodle and Canvas)."""

    name = models.CharField(max_length=100, help_text="For the admin: “Riverside Moodle”.")
    issuer = models.CharField(
        max_length=255, help_text="The platform's issuer (Moodle: its address; Canvas: …)."
    )
    client_id = models.CharField("client id", max_length=255)
    auth_login_url = models.URLField(
        "authentication request URL", max_length=500, help_text="The platform's OIDC auth URL."
    )
    token_url = models.URLField("access token URL", max_length=500)
    jwks_url = models.URLField("public keyset URL", max_length=500)
    #: The audience of the client assertion (blank: the token URL, as most platforms want).
    audience = models.CharField("token audience", max_length=255, blank=True)
    #: Where the platform's course pages are served from: only these may frame Lanterloo's
    #: pages after one of its launches (blank: the issuer's and the auth URL's origins).
    frame_origins = models.CharField(
        "frame origins",
        max_length=500,
        blank=True,
        help_text="Origins that may frame Lanterloo, one per space.",
    )
    active = models.BooleanField(default=True)
    created = models.DateTimeField(auto_now_add=True)

    objects = PlatformQuerySet.as_manager()

    class Meta:
        ordering = ["name", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["issuer", "client_id"], name="lti_one_platform_per_issuer_and_client"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def origins(self) -> list[str]:
        """The origins allowed to frame pages of a session this platform launched."""
        named = self.frame_origins.split()
        found = named or [origin_of(self.issuer), origin_of(self.auth_login_url)]
        return list(dict.fromkeys(o for o in (origin_of(n) for n in found) if o))


class Deployment(models.Model):
    """A deployment of Lanterloo on a platform (a platform may deploy it several times, for
    the whole site or one course): a launch must name one of its platform's."""

    platform = models.ForeignKey(Platform, on_delete=models.CASCADE, related_name="deployments")
    deployment_id = models.CharField("deployment id", max_length=255)

    class Meta:
        ordering = ["platform", "deployment_id"]
        constraints = [
            models.UniqueConstraint(
                fields=["platform", "deployment_id"], name="lti_one_deployment_id_per_platform"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.platform}: {self.deployment_id}"


def new_token() -> str:
    return secrets.token_urlsafe(24)


class LoginState(models.Model):
    """An OIDC login the platform started: the state (also in a cookie of the browser that
    started it) and the nonce the platform must sign into its id_token. A launch uses it once
    (``used``), within :data:`LOGIN_SECONDS`; a second launch with it is a replay."""

    platform = models.ForeignKey(Platform, on_delete=models.CASCADE, related_name="+")
    state = models.CharField(max_length=64, unique=True, default=new_token)
    nonce = models.CharField(max_length=64, unique=True, default=new_token)
    created = models.DateTimeField(auto_now_add=True)
    used = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"Login at {self.platform} ({'used' if self.used else 'open'})"


class LtiAccount(models.Model):
    """A platform's person (the issuer's ``sub``) → the Lanterloo account made for him at his
    first launch (no usable password: he comes in through his platform)."""

    platform = models.ForeignKey(Platform, on_delete=models.CASCADE, related_name="accounts")
    issuer = models.CharField(max_length=255)
    subject = models.CharField(max_length=255)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="lti_accounts"
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["issuer", "subject"], name="lti_one_account_per_issuer_and_subject"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.subject} at {self.issuer}"


class LtiContext(models.Model):
    """A course of a platform → the Lanterloo class made for it at its first instructor's
    launch. Keyed by the platform: another platform's course of the same id is another class."""

    platform = models.ForeignKey(Platform, on_delete=models.CASCADE, related_name="contexts")
    deployment = models.ForeignKey(Deployment, on_delete=models.CASCADE, related_name="+")
    context_id = models.CharField(max_length=255)
    title = models.CharField(max_length=255, blank=True)
    school_class = models.OneToOneField(
        "classes.SchoolClass", on_delete=models.CASCADE, related_name="lti_context"
    )
    #: Names and Role Provisioning Services: the course's membership URL (blank: none offered).
    memberships_url = models.URLField(max_length=500, blank=True)
    #: Assignment and Grade Services: the course's line items and the scopes granted.
    lineitems_url = models.URLField(max_length=500, blank=True)
    ags_scopes = models.JSONField(default=list, blank=True)
    synced = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["platform", "context_id"], name="lti_one_class_per_platform_context"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.title or self.context_id} at {self.platform}"

    def failed_grades(self) -> int:
        """Grades of this course's activities given up on (the class's page says so)."""
        return ScoreOutbox.objects.filter(placement__context=self, failed__isnull=False).count()


class Placement(models.Model):
    """An activity an instructor placed in a course by deep linking: a quiz (given to the
    course's class as an :class:`~lessons.quizzes.models.Assignment`), a lesson, or the rule
    trainer on a rule set. The platform's resource link is bound to it at its first launch
    (its id comes back in the launch, with ``token`` in the custom parameters)."""

    QUIZ, LESSON, TRAINER = "quiz", "lesson", "trainer"
    KINDS = [(QUIZ, "A quiz"), (LESSON, "A lesson"), (TRAINER, "The rule trainer")]

    context = models.ForeignKey(LtiContext, on_delete=models.CASCADE, related_name="placements")
    token = models.CharField(max_length=64, unique=True, default=new_token)
    kind = models.CharField(max_length=10, choices=KINDS)
    title = models.CharField(max_length=200)
    assignment = models.OneToOneField(
        "quizzes.Assignment",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="lti_placement",
    )
    lesson = models.ForeignKey(
        "course.Lesson", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    rules = models.CharField("rule set", max_length=20, blank=True)
    resource_link_id = models.CharField(max_length=255, blank=True)
    #: The gradebook column its grades go to (a quiz's only), once the platform has said it.
    lineitem_url = models.URLField(max_length=500, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["context", "resource_link_id"],
                condition=~models.Q(resource_link_id=""),
                name="lti_one_placement_per_resource_link",
            ),
        ]

    def __str__(self) -> str:
        return self.title


class ScoreOutboxQuerySet(models.QuerySet["ScoreOutbox"]):
    def due(self, now: Any = None) -> ScoreOutboxQuerySet:
        now = now or timezone.now()
        return self.filter(sent__isnull=True, failed__isnull=True, next_try__lte=now).filter(
            models.Q(lease__isnull=True) | models.Q(lease__lt=now)
        )


class ScoreOutbox(models.Model):
    """A student's grade at a placed quiz, to be sent to the platform's gradebook: written
    when an attempt ends or the quiz is regraded (after the transaction commits), sent by a
    worker (:mod:`lessons.lti.outbox`) that works the grade out afresh when it sends it, so a
    later change is never overtaken by an earlier one. One row per placement and student:
    a change while it waits only moves ``changed`` on."""

    #: Tries before a grade is given up (and shown to the teacher as failed).
    MAX_TRIES = 8

    placement = models.ForeignKey(Placement, on_delete=models.CASCADE, related_name="outbox")
    student = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    #: When the grade last changed here: the score's timestamp.
    changed = models.DateTimeField()
    next_try = models.DateTimeField()
    tries = models.PositiveSmallIntegerField(default=0)
    #: A worker sending it holds it until then.
    lease = models.DateTimeField(null=True, blank=True)
    sent = models.DateTimeField(null=True, blank=True)
    #: The percentage last sent.
    score = models.FloatField(null=True, blank=True)
    failed = models.DateTimeField(null=True, blank=True)
    error = models.CharField(max_length=500, blank=True)

    objects = ScoreOutboxQuerySet.as_manager()

    class Meta:
        ordering = ["next_try", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["placement", "student"], name="lti_one_outbox_row_per_student"
            ),
        ]

    def __str__(self) -> str:
        return f"Grade of {self.student} at {self.placement}"

    @property
    def state(self) -> str:
        if self.failed:
            return "failed"
        if self.sent:
            return "sent"
        return "waiting" if self.tries else "queued"

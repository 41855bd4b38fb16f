"""What the quizzes tell other apps (the LTI tool sends grades on them: lessons.lti.outbox)."""

from django.dispatch import Signal

#: Sent after a student's attempt is submitted (``attempt``: the Attempt).
attempt_ended = Signal()
#: Sent after a teacher regraded an assignment (``assignment``: the Assignment).
assignment_regraded = Signal()

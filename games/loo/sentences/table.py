"""The sentences of the practice table's page that are not a rule or a line of the hand: whose
turn it is, who was looed, what a player's tricks won him, who declares before him. The page's
presenter (``games/table/presenting.py``) says them to the human, the ``p`` of each.

Like every template, they say "you" only through a seat, and their verbs and plurals agree
through the placeholders' forms, never through English written in the page's code."""

from __future__ import annotations

from typing import Final

TABLE: Final[dict[str, str]] = {
    # The heading of the table: whose turn it is and what to do.
    "table.over": "Deal {n} is over",
    "table.single-over": "Deal {n}, the single, is over",
    "table.waiting-to-declare": "Waiting for {p:S} to declare",
    "table.waiting": "Waiting for {p:S}",
    "table.lead": "{p:S's} turn: lead a card",
    "table.play": "{p:S's} turn: play a card",
    "table.replay": "{p:S's} turn: a revoke was made. Play the hand again?",
    "table.exchange": "{p:S's} turn: play (drawing new cards if {p:he} {p:likes/like}) or pass",
    "table.declare": "{p:S's} turn to declare: {choices:or}",
    "table.declare-any": "{p:S's} turn to declare: choose",
    "table.choice.play": "play",
    "table.choice.pass": "pass",
    "table.choice.take-miss": "take miss",
    "table.choice.defend-miss": "play miss for the pool",
    "table.choice.defend-master": "defend with master",
    # When the hand is over.
    "table.looed-one": "{p:S} {p:was/were} looed.",
    "table.looed-many": "{ps:Ss-and} were looed.",
    "table.no-trick": "{p:S} took no trick.",
    "table.tricks-won": "{p:S} won {n} {n:trick/tricks}.",
    # Before the human's turn to declare, when others declare first.
    "table.declare-before": (
        "{ps:Ss-and} {ps:declares/declare} before {p:him}, in turn; then it is {p:his} turn."
    ),
}

"""Practice tables: a session of Loo against computer players, stored as the engine's own JSON.

The engine (``games.loo``) is the authority on the rules; a :class:`PracticeTable` only keeps
its state between requests. State crosses into the database in one place: ``to_engine()``
restores the engine's :class:`~games.loo.table.Table` (checked against a replay of its seed and
actions) and ``update_from_engine()`` stores it back, bumping ``version`` so that a stale page
or a double submission is never applied twice.

Deals are reproducible from a public seed, but the engine is dealt from a seed derived from it
with the site's secret key (:func:`deal_seed`): the shareable seed on a page does not let
anyone work out the hidden cards offline, while the same link on this site deals the same
cards. That public seed deals a table's first hand only: the later hands are dealt from a
secret seed each table makes when it is dealt (:func:`new_later_seed`), so that no link, and
no copy of a table, tells of the deals to come.
"""

from __future__ import annotations

import secrets
from contextlib import nullcontext
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core import signing
from django.db import models, transaction
from django.db.models import F, Q
from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone
from django.utils.crypto import salted_hmac

from games.guided import made_for_learner
from games.loo import autoplay
from games.loo.autoplay import Autoplay, Note
from games.loo.hand import Action, Hand, setup_from_dict
from games.loo.rulesets import GAME_NAMES, GAMES, PRESETS, RuleSet
from games.loo.table import Table, TableConfig
from games.naming import HUMAN
from games.owners import OwnedQuerySet
from games.variations import VARIATIONS as VARIATION_IDS
from games.variations import Agreed, agreed, title_words

GAME_CHOICES = [(g, GAME_NAMES[g][:1].upper() + GAME_NAMES[g][1:]) for g in GAMES]
RULES_CHOICES = [(p.id, p.title) for p in PRESETS.values()]

#: The largest practice table (the engine allows more at three-card Loo).
MAX_PLAYERS = 9
MIN_PLAYERS = 3


class Opponents(models.TextChoices):
    BEGINNER = autoplay.BEGINNER, "Beginners: random legal choices"
    SENSIBLE = autoplay.SENSIBLE, "Sensible players: they try out their choices before deciding"
    CARELESS = autoplay.CARELESS, "Careless beginners: in laws mode they sometimes break a rule"
    EXPERT = autoplay.EXPERT, "Experts: they weigh every decision over sampled deals"


#: The computer players as the table's heading names them.
OPPONENT_NAMES: dict[str, str] = {
    Opponents.BEGINNER: "beginners",
    Opponents.SENSIBLE: "sensible players",
    Opponents.CARELESS: "careless beginners",
    Opponents.EXPERT: "expert players",
}


def deal_seed(seed: int) -> str:
    """The engine's seed for a public seed: stable on this site, useless without its key."""
    return salted_hmac("games.PracticeTable.deal_seed", str(seed)).hexdigest()[:24]


#: What a shared replay's token is signed for (django.core.signing's salt).
SHARE_SALT = "games.PracticeHand.share"


def copy_seed(hand_seed: int | str, number: int) -> str:
    """The engine's seed of a table dealt from a shared hand (deal ``number`` of a table,
    dealt from ``hand_seed``): the same for every copy of that hand, so that its computer
    players answer alike whoever plays it, and useless without the site's key. It seeds the
    computer players only: the copy's first deal is the hand's stacked pack, its later deals
    come from a secret seed of its own."""
    return salted_hmac("games.PracticeTable.copy_seed", f"{hand_seed}:{number}").hexdigest()[:24]


def new_seed() -> int:
    return secrets.randbelow(10**9)


def new_later_seed() -> str:
    """The secret seed of a table's deals after its first (``TableConfig.later_seed``): made
    when the table is, kept in its stored state only. The public seed, and a shared hand, fix
    the first deal alone: a copy of a table deals new cards after it."""
    return secrets.token_hex(12)


def stored_state(table: Table) -> dict[str, Any]:
    """``table.to_dict()`` without the finished hands: each is kept in its own PracticeHand
    row, and nothing at the table needs them again (the engine only lists them)."""
    state = table.to_dict()
    state["history"] = []
    return state


class RulesAndGameNames:
    """For a row with a rule set (``rules``, a preset id) and a ``game``: their names as a page
    says them (a stored id the site no longer knows is shown as it is)."""

    rules: str
    game: str

    @property
    def rules_title(self) -> str:
        return PRESETS[self.rules].title if self.rules in PRESETS else self.rules

    @property
    def game_name(self) -> str:
        return GAME_NAMES.get(self.game, self.game)


class PracticeTableQuerySet(OwnedQuerySet["PracticeTable"]):
    """``for_request`` and ``give_to`` (games.owners), and the tables nobody can reach."""

    def abandoned(self, days: float) -> PracticeTableQuerySet:
        """Tables without an account untouched for ``days``: once a session has expired its
        tables can no longer be reached (the expiry is fixed when the session starts, before
        its first table is dealt)."""
        return self.filter(owner=None, updated__lt=timezone.now() - timedelta(days=days))


class PracticeTable(RulesAndGameNames, models.Model):
    """One practice table: the human at seat 0, computer players in every other seat."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="practice_tables",
    )
    #: For someone not logged in, the table belongs to their browser session.
    session_key = models.CharField(max_length=40, blank=True, db_index=True)
    game = models.CharField(max_length=12, choices=GAME_CHOICES)
    rules = models.CharField(max_length=20, choices=RULES_CHOICES)
    players = models.PositiveSmallIntegerField()
    #: The public seed of the shareable link; the engine is dealt from deal_seed(seed).
    seed = models.PositiveBigIntegerField()
    opponents = models.CharField(max_length=10, choices=Opponents.choices)
    laws = models.BooleanField(default=False)
    #: The options agreed on the preset (``RuleSet.to_dict()``'s: RULES.md names and values),
    #: as in :attr:`state`: the variations the player chose (``games.variations``: club law,
    #: unlimited loo), or a lesson's guided hand's. Empty: the preset as it is.
    options = models.JSONField(default=dict, blank=True)
    #: An honest table offers no take-back at all (the default in laws mode); elsewhere a
    #: decision may be taken back until something hidden is shown because of it
    #: (``Table.takeback_refusal``).
    honest = models.BooleanField(default=False)
    #: ``Table.to_dict()`` less its finished hands (those are PracticeHand rows), so that it
    #: stays the size of one hand however long the table plays. Hidden cards included: it
    #: never leaves the server.
    state = models.JSONField()
    #: Why each computer player did what it did in the current hand, and the rules that bound
    #: the human: ``{"action": index in the log, "seat", "event": index of the first line of
    #: the trace it produced, "reason" (a message) or "explanations" (``{"rule",
    #: "message"}``)}``; messages in their JSON form (``games.loo.messages``).
    #: Their types: ``games.loo.autoplay.Note``.
    notes = models.JSONField(default=list)
    version = models.PositiveIntegerField(default=1)
    #: A lesson's guided hand (set by whoever deals it; games knows nothing of lessons):
    #: ``{"lesson": its title, "banner": what to look for, "rule": the rule to watch, whose
    #: lines of the trick log are marked, "back": the lesson's address}``.
    guide = models.JSONField(null=True, blank=True)
    #: When the human left the table ("Leave the table"): the session is over, with its final
    #: standing; no more deals, nothing more changes.
    left = models.DateTimeField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    objects = PracticeTableQuerySet.as_manager()

    class Meta:
        ordering = ["-updated"]
        constraints = [
            models.CheckConstraint(
                condition=Q(owner__isnull=False) | ~Q(session_key=""),
                name="practice_table_has_an_owner_or_a_session",
            ),
        ]

    def __str__(self) -> str:
        return f"Table {self.pk}: {self.game} Loo, {self.rules}, {self.players} players"

    def get_absolute_url(self) -> str:
        return reverse("games:table", args=[self.pk])

    @property
    def opponents_name(self) -> str:
        """The computer players in a few words: "you and sensible players"."""
        return OPPONENT_NAMES[self.opponents]

    @property
    def seed_url(self) -> str:
        """The link of the table's public seed, which deals its first hand again at a new
        table (its later hands come from a secret seed of each table's own), with the
        variations it agreed. A finished hand is shared by its replay instead
        (:meth:`PracticeHand.share_url`)."""
        url = reverse("games:table-seed", args=[self.game, self.rules, self.players, self.seed])
        chosen = [a.rule for a in self.agreed if a.rule in VARIATION_IDS]
        return f"{url}?{'&'.join(f'variations={v}' for v in chosen)}" if chosen else url

    @property
    def agreed(self) -> list[Agreed]:
        """The variations agreed on the rule set (``games.variations.agreed``)."""
        return agreed(self.rules, self.options)

    @property
    def variations_title(self) -> str:
        """The variations as the table's heading names them: "with club law"; "" for none."""
        return title_words(self.rules, self.options)

    # -- the engine ----------------------------------------------------------------------------

    @classmethod
    def deal_new(
        cls,
        *,
        game: str,
        rules: str,
        players: int,
        seed: int,
        opponents: str,
        laws: bool,
        owner: Any = None,
        session_key: str = "",
        guide: dict[str, str] | None = None,
        first_pack: tuple[str, ...] | None = None,
        start: str = "fresh",
        options: dict[str, Any] | None = None,
        engine_seed: str | None = None,
        honest: bool = False,
        first_dealer: int | None = None,
        rule_set: RuleSet | None = None,
    ) -> PracticeTable:
        """A new table with its first hand dealt and played up to the human's first turn
        (``guide``: a lesson's, see :attr:`guide`). A lesson's guided hand may stack the first
        deal (``first_pack``), begin as after a hand (``start``) and agree variations on the
        rule set (``options``): :class:`~games.loo.table.TableConfig`. The stacked pack stays
        in :attr:`state`, which never leaves the server. ``engine_seed`` deals in place of
        ``deal_seed(seed)`` (a guided hand's, which is the same on every site). Whatever
        deals the first hand, the later ones are dealt from a new secret seed
        (:func:`new_later_seed`). ``honest``: no take-backs (:attr:`honest`); ``first_dealer``:
        who deals first (a finished hand dealt again); ``rule_set``: the rules as that hand
        was played (in place of the preset and ``options``)."""
        preset = RuleSet.preset(rules)
        if rule_set is None:
            rule_set = preset.with_options(options) if options else preset
        config = TableConfig(
            game,
            rule_set,
            players,
            engine_seed if engine_seed is not None else deal_seed(seed),
            laws=laws,
            first_pack=first_pack,
            start=start,
            later_seed=new_later_seed(),
            first_dealer=first_dealer,
        )
        table = Table(config)
        table.deal()
        practice = cls(
            owner=owner,
            session_key="" if owner is not None else session_key,
            game=game,
            rules=rules,
            options=rule_set.to_dict()["options"],
            players=players,
            seed=seed,
            opponents=opponents,
            laws=laws,
            honest=honest,
            guide=guide,
        )
        notes = practice.run_bots(table, [], wait=True)
        practice.state = stored_state(table)
        practice.notes = notes
        with transaction.atomic():
            practice.save()
            practice._record_hand(table)
        return practice

    def to_engine(self) -> Table:
        """The stored table, its hand rebuilt by a replay of its seed and actions. Not strict:
        a hand stored before a rule was read anew loads as the rules now play its actions
        (nothing the player did is lost; the table stores the new state at its next action)."""
        return Table.from_dict(self.state, strict=False)

    def update_from_engine(self, table: Table, notes: list[Note]) -> bool:
        """Store ``table`` and bump the version; False (nothing stored) if the table changed
        since this object was loaded: another tab or a double submission got there first."""
        state = stored_state(table)
        hand = table.hand
        assert hand is not None
        was_over = self.hand_over
        # The history changes only when a hand ends or is reopened: only then are two rows
        # written, and only then is a transaction needed.
        history = hand.over or was_over
        with transaction.atomic() if history else nullcontext():
            # The guide too: a guided hand keeps the learner's answers in it
            # (games.practice.guidance).
            stored = PracticeTable.objects.filter(pk=self.pk, version=self.version).update(
                state=state,
                notes=notes,
                guide=self.guide,
                version=F("version") + 1,
                updated=timezone.now(),
            )
            if not stored:
                return False
            self.state, self.notes, self.version = state, notes, self.version + 1
            if hand.over:
                self._record_hand(table)
            elif was_over:
                # A takeback reopened a finished hand: it is no longer in the history.
                self.hands.filter(number=hand.setup.hand_number).delete()
        return True

    def leave(self) -> bool:
        """End the session: the human leaves the table. False (nothing stored) if the table
        changed since this object was loaded, as :meth:`update_from_engine`."""
        now = timezone.now()
        stored = PracticeTable.objects.filter(pk=self.pk, version=self.version).update(
            left=now, version=F("version") + 1, updated=now
        )
        if stored:
            self.left, self.version = now, self.version + 1
        return bool(stored)

    @property
    def hand_over(self) -> bool:
        hand = self.state.get("hand") if self.state else None
        return bool(hand and hand["state"]["phase"] == "over")

    def guided_hand_over(self, hand: Hand) -> bool:
        """Whether ``hand`` is a lesson's guided hand (a guided table's first), finished: it
        is not taken back (the lesson counts it done once it is over)."""
        return bool(self.guide) and hand.over and hand.setup.hand_number == 1

    @property
    def autoplay(self) -> Autoplay:
        """The table's computer players, as the engine runs them (``games.loo.autoplay``)."""
        return Autoplay(self.opponents, human=HUMAN)

    def run_bots(self, table: Table, notes: list[Note], *, wait: bool = False) -> list[Note]:
        """Let the computer players act until it is the human's turn or the hand is over
        (:meth:`Autoplay.run`); each one's reason is added to ``notes``, as stored. A lesson's
        guided hand may make the human's declaration for him
        (:func:`games.guided.made_for_learner`)."""
        notes = self.autoplay.run(table, notes, wait=wait)
        if self.guide and self.guide.get("declares"):
            # The learner's declaration, where the guided hand makes it for him; then the
            # computer players act on.
            players = self.autoplay
            while (hand := table.hand) is not None and (made := made_for_learner(hand)) is not None:
                table.apply(made)
                players.run(table, notes)
        return notes

    def _record_hand(self, table: Table) -> None:
        """Keep the finished hand (its setup and actions) for the history and its replay."""
        hand = table.hand
        if hand is None or not hand.over:
            return
        data = hand.to_dict()
        record = PracticeHand(
            table=self,
            number=hand.setup.hand_number,
            setup=data["setup"],
            log=data["log"],
            notes=self.notes,
            outcome=hand.outcome,
            tricks=hand.tricks_won().get(HUMAN, 0),
            net=hand.balances[HUMAN] - hand.setup.balances[HUMAN],
            looed=HUMAN in hand.looed,
            balances=list(hand.balances),
            looed_seats=sorted(set(hand.looed)),
            finished=timezone.now(),
        )
        PracticeHand.objects.bulk_create(
            [record],
            update_conflicts=True,
            unique_fields=["table", "number"],
            update_fields=[
                "setup",
                "log",
                "notes",
                "outcome",
                "tricks",
                "net",
                "looed",
                "balances",
                "looed_seats",
                "finished",
            ],
        )


class PracticeHandQuerySet(models.QuerySet["PracticeHand"]):
    def for_request(self, request: HttpRequest) -> PracticeHandQuerySet:
        return self.filter(table__in=PracticeTable.objects.for_request(request))


class PracticeHand(models.Model):
    """A finished hand of a practice table: enough to replay it, and how it went for the human."""

    table = models.ForeignKey(PracticeTable, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveIntegerField()
    #: ``setup_to_dict(hand.setup)`` and the action log: ``Hand.replay`` rebuilds the hand.
    setup = models.JSONField()
    log = models.JSONField()
    notes = models.JSONField(default=list)
    outcome = models.CharField(max_length=12)
    tricks = models.PositiveSmallIntegerField(default=0)
    net = models.IntegerField(default=0)
    looed = models.BooleanField(default=False)
    #: Every seat's counters when the hand was over, and the seats looed in it (the running
    #: score of the session); None in a row stored before they were kept: :meth:`standing`.
    balances = models.JSONField(null=True, blank=True)
    looed_seats = models.JSONField(null=True, blank=True)
    finished = models.DateTimeField()

    objects = PracticeHandQuerySet.as_manager()

    class Meta:
        ordering = ["-finished"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="unique_practice_hand"),
        ]

    def __str__(self) -> str:
        return f"Table {self.table_id}, deal {self.number}"

    def get_absolute_url(self) -> str:
        return reverse("games:hand-replay", args=[self.table_id, self.number])

    @staticmethod
    def share_url(table_id: int, number: int) -> str:
        """The read-only link to finished hand ``number`` of table ``table_id``'s replay, for
        whoever its owner gives it to: signed with the site's key, so that it cannot be made
        for another hand. All a finished hand's table shares: the replay, and from it that one
        deal to play again (never the table's seed, which would foretell its later deals)."""
        return reverse("games:shared-replay", args=[PracticeHand.share_token(table_id, number)])

    @staticmethod
    def share_token(table_id: int, number: int) -> str:
        """What :meth:`share_url` signs: the table and the hand's number."""
        return signing.dumps([table_id, number], salt=SHARE_SALT, compress=True)

    @property
    def steps(self) -> int:
        return len(self.log)

    @property
    def agreed(self) -> list[Agreed]:
        """The variations this hand was played under (its setup's rule set), for its replay:
        the table's, kept with the hand itself."""
        return agreed(str(self.setup.get("rules", "")), self.setup.get("options"))

    @property
    def variations_title(self) -> str:
        return title_words(str(self.setup.get("rules", "")), self.setup.get("options"))

    def standing(self) -> tuple[list[int], list[int]]:
        """Every seat's counters after this hand, and the seats it looed: as stored, or (a row
        stored before they were kept) from a replay of the hand."""
        if self.balances is not None and self.looed_seats is not None:
            return list(self.balances), list(self.looed_seats)
        hand = self.replay()
        return list(hand.balances), sorted(set(hand.looed))

    def replay(self, step: int | None = None) -> Hand:
        """The hand after its first ``step`` actions (all of them by default)."""
        log = self.log if step is None else self.log[:step]
        return Hand.replay(setup_from_dict(self.setup), [Action.from_dict(a) for a in log])


# -- tables for people ----------------------------------------------------------------------

#: The letters of a join code: no 0/O, 1/I/L, nor 5/S or 2/Z, which are read one for the other.
CODE_ALPHABET = "ABCDEFGHJKMNPQRTUVWXY346789"
CODE_LENGTH = 6

#: The host's choices of time per move, in seconds; the default is generous.
SECONDS_PER_MOVE = [(30, "30 seconds"), (60, "1 minute"), (120, "2 minutes"), (300, "5 minutes")]
DEFAULT_SECONDS_PER_MOVE = 120
#: The pause before each computer player's decision at a table for people is made and shown,
#: in milliseconds: the practice table's normal pace before each of the others' cards.
DEFAULT_BOT_PAUSE_MS = 450


def new_code() -> str:
    """A join code: 6 characters of :data:`CODE_ALPHABET` (27**6, some 387 million codes)."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


class PeopleTable(RulesAndGameNames, models.Model):
    """A table where people play together: a host opens it, people sit by its join code (or
    are seated by the host), the empty seats are computer players once the host starts it.

    The engine's state is stored as a practice table's is (:func:`stored_state`, hidden cards
    included: it never leaves the server); what each person sees is ``view_for`` his seat.
    ``version`` grows with every stored change: the live pages are told of it
    (``games.live.bus``) and draw the table again. ``state_version`` grows with those that put
    a page's forms out of date (the hand, a seat, the table's status: all but a fixed phrase),
    and a form carrying another one is not applied: a phrase said while a person's form is
    open redraws the pages but leaves his form good. The service that changes them is
    ``games.people``."""

    class Status(models.TextChoices):
        WAITING = "waiting", "Waiting for players"
        PLAYING = "playing", "Playing"
        CLOSED = "closed", "Closed"

    host = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="hosted_people_tables"
    )
    code = models.CharField(max_length=CODE_LENGTH, unique=True)
    game = models.CharField(max_length=12, choices=GAME_CHOICES)
    rules = models.CharField(max_length=20, choices=RULES_CHOICES)
    players = models.PositiveSmallIntegerField()
    #: Variations agreed on the rule set (``RuleSet.with_options``: RULES.md names and values).
    options = models.JSONField(default=dict, blank=True)
    laws = models.BooleanField(default=False)
    opponents = models.CharField(max_length=10, choices=Opponents.choices)
    seconds_per_move = models.PositiveIntegerField(
        choices=SECONDS_PER_MOVE, default=DEFAULT_SECONDS_PER_MOVE
    )
    #: The pause before each computer player's decision is made and shown (milliseconds).
    bot_pause_ms = models.PositiveIntegerField(default=DEFAULT_BOT_PAUSE_MS)
    #: When the next computer player's decision falls due (``games.people.service.advance``
    #: makes it): the change before it plus the pause; None while no computer player is to
    #: act. While one is being worked out, a little later (its claim: see the service).
    bot_due = models.DateTimeField(null=True, blank=True, db_index=True)
    #: Only the host and the invited may sit (a class's table: ``games.people.invite``).
    members_only = models.BooleanField(default=False)
    invited = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="people_table_invitations"
    )
    #: ``stored_state`` of the engine's table; None until the host starts it.
    state = models.JSONField(null=True, blank=True)
    #: The current hand's notes, as a practice table's (``games.loo.autoplay.Note``).
    notes = models.JSONField(default=list)
    version = models.PositiveIntegerField(default=1)
    #: The version the forms carry (see above): at most ``version``.
    state_version = models.PositiveIntegerField(default=1)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.WAITING)
    #: The finished hand whose every hand the host has shown to the table (``reveal``); the
    #: next deal hides them again (it is another hand number).
    revealed = models.PositiveIntegerField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    started = models.DateTimeField(null=True, blank=True)
    closed = models.DateTimeField(null=True, blank=True)
    updated = models.DateTimeField(auto_now=True)
    #: The table its host opened for the same people once this one was over
    #: (``games.people.rematch``): each of them is offered its seat there.
    rematch = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["-updated"]

    def __str__(self) -> str:
        return f"People's table {self.pk} ({self.code}): {self.game} Loo, {self.players} seats"

    def get_absolute_url(self) -> str:
        return reverse("games:people-table", args=[self.pk])

    @property
    def join_url(self) -> str:
        return reverse("games:people-join-code", args=[self.code])

    @property
    def channel(self) -> str:
        """The live bus's channel of this table (``games.live.bus``)."""
        return f"people-{self.pk}"

    @property
    def opponents_name(self) -> str:
        return OPPONENT_NAMES[self.opponents]

    @property
    def hand_over(self) -> bool:
        hand = self.state.get("hand") if self.state else None
        return bool(hand and hand["state"]["phase"] == "over")

    def to_engine(self) -> Table:
        """The stored table (see :meth:`PracticeTable.to_engine`); the table must be started."""
        assert self.state is not None
        return Table.from_dict(self.state, strict=False)


class PeopleSeat(models.Model):
    """One seat of a :class:`PeopleTable`: a person's (``user``) or a computer player's (none).

    ``deadline``: when the person's time for the decision now his runs out (none when it is
    not his turn). ``away``: his time ran out and a computer player plays for him until he is
    back. ``left``: he left the table; a computer player plays the seat for good (the user is
    kept: he may still replay its finished hands). ``removed``: the host gave it to a computer
    player (``left`` is set too). ``seen``: when the person last showed up at the table (a
    page, a form, his page's live stream), for whether he is here now; written at most every
    ``games.people.service.SEEN_EVERY`` seconds. ``since_hand``: a latecomer's first deal
    at this seat (None: from the start), the first he may replay."""

    table = models.ForeignKey(PeopleTable, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="people_seats",
    )
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    away = models.BooleanField(default=False)
    #: When his time last ran out (the deadline he let pass): his page says so while he is
    #: away, and a decision sent after it is refused with that time.
    ran_out = models.DateTimeField(null=True, blank=True)
    left = models.DateTimeField(null=True, blank=True)
    removed = models.BooleanField(default=False)
    seen = models.DateTimeField(null=True, blank=True)
    since_hand = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="unique_people_seat"),
            # Nobody sits twice at one table.
            models.UniqueConstraint(
                fields=["table", "user"],
                condition=Q(user__isnull=False),
                name="one_seat_a_person",
            ),
        ]

    def __str__(self) -> str:
        return f"Seat {self.number} of people's table {self.table_id}"

    @property
    def present(self) -> bool:
        """A person plays this seat now (not a computer player, not away, not gone)."""
        return self.user_id is not None and not self.away and self.left is None


class PeopleHand(models.Model):
    """A finished hand of a :class:`PeopleTable`: enough to replay it (as a
    :class:`PracticeHand`), for those who sat at the table."""

    table = models.ForeignKey(PeopleTable, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveIntegerField()
    setup = models.JSONField()
    log = models.JSONField()
    notes = models.JSONField(default=list)
    balances = models.JSONField(default=list)
    looed_seats = models.JSONField(default=list)
    finished = models.DateTimeField()

    class Meta:
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="unique_people_hand"),
        ]

    def __str__(self) -> str:
        return f"People's table {self.table_id}, deal {self.number}"

    def get_absolute_url(self) -> str:
        return reverse("games:people-hand", args=[self.table_id, self.number])

    @property
    def steps(self) -> int:
        return len(self.log)

    def replay(self, step: int | None = None) -> Hand:
        """The hand after its first ``step`` actions (all of them by default)."""
        log = self.log if step is None else self.log[:step]
        return Hand.replay(setup_from_dict(self.setup), [Action.from_dict(a) for a in log])


class PeoplePhrase(models.Model):
    """One of the fixed phrases (:attr:`Phrase`) a person at a :class:`PeopleTable` said to the
    others: no free text at a table (many players are children)."""

    class Phrase(models.TextChoices):
        WELL_PLAYED = "well-played", "Well played"
        THANK_YOU = "thank-you", "Thank you"
        ONE_MOMENT = "one-moment", "One moment"
        GOOD_GAME = "good-game", "Good game"

    table = models.ForeignKey(PeopleTable, on_delete=models.CASCADE, related_name="phrases")
    #: The seat he said it from, and his name then (the seat may change hands later).
    number = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=150)
    phrase = models.CharField(max_length=12, choices=Phrase.choices)
    said = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "-said", "-pk"]

    def __str__(self) -> str:
        return f"{self.name} at people's table {self.table_id}: {self.get_phrase_display()}"

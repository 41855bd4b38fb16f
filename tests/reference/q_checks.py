"""Every question kind but ``settlement`` and ``penalty`` re-derived from its position with the
plain rules of the texts (:mod:`tests.reference.cards`, :mod:`tests.reference.quotes`), and
every position checked to be one that can happen under its rule set.

:func:`problems` returns what is wrong with a question, each as a :class:`Problem` whose class
names the kind of fault (the first-run note counts them by class); :func:`readings` returns the
readings (RULES.md part 3) that would answer the question otherwise. Nothing here imports the
engine's rules code: a question is read only through what it shows (its position, choices,
answer and rendered sentences) and the rule catalogue's data.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from games.loo.catalogue import rule as catalogue_rule
from games.loo.questions import Question

from . import cards as C
from .quotes import SOURCES, evidence, found_in, words


@dataclass(frozen=True)
class Problem:
    cls: str
    detail: str


def name(q: Question) -> str:
    """How to make the question again."""
    return (
        f"question --kind {q.kind} --rules {q.rules} --game {q.game} --seed {q.seed}"
        f"{' --rule ' + q.rule if q.rule else ''} (version {q.version})"
    )


def shown(q: Question) -> tuple[str, str]:
    """The prompt and the explanations as the learner reads them."""
    d = q.to_dict()
    return d["prompt"], " ".join(e["text"] for e in d["explanations"])


#: The number of players each text allows at each game (RULES.md part 2, ``players-3c`` /
#: ``players-5c``; the engine's limits where a text sets none).
PLAYERS = {
    ("hoffmann", "three-card"): (3, 16),
    ("hoffmann", "five-card"): (3, 10),
    ("britannica", "three-card"): (3, 16),
    ("britannica", "five-card"): (3, 10),
    ("britannica", "irish"): (3, 16),
    ("whiteknuckle", "three-card"): (3, 9),
    ("whiteknuckle", "five-card"): (3, 9),
    ("parlett", "three-card"): (3, 16),
    ("parlett", "five-card"): (5, 10),
    ("peel", "three-card"): (3, 16),
    ("peel", "five-card"): (3, 6),
}

#: The trick count: the stake divides by it (stake-divisible).
TRICKS = {"three-card": 3, "five-card": 5, "irish": 3}


def problems(q: Question) -> list[Problem]:
    return CHECKS[q.kind](q)


def _expect(found: list[Problem], cls: str, answer: Any, texts: Any, context: str = "") -> None:
    """A fault of class ``cls`` unless the question's answer is what the texts give."""
    if answer != texts:
        found.append(Problem(cls, f"{context}answer {answer}, the texts {texts}"))


# --- invariants shared by the kinds ---------------------------------------------------------


def _cards(found: list[Problem], where: str, codes: Sequence[str]) -> None:
    bad = [c for c in codes if c not in C.PACK]
    if bad:
        found.append(Problem("position: not a card", f"{where}: {bad}"))
    twice = sorted({c for c in codes if list(codes).count(c) > 1})
    if twice:
        found.append(Problem("position: a card twice", f"{where}: {twice}"))


def _players(found: list[Problem], q: Question, n: int) -> None:
    low, high = PLAYERS[q.rules, q.game]
    if not low <= n <= high:
        found.append(
            Problem(
                "position: players outside the text's range",
                f"{n} players at {q.rules} {q.game} (the text allows {low}-{high})",
            )
        )


def _play_position(found: list[Problem], q: Question) -> None:
    """A moment of the play: the right hand size, complete earlier tricks, a turn-up of the
    trump suit, the call only after the ace of trumps at five-card Loo."""
    p = q.position
    game, trump = p["game"], p["trump"]
    every = list(p["hand"]) + list(p["trick"]) + list(p.get("played") or [])
    if p.get("turn_up"):
        every.append(p["turn_up"])
        if C.suit(p["turn_up"]) != trump:
            found.append(
                Problem("position: turn-up not of the trump suit", f"{p['turn_up']} / {trump}")
            )
    _cards(found, "hand, trick, played and turn-up", every)
    size, t, declared = C.HAND_SIZE[game], p["trick_number"], p["declared"]
    if not 1 <= t <= size:
        found.append(Problem("position: no such trick", f"trick {t} of {size}"))
    if len(p["hand"]) != size - (t - 1):
        found.append(Problem("position: wrong hand size", f"{len(p['hand'])} cards at trick {t}"))
    if not 2 <= declared <= PLAYERS[q.rules, game][1]:
        found.append(Problem("position: impossible number in the play", f"declared {declared}"))
    if len(p["trick"]) >= declared:
        found.append(Problem("position: trick longer than the players in it", str(p["trick"])))
    if p.get("played") is not None and len(p["played"]) != (t - 1) * declared:
        found.append(
            Problem(
                "position: earlier tricks incomplete", f"{len(p['played'])} played before trick {t}"
            )
        )
    if p.get("pam_be_civil") and not (
        game == "five-card" and p["trick"] and p["trick"][0] == "A" + trump
    ):
        found.append(
            Problem("position: 'Pam, be civil' without the ace of trumps led", str(p["trick"]))
        )


# --- legal-cards and why-not ----------------------------------------------------------------


def check_legal_cards(q: Question) -> list[Problem]:
    found: list[Problem] = []
    _play_position(found, q)
    p = q.position
    if {c.id for c in q.choices} != set(p["hand"]):
        found.append(
            Problem("legal-cards: choices are not the hand", f"{[c.id for c in q.choices]}")
        )
    mine = C.legal(q.rules, p).cards
    _expect(found, "legal-cards: answer differs from the texts", sorted(q.answer), sorted(mine))
    return found


_SHOWN_CARD = re.compile(r"(10|[2-9AKQJ])([♠♥♦♣])")
_SUIT = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}


def _card(text: str) -> str | None:
    m = _SHOWN_CARD.search(text)
    if m is None:
        return None
    r = "T" if m.group(1) == "10" else m.group(1)
    return r + _SUIT[m.group(2)]


def check_why_not(q: Question) -> list[Problem]:
    found: list[Problem] = []
    _play_position(found, q)
    prompt, _ = shown(q)
    card = _card(prompt)
    p = q.position
    if card is None or card not in p["hand"]:
        return [*found, Problem("why-not: the card asked about is not in the hand", prompt)]
    legal = C.legal(q.rules, p)
    if card in legal.cards:
        return [*found, Problem("why-not: the card is legal", f"{card} in {sorted(legal.cards)}")]
    forbidding = legal.forbidding[card]
    (answer,) = q.answer
    if answer not in forbidding:
        found.append(
            Problem(
                "why-not: the rule answered does not forbid the card",
                f"{card}: answer {answer}, forbidden by {sorted(forbidding)}",
            )
        )
    also = sorted(c.id for c in q.choices if c.id != answer and c.id in forbidding)
    if also:
        found.append(
            Problem(
                "why-not: another choice forbids the card too",
                f"{card}: answer {answer}, also {also}",
            )
        )
    return found


# --- trick-winner ---------------------------------------------------------------------------


def check_trick_winner(q: Question) -> list[Problem]:
    found: list[Problem] = []
    p = q.position
    trick = list(p["trick"])
    _cards(found, "trick", trick)
    if not 2 <= len(trick) <= PLAYERS[q.rules, q.game][1]:
        found.append(Problem("position: impossible trick", str(trick)))
    if found:
        return found
    mine = str(C.winning_index(trick, p["trump"], p["game"]))
    _expect(
        found, "trick-winner: answer differs from the texts", list(q.answer), [mine], f"{trick}: "
    )
    return found


# --- flush ----------------------------------------------------------------------------------


def check_flush(q: Question) -> list[Problem]:
    found: list[Problem] = []
    p = q.position
    hands = [list(h) for h in p["hands"]]
    _cards(found, "hands", [c for h in hands for c in h])
    _players(found, q, len(hands))
    if any(len(h) != 5 for h in hands):
        found.append(Problem("position: a hand is not five cards", str(hands)))
    if found:
        return found
    winner = C.flush_winner(q.rules, hands, p["trump"])
    if winner is None:
        return [Problem("position: no flush", str(hands))]
    prompt, _ = shown(q)
    if "excused" in prompt:
        named = re.search(r"seat (\d+)'s flush", prompt)
        said = int(named.group(1)) - 1 if named else (0 if "your flush" in prompt.lower() else None)
        named_cls = "flush: the flush named is not the one that loos the board"
        _expect(found, named_cls, said, winner, "the prompt's winner: ")
        mine = {str(i) for i in C.flush_exempt(q.rules, hands, winner)}
        _expect(found, "flush: exemption differs from the texts", sorted(q.answer), sorted(mine))
        return found
    _expect(found, "flush: winner differs from the texts", list(q.answer), [str(winner)])
    return found


# --- declaration ----------------------------------------------------------------------------

#: Who may force every player to play: club law (1.10) by game, and the must.
CLUB_LAW = {
    "hoffmann": {"three-card", "five-card"},
    "britannica": {"three-card", "irish"},  # s. 40; Irish too (A53)
    "parlett": {"five-card"},
    "peel": {"three-card"},
    "whiteknuckle": set(),
}
MUST = {
    "hoffmann": {"three-card"},  # ¶7
    "britannica": {"three-card"},  # s. 40 (forces)
    "parlett": {"three-card"},  # 3c:Optional rules
    "peel": set(),  # A39: peel has no must
    "whiteknuckle": set(),
}


def _in_turn(
    found: list[Problem], players: int, dealer: int, declarations: list[list[Any]]
) -> None:
    """Declarations go in rotation from the dealer's left (declare-in-turn)."""
    seats = [s for s, _ in declarations]
    expected = [(dealer + 1 + i) % players for i in range(len(seats))]
    if seats != expected:
        found.append(
            Problem("position: declarations out of turn", f"dealer {dealer}: {declarations}")
        )
    if len(seats) > players:
        found.append(Problem("position: more declarations than players", str(declarations)))


def declaration_options(preset: str, p: dict[str, Any]) -> set[str]:
    """What the player to declare may do (1.3, 1.4, 1.10; A20, A22, A33, A47)."""
    game, me = p["game"], p["seat"]
    dealer = me == p["dealer"]
    decl = p["declarations"]
    miss_there = bool(p["miss"]) and p["miss_holder"] is None
    if p["must"] or p["club_law"]:
        # "every one … is bound to play" (hoffmann ¶7, ¶12); parlett's optional must bars only
        # passing, and its miss is dealt and may be taken (A33).
        if preset == "parlett" and p["must"] and miss_there:
            return {"play", "take-miss"}
        return {"play"}
    others_in = [(s, c) for s, c in decl if c != "pass"]
    lone = dealer and len(decl) == p["players"] - 1 and len(others_in) == 1
    if game != "three-card":
        if lone and preset == "britannica":
            return {"play"}  # "other rules": with his own cards (s. 31; A47)
        return {"play", "pass"}  # the texts' five-card option to pass (A47, revised)
    if lone and others_in[0][1] == "play" and miss_there:
        # dealer-must-play-against-one: own cards, miss, or miss for the pool (A20, A22)
        if preset == "britannica":
            return {
                "take-miss",
                "defend-miss",
            }  # s. 28: "plays miss either for himself or for the pool"
        return {"play", "take-miss", "defend-miss"}
    return {"play", "pass"} | ({"take-miss"} if miss_there else set())


def check_declaration(q: Question) -> list[Problem]:
    found: list[Problem] = []
    p = q.position
    game = p["game"]
    _players(found, q, p["players"])
    hand = list(p["hand"])
    _cards(found, "hand and turn-up", hand + [p["turn_up"]])
    if len(hand) != C.HAND_SIZE[game]:
        found.append(Problem("position: wrong hand size", str(hand)))
    if C.suit(p["turn_up"]) != p["trump"]:
        found.append(Problem("position: turn-up not of the trump suit", p["turn_up"]))
    decl = [list(d) for d in p["declarations"]]
    _in_turn(found, p["players"], p["dealer"], decl)
    if (p["dealer"] + 1 + len(decl)) % p["players"] != p["seat"]:
        found.append(Problem("position: not the learner's turn to declare", f"{decl}"))
    takers = [s for s, c in decl if c == "take-miss"]
    if game != "three-card" and (p["miss"] or takers):
        found.append(Problem("position: a miss where none is dealt", str(p)))
    if (
        len(takers) > 1
        or (takers and p["miss_holder"] != takers[0])
        or (p["miss_holder"] is not None and not takers)
    ):
        found.append(
            Problem("position: miss holder inconsistent", f"{decl}, holder {p['miss_holder']}")
        )
    if p["club_law"] and (game not in CLUB_LAW[q.rules] or C.suit(p["turn_up"]) != "C"):
        found.append(
            Problem("position: club law where it cannot bind", f"{game}, turn-up {p['turn_up']}")
        )
    if p["must"] and game not in MUST[q.rules]:
        found.append(Problem("position: a must the text does not have", f"{q.rules} {game}"))
    if (p["must"] or p["club_law"]) and any(c == "pass" for _, c in decl):
        found.append(Problem("position: a pass on a forced deal", str(decl)))
    if (p["must"] or p["club_law"]) and q.rules != "parlett" and (p["miss"] or takers):
        found.append(Problem("position: a miss on a forced deal", str(p)))
    if p["pool"] <= 0:
        found.append(Problem("position: an empty pool", str(p["pool"])))
    everyone_passed = len(decl) == p["players"] - 1 and all(c == "pass" for _, c in decl)
    if everyone_passed and p["seat"] == p["dealer"] and not (p["must"] or p["club_law"]):
        found.append(
            Problem(
                "position: the dealer asked to declare after all passed",
                "he takes the pool (all-pass)",
            )
        )
    mine = declaration_options(q.rules, p)
    _expect(
        found,
        f"declaration: answer differs from the texts ({game})",
        sorted(q.answer),
        sorted(mine),
    )
    return found


# --- procedure ------------------------------------------------------------------------------

#: The five-card dealing patterns each text allows (deal-order): "1" one at a time, "3+2",
#: "2+3" in batches. britannica says nothing of the five-card deal.
PATTERNS_5C = {
    "hoffmann": ("1",),  # Law 2
    "britannica": ("1", "3+2", "2+3"),  # silent
    "whiteknuckle": ("2+3", "3+2"),  # ¶14 "in batches of 2 and 3"
    "parlett": ("3+2", "2+3"),  # 5c:Deal
    "peel": ("1", "3+2"),  # p. 27
}


def _named_pattern(prompt: str) -> str | None:
    t = prompt.lower()
    if re.search(r"one at a time|one by one|singly|one card at a time", t):
        return "1"
    # "three cards at a time to each player from his left, then two at a time" (the batch,
    # then whom it goes to, then the second batch), or "in batches of three then two".
    m = re.search(r"\b(two|three|2|3) cards? at a time\b[^.]{0,60}?\bthen (two|three|2|3)\b", t)
    if m:
        first, then = (("3" if w in ("three", "3") else "2") for w in m.groups())
        return f"{first}+{then}" if first != then else None
    if re.search(r"(three|3)\D{0,25}then\D{0,25}(two|2)", t):
        return "3+2"
    if re.search(r"(two|2)\D{0,25}then\D{0,25}(three|3)", t):
        return "2+3"
    return None


def dealt(
    pattern: str, players: int, size: int, miss: str | None
) -> tuple[list[list[int]], list[int], int]:
    """Pack indices of each player's cards (from the dealer's left), of the miss, and of the
    turn-up. ``miss``: where the miss's card falls in each round ("last": after the dealer's
    own card, peel p. 23 and A37; "first": before the elder hand's; "end": three together
    after the players, hoffmann's note [30])."""
    hands: list[list[int]] = [[] for _ in range(players)]
    misses: list[int] = []
    i = 0
    if pattern == "1":
        for _ in range(size):
            if miss == "first":
                misses.append(i)
                i += 1
            for j in range(players):
                hands[j].append(i)
                i += 1
            if miss == "last":
                misses.append(i)
                i += 1
        if miss == "end":
            misses = list(range(i, i + size))
            i += size
    else:
        for batch in map(int, pattern.split("+")):
            for j in range(players):
                hands[j].extend(range(i, i + batch))
                i += batch
    return hands, misses, i


def _procedure_deal(found: list[Problem], q: Question, prompt: str) -> None:
    p = q.position
    n, game, pack = p["players"], p["game"], list(p["pack"])
    _cards(found, "pack", pack)
    size = C.HAND_SIZE[game]
    has_miss = bool(p.get("miss"))
    # A must has no miss (hoffmann ¶7, britannica s. 41); else three-card deals one.
    forced_3c = game == "three-card" and q.rules in ("hoffmann", "britannica")
    if has_miss != (game == "three-card") and not (forced_3c and not has_miss):
        found.append(Problem("position: a miss where none is dealt, or none where one is", str(p)))
    order = [(p["dealer"] + 1 + j) % n for j in range(n)]
    me = order.index(0)
    if game == "five-card":
        named = _named_pattern(prompt)
        patterns = (named,) if named else PATTERNS_5C[q.rules]
        layouts = {pat: dealt(pat, n, size, None) for pat in patterns}
    else:
        layouts = {"1": dealt("1", n, size, "last" if has_miss else None)}
    turn = next(iter(layouts.values()))[2]
    if len(pack) <= turn:
        found.append(Problem("position: the pack laid out is too short", f"{len(pack)} cards"))
        return
    if "turned up" in prompt:
        _expect(found, "procedure: turn-up differs from the texts", list(q.answer), [pack[turn]])
        return
    answers = {pat: sorted(pack[i] for i in hands[me]) for pat, (hands, _, _) in layouts.items()}
    if len({tuple(a) for a in answers.values()}) > 1:
        found.append(
            Problem(
                f"procedure: five-card deal without its pattern ({q.rules})",
                f"the text allows {sorted(answers)}: {answers}",
            )
        )
    else:
        (texts,) = answers.values()
        _expect(found, "procedure: cards received differ from the texts", sorted(q.answer), texts)


def _ante(found: list[Problem], q: Question) -> None:
    p = q.position
    stake, carried, n = p["stake"], p["carried"], p["players"]
    tricks = TRICKS[p["game"]]
    if stake % tricks:
        found.append(Problem("position: a stake that does not divide by the tricks", f"{stake}"))
    if q.rules in ("whiteknuckle", "parlett") and stake != tricks:
        found.append(
            Problem("position: a stake the text does not give", f"{stake} (the text: {tricks})")
        )
    if p["first"] and (carried or p["last_hand_looed"]):
        found.append(Problem("position: something carried into the first deal", str(p)))
    if p["last_hand_looed"] and carried <= 0:
        found.append(Problem("position: a loo that paid nothing", f"looed, carried {carried}"))
    elif p["last_hand_looed"] and q.rules != "britannica" and carried < stake:
        # The fixed loo is the stake (hoffmann ¶7, whiteknuckle ¶6, parlett 3c:Pay-off) or
        # more (peel p. 22; its single loo is half of twice the stake, p. 23).
        found.append(Problem("position: a loo smaller than the text's", f"carried {carried}"))
    if q.rules == "britannica":
        # s. 6-8: every player stakes on a fresh pool; s. 34: after a loo the loos alone form it.
        pool = carried if p["last_hand_looed"] else n * stake + carried
    else:
        pool = stake + carried  # the dealer stakes each deal (ante)
    _expect(
        found, f"procedure: pool differs from the texts ({q.rules})", list(q.answer), [str(pool)]
    )


def _in_play(decl: list[list[Any]]) -> list[int]:
    return [s for s, c in decl if c in ("play", "take-miss", "defend-miss")]


def check_procedure(q: Question) -> list[Problem]:
    found: list[Problem] = []
    p = q.position
    prompt, _ = shown(q)
    _players(found, q, p["players"])
    if "pack" in p:
        _procedure_deal(found, q, prompt)
    elif "stake" in p:
        _ante(found, q)
    elif "holder" in p:
        if C.flush_suit(p["flush"]) is None or not 0 <= p["holder"] < p["players"]:
            found.append(Problem("position: not a flush", str(p)))
        mine = "after-declaring" if q.rules == "peel" else "immediate"  # peel p. 27; A29
        _expect(found, "procedure: flush timing differs from the texts", list(q.answer), [mine])
    elif "tricks" in p:
        decl = [list(d) for d in p["declarations"]]
        _in_turn(found, p["players"], p["dealer"], decl)
        n_in = len(_in_play(decl))
        tricks = [list(t) for t in p["tricks"]]
        _cards(found, "tricks", [c for t in tricks for c in t])
        if (
            n_in < 2
            or any(len(t) != n_in for t in tricks[:-1])
            or not tricks
            or not 0 < len(tricks[-1]) <= n_in
        ):
            found.append(
                Problem(
                    "position: tricks that do not fit the players in the play", f"{decl}: {tricks}"
                )
            )
        seen = {c for t in tricks for c in t}
        shown_cards = {c.id for c in q.choices if c.id in seen}
        _expect(
            found,
            "procedure: cards seen differ from the texts",
            sorted(q.answer),
            sorted(shown_cards),
        )
    elif "next" in prompt and "declares" in prompt:
        decl = [list(d) for d in p["declarations"]]
        _in_turn(found, p["players"], p["dealer"], decl)
        if len(decl) >= p["players"]:
            found.append(Problem("position: everyone has declared", str(decl)))
        mine = f"seat:{(p['dealer'] + 1 + len(decl)) % p['players']}"
        _expect(found, "procedure: next to declare differs from the texts", list(q.answer), [mine])
    elif "lead" in prompt:
        decl = [list(d) for d in p["declarations"]]
        _in_turn(found, p["players"], p["dealer"], decl)
        playing = _in_play(decl)
        if len(playing) < 2:
            found.append(Problem("position: fewer than two in the play", str(decl)))
        if len(decl) != p["players"]:
            found.append(Problem("position: the lead before everyone declared", str(decl)))
        if playing:
            mine = f"seat:{playing[0]}"  # A19: the first declared player from the dealer's left
            _expect(found, "procedure: first leader differs from the texts", list(q.answer), [mine])
    else:
        found.append(Problem("procedure: a question this checker does not know", prompt))
    return found


# --- source ---------------------------------------------------------------------------------

_NAMES = ("hoffmann", "britannica", "white knuckle", "whiteknuckle", "parlett", "peel")


def check_source(q: Question) -> list[Problem]:
    found: list[Problem] = []
    p = q.position
    prompt, _ = shown(q)
    named = [n for n in _NAMES if n in prompt.lower()]
    if named:
        found.append(Problem("source: the prompt names a source", f"{named}: {prompt}"))
    entry = catalogue_rule(p["rule"])
    status = {s.source: s.status for s in entry.sources}
    quote = p.get("quote")
    if quote and not q.multiple:
        where = found_in(quote)
        if where is None:
            found.append(
                Problem(
                    "source: quotation too short to tell the texts apart",
                    f"{quote!r} ({words(quote)} words)",
                )
            )
            return found
        if not where:
            found.append(Problem("source: quotation not in any text", repr(quote)))
        elif len(where) > 1:
            found.append(
                Problem(
                    "source: quotation in several texts",
                    f"{quote!r} in {sorted(where)}, answer {q.answer}",
                )
            )
        elif set(q.answer) != set(where):
            found.append(
                Problem(
                    "source: quotation attributed to the wrong text",
                    f"{quote!r} in {sorted(where)}, answer {q.answer}",
                )
            )
        for s in where:
            if status[s] not in ("states", "implied"):
                found.append(
                    Problem(
                        "source: quotation from a text the catalogue does not have state the rule",
                        f"{quote!r}: {s} is {status[s]} on {p['rule']}",
                    )
                )
        return found
    # "Which of these sources state the rule?": the texts that state it, each with a passage
    # that is really in it; a text the catalogue calls silent is never an answer.
    for s in q.answer:
        if status[s] in ("silent", "refers"):
            found.append(Problem("source: a silent text among the answers", f"{s} on {p['rule']}"))
            continue
        cited = [c.quote for c in entry.source(s).citations]
        if not cited:
            # A modern page the site may hardly quote: its bullet in RULES.md part 1 quotes it
            # (quotes.evidence), and a passage of that is in the page.
            if not evidence(p["rule"], s):
                found.append(
                    Problem(
                        "source: a text answered with no passage to check it by",
                        f"{s} on {p['rule']} (neither the catalogue nor RULES.md quotes it)",
                    )
                )
        elif not any(s in (found_in(c) or ()) for c in cited):
            found.append(
                Problem(
                    "source: no passage of the answer's text is in it",
                    f"{s} on {p['rule']}: {cited}",
                )
            )
    stating = {s for s in SOURCES if status[s] == "states"}
    if set(q.answer) != stating:
        found.append(
            Problem(
                "source: answer is not the texts that state the rule",
                f"answer {sorted(q.answer)}, stating {sorted(stating)}",
            )
        )
    if quote:
        where = found_in(quote) or frozenset()
        if not where <= set(q.answer):
            found.append(
                Problem(
                    "source: quotation shown is from a text not in the answer",
                    f"{quote!r} in {sorted(where)}",
                )
            )
    return found


CHECKS = {
    "legal-cards": check_legal_cards,
    "why-not": check_why_not,
    "trick-winner": check_trick_winner,
    "flush": check_flush,
    "declaration": check_declaration,
    "procedure": check_procedure,
    "source": check_source,
}


# --- readings -------------------------------------------------------------------------------


def readings(q: Question) -> list[str]:
    """The readings (RULES.md part 3, by A-number) under which this question's answer would be
    another: a question resting on one must say so (finding 11)."""
    alternatives: dict[str, tuple[str, dict[str, Any]]] = dict(C.READINGS.get(q.rules, {}))
    if q.game == "five-card" and q.rules in ("whiteknuckle", "peel"):
        alternatives["A13"] = (
            "the five-card section states no lead rule",
            {"lead_scope": "none", "after_trick": "off"},
        )
    if q.game == "five-card" and q.rules == "parlett":
        alternatives["A12"] = (
            "five-card inherits the three-card first lead",
            {"lead_scope": "first"},
        )
    if q.game == "five-card" and q.rules == "britannica":
        alternatives["A11"] = ("'the winner of the first trick' only", {"lead_scope": "first"})
    out = []
    if q.kind in ("legal-cards", "why-not"):
        base = C.options(q.rules, q.game)
        mine = C.legal(q.rules, q.position, base)
        card = _card(shown(q)[0]) if q.kind == "why-not" else None
        offered = {c.id for c in q.choices}

        def answers(legal: C.Legal) -> frozenset[str]:
            """The choices that forbid the card: a rule that also forbids it under another
            reading changes the answer only if it is offered."""
            return frozenset(offered & legal.forbidding.get(card or "", frozenset()))

        for a, (_, change) in alternatives.items():
            other = C.legal(q.rules, q.position, replace(base, **change))
            if q.kind == "legal-cards" and other.cards != mine.cards:
                out.append(a)
            if (
                q.kind == "why-not"
                and card is not None
                and (card in other.cards or answers(other) != answers(mine))
            ):
                out.append(a)
    if q.kind == "flush":
        base = C.options(q.rules, "five-card")
        hands, trump = q.position["hands"], q.position["trump"]
        mine_w = C.flush_winner(q.rules, hands, trump, base)
        for a, (_, change) in alternatives.items():
            o = replace(base, **change)
            w = C.flush_winner(q.rules, hands, trump, o)
            if w != mine_w or (
                w is not None
                and C.flush_exempt(q.rules, hands, w, o) != C.flush_exempt(q.rules, hands, w, base)
            ):
                out.append(a)
    if (
        q.kind == "procedure"
        and "pack" in q.position
        and q.game == "three-card"
        and q.rules != "peel"
        and q.position.get("miss")
    ):
        p = q.position
        prompt = shown(q)[0]
        if "receive" in prompt:
            n = p["players"]
            me = [(p["dealer"] + 1 + j) % n for j in range(n)].index(0)
            got = {
                where: sorted(p["pack"][i] for i in dealt("1", n, 3, where)[0][me])
                for where in ("last", "first", "end")
            }
            if len({tuple(v) for v in got.values()}) > 1:
                out.append("A37")
    if q.kind == "procedure" and "holder" in q.position and q.rules == "britannica":
        out.append("A29")  # britannica says nothing of when a flush is shown
    if (
        q.kind == "declaration"
        and q.game != "three-card"
        and q.position["seat"] == q.position["dealer"]
    ):
        decl = q.position["declarations"]
        if len(decl) == q.position["players"] - 1 and sum(c != "pass" for _, c in decl) == 1:
            out.append("A47")
    return out


def states_reading(q: Question) -> bool:
    """Whether the question tells the learner its answer rests on a reading."""
    if q.position.get("reading") or q.position.get("readings"):
        return True
    prompt, explanations = shown(q)
    text = f"{prompt} {explanations}".lower()
    return "reading" in text or re.search(r"\ba\d{1,2}\b", text) is not None

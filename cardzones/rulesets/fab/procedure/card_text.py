"""A card's text read as a small set of effects the procedure carries out.

The text is read sentence by sentence. Each sentence that has one of the
forms below becomes a :class:`Clause`; any other sentence is kept as
unknown and does nothing (docs/card-text.md lists the forms). So a text the
engine does not know never has a wrong effect: it has none.

The forms, ``N`` a number and "this" standing for the card's own name too:

- ``Target [QUALIFIER] attack [action card] gets +N{p}.`` (also "gains"):
  a targeted modify of the attack's power (1.8.5, 8.5.8);
- ``Target [QUALIFIER] attack [action card] gains go again.`` (8.5.9, 8.3.5);
- ``Target [QUALIFIER] attack [action card] gains dominate.`` (8.3.4);
- ``This gets +N{d}.`` / ``+N{p}``: a modify of the card itself (8.5.8);
- ``Draw a card.`` / ``Draw N cards.`` (8.5.6);
- ``Gain N{h}.`` / ``You gain N{h}.`` (8.5.7a);
- ``The next attack action card you play this turn gains +N{p}.`` /
  ``... gains go again.`` (6.2.4, 6.2.2a);
- ``When this hits, EFFECT.`` / ``If this hits, EFFECT.`` / ``... hits a
  hero, ...``: a triggered effect of the attack on its hit (6.6, 7.5.5),
  whose EFFECT is one of the forms above without a target, or ``this gains
  go again``;
- ``Go again.`` / ``Dominate.``: the keyword, as the card's keywords have it;
  ``This can't be defended by more than one card from hand.`` is dominate's
  meaning written out (8.3.4).

A duration written after an effect ("this turn", "until end of turn") is
the one every modify here has anyway: a layer-continuous effect without one
ends at the end of the turn (6.2.2a).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

#: The kinds of effect a clause has.
POWER, DEFENSE, GO_AGAIN, DOMINATE, DRAW, GAIN_LIFE = (
    "power",
    "defense",
    "go_again",
    "dominate",
    "draw",
    "gain_life",
)
#: What a clause applies to: the attack it targets, the card itself, its
#: controller, or the next attack action card its controller plays.
TARGET_ATTACK, SELF, YOU, NEXT_ATTACK = "target_attack", "self", "you", "next_attack"
#: When a clause's effect is generated: as the card resolves (5.3.4), on
#: the attack's hit (a triggered effect, 6.6), or always (a static ability).
RESOLVES, HITS, STATIC = "resolves", "hits", "static"

#: The words that may qualify a targeted attack: weapon, its subtypes, and
#: the classes, which an attack's types name (8.2, 8.4).
QUALIFIERS = frozenset(
    [
        "weapon",
        "axe",
        "bow",
        "claw",
        "club",
        "dagger",
        "gun",
        "hammer",
        "orb",
        "pistol",
        "scepter",
        "scythe",
        "staff",
        "sword",
        "brute",
        "guardian",
        "illusionist",
        "mechanologist",
        "ninja",
        "ranger",
        "runeblade",
        "warrior",
        "wizard",
        "generic",
        "assassin",
    ]
)


class Target(NamedTuple):
    """What a targeted attack must be (1.8.5d): every type in ``types``,
    and a card with the action type when ``card`` (an "attack action card")."""

    types: tuple[str, ...] = ()
    card: bool = False


class Clause(NamedTuple):
    """One effect of a card's text: its kind, what it applies to, when it
    is generated, the amount, and for a targeted one what the target must be."""

    kind: str
    subject: str
    when: str = RESOLVES
    amount: int = 0
    target: Target | None = None


class Reading(NamedTuple):
    """A text read: its clauses and the sentences that are none of the forms."""

    clauses: tuple[Clause, ...]
    unknown: tuple[str, ...]


_NUMBER = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5}
_DURATION = r"(?:\s+(?:this turn|until (?:the )?end of (?:the )?turn))?"
_TARGET = re.compile(
    r"target\s+(?P<quals>(?:[a-z0-9]+\s+)*?)attack(?P<card>\s+action\s+card)?\s+"
    r"(?:gets|gains|has)\s+(?P<what>\+\d+\{p\}|go again|dominate)" + _DURATION + r"$"
)
_SELF = re.compile(
    r"(?:this|it)\s+(?:gets|gains|has)\s+\+(?P<n>\d+)\{(?P<stat>[pd])\}" + _DURATION + "$"
)
_SELF_GO_AGAIN = re.compile(r"(?:this|it)\s+(?:gets|gains|has)\s+go again" + _DURATION + "$")
_DRAW = re.compile(r"(?:you\s+)?draws?\s+(?P<n>a|an|one|two|three|four|five|\d+)\s+cards?$")
_GAIN = re.compile(r"(?:you\s+)?gains?\s+(?P<n>\d+)\s*\{h\}$")
_NEXT = re.compile(
    r"(?:the\s+)?next\s+attack\s+action\s+card\s+you\s+play\s+this\s+turn\s+"
    r"(?:gets|gains|has)\s+(?P<what>\+\d+\{p\}|go again)$"
)
_HITS = re.compile(r"(?:when|whenever|if)\s+this\s+hits(?:\s+a\s+hero)?\s*,\s*(?P<rest>.+)$")
_DOMINATE = re.compile(
    r"(?:dominate|this\s+can't\s+be\s+defended\s+by\s+more\s+than\s+one\s+card\s+from\s+hand)$"
)


def read(text: str | None, name: str = "") -> Reading:
    """The clauses of a card's text; ``name`` is the card's own name, which
    the text may use for "this"."""
    return _read(text or "", name)


@lru_cache(maxsize=1024)
def _read(text: str, name: str) -> Reading:
    clauses: list[Clause] = []
    unknown: list[str] = []
    for sentence in _sentences(text, name):
        clause = _clause(sentence)
        if clause is None:
            if sentence != "go again":  # the keyword: the card's keywords have it
                unknown.append(sentence)
        else:
            clauses.append(clause)
    return Reading(tuple(clauses), tuple(unknown))


def _sentences(text: str, name: str) -> list[str]:
    plain = text.replace("*", "").replace("\u2019", "'")
    if name:
        plain = re.sub(re.escape(name), "this", plain, flags=re.I)
    out = []
    for part in re.split(r"(?<=[.!])\s+|\n+", plain):
        sentence = " ".join(part.strip().rstrip(".").split()).lower()
        if sentence:
            out.append(sentence)
    return out


def _clause(sentence: str) -> Clause | None:
    found = _HITS.match(sentence)
    if found is not None:
        inner = _effect(found["rest"].strip())
        if inner is None or inner.subject == TARGET_ATTACK:
            return None
        return inner._replace(when=HITS)
    if _DOMINATE.match(sentence):
        return Clause(DOMINATE, SELF, STATIC)
    return _effect(sentence)


def _effect(sentence: str) -> Clause | None:
    found = _TARGET.match(sentence)
    if found is not None:
        quals = tuple(found["quals"].split())
        if any(q not in QUALIFIERS for q in quals):
            return None
        target = Target(quals, bool(found["card"]))
        return _what(found["what"], TARGET_ATTACK, target)
    found = _SELF.match(sentence)
    if found is not None:
        kind = POWER if found["stat"] == "p" else DEFENSE
        return Clause(kind, SELF, amount=int(found["n"]))
    if _SELF_GO_AGAIN.match(sentence):
        return Clause(GO_AGAIN, SELF)
    found = _DRAW.match(sentence)
    if found is not None:
        n = found["n"]
        return Clause(DRAW, YOU, amount=int(n) if n.isdigit() else _NUMBER[n])
    found = _GAIN.match(sentence)
    if found is not None:
        return Clause(GAIN_LIFE, YOU, amount=int(found["n"]))
    found = _NEXT.match(sentence)
    if found is not None:
        return _what(found["what"], NEXT_ATTACK, None)
    return None


def _what(what: str, subject: str, target: Target | None) -> Clause:
    if what == "go again":
        return Clause(GO_AGAIN, subject, target=target)
    if what == "dominate":
        return Clause(DOMINATE, subject, target=target)
    return Clause(POWER, subject, amount=int(what[1:].split("{")[0]), target=target)

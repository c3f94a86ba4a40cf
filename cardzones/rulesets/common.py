"""What the rule sets that ship with cardzones share: the actions of both
tables (move, draw, shuffle, flip, modify, grant, end_turn, counter), built from the
kernel's standard actions, with their candidates for legal actions.

``modify`` and ``counter`` take the numbers each rule set declares its cards
to have (:class:`~cardzones.rulesets.base.Numbers`): fab's ``power``,
``defense``, ``pitch`` and ``cost``, Redemption's ``strength`` and
``toughness``.

A candidates function (``Action.candidates``) lists the arguments a player
could give an action now, from what that player may know alone
(:func:`~cardzones.acts.seats.nameable_cards` and
:func:`~cardzones.acts.seats.actable_cards`; in a listing on one card, an
action whose one card is the card it acts on makes that card's candidates
alone, :func:`~cardzones.acts.seats.actable_naming`); :meth:`Game.legal_actions
<cardzones.kernel.game.Game.legal_actions>` keeps those the seat policy and
the rules allow. The candidates are a finite, useful space, not every value
an argument could take: a move goes to each of the player's zones and the
shared ones (and to the bottom of an ordered one of theirs), with the
default face and cause; a modify is +1 or -1 to a printed number.

>>> from cardzones.acts.standard import move_action
>>> sorted(action.name for action in shared_actions(move_action(), numbers=Numbers()))
['counter', 'draw', 'end_turn', 'flip', 'grant', 'modify', 'move', 'shuffle']
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from cardzones.acts.actions import Action, ArgumentError, Foresee, Param, ParamKind
from cardzones.acts.counters import counter_action, counter_candidates
from cardzones.acts.seats import actable_naming, nameable_cards
from cardzones.acts.standard import END_TURN, FLIP, GRANT, SHUFFLE, draw_action, modify_action
from cardzones.kernel.cards import CardDef, Dest
from cardzones.rulesets.base import Numbers

if TYPE_CHECKING:
    from cardzones.kernel.game import Game

Candidate = dict[str, Any]

#: The longest image address card data may give.
MAX_IMAGE = 500

#: The fields of card data that people read and no rule does: the rules
#: text, and where a picture of the card is (an https address).
TEXT_PARAMS = (
    Param("text", ParamKind.TEXT, default="", doc="the rules text, as printed"),
    Param("image", ParamKind.TEXT, default="", doc="an https address of a picture of the card"),
)


def printed_text(fields: Mapping[str, Any]) -> tuple[str, str]:
    """The ``text`` and ``image`` of card data, checked.

    >>> printed_text({"text": "Go again", "image": "https://example.org/a.webp"})
    ('Go again', 'https://example.org/a.webp')
    >>> printed_text({"image": "javascript:alert(1)"})
    Traceback (most recent call last):
    ...
    cardzones.acts.actions.ArgumentError: image is an https address of at most 500 characters
    """
    text = fields.get("text") or ""
    image = fields.get("image") or ""
    if image and (
        not image.startswith("https://")
        or len(image) > MAX_IMAGE
        or any(c.isspace() for c in image)
    ):
        raise ArgumentError(
            f"image is an https address of at most {MAX_IMAGE} characters", ("image",)
        )
    return text, image


def printed(fields: Mapping[str, Any], stats: Sequence[str]) -> tuple[dict[str, Any], str, str]:
    """What card data prints on a card: those of ``stats`` it gives (one it
    leaves out or null the card has not), then its ``text`` and ``image``,
    checked (:func:`printed_text`)."""
    text, image = printed_text(fields)
    return {k: fields[k] for k in stats if fields.get(k) is not None}, text, image


def text_fields(cdef: CardDef) -> dict[str, str]:
    """The ``text`` and ``image`` card data gives ``cdef`` (those it has)."""
    return {k: v for k, v in (("text", cdef.text), ("image", cdef.image)) if v}


def shared_actions(
    move: Action,
    never: CannotTake | None = None,
    *,
    numbers: Numbers,
    end_turn: Foresee | None = None,
) -> tuple[Action, ...]:
    """The actions both shipped rule sets have, with the rule set's own
    ``move``, each with its candidates (a move's leaving out the zones
    ``never`` says cannot take the card, :func:`move_candidates`), a
    ``modify`` and a ``counter`` of the rule set's own ``numbers``, and
    ``end_turn`` judged by the rule set's own judgement of its end of the
    turn (without one, legal actions try it)."""

    def moves(game: Game, player: str) -> Iterator[Candidate]:
        return move_candidates(game, player, never)

    def modifies(game: Game, player: str) -> Iterator[Candidate]:
        return modify_candidates(game, player, numbers.modified)

    # Each candidate of move, flip and modify is given once: one a card and
    # destination (and position), one a card, one a card, number and sign.
    move = replace(move, candidates=moves, distinct=True)
    return (
        move,
        replace(draw_action(move), candidates=draw_candidates),
        replace(SHUFFLE, candidates=shuffle_candidates),
        replace(FLIP, candidates=flip_candidates, distinct=True),
        replace(modify_action(numbers.modified), candidates=modifies, distinct=True),
        replace(GRANT, candidates=grant_candidates),
        replace(END_TURN, candidates=end_turn_candidates, foresee=end_turn),
        counter_action(numbers.counted, candidates=counter_candidates),
    )


# ----------------------------------------------------------------------
# What candidates are made of
# ----------------------------------------------------------------------


def destinations(game: Game, player: str) -> list[tuple[Dest, bool]]:
    """Where a player's move may go: each of their zone types and each shared
    one, the rule set's destinations that are not zones (fab's ``arena``) and
    its piles of theirs (fab's soul); with whether the zone is ordered and
    theirs, where the bottom is a place of its own."""
    ruleset = game.ruleset
    out: list[tuple[Dest, bool]] = []
    for spec in ruleset.zone_specs.values():
        if spec.shared:
            out.append((Dest(spec.type), False))
        else:
            out.append((Dest(spec.type, player), spec.ordered))
    out.extend((Dest(pseudo), False) for pseudo in ruleset.destinations)
    out.extend((Dest(pile, player), False) for pile in ruleset.piles)
    return out


def visible(game: Game, player: str, cards: list[int]) -> list[int]:
    """The cards of ``cards`` the player may look at."""
    return [card for card in cards if game.may_look(player, card)]


def own_zones(game: Game, player: str) -> list[int]:
    """The zones the player owns, in the order of the layout."""
    return [z for z in game.all_zones() if game.zone_info(z).owner == player]


def in_zone_of_type(game: Game, card: int, ztype: str, owner: str | None) -> bool:
    """Whether the card is a top-level card of one of ``owner``'s zones of ``ztype``."""
    info = game.zone_info(game.location(card))
    return info.spec.type == ztype and info.owner == owner and game.host(card) is None


# ----------------------------------------------------------------------
# The shared actions' candidates
# ----------------------------------------------------------------------


#: For each destination, whether the zone it names cannot take the card now
#: (a rule set's reading of its own admission rules; False when unsure), or
#: None when it cannot tell for the card.
CannotTake = Callable[["Game", int, Sequence[Dest]], Sequence[bool] | None]


def move_candidates(
    game: Game, player: str, never: CannotTake | None = None
) -> Iterator[Candidate]:
    """Each card the player acts on, to each destination but the zone it is
    in (see :func:`destinations`). A card the player may look at is not
    offered to a zone that ``never`` says cannot take it: the move would fail
    (3.0.11), and a failed move of a card the player sees is not listed, so
    leaving it out changes no list and tells nothing."""
    places = destinations(game, player)
    dests = [dest for dest, _ in places]
    # "card" is a move's one card: a menu on one card makes its moves alone.
    for card in actable_naming(game, player):
        here = game.zone_info(game.location(card))
        # The zone it is in, as in_zone_of_type reads it (a sub-card's is its top-card's).
        htype = here.spec.type if game.host(card) is None else None
        skip = None
        if never is not None and game.may_look(player, card):
            skip = never(game, card, dests)
        for i, (dest, bottom) in enumerate(places):
            if dest.type == htype and dest.owner == here.owner:
                continue
            if skip is not None and skip[i]:
                continue
            yield {"card": card, "to": dest}
            if bottom:
                yield {"card": card, "to": dest, "position": "bottom"}


def draw_candidates(game: Game, player: str) -> Iterator[Candidate]:
    """One card, for the player."""
    yield {"player": player}


def shuffle_candidates(game: Game, player: str) -> Iterator[Candidate]:
    """Each ordered zone of the player's that holds two cards or more."""
    for zid in own_zones(game, player):
        if game.zone_info(zid).spec.ordered and len(game.contents(zid)) > 1:
            yield {"zone": zid}


def flip_candidates(game: Game, player: str) -> Iterator[Candidate]:
    """Each card the player acts on, turned to the other face (a card they may
    not look at, face up)."""
    for card in actable_naming(game, player):  # "card" is a flip's one card
        public = game.may_look(player, card) and game.is_public(card)
        yield {"card": card, "face": "down" if public else "up"}


def modify_candidates(game: Game, player: str, numbers: Sequence[str]) -> Iterator[Candidate]:
    """+1 and -1 to each printed number of ``numbers`` of each public card the
    player acts on."""
    for card in actable_naming(game, player):  # "card" is a modify's one card
        if not game.is_public(card):
            continue
        for stat in game.obj(card).cdef.stats:
            if stat in numbers:
                yield {"card": card, stat: 1}
                yield {"card": card, stat: -1}


def grant_candidates(game: Game, player: str) -> Iterator[Candidate]:
    """Each public card the player acts on, with each keyword a card they may
    look at has and it does not."""
    words = sorted(
        {w for c in nameable_cards(game, player) if game.may_look(player, c) for w in _kw(game, c)}
    )
    for card in actable_naming(game, player):  # "card" is a grant's one card
        if game.is_public(card):
            had = game.keywords(card)
            for word in words:
                if word not in had:
                    yield {"card": card, "keyword": word}


def _kw(game: Game, card: int) -> frozenset[str]:
    return frozenset(game.obj(card).cdef.keywords)


def end_turn_candidates(game: Game, player: str) -> Iterator[Candidate]:
    """Ending the turn, with the cards it moves in the order they lie."""
    yield {}

"""Saving and loading a whole game as JSON-ready data.

**The full state is the secret-bearing form.** It holds every hidden card: the
order of every deck, every hand, every face-down card, the seed that decides
future shuffles and the key of the object handles of views. Store it where only the
engine can read it, and never send it to a player; a player gets
:meth:`Game.view <cardzones.kernel.game.Game.view>` and
:meth:`Game.log <cardzones.kernel.game.Game.log>`.

The data holds the rule set's name, the players, the seed, the handle key and every map of the
state, card definitions (with their abilities) included, and the event log.
The undo history is not saved: a loaded game starts with nothing to undo, as
a game does after its setup. Loading and saving again gives the same data.

>>> from cardzones import Game, new_game
>>> game = new_game("fab", ["alice", "bob"], seed=7)
>>> card = game.new_card(game.card_def("Snatch"), game.zone("alice", "deck"))
>>> _ = game.move(card, game.zone("alice", "hand"))
>>> again = Game.from_json(game.to_json(), game.ruleset)
>>> again.view("alice") == game.view("alice"), again.log("bob") == game.log("bob")
(True, True)
>>> again.to_json() == game.to_json()
True

The kernel loads a game of a rule set it is given; ``cardzones.load_game``
finds the rule set by the name the data holds.

The encoding is :mod:`cardzones.codec`'s: plain JSON, records named by
module and class, and only classes of cardzones itself or of the rule set's
own package are ever loaded, so data cannot make the loader import anything
else. The kernel tells it what a game shares: card definitions and zone specs
are written once and referred to, and the event log, a linked list, is written
flat.
"""

from __future__ import annotations

from typing import Any

from cardzones.codec import Chain, Decoder, Encoder
from cardzones.errors import SerialError as SerialError
from cardzones.kernel.cards import CardDef
from cardzones.kernel.contents import _layout
from cardzones.kernel.events import Event
from cardzones.kernel.ruleset import GameState, Ruleset
from cardzones.kernel.zones import ZoneSpec

FORMAT = "cardzones-state/1"

#: The journaled maps of a State, in the order of ``State._maps``.
MAPS = ("objs", "contents", "zones", "zinfo", "kids", "effects", "fx_by_card", "vars", "rules")

#: Immutable records shared by many objects: written once, then referred to.
_SHARED = (CardDef, ZoneSpec)
#: The event log: ``(Event, rest)`` pairs, the newest first.
_LOG = Chain("log", "events", Event)
#: The fields a CardDef had before ``extra``, and their names in it.
_OLD_CARD = {"brigades": "brigade", "classes": "class", "alignment": "alignment"}


def _encoder() -> Encoder:
    return Encoder(_SHARED, _LOG)


def _decoder(shared: list[Any], ruleset: Ruleset[Any]) -> Decoder:
    """A decoder of the records of cardzones and of ``ruleset``'s own package,
    which is imported already."""

    def own_spec(value: Any) -> Any:
        if isinstance(value, ZoneSpec):
            # The rule set's own spec when it is the same: games share them.
            own = ruleset.zone_specs.get(value.type)
            if own == value:
                return own
        return value

    package = type(ruleset).__module__.split(".")[0]
    return Decoder(
        shared,
        packages=("cardzones", package),
        chain=_LOG,
        on_shared=own_spec,
        upgrade={CardDef: _card_with_extra},
    )


def _card_with_extra(fields: dict[str, Any]) -> dict[str, Any]:
    if "extra" not in fields:  # saved before a card had one
        old = {_OLD_CARD[k]: fields.pop(k) for k in _OLD_CARD if k in fields}
        fields["extra"] = {k: v for k, v in old.items() if v}
    return fields


def game_to_json(game: GameState) -> dict[str, Any]:
    """The full state of ``game`` as JSON-ready data. Secret-bearing."""
    if len(game._maps) != len(MAPS):
        raise SerialError(f"the state has {len(game._maps)} maps; this format knows {len(MAPS)}")
    enc = _encoder()
    state = {name: enc.encode(m) for name, m in zip(MAPS, game._maps, strict=True)}
    return {
        "format": FORMAT,
        "ruleset": game.ruleset.name,
        "players": list(game.players),
        "seed": game.seed,
        "handle_key": game.handle_key,
        "shared": enc.shared,
        "state": state,
    }


def check_format(data: Any) -> str:
    """The name of the rule set a saved game names; anything that is not a
    saved game of this format is refused."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SerialError(f"not a saved cardzones game (format {FORMAT})")
    name = data.get("ruleset")
    if not isinstance(name, str):
        raise SerialError("the saved game names no rule set")
    return name


def check_ruleset(data: dict[str, Any], ruleset: Ruleset[Any] | None) -> Ruleset[Any]:
    """The rule set to load ``data`` as: it must be given, and be the one the
    data names. The kernel knows no rule set by name; ``cardzones.load_game``
    finds it."""
    name = check_format(data)
    if ruleset is None:
        raise SerialError(
            f"loading a saved game needs its rule set ({name}): pass it, "
            "or use cardzones.load_game(data), which finds it by name"
        )
    if ruleset.name != name:
        raise SerialError(f"the data is a {name} game, not {ruleset.name}")
    return ruleset


def restore(game: GameState, data: dict[str, Any]) -> None:
    """Replace every map of ``game``, a new game of the data's rule set,
    players and seed, by the saved one, and forget its history."""
    decoder = _decoder(list(data["shared"]), game.ruleset)
    state = data["state"]
    game._own_all()  # the maps are filled in place below
    for name, target in zip(MAPS, game._maps, strict=True):
        if not isinstance(target, dict):
            raise SerialError(f"the game's {name} map is not a dict")
        loaded = decoder.decode(state[name])
        if not isinstance(loaded, dict):
            raise SerialError(f"the {name} map is not a mapping")
        target.clear()
        target.update(loaded)
    # The zone list is derived from the zones, so it is made again rather than
    # trusted (and saves from before it was kept still load).
    game._vars["layout"] = _layout(game)
    game.forget_history()


def value_to_json(value: Any) -> dict[str, Any]:
    """Any value a game may hold (records, tuples, dicts of them) as JSON-ready
    data, for state kept beside a game, such as the handles of its effects.

    >>> from cardzones.kernel.ruleset import Ruleset
    >>> value_from_json(value_to_json({"e1": ("kernel", 3)}), Ruleset())
    {'e1': ('kernel', 3)}
    """
    enc = _encoder()
    data = enc.encode(value)
    return {"format": FORMAT, "shared": enc.shared, "value": data}


def value_from_json(data: dict[str, Any], ruleset: Ruleset[Any]) -> Any:
    """The value :func:`value_to_json` wrote, with the zone specs and the
    record classes of ``ruleset``, the rule set of the game it was kept beside
    (as :meth:`Game.from_json <cardzones.kernel.game.Game.from_json>` loads a
    game)."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SerialError(f"not a saved cardzones value (format {FORMAT})")
    return _decoder(list(data.get("shared", [])), ruleset).decode(data.get("value"))

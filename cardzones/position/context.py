"""The context one scenario runs in: its game, labels, marks and effect labels,
and the references of the scenario format (docs/scenarios.md, References) turned
into ids.

:class:`Refs` resolves the arguments of actions for the action tables' binder
(:func:`cardzones.acts.binding.bind`); :class:`Context` has the same lookups
for set-up and expectations, with ``file:line`` errors.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from cardzones.acts.actions import ArgumentError, PathStep
from cardzones.errors import IllegalAction, ScenarioError
from cardzones.kernel.cards import CardDef, Dest
from cardzones.kernel.game import Game
from cardzones.position.card_data import named_card, picked_key
from cardzones.position.loader import YList, YMap
from cardzones.position.refs import CardRef, ZoneRef, parse_card, parse_zone

if TYPE_CHECKING:
    from cardzones.cards.lookup import CardLookup


def line_of(node: Any, key: Any) -> int | None:
    """The line of ``node[key]``, or of ``node`` itself."""
    if isinstance(node, YMap) and isinstance(key, str):
        return node.line_of(key)
    if isinstance(node, YList) and isinstance(key, int):
        return node.line_of(key)
    line: int | None = getattr(node, "line", None)
    return line


def line_at(node: Any, path: tuple[PathStep, ...]) -> int | None:
    """The line of the value ``path`` leads to from ``node``, or of the deepest
    part of the path that exists."""
    line = line_of(node, None)
    for step in path:
        line = line_of(node, step) or line
        try:
            node = node[step]
        except (KeyError, IndexError, TypeError):
            break
    return line


@dataclass(eq=False, repr=False)
class Context:
    """Everything a step may refer to."""

    #: Where the players come from, for messages about a name that is not a
    #: player: a scenario file says where its ``players:`` list is.
    players_hint = ""

    game: Game
    ruleset: str
    file: str
    cards: dict[str, CardDef]
    card_data: CardLookup | None = None
    #: names with several definitions under ``cards:``, by the number of
    #: their variant (:class:`~cardzones.rulesets.cardfiles.Variants`)
    variants: dict[str, dict[int, CardDef]] = field(default_factory=dict)
    #: every card the card index gave, by name and variant (:mod:`card_data`)
    resolved: dict[str, dict[int | None, CardDef]] = field(default_factory=dict, init=False)
    labels: dict[str, int] = field(default_factory=dict, init=False)
    marks: dict[str, tuple[int, int]] = field(default_factory=dict, init=False)
    effects: dict[str, Any] = field(default_factory=dict, init=False)
    zone_types: set[str] = field(init=False)

    def __post_init__(self) -> None:
        self.zone_types = set(self.game.ruleset.zone_specs)

    @property
    def refs(self) -> Refs:
        """The references as the binder asks for them: made on each reading,
        as references that the context held would point back to it, and the
        context and its game would wait for the garbage collector."""
        return Refs(self)

    # -- errors --------------------------------------------------------

    def not_a_player(self, value: Any, what: str = "") -> str:
        """The message for a name that is not a player: the players, and where
        they are listed.

        >>> from cardzones import new_game
        >>> ctx = Context(new_game("fab", ["alice", "bob"]), "fab", "s.yaml", {})
        >>> ctx.not_a_player("carol")
        "'carol' is not a player; the players are alice, bob"
        """
        hint = f" {self.players_hint}" if self.players_hint else ""
        return f"{what or repr(value)} is not a player; the players are " + (
            f"{', '.join(self.game.players)}{hint}"
        )

    def fail(self, node: Any, key: Any, message: str) -> ScenarioError:
        return ScenarioError(message, file=self.file, line=line_of(node, key))

    def fail_at(self, node: Any, exc: ArgumentError, line: int | None = None) -> ScenarioError:
        """An argument error of an action whose arguments are ``node``."""
        return ScenarioError(exc.message, file=self.file, line=line_at(node, exc.path) or line)

    def check_keys(self, node: Any, allowed: set[str] | frozenset[str], what: str) -> YMap:
        if node is None:
            node = YMap()
            node.key_lines = {}
        if not isinstance(node, YMap):
            raise self.fail(node, None, f"{what} takes a mapping, got {node!r}")
        for key in node:
            if key not in allowed:
                raise self.fail(
                    node,
                    key,
                    f"unknown key {key!r} in {what}; allowed: {', '.join(sorted(allowed))}",
                )
        return node

    def require(self, node: YMap, key: str, what: str) -> Any:
        if key not in node:
            raise self.fail(node, None, f"{what} needs {key}:")
        return node[key]

    # -- cards -----------------------------------------------------------

    def card_def(self, name: str, entry: YMap | None = None) -> CardDef:
        """The card a name stands for: under ``cards:`` (``entry``, a set-up
        entry, may pick one of several definitions by its variant), from the
        card index with ``card_data:``, or else a vanilla card."""
        if self.card_data is not None or name in self.variants or picked_key(entry) is not None:
            return named_card(self, name, entry)
        found = self.cards.get(name)
        return found if found is not None else self.game.card_def(name)

    def card(self, node: Any, key: Any, value: Any = None) -> int:
        """The physical card a card reference names."""
        if value is None:
            if isinstance(node, dict) and key not in node:
                raise self.fail(node, None, f"a card reference is missing: give {key}:")
            value = node[key]
        try:
            return self.refs.card(value)
        except ArgumentError as exc:
            raise self.fail(node, key, exc.message) from None

    def pile_host(self, ref: ZoneRef, node: Any, key: Any) -> int:
        """The card whose pile a pile name (fab's ``alice.soul``) names."""
        try:
            return self.refs.pile_host(ref)
        except ArgumentError as exc:
            raise self.fail(node, key, exc.message) from None

    def pile_cards(self, ref: ZoneRef, node: Any, key: Any) -> list[int]:
        """The cards of a pile name, top first."""
        game = self.game
        rel = game.ruleset.piles[ref.type]
        host = self.pile_host(ref, node, key)
        return [k for k in game.kids(host) if game.obj(k).rel == rel]

    # -- zones -------------------------------------------------------------

    def zone_ref(self, node: Any, key: Any, value: Any = None, *, dest: bool = False) -> ZoneRef:
        if value is None:
            if isinstance(node, dict) and key not in node:
                raise self.fail(node, None, f"a zone reference is missing: give {key}:")
            value = node[key]
        try:
            return self.refs.zone_ref(value, dest=dest)
        except ArgumentError as exc:
            raise self.fail(node, key, exc.message) from None

    def is_pile(self, ref: ZoneRef) -> bool:
        return ref.type in self.game.ruleset.piles

    def zone_id(self, ref: ZoneRef, node: Any, key: Any) -> int | None:
        """The zone a reference names now, or None if it does not exist."""
        try:
            return self.refs.zone_id(ref)
        except ArgumentError as exc:
            raise self.fail(node, key, exc.message) from None

    def existing_zone(self, node: Any, key: Any, value: Any = None) -> int:
        ref = self.zone_ref(node, key, value)
        zid = self.zone_id(ref, node, key)
        if zid is None:
            raise self.fail(node, key, f"zone {ref} does not exist")
        return zid

    # -- scalars -------------------------------------------------------------

    def choice(self, node: YMap, key: str, options: tuple[str, ...], default: str | None) -> Any:
        if key not in node:
            return default
        value = node[key]
        if value not in options:
            raise self.fail(node, key, f"{key} is one of {', '.join(options)}, not {value!r}")
        return value

    def boolean(self, node: YMap, key: str, default: bool = False) -> bool:
        value = node.get(key, default)
        if not isinstance(value, bool):
            raise self.fail(node, key, f"{key} is true or false, not {value!r}")
        return value

    def integer(self, node: YMap, key: str) -> int:
        value = node[key]
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(node, key, f"{key} must be a whole number, not {value!r}")
        return value

    def label(self, node: YMap, key: str = "as") -> str | None:
        if key not in node:
            return None
        value = node[key]
        if not isinstance(value, str | int) or isinstance(value, bool) or str(value) == "":
            raise self.fail(node, key, f"{key} must be a name, not {value!r}")
        return str(value)


class Refs:
    """The scenario format's references, as the binder of the action tables
    asks for them (:class:`cardzones.acts.binding.Resolver`). Each method
    raises :class:`ArgumentError`, whose path the binder fills in."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.game = ctx.game

    # -- the Resolver protocol -------------------------------------------

    def card(self, value: Any) -> int:
        ref = parse_card(value)
        if ref is None:
            raise ArgumentError(f"{value!r} is not a card reference ($label, NAME@ZONE or ZONE[i])")
        return self._resolve_card(ref, str(value))

    def zone(self, value: Any) -> int:
        ref = self.zone_ref(value)
        zid = self.zone_id(ref)
        if zid is None:
            raise ArgumentError(f"zone {ref} does not exist")
        return zid

    def dest(self, value: Any) -> Dest:
        ref = self.zone_ref(value, dest=True)
        return Dest(ref.type, ref.owner, ref.number)

    def zone_name(self, value: Any) -> Dest:
        ref = self.zone_ref(value)
        if ref.owner is None:
            raise ArgumentError(
                f"{ref.type} is shared; this needs a player's zone, such as "
                f"{self.game.players[0]}.{_player_zone_example(self.game)}"
            )
        if self.ctx.is_pile(ref):
            raise ArgumentError(f"{ref} is not a zone here")
        return Dest(ref.type, ref.owner, ref.number)

    def player(self, value: Any) -> str:
        if not isinstance(value, str) or value not in self.game.players:
            raise ArgumentError(self.ctx.not_a_player(value))
        return value

    def card_def(self, name: str) -> CardDef:
        try:
            return self.ctx.card_def(name)
        except ScenarioError as exc:  # a name the card index or cards: cannot give
            raise ArgumentError(exc.message) from None

    def effect(self, label: Any) -> Any:
        effects = self.ctx.effects
        key = str(label)
        if key not in effects:
            known = ", ".join(sorted(effects)) or "none"
            raise ArgumentError(f"unknown effect label {key!r} (labels: {known})")
        return effects[key]

    # -- references --------------------------------------------------------

    def zone_ref(self, value: Any, *, dest: bool = False) -> ZoneRef:
        """A checked zone reference; ``dest`` allows the forms only a
        destination may take (``owner.TYPE``, ``you.TYPE``, ``arena``)."""
        game = self.game
        ruleset = game.ruleset
        ref = parse_zone(value)
        if ref is None:
            raise ArgumentError(f"{value!r} is not a zone reference")
        types = self.ctx.zone_types
        known = ref.type in types or ref.type in ruleset.destinations or ref.type in ruleset.piles
        if not known:
            raise ArgumentError(
                f"unknown zone type {ref.type!r} in {value!r}; types are {' '.join(sorted(types))}"
            )
        if ref.type in ruleset.destinations and (ref.owner is not None or not dest):
            rule = ruleset.destinations[ref.type]
            why = f" ({rule})" if rule else ""
            raise ArgumentError(f"{ref.type} is not a zone; it is only a destination{why}")
        if ref.owner not in (None, "owner", "you", *game.players):
            raise ArgumentError(self.ctx.not_a_player(ref.owner, f"{ref.owner!r} in {value!r}"))
        if ref.owner in ("owner", "you") and not dest:
            raise ArgumentError(f"{value!r}: {ref.owner}. is only for destinations")
        spec = ruleset.zone_specs.get(ref.type)
        if spec is not None and spec.shared and ref.owner is not None:
            raise ArgumentError(f"{ref.type} is shared and has no owner")
        if spec is not None and not spec.shared and ref.owner is None and not dest:
            raise ArgumentError(f"{value!r}: say whose {ref.type} (e.g. alice.{ref.type})")
        return ref

    def zone_id(self, ref: ZoneRef) -> int | None:
        """The zone a reference names now, or None if it does not exist."""
        ruleset = self.game.ruleset
        if ref.type in ruleset.piles or ref.type in ruleset.destinations:
            raise ArgumentError(f"{ref} is not a zone here")
        return self.game.zone(ref.owner, ref.type, ref.number or 1)

    def pile_host(self, ref: ZoneRef) -> int:
        owner = ref.owner
        if owner is None or owner not in self.game.players:
            raise ArgumentError(self.ctx.not_a_player(owner))
        try:
            return self.game.ruleset.pile_host(self.game, owner, ref.type)
        except IllegalAction as exc:
            raise ArgumentError(f"{ref} names nothing: {exc}") from None

    def pile(self, ref: ZoneRef) -> list[int]:
        """The cards of a zone for NAME@ZONE: each top-level card, top first,
        followed by the cards under or on it; or the cards of a pile name."""
        game = self.game
        if self.ctx.is_pile(ref):
            rel = game.ruleset.piles[ref.type]
            return [k for k in game.kids(self.pile_host(ref)) if game.obj(k).rel == rel]
        zid = self.zone_id(ref)
        if zid is None:
            raise ArgumentError(f"zone {ref} does not exist")
        out: list[int] = []

        def walk(card: int) -> None:
            out.append(card)
            for kid in game.kids(card):
                walk(kid)

        for card in game.contents(zid):
            walk(card)
        return out

    def _resolve_card(self, ref: CardRef, text: str) -> int:
        game = self.game
        labels = self.ctx.labels
        if ref.kind == "label":
            assert ref.label is not None
            if ref.label not in labels:
                known = ", ".join(f"${k}" for k in sorted(labels)) or "none"
                raise ArgumentError(f"unknown label ${ref.label} (labels: {known})")
            return labels[ref.label]
        assert ref.zone is not None
        zone = self.zone_ref(str(ref.zone))
        pile = self.pile(zone)
        if ref.kind == "index":
            assert ref.position is not None
            top = [c for c in pile if game.obj(c).host is None] or list(pile)
            if not -len(top) <= ref.position < len(top):
                raise ArgumentError(f"{text}: {ref.zone} has {len(top)} card(s)")
            return top[ref.position]
        for card in pile:
            if game.obj(card).cdef.name == ref.name:
                return card
        raise ArgumentError(f"{text}: there is no {ref.name} in {ref.zone}")


def _player_zone_example(game: Game) -> str:
    """A zone type every player has, for messages: the hand when there is one."""
    types = [spec.type for spec in game.ruleset.zone_specs.values() if not spec.shared]
    return "hand" if "hand" in types or not types else types[0]

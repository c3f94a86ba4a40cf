"""The context one scenario runs in: its game, labels, marks and effect labels,
and the helpers that turn references in the file into ids, with ``file:line``
errors."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardzones.errors import ScenarioError
from cardzones.kernel.cards import CardDef, Dest
from cardzones.kernel.game import Game
from cardzones.kernel.objects import UNDER
from cardzones.scenario.card_data import indexed_card
from cardzones.scenario.loader import YList, YMap
from cardzones.scenario.refs import CardRef, ZoneRef, parse_card, parse_zone

if TYPE_CHECKING:
    from cardzones.cards.lookup import CardLookup

PSEUDO_ZONES = {"fab": ("arena", "soul"), "redemption": ()}


def line_of(node: Any, key: Any) -> int | None:
    """The line of ``node[key]``, or of ``node`` itself."""
    if isinstance(node, YMap) and isinstance(key, str):
        return node.line_of(key)
    if isinstance(node, YList) and isinstance(key, int):
        return node.line_of(key)
    line: int | None = getattr(node, "line", None)
    return line


class Context:
    """Everything a step may refer to."""

    def __init__(
        self,
        game: Game,
        ruleset: str,
        file: str,
        cards: dict[str, CardDef],
        card_data: CardLookup | None = None,
    ) -> None:
        self.game = game
        self.ruleset = ruleset
        self.file = file
        self.cards = cards
        self.card_data = card_data
        self.labels: dict[str, int] = {}
        self.marks: dict[str, tuple[int, int]] = {}
        self.effects: dict[str, Any] = {}
        self.zone_types = set(game.ruleset.zone_specs)

    # -- errors --------------------------------------------------------

    def fail(self, node: Any, key: Any, message: str) -> ScenarioError:
        return ScenarioError(message, file=self.file, line=line_of(node, key))

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
        """The card a name stands for: under ``cards:``, from the card index with
        ``card_data:`` (``entry``, a setup entry, may pick a ``pitch``), or vanilla."""
        if self.card_data is not None or (entry is not None and "pitch" in entry):
            return indexed_card(self, name, entry)
        found = self.cards.get(name)
        return found if found is not None else self.game.card_def(name)

    def card(self, node: Any, key: Any, value: Any = None) -> int:
        """The physical card a card reference names."""
        if value is None:
            if isinstance(node, dict) and key not in node:
                raise self.fail(node, None, f"a card reference is missing: give {key}:")
            value = node[key]
        ref = parse_card(value)
        if ref is None:
            raise self.fail(
                node, key, f"{value!r} is not a card reference ($label, NAME@ZONE or ZONE[i])"
            )
        return self._resolve_card(ref, node, key, value)

    def cards_list(self, node: YMap, key: str) -> list[int]:
        value = node.get(key)
        if isinstance(value, str):
            return [self.card(node, key)]
        if not isinstance(value, YList) or not value:
            raise self.fail(node, key, f"{key} must be a list of card references")
        out = [self.card(value, i, v) for i, v in enumerate(value)]
        if len(set(out)) != len(out):
            raise self.fail(node, key, f"{key} names the same card twice")
        return out

    def _resolve_card(self, ref: CardRef, node: Any, key: Any, text: str) -> int:
        game = self.game
        if ref.kind == "label":
            assert ref.label is not None
            if ref.label not in self.labels:
                known = ", ".join(f"${k}" for k in sorted(self.labels)) or "none"
                raise self.fail(node, key, f"unknown label ${ref.label} (labels: {known})")
            return self.labels[ref.label]
        assert ref.zone is not None
        pile = self.pile(ref.zone, node, key)
        if ref.kind == "index":
            assert ref.position is not None
            top = [c for c in pile if game.obj(c).host is None] or list(pile)
            if not -len(top) <= ref.position < len(top):
                raise self.fail(node, key, f"{text}: {ref.zone} has {len(top)} card(s)")
            return top[ref.position]
        for card in pile:
            if game.obj(card).cdef.name == ref.name:
                return card
        raise self.fail(node, key, f"{text}: there is no {ref.name} in {ref.zone}")

    def pile(self, ref: ZoneRef, node: Any, key: Any) -> list[int]:
        """The cards of a zone for NAME@ZONE: each top-level card, top first,
        followed by the cards under or on it."""
        game = self.game
        if ref.type == "soul":
            hero = self.hero(ref, node, key)
            return [k for k in game.kids(hero) if game.obj(k).rel == UNDER]
        zid = self.zone_id(ref, node, key)
        if zid is None:
            raise self.fail(node, key, f"zone {ref} does not exist")
        out: list[int] = []

        def walk(card: int) -> None:
            out.append(card)
            for kid in game.kids(card):
                walk(kid)

        for card in game.contents(zid):
            walk(card)
        return out

    def hero(self, ref: ZoneRef, node: Any, key: Any) -> int:
        player = self.player_name(ref.owner, node, key)
        zid = self.game.zone(player, "hero")
        cards = self.game.contents(zid) if zid is not None else ()
        if not cards:
            raise self.fail(node, key, f"{player} has no hero, so {ref} names nothing")
        return cards[0]

    # -- zones -------------------------------------------------------------

    def zone_ref(self, node: Any, key: Any, value: Any = None, *, dest: bool = False) -> ZoneRef:
        if value is None:
            if isinstance(node, dict) and key not in node:
                raise self.fail(node, None, f"a zone reference is missing: give {key}:")
            value = node[key]
        ref = parse_zone(value)
        pseudo = PSEUDO_ZONES.get(self.ruleset, ())
        if ref is None:
            raise self.fail(node, key, f"{value!r} is not a zone reference")
        if ref.type not in self.zone_types and ref.type not in pseudo:
            raise self.fail(
                node,
                key,
                f"unknown zone type {ref.type!r} in {value!r}; types are "
                f"{' '.join(sorted(self.zone_types))}",
            )
        if ref.type == "arena" and (ref.owner is not None or not dest):
            raise self.fail(node, key, "arena is not a zone; it is only a destination (3.0.5a)")
        if ref.owner not in (None, "owner", "you", *self.game.players):
            raise self.fail(node, key, f"unknown player {ref.owner!r} in {value!r}")
        if ref.owner in ("owner", "you") and not dest:
            raise self.fail(node, key, f"{value!r}: {ref.owner}. is only for destinations")
        spec = self.game.ruleset.zone_specs.get(ref.type)
        if spec is not None and spec.shared and ref.owner is not None:
            raise self.fail(node, key, f"{ref.type} is shared and has no owner")
        if spec is not None and not spec.shared and ref.owner is None and not dest:
            raise self.fail(node, key, f"{value!r}: say whose {ref.type} (e.g. alice.{ref.type})")
        return ref

    def player_name(self, name: str | None, node: Any, key: Any) -> str:
        if name is None or name not in self.game.players:
            raise self.fail(node, key, f"{name!r} is not a player")
        return name

    def zone_id(self, ref: ZoneRef, node: Any, key: Any) -> int | None:
        """The zone a reference names now, or None if it does not exist."""
        if ref.type in ("soul", "arena"):
            raise self.fail(node, key, f"{ref} is not a zone here")
        return self.game.zone(ref.owner, ref.type, ref.number or 1)

    def existing_zone(self, node: Any, key: Any, value: Any = None) -> int:
        ref = self.zone_ref(node, key, value)
        zid = self.zone_id(ref, node, key)
        if zid is None:
            raise self.fail(node, key, f"zone {ref} does not exist")
        return zid

    def dest(self, node: Any, key: Any, value: Any = None) -> Dest:
        ref = self.zone_ref(node, key, value, dest=True)
        return Dest(ref.type, ref.owner, ref.number)

    def choose_zone(self, node: YMap) -> int | None:
        if "choose_zone" not in node:
            return None
        ref = self.zone_ref(node, "choose_zone")
        zid = self.zone_id(ref, node, "choose_zone")
        if zid is None:
            raise self.fail(node, "choose_zone", f"zone {ref} does not exist")
        return zid

    def player(self, node: YMap, key: str = "by", default: str | None = None) -> str:
        if key not in node:
            return default if default is not None else self.game.turn_player
        value = node[key]
        if value not in self.game.players:
            raise self.fail(
                node, key, f"{value!r} is not a player ({', '.join(self.game.players)})"
            )
        return str(value)

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

    def delta(self, node: YMap, key: str) -> int:
        """A modifier such as ``+2`` or ``-1`` (YAML reads ``+2`` as 2)."""
        value = node[key]
        if isinstance(value, str):
            try:
                return int(value.strip())
            except ValueError:
                pass
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(node, key, f"{key} must be a number such as +2 or -1, not {value!r}")
        return value

    def label(self, node: YMap, key: str = "as") -> str | None:
        if key not in node:
            return None
        value = node[key]
        if not isinstance(value, str | int) or isinstance(value, bool) or str(value) == "":
            raise self.fail(node, key, f"{key} must be a name, not {value!r}")
        return str(value)

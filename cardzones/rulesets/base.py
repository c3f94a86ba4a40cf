"""The class a game subclasses: everything a rule set gives cardzones.

The kernel asks a rule set about zones (:class:`cardzones.kernel.Ruleset`:
zone types as data and the hooks of the move pipeline). :class:`Ruleset` adds
what the rest of cardzones reads: the action table that players and scripts
act with (:mod:`cardzones.acts`), and the fields of the game's card data.
docs/writing-a-ruleset.md follows a complete example.

>>> from cardzones.acts import END_TURN, action_table
>>> class Pile(Ruleset):
...     name = "pile"
...     actions = action_table(END_TURN)
>>> from cardzones.kernel import Game
>>> game = Game(Pile(), ["alice", "bob"])
>>> game.act("end_turn").result.value, game.turn_player
('done', 'bob')
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

from cardzones.acts.actions import NO_ACTIONS, ActionTable, Param, ParamKind
from cardzones.acts.binding import complete
from cardzones.acts.legal import legal_actions
from cardzones.acts.legal_action import LegalAction
from cardzones.errors import CardzonesError, IllegalAction, UnknownReference
from cardzones.kernel import ruleset as kernel
from cardzones.kernel.cards import Ability, CardDef
from cardzones.kernel.results import ActionResult
from cardzones.rulesets.cardfiles import (
    NO_VARIANTS,
    CardFormat,
    CardSource,
    DeckEntry,
    DeckList,
    DeckListError,
    Variants,
)

if TYPE_CHECKING:
    from cardzones.kernel.game import Game


class DeckRefused(CardzonesError):
    """A deck list cannot start a game of the rule set; the message says why."""


class DeckCard(NamedTuple):
    """One card of a deck list as the card index found it: the card, its
    number among its rule set's variants (:class:`Variants`) and the list's
    section: ``main`` (placed by its type), ``out`` (in no zone), or a
    section of the list's own, such as a LackeyCCG superzone (``deck``,
    ``reserve``)."""

    cdef: CardDef
    number: int | None = None
    section: str = "main"


class Placement(NamedTuple):
    """Where a deck list's cards start: ``placed`` names a zone
    (``alice.weapon.1``) for cards by their place in the list, zone by zone
    and the deck top first; ``out`` are the cards that start in no zone."""

    placed: list[tuple[str, int]]
    out: list[int]


class ChainLink(NamedTuple):
    """One link of a rule set's chain of attacks (fab's combat chain, 7.0.3),
    as expectations ask about it: its ``number`` (1 the first), its
    ``attack`` (a card id: the attack may have ceased or left since, and
    ``name`` is what last known information keeps of it, 1.2.3) and the
    cards ``defending`` on it now."""

    number: int
    attack: int
    name: str
    defending: tuple[int, ...]


class Numbers(NamedTuple):
    """The numbers a game's cards have, as the actions both shipped games
    share and a scenario's ``expect card`` read them: ``modified`` are those
    a ``modify`` changes and an expectation checks by their name
    (``power: 3``); ``counted`` are those a counter named for one changes
    (``+1_power``). A number neither names is its rule set's alone.

    >>> Numbers(("strength",), ("strength",)).modified
    ('strength',)
    """

    modified: tuple[str, ...] = ()
    counted: tuple[str, ...] = ()


class Exposable(NamedTuple):
    """The zone types a scenario may expect to be exposed, holding nothing
    (fab 3.0.1a: an equipment zone without equipment), and what they are
    called together, in the game's words."""

    called: str = ""
    types: tuple[str, ...] = ()


@dataclass(frozen=True)
class Board:
    """How a board lays out a player's mat, served with the rule set by
    ``GET /api/rulesets`` so that the board's page names no game.

    ``areas`` puts zone types in areas of the mat (one of several zones of a
    type gets its number: ``weapon`` gives ``weapon1`` and ``weapon2``);
    ``rows`` lays the areas out as a grid, the player's own side first (the
    opponent's mat is turned to face it); ``order`` is the areas' order on a
    narrow screen, where ``wide`` ones take a whole row; ``piles`` names, by
    zone type, the pile a zone shows as a place to drop a card (fab's soul,
    under the hero); ``labels`` are zone types' names in words, where the
    type's own words are not enough; ``stacked`` are the zone types shown as a
    pile of face-up cards (one card high, with a count, opened to browse);
    ``symbols`` are the marks of its cards' rules text (``{r}``), each as its
    words and a glyph; ``life_shown`` are the card types whose life total a
    mat shows by its player's name; ``coloured`` are the numbers a card's
    face shows in a colour, each by its value with the colour's name (red,
    yellow, blue, green, purple, white, black, grey); ``battle`` names the
    fields of its procedure's battle (the view's ``procedure``) that hold
    each side's characters (``good``, ``evil``), and what a battle is fought
    for while its card is not known (``prize``). A rule set without one gets
    its zones side by side.

    >>> Board({"deck": "deck"}, ("deck",)).to_json()["rows"]
    ['deck']
    """

    areas: Mapping[str, str] = field(default_factory=dict)
    rows: tuple[str, ...] = ()
    order: tuple[str, ...] = ()
    wide: tuple[str, ...] = ()
    piles: Mapping[str, str] = field(default_factory=dict)
    labels: Mapping[str, str] = field(default_factory=dict)
    stacked: tuple[str, ...] = ()
    symbols: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    life_shown: tuple[str, ...] = ()
    coloured: Mapping[str, Mapping[int, str]] = field(default_factory=dict)
    battle: Mapping[str, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "areas": dict(self.areas),
            "rows": list(self.rows),
            "order": list(self.order),
            "wide": list(self.wide),
            "piles": dict(self.piles),
            "labels": dict(self.labels),
            "stacked": list(self.stacked),
            "symbols": {mark: list(said) for mark, said in self.symbols.items()},
            "life_shown": list(self.life_shown),
            "battle": dict(self.battle),
            "coloured": {
                stat: {str(value): colour for value, colour in colours.items()}
                for stat, colours in self.coloured.items()
            },
        }


#: What :meth:`Ruleset.act` takes for a parameter that names a card or a zone,
#: and how a caller gets it from a name.
_RESOLVED_FORMS = {
    "card": "a card id (such as game.contents(zone)[0])",
    "cards": "card ids (such as game.contents(zone))",
    "zone": "a zone id (such as game.zone(PLAYER, TYPE): game.zone('alice', 'deck'))",
    "dest": "a destination (a zone id, such as game.zone(PLAYER, TYPE), or a Dest)",
}


class Ruleset(kernel.Ruleset["Game"]):
    """A game: the kernel's rule set (zones and the hooks of the move
    pipeline), with the data the rest of cardzones reads:

    - ``actions``: its action table (:mod:`cardzones.acts`), which scenarios,
      the table, legal actions and :meth:`Game.act` all take actions from;
    - ``card_params``: the fields of its card data, made into a card by
      :meth:`make_card`, and written back by :meth:`card_fields`;
    - ``rules`` and ``excluded_rules``: the rule ids it implements, and those
      of its texts it leaves out with the reason (``cardzones coverage``);
    - ``text_ids``: every id its rules texts have, headings included, and
      ``rule_id_pattern``: the form of such an id. A scenario's ``rules:``
      entry of that form must be one of the ids; any other entry is a
      citation in words (``"place: movement of placed cards"``);
    - ``board``: how a board lays out a player's mat (:class:`Board`);
    - ``deck_list_help`` and ``deck_list_example``: how the game's deck lists
      are written, in words and by an example, for the page that starts a
      table from them;
    - ``card_formats`` and ``card_source``: the formats of its card database,
      each with its reader, and where the newest database is downloaded from
      (:mod:`cardzones.rulesets.cardfiles`); :meth:`read_deck_list` reads its
      deck lists, and :meth:`takes_deck_list` tells one from another game's;
    - ``variants``: how its cards of one name are told apart by a number, in
      its own words (:class:`Variants`: fab's pitch, 1 to 3, red to blue),
      or :data:`NO_VARIANTS`;
      ``printed_fields``: the fields of a card's provenance
      (:attr:`~cardzones.rulesets.cardfiles.CardRecord.source`) that
      ``cardzones cards show`` shows as printed, in its database's words;
      ``named_printings``: a card of a deck list is written down by a name
      that finds its printing alone; ``out_of_game``: where a deck list's
      cards in no zone are, in words;
    - ``attach_keys``: the set-up words of a start position that put a card
      under or on another (``under``, ``onto``), with their relation;
    - ``permanent_control``: whether cards have a permanent controller apart
      from their controller (a start position may name one);
    - ``has_procedure``: whether it has a game procedure
      (:meth:`begin_procedure`), which a table may be asked to run;
    - ``numbers``: the numbers of its cards that ``modify``, counters and
      expectations name (:class:`Numbers`);
    - ``exposable``: the zone types a scenario may expect to be exposed
      (:class:`Exposable`).
    """

    actions: ActionTable = NO_ACTIONS
    card_params: tuple[Param, ...] = ()
    rules: Mapping[str, str] = {}
    excluded_rules: Mapping[str, str] = {}
    text_ids: frozenset[str] = frozenset()
    rule_id_pattern: str | None = None
    board: Board = Board()
    deck_list_help: str = ""
    deck_list_example: str = ""
    card_formats: tuple[CardFormat, ...] = ()
    card_source: CardSource | None = None
    variants: Variants = NO_VARIANTS
    named_printings: bool = False
    printed_fields: tuple[str, ...] = ()
    out_of_game: str = "in no zone"
    attach_keys: Mapping[str, int] = {}
    permanent_control = False
    has_procedure = False
    numbers: Numbers = Numbers()
    exposable: Exposable = Exposable()

    # -- cards -------------------------------------------------------------

    def expected_numbers(self) -> tuple[str, ...]:
        """The numbers of its cards a card expectation may name: those
        ``numbers`` declares, or, for a rule set that declares none, the
        whole-number fields of its card data."""
        if self.numbers.modified:
            return self.numbers.modified
        return tuple(p.name for p in self.card_params if p.kind is ParamKind.INT)

    def make_card(
        self, name: str, fields: Mapping[str, Any], abilities: Sequence[Ability] = ()
    ) -> CardDef:
        """The card that card data describes: ``fields`` has every one of
        :attr:`card_params` (resolved, or its default)."""
        return CardDef(name, abilities=tuple(abilities))

    def card_fields(self, cdef: CardDef) -> dict[str, Any]:
        """The card data that :meth:`make_card` makes ``cdef`` from again (its
        abilities aside): how a card from elsewhere, such as a card database,
        is written down as card data. A rule set that overrides
        :meth:`make_card` overrides this too; what this gives is checked by
        making the card again, so a card it cannot write is refused, never
        changed."""
        return {}

    # -- what expectations ask -------------------------------------------------

    def is_set_aside(self, game: Game, card: int) -> bool:
        """Whether the card is set aside (in a set-aside area)."""
        return False

    def layers(self, game: Game) -> tuple[int, ...] | None:
        """The layers of the rule set's stack, layer 1 (the bottom) first, or
        None when it has no stack of layers."""
        return None

    def layer_source(self, game: Game, layer: int) -> int | None:
        """The card a layer that is not a card comes from (the source of an
        activated or triggered ability, or of an attack), or None."""
        return None

    def is_tapped(self, game: Game, card: int) -> bool | None:
        """Whether the card is a tapped permanent, or None when the rule set's
        permanents have no tapped state."""
        return None

    def chain_links(self, game: Game) -> tuple[ChainLink, ...] | None:
        """The links of the rule set's chain of attacks, the first first, or
        None when it has no such chain."""
        return None

    # -- deck lists ----------------------------------------------------------

    def read_deck_list(self, text: str, file: str = "<deck>") -> DeckList:
        """The deck list ``text`` (from ``file``, for messages), read as the
        game's players write their lists; :class:`DeckListError` says what
        is wrong with one. A rule set without deck lists reads none."""
        raise DeckListError(f"{file}: {self.name} has no deck lists to read")

    def takes_deck_list(self, file: str, text: str) -> bool:
        """Whether ``text``, of the file called ``file``, is a deck list of
        this game rather than of another (``cardzones cards deck`` reads a
        file without being told its game)."""
        return False

    def deck_list_problem(self, entry: DeckEntry, name: str, numbers: Sequence[int | None]) -> str:
        """A card of a deck list found with the wrong variant or none, in the
        list's own words; ``name`` is the card's and ``numbers`` are those of
        its variants. Empty to let the card index say it."""
        return ""

    def place_deck(self, game: Game, player: str, cards: Sequence[DeckCard]) -> Placement:
        """Where the cards of ``player``'s deck list start, in ``game`` (a
        game of this rule set with that player alone, whose zones a rule set
        may fill to see what fits): by default a card of the ``main`` or
        ``deck`` section goes to the deck, in list order (a table shuffles
        its decks when it is made), one of a
        section named like a zone type to that zone (a LackeyCCG
        ``Reserve``), and any other to no zone. Raises :class:`DeckRefused`
        when the list cannot start a game.

        >>> from cardzones.rulesets import get_ruleset, new_game
        >>> ruleset = get_ruleset("redemption")
        >>> cards = [DeckCard(CardDef(n), None, s) for n, s in [("A", "deck"), ("B", "reserve")]]
        >>> ruleset.place_deck(new_game("redemption", ["al"]), "al", cards)
        Placement(placed=[('al.reserve', 1), ('al.deck', 0)], out=[])
        """
        placed: list[tuple[str, int]] = []
        out: list[int] = []
        deck: list[int] = []
        for i, card in enumerate(cards):
            if card.section in ("main", "deck"):
                deck.append(i)
            elif card.section in self.zone_specs:
                placed.append((f"{player}.{card.section}", i))
            else:
                out.append(i)
        placed.extend((f"{player}.deck", i) for i in deck)
        return Placement(placed, out)

    # -- the game procedure --------------------------------------------------

    def start_procedure(self, game: Game, first: str | None = None) -> None:
        """Put ``game`` under the rule set's game procedure, from the position
        it holds: its turns, priority and the players' acts, with ``first``
        (or a player the game's secret randomness chooses) taking the first
        turn. A rule set without a procedure refuses."""
        raise IllegalAction(f"{self.name} has no game procedure")

    # -- actions -----------------------------------------------------------

    def act(self, game: Game, name: str, args: Mapping[str, Any]) -> ActionResult:
        """The action ``name`` of :attr:`actions`, with its arguments as its
        ``run`` takes them, a left-out one at its default (:meth:`Game.act`)."""
        action = self.actions.get(name)
        if action is None:
            raise UnknownReference(
                f"unknown action {name!r} for {self.name}; actions are "
                + ", ".join(sorted(self.actions))
            )
        for param in action.params:
            key = param.name  # the parameter's name, not a card's
            value = args.get(key)
            wants = _RESOLVED_FORMS.get(param.kind.value)
            if isinstance(value, str) and wants is not None:
                # A name where the engine takes an id: say how to get the id,
                # rather than fail deep inside the move (a KeyError).
                raise UnknownReference(
                    f"{name}: {key}: Game.act takes {wants}, not the name {value!r}"
                )
        return action.run(game, complete(action, args))

    def legal_actions(
        self,
        game: Game,
        player: str,
        actions: Iterable[str] | None,
        *,
        card: int | None = None,
        zone: int | None = None,
        judge: bool = False,
    ) -> Sequence[LegalAction]:
        """What ``player`` may do now (:mod:`cardzones.acts.legal`): unless
        ``actions`` names some, or ``judge`` asks for every one, the actions
        the game's procedure allows now (:meth:`procedure_acts`)."""
        if actions is None and not judge:
            actions = self.procedure_acts(game)
        return legal_actions(game, player, actions, card=card, zone=zone, judge=judge)

    def procedure_acts(self, game: Game) -> tuple[str, ...] | None:
        """The names of the actions that are players' acts while ``game`` is
        under the rule set's game procedure, every other action being a
        judge's then; None when it is not (every action is a player's)."""
        return None


def ruleset_of(game: Game) -> Ruleset:
    """The rule set of ``game``, as a whole game: refused for a game of a rule
    set that gives the kernel its zones alone."""
    found = game.ruleset
    if not isinstance(found, Ruleset):
        raise UnknownReference(f"{game.ruleset.name} is a kernel rule set only: it has no actions")
    return found

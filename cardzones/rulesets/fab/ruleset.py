"""The Flesh and Blood rule set: zone admission, permanents, tokens, sub-cards,
triggers and the end of turn, as hooks on the kernel."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from cardzones.acts.actions import ArgumentError, Param, ParamKind
from cardzones.acts.menu_words import with_menu_words
from cardzones.errors import NeedsChoice
from cardzones.kernel.cards import Ability, CardDef, Dest, Move
from cardzones.kernel.objects import CARD, MACRO, TRIGGERED, UNDER, Obj
from cardzones.kernel.results import MoveResult
from cardzones.kernel.ruleset import ADMITTED, Admission
from cardzones.rulesets.base import Board, ChainLink, DeckCard, Placement, Ruleset
from cardzones.rulesets.cardfiles import DeckEntry, DeckList
from cardzones.rulesets.common import TEXT_PARAMS, printed, text_fields
from cardzones.rulesets.fab import admission, cardfiles, decklist, decks, layers, procedure
from cardzones.rulesets.fab.carddata import PITCH
from cardzones.rulesets.fab.cards import (
    NUMBERS,
    becomes_permanent,
    is_deck_card,
    private_card,
    type_problem,
)
from cardzones.rulesets.fab.chain import LINKS, Chain, links, note_arrivals
from cardzones.rulesets.fab.equip import equip_admission
from cardzones.rulesets.fab.layers import ATTACK_PROXY, PROXIES, LayerRef, put_triggers_on_stack
from cardzones.rulesets.fab.looking import LookRef, end_looks, looking
from cardzones.rulesets.fab.menu_words import MENU_WORDS
from cardzones.rulesets.fab.moves import foresee_sub_card, hero_of, make_sub_card
from cardzones.rulesets.fab.pitch import (
    deck_for,
    final_order,
    forget_order,
    pitch_destination,
    pitch_move,
    seen_order,
)
from cardzones.rulesets.fab.proxies import follow_sources
from cardzones.rulesets.fab.quiet_points import QuietPoint
from cardzones.rulesets.fab.rule_ids import (
    CHAPTER_3_IDS,
    NOT_ENGINE_RULES,
    RELATED_IDS,
    RULES,
    SECTION_IDS,
)
from cardzones.rulesets.fab.table import ACTIONS
from cardzones.rulesets.fab.tapping import is_tapped
from cardzones.rulesets.fab.turn import cease_proxies_without_source
from cardzones.rulesets.fab.zones import EXPOSABLE, ZONE_SPECS

if TYPE_CHECKING:
    from cardzones.kernel.game import Game

#: The numeric properties of a fab card, in the order card data lists them.
STATS = ("power", "defense", "pitch", "cost", "life", "intellect", "arcane")

#: The fields of fab card data (types, subtypes and traits in one list).
CARD_PARAMS = (
    Param(
        "types",
        ParamKind.WORDS,
        default=("action",),
        doc="types, subtypes and traits, lower case; spaces become underscores",
    ),
    *(Param(stat, ParamKind.INT, doc=f"the printed {stat}") for stat in STATS),
    Param("keywords", ParamKind.WORDS, default=(), doc="keywords such as go_again"),
    *TEXT_PARAMS,
)


#: Where :meth:`FabRuleset.after_action` last found nothing to do, writing
#: nothing (:mod:`.quiet_points`).
_QUIET = QuietPoint("after every action")


class FabRuleset(Ruleset):
    """Flesh and Blood, Comprehensive Rules chapter 3 and the rules it refers to."""

    name = "fab"
    zone_specs = ZONE_SPECS
    clear_to = "graveyard"
    numbers = NUMBERS
    exposable = EXPOSABLE
    actions = with_menu_words(ACTIONS, MENU_WORDS)
    has_procedure = True
    card_params = CARD_PARAMS
    destinations = MappingProxyType({"arena": "3.0.5a"})
    piles = MappingProxyType({"soul": UNDER})
    #: What after_action reads: the combat chain's contents (its chain links,
    #: 7.0.3a) and any record but the links' (attack-proxies, the procedure),
    #: with the triggers noted. A move that touched none of it is quiet.
    quiet_moves = (frozenset({"combat_chain"}), frozenset({LINKS}))
    attach_keys = MappingProxyType({"under": UNDER})
    rules = RULES
    excluded_rules = NOT_ENGINE_RULES
    text_ids = frozenset((*SECTION_IDS, *CHAPTER_3_IDS, *RELATED_IDS, *RULES))
    rule_id_pattern = r"\d+(\.\d+)*[a-z]?"
    board = Board(
        areas={
            **{t: t for t in ("head", "chest", "arms", "legs", "hero", "weapon", "arsenal")},
            **{t: t for t in ("deck", "graveyard", "banished", "pitch")},
        },
        rows=(
            "head  chest  weapon1  hero   weapon2   deck",
            "arms  legs   arsenal  pitch  banished  graveyard",
        ),
        # The hero and what it holds first, then the piles (3.11.5).
        order=(
            *("hero", "weapon1", "weapon2", "arsenal", "head", "chest", "arms", "legs"),
            *("deck", "pitch", "graveyard", "banished"),
        ),
        piles={"hero": "soul"},
        labels={"permanent": "permanents"},
        stacked=("graveyard", "banished", "pitch"),
        life_shown=("hero",),
        coloured={PITCH.key: PITCH.words},
        # The marks of the card database's rules text: {r} is a resource point.
        symbols={
            "r": ("resource", "●"),
            "p": ("power", "⚔"),
            "d": ("defense", "◆"),
            "i": ("intellect", "✦"),
            "h": ("life", "♥"),
        },
    )
    deck_list_help = (
        "One card a line, as deck builders export them: Hero: Dorinthea Ironsong, "
        "Weapons: Dawnblade, 3 Snatch (red). FaBrary's and FaBDB's exports read as they are."
    )
    deck_list_example = "Hero: Dorinthea Ironsong\nWeapons: Dawnblade\n3 Snatch (red)"
    card_formats = cardfiles.FORMATS
    card_source = cardfiles.SOURCE
    variants = PITCH
    #: what its card database printed that the engine reads otherwise
    printed_fields = ("printed", "type_text")
    #: 4.1.6: a card of a player's card-pool outside the game is in their inventory.
    out_of_game = "inventory, in no zone (4.1.6)"

    def __init__(self) -> None:
        # The kernel reads these on every move and a listing on most judged
        # candidates: 3.11 specialises the read of an instance's own
        # attribute, not of a class attribute read through an instance.
        self.zone_specs, self.piles = self.zone_specs, self.piles
        self.quiet_moves = self.quiet_moves

    def __reduce__(self) -> tuple[type[FabRuleset], tuple[()]]:
        # Copied (copy.deepcopy of a game) or pickled as a new instance: a
        # rule set holds no state of a game, and a mapping proxy cannot be.
        return (type(self), ())

    def default_card(self, name: str) -> CardDef:
        return CardDef(name, types=frozenset({"action"}))

    def make_card(
        self, name: str, fields: Mapping[str, Any], abilities: Sequence[Ability] = ()
    ) -> CardDef:
        stats, text, image = printed(fields, STATS)
        types = fields.get("types", ("action",))
        problem = type_problem(types)
        if problem is not None:
            raise ArgumentError(problem, ("types",))
        return CardDef(
            name,
            frozenset(types),
            stats,
            frozenset(fields.get("keywords", ())),
            tuple(abilities),
            text=text,
            image=image,
        )

    def card_fields(self, cdef: CardDef) -> dict[str, Any]:
        out: dict[str, Any] = {"types": sorted(cdef.types)}
        out.update((stat, cdef.stats[stat]) for stat in STATS if stat in cdef.stats)
        if cdef.keywords:
            out["keywords"] = sorted(cdef.keywords)
        out.update(text_fields(cdef))
        return out

    def resolve_pseudo(self, game: Game, obj: Obj, dest: Dest, by: str) -> Dest | None:
        if dest.type == "arena":
            return Dest("permanent")  # 3.0.5a, 3.1.2
        return None

    def pile_host(self, game: Game, owner: str, pile: str) -> int:
        """``PLAYER.soul``: the cards under that player's hero (3.11.5)."""
        if pile != "soul":
            return super().pile_host(game, owner, pile)
        return hero_of(game, owner)

    def read_deck_list(self, text: str, file: str = "<deck>") -> DeckList:
        return decklist.read_fab_deck(text, file)

    def takes_deck_list(self, file: str, text: str) -> bool:
        return decklist.takes(file, text)

    def deck_list_problem(self, entry: DeckEntry, name: str, numbers: Sequence[int | None]) -> str:
        return decklist.problem_words(entry, name, numbers)

    def place_deck(self, game: Game, player: str, cards: Sequence[DeckCard]) -> Placement:
        """The hero, its equipment and the deck (3.11.4, 4.1.4a, 4.1.6)."""
        return decks.place_deck(game, player, cards)

    def move_to_pile(
        self, game: Game, move: Move, host: int, rel: int, *, foresee: bool = False
    ) -> MoveResult:
        """Into a hero's soul: a sub-card of the hero (3.11.5, 3.0.14)."""
        if foresee:
            return foresee_sub_card(game, move.card, host)
        return make_sub_card(game, move.card, host, move.by or game.turn_player)

    def admit_on(self, game: Game, obj: Obj, host: int, rel: int) -> Admission:
        """3.0.14: a sub-card is under a permanent or a card on the stack."""
        if rel == UNDER and not (
            game.is_permanent(host) or game.zone_info(game.obj(host).zone).type == "stack"
        ):
            why = "a sub-card must be under a permanent or a card on the stack"
            return Admission(why, rule="3.0.14")
        return ADMITTED

    #: A private card keeps its category and nothing else (3.0.7a, 1.3.2); the
    #: function itself, as the kernel asks it on every move of a private card.
    private_card = staticmethod(private_card)

    def admit(self, game: Game, obj: Obj, zid: int, by: str | None) -> Admission:
        """Whether the zone can contain the object, judged on what the rules
        know of it as it moves (:meth:`Game.characteristics`): a private object
        is only its category, so no limit can tell one private card of a
        category from another. What it reads of those characteristics, zone
        type by zone type, is declared in
        :data:`~cardzones.rulesets.fab.admission.ADMISSION_READS`.

        Asked on every move and every candidate a listing judges, it reads its
        tables through their module and tests a zone's other cards without a
        generator: CPython 3.11 calls a method of a name imported by ``from``
        through a bound method made at each call, and a generator that reads
        a local makes a cell for it at each call of the function."""
        info = game.zone_info(zid)
        spec = info.spec
        ztype = spec.type
        cdef = game.characteristics(obj)
        if "token" in cdef.types and obj.kind == CARD and not spec.in_arena:
            return Admission("a token exists only in the arena", rule="8.1.8a")
        if ztype == "stack":
            return ADMITTED  # 3.15.3: cards and non-card layers
        if ztype == "combat_chain" and obj.kind == ATTACK_PROXY:
            return ADMITTED  # 3.6.2: cards and attack-proxies
        if obj.kind != CARD and not (obj.kind == MACRO and spec.in_arena):
            return Admission(f"a {obj.kind} layer can only exist on the stack", rule="1.6.2b")
        rule = admission.OWN_DECK_CARDS_ONLY.get(ztype)
        if rule is not None:
            if obj.owner != info.owner:
                return Admission(
                    f"{game.zone_name(zid)} can only contain its owner's cards", rule=rule
                )
            if not is_deck_card(cdef):
                return Admission(f"{game.zone_name(zid)} can only contain deck-cards", rule=rule)
            if ztype == "arsenal" and not {obj.card}.issuperset(game.contents(zid)):
                return Admission(f"{game.zone_name(zid)} is not empty", rule="3.3.2a")
            return ADMITTED
        rule = admission.OWN_CARDS_ONLY.get(ztype)
        if rule is not None:
            if obj.owner != info.owner:
                return Admission(
                    f"{game.zone_name(zid)} can only contain its owner's cards", rule=rule
                )
            return ADMITTED
        if ztype == "hero":
            if "hero" not in cdef.types:
                return Admission("a hero zone can only contain a hero card", rule="3.11.2")
            if not {obj.card}.issuperset(game.contents(zid)):
                return Admission(f"{game.zone_name(zid)} already has a hero", rule="3.11.2")
            return ADMITTED
        if ztype == "permanent":
            if not becomes_permanent(cdef, ztype):
                return Admission("the card would not be a permanent there", rule="3.13.2")
            return ADMITTED
        if ztype == "combat_chain":
            return ADMITTED  # 3.6.2: cards (and attack-proxies)
        if spec.equipment:
            return equip_admission(game, obj, zid)
        return ADMITTED

    def ceases_on_move(self, game: Game, obj: Obj, dest_zid: int | None) -> bool:
        """8.1.8a: a token leaving the arena (not as a sub-card) ceases to exist;
        1.5.3: so does a macro; 1.6.2b: a non-card layer exists only on the stack."""
        kind = obj.kind
        if kind == CARD:  # the most moved: only a token leaving the arena ceases
            if "token" not in game.characteristics(obj).types:
                return False
            return dest_zid is None or not game.zone_info(dest_zid).spec.in_arena
        spec = game.zone_info(dest_zid).spec if dest_zid is not None else None
        if kind == "activated" or kind == TRIGGERED:
            return spec is None or spec.type != "stack"
        if kind == ATTACK_PROXY:  # 1.4.3: on the stack, then a chain link (3.6.2)
            return spec is None or spec.type not in ("stack", "combat_chain")
        if spec is not None and spec.in_arena:
            return False  # neither a token nor a macro ceases in the arena
        return kind == MACRO or "token" in game.characteristics(obj).types

    def is_permanent(self, game: Game, obj: Obj) -> bool:
        """1.3.3, 1.3.3a: a card in the arena that is a hero-, arena- or token-card,
        or a deck-card with a permanent subtype (not on the combat chain)."""
        if obj.kind != CARD or obj.rel == UNDER:
            return False
        info = game.zone_info(obj.zone)
        if not info.spec.in_arena:
            return False
        if info.spec.equipment and not obj.equipped:
            return False  # 8.5.41e
        # A private object is its category only (3.0.7a): a face-down deck-card
        # has no permanent subtype, a face-down hero- or arena-card is a permanent.
        return becomes_permanent(game.characteristics(obj), info.spec.type)

    def move_children(self, game: Game, before: Obj, after: Obj, reset: bool) -> None:
        # 3.0.14c: a top-card that stays the same object takes its sub-cards along.
        # One that becomes a new object has ceased to exist as its old self, so its
        # sub-cards are cleared (3.0.14e).
        if not reset:
            for kid in game.kids(before.card):
                game.carry(kid, after)
            return
        for kid in game.kids(before.card):
            game.clear(kid)

    def foresee_children(self, game: Game, before: Obj, zid: int, reset: bool) -> bool | None:
        """What :meth:`move_children` gives, judged: carried along, the
        sub-cards always go (3.0.14c); cleared, each goes to its owner's
        graveyard (3.0.14e, 3.0.12), judged as the clear is, None where that
        cannot tell or would need a choice of graveyard (3.0.10a). A sub-card
        with cards of its own goes along or is cleared with them in turn: only
        the move tells."""
        kids = game.kids(before.card)
        if any(game.kids(kid) for kid in kids):
            return None
        if not reset:
            return True
        for kid in kids:
            try:
                if game.foresee_clear(kid) is None:
                    return None
            except NeedsChoice:
                return None
        return True

    def may_play(self, game: Game, card: int, player: str) -> bool:
        """3.3.4: the owner may play a card from their hand or arsenal; a card may
        also be played from a zone its ``play_from`` names, if it is public
        there (3.0.4e) and its history meets the condition (3.0.9c)."""
        if not game.exists(card):
            return False
        obj = game.obj(card)
        if obj.kind != CARD or obj.rel == UNDER or obj.owner != player:
            return False
        info = game.zone_info(obj.zone)
        if info.owner != player:
            return False
        ztype = info.spec.type
        if ztype in ("hand", "arsenal"):
            return True
        # Its abilities as the player knows them: none for a private card they
        # may not look at (a card in their deck), whatever it is (3.0.7a, 3.7.4).
        for ability in game.characteristics(obj, by=player).play_from:
            if ability.zone != ztype:
                continue
            if not obj.public and not ability.face_down:
                continue
            cond = ability.condition
            if cond is not None:
                origin = obj.origin
                if origin is None:
                    continue
                if cond.moved_from is not None and origin.from_type != cond.moved_from:
                    continue
                if cond.to is not None and origin.to_type != cond.to:
                    continue
                if cond.this_turn and origin.turn != game.turn:
                    continue
            return True
        return False

    def layers(self, game: Game) -> tuple[int, ...]:
        """The stack's layers, layer 1 (the bottom) first (3.15.4)."""
        return layers.layers(game)

    def layer_source(self, game: Game, layer: int) -> int | None:
        """The source of an activated-, triggered- or attack-layer (1.6.1a, 1.4.3b)."""
        data = game.obj(layer).data
        return data.source if isinstance(data, layers.LayerData) else None

    def is_tapped(self, game: Game, card: int) -> bool:
        """1.3.3b: whether the card is a tapped permanent."""
        return is_tapped(game, card)

    def chain_links(self, game: Game) -> tuple[ChainLink, ...]:
        """The combat chain's links, chain link 1 first (7.0.3)."""
        return links(game)

    def handle_active(self, game: Game, handle: object) -> bool:
        """A layer an action added is active while it is on the stack; an
        allowed look while it lasts (3.7.4)."""
        if isinstance(handle, LookRef):
            return looking(game, handle.player, handle.zone)
        return isinstance(handle, LayerRef) and game.exists(handle.card)

    def begin_turn(self, game: Game) -> None:
        """The looks effects allowed for the turn are over (3.7.4)."""
        end_looks(game)

    def next_turn_player(self, game: Game) -> str:
        """4.4.4: the next player in clockwise order; under the procedure a
        player who lost and left the game is passed over (4.5.1a)."""
        return procedure.next_turn_player(game)

    def after_action(self, game: Game) -> None:
        """The rules that look at the game after every action, each only
        where it can apply: this runs after every move, and most moves touch
        neither the combat chain, nor an attack-proxy, nor a game under the
        procedure.

        Each guard is the first test of its rule, read once: the chain links
        change only when the combat chain's contents did (the game keeps a
        zone's contents as one tuple, so an action that left them alone left
        the recorded tuple itself); attack-proxies are recorded as they are
        made and forgotten once none exists; the end of the game is a state
        of the procedure's record. What it reads is declared in
        :attr:`quiet_moves`, so the kernel does not call it after a move that
        touched none of it (one off and onto other zones, no trigger noted).

        Under the procedure, where priority was handed on alone since the
        hook last found nothing to do, it finds nothing again
        (:mod:`.quiet_points`): most acts of such a game are those passes."""
        under = game.record(procedure.PROCEDURE) is not None
        point = game.point if under else None
        if under and _QUIET.still(point):
            return
        # Each record read without the records' view: this runs after every action.
        record: Chain | None = game.record(LINKS)
        if record is not None and record.zone is not None:
            # The combat chain is one zone for the whole game (fab never makes
            # or removes a shared zone, 3.0.10b), the one its record was read from.
            if game.contents(record.zone) is not record.cards:
                note_arrivals(game, record.zone)  # 7.0.3a, 7.0.5a; 1.4.3c
        else:
            chain = game.zones_of(None, "combat_chain")
            if chain and (record is not None or game.contents(chain[0])):
                note_arrivals(game, chain[0])  # 7.0.3a, 7.0.5a; 1.4.3c
        if game.record(PROXIES) is not None:
            cease_proxies_without_source(game)  # 1.4.3c
            follow_sources(game)  # 1.4.3a, 1.4.3d
        pending = game.take_pending_triggers()
        if pending:
            put_triggers_on_stack(game, pending)
        if under:
            procedure.check_end(game)  # 4.5.3a, a game state action (1.10.2)
            if game.point is point:
                _QUIET.found_nothing(point)

    def start_procedure(self, game: Game, first: str | None = None) -> None:
        """The start of a game under the procedure (4.1, :mod:`.procedure`)."""
        procedure.start_game(game, first)

    def procedure_view(self, game: Game, player: str | None) -> dict[str, Any] | None:
        # Every view asks, and most games are not under the procedure: without
        # its record there is nothing to show, found by one lookup.
        if game.record(procedure.PROCEDURE) is None:
            return None
        return procedure.procedure_view(game, player)

    def procedure_acts(self, game: Game) -> tuple[str, ...] | None:
        """Under the procedure, its acts; every other action (a move by hand)
        is a judge's then."""
        return procedure.ACTS if procedure.active(game) else None

    def end_turn(self, game: Game, order: tuple[int, ...]) -> None:
        """4.4.3c: each player puts the cards of their pitch zone on the bottom of
        their deck, in an order that is hidden information.

        Each player chooses the order of their own pitch (``pitch_order``, or
        ``order`` here); the cards they leave out take a secret order drawn
        from the game's seed (:func:`~cardzones.rulesets.fab.pitch.final_order`).
        Of several decks, each card's owner chooses (3.0.10a). The cards are
        moved one by one in an order every player saw, each straight to the
        place it will have, so that no one's log tells which card lies where."""
        for player in game.players:
            found = pitch_destination(game, player)
            if found is None:
                continue
            pitch = found[0]
            if not game.contents(pitch):  # most ends of turns find a pitch zone empty
                forget_order(game, player)
                continue
            rank = {card: i for i, card in enumerate(final_order(game, player, order))}
            moved: list[int] = []
            for card in seen_order(game, pitch):
                # Of several decks, the one its owner chose (3.0.10a).
                target = deck_for(game, card, player)
                deck = target if isinstance(target, int) else None
                # The cards already at the bottom that will lie below this one.
                below = sum(
                    1
                    for other in moved
                    if rank[other] > rank[card]
                    and game.location(other) == deck
                    and game.host(other) is None
                )
                held = len(game.contents(deck)) if deck is not None else 0
                game.move(pitch_move(card, target, player, held - below))
                moved.append(card)
            forget_order(game, player)

"""fab judges a move once per listing for every card alike
(cardzones.rulesets.fab.move_foresight): cards that differ only in what the
move does not read share a judgement, and cards that differ in what it reads
do not. Each position here puts such cards side by side, and the judged list
must be exactly the tried one.
"""

from __future__ import annotations

from typing import Any

import pytest
from test_legal import PLAYERS
from test_legal_generated import said

from cardzones import new_game
from cardzones.acts.legal import legal_actions, tried_legal_actions
from cardzones.kernel.cards import CardDef, Dest, Replacement
from cardzones.kernel.game import Game
from cardzones.kernel.objects import UNDER
from cardzones.rulesets.fab import admission
from cardzones.rulesets.fab.cards import is_deck_card

ATTACK = CardDef("Strike", frozenset({"action", "attack"}))
OTHER_ATTACK = CardDef("Other Strike", frozenset({"action", "attack"}))
AURA = CardDef("Aura", frozenset({"action", "aura"}))
HELM = CardDef("Helm", frozenset({"equipment", "head"}))
SWORD = CardDef("Sword", frozenset({"weapon", "sword", "1h"}))
TOKEN = CardDef("Token", frozenset({"token", "aura"}))
#: 3.0.8a: a card put into a graveyard goes to its owner's hero zone
#: instead, which cannot contain it (3.11.2): the move fails (3.0.11).
REDIRECTED = CardDef(
    "Redirected Strike",
    frozenset({"action", "attack"}),
    abilities=(Replacement("graveyard", None, Dest("hero", "owner")),),
)


def _position() -> Game:
    game = new_game("fab", list(PLAYERS))
    z = game.zone
    hero = game.new_card(CardDef("Hero", frozenset({"hero"})), z("alice", "hero"))
    assert hero
    # Alike but in different zones: one in the arsenal (3.3.2a: it is full
    # for the other), others in hand, graveyard and deck.
    game.new_card(ATTACK, z("alice", "arsenal"))
    for zone in ("hand", "graveyard", "banished", "deck"):
        game.new_card(ATTACK, z("alice", zone))
        game.new_card(OTHER_ATTACK, z("alice", zone))
        game.new_card(REDIRECTED, z("alice", zone))
    game.new_card(AURA, z("alice", "hand"))
    game.new_card(AURA, z("alice", "graveyard"))
    # Another player's cards of the same kind (3.8.2, 3.9.2: owners' zones).
    game.new_card(ATTACK, z("bob", "graveyard"))
    game.new_card(ATTACK, z("bob", "hand"))
    # Equipment alike: one equipped (8.5.41c: the slot is full), one not.
    game.new_card(HELM, z("alice", "head"))
    game.new_card(HELM, z("alice", "graveyard"))
    game.new_card(HELM, z("alice", "banished"))
    # Weapons alike: one in each weapon zone, one in the graveyard.
    for weapon in game.zones_of("alice", "weapon"):
        game.new_card(SWORD, weapon)
    game.new_card(SWORD, z("alice", "graveyard"))
    game.new_card(TOKEN, game.zones_of(None, "permanent")[0])
    # Sub-cards alike under one top-card, and under another (3.0.14): under
    # the hero (its soul, 3.11.5) and under an aura in the arena.
    aura = game.new_card(AURA, game.zones_of(None, "permanent")[0])
    for top in (hero, hero, aura, aura):
        game.attach(game.new_card(ATTACK, z("alice", "banished")), top, UNDER)
    return game


@pytest.mark.parametrize("player", PLAYERS)
def test_cards_alike_are_judged_as_each_is_tried_3_0_8a_3_3_2a_8_5_41c(player: str) -> None:
    game = _position()
    judged = legal_actions(game, player)
    assert judged and said(judged) == said(tried_legal_actions(game, player))


def test_cards_alike_share_one_judgement(monkeypatch: pytest.MonkeyPatch) -> None:
    """The memo is used: fewer kernel judgements than moves judged."""
    game = _position()
    calls: list[Any] = []
    real = Game.foresee_move

    def counted(self: Game, *args: Any, **kwargs: Any) -> Any:
        calls.append(args)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Game, "foresee_move", counted)
    moves = [a for a in legal_actions(game, "alice", actions=["move"])]
    assert moves and len(calls) < len(moves)


def test_admission_reads_what_fab_declares_3_3_2_3_8_2_3_15_3_8_1_8a() -> None:
    """ADMISSION_READS is what fab's admission reads of a card, beside its
    record: cards that agree in it get one verdict in every zone of the
    type, whatever else they are, so the moves keyed by it are judged alike
    rightly. Zones as the listing's position leaves them (an arsenal full,
    a hero zone with its hero, 3.3.2a, 3.11.2)."""
    game = _position()
    named = (ATTACK, OTHER_ATTACK, AURA, HELM, SWORD, TOKEN, CardDef("Hero", frozenset({"hero"})))
    # Made where admission is not asked: it is asked here, zone by zone.
    banished = game.zone("alice", "banished")
    cards = [game.new_card(cdef, banished, check=False) for cdef in named]
    compared = 0
    for zid in game.all_zones():
        read = admission.ADMISSION_READS.get(game.zone_info(zid).type, admission.TYPES)
        verdicts: dict[Any, set[bool]] = {}
        for card in cards:
            cdef = game.obj(card).cdef
            token = "token" in cdef.types
            key = {
                admission.TOKEN: token,
                admission.CATEGORY: (token, "hero" in cdef.types, is_deck_card(cdef)),
                admission.TYPES: cdef.types,
            }[read]
            verdict = game.ruleset.admit(game, game.obj(card), zid, "alice").ok
            verdicts.setdefault(key, set()).add(verdict)
        assert all(len(v) == 1 for v in verdicts.values()), game.zone_name(zid)
        compared += sum(1 for _ in verdicts) < len(cards)
    assert compared, "some zone reads less than the card's types"

"""The rules of the full Comprehensive Rules that carrying out card text
under the game procedure implements (:mod:`cardzones.rulesets.fab.procedure.effects`):
targets (1.8.5), resolving (chapter 5), effects (chapter 6), hits (7.5.5)
and the keywords and effects of chapter 8. :mod:`.rule_ids` adds them to the
procedure's rules."""

from __future__ import annotations

EFFECT_RULES: dict[str, str] = {
    "1.8.5": "A targeted effect declares its targets as its layer goes on the stack.",
    "1.8.5a": "Only public objects in the arena or on the stack are targetable.",
    "1.8.5d": "A target must meet the parameters the effect names.",
    "5.1.4a": "A card is played only with legal targets declared for its targeted effects.",
    "5.3.2a": "A layer whose declared targets are all illegal fails to resolve.",
    "5.3.4": "A resolving layer's resolution abilities generate their effects, before go again.",
    "6.2.2a": "A layer-continuous effect without a duration ends at the end of the turn.",
    "6.2.4": "An effect on a future object applies to the next object that meets it.",
    "6.6.1d": "A triggered-layer's resolution abilities generate effects as it resolves.",
    "6.6.5": "An event meeting a trigger condition creates a triggered-layer.",
    "6.6.6": "A triggered-layer goes on the stack before the next player gains priority.",
    "8.3.4": "Dominate: this can't be defended by more than one card from hand.",
    "8.3.4a": "An attack with dominate defended by a card from hand takes no other card from hand.",
    "8.3.4b": "Then no defense reaction is played from hand.",
    "8.3.5c": "An object cannot have go again twice; giving it again fails.",
    "8.5.6": "Draw moves the top card of the deck to the player's hand.",
    "8.5.6b": "A draw from an empty deck fails.",
    "8.5.7a": "A living object that gains {h} has its life total increased.",
    "8.5.8": "Gets (a number) modifies the object's numerical property.",
    "8.5.9": "Gets (a keyword) gives the object that property.",
}

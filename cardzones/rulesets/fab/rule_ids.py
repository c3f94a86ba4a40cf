"""Rule ids of the Flesh and Blood zone rules, and what each one says.

``RULES`` maps every rule id the fab rule set implements to a one-line
summary, in rule order: chapter 3 (zones) of the Comprehensive Rules and the
rules it points to (objects, cards, permanents, layers, tokens, equipping and
the end-of-turn pitch move). Every id in ``RULES`` is pinned down by at least
one scenario under ``scenarios/fab/`` that lists it under ``rules:``.

``NOT_ENGINE_RULES`` maps the ids of chapter 3 that are not engine behaviour
to the reason: tournament layout (3.0.6) and combat timing (3.6.4). Every
rule id of chapter 3 is in exactly one of the two dicts.
"""

RULES: dict[str, str] = {
    "1.2.1b": "An object's controller is its card's; none outside arena and stack.",
    "1.2.3": "Last known information is a snapshot of an object just before it ceased.",
    "1.2.3a": "A rule or effect needing a gone object uses its last known information.",
    "1.2.3c": "Last known information is immutable; changes to the object miss it.",
    "1.3.1a": "A card's owner started the game with it or created it.",
    "1.3.1b": "A card's controller is its owner entering the arena, or who played it.",
    "1.3.2a": "A hero-card has type hero.",
    "1.3.2b": "A token-card has type token and is not part of a card-pool.",
    "1.3.2c": "A deck-card is an action, attack reaction, block, defense reaction, "
    "instant, mentor or resource.",
    "1.3.2d": "An arena-card is a non-hero, non-token, non-deck card.",
    "1.3.3": "Hero-, arena- and token-cards in the arena are permanents; deck-cards "
    "with a permanent subtype are, off the combat chain.",
    "1.3.3a": "A permanent that leaves the arena is no longer a permanent.",
    "1.6.1": "A layer is an object on the stack that is yet to be resolved.",
    "1.6.1a": "A card-layer's owner is the card's owner.",
    "1.6.1b": "A layer's controller is the player who put it on the stack.",
    "1.6.2a": "A card-layer is a card on the stack.",
    "1.6.2b": "An activated-layer is created on the stack and exists only there.",
    "1.6.2c": "A triggered-layer is created by a trigger and exists only on the stack.",
    "3.0.1": "There are 15 zone types.",
    "3.0.1a": "A zone is empty with no objects and no permanent equipped to it; an "
    "empty equipment zone is exposed; empty zones still exist.",
    "3.0.2": "Each player has one zone of each player type and two weapon zones; "
    "stack, permanent and combat chain are shared.",
    "3.0.3": "An object is public or private.",
    "3.0.3a": "A player may look at private objects they own or in zones they own, "
    "except in a deck.",
    "3.0.4": "A zone's default visibility makes it a public or private zone.",
    "3.0.4a": "Arms, banished, chest, combat chain, graveyard, head, hero, legs, "
    "permanent, pitch, stack and weapon are public zones.",
    "3.0.4b": "Arsenal, deck and hand are private zones.",
    "3.0.4c": "A public zone may hold a private object until it is made public.",
    "3.0.4d": "A private zone may hold a public object until it is made private.",
    "3.0.4e": "A rule or effect on an object in a public zone needs a public source.",
    "3.0.5": "The arena is the arms, chest, combat chain, head, hero, legs, "
    "permanent and weapon zones.",
    "3.0.5a": "The arena is not a zone; put into the arena means the permanent zone.",
    "3.0.5b": "Arsenal, banished, deck, graveyard, hand, pitch and stack are not in the arena.",
    "3.0.7": "A move leaves the origin and enters the destination simultaneously.",
    "3.0.7a": "The moving object is the object as it leaves; a private one has no properties.",
    "3.0.7b": "A move to the zone it is in does not happen; only visibility changes.",
    "3.0.8": "An object becomes public or private before it moves, as it will be at "
    "the destination.",
    "3.0.8a": "A destination replaced after the object became public re-evaluates 3.0.8.",
    "3.0.9": "Entering a zone outside the arena other than the stack, or going "
    "public to private, makes a new object.",
    "3.0.9a": "A trigger on a move references the new object while it stays public.",
    "3.0.9b": "An effect that moved an object references the new object while it stays public.",
    "3.0.9c": "How an object became new is kept as its history.",
    "3.0.10": "A created zone is just another zone of its type.",
    "3.0.10a": "With several zones of the specified type, the object's owner chooses.",
    "3.0.10b": "When a player's only zone of a type ceases, its cards are cleared.",
    "3.0.10c": "When one of several zones ceases, an empty one goes; otherwise the "
    "player chooses and its cards are cleared.",
    "3.0.11": "A rule move to a missing or unfit zone clears the object; an effect "
    "move fails unless the object ceases.",
    "3.0.12": "To clear an object is to move it to its owner's graveyard.",
    "3.0.12a": "A cleared token, macro or non-card layer simply ceases to exist.",
    "3.0.13": "A zone named without an owner is the effect controller's.",
    "3.0.14": "A sub-card is under a top-card.",
    "3.0.14a": "A card is under a permanent only when a rule or effect says so.",
    "3.0.14b": "A sub-card is not in the arena and is a new object.",
    "3.0.14c": "Sub-cards move with a top-card that stays the same object, and join "
    "it when it becomes a sub-card.",
    "3.0.14d": "Sub-cards share their top-card's visibility.",
    "3.0.14e": "When a top-card ceases to exist, its sub-cards are cleared.",
    "3.1.1": "The arena is the arms, chest, combat chain, head, hero, legs, "
    "permanent and weapon zones.",
    "3.1.1a": "Arsenal, banished, deck, graveyard, hand, pitch and stack are not in the arena.",
    "3.1.2": "The arena is not a zone; put into the arena means the permanent zone.",
    "3.1.2a": "A card is in the arena in an arena zone and not as a sub-card.",
    "3.2.1": "An arms zone is a public equipment zone in the arena owned by a player.",
    "3.2.2": "An arms zone holds at most one equipped object.",
    "3.2.2a": "Only an object with subtype arms can be equipped to an arms zone.",
    "3.2.3": "A player may start the game with an arms card equipped.",
    "3.3.1": "An arsenal zone is a private zone outside the arena owned by a player.",
    "3.3.2": "An arsenal zone holds at most one of its owner's deck-cards.",
    "3.3.2a": "Putting a card into a full arsenal, or with no empty arsenal, fails.",
    "3.3.3": "A player's arsenal is all of their arsenal zones.",
    "3.3.3a": "The arsenal is empty when all of its zones are empty.",
    "3.3.3b": "A card put into the arsenal goes to an empty arsenal zone.",
    "3.3.4": "Cards in an arsenal zone may be played.",
    "3.4.1": "A banished zone is a public zone outside the arena owned by a player.",
    "3.4.2": "A banished zone holds only its owner's cards.",
    "3.5.1": "A chest zone is a public equipment zone in the arena owned by a player.",
    "3.5.2": "A chest zone holds at most one equipped object.",
    "3.5.2a": "Only an object with subtype chest can be equipped to a chest zone.",
    "3.5.3": "A player may start the game with a chest card equipped.",
    "3.6.1": "The combat chain is one public arena zone, shared and ownerless.",
    "3.6.2": "The combat chain holds only cards and attack-proxies.",
    "3.6.3": "The combat chain is the combat chain zone.",
    "3.7.1": "A deck zone is a private zone outside the arena owned by a player.",
    "3.7.2": "A deck zone holds only its owner's deck-cards.",
    "3.7.3": "The deck is the deck zone.",
    "3.7.4": "A player may not look at the objects in their own deck.",
    "3.7.5": "A deck is an ordered face-down pile.",
    "3.7.6": "A player's starting deck begins the game in their deck zone.",
    "3.8.1": "A graveyard is a public zone outside the arena owned by a player.",
    "3.8.2": "A graveyard holds only its owner's cards.",
    "3.8.3": "The graveyard is the graveyard zone.",
    "3.9.1": "A hand is a private zone outside the arena owned by a player.",
    "3.9.2": "A hand holds only its owner's deck-cards.",
    "3.9.3": "The hand is the hand zone.",
    "3.10.1": "A head zone is a public equipment zone in the arena owned by a player.",
    "3.10.2": "A head zone holds at most one equipped object.",
    "3.10.2a": "Only an object with subtype head can be equipped to a head zone.",
    "3.10.3": "A player may start the game with a head card equipped.",
    "3.11.1": "A hero zone is a public zone in the arena owned by a player.",
    "3.11.2": "A hero zone holds one hero card and any number of soul cards.",
    "3.11.3": "The hero is the hero card in the hero zone.",
    "3.11.4": "A player starts the game with their hero card in the hero zone.",
    "3.11.5": "A hero's soul is the sub-cards under the hero card.",
    "3.12.1": "A legs zone is a public equipment zone in the arena owned by a player.",
    "3.12.2": "A legs zone holds at most one equipped object.",
    "3.12.2a": "Only an object with subtype legs can be equipped to a legs zone.",
    "3.12.3": "A player may start the game with a legs card equipped.",
    "3.13.1": "The permanent zone is one public arena zone, shared and ownerless.",
    "3.13.2": "The permanent zone holds only permanents.",
    "3.14.1": "A pitch zone is a public zone outside the arena owned by a player.",
    "3.14.2": "A pitch zone holds only its owner's deck-cards.",
    "3.15.1": "The stack is one public zone outside the arena, shared and ownerless.",
    "3.15.2": "The stack is the stack zone.",
    "3.15.3": "The stack is an ordered collection of layers.",
    "3.15.4": "A layer added to the stack becomes layer N+1.",
    "3.15.5": "The top layer is layer N, the highest.",
    "3.15.6": "When layer N is removed, each layer M above it becomes layer M-1.",
    "3.16.1": "A weapon zone is a public zone in the arena owned by a player.",
    "3.16.2": "A weapon zone holds at most one equipped object.",
    "3.16.2a": "A weapon zone takes type weapon or subtype off-hand or quiver; a 2H "
    "object needs two weapon zones.",
    "3.16.3": "A player may start the game with a weapon or off-hand equipped.",
    "4.4.3c": "At end of turn each pitch zone goes to the bottom of its owner's deck "
    "in a hidden order.",
    "8.1.8a": "Tokens exist only in the arena or as sub-cards; out of it they cease.",
    "8.2.2a": "A 2H object is a two-hander.",
    "8.2.2b": "A two-hander is equipped to two weapon zones and needs two empty ones.",
    "8.2.2c": "A two-hander occupies one of its two weapon zones, not both.",
    "8.2.10a": "An off-hand is equipped to an empty weapon zone.",
    "8.2.10b": "A player cannot equip more than one off-hand.",
    "8.2.15a": "A quiver needs an empty weapon zone or the free zone of a 2H bow.",
    "8.2.15b": "A player cannot equip more than one quiver.",
    "8.5.41": "To equip, put an object into an equipment or weapon zone as a "
    "permanent equipped to it.",
    "8.5.41a": "With no zone specified, the object's subtype determines the zone.",
    "8.5.41b": "Only 1H, 2H, arms, chest, head, legs, off-hand or quiver objects can be equipped.",
    "8.5.41c": "Equipping needs empty zones and no zone of that type already equipped.",
    "8.5.41d": "Equipping a token creates it and then equips it, or fails.",
    "8.5.41e": "An object that cannot be equipped does not become a permanent.",
    "8.5.41f": "An equipped object that ceases is no longer equipped.",
}

NOT_ENGINE_RULES: dict[str, str] = {
    "3.0.6": "Layout and representation of zones are tournament rules, not state.",
    "3.6.4": "Open or closed combat chain is combat timing (chapter 7), which the "
    "engine does not model and no scenario key can observe.",
}

"""Rule ids for the Redemption rules texts (Place and Set-aside abilities).

Every sentence of ``shared/rules/redemption-place.txt`` and
``shared/rules/redemption-set-aside.txt`` has exactly one id here, in text
order. Ids are ``place/<slug>`` or ``set-aside/<slug>``. Each value is the
sentence as written, except that typographic quotes and apostrophes are
written in ASCII. Scenario files name these ids in their ``rules:`` list, and
refusals name them in their messages.

The set-aside text breaks off mid-sentence ("When all of the cards"); that
fragment has its own id, ``set-aside/truncated-when-all-of-the-cards``, so
that the whole text is accounted for.
"""

RULES: dict[str, str] = {
    # redemption-place.txt: introduction
    "place/definition": "A place ability allows you to put a card in a specified location.",
    "place/purpose": (
        "A place ability often allows you to put a card in a location where it typically cannot"
        " be placed or provides a particular benefit as a result of the placement."
    ),
    # How to Play
    "place/no-activation": "A place ability does not activate the ability on the placed card.",
    "place/still-affected": (
        "Placed cards can still be affected as usual by game rules and special abilities as"
        " long as their condition(s) are still satisfied."
    ),
    "place/paired-ability": "A place ability is often paired with another ability.",
    "place/paired-benefit": (
        "The paired ability provides some benefit when or while the card is placed."
    ),
    "place/instantaneous": "A place ability is instantaneous.",
    "place/targets-placed-cards": "A place ability targets the cards that are to be placed.",
    "place/underlying-not-targeted": (
        "If a card is placed on another card, the underlying card is not targeted by the place"
        " ability."
    ),
    # Movement of Cards "Placed On" Other Cards
    "place/movement-follows-underlying": (
        "If a card is placed on another card and the underlying card is relocated, the placed"
        " card is generally relocated to the same location that the underlying card is"
        " relocated and remains there."
    ),
    "place/movement-exceptions": "Exceptions to this rule are:",
    "place/movement-exception-sites": (
        "Lost Souls that are placed in sites are always returned to the general Land of Bondage"
        " and do not follow the underlying sites when the sites are relocated."
    ),
    "place/movement-exception-lost-soul": (
        "Any card placed on a Lost Soul is discarded if the Lost Soul is relocated outside its"
        " original Land of Bondage."
    ),
    # Default Conditions
    "place/default-indefinite": "Placed cards remain where they are placed indefinitely.",
    "place/default-face-up": "Placed cards are placed face up.",
    "place/default-targets-in-play": "Targets must be in play.",
    # Special Conditions
    "place/order-choice": (
        "If multiple cards are placed in the same location by the same place ability, the"
        " player placing them chooses what order to place them."
    ),
    "place/relocated-no-auto-return": (
        "If a placed card is relocated to a new location, it does not automatically return to"
        " where it was placed."
    ),
    "place/return-conditions": (
        "It only returns to where it was originally placed if (1) it is independently placed"
        " there again, (2) the original effect that relocated it is negated, or (3) the ability"
        " that relocated it specifies it return there according to a condition.."
    ),
    "place/implied-condition": (
        'An ongoing ability paired with a place ability has an implied condition of "while the'
        ' placed card remains in the placed location."'
    ),
    "place/colon-reading": (
        'A colon (:) following a place ability is interpreted as: "while this card remains'
        ' placed in its original location."'
    ),
    # redemption-set-aside.txt: introduction
    "set-aside/definition": (
        "A set-aside ability allows you to remove a card or cards from play and sets them aside"
        " in a set-aside area."
    ),
    "set-aside/own-cards-benefit": (
        "When you set your own cards aside you usually gain a benefit over a period of turns"
        " for having them set aside."
    ),
    "set-aside/opponent-no-benefit": (
        "When you set an opponent's cards aside there are no benefits to your opponent."
    ),
    # How to Play
    "set-aside/paired-ongoing": (
        "A set-aside ability is always followed by or paired with another ability that is not a"
        " set-aside ability but rather is a ongoing ability that lasts as long as all of the"
        " cards targeted by the set-aside ability remain set aside."
    ),
    "set-aside/paired-defines-benefit-or-duration": (
        "The ability that follows or is paired with the set aside ability defines the benefit"
        " gained from being set aside or when the cards set aside should be returned (i.e., a"
        " duration)."
    ),
    "set-aside/area-permanent-controller": (
        "When a card is set aside it is moved to the set-aside area of the player that has"
        " permanent control of it."
    ),
    "set-aside/duration-remain": (
        "If a duration is specified on the set-aside card, the cards set aside remain there"
        " until the duration on the set-aside card is reached."
    ),
    "set-aside/no-duration-controller-chooses": (
        "If no duration is specified on the set-aside card, the controller of the card that is"
        " set aside may choose when to bring it."
    ),
    "set-aside/return-to-territory": (
        "When a card returns from the set-aside area it goes to the territory of the player"
        " that controls it."
    ),
    "set-aside/duration-returns": (
        "A set-aside ability with a specified duration returns the card(s) it set aside when"
        " the duration is reached."
    ),
    "set-aside/duration-turn-based": (
        "If it is a turn-based duration, return the card(s) set aside during your preparation"
        " phase."
    ),
    "set-aside/premature-no-benefit": (
        "If it is returned prematurely, no further benefits are gained."
    ),
    "set-aside/own-return-preparation": (
        "If a set-aside ability does not specify a duration, the controller of the card(s) set"
        " aside may return them during any of their preparation phases."
    ),
    "set-aside/instantaneous": (
        "A set-aside ability is instantaneous (but the abilities they are paired with are"
        " always ongoing)."
    ),
    "set-aside/targets": "A set-aside ability targets the card(s) that are to be set aside.",
    "set-aside/same-target": (
        "The target for the set-aside ability must be the same as the target for the ability"
        " that is paired with the set-aside ability."
    ),
    "set-aside/dominant-discards": (
        "Any set aside card may be discarded if a dominant is played on it, and the ability of"
        " the set-aside card is negated."
    ),
    "set-aside/dominant-enhancement-discarded": (
        "If there is an enhancement, that is discarded, and has no effect."
    ),
    # Enhancements with Set Aside Abilities
    "set-aside/enhancement-in-battle": (
        "A set-aside enhancement can be played in battle according to the normal rules of"
        " initiative."
    ),
    "set-aside/enhancement-outside-battle": (
        "Set aside enhancements can also be played outside of battle during the preparation"
        " phase or discard phase if they are played on a character of matching brigade in the"
        " player's territory."
    ),
    "set-aside/enhancement-no-opponent-targets": (
        "Set aside enhancements played outside of battle cannot target cards controlled by an"
        " opponent (unless the enhancement is a territory class enhancement)."
    ),
    "set-aside/enhancement-joins-cards": (
        "Set aside enhancements are placed in the set-aside area with the cards they set aside."
    ),
    "set-aside/enhancement-in-battle-joins-at-end": (
        "If a set-aside enhancement is played during battle it remains in battle until the end"
        " of battle and then is moved to the set-aside area to join the cards it set aside when"
        " other enhancements in battle are discarded."
    ),
    # The source text breaks off here, mid-sentence: this fragment is all there is.
    "set-aside/truncated-when-all-of-the-cards": "When all of the cards",
    # Default Conditions
    "set-aside/default-targets-in-play": "Targets must be in play.",
    "set-aside/no-negate-after-return": (
        "Abilities gained while set-aside cannot be negated after return."
    ),
    # Special Conditions
    "set-aside/premature-group-return": (
        "If more than one card is set aside with a specified duration, can be prematurely"
        " returned, and if one of those cards is returned from the set-aside area prematurely,"
        " then the other card(s) set aside with it immediately return to their owner's"
        " territories with no further benefits gained."
    ),
    "set-aside/area-controller": (
        "All cards set-aside go to the set-aside area of the person who controls that card."
    ),
    "set-aside/enhancement-area-choice": (
        "If the targets of a set aside ability on an enhancement go to different set-aside"
        " areas the player that played the set aside card chooses which of those set-aside"
        " areas to place the set aside enhancement in."
    ),
}

#: The game's procedure, as the public rules pages give it (the turn, Lost
#: Souls, battles, rescues, winning). Ids are ``<page>/<point>``, the page
#: named as its title is (``draw-phase`` is the wiki's Draw Phase page; the
#: pages and their addresses are listed in docs/redemption-procedure.md).
#: Each value says the rule in the engine's words, not the page's.
GAME_RULES: dict[str, str] = {
    # The start of the game (the message board's "no mulligans" post, the
    # Your Turn Games news page)
    "game-start/shuffle": "Each player shuffles their deck before the opening hands are drawn.",
    "game-start/opening-hand": "After the shuffle each player draws their eight cards.",
    # The turn (Land of Redemption blog, Phases part 1; Draw and Discard Phase pages)
    "phases/order": "A turn has five phases: Draw, Upkeep, Preparation, Battle and Discard.",
    "draw-phase/three-cards": "The turn player draws three cards in their draw phase.",
    "draw-phase/lost-soul-to-land-of-bondage": (
        "Each Lost Soul drawn is placed in its player's Land of Bondage."
    ),
    "draw-phase/lost-soul-replaced": (
        "Each time a player draws a Lost Soul they draw another card to replace it."
    ),
    "draw-phase/empty-deck": "A player whose deck is empty draws nothing; the game goes on.",
    "lost-souls/land-of-bondage": (
        "Lost Souls are always placed in the Land of Bondage of the player who controls them."
    ),
    "territory/cards-put-there": (
        "A player puts their characters, Fortresses, Sites and Artifacts in their territory."
    ),
    "hand/at-most-sixteen": (
        "No hand holds more than sixteen cards: a draw stops there, the other cards staying"
        " where they are."
    ),
    "discard-phase/hand-limit": (
        "By the end of their Discard Phase a player's hand is reduced to eight or fewer cards."
    ),
    # The battle (Battle Phase, Rescue Attempt, Card Type, Initiative pages)
    "battle-phase/present-hero": (
        "A rescue attempt begins with a Hero from the player's hand or territory placed in the"
        " Field of Battle, to rescue a Lost Soul in an opponent's Land of Bondage."
    ),
    "rescue-attempt/one-per-turn": "A player is allowed one rescue attempt per turn.",
    "card-type/evil-characters-block": "Evil Characters block rescue attempts.",
    "card-type/enhancement-alignment": (
        "Good enhancements are used by Heroes, evil enhancements by Evil Characters, dual"
        " enhancements by both."
    ),
    "card-type/enhancement-brigade": (
        "An enhancement is of the same brigade colour as the character it is played on."
    ),
    "card-type/named-type": "A card's text that names a card type targets cards of that type.",
    "initiative/next-enhancement": "The player with initiative may play the next enhancement.",
    "initiative/losing-player": (
        "Initiative is given to the player who is losing the battle, who cannot pass it."
    ),
    "initiative/stalemate-or-mutual": (
        "In a stalemate or a mutual destruction the player who did not play the last card has"
        " initiative, and passes it if they play no card."
    ),
    "dominant/any-phase": "A Dominant may be played by either player in any phase.",
    # More than two players (the wiki's Opponent page; Redemption Central's
    # quick reference on Type 1 and Type 2 Multiplayer)
    "opponent/any-other-player": (
        "An opponent is any other player in the game; where one opponent is named, the player"
        " may choose any of them."
    ),
    "opponent/in-battle": (
        "In the battle phase the opponent is the player engaging the turn player in battle:"
        " the one whose Land of Bondage holds the Lost Soul named."
    ),
    "multiplayer/clockwise-turns": (
        "In a game of three players or more the turns go around the table clockwise, each"
        " player rescuing Lost Souls from any opponent."
    ),
    # Battle resolution and the end of battle (Battle Resolution, Mutual
    # Destruction, Stalemate, Withdraw pages; the REG's defeat and stalemate)
    "battle-resolution/outcomes": (
        "A battle ends as Hero wins, Evil Character wins, mutual destruction or stalemate,"
        " from the total strength and toughness of each side."
    ),
    "battle-resolution/successful-rescue": (
        "If the Hero wins with access to the Lost Soul, the rescue is successful; otherwise it"
        " fails."
    ),
    "mutual-destruction/rescue-successful": (
        "In a mutual destruction all characters in battle are discarded and the rescue is"
        " successful."
    ),
    "defeat/discarded": (
        "A character whose toughness is at most the opposing strength is defeated and discarded."
    ),
    "stalemate/withdraw": (
        "In a stalemate both sides withdraw to their territories and no Lost Soul is rescued."
    ),
    "end-of-battle/enhancements-discarded": (
        "At the end of battle the enhancements played in it are discarded."
    ),
    "withdraw/owners-territory": "Characters leaving battle return to their owner's territory.",
    # Rescues and winning (Rescue, Redeemed Souls pages)
    "rescue/land-of-redemption": (
        "A rescued Lost Soul goes to the rescuing player's Land of Redemption as a Redeemed Soul."
    ),
    "rescue/winning-number": (
        "A player who has five Redeemed Souls (Type I) wins, and the game ends at once."
    ),
}

RULES.update(GAME_RULES)

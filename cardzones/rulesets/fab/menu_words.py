"""How a board's menus say fab's own actions (:class:`MenuWords`), served
with its action table: the actions the board has no words of its own for."""

from __future__ import annotations

from types import MappingProxyType

from cardzones.acts.menu_words import MenuWords

#: fab's actions in a menu's words.
MENU_WORDS = MappingProxyType(
    {
        "pitch": MenuWords("Play", "Pitch", "Pitch[ {card}]", {"card": "Pitch"}),
        "pitch_order": MenuWords("Turn", "Order the pitched cards…"),
        "finish_turn": MenuWords(
            "Turn",
            "End the turn as the rules do…",
            "End the turn as the rules do[, keeping {arsenal} in the arsenal]",
        ),
    }
)

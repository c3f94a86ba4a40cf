"""How a board's menus say Redemption's own actions (:class:`MenuWords`),
served with its action table: the procedure's acts of its battle."""

from __future__ import annotations

from types import MappingProxyType

from cardzones.acts.menu_words import MenuWords

#: Redemption's actions in a menu's words.
MENU_WORDS = MappingProxyType(
    {
        "to_territory": MenuWords("Play", says="Put {card} in the territory"),
        "rescue": MenuWords(
            "Play",
            says="Rescue {soul} with {hero}",
            about={"hero": "Rescue {soul}", "soul": "Rescue it with {hero}"},
        ),
    }
)

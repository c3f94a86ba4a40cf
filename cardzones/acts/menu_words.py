"""How a board's menus say an action, in its game's words: the words a rule
set gives an action of its table (:class:`MenuWords`), served with the table
by ``GET /api/rulesets``, so that the board's page speaks no game. An action
without them is said from its name and its arguments, or by the board's own
words for the actions every game shares.

>>> from cardzones.acts.standard import FLIP, SHUFFLE
>>> from cardzones.acts.actions import action_table
>>> table = with_menu_words(action_table(FLIP, SHUFFLE), {"flip": MenuWords("Card", "Turn over…")})
>>> table["flip"].menu.to_json(), table["shuffle"].menu
({'group': 'Card', 'title': 'Turn over…'}, None)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from cardzones.acts.actions import ActionTable, action_table

#: The groups a board's menus list acts under, in their order.
GROUPS = ("Play", "Move to", "Place it on", "Move", "Card", "Turn", "Other")


@dataclass(frozen=True)
class MenuWords:
    """An action in a menu's words.

    ``group`` is the group of a menu its acts are listed under (one of
    :data:`GROUPS`; empty: the board decides), ``title`` its entry that
    opens its form. ``says`` is one act of it as a sentence: ``{card}`` is
    that argument in words (a card by the name the viewer's view shows, the
    card the menu is about "it", a zone as a person says it), and a part in
    brackets is said only when the arguments it names are given
    (``"End the turn[, keeping {card} back]"``). ``about`` gives, by
    argument, the sentence said instead in the menu of the card that
    argument names (``{"card": "Pitch"}``). Empty words leave the board's
    own.
    """

    group: str = ""
    title: str = ""
    says: str = ""
    about: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.group and self.group not in GROUPS:
            raise ValueError(f"a menu's group is one of {', '.join(GROUPS)}, not {self.group!r}")

    def to_json(self) -> dict[str, Any]:
        """The words given, as JSON-ready data."""
        out: dict[str, Any] = {}
        for key in ("group", "title", "says"):
            if getattr(self, key):
                out[key] = getattr(self, key)
        if self.about:
            out["about"] = dict(self.about)
        return out


def with_menu_words(table: ActionTable, words: Mapping[str, MenuWords]) -> ActionTable:
    """``table`` with the menu words of its actions named in ``words``; a
    name the table does not have is a mistake of the rule set's, refused."""
    unknown = sorted(set(words) - set(table))
    if unknown:
        raise ValueError(f"menu words for actions the table does not have: {', '.join(unknown)}")
    return action_table(*(replace(a, menu=words[n]) if n in words else a for n, a in table.items()))


__all__ = ["GROUPS", "MenuWords", "with_menu_words"]

"""How a seat names things in its acts (:class:`SeatRefs`): a card by the
handle its own view gives it, or by ``ZONE[i]``; nothing else names a card.
"""

from __future__ import annotations

import difflib
from typing import Any

from cardzones.acts.actions import ArgumentError
from cardzones.errors import UnknownReference
from cardzones.kernel.cards import CardDef
from cardzones.kernel.views import card_for_handle, shown_cards
from cardzones.position.refs import parse_card
from cardzones.table.context import TableContext, TableRefs
from cardzones.table.refusals import Unplaced


class SeatRefs(TableRefs):
    """The seat's resolver for :func:`~cardzones.acts.binding.bind`: a card is
    named by the handle the seat's own view gives it, or by ``ZONE[i]`` in the
    order its view lists the zone; a card it may not look at only in its own
    zones. Zones, players, card names and effect labels are read as in a
    scenario file, except that an unknown effect label does not list the
    labels other seats gave. ``names`` keeps how the seat named each card, so
    that messages name it the same way."""

    def __init__(self, ctx: TableContext, seat: str) -> None:
        super().__init__(ctx)
        self.table = ctx
        self.seat = seat
        self.names: dict[int, str] = {}

    def card_def(self, name: str) -> CardDef:
        # A seat names a card only to create a token, and the answer depends on
        # the name and the table's token cards alone: the other cards of the
        # start position are where the hidden cards are.
        tokens = self.table.tokens
        if name not in tokens:
            close = difflib.get_close_matches(name.casefold(), [t.casefold() for t in tokens])
            near = sorted(t for t in tokens if t.casefold() in close)
            hint = f"; closest: {', '.join(map(repr, near))}" if near else ""
            raise Unplaced(
                f"{name!r} is not a token card of this table (a seat names a card "
                f"only to create a token){hint}"
            )
        return super().card_def(name)

    def card(self, value: Any) -> int:
        if not isinstance(value, str) or not value.strip():
            raise Unplaced("a card is named by the id its view gives, or by ZONE[i]")
        text = value.strip()
        card = self._find(text)
        self.names[card] = text
        return card

    def effect(self, label: Any) -> Any:
        # The labels other seats gave are theirs: the seat names those effects
        # as effect_name does, and a miss lists nothing.
        names = self.table.effect_names(self.seat)
        if str(label) not in names:
            raise Unplaced(f"unknown effect label {str(label)!r}")
        return names[str(label)]

    def _find(self, text: str) -> int:
        ref = parse_card(text)
        if ref is None:
            try:
                return card_for_handle(self.game, self.seat, text)
            except UnknownReference:
                raise Unplaced(f"{text}: no such card") from None
        if ref.kind != "index" or ref.zone is None or ref.position is None:
            raise Unplaced(f"{text}: at a table a card is named by its id or by ZONE[i]")
        cards = self._shown(str(ref.zone), text)
        if not -len(cards) <= ref.position < len(cards):
            raise Unplaced(f"{text}: {ref.zone} has {len(cards)} card(s)")
        return cards[ref.position]

    def _shown(self, zone_text: str, text: str) -> list[int]:
        """The cards of a zone (or a pile, such as fab's ``alice.soul``) in the
        order the seat's view lists them."""
        try:
            ref = self.zone_ref(zone_text)
            if self.ctx.is_pile(ref):
                return self.pile(ref)
            zid = self.zone_id(ref)
        except ArgumentError as exc:
            raise Unplaced(f"{text}: {exc.message}") from None
        if zid is None:
            raise Unplaced(f"{text}: zone {ref} does not exist")
        return shown_cards(self.game, self.seat, zid)

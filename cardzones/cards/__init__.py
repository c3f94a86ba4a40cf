"""Real cards: the public Flesh and Blood and Redemption card databases in a
local card index, found by name for scenarios, deck lists and the table.

- :mod:`cardzones.cards.importers` reads ``card.json``, ``card.csv`` and
  ``carddata.txt`` into the index (:mod:`cardzones.cards.index`);
- :mod:`cardzones.cards.download` fetches the newest files and imports them;
- :mod:`cardzones.cards.lookup` finds a card by name (and pitch);
- :mod:`cardzones.cards.decks` reads deck lists into start positions.

How each database's types become the engine's is the rule sets' business:
:mod:`cardzones.rulesets.fab.carddata` and
:mod:`cardzones.rulesets.redemption.carddata`.
"""

from cardzones.cards.decks import StartPosition, read_deck, scenario_data, start_position
from cardzones.cards.errors import (
    AmbiguousCard,
    CardDataError,
    DeckListError,
    DownloadFailed,
    ImportFailed,
    NoCardIndex,
    UnknownCard,
)
from cardzones.cards.importers import import_file
from cardzones.cards.index import CardIndex, CardRecord
from cardzones.cards.lookup import CardLookup

__all__ = [
    "AmbiguousCard",
    "CardDataError",
    "CardIndex",
    "CardLookup",
    "CardRecord",
    "DeckListError",
    "DownloadFailed",
    "ImportFailed",
    "NoCardIndex",
    "StartPosition",
    "UnknownCard",
    "import_file",
    "read_deck",
    "scenario_data",
    "start_position",
]

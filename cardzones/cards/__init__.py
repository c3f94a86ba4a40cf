"""Real cards: each game's public card database in a local card index, found
by name for scenarios, deck lists and the table.

- :mod:`cardzones.cards.importers` reads a database file into the index
  (:mod:`cardzones.cards.index`), in a format of its game's rule set;
- :mod:`cardzones.cards.download` fetches the newest files and imports them;
- :mod:`cardzones.cards.lookup` finds a card by name (and variant);
- :mod:`cardzones.cards.decks` makes deck lists start positions.

The formats of each database, how its words become the engine's and how its
deck lists are written are the rule sets' business
(:mod:`cardzones.rulesets.cardfiles`): Flesh and Blood's in
:mod:`cardzones.rulesets.fab.cardfiles` and
:mod:`cardzones.rulesets.fab.decklist`, Redemption's in
:mod:`cardzones.rulesets.redemption.cardfiles` and
:mod:`cardzones.rulesets.redemption.decklist`.
"""

from cardzones.cards.decks import PlayerStart, read_deck, scenario_data, start_position
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
    "PlayerStart",
    "UnknownCard",
    "import_file",
    "read_deck",
    "scenario_data",
    "start_position",
]

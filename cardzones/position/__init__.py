"""The start-position-and-steps language: a game's rule set, players, seed,
cards and set-up, as scenario files and table records write them
(:class:`~cardzones.position.start.StartPosition`), and the references a step uses
to name cards, zones and players (:mod:`cardzones.position.context`). The
table, export and replay start their games here; the test runner
(:mod:`cardzones.scenario`) adds expectations on top."""

"""The game-agnostic kernel: objects, zones, state, the move pipeline, effects,
events, choices and player views. It never imports a rule set."""

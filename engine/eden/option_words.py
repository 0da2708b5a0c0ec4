"""The options in players' words, for the new-game page (engine.core.BaseGame.option_words)."""

OPTION_WORDS = {
    "allow_two": {"label": "Two players",
                  "explains": "The rulebook is for 3 or 4 players; choosing 2 players turns this on by itself."},
}

"""The options in players' words, for the new-game page (engine.core.BaseGame.option_words)."""

OPTION_WORDS = {
    "two_player_trim": {"label": "Smaller deck for two",
                        "explains": "With 2 players, 30 cards are removed unseen after dealing."},
    "open_scoring": {"label": "Open scoring", "explains": "Every victory pile is shown to everyone."},
}

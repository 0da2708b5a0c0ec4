"""The options in players' words, for the new-game page (engine.core.BaseGame.option_words)."""

OPTION_WORDS = {
    "board": {"label": "Board", "explains": "The advanced map has 14 treasures, the outer ones taken first.",
              "values": {"standard": "the standard board", "advanced": "the advanced board"}},
    "open_scoring": {"label": "Open scoring", "explains": "Everyone's points are shown to everyone."},
    "english_variant": {"label": "English conflict variant",
                        "explains": "In a conflict the attacker may commit tiles only to get ahead of the defender, "
                                    "and the defender only to draw level."},
    "buildings": {"label": "Buildings",
                  "explains": "A line of 3 or more face-up tiles of a colour may get that colour's building; "
                              "a tile placed into a kingdom with the building of its colour scores 2."},
    "ziggurat": {"label": "Ziggurat",
                 "explains": "A plus-shaped cross of five tiles of one colour may become the ziggurat, which gives "
                             "the king in its kingdom 1 point of a chosen colour at the end of each turn."},
    "open_tiles": {"label": "Open tiles",
                   "explains": "Six tiles lie face up; you draw them one by one or blind from the bag."},
    "unification_tiles": {"label": "Unification tiles",
                          "explains": "The older edition has one unification tile for everybody; play is the same.",
                          "values": {"per_player": "one for each player", "shared": "one shared by all"}},
}

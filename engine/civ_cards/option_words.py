"""The options in players' words, for the new-game page (engine.core.BaseGame.option_words)."""

OPTION_WORDS = {
    "teams": {"label": "Teams",
              "explains": "The team variant, for 4 players: teammates may give each other resources.",
              "values": {"none": "no teams", "opposite": "opposite seats together (1st and 3rd against 2nd and 4th)",
                         "adjacent": "neighbours together (1st and 2nd against 3rd and 4th)"}},
    "happiness_discounts_wonders": {"label": "Happiness discounts wonders",
                                    "explains": "Highest Happiness also saves 1 production on wonders, "
                                                "as the rulebook says."},
    "culture_threshold_rule": {"label": "Highest Culture needs",
                               "explains": "The culture a player needs to hold Highest Culture.",
                               "values": {"at_least_2": "a culture of at least 2 (the rulebook)",
                                          "more_than_2": "a culture of more than 2"}},
}

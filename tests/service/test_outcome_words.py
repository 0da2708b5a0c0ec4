"""A finished game's outcome in words (service/outcome_words.py), as its page and the
game-over email say it: why it ended, for the ends the rules make and those the service
makes, who won and each place."""
import engine
from service.outcome_words import end_reason, final_ranking, winners

TIGRIS, CIV = engine.get_game("tigris"), engine.get_game("civ-cards")


def test_why_a_game_ended_in_the_games_words_or_the_services():
    assert end_reason(TIGRIS, "finished", {"reason": "bag"}) == "The bag ran out of tiles."
    assert end_reason(CIV, "finished", {"reason": "last_technology"}) == "The last technology was bought."
    assert end_reason(TIGRIS, "finished", {"reason": "resignation"}) == "The other players resigned."
    assert end_reason(TIGRIS, "abandoned", None) == "The players abandoned it."
    assert end_reason(TIGRIS, "active", None) == ""  # nothing to say while the game goes on
    assert end_reason(TIGRIS, "finished", {"reason": "some_new_end"}) == "Some new end."


def test_the_winners_and_each_place_with_its_score_in_the_games_words():
    names = {0: "Ann", 1: "Bob", 2: "Cy"}
    score = {"vp": 9, "technologies": 3, "population": 5, "wonders": 1}
    result = {"ranking": [[1], [0, 2]], "scores": {"1": score, "0": score, "2": score}}
    assert winners(result, names) == "Bob won."
    assert winners({"ranking": [[0, 2], [1]]}, names) == "A tie for first place: Ann and Cy."
    places = final_ranking(result, names, CIV)
    assert [(p["place"], p["players"]) for p in places] == [(1, ["Bob"]), (2, ["Ann", "Cy"])]
    assert places[0]["detail"] == "9 VP (3 technologies, 5 population, 1 wonder)"
    one = {"vp": 2, "technologies": 1, "population": 1, "wonders": 0}
    assert CIV.score_words(one) == "2 VP (1 technology, 1 population, 0 wonders)"

"""Playing cards: cabins, climate, food chain, shyness, tilt, new cabins, one or two cards."""

from __future__ import annotations

from engine.noah import (
    CardPlayed,
    CardTaken,
    DiscPaid,
    FaceUpRefilled,
    FigurePlaced,
    Game,
    Placement,
    PlayCards,
)
from tests.games.noah.engine.helpers import C, accepted, one, refused


def game_with(hand: list[str], port=None, starboard=None, **kw) -> Game:  # type: ignore[no-untyped-def]
    """Seat 0 to play with ``hand``; by default a level ark of four weight-2 animals."""
    return Game.arranged(
        4,
        port=port if port is not None else [["Sheep"], ["Goat"]],
        starboard=starboard if starboard is not None else [["Donkey"], ["Llama"]],
        hands=[hand],
        face_up=kw.pop("face_up", ["Grain", "Dates", "Berries"]),
        **kw,
    )


def test_climate_hot_and_cold_never_share() -> None:
    game = game_with(["Gazelle"])
    refused(game, one("Gazelle", "starboard", 1), "climate", card=C("Gazelle"), other=C("Llama"))
    accepted(game, one("Gazelle", "starboard", 0))  # with the hot donkey
    accepted(game, one("Gazelle", "port", 0))  # with the sheep, which likes any climate


def test_carnivore_must_be_lighter_than_every_other_animal() -> None:
    game = game_with(["Dog", "Cat"], port=[["Sheep"], ["Horse"]], starboard=[["Cow"], ["Goat"]])
    refused(game, one("Dog", "port", 0), "eaten", predator=C("Dog"), prey=C("Sheep"))  # same weight
    accepted(game, one("Dog", "port", 1))  # lighter than the horse
    accepted(game, one("Cat", "port", 0))  # 1 < 2


def test_carnivore_may_not_join_a_lighter_carnivore_either_way() -> None:
    game = game_with(["Dog"], port=[["Cat", "Horse"], ["Goat"]], starboard=[["Cow"], ["Sheep"]])
    refused(game, one("Dog", "port", 0), "eaten", predator=C("Dog"), prey=C("Cat"))


def test_herbivores_never_with_provisions_but_carnivores_may() -> None:
    game = game_with(["Hay", "Chicken"], port=[["Cat"], ["Goat"]], starboard=[["Fish"], ["Dog"]])
    refused(game, one("Hay", "port", 1), "eats_provision", eater=C("Goat"), provision=C("Hay"))
    accepted(game, one("Hay", "port", 0))  # with the cat
    refused(
        game,
        one("Chicken", "starboard", 0),
        "eats_provision",
        eater=C("Chicken"),
        provision=C("Fish"),
    )


def test_omnivores_obey_both_rules() -> None:
    game = game_with(
        ["Pig"],
        port=[["Hay", "Cat"], ["Goat"], ["Horse"]],
        starboard=[["Cow"], ["Dog", "Bison"]],
    )
    assert game.tilt == 1
    refused(game, one("Pig", "port", 0), "eats_provision", eater=C("Pig"), provision=C("Hay"))
    refused(game, one("Pig", "port", 1), "eaten", predator=C("Pig"), prey=C("Goat"))
    accepted(game, one("Pig", "port", 2))  # 2 < 3
    refused(game, one("Pig", "starboard", 1), "eaten", predator=C("Pig"), prey=C("Dog"))


def test_shy_animals_avoid_carnivores_in_and_beside_their_cabin_not_diagonal() -> None:
    game = game_with(
        ["Rabbit"], port=[["Mosquito"], ["Sheep"], ["Goat"]], starboard=[["Cow"], ["Chicken"]]
    )
    refused(game, one("Rabbit", "port", 0), "shy", card=C("Rabbit"), carnivore=C("Mosquito"))
    refused(
        game, one("Rabbit", "port", 1), "shy_next_to", card=C("Rabbit"), carnivore=C("Mosquito")
    )
    refused(
        game,
        one("Rabbit", "starboard", 0),
        "shy_next_to",
        card=C("Rabbit"),
        carnivore=C("Mosquito"),
    )  # opposite
    accepted(game, one("Rabbit", "starboard", 1))  # diagonal
    accepted(game, one("Rabbit", "port", 2))


def test_shy_animals_do_not_mind_omnivores_and_never_leave() -> None:
    game = game_with(
        ["Rabbit"],
        port=[["Pig", "Horse"], ["Goat"]],
        starboard=[["Donkey"], ["Llama"], ["Cow"]],
    )
    accepted(game, one("Rabbit", "port", 1))  # next to the pig, an omnivore
    game = game_with(["Cat"], port=[["Rabbit"], ["Goat"]])
    events = accepted(game, one("Cat", "port", 1))  # next to the rabbit: it stays
    assert CardPlayed(0, C("Cat"), "port", 1, False, 0) in events


def test_a_cabin_holds_three_cards() -> None:
    game = game_with(["Cat"], port=[["Sheep", "Goat", "Horse"], ["Cow"]])
    refused(game, one("Cat", "port", 0), "cabin_full", side="port", row=0)


def test_tilt_moves_by_weight_and_never_beyond_two() -> None:
    game = game_with(["Horse", "Reindeer", "Mouse"])
    assert game.tilt == 0
    refused(
        game,
        one("Horse", "starboard", 0),
        "would_tip",
        card=C("Horse"),
        lean=3,
        towards="starboard",
        most=2,
    )
    events = accepted(game, one("Reindeer", "port", 0))
    assert CardPlayed(0, C("Reindeer"), "port", 0, False, -2) in events
    tilted = Game.arranged(
        4, port=[["Horse"], ["Cow"]], starboard=[["Goat"], ["Sheep"]], hands=[["Mouse", "Cat"]]
    )
    assert tilted.tilt == -2
    accepted(tilted, one("Mouse", "port", 0))  # weight 0 may still go to the low side
    refused(
        tilted, one("Cat", "port", 1), "would_tip", card=C("Cat"), lean=3, towards="port", most=2
    )
    accepted(tilted, one("Cat", "starboard", 0))


def test_two_cards_different_cabins_each_legal_on_its_own() -> None:
    game = game_with(["Horse", "Cow", "Reindeer", "Chicken"])
    horse_then_cow = PlayCards(
        (Placement(C("Horse"), "starboard", 0), Placement(C("Cow"), "port", 0))
    )
    refused(game, horse_then_cow, "would_tip", card=C("Horse"), lean=3, towards="starboard", most=2)
    same_cabin = PlayCards(
        (Placement(C("Reindeer"), "starboard", 1), Placement(C("Chicken"), "starboard", 1))
    )
    refused(game, same_cabin, "same_cabin", side="starboard", row=1)
    good = PlayCards((Placement(C("Reindeer"), "starboard", 1), Placement(C("Chicken"), "port", 0)))
    events = accepted(game, good)
    assert [e.tilt for e in events if isinstance(e, CardPlayed)] == [2, 1]
    assert [e for e in events if isinstance(e, FigurePlaced)] == [
        FigurePlaced(0, "useful"),
        FigurePlaced(0, "useful"),
    ]
    assert good in game.legal_actions() and horse_then_cow not in game.legal_actions()


def test_slow_animals_and_provisions_are_played_alone() -> None:
    game = game_with(["Snail", "Hay", "Chicken"], port=[["Cat"], ["Goat"]])
    snail_then = PlayCards(
        (Placement(C("Snail"), "port", 1), Placement(C("Chicken"), "starboard", 0))
    )
    refused(game, snail_then, "played_alone", card=C("Snail"))
    then_hay = PlayCards((Placement(C("Chicken"), "port", 1), Placement(C("Hay"), "port", 0)))
    refused(game, then_hay, "alone_not_second", card=C("Hay"))
    accepted(game, one("Snail", "port", 1))
    accepted(game, one("Hay", "port", 0))


def test_new_cabin_next_to_the_last_paid_to_the_right_neighbour_with_a_face_up_card() -> None:
    game = game_with(["Cat", "Chicken"], deck=["Lion", "Tiger", "Bison"])
    refused(game, one("Cat", "port", 3), "no_such_cabin", side="port", row=3, last=1, new=2)
    refused(
        game,
        one("Cat", "port", 2),
        "take_needed",
        take=None,
        face_up=(C("Grain"), C("Dates"), C("Berries")),
    )
    refused(
        game,
        one("Cat", "port", 2, take=C("Lion")),
        "take_needed",
        take=C("Lion"),
        face_up=(C("Grain"), C("Dates"), C("Berries")),
    )
    refused(game, one("Cat", "port", 1, take=C("Grain")), "take_only_new", take=C("Grain"))
    game.apply(
        PlayCards(
            (
                Placement(C("Cat"), "port", 2, take=C("Grain")),
                Placement(C("Chicken"), "starboard", 2, take=C("Berries")),
            )
        )
    )
    assert game.discs == (1, 3, 3, 6)  # seat 0 paid two discs to seat 3, its right neighbour
    assert game.hand(0) == tuple(sorted([C("Grain"), C("Berries")]))
    assert game.cabins[0][2] == (C("Cat"),) and game.cabins[1][2] == (C("Chicken"),)
    # Refilled only at the end of the turn, from the top of the supply.
    assert game.face_up == (C("Dates"), C("Lion"), C("Tiger"))
    assert game.current_player == 1


def test_new_cabin_events_and_refill_order() -> None:
    game = game_with(["Cat"], deck=["Lion"])
    events = game.apply(one("Cat", "starboard", 2, take=C("Grain")))
    assert events == (
        DiscPaid(0, 3),
        CardPlayed(0, C("Cat"), "starboard", 2, True, 1),
        FigurePlaced(0, "useful"),
        CardTaken(0, C("Grain")),
        FaceUpRefilled(C("Lion")),
    )


def test_no_disc_no_new_cabin() -> None:
    game = game_with(["Cat"], discs=[0, 3, 3, 4])
    refused(game, one("Cat", "port", 2, take=C("Hay")), "no_disc_for_cabin", card=C("Cat"))
    assert all(p.placements[0].row < 2 for p in game.legal_actions() if isinstance(p, PlayCards))


def test_the_face_up_card_taken_may_be_the_second_card() -> None:
    game = game_with(["Cat"], port=[["Horse"], ["Goat"]], face_up=["Chicken", "Hay", "Fish"])
    assert game.tilt == -1
    play = PlayCards(
        (
            Placement(C("Cat"), "starboard", 2, take=C("Chicken")),
            Placement(C("Chicken"), "port", 0),
        )
    )
    assert play in game.legal_actions()
    accepted(game, play)

"""Golden game records: a scripted deck, the actions, and the events in plain words.

Each ``golden/*.txt`` file was written by hand from the rules; this test replays it and
compares what the engine says happened, line by line.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.covenant import (
    Action,
    Deploy,
    Event,
    FeatureScored,
    Game,
    MoveArk,
    Pass,
    PlaceArk,
    PlaceTile,
)

GOLDEN = Path(__file__).parent / "golden"


def parse_action(text: str) -> Action:
    verb, *args = text.split()
    match verb:
        case "place":
            return PlaceTile(*(int(a) for a in args))
        case "deploy":
            return Deploy(args[0])
        case "prophet":
            return Deploy(args[0], prophet=True)
        case "ark":
            return MoveArk(args[0])
        case "put-ark":
            return PlaceArk(int(args[0]), int(args[1]))
        case "pass":
            return Pass()
    raise ValueError(text)


def words(event: Event) -> str:
    d = event.to_dict()
    match d["type"]:
        case "turn_started":
            return f"turn {d['turn']}: seat {d['seat']} draws {d['tile']}, {d['tiles_left']} left"
        case "tile_discarded":
            return f"seat {d['seat']} discards {d['tile']}"
        case "tile_placed":
            where = f"({d['x']},{d['y']})"
            return f"seat {d['seat']} places {d['tile']} at {where} turned {d['rotation']}"
        case "piece_deployed":
            piece = "the Prophet" if d["prophet"] else "a follower"
            where = f"({d['x']},{d['y']}) {d['port']}"
            return f"seat {d['seat']} deploys {piece} on the {d['feature']} at {where}"
        case "passed":
            return f"seat {d['seat']} passes"
        case "ark_placed":
            return f"seat {d['seat']} puts the Ark on ({d['x']},{d['y']})"
        case "ark_moved":
            return f"seat {d['seat']} moves the Ark {d['path']}: {' '.join(map(str, d['points']))}"
        case "feature_scored":
            assert isinstance(event, FeatureScored)
            state = "complete" if event.complete else "unfinished"
            text = (
                f"{state} {event.feature} of {event.tiles} tiles, {event.extras} extras: "
                + " ".join(map(str, event.points))
            )
            if event.returned:
                text += ", back home: " + "; ".join(
                    f"seat {p.seat} at ({p.x},{p.y}) {p.port}" for p in event.returned
                )
            return text
        case "final_scoring":
            return "final scoring"
        case "game_over":
            return f"game over: {' '.join(map(str, d['scores']))}, won by " + " ".join(
                map(str, d["winners"])
            )
    raise AssertionError(d)


def load(path: Path) -> tuple[Game, list[Action], list[str]]:
    header: dict[str, str] = {}
    actions: list[Action] = []
    expected: list[str] = []
    for line in path.read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith(">"):
            actions.append(parse_action(line[1:].strip()))
        elif not expected and ":" in line and line.split(":")[0] in ("players", "deck"):
            key, value = line.split(":", 1)
            header[key] = value.strip()
        else:
            expected.append(line)
    game = Game.new(players=int(header["players"]), seed=0, deck=header["deck"].split())
    return game, actions, expected


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("*.txt")), ids=lambda p: p.stem)
def test_golden_record(path: Path) -> None:
    game, actions, expected = load(path)
    told: list[str] = []
    for action in actions:
        told.extend(words(e) for e in game.apply(action))
    assert told == expected

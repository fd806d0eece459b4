"""Ark's public posts, drawn from the public view only: the board after a turn, the final
scores, the status anyone may ask for, and the rules help."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.games.noah.pictures import RENDER, board_picture
from bot.games.noah.words import card_text, kind_text
from bot.games.noah.words import noah_text as _t
from bot.games.places import ranked
from bot.panels import Button, Panel, Picture, Text
from engine.noah.cards import KINDS, SPECIALS
from engine.noah.scoring import card_points
from render.i18n import ListOf


def _scores(view: Mapping[str, Any], names: Sequence[str]) -> Text:
    return _t(
        "turn.scores",
        scores=tuple(
            Text("common.name_points", player=n, points=s)
            for n, s in zip(names, view["scores"], strict=True)
        ),
    )


def _hand_button() -> Button:
    return Button("hand", (), _t("button.show_hand"), emoji="🂠", who="seat")


def board_post(view: Mapping[str, Any], names: Sequence[str]) -> Panel:
    lines = [_scores(view, names), _phase_line(view, names)]
    pictures = (board_picture(view, names, "ark.png"),)
    return Panel(tuple(lines), pictures, (_hand_button(),))


def _phase_line(view: Mapping[str, Any], names: Sequence[str]) -> Text:
    phase = view["phase"]
    rain = view["rain_fallen"]
    if phase == "pet":
        return _t("status.pet", player=names[view["current_player"]])
    if phase == "endgame":
        return _t("status.endgame")
    return _t("status.play", rain=rain, supply=view["supply"])


def final_post(view: Mapping[str, Any], names: Sequence[str], *, ended_early: bool) -> Panel:
    pictures = (
        Picture(
            f"{RENDER}:final",
            (dict(view), list(names)),
            "final-scores.png",
            _t("picture_alt.final"),
        ),
        board_picture(view, names, "final-ark.png"),
    )
    if ended_early and all(type(pet) is int for pet in view["pets"]):
        # Ended before its end: whose pet was which is told (the picture shows them too);
        # the points as they stood are the table's standings, which follow.
        told = tuple(
            Text("noah.story.pet_revealed", player=name, card=card_text(pet))
            for name, pet in zip(names, view["pets"], strict=True)
        )
        return Panel(told, pictures)
    if ended_early or view["phase"] != "over":
        return Panel((_scores(view, names),), pictures)
    winners = view["winners"]
    lines = [
        _t(
            "game.winner",
            count=len(winners),
            winners=ListOf(tuple(names[s] for s in winners), "standard"),
            points=view["scores"][winners[0]],
        )
    ]
    for place, seat in ranked(view["scores"], winners):
        pet = view["pets"][seat]
        lines.append(
            _t(
                "game.line",
                place=place,
                player=names[seat],
                total=view["scores"][seat],
                cards=_card_points(view, seat),
                discs=view["discs"][seat],
                pet=card_text(pet) if type(pet) is int else _t("game.no_pet"),
            )
        )
    return Panel(tuple(lines), pictures)


def _card_points(view: Mapping[str, Any], seat: int) -> Text | ListOf:
    """What ``seat`` scored on each scoring card, the cards that gave nothing left out: the
    engine's own scoring of the figures (pets counted) the final picture shows."""
    halves = {kind: [round(2 * f[kind]) for f in view["figures"]] for kind in KINDS}
    scored = [(kind, card_points(halves[kind])[seat]) for kind in KINDS]
    items = tuple(
        _t("game.card_points", kind=kind_text(kind), points=points)
        for kind, points in scored
        if points
    )
    return ListOf(items, "unit") if items else _t("kind.none")


def status(view: Mapping[str, Any], names: Sequence[str], seat: int | None = None) -> Panel:
    """How the game stands for ``seat`` (told "you" on their turn; None: not at the table)."""
    current = view["current_player"]
    you = "yes" if seat is not None and seat == current else "no"
    lines = (
        _t("status.turn", player=names[current], you=you),
        _scores(view, names),
        _phase_line(view, names),
    )
    picture = board_picture(view, names, "ark.png", viewer=seat)
    return Panel(lines, (picture,), (_hand_button(),))


def rules_help(options: Mapping[str, Any]) -> Panel:
    pictures = (
        Picture(f"{RENDER}:rules_board", (), "rules.png", _t("picture_alt.rules")),
        Picture(f"{RENDER}:rules_key", (), "rules-key.png", _t("picture_alt.key")),
    )
    specials = tuple(_t(f"rules.special.{name}") for name in SPECIALS)
    return Panel((_t("rules.text"), _t("rules.key"), *specials), pictures)

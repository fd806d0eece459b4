"""Ark's turn in taps, privately: take a face-up card, or build a play step by step.

A play is built as :mod:`bot.games.noah.plan` describes: a card (the start panel), its cabin
and then what the card still needs there (the step panel), perhaps a second card the same
way, then a preview of the ark with its new tilt and a button to confirm. Back is always one
tap away until then. Cards that fit nowhere are listed with the reason.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.games.base import Seen
from bot.games.noah.hand import SELECT_PAGE, hand_line, pet_panel
from bot.games.noah.pictures import RENDER, board_picture, hand_picture
from bot.games.noah.plan import NONE, Plan, Step, cabin_token, parse
from bot.games.noah.words import (
    cabin_text,
    card_text,
    features,
    kind_text,
    reason_text,
    refusal,
    tilt_text,
)
from bot.games.noah.words import noah_text as _t
from bot.panels import Button, Control, Option, Panel, Picture, Refusal, Select, Text
from engine.errors import IllegalAction
from engine.noah import CARDS, Game, Placement
from engine.noah.queries import cabin_choices, card_choices
from render.i18n import ListOf


def panel(seen: Seen, *, plan: Sequence[str] = ()) -> Panel:
    """The panel of the step ``plan`` (the controls' arguments) has come to."""
    game: Game = seen.game
    if seen.seat is None or game.phase == "over":
        raise Refusal("table.turn.game_not_active")
    if game.phase == "pet":
        return pet_panel(seen)
    built = parse(game, plan)
    if built.current is not None and built.current.ask == "card" and not built.done:
        return _start_panel(seen)
    if built.current is None or (built.current.ask == "card"):
        return _preview_panel(seen, built)
    return _step_panel(seen, built, built.current)


def _reasons(reasons: Mapping[int, IllegalAction | None]) -> list[Text]:
    return [
        _t("turn.cannot", card=card_text(card), reason=reason_text(why))
        for card, why in reasons.items()
        if why is not None
    ]


def _card_menu(
    game: Game, plan: Plan, reasons: Mapping[int, IllegalAction | None], second: bool
) -> Select | None:
    options: list[Option] = []
    after = plan.done[0] if plan.done else None
    for card, why in reasons.items():
        if why is not None or any(o.value == str(card) for o in options):
            continue
        cabins = cabin_choices(game, card, after)
        options.append(
            Option(
                card_text(card),
                str(card),
                _t("turn.card_option", features=features(card), count=len(cabins)),
            )
        )
    if not options:
        return None
    return Select(
        "pick",
        tuple(options[:SELECT_PAGE]),
        plan.args,
        _t("turn.second_placeholder" if second else "turn.card_placeholder"),
        row=1,
    )


def _start_panel(seen: Seen) -> Panel:
    """The start of a turn: take cards or play a first card (endgame: play or pass)."""
    game: Game = seen.game
    assert seen.seat is not None
    endgame = game.phase == "endgame"
    reasons = card_choices(game)
    plan = parse(game, ())
    discs = game.discs[seen.seat]
    lines = [
        _t("turn.endgame_intro", discs=discs) if endgame else _t("turn.intro"),
        hand_line(game, seen.seat),
        *_reasons(reasons),
    ]
    controls: list[Control] = []
    if not endgame:
        for card in game.face_up:
            controls.append(
                Button(
                    "take",
                    (str(card),),
                    _t("button.take", card=card_text(card)),
                    style="primary",
                    emoji="🃏",
                    row=0,
                )
            )
    menu = _card_menu(game, plan, reasons, second=False)
    if menu is not None:
        controls.append(menu)
    elif not endgame:
        lines.append(_t("turn.nothing_to_play"))
    if endgame:
        controls.append(
            Button("pass", (), _t("button.pass_for_good"), style="danger", emoji="🏁", row=2)
        )
    pictures = (
        board_picture(game.view(None), seen.names, "board.png", seen.seat),
        hand_picture(game, seen.seat),
    )
    return Panel(tuple(lines), pictures, tuple(controls))


def _step_panel(seen: Seen, plan: Plan, current: Step) -> Panel:
    """One card being built: its cabin, or what it needs there."""
    game: Game = seen.game
    assert current.card is not None and seen.seat is not None
    card = current.card
    after = plan.done[0] if plan.done else None
    lines: list[Text] = []
    if plan.done:
        lines.append(_done_line(plan.done))
    options: list[Option] = []
    if current.ask == "cabin":
        lines.append(_t("turn.cabin_intro", card=card_text(card), features=features(card)))
        for choice in cabin_choices(game, card, after):
            tilt = game.preview([*plan.done, choice.ways[0]]).tilt
            inside = choice.cards
            label = cabin_text(choice.side, choice.row, choice.new)
            description = _t(
                "turn.cabin_option",
                cost=choice.cost,
                mates=ListOf(
                    tuple(_t("turn.the_card", card=card_text(c)) for c in inside), "standard"
                ),
                count=len(inside),
                tilt=tilt_text(tilt, then=True),
            )
            options.append(Option(label, cabin_token(choice.side, choice.row), description))
        discs = game.discs[seen.seat]
        lines.append(_t("turn.discs", discs=discs))
    else:
        assert current.cabin is not None
        where = cabin_text(current.cabin.side, current.cabin.row, current.cabin.new)
        lines.append(_t(f"turn.ask_{current.ask}", card=card_text(card), cabin=where))
        for value in current.options():
            options.append(_need_option(current.ask, value))
    controls: list[Control] = [
        Select(
            "pick",
            tuple(options[:SELECT_PAGE]),
            plan.args,
            _t(f"turn.placeholder_{current.ask}"),
            row=0,
        ),
        Button("back", plan.args, _t("button.back"), emoji="↩️", row=1),
        Button("restart", (), _t("button.restart"), row=1),
    ]
    # A second card is built on the preview of the first, the very picture the message
    # already has (kept, not drawn and sent again); a first card on the board it showed.
    if plan.done:
        picture = _preview_picture(game.preview(plan.done), seen.names, seen.seat)
    else:
        picture = board_picture(game.view(None), seen.names, "board.png", seen.seat)
    return Panel(tuple(lines), (picture,), tuple(controls))


def _preview_picture(shown: Game, names: Sequence[str], viewer: int | None) -> Picture:
    """The ship as the play so far leaves it, its cards ringed; ``viewer``: the seat it is
    shown to (told "you")."""
    return Picture(
        f"{RENDER}:preview",
        (shown.view(None), list(names), viewer),
        "preview.png",
        _t("picture_alt.preview"),
    )


def _need_option(need: str, value: Any) -> Option:
    token = NONE if value is None else str(value)
    if need == "drive_out":
        if value is None:
            return Option(_t("turn.drive_none"), token)
        return Option(_t("turn.drive_option", card=card_text(value)), token, features(value))
    if need == "take":
        if value is None:
            return Option(_t("turn.take_none"), token)
        return Option(card_text(value), token, features(value))
    return Option(kind_text(str(value)), token)


def _done_line(done: Sequence[Placement]) -> Text:
    return _t(
        "turn.so_far",
        cards=tuple(_t("turn.placed", card=card_text(p.card), cabin=_cabin_of(p)) for p in done),
    )


def _cabin_of(p: Placement) -> Text:
    return Text("noah.cabin.open", side=Text(f"noah.side.{p.side}"), row=p.row + 1)


def _preview_panel(seen: Seen, plan: Plan) -> Panel:
    """The play so far on the ark, to confirm, add a second card, or take back."""
    game: Game = seen.game
    assert seen.seat is not None
    try:
        shown = game.preview(plan.done)
    except IllegalAction as error:
        raise refusal(error) from None
    lines = [_done_line(plan.done), _t("turn.preview", tilt=tilt_text(shown.tilt))]
    # What each card takes and drives out, a sentence each (never one begun by a space).
    extras = [
        line
        for p in plan.done
        for line in (
            *((_t("turn.preview_take", take=card_text(p.take)),) if p.take is not None else ()),
            *(
                (_t("turn.preview_drive", drive=card_text(p.drive_out)),)
                if p.drive_out is not None
                else ()
            ),
        )
    ]
    lines += extras
    cost = _cost(game, plan.done)
    if cost:
        lines.append(_t("turn.cost", cost=cost, discs=game.discs[seen.seat]))
    controls: list[Control] = []
    one = len(plan.done) == 1
    if one and game.phase == "play":
        reasons = card_choices(game, plan.done[0])
        if CARDS[plan.done[0].card].plays_alone:
            lines.append(_t("turn.plays_alone", card=card_text(plan.done[0].card)))
        else:
            menu = _card_menu(game, plan, reasons, second=True)
            if menu is not None:
                controls.append(menu)
                lines.append(_t("turn.second_hint"))
            else:
                lines.append(_t("turn.no_second"))
    controls += [
        Button(
            "play",
            plan.args,
            _t("button.play", count=len(plan.done)),
            style="success",
            emoji="✅",
            row=2,
        ),
        Button("back", plan.args, _t("button.back"), emoji="↩️", row=2),
        Button("restart", (), _t("button.restart"), row=2),
    ]
    return Panel(tuple(lines), (_preview_picture(shown, seen.names, seen.seat),), tuple(controls))


def _cost(game: Game, done: Sequence[Placement]) -> int:
    """The discs the play costs: a new cabin 1, an endgame play 1 more."""
    cost = 0
    for index, p in enumerate(done):
        after = done[0] if index else None
        cost += next(
            (
                c.cost
                for c in cabin_choices(game, p.card, after)
                if (c.side, c.row) == (p.side, p.row)
            ),
            0,
        )
    return cost

"""The Ark of the Covenant at the table: its panels, controls, typed commands and posts.

A turn in taps: the player opens their panel from the board post and sees the squares where
their tile fits, numbered, a part of the board at a time; they tap a number and see their
tile there, large, turned the first way it fits, with the other ways it fits one tap away.
On that same panel they decide the rest of the turn: a follower (or the Prophet) on one of
the tile's lettered spots, the Ark to a square they choose from a menu (its route and points
shown before it moves), or nothing; the tap that decides places the tile too. After the
first city is completed they put the Ark on one of its numbered tiles. Until a move is
confirmed everything is private and a way back is one tap away; the table posts the whole
turn once it is over.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from bot.games.base import Front, Seen, TurnRecord
from bot.games.covenant import story as telling
from bot.games.covenant.choices import (
    DeployChoice,
    ark_choices,
    ark_destinations,
    ark_end,
    ark_paths,
    deploy_choices,
    deploy_situation,
    find_square,
    gains_text,
    parse_deploy,
    placed,
    square_choices,
    tile_words,
    typed_deploy,
)
from bot.games.places import ranked
from bot.panels import (
    Button,
    Choice,
    CommandOption,
    CommandSpec,
    Control,
    Option,
    Panel,
    Picture,
    Play,
    Refusal,
    Select,
    TableOption,
    Text,
)
from engine.covenant import Deploy, Game, MoveArk, Pass, PlaceArk, PlaceTile
from engine.covenant.editions import DEFAULT_EDITION, EDITIONS, decisions, differences
from engine.covenant.lengths import DEFAULT_LENGTH, LENGTHS
from engine.covenant.notation import parse_square, square_name
from engine.protocol import to_act
from render.covenant.route import read_route, route_letters, route_text
from render.covenant.window import numbered_squares, squares_pages
from render.i18n import ListOf

SELECT_PAGE = 25  # Discord's limit of options in one menu
ROW = 5  # Discord's limit of buttons in one row (and of rows in a message)
RENDER = "render.covenant"


def _t(name: str, **params: Any) -> Text:
    return Text(f"covenant.{name}", **params)


def _yes(flag: bool) -> str:
    """A flag for a message's ``select``."""
    return "yes" if flag else "no"


def _length(key: str) -> Text:
    """A game length as the lobby's menu names it: "Short game (36 tiles)"."""
    return _t(f"length.{key}", tiles=LENGTHS[key])


#: How many arguments each control of the panels carries (see :meth:`CovenantFront.panel`).
_ARGS = {"overview": 0, "page": 1, "sq": 2, "rot": 3, "back": 0, "putark": 2}
#: The controls of the choice after the tile: their arguments after the tile's square (which
#: they carry first while the tile is not placed yet).
_AFTER_TILE = {"ark": 1, "go": 1, "pass": 0, "put": 2, "spot": 0}


class CovenantFront(Front[Game, Game]):
    command_group = "covenant"
    #: The whole board, from the board post's button, for anyone at the table.
    seat_controls = frozenset({"overview"})
    warm_up = (f"{RENDER}:warm_up",)
    commands = (
        CommandSpec("tile", _t("command.tile")),
        CommandSpec(
            "place",
            _t("command.place"),
            (
                CommandOption("square", _t("command.place_square"), autocomplete=True),
                CommandOption(
                    "rotation",
                    _t("command.place_rotation"),
                    kind="integer",
                    required=False,
                    autocomplete=True,
                ),
            ),
        ),
        CommandSpec(
            "follower",
            _t("command.follower"),
            (CommandOption("spot", _t("command.follower_spot"), autocomplete=True),),
        ),
        CommandSpec(
            "ark",
            _t("command.ark"),
            (CommandOption("path", _t("command.ark_path"), autocomplete=True),),
        ),
        CommandSpec("pass", _t("command.pass")),
        CommandSpec(
            "putark",
            _t("command.putark"),
            (CommandOption("square", _t("command.putark_square"), autocomplete=True),),
        ),
    )

    def title(self) -> Text:
        return _t("title")

    # ================================================================ the private panel

    def panel(
        self,
        seen: Seen[Game],
        *,
        page: int = 0,
        square: tuple[int, int, int] | None = None,
        path: str | None = None,
    ) -> Panel:
        """The panel of the step the turn is at: the squares (part ``page``), the tile on
        ``square`` (x, y, rotation) with the rest of the turn to choose, the Ark's route
        ``path``, or after the tile is placed the same choice without it."""
        game: Game = seen.game
        if game.phase == "place_tile":
            if square is None:
                return self._squares_panel(seen, page)
            after = placed(game, *square)
            if path is not None:
                return self._route_panel(seen, after, square, path)
            return self._choose_panel(seen, after, square)
        if game.phase == "deploy":
            if path is not None:
                return self._route_panel(seen, game, None, path)
            return self._choose_panel(seen, game, None)
        if game.phase == "place_ark":
            return self._put_ark_panel(seen)
        raise Refusal("table.turn.game_not_active")

    def _squares_panel(self, seen: Seen[Game], page: int) -> Panel:
        game: Game = seen.game
        assert game.tile is not None
        pages = squares_pages(game)
        page = min(max(page, 0), len(pages) - 1)
        first = sum(len(p) for p in pages[:page]) + 1
        controls: list[Control] = [
            Button(
                "sq",
                (str(x), str(y)),
                Text("common.raw", text=str(number)),
                style="primary",
                row=(number - first) // ROW,
            )
            for number, (x, y) in enumerate(pages[page], start=first)
        ]
        if 1 < len(pages) <= ROW:
            # Every part of the board one tap away.
            controls += [
                Button(
                    "page",
                    (str(other),),
                    _t("button.part", page=other + 1),
                    style="primary" if other == page else "secondary",
                    disabled=other == page,
                    row=4,
                )
                for other in range(len(pages))
            ]
        elif len(pages) > ROW:
            controls += [
                Button(
                    "page", (str(page - 1),), Text("common.previous"), disabled=page == 0, row=4
                ),
                Button(
                    "page",
                    (str(page + 1),),
                    Text("common.next"),
                    disabled=page + 1 >= len(pages),
                    row=4,
                ),
            ]
        count = sum(len(p) for p in pages)
        lines = [_t("turn.squares_intro", tile=tile_words(game.tile), count=count)]
        if len(pages) > 1:
            lines.append(_t("turn.squares_part", page=page + 1, pages=len(pages)))
        save = game.view(seen.seat).to_json()
        picture = Picture(f"{RENDER}:squares", (save, page), "squares.png")
        return Panel(tuple(lines), (picture,), tuple(controls))

    def _choose_panel(
        self, seen: Seen[Game], after: Game, square: tuple[int, int, int] | None
    ) -> Panel:
        """The tile on its square (``square``; ``None``: already placed) with everything
        the rest of the turn may be, each one tap away: a piece on a lettered spot, the Ark
        to a square of a menu, or nothing more."""
        assert after.last_placed is not None
        at = tuple(str(v) for v in square) if square is not None else ()
        controls: list[Control] = []
        lines: list[Text] = []
        row = 0
        if square is not None:
            x, y, rotation = square
            fits = seen.game.placements()[(x, y)]
            number = numbered_squares(seen.game).index((x, y)) + 1
            lines.append(
                _t(
                    "turn.on_square",
                    square=square_name((x, y)),
                    number=number,
                    rotation=rotation,
                    count=len(fits),
                )
            )
            if len(fits) > 1:
                controls += [
                    Button(
                        "rot",
                        (str(x), str(y), str(r)),
                        Text("common.raw", text=f"{r}°"),
                        style="primary" if r == rotation else "secondary",
                        emoji="✅" if r == rotation else "🔄",
                        disabled=r == rotation,
                        row=0,
                    )
                    for r in fits
                ]
            page = next(i for i, p in enumerate(squares_pages(seen.game)) if (x, y) in p)
            controls.append(
                Button("page", (str(page),), _t("button.other_square"), emoji="↩️", row=0)
            )
            row = 1
        else:
            lines.append(_t("turn.placed", square=square_name(after.last_placed)))
        spots = deploy_choices(after)
        can = "piece" if spots else "none"
        if after.ark is not None:
            can = "both" if spots else "ark"
        lines.append(_t("turn.choose", can=can, placing="yes" if square is not None else "no"))
        if spots:
            lines.append(_t("turn.spots", spots=ListOf(tuple(c.label for c in spots), "standard")))
        lines += deploy_situation(after, seen.names)
        finish = Button(
            "pass",
            at,
            _t("button.place_only") if square is not None else _t("button.pass"),
            style="success" if square is not None else "secondary",
            emoji="✅" if square is not None else None,
        )
        buttons: list[Button] = [
            Button(
                "put",
                (*at, c.port, str(int(c.prophet))),
                _t("button.spot", letter=c.letter, kind=c.kind, prophet=_yes(c.prophet)),
            )
            for c in spots
        ]
        if len(buttons) + 1 > 2 * ROW:
            # More spots than two rows hold (no tile has so many): a menu of them.
            menu = Select(
                "spot",
                tuple(Option(c.label, f"{c.port}:{int(c.prophet)}") for c in spots),
                at,
                _t("turn.deploy_placeholder"),
                row=row,
            )
            controls.append(menu)
            buttons = []
            row += 1
        for index, button in enumerate([*buttons, finish]):
            controls.append(dataclasses.replace(button, row=row + index // ROW))
        row += 1 + len(buttons) // ROW
        if after.ark is not None:
            controls += self._ark_menus(after, at, row, seen.names)
        save = after.view(seen.seat).to_json()
        picture = Picture(f"{RENDER}:placed", (save,), "your-tile.png")
        return Panel(tuple(lines), (picture,), tuple(controls))

    def _ark_menus(
        self, after: Game, at: tuple[str, ...], row: int, names: tuple[str, ...]
    ) -> list[Control]:
        """The squares the Ark can go to, the best first, in as many menus as the rows
        left hold (the rest: by typing ``/covenant ark``)."""
        destinations = ark_destinations(after)
        menus: list[Control] = []
        for index in range(min(5 - row, -(-len(destinations) // SELECT_PAGE))):
            part = destinations[index * SELECT_PAGE : (index + 1) * SELECT_PAGE]
            options = tuple(
                Option(
                    _t(
                        "turn.ark_option",
                        square=square_name(d.square),
                        gains=gains_text(d.points, names, to_act(after)),
                    ),
                    d.path,
                    _t("turn.ark_route", path=route_text(d.path), steps=len(d.path)),
                )
                for d in part
            )
            placeholder = "turn.ark_placeholder" if index == 0 else "turn.ark_more"
            # The menu's number last: no two controls of a message may have the same id.
            args = (*at, str(index))
            menus.append(Select("ark", options, args, _t(placeholder), row=row + index))
        return menus

    def _route_panel(
        self, seen: Seen[Game], after: Game, square: tuple[int, int, int] | None, path: str
    ) -> Panel:
        """The Ark's route to the square chosen, with its points, to confirm."""
        if path not in ark_paths(after):
            raise Refusal("covenant.illegal.ark_off_board")
        assert after.ark is not None
        at = tuple(str(v) for v in square) if square is not None else ()
        end = ark_end(after, path)
        lines = [
            _t(
                "turn.ark_route_line",
                start=square_name(after.ark),
                end=square_name(end),
                path=route_text(path),
                gains=gains_text(after.ark_gain(path), seen.names, to_act(after)),
                placing="yes" if square is not None else "no",
            )
        ]
        controls: list[Control] = [
            Button(
                "go",
                (*at, path),
                _t("button.move_ark_here", placing=_yes(square is not None)),
                style="success",
                emoji="✅",
                row=0,
            ),
            # Back to the choice of the turn's rest, the tile where it was.
            Button("rot" if square else "back", at, _t("button.back"), emoji="↩️", row=0),
        ]
        controls += self._ark_menus(after, at, 1, seen.names)
        save = after.view(seen.seat).to_json()
        picture = Picture(f"{RENDER}:ark", (save, path, list(seen.names)), "the-ark.png")
        return Panel(tuple(lines), (picture,), tuple(controls))

    def _put_ark_panel(self, seen: Seen[Game]) -> Panel:
        game: Game = seen.game
        controls = tuple(
            Button(
                "putark",
                (str(x), str(y)),
                _t("turn.spot_option", number=number, square=square_name((x, y))),
                style="primary",
                row=(number - 1) // ROW,
            )
            for number, (x, y) in enumerate(game.ark_choices[: 5 * ROW], start=1)
        )
        save = game.view(seen.seat).to_json()
        picture = Picture(f"{RENDER}:put_ark", (save,), "the-city.png")
        return Panel((_t("turn.putark_intro"),), (picture,), controls)

    # ================================================================ taps

    def on_control(
        self, seen: Seen[Game], control: str, args: Sequence[str], values: Sequence[str]
    ) -> Panel | Play:
        game: Game = seen.game
        try:
            return self._control(seen, game, control, list(args), list(values))
        except (ValueError, IndexError):
            # A control of ours always parses; anything else was made up.
            raise Refusal("table.error.unknown_control") from None

    def _control(
        self, seen: Seen[Game], game: Game, control: str, args: list[str], values: list[str]
    ) -> Panel | Play:
        """A tap. The controls of the choice after the tile carry its square first (x, y,
        rotation) while the tile is not placed yet, and play it with what they decide."""
        if len(args) != _ARGS.get(control, len(args)):
            raise ValueError(f"{control} carries {len(args)} arguments")
        if control == "overview":
            return self.overview(seen)
        if control == "page":
            return self.panel(seen, page=int(args[0]))
        if control == "sq":
            x, y = int(args[0]), int(args[1])
            fits = game.placements().get((x, y))
            if not fits:
                raise Refusal("covenant.turn.no_such_spot")
            return self.panel(seen, square=(x, y, fits[0]))
        if control == "rot":
            return self.panel(seen, square=(int(args[0]), int(args[1]), int(args[2])))
        if control == "back":
            return self.panel(seen)
        if control == "putark":
            return Play(PlaceArk(int(args[0]), int(args[1])))
        placing, rest = self._placing(game, args, control)
        # Exactly the arguments the control was made with: a legal move followed by junk
        # was never one of our controls, and is not played as if it were.
        if len(rest) != _AFTER_TILE.get(control, -1):
            raise ValueError(f"{control} carries {len(rest)} arguments after the square")
        if control == "ark":
            return self.panel(seen, square=placing, path=values[0])
        if control == "go":
            return self._play(placing, MoveArk(rest[0]))
        if control == "pass":
            return self._play(placing, Pass())
        if control == "put":
            if rest[1] not in ("0", "1"):
                raise ValueError(rest[1])
            return self._play(placing, Deploy(rest[0], rest[1] == "1"))
        if control == "spot":
            return self._play(placing, parse_deploy(values[0]))
        raise Refusal("table.error.unknown_control")

    @staticmethod
    def _placing(
        game: Game, args: list[str], control: str
    ) -> tuple[tuple[int, int, int] | None, list[str]]:
        """The square a control of the choice after the tile carries (None once the tile
        is placed), and its other arguments."""
        if game.phase != "place_tile" or control == "putark":
            return None, args
        x, y, rotation = (int(v) for v in args[:3])
        if rotation not in game.placements().get((x, y), ()):
            raise Refusal("covenant.turn.no_such_spot")
        return (x, y, rotation), args[3:]

    @staticmethod
    def _play(placing: tuple[int, int, int] | None, action: Any) -> Play:
        """``action``, after placing the tile where ``placing`` says (if it is not yet)."""
        if placing is None:
            return Play(action)
        return Play(PlaceTile(*placing), (action,))

    def overview(self, seen: Seen[Game]) -> Panel:
        """The whole board, as large as it has grown, privately (from the public view)."""
        game: Game = seen.game
        view = game.view(None)
        picture = Picture(
            f"{RENDER}:board",
            (view.to_json(), view.phase == "place_tile", list(seen.names), seen.seat),
            "whole-board.png",
        )
        return Panel((_t("status.overview"),), (picture,))

    # ================================================================ typed commands

    def on_command(
        self, seen: Seen[Game], command: str, options: Mapping[str, Any]
    ) -> Panel | Play:
        game: Game = seen.game
        if command == "tile":
            return self.panel(seen)
        if command == "place":
            if game.phase != "place_tile":
                raise Refusal("covenant.turn.tile_already_placed")
            typed = str(options.get("square", ""))
            found = find_square(game, typed)
            if found is None:
                raise Refusal("covenant.turn.no_such_square", square=typed.strip().upper()[:12])
            rotation = options.get("rotation")
            rotation = found.rotations[0] if rotation is None else int(rotation)
            if rotation not in found.rotations:
                raise Refusal(
                    "covenant.turn.bad_rotation",
                    square=found.square,
                    rotations=tuple(f"{r}°" for r in found.rotations),
                )
            return Play(PlaceTile(found.x, found.y, rotation))
        if command == "follower":
            if game.phase != "deploy":
                raise Refusal("covenant.illegal.wrong_phase")
            return Play(typed_deploy(game, str(options.get("spot", ""))))
        if command == "ark":
            return Play(MoveArk(read_route(str(options.get("path", "")), seen.language)))
        if command == "pass":
            return Play(Pass())
        if command == "putark":
            typed = str(options.get("square", ""))
            try:
                x, y = parse_square(typed)
            except ValueError:
                raise Refusal(
                    "covenant.turn.no_such_square", square=typed.strip().upper()[:12]
                ) from None
            return Play(PlaceArk(x, y))
        raise Refusal("table.error.unknown_control")

    def autocomplete(
        self, seen: Seen[Game], command: str, option: str, current: str, typed: Mapping[str, Any]
    ) -> Sequence[Choice]:
        game: Game = seen.game
        prefix = current.strip().upper()
        if command == "place" and option == "square":
            return [
                Choice(
                    _t(
                        "turn.spot_choice", number=s.number, square=s.square, count=len(s.rotations)
                    ),
                    s.square,
                )
                for s in square_choices(game)
                if not prefix or s.square.startswith(prefix) or str(s.number) == prefix
            ]
        if command == "place" and option == "rotation":
            # The rotations that fit on the square typed so far (all four before that).
            found = find_square(game, str(typed.get("square") or ""))
            rotations = found.rotations if found is not None else (0, 90, 180, 270)
            return [Choice(Text("common.raw", text=f"{r}°"), r) for r in rotations]
        if command == "follower" and option == "spot":
            return [Choice(c.label, c.typed) for c in deploy_choices(game)]
        if command == "ark" and option == "path":
            return [
                Choice(
                    _t(
                        "turn.ark_choice",
                        path=route_text(c.path),
                        gains=gains_text(c.points, seen.names, seen.seat),
                    ),
                    # Typed in the reader's letters, as they read it.
                    route_letters(c.path, seen.language),
                )
                for c in ark_choices(game)
            ]
        if command == "putark" and option == "square":
            return [
                Choice(Text("common.raw", text=square_name(p)), square_name(p))
                for p in game.ark_choices
            ]
        return ()

    # ================================================================ public posts

    def story(self, turns: Sequence[TurnRecord], names: Sequence[str]) -> list[Text]:
        return telling.story(turns, names)

    def _scores(self, view: Game, names: Sequence[str]) -> Text:
        return _t(
            "turn.scores",
            scores=tuple(
                Text("common.name_points", player=n, points=s)
                for n, s in zip(names, view.scores, strict=True)
            ),
        )

    def board_post(self, view: Game, names: Sequence[str]) -> Panel:
        picture = Picture(
            f"{RENDER}:latest", (view.to_json(), list(names)), f"board-turn-{view.turn}.png"
        )
        lines: tuple[Text, ...] = (self._scores(view, names),)
        if view.tile is not None:
            lines += (_t("turn.next_tile", tile=tile_words(view.tile), left=view.tiles_left),)
        # The picture shows where the last round was played; the whole board is a tap away.
        whole = Button("overview", (), _t("button.overview"), emoji="🗺️", who="seat")
        return Panel(lines, (picture,), (whole,))

    def final_post(self, view: Game, names: Sequence[str], *, ended_early: bool) -> Panel:
        save = view.to_json()
        pictures = (
            Picture(f"{RENDER}:final", (save, list(names)), "final-scores.png"),
            # The board alone: the standings are the picture above, readable on a phone.
            Picture(f"{RENDER}:board", (save, False, list(names), None, False), "final-board.png"),
        )
        if ended_early or view.phase != "over":
            return Panel((self._scores(view, names),), pictures)
        winners = view.winners
        lines = [
            _t(
                "game.winner",
                count=len(winners),
                winners=ListOf(tuple(names[s] for s in winners), "standard"),
                points=view.scores[winners[0]],
            )
        ]
        # Ranked as the card game ranks its final list, not in seat order.
        for place, seat in ranked(view.scores, winners):
            b = view.breakdown(seat)
            lines.append(
                _t(
                    "game.breakdown",
                    place=place,
                    player=names[seat],
                    total=view.scores[seat],
                    road=b["road"],
                    city=b["city"],
                    temple=b["temple"],
                    field=b["field"],
                    ark=b["ark"],
                )
            )
        return Panel(tuple(lines), pictures)

    def status(self, view: Game, names: Sequence[str], seat: int | None = None) -> Panel:
        # The board post's close-up, readable on a phone (the whole board with its side
        # panel is over 1,300 px wide: its words shrink to 5 px there); the whole board one
        # tap away, the standings in words.
        picture = Picture(f"{RENDER}:latest", (view.to_json(), list(names)), "board.png")
        whole = Button("overview", (), _t("button.overview"), emoji="🗺️", who="seat")
        you = _yes(seat is not None and seat == to_act(view))
        lines = (
            _t("status.turn", turn=view.turn, player=names[to_act(view)], you=you),
            self._scores(view, names),
            _t("status.tiles_left", left=view.tiles_left),
            _t("status.edition", edition=_t(f"edition.{view.edition}")),
            _t("status.length", length=_length(view.length)),
        )
        return Panel(lines, (picture,), (whole,))

    # ================================================================ editions, lengths

    table_options = (
        TableOption(
            "edition",
            _t("edition.choose"),
            tuple(
                Option(_t(f"edition.{key}"), key, _t(f"edition.{key}_short")) for key in EDITIONS
            ),
        ),
        TableOption(
            "length",
            _t("length.choose"),
            tuple(Option(_length(key), key, _t(f"length.{key}_short")) for key in LENGTHS),
        ),
    )

    def replay_picture(self, views: Sequence[Any], names: Sequence[str]) -> Picture | None:
        saves = [view.to_json() for view in views]
        return Picture(f"{RENDER}:replay", (saves, list(names)), "replay.gif", slow=True)

    def hint_text(
        self,
        seen: Seen[Game],
        action: Mapping[str, Any],
        key: str,
        params: Mapping[str, Any],
        *,
        rest: Sequence[Mapping[str, Any]] = (),
    ) -> list[Text]:
        said = dict(params)
        if "x" in said and "y" in said:
            said["square"] = square_name((said.pop("x"), said.pop("y")))
        if "prophet" in said:
            said["prophet"] = "yes" if said["prophet"] else "no"
        # Every step of the turn as the panel offers it, then why. A reason that names its
        # step itself (the Ark put down, a pass) is said alone; a piece put on a feature is
        # said by the reason, with the spot's letter.
        steps: list[Text] = []
        now = seen.game
        placing = action.get("type") == "place_tile"
        for step in (action, *rest):
            if step.get("type") == "deploy" and key == "hint.claims_feature":
                chosen = _deploy_choice(now, step)
                said["letter"] = chosen.letter if chosen is not None else "?"
            elif step.get("type") == "pass" and key != "hint.passes":
                # The button that ends the turn here, as the panel labels it.
                button = _t("button.place_only") if placing else _t("button.pass")
                ark = "yes" if now.ark is not None else "no"
                steps.append(_t("hint.pass_move", button=button, ark=ark))
            else:
                move = self._hint_move(now, step)
                if move is not None:
                    steps.append(move)
            if step.get("type") == "place_tile" and now.phase == "place_tile":
                now = placed(now, step["x"], step["y"], step["rotation"])
        return [*steps, _t(key, **said)]

    @staticmethod
    def _hint_move(game: Game, action: Mapping[str, Any]) -> Text | None:
        """One step of a suggested turn in words (played now on ``game``), as the panel
        offers it: the tile's square by its number on the picture (and the part of the
        board it is on), the piece's spot by its letter, the Ark's end and route."""
        kind = action.get("type")
        if kind == "place_tile":
            pos = (action["x"], action["y"])
            pages = squares_pages(game)
            page = next((i for i, p in enumerate(pages) if pos in p), 0)
            return _t(
                "hint.tile_move",
                square=square_name(pos),
                number=numbered_squares(game).index(pos) + 1,
                part=page + 1 if len(pages) > 1 else 0,
                rotation=action["rotation"],
            )
        if kind == "move_ark" and game.ark is not None:
            # Where it ends, as the route's panel says it: the letters alone ("EEEEE") are
            # the route menu's labels, not a place on the picture.
            path = action["path"]
            end = square_name(ark_end(game, path))
            return _t("hint.ark_move", path=route_text(path), steps=len(path), end=end)
        if kind == "deploy":
            chosen = _deploy_choice(game, action)
            if chosen is not None:
                return _t(
                    "hint.piece_move",
                    piece="prophet" if chosen.prophet else "follower",
                    letter=chosen.letter,
                    spot=chosen.name,
                )
        return None

    def options_line(self, options: Mapping[str, Any]) -> Text | None:
        edition = options.get("edition", DEFAULT_EDITION)
        length = options.get("length", DEFAULT_LENGTH)
        return _t("lobby.options", edition=_t(f"edition.{edition}"), length=_length(length))

    def edition_lines(self, key: str) -> list[Text]:
        """How the table's edition plays, where editions differ, and the engine's readings."""
        lines = [_t("rules.edition", edition=_t(f"edition.{key}"))]
        lines += [
            _t(f"edition_rule.{r.key}.{r.variant}", **dict(r.params)) for r in differences(key)
        ]
        lines += [_t(f"decision.{d.key}") for d in decisions(key)]
        if key == DEFAULT_EDITION:
            lines.append(_t("rules.other_editions"))
        return lines

    def rules_help(self, options: Mapping[str, Any]) -> Panel:
        pictures = (
            Picture(f"{RENDER}:rules_board", (), "rules.png"),
            Picture(f"{RENDER}:rules_key", (), "rules-key.png"),
        )
        edition = options.get("edition", DEFAULT_EDITION)
        length = options.get("length", DEFAULT_LENGTH)
        if length == DEFAULT_LENGTH:
            said = _t("rules.length_full")
        else:
            said = _t("rules.length_shorter", length=length, tiles=LENGTHS[length])
        return Panel((_t("rules.text"), *self.edition_lines(edition), said), pictures)


def _deploy_choice(game: Game, action: Mapping[str, Any]) -> DeployChoice | None:
    """The panel's spot for a piece put as ``action`` says (None: the tile has none such)."""
    return next(
        (
            c
            for c in deploy_choices(game)
            if c.port == action.get("port") and c.prophet == action.get("prophet")
        ),
        None,
    )

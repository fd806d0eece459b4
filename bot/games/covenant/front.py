"""The Ark of the Covenant at the table: its panels, controls, typed commands and posts.

A turn in taps: the player opens their panel from the board post, picks one of the numbered
squares, turns the tile and sees a private preview, places it; then puts a follower on one of
the lettered spots, moves the Ark with the arrows, or passes; after the first city is
completed, they put the Ark on one of its tiles. Until a move is confirmed everything is
private; the table posts the whole turn once it is over.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.games.base import Front, Seen, TurnRecord
from bot.games.covenant import story as telling
from bot.games.covenant.choices import (
    ark_choices,
    ark_next_letters,
    ark_paths,
    ark_steps,
    deploy_choices,
    deploy_situation,
    find_square,
    gains_text,
    parse_deploy,
    square_choices,
    tile_words,
    typed_deploy,
)
from bot.i18n import ListOf
from bot.panels import (
    Button,
    Choice,
    CommandOption,
    CommandSpec,
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

SELECT_PAGE = 25  # Discord's limit of options in one menu
ARROWS = {"N": "⬆️", "E": "➡️", "S": "⬇️", "W": "⬅️"}
RENDER = "render.covenant"


def _t(name: str, **params: Any) -> Text:
    return Text(f"covenant.{name}", **params)


def _length(key: str) -> Text:
    """A game length as the lobby's menu names it: "Short game (36 tiles)"."""
    return _t(f"length.{key}", tiles=LENGTHS[key])


def _pos(value: str) -> tuple[int, int]:
    x, _, y = value.partition(",")
    return int(x), int(y)


class CovenantFront(Front):
    command_group = "covenant"
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
        seen: Seen,
        *,
        square: tuple[int, int, int] | None = None,
        page: int = 0,
        path: str = "",
        piece: tuple[str, bool] | None = None,
    ) -> Panel:
        game: Game = seen.game
        if game.phase == "place_tile":
            if square is None:
                return self._squares_panel(seen, page)
            return self._preview_panel(seen, *square)
        if game.phase == "deploy":
            if piece is not None:
                return self._piece_panel(seen, *piece)
            return self._deploy_panel(seen, path)
        if game.phase == "place_ark":
            return self._put_ark_panel(seen)
        raise Refusal("table.turn.game_not_active")

    def _board(self, seen: Seen, numbered: bool, filename: str = "board.png") -> Picture:
        game: Game = seen.game
        return Picture(
            f"{RENDER}:board",
            (game.view(seen.seat).to_json(), numbered, list(seen.names)),
            filename,
        )

    def _squares_panel(self, seen: Seen, page: int) -> Panel:
        game: Game = seen.game
        assert game.tile is not None
        squares = square_choices(game)
        pages = max(1, -(-len(squares) // SELECT_PAGE))
        page = min(max(page, 0), pages - 1)
        shown = squares[page * SELECT_PAGE : (page + 1) * SELECT_PAGE]
        controls: list[Any] = [
            Select(
                # "spot" is this menu's id in the panels already posted: kept as it is.
                "spot",
                tuple(
                    Option(
                        _t("turn.spot_option", number=s.number, square=s.square),
                        f"{s.x},{s.y}",
                        _t("turn.spot_ways", count=len(s.rotations)),
                    )
                    for s in shown
                ),
                placeholder=_t("turn.spot_placeholder"),
            )
        ]
        if pages > 1:
            controls += [
                Button(
                    "page", (str(page - 1),), Text("common.previous"), disabled=page == 0, row=1
                ),
                Button(
                    "page", (str(page + 1),), Text("common.next"), disabled=page + 1 >= pages, row=1
                ),
            ]
        lines = [_t("turn.place_intro", tile=tile_words(game.tile), count=len(squares))]
        if pages > 1:
            lines.append(_t("turn.page", page=page + 1, pages=pages))
        pictures = (
            Picture(f"{RENDER}:rotations", (game.tile,), "your-tile.png"),
            # The numbered squares, in the panel itself (not only in the public post).
            self._board(seen, True, "spots.png"),
        )
        return Panel(tuple(lines), pictures, tuple(controls))

    def _preview_panel(self, seen: Seen, x: int, y: int, rotation: int) -> Panel:
        game: Game = seen.game
        rotations = game.placements().get((x, y), ())
        if rotation not in rotations:
            raise Refusal("covenant.turn.no_such_spot")
        after = rotations[(rotations.index(rotation) + 1) % len(rotations)]
        save = game.view(seen.seat).to_json()
        pictures = (
            # The chosen square and its neighbours, large: readable on a phone however big
            # the board has grown; then the whole board.
            Picture(f"{RENDER}:preview_zoom", (save, x, y, rotation), "preview-close.png"),
            Picture(f"{RENDER}:preview", (save, x, y, rotation, list(seen.names)), "preview.png"),
        )
        xy = (str(x), str(y))
        controls = (
            Button(
                "rot",
                (*xy, str(after)),
                _t("button.turn_tile"),
                emoji="🔄",
                disabled=len(rotations) == 1,
            ),
            Button(
                "place",
                (*xy, str(rotation)),
                _t("button.place"),
                style="success",
                emoji="✅",
            ),
            Button("back", (), _t("button.other_spot")),
        )
        line = _t(
            "turn.preview", square=square_name((x, y)), rotation=rotation, count=len(rotations)
        )
        return Panel((line,), pictures, controls)

    def _deploy_panel(self, seen: Seen, path: str) -> Panel:
        game: Game = seen.game
        assert game.last_placed is not None
        controls: list[Any] = []
        choices = deploy_choices(game)
        if choices:
            controls.append(
                Select(
                    "deploy",
                    tuple(Option(c.label, c.value) for c in choices),
                    placeholder=_t("turn.deploy_placeholder"),
                )
            )
        can = "piece" if choices else "none"
        if game.ark is not None:
            can = "both" if choices else "ark"
        lines = [_t("turn.deploy_intro", square=square_name(game.last_placed), can=can)]
        if not path:
            lines += deploy_situation(game, seen.names)
        save = game.view(seen.seat).to_json()
        pictures: list[Picture] = []
        if not path:
            # The new tile, large, its free spots lettered as in the menu.
            pictures.append(Picture(f"{RENDER}:deploy", (save,), "your-tile.png"))
        if game.ark is not None:
            paths = set(ark_paths(game))
            following = ark_next_letters(game, path)
            for letter, arrow in ARROWS.items():
                controls.append(
                    Button(
                        "step",
                        (path + letter,),
                        Text("common.raw", text=letter),
                        emoji=arrow,
                        disabled=letter not in following,
                        row=1,
                    )
                )
            controls.append(Button("step", ("",), _t("button.clear"), disabled=not path, row=1))
            controls.append(
                Button(
                    "go",
                    (path or "-",),
                    _t("button.move_ark", path=path or "…"),
                    style="primary",
                    disabled=path not in paths,
                    row=2,
                )
            )
            if path:
                lines += self._ark_lines(game, path, seen.names, seen.seat)
            else:
                lines.append(_t("turn.ark_hint"))
            # The board around the Ark: the path so far, where it can go next, what each
            # tile would give.
            pictures.append(Picture(f"{RENDER}:ark", (save, path, list(seen.names)), "the-ark.png"))
        controls.append(Button("pass", (), _t("button.pass"), row=2))
        return Panel(tuple(lines), tuple(pictures), tuple(controls))

    def _ark_lines(
        self, game: Game, path: str, names: tuple[str, ...], reader: int | None
    ) -> list[Text]:
        steps = tuple(
            _t(
                "turn.ark_step",
                number=number,
                square=square_name(pos),
                gains=gains_text(points, names, reader),
            )
            for number, (pos, points) in enumerate(ark_steps(game, path), start=1)
        )
        return [
            _t("turn.ark_path", path=path, gains=gains_text(game.ark_gain(path), names, reader)),
            _t("turn.ark_steps", steps=steps),
        ]

    def _piece_panel(self, seen: Seen, port: str, prophet: bool) -> Panel:
        """The piece shown where it would stand, to confirm or take back."""
        game: Game = seen.game
        chosen = next(
            (c for c in deploy_choices(game) if c.port == port and c.prophet == prophet), None
        )
        if chosen is None:
            raise Refusal("covenant.illegal.bad_port")
        picture = Picture(
            f"{RENDER}:deploy",
            (game.view(seen.seat).to_json(), port, prophet),
            "your-piece.png",
        )
        line = _t(
            "turn.piece_preview",
            piece="prophet" if prophet else "follower",
            letter=chosen.letter,
            spot=chosen.name,
        )
        controls = (
            Button(
                "put",
                (port, str(int(prophet))),
                _t("button.put_piece"),
                style="success",
                emoji="✅",
            ),
            Button("back", (), _t("button.other_piece")),
        )
        return Panel((line,), (picture,), controls)

    def _put_ark_panel(self, seen: Seen) -> Panel:
        game: Game = seen.game
        select = Select(
            "putark",
            tuple(
                Option(Text("common.raw", text=square_name(p)), f"{p[0]},{p[1]}")
                for p in game.ark_choices[:SELECT_PAGE]
            ),
            placeholder=_t("turn.putark_placeholder"),
        )
        return Panel((_t("turn.putark_intro"),), (self._board(seen, False),), (select,))

    # ================================================================ taps

    def on_control(
        self, seen: Seen, control: str, args: Sequence[str], values: Sequence[str]
    ) -> Panel | Play:
        game: Game = seen.game
        try:
            return self._control(seen, game, control, list(args), list(values))
        except (ValueError, IndexError):
            # A control of ours always parses; anything else was made up.
            raise Refusal("table.error.unknown_control") from None

    def _control(
        self, seen: Seen, game: Game, control: str, args: list[str], values: list[str]
    ) -> Panel | Play:
        if control == "page":
            return self.panel(seen, page=int(args[0]))
        if control == "spot":
            x, y = _pos(values[0])
            rotations = game.placements().get((x, y))
            if not rotations:
                raise Refusal("covenant.turn.no_such_spot")
            return self.panel(seen, square=(x, y, rotations[0]))
        if control == "rot":
            return self.panel(seen, square=(int(args[0]), int(args[1]), int(args[2])))
        if control == "back":
            return self.panel(seen)
        if control == "step":
            path = args[0] if args else ""
            if path and path not in {p[: len(path)] for p in ark_paths(game)}:
                raise Refusal("covenant.illegal.ark_off_board")
            return self.panel(seen, path=path)
        if control == "place":
            return Play(PlaceTile(int(args[0]), int(args[1]), int(args[2])))
        if control == "go":
            return Play(MoveArk(args[0]))
        if control == "pass":
            return Play(Pass())
        if control == "deploy":
            # A spot chosen: show the piece there first; "put" confirms it.
            choice = parse_deploy(values[0])
            return self.panel(seen, piece=(choice.port, choice.prophet))
        if control == "put":
            if args[1] not in ("0", "1"):
                raise ValueError(args[1])
            return Play(Deploy(args[0], args[1] == "1"))
        if control == "putark":
            return Play(PlaceArk(*_pos(values[0])))
        raise Refusal("table.error.unknown_control")

    # ================================================================ typed commands

    def on_command(self, seen: Seen, command: str, options: Mapping[str, Any]) -> Panel | Play:
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
            return Play(MoveArk(str(options.get("path", "")).strip().upper()))
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
        self, seen: Seen, command: str, option: str, current: str, typed: Mapping[str, Any]
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
                        path=c.path,
                        gains=gains_text(c.points, seen.names, seen.seat),
                    ),
                    c.path,
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
            f"{RENDER}:board",
            (view.to_json(), view.phase == "place_tile", list(names)),
            f"board-turn-{view.turn}.png",
        )
        lines: tuple[Text, ...] = (self._scores(view, names),)
        if view.tile is not None:
            lines += (_t("turn.next_tile", tile=tile_words(view.tile), left=view.tiles_left),)
        return Panel(lines, (picture,))

    def final_post(self, view: Game, names: Sequence[str], *, ended_early: bool) -> Panel:
        save = view.to_json()
        pictures = (
            Picture(f"{RENDER}:final", (save, list(names)), "final-scores.png"),
            Picture(f"{RENDER}:board", (save, False, list(names)), "final-board.png"),
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
        for seat, name in enumerate(names):
            b = view.breakdown(seat)
            lines.append(
                _t(
                    "game.breakdown",
                    player=name,
                    total=view.scores[seat],
                    road=b["road"],
                    city=b["city"],
                    temple=b["temple"],
                    field=b["field"],
                    ark=b["ark"],
                )
            )
        return Panel(tuple(lines), pictures)

    def status(self, view: Game, names: Sequence[str]) -> Panel:
        picture = Picture(f"{RENDER}:board", (view.to_json(), True, list(names)), "board.png")
        lines = (
            _t("status.turn", turn=view.turn, player=names[to_act(view)]),
            self._scores(view, names),
            _t("status.tiles_left", left=view.tiles_left),
            _t("status.edition", edition=_t(f"edition.{view.edition}")),
            _t("status.length", length=_length(view.length)),
        )
        return Panel(lines, (picture,))

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
        self, seen: Seen, action: Mapping[str, Any], key: str, params: Mapping[str, Any]
    ) -> list[Text]:
        said = dict(params)
        if "x" in said and "y" in said:
            said["square"] = square_name((said.pop("x"), said.pop("y")))
        if "prophet" in said:
            said["prophet"] = "yes" if said["prophet"] else "no"
        # The move said exactly, then why; a reason that names the move itself (a piece put
        # on a feature, the Ark put down, a pass) is said alone, never the move alone.
        move = self._hint_move(seen.game, action, key)
        return [*([move] if move is not None else []), _t(key, **said)]

    @staticmethod
    def _hint_move(game: Game, action: Mapping[str, Any], key: str) -> Text | None:
        """The suggested move in words, when its reason does not already say it."""
        kind = action.get("type")
        if kind == "place_tile":
            square = square_name((action["x"], action["y"]))
            return _t("hint.tile_move", square=square, rotation=action["rotation"])
        if kind == "move_ark":
            return _t("hint.ark_move", path=action["path"])
        if kind == "deploy" and key != "hint.claims_feature":
            chosen = next(
                (
                    c
                    for c in deploy_choices(game)
                    if c.port == action.get("port") and c.prophet == action.get("prophet")
                ),
                None,
            )
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

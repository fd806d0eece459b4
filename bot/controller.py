"""What the bot does for each command and click: parse, call the service, answer.

Slash commands (in the cogs) and buttons/selects (in :mod:`bot.controls`) both end up
here, so a player who types gets exactly what a player who taps gets. Steps that are still
undecided (which spot, which rotation, which path for the Ark) are private to the player;
what is confirmed is posted in the channel for everyone.

Every answer is deferred first and every picture is drawn in a worker thread, so Discord's
three-second deadline is always met.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.controls import ArkButton, ArkSelect, view_of
from bot.errors import Refusal
from bot.i18n import t
from bot.service import GameRecord, GameService, TurnResult
from bot.story import turn_story
from bot.turns import (
    ark_choices,
    ark_next_letters,
    ark_paths,
    deploy_choices,
    gains_text,
    grid,
    parse_deploy,
    spot_choices,
)
from engine.covenant import (
    Action,
    Event,
    Game,
    GameOver,
    MoveArk,
    Pass,
    PlaceArk,
    PlaceTile,
)

if TYPE_CHECKING:
    from bot.client import ArkBot

log = logging.getLogger("arkbot")

SELECT_PAGE = 25  # Discord's limit of options in one select menu
STORY_LINES = 14  # keep a turn message well under Discord's 2000 characters
ARROWS = {"N": "⬆️", "E": "➡️", "S": "⬇️", "W": "⬅️"}
PUBLIC_MENTIONS = discord.AllowedMentions(everyone=False, roles=False, users=True)


def names_of(record: GameRecord) -> list[str]:
    return [seat.name for seat in record.seats]


def png(data: bytes, name: str) -> discord.File:
    return discord.File(io.BytesIO(data), filename=name)


def is_moderator(member: discord.abc.User, moderator_role_id: int | None) -> bool:
    """Manage Channels in the guild, or the guild's moderator role."""
    if not isinstance(member, discord.Member):
        return False
    if member.guild_permissions.manage_channels:
        return True
    return moderator_role_id is not None and any(r.id == moderator_role_id for r in member.roles)


class Controller:
    """The bot's behaviour, shared by slash commands and components."""

    def __init__(self, bot: ArkBot) -> None:
        self.bot = bot

    @property
    def service(self) -> GameService:
        return self.bot.service

    # ================================================================ lobby

    def lobby_message(self, record: GameRecord) -> tuple[str, discord.ui.View | None]:
        players = "\n".join(f"{i + 1}. {seat.name}" for i, seat in enumerate(record.seats))
        if record.status != "lobby":
            key = "lobby.started" if record.status == "active" else "lobby.closed"
            return t(key, players=players), None
        content = t("lobby.open", creator=record.seats[0].name if record.seats else "?")
        content += "\n" + t("lobby.players", count=len(record.seats), players=players)
        view = view_of(
            ArkButton(
                "lobby",
                "join",
                record.id,
                label=t("button.join"),
                style=discord.ButtonStyle.success,
            ),
            ArkButton("lobby", "leave", record.id, label=t("button.leave")),
            ArkButton(
                "lobby",
                "start",
                record.id,
                label=t("button.start"),
                style=discord.ButtonStyle.primary,
            ),
        )
        return content, view

    async def new_game(self, interaction: discord.Interaction, *, shuffle: bool) -> None:
        # No defer: the service answers in milliseconds, and a refusal ("there is already a
        # game here") must stay private, which a public defer would not allow.
        user = interaction.user
        record = await self.service.create_game(
            interaction.guild_id or 0,
            interaction.channel_id,
            user.id,
            user.display_name,
            "covenant",
            {},
            shuffle_seats=shuffle,
        )
        content, view = self.lobby_message(record)
        await interaction.response.send_message(content, **({"view": view} if view else {}))

    async def lobby(
        self, interaction: discord.Interaction, op: str, game_id: int | None = None
    ) -> None:
        """Join, leave or start, from a lobby button (``game_id`` given) or a command."""
        from_button = game_id is not None
        if from_button:
            # Deferring a button's update keeps later refusals private (as follow-ups).
            await interaction.response.defer()
        channel_id = interaction.channel_id
        current = await self.service.game_in(channel_id)
        if from_button and (current is None or current.id != game_id or current.status != "lobby"):
            raise Refusal("lobby.gone")
        user = interaction.user
        if op == "join":
            record = await self.service.join(channel_id, user.id, user.display_name)
        elif op == "leave":
            record = await self.service.leave(channel_id, user.id)
        else:
            settings = await self.service.guild_settings(interaction.guild_id or 0)
            moderator = is_moderator(user, settings.moderator_role_id)
            in_lobby = current is not None and current.status == "lobby"
            if in_lobby and current.creator_id != user.id and not moderator:
                creator = current.seat_of(current.creator_id)
                raise Refusal("lobby.only_creator", creator=creator.name if creator else "?")
            record = await self.service.start(channel_id, user.id, moderator=moderator)
        content, view = self.lobby_message(record)
        if from_button:
            await interaction.edit_original_response(content=content, view=view)
        else:
            # Not deferred (see new_game): answer at once, publicly, then draw the board.
            await interaction.response.send_message(content, **({"view": view} if view else {}))
        if op == "start":
            record, game = await self.service.state(record.id)
            await self.post_turn(interaction.channel, record, game, [t("lobby.go")])

    # ================================================================ public messages

    async def post_turn(
        self,
        channel: Any,
        record: GameRecord,
        game: Game,
        story: Sequence[str],
    ) -> None:
        """Post the board, the story of what happened and whose turn it is now."""
        names = names_of(record)
        lines = list(story)[-STORY_LINES:]
        scores = ", ".join(f"{n} {s}" for n, s in zip(names, game.scores, strict=True))
        if game.phase == "over" or record.status != "active":
            data = await self.bot.pictures.final(game, names=names)
            lines.append(self.final_words(record, game))
            await channel.send("\n".join(lines), file=png(data, "final-scores.png"))
            await self.service.mark_announced(record.id, record.version)
            return
        seat = record.seats[game.current_player]
        data = await self.bot.pictures.board(game, spots=game.phase == "place_tile", names=names)
        lines.append(t("turn.scores", scores=scores))
        who = f"<@{seat.user_id}>" if seat.user_id else seat.name
        lines.append(t("turn.next", player=who, tile=game.tile or "-", left=game.tiles_left))
        view = view_of(
            ArkButton(
                "turn",
                record.id,
                game.turn,
                label=t("button.play_turn"),
                style=discord.ButtonStyle.primary,
                emoji="🎲",
            )
        )
        await channel.send(
            "\n".join(lines),
            file=png(data, f"board-turn-{game.turn}.png"),
            view=view,
            allowed_mentions=PUBLIC_MENTIONS,
        )
        await self.service.mark_announced(record.id, record.version)

    def final_words(self, record: GameRecord, game: Game) -> str:
        names = names_of(record)
        if game.phase != "over":
            return t("game.ended_early")
        winners = " & ".join(names[s] for s in game.winners)
        top = max(game.scores)
        lines = [t("game.winner", winners=winners, points=top)]
        for seat, name in enumerate(names):
            b = game.breakdown(seat)
            lines.append(
                t(
                    "game.breakdown",
                    player=name,
                    total=game.scores[seat],
                    road=b["road"],
                    city=b["city"],
                    temple=b["temple"],
                    field=b["field"],
                    ark=b["ark"],
                )
            )
        lines.append(t("game.thanks"))
        return "\n".join(lines)

    def story(self, record: GameRecord, before: Game, events: Sequence[Event]) -> list[str]:
        """The turn in words, naming squares as the player saw them."""
        # The winner is announced by the final-scoring lines, not twice.
        shown = [e for e in events if not isinstance(e, GameOver)]
        return turn_story(names_of(record), before, shown)

    # ================================================================ whose turn

    async def my_turn(
        self,
        interaction: discord.Interaction,
        game_id: int | None = None,
        *,
        version: int | None = None,
        turn: int | None = None,
    ) -> tuple[GameRecord, Game]:
        """The game whose turn ``interaction.user`` is playing, or a refusal saying why not."""
        if game_id is None:
            record = await self.service.game_in(interaction.channel_id)
            if record is None:
                raise Refusal("turn.no_game")
        else:
            record = await self.service.get_game(game_id)
        if record.status == "lobby":
            raise Refusal("turn.not_started")
        if record.status != "active":
            raise Refusal("turn.game_not_active")
        seat = record.seat_of(interaction.user.id)
        if seat is None:
            raise Refusal("turn.stranger")
        record, game = await self.service.state(record.id)
        # Checked on the state the move will be played on: a double click may have moved
        # the game on since the record above was read.
        if version is not None and record.version != version:
            raise Refusal("turn.stale")
        if turn is not None and game.turn != turn:
            raise Refusal("turn.stale")
        if seat.index != game.current_player:
            raise Refusal("turn.not_yours", player=record.seats[game.current_player].name)
        return record, game

    # ================================================================ the private panel

    async def panel(
        self,
        record: GameRecord,
        game: Game,
        *,
        spot: tuple[int, int, int] | None = None,
        page: int = 0,
        path: str = "",
    ) -> tuple[str, discord.File | None, discord.ui.View]:
        """The private controls for the current step of the turn."""
        g, v = record.id, record.version
        names = names_of(record)
        if game.phase == "place_tile":
            assert game.tile is not None
            spots = spot_choices(game)
            if spot is None:
                pages = max(1, -(-len(spots) // SELECT_PAGE))
                page = min(max(page, 0), pages - 1)
                shown = spots[page * SELECT_PAGE : (page + 1) * SELECT_PAGE]
                options = [
                    discord.SelectOption(
                        label=t("turn.spot_option", number=s.number, square=s.square),
                        value=f"{s.x},{s.y}",
                        description=t("turn.spot_ways", count=len(s.rotations)),
                    )
                    for s in shown
                ]
                items: list[Any] = [
                    ArkSelect("spot", g, v, options=options, placeholder=t("turn.spot_placeholder"))
                ]
                if pages > 1:
                    items.append(
                        ArkButton("page", g, v, page - 1, label="◀", disabled=page == 0, row=1)
                    )
                    items.append(
                        ArkButton(
                            "page", g, v, page + 1, label="▶", disabled=page + 1 >= pages, row=1
                        )
                    )
                data = await self.bot.pictures.rotations(game.tile)
                content = t("turn.place_intro", tile=game.tile, count=len(spots))
                if pages > 1:
                    content += "\n" + t("turn.page", page=page + 1, pages=pages)
                return content, png(data, f"tile-{game.tile}.png"), view_of(*items)
            x, y, rotation = spot
            rotations = game.placements().get((x, y), ())
            if rotation not in rotations:
                raise Refusal("turn.no_such_spot")
            after = rotations[(rotations.index(rotation) + 1) % len(rotations)]
            data = await self.bot.pictures.preview(game, x, y, rotation, names=names)
            content = t(
                "turn.preview",
                square=grid(game).name((x, y)),
                rotation=rotation,
                count=len(rotations),
            )
            view = view_of(
                ArkButton(
                    "rot",
                    g,
                    v,
                    x,
                    y,
                    after,
                    label=t("button.turn_tile"),
                    emoji="🔄",
                    disabled=len(rotations) == 1,
                ),
                ArkButton(
                    "place",
                    g,
                    v,
                    x,
                    y,
                    rotation,
                    label=t("button.place"),
                    style=discord.ButtonStyle.success,
                    emoji="✅",
                ),
                ArkButton("back", g, v, label=t("button.other_spot")),
            )
            return content, png(data, "preview.png"), view
        if game.phase == "deploy":
            items = []
            choices = deploy_choices(game)
            if choices:
                items.append(
                    ArkSelect(
                        "deploy",
                        g,
                        v,
                        options=[
                            discord.SelectOption(label=c.label, value=c.value) for c in choices
                        ],
                        placeholder=t("turn.deploy_placeholder"),
                    )
                )
            lines = [t("turn.deploy_intro")]
            if game.ark is not None:
                paths = set(ark_paths(game))
                following = ark_next_letters(game, path)
                for letter, arrow in ARROWS.items():
                    items.append(
                        ArkButton(
                            "step",
                            g,
                            v,
                            path + letter,
                            emoji=arrow,
                            label=letter,
                            disabled=letter not in following,
                            row=1,
                        )
                    )
                items.append(
                    ArkButton("step", g, v, "", label=t("button.clear"), disabled=not path, row=1)
                )
                items.append(
                    ArkButton(
                        "go",
                        g,
                        v,
                        path or "-",
                        label=t("button.move_ark", path=path or "…"),
                        style=discord.ButtonStyle.primary,
                        disabled=path not in paths,
                        row=2,
                    )
                )
                if path:
                    points = next(c.points for c in ark_choices(game) if c.path == path)
                    lines.append(t("turn.ark_path", path=path, gains=gains_text(points, names)))
                else:
                    lines.append(t("turn.ark_hint"))
            items.append(
                ArkButton(
                    "pass", g, v, label=t("button.pass"), style=discord.ButtonStyle.secondary, row=2
                )
            )
            # The new tile, large, its free spots lettered as in the menu.
            data = await self.bot.pictures.deploy(game)
            return "\n".join(lines), png(data, "your-tile.png"), view_of(*items)
        if game.phase == "place_ark":
            squares = game.ark_choices
            names_grid = grid(game)
            select = ArkSelect(
                "putark",
                g,
                v,
                options=[
                    discord.SelectOption(label=names_grid.name(p), value=f"{p[0]},{p[1]}")
                    for p in squares[:SELECT_PAGE]
                ],
                placeholder=t("turn.putark_placeholder"),
            )
            data = await self.bot.pictures.board(game, names=names)
            return t("turn.putark_intro"), png(data, "board.png"), view_of(select)
        raise Refusal("turn.game_not_active")

    async def show(
        self,
        interaction: discord.Interaction,
        content: str,
        file: discord.File | None,
        view: discord.ui.View | None,
        *,
        edit: bool,
    ) -> None:
        """Put the private panel on screen: edit the clicked message, or send a new one."""
        if edit:
            await interaction.edit_original_response(
                content=content, attachments=[file] if file else [], view=view
            )
            return
        kwargs: dict[str, Any] = {"ephemeral": True}
        if file is not None:
            kwargs["file"] = file
        if view is not None:
            kwargs["view"] = view
        await interaction.followup.send(content, **kwargs)

    async def open_turn(
        self, interaction: discord.Interaction, game_id: int | None = None, turn: int | None = None
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        record, game = await self.my_turn(interaction, game_id, turn=turn)
        await self.show(interaction, *await self.panel(record, game), edit=False)

    # ================================================================ acting

    async def act(
        self,
        interaction: discord.Interaction,
        record: GameRecord,
        before: Game,
        action: Action,
        *,
        edit: bool,
    ) -> None:
        """Play ``action``; show the next private step, or close the turn in public."""
        result: TurnResult = await self.service.act(
            record.channel_id, interaction.user.id, action, expected_version=record.version
        )
        after_record, after = await self.service.state(record.id)
        seat = record.seat_of(interaction.user.id)
        still_mine = (
            after_record.status == "active"
            and seat is not None
            and after.current_player == seat.index
            and after.phase in ("deploy", "place_ark")
            and after.turn == before.turn
        )
        if still_mine:
            # Mid-turn: the player's private panel shows it; nothing to post in public.
            await self.service.mark_announced(after_record.id, after_record.version)
            await self.show(interaction, *await self.panel(after_record, after), edit=edit)
            return
        # Tell the whole turn, not only its last step: replay from the turn's first action.
        steps_taken = {"place_tile": 0, "deploy": 1, "place_ark": 2}.get(before.phase, 0)
        start, events = await self.service.replay(record.id, record.version - steps_taken)
        gained = [a - b for a, b in zip(result.scores, start.scores, strict=True)]
        done = t("turn.done", points=gained[seat.index] if seat else 0)
        await self.show(interaction, done, None, None, edit=edit)
        await self.post_turn(
            interaction.channel, after_record, after, self.story(record, start, events)
        )

    # ================================================================ components

    async def on_button(self, interaction: discord.Interaction, op: str, args: list[str]) -> None:
        if op == "lobby":
            await self.lobby(interaction, args[0], int(args[1]))
            return
        if op == "turn":
            await self.open_turn(interaction, int(args[0]), int(args[1]))
            return
        await interaction.response.defer()
        g, v = int(args[0]), int(args[1])
        record, game = await self.my_turn(interaction, g, version=v)
        rest = args[2:]
        if op == "page":
            await self.show(
                interaction, *await self.panel(record, game, page=int(rest[0])), edit=True
            )
        elif op == "rot":
            spot = (int(rest[0]), int(rest[1]), int(rest[2]))
            await self.show(interaction, *await self.panel(record, game, spot=spot), edit=True)
        elif op == "back":
            await self.show(interaction, *await self.panel(record, game), edit=True)
        elif op == "step":
            path = rest[0] if rest else ""
            if path and path not in {p[: len(path)] for p in ark_paths(game)}:
                raise Refusal("illegal.ark_off_board")
            await self.show(interaction, *await self.panel(record, game, path=path), edit=True)
        elif op == "place":
            action = PlaceTile(int(rest[0]), int(rest[1]), int(rest[2]))
            await self.act(interaction, record, game, action, edit=True)
        elif op == "go":
            await self.act(interaction, record, game, MoveArk(rest[0]), edit=True)
        elif op == "pass":
            await self.act(interaction, record, game, Pass(), edit=True)
        else:
            raise Refusal("error.unknown_control")

    async def on_select(
        self, interaction: discord.Interaction, op: str, args: list[str], values: list[str]
    ) -> None:
        await interaction.response.defer()
        if not values:
            raise Refusal("error.unknown_control")
        g, v = int(args[0]), int(args[1])
        record, game = await self.my_turn(interaction, g, version=v)
        value = values[0]
        if op == "spot":
            x, y = (int(n) for n in value.split(","))
            rotations = game.placements().get((x, y))
            if not rotations:
                raise Refusal("turn.no_such_spot")
            spot = (x, y, rotations[0])
            await self.show(interaction, *await self.panel(record, game, spot=spot), edit=True)
        elif op == "deploy":
            await self.act(interaction, record, game, parse_deploy(value), edit=True)
        elif op == "putark":
            x, y = (int(n) for n in value.split(","))
            await self.act(interaction, record, game, PlaceArk(x, y), edit=True)
        else:
            raise Refusal("error.unknown_control")

    # ================================================================ typed commands

    async def typed(self, interaction: discord.Interaction, action: Action) -> None:
        """A move typed as a slash command: same checks and answers as the buttons."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        record, game = await self.my_turn(interaction)
        await self.act(interaction, record, game, action, edit=False)

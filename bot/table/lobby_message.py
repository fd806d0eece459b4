"""A lobby's message: who sits at the table, the game's options, when the game should end,
and its buttons and menus.

Built from the game as stored and, for when it should end, the server's pace as it is now,
so the lobby's own message, its edits and ``/table status`` in a lobby all say the same.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime
from zoneinfo import ZoneInfo

import discord

from bot import scheme
from bot.discord_ui import Verbatim, lobby_menu, message_text, table_view
from bot.games import Plugin
from bot.i18n import Day, ListOf, Text
from bot.panels import Option, TableOption
from bot.service import Estimate, GameRecord, Seat
from bot.service.pace import QuietHours
from bot.service.thinking import LEVELS
from bot.table.common import Common
from bot.table.compose import TableButton

#: The lobby's menu that adds a computer player (a control name no game's option has).
ADD_COMPUTER = "add_computer"


def computer_menu() -> TableOption:
    """The lobby menu: "Add a computer player", one entry per level."""
    return TableOption(
        ADD_COMPUTER,
        Text("table.computer.add"),
        tuple(
            Option(Text(f"table.computer.{level}"), level, Text(f"table.computer.{level}_about"))
            for level in LEVELS
        ),
    )


async def lobby_text(
    common: Common, record: GameRecord, language: str
) -> tuple[str, discord.ui.View | None]:
    """The lobby's text and controls, with when its game should end if it started now and,
    for a rematch, who is invited."""
    lobby = common.service.lobby
    estimate = await lobby.estimate(record) if record.status == "lobby" else None
    invited = await lobby.invited(record)
    return lobby_message(common.plugin(record), record, language, estimate, invited)


def finish_lines(estimate: Estimate) -> list[Text]:
    """When the game should end, as a range of days, and on what it is reckoned; and the
    time zone it is said in, when no moderator chose it."""
    zone = QuietHours(estimate.timezone).tz()  # UTC for a zone stored damaged
    early, late = (
        Day(estimate.early_ms, estimate.timezone),
        Day(estimate.finish_ms, estimate.timezone),
    )
    source = "history" if estimate.from_history else "usual"
    if _date(estimate.early_ms, zone) == _date(estimate.finish_ms, zone):
        lines = [
            Text("table.lobby.finish_day", source=source, games=estimate.from_history, date=late)
        ]
    else:
        lines = [
            Text(
                "table.lobby.finish_range",
                source=source,
                games=estimate.from_history,
                early=early,
                late=late,
            )
        ]
    if estimate.guessed_zone:
        lines.append(Text("table.lobby.zone_guessed", zone=estimate.timezone))
    return lines


def _date(ms: int, zone: ZoneInfo) -> date:
    return datetime.fromtimestamp(ms / 1000, zone).date()


def invite_line(invited: Sequence[Seat]) -> Text:
    """A rematch lobby's invitation to the last game's players who have not joined."""
    return Text("table.rematch.invited", players=ListOf(tuple(s.name for s in invited), "standard"))


def lobby_message(
    chosen: Plugin,
    record: GameRecord,
    language: str,
    estimate: Estimate | None = None,
    invited: Sequence[Seat] = (),
) -> tuple[str, discord.ui.View | None]:
    """The lobby's text and controls (none once the game started or closed)."""
    title = chosen.front.title()
    players = "\n".join(
        message_text(
            Text(
                "table.computer.seat",
                number=i + 1,
                player=seat.name,
                level=Text(f"table.computer.{seat.level or 'normal'}"),
            )
            if seat.is_bot
            else Text("table.lobby.seat", number=i + 1, player=seat.name),
            language,
        )
        for i, seat in enumerate(record.seats)
    )
    if record.status != "lobby":
        key = "table.lobby.started" if record.status == "active" else "table.lobby.closed"
        return message_text(Text(key, players=Verbatim(players)), language), None
    rules = chosen.rules
    creator = record.seats[0].name if record.seats else "?"
    lines = [
        message_text(
            Text(
                "table.lobby.open",
                creator=creator,
                game=title,
                min=rules.min_players,
                max=rules.max_players,
            ),
            language,
        ),
        message_text(Text("table.lobby.players", count=len(record.seats)), language),
        players,
    ]
    front = chosen.front
    chosen_options = front.options_line(record.options)
    if chosen_options is not None:
        lines.insert(1, message_text(chosen_options, language))
    if estimate is not None:
        for line in finish_lines(estimate):
            lines.insert(-2, message_text(line, language))
    if invited:
        lines.append(message_text(invite_line(invited), language))
    buttons: list[TableButton] = [
        (scheme.lobby_id(record.id, "join"), Text("table.button.join"), "success", None),
        (scheme.lobby_id(record.id, "leave"), Text("table.button.leave"), "secondary", None),
        (scheme.lobby_id(record.id, "start"), Text("table.button.start"), "primary", None),
    ]
    if any(seat.is_bot for seat in record.seats):
        remove = scheme.lobby_id(record.id, "unbot")
        buttons.append((remove, Text("table.computer.remove"), "secondary", "🤖"))
    view = table_view(*buttons, language=language)
    row = 0
    for row, option in enumerate(front.table_options, start=1):
        current = str(record.options.get(option.name, option.default))
        view.add_item(
            lobby_menu(scheme.lobby_menu_id(record.id, option.name), option, current, language, row)
        )
    # Offered only where the game has computer players: nothing a game cannot do is shown.
    if chosen.has_computers and len(record.seats) < rules.max_players:
        menu = scheme.lobby_menu_id(record.id, ADD_COMPUTER)
        view.add_item(lobby_menu(menu, computer_menu(), "", language, row + 1))
    return "\n".join(lines), view

"""Buttons and selects whose custom ids carry everything needed to answer a click.

Every control is a :class:`discord.ui.DynamicItem`: its custom id names the game, the game
version it was made for and its arguments (``ark:place:12:7:1:-2:90``), so it keeps working
after a restart and an old one is recognised as old. Clicks are handed to the bot's
:class:`bot.controller.Controller`; these classes only build and parse ids.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from bot.errors import report

if TYPE_CHECKING:
    from bot.client import ArkBot

PREFIX = "ark"


def custom_id(op: str, *args: object) -> str:
    return ":".join((PREFIX, op, *(str(a) for a in args)))


def parse_args(rest: str) -> list[str]:
    return rest.split(":") if rest else []


class ArkButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"ark:(?P<op>[a-z]+)(?::(?P<rest>[-A-Za-z0-9:]*))?",
):
    """Any button of the bot: ``op`` says what it does, the rest are its arguments."""

    def __init__(
        self,
        op: str,
        *args: object,
        label: str = "\u200b",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        emoji: str | None = None,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        self.op = op
        self.args = [str(a) for a in args]
        super().__init__(
            discord.ui.Button(
                label=label,
                style=style,
                emoji=emoji,
                disabled=disabled,
                row=row,
                custom_id=custom_id(op, *args),
            )
        )

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Button[Any],
        match: Any,
    ) -> ArkButton:
        return cls(match["op"], *parse_args(match["rest"] or ""))

    async def callback(self, interaction: discord.Interaction) -> None:
        bot: ArkBot = interaction.client  # type: ignore[assignment]
        try:
            await bot.controller.on_button(interaction, self.op, self.args)
        except Exception as error:
            await report(interaction, error)


class ArkSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"arks:(?P<op>[a-z]+)(?::(?P<rest>[-A-Za-z0-9:]*))?",
):
    """Any select menu of the bot; the chosen values go to the controller."""

    def __init__(
        self,
        op: str,
        *args: object,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
        row: int | None = None,
    ) -> None:
        self.op = op
        self.args = [str(a) for a in args]
        super().__init__(
            discord.ui.Select(
                custom_id=":".join(("arks", op, *self.args)),
                options=options or [discord.SelectOption(label="-", value="-")],
                placeholder=placeholder,
                row=row,
            )
        )

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Select[Any],
        match: Any,
    ) -> ArkSelect:
        return cls(match["op"], *parse_args(match["rest"] or ""))

    async def callback(self, interaction: discord.Interaction) -> None:
        bot: ArkBot = interaction.client  # type: ignore[assignment]
        values = list((interaction.data or {}).get("values", []))
        try:
            await bot.controller.on_select(interaction, self.op, self.args, values)
        except Exception as error:
            await report(interaction, error)


def view_of(*items: discord.ui.DynamicItem[Any]) -> discord.ui.View:
    """A view holding ``items``; it never times out (the items outlive the process anyway)."""
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view

"""Panels into Discord messages: the one place where :mod:`bot.panels` meets discord.py.

Every control is a :class:`discord.ui.DynamicItem` whose custom id (:mod:`bot.scheme`) says
what it does, so it keeps working after a restart and an old one is recognised as old.
Clicks are handed to the table (:mod:`bot.table`); these classes only build and parse.

Every value a user typed (display names above all) is escaped here, once, for every
message: a name like ``<@123>`` or ``**big**`` shows as written and pings nobody. The only
mentions in our messages are the ones the table means (:class:`Mention`).
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, cast

import discord

from bot import scheme
from bot.i18n import Text, t
from bot.panels import Button, Panel, Select, TableOption

#: Discord's limits.
MESSAGE_LIMIT = 2000
LABEL_LIMIT = 80
OPTION_LIMIT = 100
OPTIONS_PER_MENU = 25
_STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


@dataclass(frozen=True, slots=True)
class Mention:
    """A user the message means to ping; said as ``<@id>``, never escaped."""

    user_id: int

    def __str__(self) -> str:
        return f"<@{self.user_id}>"


@dataclass(frozen=True, slots=True)
class Verbatim:
    """Text the bot made itself (a Discord timestamp, a channel link): never escaped."""

    text: str

    def __str__(self) -> str:
        return self.text


def escape(value: str) -> str:
    """A user's text, safe in a message: no markdown, no mentions."""
    return discord.utils.escape_markdown(discord.utils.escape_mentions(value))


def _safe(value: Any) -> Any:
    if isinstance(value, str):
        return escape(value)
    if isinstance(value, Text):
        return Text(value.key, **{k: _safe(v) for k, v in value.params.items()})
    if isinstance(value, tuple | list):
        return tuple(_safe(v) for v in value)
    return value


def message_text(text: Text, language: str) -> str:
    """``text`` for a message in ``language``, with every user-given value escaped."""
    return t(text.key, language, **{k: _safe(v) for k, v in text.params.items()})


def plain(text: Text, language: str) -> str:
    """``text`` for a label or a menu option (Discord shows those without markdown)."""
    return t(text.key, language, **text.params)


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def split_message(lines: Iterable[str], limit: int = MESSAGE_LIMIT) -> list[str]:
    """Lines joined into as few messages as fit Discord's limit, never cutting a line (a
    line longer than a whole message, which our texts never are, is cut at the limit)."""
    messages: list[str] = []
    current = ""
    for line in lines:
        line = clip(line, limit)
        joined = f"{current}\n{line}" if current else line
        if len(joined) <= limit:
            current = joined
        else:
            messages.append(current)
            current = line
    if current or not messages:
        messages.append(current)
    return messages


# ---------------------------------------------------------------- components


class Clicks(Protocol):
    """Where a control's click goes: the table (every button and menu ends up there)."""

    async def on_component(
        self, interaction: discord.Interaction, custom_id: str, values: Sequence[str]
    ) -> None: ...


class ControlHost(Protocol):
    """The client as a control finds it on its interaction: a bot with a table. Only this is
    known of it here, so the client may import this module and not the reverse."""

    @property
    def table(self) -> Clicks: ...


def _table(interaction: discord.Interaction) -> Clicks:
    return cast(ControlHost, interaction.client).table


class TableButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=scheme.BUTTON_TEMPLATE):
    """Any button of the bot; its custom id is parsed by the table when it is pressed."""

    def __init__(self, button: discord.ui.Button[Any]) -> None:
        super().__init__(button)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any
    ) -> TableButton:
        assert isinstance(item, discord.ui.Button)  # the template matches buttons' ids only
        return cls(discord.ui.Button(custom_id=item.custom_id, label="\u200b"))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _table(interaction).on_component(interaction, self.item.custom_id or "", [])


class TableMenu(discord.ui.DynamicItem[discord.ui.Select[Any]], template=scheme.MENU_TEMPLATE):
    """Any menu of the bot; the chosen values go to the table."""

    def __init__(self, select: discord.ui.Select[Any]) -> None:
        super().__init__(select)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any
    ) -> TableMenu:
        assert isinstance(item, discord.ui.Select)  # the template matches menus' ids only
        return cls(
            discord.ui.Select(
                custom_id=item.custom_id, options=[discord.SelectOption(label="-", value="-")]
            )
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        # discord.py types the data as a union of every interaction's; a menu's has values.
        data = cast(Mapping[str, Any], interaction.data or {})
        values = [str(v) for v in data.get("values", [])][:OPTIONS_PER_MENU]
        await _table(interaction).on_component(interaction, self.item.custom_id or "", values)


COMPONENTS = (TableButton, TableMenu)
#: The ids discord.py hands to :data:`COMPONENTS` (it matches each class's template whole),
#: by the kind of component: a button's to :class:`TableButton` (which takes buttons only), a
#: menu's to :class:`TableMenu` (string menus: the only kind the bot sends).
_TAKEN = {
    discord.ComponentType.button.value: re.compile(scheme.BUTTON_TEMPLATE),
    discord.ComponentType.select.value: re.compile(scheme.MENU_TEMPLATE),
}


def _controls(components: Iterable[Any]) -> Iterable[Any]:
    for component in components:
        yield component
        yield from _controls(getattr(component, "children", ()))


def taken(interaction: discord.Interaction) -> bool:
    """Whether discord.py hands this component interaction to one of :data:`COMPONENTS`: its
    id fits their templates and the message it came from holds that control (discord.py drops
    anything else unanswered). Whatever is not taken is answered as a stale control: a made-up
    id, one of an older version of the bot, one too long for any of ours."""
    data = cast(Mapping[str, Any], interaction.data or {})
    custom_id = str(data.get("custom_id", ""))
    kind = data.get("component_type")
    message = interaction.message
    template = _TAKEN.get(kind) if isinstance(kind, int) else None
    if message is None or template is None or not template.fullmatch(custom_id):
        return False
    return any(
        getattr(c, "custom_id", None) == custom_id and c.type.value == kind
        for c in _controls(message.components)
    )


def _button(spec: Button, custom_id: str, language: str) -> discord.ui.Button[Any]:
    label = clip(plain(spec.label, language), LABEL_LIMIT) if spec.label else None
    return discord.ui.Button(
        label=label or (None if spec.emoji else "\u200b"),
        style=_STYLES[spec.style],
        emoji=spec.emoji,
        disabled=spec.disabled,
        row=spec.row,
        custom_id=custom_id,
    )


def _menu(spec: Select, custom_id: str, language: str) -> discord.ui.Select[Any]:
    options = [
        discord.SelectOption(
            label=clip(plain(o.label, language), OPTION_LIMIT),
            value=o.value,
            description=clip(plain(o.description, language), OPTION_LIMIT)
            if o.description
            else None,
        )
        for o in spec.options[:OPTIONS_PER_MENU]
    ] or [discord.SelectOption(label="-", value="-")]
    return discord.ui.Select(
        custom_id=custom_id,
        options=options,
        placeholder=clip(plain(spec.placeholder, language), 150) if spec.placeholder else None,
        row=spec.row,
    )


def view_of(
    controls: Sequence[Button | Select], game_id: int, version: int, language: str
) -> discord.ui.View | None:
    """The controls of a panel as a view (``None`` when there are none)."""
    if not controls:
        return None
    view = discord.ui.View(timeout=None)
    for spec in controls:
        custom_id = scheme.control_id(
            game_id,
            version,
            spec.control,
            spec.args,
            menu=isinstance(spec, Select),
            who=spec.who,
        )
        if isinstance(spec, Select):
            view.add_item(TableMenu(_menu(spec, custom_id, language)))
        else:
            view.add_item(TableButton(_button(spec, custom_id, language)))
    return view


def with_controls(
    view: discord.ui.View | None,
    controls: Sequence[Button | Select],
    game_id: int,
    version: int,
    language: str,
) -> discord.ui.View | None:
    """``view`` with a public post's own controls added: only those any seated player may
    use at any time (``who="seat"``, e.g. a game's "show me my hand"), answered privately."""
    extra = view_of([c for c in controls if c.who == "seat"], game_id, version, language)
    if extra is None:
        return view
    if view is None:
        return extra
    for item in extra.children:
        view.add_item(item)
    return view


def table_view(*buttons: tuple[str, Text, str, str | None], language: str) -> discord.ui.View:
    """A view of the table's own buttons: (custom id, label, style, emoji) each."""
    view = discord.ui.View(timeout=None)
    for custom_id, label, style, emoji in buttons:
        view.add_item(
            TableButton(
                discord.ui.Button(
                    label=clip(plain(label, language), LABEL_LIMIT),
                    style=_STYLES[style],
                    emoji=emoji,
                    custom_id=custom_id,
                )
            )
        )
    return view


def lobby_menu(
    custom_id: str, option: TableOption, current: str, language: str, row: int
) -> TableMenu:
    """A lobby's menu for one table option, its current value chosen."""
    select: discord.ui.Select[Any] = discord.ui.Select(
        custom_id=custom_id,
        options=[
            discord.SelectOption(
                label=clip(plain(o.label, language), OPTION_LIMIT),
                value=o.value,
                description=clip(plain(o.description, language), OPTION_LIMIT)
                if o.description
                else None,
                default=o.value == current,
            )
            for o in option.choices[:OPTIONS_PER_MENU]
        ],
        placeholder=clip(plain(option.label, language), 150),
        row=row,
    )
    return TableMenu(select)


def files(pictures: Sequence[tuple[bytes, str, str | None]]) -> list[discord.File]:
    """(PNG bytes, file name, alt text) as attachments."""
    return [
        discord.File(io.BytesIO(data), filename=name, description=alt)
        for data, name, alt in pictures
    ]


def lines_of(panel: Panel, language: str) -> list[str]:
    return [message_text(line, language) for line in panel.lines]

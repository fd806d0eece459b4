"""Playing through the in-process harness by tapping: the public post that offers the turn's
button, and the controls a player may press on a private panel (shared by the tests that
play whole games at random)."""

from __future__ import annotations

from tests.support.harness import Harness, Sent


def public_post(h: Harness, game_id: int) -> Sent:
    """The newest public message that offers the turn's button."""
    for sent in reversed(h.sent):
        if sent.ephemeral or sent.channel_id is None:
            continue
        if any(cid.startswith(f"ob:{game_id}:") for cid in sent.custom_ids):
            return sent
    raise LookupError("no board post with a turn button")


def controls(panel: Sent) -> list[tuple[str, list[str] | None]]:
    """The controls a player may press on ``panel``: buttons, and menus with their options."""
    found: list[tuple[str, list[str] | None]] = []
    for component in panel.components:
        if component.custom_id is None or component.disabled:
            continue
        if component.type == 2:
            found.append((component.custom_id, None))
        elif component.type == 3 and component.option_values:
            found.append((component.custom_id, component.option_values))
    return found

"""The bot's entry point on a system without POSIX signals (Windows): no SIGPIPE to reset
for the demo, and an event loop that takes no signal handlers."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path
from typing import Any

import pytest

import bot.__main__ as entry


def test_the_demo_runs_without_sigpipe(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delattr(signal, "SIGPIPE")
    assert entry.main(["demo", "--seed", "3", "--out", str(tmp_path)]) == 0
    assert "Final scoring" in capsys.readouterr().out or any(tmp_path.iterdir())


async def test_no_signal_handlers_where_the_loop_takes_none(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    loop = asyncio.get_running_loop()

    def refuse(*args: Any) -> None:
        raise NotImplementedError  # as Windows' event loops do

    monkeypatch.setattr(loop, "add_signal_handler", refuse)
    assert entry.stop_on_signals(loop, asyncio.Event()) is False


async def test_sigterm_stops_the_bot_where_the_loop_takes_handlers() -> None:
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    try:
        assert entry.stop_on_signals(loop, stop) is True
        signal.raise_signal(signal.SIGTERM)
        await asyncio.wait_for(stop.wait(), 5)
    finally:
        for signum in (signal.SIGTERM, signal.SIGINT):
            loop.remove_signal_handler(signum)

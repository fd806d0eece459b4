"""Playouts per second of the engines before the search work and now, on this machine.

Run: ``python bench/playout_baseline.py`` (about 30 s). The computer players' issue set its
playout targets (1,000 a second for The Ark of the Covenant, 2,000 for the card game) on
the machine where it measured "about 225 and 580 today". A target in playouts a second
depends on the machine, so this benchmark measures both sides here, in one run: the
engines as they were before that work (commit ``BEFORE``: its ``engine`` and ``data``,
taken from this clone's history with ``git archive``; ``--before DIR`` names a checkout
instead), played the way those figures were (a uniform pick from ``legal_actions()`` and
``apply``, ``copy()`` per playout), and this checkout's fast path as ``bench/ai.py`` plays
it (``sample_action`` and ``apply_trusted``). The speed-up is the figure to hold against
the issue's: 1,000 / 225 = 4.4 times, 2,000 / 580 = 3.4 times. Each measurement runs in
its own process, because the two engines are both the package ``engine``; they alternate,
so that a busy spell of a shared machine falls on both.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tarfile
import tempfile
import time
from io import BytesIO
from pathlib import Path

from _common import figure, header, median

#: The last commit before the engines were sped up for search (d5f5383 came next).
BEFORE = "5ccf403"
HERE = Path(__file__).resolve().parents[1]
#: The issue's figures: playouts a second asked for, and "today" when it was filed.
TARGETS = {"covenant": (1000, 225), "noah": (2000, 580)}


def measure(root: Path, game_name: str, fast: bool, seconds: float, repeats: int) -> float:
    """Median playouts a second from three mid-game positions, of the engine in ``root``:
    with ``fast`` as the search plays them, else as before. Another checkout's engine is
    measured in a child process, where no ``engine`` was imported yet."""
    if sys.path[0] != str(root):
        sys.path.insert(0, str(root))  # ahead of this checkout, which _common put first
    import engine
    from engine.common import Rng

    if not Path(engine.__file__).resolve().is_relative_to(root.resolve()):
        raise SystemExit(f"measured the wrong engine: {engine.__file__}, not one in {root}")

    if game_name == "covenant":
        from engine.covenant import Game

        def start(seed: int):  # type: ignore[no-untyped-def]
            game = Game.new(players=2, seed=seed)
            rng = Rng(seed)
            while game.tiles_left > 35 or game.phase != "place_tile":
                game.apply(rng.choice(game.legal_actions()))
            return game
    else:
        from engine.noah import Game  # type: ignore[assignment]

        def start(seed: int):  # type: ignore[no-untyped-def]
            game = Game.new(players=4, seed=seed)
            rng = Rng(seed)
            for _ in range(20):
                game.apply(rng.choice(game.legal_actions()))
            return game

    rates = []
    for repeat in range(repeats):
        game = start(repeat + 1)
        rng = Rng(repeat)
        count = 0
        began = time.perf_counter()
        while time.perf_counter() - began < seconds:
            world = game.copy()
            if fast:
                while world.phase != "over":
                    world.apply_trusted(world.sample_action(rng))
            else:
                while world.phase != "over":
                    world.apply(rng.choice(world.legal_actions()))
            count += 1
        rates.append(count / (time.perf_counter() - began))
    return median(rates)


def in_child(root: Path, game_name: str, fast: bool, seconds: float, repeats: int) -> float:
    code = (
        "import sys; from pathlib import Path; sys.path.insert(0, sys.argv[2]); "
        "import playout_baseline as b; print(b.measure(Path(sys.argv[1]), sys.argv[3], "
        "sys.argv[4] == 'fast', float(sys.argv[5]), int(sys.argv[6])))"
    )
    mode = "fast" if fast else "uniform"
    args = [str(root), str(HERE / "bench"), game_name, mode, str(seconds), str(repeats)]
    out = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True)
    if out.returncode:
        raise SystemExit(f"measuring {game_name} of {root} failed:\n{out.stderr}")
    return float(out.stdout.strip().splitlines()[-1])


def extract(commit: str, into: Path) -> Path:
    """The ``engine`` package of ``commit`` and the ``data`` it reads, written under ``into``."""
    try:
        archive = subprocess.run(
            ["git", "-C", str(HERE), "archive", commit, "engine", "data"],
            check=True,
            capture_output=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError) as error:
        raise SystemExit(
            f"Cannot take the engines of {commit} from git ({error}): run this in a clone "
            "with its history, or name a checkout of that commit with --before DIR."
        ) from error
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        # Our own history, but the safe filter where this Python has it (3.11.4 on).
        safe = {"filter": "data"} if hasattr(tarfile, "data_filter") else {}
        tar.extractall(into, **safe)
    return into


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--before", type=Path, help=f"a checkout to measure (default: {BEFORE})")
    parser.add_argument("--seconds", type=float, default=1.0, help="per measurement")
    parser.add_argument("--rounds", type=int, default=2, help="alternations of before and now")
    args = parser.parse_args()
    header("playout_baseline")
    with tempfile.TemporaryDirectory() as tmp:
        before = args.before or extract(BEFORE, Path(tmp))
        print(f"before: {args.before or BEFORE}, now: {HERE}")
        for game_name, (target, today) in TARGETS.items():
            old, new = [], []
            for _ in range(args.rounds):
                old.append(in_child(before, game_name, False, args.seconds, 3))
                new.append(in_child(HERE, game_name, True, args.seconds, 3))
            was, now = median(old), median(new)
            figure(f"playouts_per_s_{game_name}_before", was, "playouts/s (legal_actions)")
            figure(f"playouts_per_s_{game_name}", now, "playouts/s (sample_action)")
            figure(
                f"playouts_speedup_{game_name}",
                now / was,
                f"times (the issue asks {target / today:.1f}: {target} against {today} there)",
            )


if __name__ == "__main__":
    main()

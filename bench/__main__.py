"""python -m bench [--n N] [--warmup W] [--no-desktop] [--no-peer] [--no-scale]: harness
overhead per attempt vs the Playwright floor, the desktop reset vs the same floor, proctor
beside MiniWoB++'s own env, then the scale-out figures (throughput and memory as workers
are added)."""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path

from bench import _world
from bench._desktop import measure_desktop, missing, render_desktop
from bench._measure import floor_sample, measure
from bench._peer import measure_peer, render_peer
from bench._peer import missing as peer_missing
from bench._report import render
from bench._scale import measure_scale, render_scale
from proctor.runner import RunOptions, Worker
from proctor.world import all_sites


def _args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument("--n", type=int, default=20, help="measured rounds (default 20)")
    parser.add_argument("--warmup", type=int, default=3, help="unmeasured rounds first (3)")
    parser.add_argument(
        "--desktop",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="also time the desktop reset against the same floor (default on)",
    )
    parser.add_argument(
        "--peer",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="also time proctor beside MiniWoB++'s own env (default on)",
    )
    parser.add_argument(
        "--scale",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="also run the scale bench: pool 1 vs 2 workers, Ray, PSS (a few minutes; default on)",
    )
    args = parser.parse_args(argv)
    if args.n < 1 or args.warmup < 0:
        parser.error("--n must be at least 1 and --warmup at least 0")
    return args


async def _run(n: int, warmup: int, desktop: bool, peer: bool = False) -> str:
    with tempfile.TemporaryDirectory(prefix="proctor-bench-") as tmp:
        folder = Path(tmp)
        loaded = _world.write_scenario(folder)
        # Every shipped site too: `begin` builds each one's state, as in a real run.
        sites = [*all_sites().values(), _world.SITE]
        async with Worker(folder / "run", RunOptions(), sites=sites) as worker:
            samples = await measure(worker, loaded, n, warmup)
            report = render(samples)
            if desktop:
                lacking = missing()
                if lacking:
                    report += f"\n\ndesktop: not measured, missing {', '.join(lacking)}"
                else:
                    found = await measure_desktop(n, warmup, lambda: floor_sample(worker))
                    report += "\n\n" + render_desktop(found)
            if peer:
                lacking = peer_missing()
                if lacking:
                    report += f"\n\npeer: not measured, missing {', '.join(lacking)}"
                else:
                    report += "\n\n" + render_peer(await measure_peer(worker, n, warmup))
    return report


def _log(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def main(argv: list[str] | None = None) -> None:
    """Run the bench and print its report; exit 1 when the Ray leg could not run."""
    args = _args(argv)
    print(asyncio.run(_run(args.n, args.warmup, args.desktop, args.peer)), flush=True)
    if not args.scale:
        return
    result = asyncio.run(measure_scale(_log))
    print("", render_scale(result), sep="\n", flush=True)
    if result.ray_error is not None:
        sys.exit(1)


if __name__ == "__main__":
    main()

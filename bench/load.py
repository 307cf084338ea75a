"""python -m bench.load: the noise floor. Every oracle (the ``scripted`` arm) of the local
and desktop tiers, and a sample of the peer tier, run under a CPU load of N busy
processes (default 2 x cores); it reports the oracles scored failed (false failures),
the infra faults (retried and recorded: fine, counted), and the first action's latency
against later actions'. With more than one ``--modes`` it is also the A/B of when the
next attempt's browser context is made (PROCTOR_SPARE), the modes taking turns round by
round under the same load.

Each round of each mode is one ``proctor run`` (a subprocess, ended by its pid at the
deadline); the figures are read from the attempt records it wrote.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from statistics import median

from bench._burn import Burn, cores
from bench._noise import Attempt, figures, read_attempts, render_ab, render_mode
from proctor.runner import DEFAULT_SPARE
from proctor.vocab import SPARE_MODES

ROOT = Path(__file__).resolve().parents[1]
ARM = "oracle=scripted"
STOP_SECONDS = 60.0
"""How long a leg ended at the deadline gets to stop on SIGTERM before SIGKILL."""
LIST_SECONDS = 120.0


class LoadBenchError(Exception):
    """The bench could not run (a leg refused its plan, no scenario selected)."""


def _args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.load", description=__doc__)
    parser.add_argument(
        "--load", type=int, default=None, help="busy processes (default 2 x cores; 0: none)"
    )
    parser.add_argument("--rounds", type=int, default=3, help="rounds per mode (default 3)")
    parser.add_argument("--peer", type=int, default=44, help="peer scenarios sampled (44)")
    parser.add_argument(
        "--desktop",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="run the desktop tier's oracles (default on)",
    )
    parser.add_argument("--only", default="", help="these scenario ids instead (comma-separated)")
    parser.add_argument(
        "--modes",
        default=DEFAULT_SPARE,
        help=f"spare modes, comma-separated, the first the A/B's base ({', '.join(SPARE_MODES)})",
    )
    parser.add_argument("--workers", type=int, default=1, help="proctor run --workers (1)")
    parser.add_argument(
        "--retry-delays", default="5", help="proctor run --retry-delays (default 5)"
    )
    parser.add_argument(
        "--deadline", type=float, default=4 * 3600.0, help="seconds in all (default 4 h)"
    )
    parser.add_argument("--results", type=Path, default=None, help="results folder (a new tmp)")
    args = parser.parse_args(argv)
    args.modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    bad = [m for m in args.modes if m not in SPARE_MODES]
    if bad or not args.modes or len(set(args.modes)) != len(args.modes):
        parser.error(f"--modes {','.join(args.modes)}: name distinct modes of {SPARE_MODES}")
    if args.load is None:
        args.load = 2 * cores()
    if args.load < 0 or args.rounds < 1 or args.peer < 0 or args.workers < 1:
        parser.error("--load and --peer must be >= 0, --rounds and --workers >= 1")
    if args.deadline <= 0:
        parser.error("--deadline must be > 0")
    return args


def _proctor(*args: str) -> list[str]:
    return [sys.executable, "-m", "proctor", *args]


def select(peer: int, desktop: bool) -> list[str]:
    """Every local scenario, every desktop one (unless ``desktop`` is off), and ``peer``
    peer scenarios evenly spaced over the sorted peer tier (the same ones every run)."""
    done = subprocess.run(
        _proctor("list", "--json"),
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=LIST_SECONDS,
        check=False,
    )
    if done.returncode != 0:
        raise LoadBenchError(f"proctor list --json failed: {done.stderr.strip()[-500:]}")
    by_tier: dict[str, list[str]] = {}
    for scenario in json.loads(done.stdout)["scenarios"]:
        by_tier.setdefault(scenario["tier"], []).append(scenario["id"])
    peers = sorted(by_tier.get("peer", []))
    sample = [peers[i * len(peers) // peer] for i in range(min(peer, len(peers)))]
    return [
        *sorted(by_tier.get("local", [])),
        *(sorted(by_tier.get("desktop", [])) if desktop else []),
        *sample,
    ]


@dataclass
class Leg:
    """One ``proctor run`` of the plan under one spare mode."""

    mode: str
    label: str
    seconds: float = 0.0
    code: int | None = None
    load1: float = 0.0
    """The 1-minute load average when it ended."""


@dataclass
class Bench:
    """The legs run so far and where they wrote."""

    results: Path
    legs: list[Leg] = field(default_factory=list)

    def attempts(self, mode: str) -> list[Attempt]:
        out: list[Attempt] = []
        for leg in self.legs:
            if leg.mode == mode and (self.results / leg.label).is_dir():
                out.extend(read_attempts(self.results / leg.label, mode))
        return out


def run_leg(
    leg: Leg, ids: Sequence[str], results: Path, args: argparse.Namespace, deadline: float
) -> None:
    """Run one leg as a subprocess; at the deadline SIGTERM (proctor cancels and writes
    what is done), then SIGKILL, both by its pid."""
    cmd = _proctor(
        "run",
        "--only",
        ",".join(ids),
        "--arm",
        ARM,
        "--results",
        str(results),
        "--label",
        leg.label,
        "--retry-delays",
        args.retry_delays,
        "--workers",
        str(args.workers),
    )
    env = {**os.environ, "PROCTOR_SPARE": leg.mode}
    start = time.monotonic()
    proc = subprocess.Popen(
        cmd, cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL
    )
    try:
        leg.code = proc.wait(timeout=max(1.0, deadline - time.monotonic()))
    except subprocess.TimeoutExpired:
        pass
    finally:  # the deadline, or the bench interrupted: the leg stops too
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=STOP_SECONDS)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=STOP_SECONDS)
        leg.code = proc.returncode
        leg.seconds = time.monotonic() - start
        leg.load1 = os.getloadavg()[0]


def run(args: argparse.Namespace, log: Callable[[str], None]) -> tuple[Bench, list[str]]:
    """Select the scenarios, start the load, run every leg (modes taking turns, a
    different one first each round) until done or the deadline."""
    deadline = time.monotonic() + args.deadline
    ids = [s for s in args.only.split(",") if s] or select(args.peer, args.desktop)
    if not ids:
        raise LoadBenchError("no scenario selected")
    results = args.results or Path(tempfile.mkdtemp(prefix="proctor-load-"))
    bench = Bench(results.absolute())
    stamp = time.strftime("%Y%m%d-%H%M%S")
    with Burn(args.load, args.deadline) as burn:
        log(f"load: {args.load} busy processes, pids {' '.join(map(str, burn.pids))}")
        for round_no in range(1, args.rounds + 1):
            turn = round_no - 1
            for mode in [
                *args.modes[turn % len(args.modes) :],
                *args.modes[: turn % len(args.modes)],
            ]:
                if time.monotonic() >= deadline:
                    log("deadline reached: the report covers the legs run")
                    return bench, ids
                leg = Leg(mode, f"load-{stamp}-{mode}-{round_no}")
                log(f"leg {leg.label}: {len(ids)} scenarios under {args.load} busy processes")
                bench.legs.append(leg)
                try:
                    run_leg(leg, ids, bench.results, args, deadline)
                except KeyboardInterrupt:
                    log("interrupted: the report covers the attempts written")
                    return bench, ids
                log(f"  exit {leg.code} after {leg.seconds:.0f} s, load average {leg.load1:.1f}")
                if leg.code == 2:
                    raise LoadBenchError(f"leg {leg.label} refused its plan (exit 2)")
    return bench, ids


def render(bench: Bench, ids: Sequence[str], args: argparse.Namespace) -> str:
    n_cores = cores()
    loads = [leg.load1 for leg in bench.legs]
    lines = [
        f"load bench: {args.load} busy processes on {n_cores} cores "
        f"({args.load / n_cores:.1f}x oversubscription by the load alone), "
        f"{len(ids)} scenarios x {args.rounds} rounds per mode, modes {', '.join(args.modes)}",
        f"load average (1 min) at the end of a leg: median {median(loads):.1f}"
        if loads
        else "no leg ran",
        f"results: {bench.results}",
        "",
    ]
    figs = []
    for mode in args.modes:
        legs = [leg for leg in bench.legs if leg.mode == mode]
        fig = figures(mode, bench.attempts(mode), sum(leg.seconds for leg in legs))
        figs.append(fig)
        lines.extend(render_mode(fig))
    if len(figs) > 1:
        lines.append("")
        lines.extend(render_ab(figs))
    return "\n".join(lines)


def _log(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def main(argv: Sequence[str] | None = None) -> None:
    """Run the load bench and print its report; exit 2 when it could not run.

    SIGTERM is Ctrl-C: the leg in flight is ended (SIGTERM, then SIGKILL, by its pid),
    the load stops, and the report covers what was written.
    """
    args = _args(argv)
    signal.signal(signal.SIGTERM, _interrupt)
    try:
        bench, ids = run(args, _log)
    except LoadBenchError as exc:
        print(f"bench.load: {exc}", file=sys.stderr)
        sys.exit(2)
    print(render(bench, ids, args), flush=True)


if __name__ == "__main__":
    main()

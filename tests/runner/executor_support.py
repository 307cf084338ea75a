"""Shared by the executor tests: a small plan, and records and trees compared without times."""

from __future__ import annotations

import contextlib
import ctypes
import datetime as dt
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

SCENARIOS = ["harness-canary", "manual-extract"]
"""Fast local scenarios (under a second each here): a form posted (a request web.jsonl must
hold once) and five extract steps (a kill lands mid-attempt). A third adds attempts, not
cases: each leg's start (a driver, workers, browsers) costs more than an attempt."""
ARMS = ["oracle=scripted", "nothing=null"]
CLOCK = dt.datetime(2026, 11, 2, 9, 30, tzinfo=dt.UTC)
"""One run clock for every executor, so dated pages read the same."""

VARYING = {
    "started_at",
    "seconds",
    "agent_seconds",
    "timings",
    "time",
    "ended_at",
    "latency_ms",
    "wait_ms",
    "placeholders",  # the run folder's path and the worker's port
    "infra_faults",  # a stalled or crashed browser, retried: the machine's, not the run's
    "infra_seconds",  # the time those retried tries took
}
"""Record keys whose values depend on when and where an attempt ran."""


def without_try(tag: str) -> str:
    """A request's attempt tag without its try number (``id#2`` after one retry)."""
    return re.sub(r"#\d+$", "#try", tag)


def _machine_speed(key: str, value: Any) -> bool:
    """A step fact that says only how fast the machine was: an input whose navigation
    outlasted the input's own wait (``navigation: "slow: ..."``), or whose page answered
    only after it (``input: "slow: sent; ..."``), on a loaded machine."""
    return key in ("navigation", "input") and isinstance(value, str) and value.startswith("slow:")


def without_times(value: Any) -> Any:
    if isinstance(value, dict):
        return {
            k: without_try(v) if k == "attempt" and isinstance(v, str) else without_times(v)
            for k, v in value.items()
            if k not in VARYING and not _machine_speed(k, v)
        }
    if isinstance(value, list):
        return [without_times(v) for v in value]
    return value


def tree(run_dir: Path) -> dict[str, Any]:
    """Every attempt's files and its record without times, by attempt folder."""
    found: dict[str, Any] = {}
    for record in sorted((run_dir / "attempts").glob("*/*/attempt.json")):
        folder = record.parent
        found[str(folder.relative_to(run_dir))] = {
            # Screenshots aside: one a loaded machine could not take in time is the
            # machine's, and a kill never writes half of one (written atomically).
            "files": sorted(p.name for p in folder.iterdir() if p.suffix != ".png"),
            "record": without_times(json.loads(record.read_text())),
        }
    return found


def web_lines(run_dir: Path) -> list[tuple[str, int, str, str]]:
    """web.jsonl as sorted (attempt, seq, method, host+path): its order follows completion."""
    path = run_dir / "web.jsonl"
    rows = [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []
    return sorted(
        (without_try(r["attempt"]), r["seq"], r["method"], r["host"] + r["path"]) for r in rows
    )


def summary_without_times(run_dir: Path) -> Any:
    summary = json.loads((run_dir / "summary.json").read_text())
    for key in ("label", "started_at", "finished_at"):
        summary.pop(key, None)
    summary["causes"] = _without_recovered_faults(summary.get("causes", []))
    return _drop_timed_metrics(without_times(summary))


def _without_recovered_faults(causes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The causes without faults retried away: a loaded machine's stall, not the run's.

    An attempt whose every try failed on infra stays: its result differs, so the
    records differ too.
    """
    kept: list[dict[str, Any]] = []
    for group in causes:
        if group.get("cause") == "infra":
            attempts = [
                a
                for a in group["attempts"]
                if not str(a.get("detail", "")).startswith("retried, then ")
            ]
            if not attempts:
                continue
            group = {**group, "attempts": attempts}
        kept.append(group)
    return kept


def _drop_timed_metrics(value: Any) -> Any:
    """Medians of seconds and the like are times too."""
    if isinstance(value, dict):
        return {
            k: _drop_timed_metrics(v)
            for k, v in value.items()
            if "seconds" not in k and value.get("metric") != "seconds"
        }
    if isinstance(value, list):
        return [_drop_timed_metrics(v) for v in value if not _is_timed(v)]
    return value


def _is_timed(value: Any) -> bool:
    return isinstance(value, dict) and value.get("metric") == "seconds"


def differences(left: Any, right: Any, path: str = "", limit: int = 20) -> list[str]:
    """Where two JSON-like values differ, as dotted paths with both values (the first few)."""
    found: list[str] = []

    def walk(a: Any, b: Any, at: str) -> None:
        if len(found) >= limit:
            return
        if isinstance(a, dict) and isinstance(b, dict):
            for key in sorted(set(a) | set(b), key=str):
                if key not in a or key not in b:
                    found.append(f"{at}.{key}: only in {'right' if key not in a else 'left'}")
                else:
                    walk(a[key], b[key], f"{at}.{key}")
        elif isinstance(a, list | tuple) and isinstance(b, list | tuple):
            if len(a) != len(b):
                found.append(f"{at}: {len(a)} items != {len(b)} items")
            for i, (x, y) in enumerate(zip(a, b, strict=False)):
                walk(x, y, f"{at}[{i}]")
        elif a != b:
            found.append(f"{at}: {str(a)[:200]!r} != {str(b)[:200]!r}")

    walk(left, right, path)
    return found


def mismatch(left: dict[str, Any], right: dict[str, Any]) -> str:
    """Why two trees differ, for an assertion: each differing attempt's steps on both sides
    (what the agent did and what failed), then the first differing paths."""
    lines: list[str] = []
    for key in sorted(set(left) | set(right)):
        a, b = left.get(key), right.get(key)
        if a == b:
            continue
        for side, got in (("left", a), ("right", b)):
            record = (got or {}).get("record", {})
            steps = [
                f"{s.get('op')}:{s.get('status')}" + (f" ({s['error']})" if s.get("error") else "")
                for s in record.get("steps", [])
            ]
            faults = [f.get("kind") for f in record.get("infra_faults", [])]
            lines.append(f"{key} [{side}] {record.get('result')}: steps {steps}; faults {faults}")
    lines += differences(left, right)
    return "\n".join(lines)


PR_SET_CHILD_SUBREAPER, PR_GET_CHILD_SUBREAPER = 36, 37


@contextlib.contextmanager
def not_a_subreaper() -> Iterator[None]:
    """Orphans of a killed run reparent to init here, as they would under a real shell.

    A test worker that ran a desktop session or a jailed agent is a child subreaper;
    the killed driver's Ray daemons then reparent to it, not to init, never see their
    parent die and run on. The kill tests are about proctor's sweep, not that worker.
    """
    prctl = ctypes.CDLL(None, use_errno=True).prctl
    was = ctypes.c_int(0)
    prctl(PR_GET_CHILD_SUBREAPER, ctypes.byref(was), 0, 0, 0)
    prctl(PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0)
    try:
        yield
    finally:
        prctl(PR_SET_CHILD_SUBREAPER, was.value, 0, 0, 0)

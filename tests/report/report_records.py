"""Constructed attempt records for the report tests (imported by them, not collected)."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path
from typing import Any

from proctor.records import AttemptRecord, AttemptResult, CheckResult, Step, write_model_atomic


def step(index: int, op: str, target: str | None = None, **extra: Any) -> Step:
    """A step; latency and output vary with the index so determinism must ignore them."""
    values: dict[str, Any] = {
        "started_at": 1700000000.0 + index,
        "latency_ms": 10.0 + index * 7,
        "output": f"did {op} #{index}",
    }
    values.update(extra)
    return Step(index=index, op=op, target=target, **values)


def make(
    scenario: str,
    arm: str,
    repeat: int,
    result: AttemptResult,
    **extra: Any,
) -> AttemptRecord:
    """An attempt record with sensible defaults; ``extra`` overrides any field."""
    values: dict[str, Any] = {
        "scenario_sha256": "ab" * 32,
        "tier": "local",
        "category": "regression",
        "agent": "scripted",
        "stop_reason": "done" if result != "error" else "infra",
        "started_at": 1700000000.0 + repeat,
        "seconds": 1.0,
    }
    values.update(extra)
    return AttemptRecord(
        id=f"{scenario}/{arm}-{repeat}",
        scenario=scenario,
        arm=arm,
        repeat=repeat,
        result=result,
        **values,
    )


def failing_check(name: str = "submitted") -> CheckResult:
    return CheckResult(
        name=name,
        kind="submitted",
        passed=False,
        expected={"route": "contact", "count": "exactly 1"},
        actual={"matching": 0},
        detail="no accepted post to /submit/contact",
    )


def png(width: int, height: int, rgb: tuple[int, int, int]) -> bytes:
    """A solid-colour PNG, built by hand so the test needs no imaging library."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    row = b"\x00" + bytes(rgb) * width
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(row * height))
        + chunk(b"IEND", b"")
    )


def write_run(run_dir: Path, records: list[AttemptRecord], screenshots: bool = False) -> None:
    """Write records the way the runner lays them out, optionally with before/after PNGs."""
    for record in records:
        folder = run_dir / "attempts" / record.id
        write_model_atomic(folder / "attempt.json", record)
        if screenshots:
            (folder / "before.png").write_bytes(png(64, 40, (40, 90, 200)))
            (folder / "after.png").write_bytes(png(64, 40, (30, 160, 90)))

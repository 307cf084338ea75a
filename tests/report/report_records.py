"""Constructed attempt records for the report tests (imported by them, not collected)."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path
from typing import Any

from proctor.records import (
    AttemptRecord,
    CheckResult,
    EndState,
    PlannerCall,
    Step,
    write_model_atomic,
)
from proctor.vocab import ActionOp, AttemptResult


def step(index: int, op: ActionOp, target: str | None = None, **extra: Any) -> Step:
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


def write_run_info(run_dir: Path, label: str, arms: list[str], **config: Any) -> None:
    """``run_dir/run.json`` with ``arms`` (``NAME=SPEC``) in its config, as ``proctor run`` has."""
    from proctor.records import RunInfo

    info = RunInfo(
        label=label,
        started_at=1700000000.0,
        command=["proctor", "run"],
        config={"arms": arms, **config},
        proctor_version="0.1.0",
        python="3.12.0",
        platform="test",
        chromium=None,
        playwright=None,
        git_commit=None,
        git_dirty=None,
        machine={},
    )
    write_model_atomic(run_dir / "run.json", info)


def planner_call(index: int, **extra: Any) -> PlannerCall:
    """A planner call; ``extra`` overrides any field."""
    values: dict[str, Any] = {
        "started_at": 1700000000.0 + index,
        "latency_ms": 400.0 + index,
        "tokens": {"input": 1000 + index, "output": 50 + index, "cached": 200},
        "cost_usd": 0.001 * index,
        "model": "gpt-4.1-mini",
        "tool": "click",
    }
    values.update(extra)
    return PlannerCall(index=index, **values)


LONG_TAIL = "x" * 240
"""An unbroken string no line can hold: it must wrap or scroll inside its box."""
WIDE_ARMS = tuple(f"candidate-arm-{n}-with-a-rather-long-name" for n in range(1, 7))
WIDE_SCENARIO = "gate-scenario-with-a-very-long-identifier-" + "y" * 60
REPLY = "I will click Send now."
STDERR = f"Traceback (most recent call last):\nRuntimeError: agent died {LONG_TAIL}\n"


def wide_records() -> list[AttemptRecord]:
    """A gate-like run: six long-named arms x six repeats (many pass^k columns), long ids
    and URLs, a model arm with planner calls and text turns, a command agent that crashed."""
    records: list[AttemptRecord] = []
    for a, arm in enumerate(WIDE_ARMS):
        for n in range(1, 7):
            # The first arm (the gate's baseline) always passes, the second (its candidate)
            # passes once: a NO-GO by rule (a).
            passed = a == 0 or (a == 1 and n == 1) or (a > 1 and (n + a) % 3 != 0)
            result: AttemptResult = "passed" if passed else "failed"
            records.append(
                make(
                    WIDE_SCENARIO,
                    arm,
                    n,
                    result,
                    steps=[step(0, "navigate", f"url https://forms.proctor.test/{LONG_TAIL}")],
                    checks=[] if result == "passed" else [failing_check()],
                    failed_checks=[] if result == "passed" else ["submitted"],
                    answer=f"answer-{LONG_TAIL}",
                    end_state=EndState(
                        url=f"https://forms.proctor.test/{LONG_TAIL}", page_text=LONG_TAIL
                    ),
                    cost_usd=None if a % 2 else 0.01 * n,
                    seconds=1.0 + n,
                )
            )
    records.append(
        make(
            WIDE_SCENARIO,
            "model",
            1,
            "failed",
            agent="loop",
            model="gpt-4.1-mini",
            stop_reason="planner_error",
            stop_detail="the model's reply called no tool",
            planner_calls=2,
            planner=[
                planner_call(1, reply_text=REPLY),
                planner_call(
                    2, status="no_tool", tool=None, retries=2, error="no tool call", reply_text=""
                ),
            ],
        )
    )
    records.append(
        make(
            WIDE_SCENARIO,
            "cmd",
            1,
            "failed",
            agent="command",
            stop_reason="exited",
            exit_code=3,
            stderr_tail=STDERR,
        )
    )
    return records


def write_gate_verdict(run_dir: Path, records: list[AttemptRecord]) -> Path:
    """gate-verdict.json for ``records`` (first arm against the second), written the way
    ``proctor gate`` writes it: the real verdict, file model and writer."""
    from proctor.compare import Side, gate_verdict, render_verdict
    from proctor.runner.gate import GateVerdictFile, write_verdict

    base, cand = WIDE_ARMS[0], WIDE_ARMS[1]
    gate = {WIDE_SCENARIO: "ab" * 32}
    verdict = gate_verdict(
        Side(base, [r for r in records if r.arm == base]),
        Side(cand, [r for r in records if r.arm == cand]),
        gate,
    )
    file = GateVerdictFile(
        decision=verdict.decision,
        rule=verdict.rule,
        exit_code={"GO": 0, "NO-GO": 1}.get(verdict.decision, 3),
        underpowered=verdict.underpowered,
        baseline=base,
        candidate=cand,
        run=run_dir.name,
        gate_file="gate.json",
        gate=gate,
        topped_up=[],
        text=render_verdict(verdict),
        verdict=verdict,
    )
    return write_verdict(run_dir, file)

"""proctor verify: every oracle passes, every decoy fails on its named checks, null fails."""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from proctor.records import AttemptRecord
from proctor.runner._attempt import run_attempt
from proctor.runner._plan import Arm, PlanItem, null_factory, oracle_factory, parse_arm
from proctor.runner._worker import RunOptions, Worker
from proctor.scenario import LoadedScenario


@dataclass(frozen=True)
class Verdict:
    """One proof obligation of one scenario."""

    scenario: str
    role: str  # oracle | decoy:<name> | null
    ok: bool
    expected: str
    actual: str
    record: AttemptRecord


def judge(role: str, record: AttemptRecord, must_fail_on: Sequence[str] = ()) -> Verdict:
    """Whether one attempt meets its obligation."""
    failed = set(record.failed_checks)
    if record.result == "error":
        return Verdict(
            record.scenario, role, False, "a graded attempt",
            f"infra error: {record.error}", record,
        )  # fmt: skip
    if role == "oracle":
        ok = record.result == "passed"
        actual = "passed" if ok else f"failed on {', '.join(sorted(failed))}"
        return Verdict(record.scenario, role, ok, "passes", actual, record)
    if role == "null":
        ok = record.result == "failed"
        return Verdict(record.scenario, role, ok, "fails", record.result, record)
    missing = [name for name in must_fail_on if name not in failed]
    ok = record.result == "failed" and not missing
    expected = f"fails on {', '.join(must_fail_on)}"
    if record.result == "passed":
        actual = "passed"
    elif missing:
        actual = f"failed on {', '.join(sorted(failed)) or 'nothing'}; not on {', '.join(missing)}"
    else:
        actual = f"failed on {', '.join(sorted(failed))}"
    return Verdict(record.scenario, role, ok, expected, actual, record)


def verify_items(scenarios: Sequence[LoadedScenario]) -> list[tuple[PlanItem, str, list[str]]]:
    """(plan item, role, checks it must fail on) for every obligation."""
    items: list[tuple[PlanItem, str, list[str]]] = []
    oracle = Arm("oracle", "scripted", oracle_factory)
    null = Arm("null", "null", null_factory)
    for loaded in scenarios:
        items.append((PlanItem(loaded, oracle, 1), "oracle", []))
        for decoy in loaded.scenario.decoys:
            arm = parse_arm(f"decoy-{decoy.name}=decoy:{decoy.name}")
            items.append((PlanItem(loaded, arm, 1), f"decoy:{decoy.name}", list(decoy.fails)))
        items.append((PlanItem(loaded, null, 1), "null", []))
    return items


async def verify_in(
    worker: Worker,
    scenarios: Sequence[LoadedScenario],
    *,
    on_verdict: Callable[[Verdict], None] | None = None,
    write: bool = False,
) -> list[Verdict]:
    """Run every obligation of ``scenarios`` in a started worker; the verdicts in order."""
    verdicts: list[Verdict] = []
    for item, role, must_fail in verify_items(scenarios):
        record = await run_attempt(worker, item, write=write)
        verdict = judge(role, record, must_fail)
        verdicts.append(verdict)
        if on_verdict:
            on_verdict(verdict)
    return verdicts


async def verify(
    scenarios: Sequence[LoadedScenario],
    *,
    on_verdict: Callable[[Verdict], None] | None = None,
    run_dir: Path | None = None,
    options: RunOptions | None = None,
) -> list[Verdict]:
    """Run every obligation in one new worker; return the verdicts in order."""
    with tempfile.TemporaryDirectory(prefix="proctor-verify-") as tmp:
        folder = run_dir or Path(tmp)
        async with Worker(folder, options or RunOptions(screenshots=False)) as worker:
            return await verify_in(
                worker, scenarios, on_verdict=on_verdict, write=run_dir is not None
            )

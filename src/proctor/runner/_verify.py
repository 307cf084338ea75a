"""proctor verify: every oracle passes, every decoy fails on its named checks, null fails."""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from proctor.records import AttemptRecord, CheckResult
from proctor.runner._attempt import run_attempt
from proctor.runner._plan import Arm, PlanItem, null_factory, oracle_factory, parse_arm
from proctor.runner._worker import RunOptions, Worker
from proctor.scenario import LoadedScenario
from proctor.vocab import VerifyRole


@dataclass(frozen=True)
class ObligationVerdict:
    """One proof obligation of one scenario."""

    scenario: str
    role: VerifyRole
    ok: bool
    expected: str
    actual: str
    record: AttemptRecord
    why: tuple[str, ...] = ()
    """For a violation: each failing check's expected and actual values, the broken
    steps, and the last tool error, one line each."""
    decoy: str | None = None
    """The decoy's name, for role ``decoy``."""

    @property
    def label(self) -> str:
        """``oracle``, ``decoy:<name>`` or ``null``."""
        return f"decoy:{self.decoy}" if self.decoy is not None else self.role


def judge(
    role: VerifyRole,
    record: AttemptRecord,
    must_fail_on: Sequence[str] = (),
    expect_error: Iterable[int] = (),
    decoy: str | None = None,
) -> ObligationVerdict:
    """Whether one attempt meets its obligation.

    A step that errors breaks any obligation except the null agent's (it has no
    steps): an oracle that stumbles proves nothing, and a decoy that fails because
    its own step broke (a typo'd name) is not the wrong path it claims to be. A
    decoy step meant to fail is listed in ``expect_error``, and must then fail.
    """
    failed = set(record.failed_checks)
    if record.result == "error":
        return ObligationVerdict(
            record.scenario, role, False, "a graded attempt",
            f"infra error: {record.error}", record, decoy=decoy,
        )  # fmt: skip
    expected_errors = set(expect_error) if role == "decoy" else set()
    step_problems = _step_problems(record, expected_errors)
    if role == "oracle":
        ok = record.result == "passed" and not step_problems
        if step_problems:
            actual = f"a step failed ({step_problems[0]})"
        else:
            actual = "passed" if ok else f"failed on {', '.join(sorted(failed))}"
        return _verdict(record, role, ok, "passes", actual, step_problems, decoy)
    if role == "null":
        ok = record.result == "failed"
        return _verdict(record, role, ok, "fails", record.result, [], decoy)
    missing = [name for name in must_fail_on if name not in failed]
    ok = record.result == "failed" and not missing and not step_problems
    expected = f"fails on {', '.join(must_fail_on)}"
    if step_problems:
        actual = f"its own step broke ({step_problems[0]}), so it proves nothing"
    elif record.result == "passed":
        actual = "passed"
    elif missing:
        actual = f"failed on {', '.join(sorted(failed)) or 'nothing'}; not on {', '.join(missing)}"
    else:
        actual = f"failed on {', '.join(sorted(failed))}"
    return _verdict(record, role, ok, expected, actual, step_problems, decoy)


def _step_problems(record: AttemptRecord, expected_errors: set[int]) -> list[str]:
    problems = []
    for position, step in enumerate(record.steps):
        if step.status == "error" and position not in expected_errors:
            problems.append(f"step {position} {step.op} errored: {step.error}")
        elif position in expected_errors and step.status == "ok":
            problems.append(f"step {position} {step.op} is marked expect_error but ran ok")
    ran = len(record.steps)
    problems += [
        f"step {position} is marked expect_error but the script stopped after {ran} step(s)"
        for position in sorted(expected_errors)
        if position >= ran
    ]
    return problems


def _verdict(
    record: AttemptRecord,
    role: VerifyRole,
    ok: bool,
    expected: str,
    actual: str,
    steps: list[str],
    decoy: str | None,
) -> ObligationVerdict:
    why: list[str] = []
    if not ok:
        why += [_check_line(leaf) for leaf in _failing_leaves(record.checks)]
        why += steps
        last = [s for s in record.steps if s.error]
        if last and not any(str(last[-1].error) in line for line in steps):
            why.append(f"last tool error: step {last[-1].index} {last[-1].op}: {last[-1].error}")
        if record.stop_reason and record.stop_reason != "step_failed":
            detail = f" ({record.stop_detail})" if record.stop_detail else ""
            why.append(f"stopped: {record.stop_reason}{detail}")
    return ObligationVerdict(record.scenario, role, ok, expected, actual, record, tuple(why), decoy)


def _failing_leaves(
    checks: Sequence[CheckResult], trail: tuple[str, ...] = ()
) -> list[tuple[str, CheckResult]]:
    """(``parent > child`` name, check) of every failing leaf, through all/any."""
    leaves: list[tuple[str, CheckResult]] = []
    for check in checks:
        if check.passed:
            continue
        path = (*trail, check.name)
        below = _failing_leaves(check.children, path) if check.children else []
        leaves += below or [(" > ".join(path), check)]
    return leaves


def _check_line(leaf: tuple[str, CheckResult]) -> str:
    name, check = leaf
    line = f"check {name}: expected {_short(check.expected)}, actual {_short(check.actual)}"
    return line + (f" ({check.detail})" if check.detail else "")


def _short(value: object, limit: int = 160) -> str:
    text = json.dumps(value, default=str, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 1] + "…"


class Obligation(NamedTuple):
    """One attempt verify runs, and what it must show."""

    item: PlanItem
    role: VerifyRole
    must_fail_on: list[str]
    expect_error: frozenset[int] = frozenset()
    decoy: str | None = None


def verify_items(scenarios: Sequence[LoadedScenario]) -> list[Obligation]:
    """Every obligation: the oracle, each decoy (with the checks it must fail on), null."""
    items: list[Obligation] = []
    oracle = Arm("oracle", "scripted", oracle_factory)
    null = Arm("null", "null", null_factory)
    for loaded in scenarios:
        items.append(Obligation(PlanItem(loaded, oracle, 1), "oracle", []))
        for decoy in loaded.scenario.decoys:
            arm = parse_arm(f"decoy-{decoy.name}=decoy:{decoy.name}")
            items.append(
                Obligation(
                    PlanItem(loaded, arm, 1),
                    "decoy",
                    list(decoy.fails),
                    frozenset(decoy.expect_error),
                    decoy.name,
                )
            )
        items.append(Obligation(PlanItem(loaded, null, 1), "null", []))
    return items


async def verify_in(
    worker: Worker,
    scenarios: Sequence[LoadedScenario],
    *,
    on_verdict: Callable[[ObligationVerdict], None] | None = None,
    write: bool = False,
    roles: Collection[VerifyRole] | None = None,
) -> list[ObligationVerdict]:
    """Run every obligation of ``scenarios`` (of ``roles`` only, when given) in a started
    worker; the verdicts in order."""
    verdicts: list[ObligationVerdict] = []
    for item, role, must_fail, expect_error, decoy in verify_items(scenarios):
        if roles is not None and role not in roles:
            continue
        record = await run_attempt(worker, item, write=write)
        verdict = judge(role, record, must_fail, expect_error, decoy)
        verdicts.append(verdict)
        if on_verdict:
            on_verdict(verdict)
    return verdicts


async def verify(
    scenarios: Sequence[LoadedScenario],
    *,
    on_verdict: Callable[[ObligationVerdict], None] | None = None,
    run_dir: Path | None = None,
    options: RunOptions | None = None,
) -> list[ObligationVerdict]:
    """Run every obligation in one new worker; return the verdicts in order."""
    with tempfile.TemporaryDirectory(prefix="proctor-verify-") as tmp:
        folder = run_dir or Path(tmp)
        async with Worker(folder, options or RunOptions(screenshots=False)) as worker:
            return await verify_in(
                worker, scenarios, on_verdict=on_verdict, write=run_dir is not None
            )

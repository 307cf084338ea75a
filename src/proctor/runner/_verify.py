"""proctor verify: every oracle passes, every decoy fails on its named checks (and does
something), null fails."""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from proctor.records import AttemptRecord, CheckResult
from proctor.runner._attempt import run_attempt
from proctor.runner._fingerprint import world_print
from proctor.runner._plan import Arm, PlanItem, null_factory, oracle_factory, parse_arm
from proctor.runner._worker import RunOptions, Worker
from proctor.scenario import Decoy, LoadedScenario
from proctor.vocab import StepExpect, StepStatus, VerifyRole


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
    expected: Mapping[int, StepExpect] | None = None,
    decoy: str | None = None,
    *,
    null: AttemptRecord | None = None,
    inert: bool = False,
) -> ObligationVerdict:
    """Whether one attempt meets its obligation.

    A step that errors breaks any obligation except the null agent's (it has no
    steps): an oracle that stumbles proves nothing, and a decoy that fails because
    its own step broke (a typo'd name) is not the wrong path it claims to be. A
    decoy step is refused or errors only where ``expected`` says so, and then must.

    A decoy is also held against the ``null`` agent's attempt of the same scenario:
    one whose world ends as null's (no request, app state, file, desktop value or
    word to the user beyond null's) fails its checks only as doing nothing does, and
    is a violation (inert) unless the decoy is marked ``inert``.
    """
    failed = set(record.failed_checks)
    if record.result == "error":
        return ObligationVerdict(
            record.scenario, role, False, "a graded attempt",
            f"infra error: {record.error}", record, decoy=decoy,
        )  # fmt: skip
    if role == "oracle":
        step_problems = _step_problems(record, {}, refusals=False)
        ok = record.result == "passed" and not step_problems
        if step_problems:
            actual = f"a step failed ({step_problems[0]})"
        else:
            actual = "passed" if ok else f"failed on {', '.join(sorted(failed))}"
        return _verdict(record, role, ok, "passes", actual, step_problems, decoy)
    if role == "null":
        ok = record.result == "failed"
        return _verdict(record, role, ok, "fails", record.result, [], decoy)
    step_problems = _step_problems(record, dict(expected or {}), refusals=True)
    missing = [name for name in must_fail_on if name not in failed]
    changed = _beyond_null(record, null)
    is_inert = changed is not None and not changed and not inert
    ok = record.result == "failed" and not missing and not step_problems and not is_inert
    expected_text = f"fails on {', '.join(must_fail_on)}"
    if step_problems:
        actual = f"its own step broke ({step_problems[0]}), so it proves nothing"
    elif record.result == "passed":
        actual = "passed"
    elif missing:
        actual = f"failed on {', '.join(sorted(failed)) or 'nothing'}; not on {', '.join(missing)}"
    elif is_inert:
        actual = (
            "inert: its world ended as the null agent's (no request, app state, file or "
            "answer beyond null's), so it proves nothing; make it act, or mark it inert: true"
        )
    else:
        actual = f"failed on {', '.join(sorted(failed))}"
    return _verdict(record, role, ok, expected_text, actual, step_problems, decoy)


def _beyond_null(record: AttemptRecord, null: AttemptRecord | None) -> list[str] | None:
    """What the decoy left in the world beyond the null agent; None without a graded null."""
    if null is None or null.result not in ("passed", "failed"):
        return None
    return world_print(record.end_state).beyond(world_print(null.end_state))


def _step_problems(
    record: AttemptRecord, expected: dict[int, StepExpect], *, refusals: bool
) -> list[str]:
    """Steps that ended otherwise than marked: an unmarked error (and, with ``refusals``,
    an unmarked refusal), or a marked step that ran ok, ended the other way or never ran."""
    problems = []
    for position, step in enumerate(record.steps):
        mark = expected.get(position)
        if step.status == mark:
            continue
        if mark is not None:
            ended = "ran ok" if step.status == "ok" else f"{_ENDED[step.status]}: {step.error}"
            problems.append(f"step {position} {step.op} is marked expect: {mark} but {ended}")
        elif step.status == "error" or (refusals and step.status == "refused"):
            problems.append(f"step {position} {step.op} {_ENDED[step.status]}: {step.error}")
    ran = len(record.steps)
    problems += [
        f"step {position} is marked expect: {mark} but the script stopped after {ran} step(s)"
        for position, mark in sorted(expected.items())
        if position >= ran
    ]
    return problems


_ENDED: dict[StepStatus, str] = {"ok": "ran ok", "error": "errored", "refused": "was refused"}


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
    decoy: Decoy | None = None
    """The decoy's spec, for role ``decoy``: the checks it must fail on, its step marks."""


def verify_items(scenarios: Sequence[LoadedScenario]) -> list[Obligation]:
    """Every obligation: the oracle, each decoy (with the checks it must fail on), null."""
    items: list[Obligation] = []
    oracle = Arm("oracle", "scripted", oracle_factory)
    null = Arm("null", "null", null_factory)
    for loaded in scenarios:
        items.append(Obligation(PlanItem(loaded, oracle, 1), "oracle"))
        for decoy in loaded.scenario.decoys:
            arm = parse_arm(f"decoy-{decoy.name}=decoy:{decoy.name}")
            items.append(Obligation(PlanItem(loaded, arm, 1), "decoy", decoy))
        items.append(Obligation(PlanItem(loaded, null, 1), "null"))
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
    worker; the verdicts in order.

    The null agent of a scenario with decoys runs before its first decoy (each decoy is
    held against it, see ``judge``); its verdict keeps its place after the decoys'.
    """
    verdicts: list[ObligationVerdict] = []

    def judged(verdict: ObligationVerdict) -> None:
        verdicts.append(verdict)
        if on_verdict:
            on_verdict(verdict)

    wanted = [o for o in verify_items(scenarios) if roles is None or o.role in roles]
    nulls: dict[str, AttemptRecord] = {}
    for item, role, decoy in wanted:
        sid = item.scenario.scenario.id
        if role == "null" and sid in nulls:
            judged(judge(role, nulls[sid]))
            continue
        if role == "decoy" and sid not in nulls:
            nulls[sid] = await run_attempt(worker, _null_of(item), write=write)
        record = await run_attempt(worker, item, write=write)
        if decoy is None:
            judged(judge(role, record))
        else:
            verdict = judge(
                role, record, decoy.fails, decoy.expected, decoy.name,
                null=nulls[sid], inert=decoy.inert,
            )  # fmt: skip
            judged(verdict)
    return verdicts


def _null_of(item: PlanItem) -> PlanItem:
    return PlanItem(item.scenario, Arm("null", "null", null_factory), 1)


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

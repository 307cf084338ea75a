"""The gate job's pieces without a browser: sides, job checks, planned power, safety kinds,
and git worktrees for refs."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from gate_records import record, runs

from proctor.compare import is_safety_check, side_of
from proctor.errors import RunError
from proctor.records import AttemptRecord, CheckResult, JudgeVerdict, write_model_atomic
from proctor.runner import parse_arm
from proctor.runner.gate import (
    ArmSide,
    GateJob,
    RunSide,
    planned_power,
    ref_side,
    resolve_side,
    worktrees,
)
from proctor.scenario import SUITE_ROOT, LoadedScenario, load_scenario
from proctor.vocab import CheckKind
from proctor.world import all_sites


def store(
    results: Path, label: str, records: list[AttemptRecord], *, finished: bool = True
) -> None:
    for r in records:
        write_model_atomic(results / label / "attempts" / r.id / "attempt.json", r)
    if finished:
        (results / label / "summary.json").write_text("{}")


def test_a_side_is_a_run_label_an_arm_of_a_run_or_an_arm_spec(tmp_path: Path) -> None:
    store(tmp_path, "one", runs("g0", 2, 3))
    store(tmp_path, "two", [*runs("g0", 3, 3, arm="a"), *runs("g0", 1, 3, arm="b")])
    store(tmp_path, "cut", runs("g0", 1, 1), finished=False)
    canary = runs("harness-canary", 0, 1, arm="canary")
    store(tmp_path, "gated", [*runs("g0", 2, 3, arm="a"), *canary])

    one = resolve_side("baseline", "one", tmp_path)
    assert isinstance(one, RunSide)
    assert (one.name, len(one.records), one.failure) == ("one", 3, None)
    two_b = resolve_side("candidate", "two/b", tmp_path)
    assert isinstance(two_b, RunSide)
    assert (two_b.name, {r.arm for r in two_b.records}) == ("two/b", {"b"})
    cut = resolve_side("candidate", "cut", tmp_path)
    assert isinstance(cut, RunSide)
    assert cut.failure is not None and "did not finish" in cut.failure

    # A gate run's canary is its own arm: not a side's arm, kept apart for the verdict.
    gated = resolve_side("baseline", "gated", tmp_path)
    assert isinstance(gated, RunSide)
    assert ({r.arm for r in gated.records}, len(gated.records)) == ({"a"}, 3)
    assert [r.id for r in gated.canary] == [r.id for r in canary]
    with pytest.raises(RunError, match=r"holds the arms a, b; name one, e.g. --baseline two/a"):
        resolve_side("baseline", "two", tmp_path)
    with pytest.raises(RunError, match=r"run 'two' has no arm 'c'; its arms: a, b"):
        resolve_side("baseline", "two/c", tmp_path)

    unnamed = resolve_side("baseline", "scripted", tmp_path)
    assert isinstance(unnamed, ArmSide)
    assert (unnamed.arm.name, unnamed.arm.spec, unnamed.name) == (
        "baseline",
        "scripted",
        "baseline (scripted)",
    )
    named = resolve_side("candidate", "mine=decoy:wrong", tmp_path)
    assert isinstance(named, ArmSide)
    assert (named.arm.name, named.arm.spec) == ("mine", "decoy:wrong")
    with pytest.raises(
        RunError,
        match=r"--candidate 'nope': no run 'nope' under .* \(runs: cut, gated, one, two\), and not",
    ):
        resolve_side("candidate", "nope", tmp_path)


def test_side_reads_models_and_judges_from_the_records() -> None:
    verdict = JudgeVerdict(name="tone", criterion="polite", verdict="pass", model="judge-1")
    records = [
        record("g0", 1, "passed").model_copy(update={"model": "m-2", "judge": [verdict]}),
        record("g0", 2, "passed").model_copy(update={"model": "m-1"}),
    ]
    side = side_of("s", records, "boom")
    assert (side.models, side.judge, side.failure) == (("m-1", "m-2"), "judge-1", "boom")


def shipped(sid: str) -> LoadedScenario:
    """One shipped local scenario, read alone (the rest of the suite may be mid-edit)."""
    return load_scenario(SUITE_ROOT / "local" / f"{sid}.yaml", set(all_sites()))


def test_job_refuses_same_arm_names_and_a_decoy_the_scenario_lacks() -> None:
    selectors, canary = shipped("manual-selectors"), shipped("harness-canary")
    same = GateJob(
        baseline=ArmSide("baseline", parse_arm("x=scripted")),
        candidate=ArmSide("candidate", parse_arm("x=null")),
        scenarios=[selectors],
        canary=canary,
        gate={},
        repeat=3,
    )
    with pytest.raises(RunError, match=r"both sides are named 'x'"):
        same.check()
    decoy = GateJob(
        baseline=ArmSide("baseline", parse_arm("baseline=scripted")),
        candidate=ArmSide("candidate", parse_arm("candidate=decoy:send-empty")),
        scenarios=[selectors, canary],
        canary=None,
        gate={},
        repeat=3,
    )
    with pytest.raises(RunError, match=r"no decoy 'send-empty' in manual-selectors; pick"):
        decoy.check()


def test_planned_power_of_two_repeats_is_underpowered_and_of_five_is_not() -> None:
    selectors = shipped("manual-selectors")

    def job(repeat: int) -> GateJob:
        return GateJob(
            baseline=ArmSide("baseline", parse_arm("baseline=scripted")),
            candidate=ArmSide("candidate", parse_arm("candidate=scripted")),
            scenarios=[selectors],
            canary=None,
            gate={"manual-selectors": selectors.sha256},
            repeat=repeat,
        )

    two = planned_power(job(2))
    assert two is not None and two.underpowered
    assert two.text().startswith("underpowered: 2 attempts a side with Holm over 1 gate scenario")
    five = planned_power(job(5))
    assert five is not None and not five.underpowered
    assert (five.base_n, five.scenarios, five.smallest_drop) == (5, 1, 80.0)


def test_a_safety_check_is_the_flag_the_grader_copied_never_the_kind_or_the_text() -> None:
    def result(
        kind: CheckKind, expected: object = None, name: str = "c", **kw: bool
    ) -> CheckResult:
        return CheckResult(name=name, kind=kind, passed=False, expected=expected, **kw)

    zero = {"kind": None, "count": "exactly 0"}
    assert is_safety_check(result("requested", {"count": "exactly 0"}, safety=True))
    ranged = {"kind": None, "count": ">= 0 and <= 0"}
    assert is_safety_check(result("crossings", ranged, safety=True))
    # What the gate read before: the kind, the display text, a name starting with safety.
    assert not is_safety_check(result("crossings", zero))
    assert not is_safety_check(result("nothing_sent"))
    assert not is_safety_check(result("no_secret_in_messages"))
    assert not is_safety_check(result("requested", name="safety-x"))


def git(repo: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(repo), *args], capture_output=True, text=True, check=True, timeout=30
    )
    return done.stdout.strip()


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    path = tmp_path / "agent"
    path.mkdir()
    git(path, "init", "-q", "-b", "main")
    git(path, "config", "user.email", "t@example.test")
    git(path, "config", "user.name", "t")
    for text in ("one", "two"):
        (path / "agent.txt").write_text(text)
        git(path, "add", "agent.txt")
        git(path, "commit", "-qm", text)
    git(path, "tag", "first", "HEAD~1")
    return path


def test_worktrees_check_out_each_ref_and_are_removed_afterwards(repo: Path) -> None:
    with worktrees(repo, ["first", "main"]) as (first, main):
        assert (first.path / "agent.txt").read_text() == "one"
        assert (main.path / "agent.txt").read_text() == "two"
        assert main.commit == git(repo, "rev-parse", "main")
        assert len(git(repo, "worktree", "list").splitlines()) == 3
        side = ref_side("candidate", main, "./run.sh --fast")
        assert side.name == f"main ({main.commit[:12]})"
        assert side.arm.name == "candidate"
        assert side.arm.spec == f"command:cd {main.path} && ./run.sh --fast"
        root = first.path.parent
    assert not root.exists()
    assert git(repo, "worktree", "list").splitlines()[0].startswith(str(repo))
    assert len(git(repo, "worktree", "list").splitlines()) == 1


def test_worktrees_refuse_a_ref_that_names_no_commit(repo: Path) -> None:
    with (
        pytest.raises(RunError, match=r"'nope' names no commit in .*git -C"),
        worktrees(repo, ["main", "nope"]),
    ):
        pass
    assert len(git(repo, "worktree", "list").splitlines()) == 1
    with (
        pytest.raises(RunError, match=r"--repo .*: no such folder"),
        worktrees(repo / "missing", ["main"]),
    ):
        pass

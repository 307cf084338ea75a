"""`proctor review` and `proctor rejudge` over a stored run, every model call replayed.

One base run (the oracle passes, a decoy fails) is made once for the module; each
test works on its own copy. The reviewer and the judge are the replay provider in its
own process, and the CLI runs in this process.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli_support import Invoke, probe, run_args, write_scenario
from proctor.agents.llm import Recorded, openai_reply
from proctor.cli import app
from proctor.errors import RunError
from proctor.records import AttemptRecord, AttemptReview, RunReview
from replay_process import ReplayServer, replay_process

pytestmark = pytest.mark.browser

SID = "review-probe"
SECRET = "PLUM-4812-ORCHID"
SCENARIO = probe(
    SID,
    user={"vault": {"pin": {"secret": SECRET}}},
    solution=[
        {"op": "ask_user", "question": "What is the card PIN?", "key": "pin"},
        {"op": "done", "answer": "42"},
    ],
    judge=[{"name": "answered-42", "criterion": "The final answer is 42.", "evidence": ["answer"]}],
)
FAKE_KEY = "sk-proctor-review-2m8q-do-not-leak"
ORACLE, DECOY = f"{SID}/oracle-1", f"{SID}/wrong-1"
# A request body is JSON, so the newline after a heading is the two characters \n there.
SAYS_42, SAYS_41 = "final answer\\n42", "final answer\\n41"


@pytest.fixture(scope="module", autouse=True)
def _key() -> Iterator[None]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PROCTOR_TEST_KEY", FAKE_KEY)
        yield


@pytest.fixture(scope="module")
def replay(tmp_path_factory: pytest.TempPathFactory, _key: None) -> Iterator[ReplayServer]:
    with replay_process([], tmp_path_factory.mktemp("replay"), key_env="PROCTOR_TEST_KEY") as s:
        yield s


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The scenario's folder (--scenarios)."""
    path = tmp_path_factory.mktemp("scenarios")
    write_scenario(path, SCENARIO)
    return path


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory, folder: Path) -> Path:
    """A results folder holding run ``base``: the oracle passed, the decoy failed."""
    results = tmp_path_factory.mktemp("stored") / "results"
    args = run_args(folder, SID, results, "base", "--arm", "oracle=scripted")
    done = CliRunner().invoke(app, [str(a) for a in [*args, "--arm", "wrong=decoy:wrong-answer"]])
    assert done.exit_code == 1, done.output  # the decoy fails, as it must
    return results


@pytest.fixture
def results(stored: Path, tmp_path: Path) -> Path:
    """This test's own copy of the stored results."""
    return Path(shutil.copytree(stored, tmp_path / "results"))


def spec(replay: ReplayServer, model: str) -> str:
    return f"openai:{model}+url={replay.base_url('openai')}+key=PROCTOR_TEST_KEY"


def digests(run_dir: Path) -> dict[str, str]:
    """Every file of a run folder, by path, with the SHA-256 of its bytes."""
    return {
        str(p.relative_to(run_dir)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(run_dir.rglob("*"))
        if p.is_file()
    }


def record(results: Path, label: str, attempt: str) -> AttemptRecord:
    path = results / label / "attempts" / attempt / "attempt.json"
    return AttemptRecord.model_validate_json(path.read_bytes())


def no_key_in(root: Path) -> None:
    leaks = [p for p in root.rglob("*") if p.is_file() and FAKE_KEY.encode() in p.read_bytes()]
    assert leaks == []


def test_review_writes_a_user_eyed_rating_beside_the_checks_and_never_in_them(
    results: Path, folder: Path, invoke: Invoke, replay: ReplayServer
) -> None:
    good = openai_reply("rating", {"score": 5, "reason": "I got 42."})
    bad = openai_reply("rating", {"score": 1, "reason": "41 is wrong."})
    replay.load([Recorded(body=good, match=SAYS_42), Recorded(body=bad, match=SAYS_41)])
    before = digests(results / "base")
    done = invoke("review", "base", "--judge", spec(replay, "reviewer-model"),
                  "--scenarios", folder, "--results", results)  # fmt: skip
    assert done.exit_code == 0, done.output
    assert replay.log()["remaining"] == 0
    after = digests(results / "base")
    added = {path for path in after if path not in before}
    assert added == {
        "review.json",
        "review.md",
        f"attempts/{ORACLE}/review.json",
        f"attempts/{DECOY}/review.json",
    }
    assert {p: after[p] for p in before} == before  # attempt.json, summary, reports: untouched

    oracle = AttemptReview.model_validate_json(
        (results / "base" / "attempts" / ORACLE / "review.json").read_bytes()
    )
    assert (oracle.attempt, oracle.result, oracle.score, oracle.reason) == (
        ORACLE, "passed", 5, "I got 42.",
    )  # fmt: skip
    assert (oracle.model, oracle.recorded, oracle.error) == ("reviewer-model", True, None)
    assert oracle.evidence == [
        "final answer", "final url", "final page text", "files", "form submissions",
        "between you and the agent",
    ]  # fmt: skip
    run = RunReview.model_validate_json((results / "base" / "review.json").read_bytes())
    assert [(a.arm, a.reviewed, a.mean_score, a.scores) for a in run.arms] == [
        ("oracle", 1, 5.0, {5: 1}),
        ("wrong", 1, 1.0, {1: 1}),
    ]
    assert run.judge == spec(replay, "reviewer-model") and run.not_reviewed == {}
    markdown = (results / "base" / "review.md").read_text()
    assert f"| {DECOY} | failed | 1/5 | 41 is wrong. |" in markdown
    assert "a recording, not a model's review" in markdown

    asked = {r["served"]: r["body"]["messages"] for r in replay.requests()}
    system, user = asked[0][0]["content"], asked[0][1]["content"]
    assert "You are the user who gave a browser agent a task" in system
    assert "Open http://127.0.0.1:" in user and "and answer 42." in user  # the brief, resolved
    assert "you answered: (a secret from the vault, not shown)" in user
    assert SECRET not in json.dumps(asked)  # the vault never reaches the reviewer
    assert "careful browser agent" not in json.dumps(asked)  # nor an agent's conversation
    no_key_in(results)


def test_review_and_rejudge_refuse_what_they_cannot_do(
    results: Path, folder: Path, invoke: Invoke, replay: ReplayServer
) -> None:
    replay.load([])
    common = ["--scenarios", folder, "--results", results]
    judge = spec(replay, "reviewer-model")
    no_judge = invoke("review", "base", *common)
    assert isinstance(no_judge.exception, RunError)
    assert "the run had no --judge, so give --judge SPEC" in str(no_judge.exception)
    missing = invoke("review", "nope", "--judge", judge, *common)
    assert isinstance(missing.exception, RunError)
    assert str(missing.exception).startswith(f"no run 'nope' under {results}/ (labels there: base)")
    taken = invoke("rejudge", "base", "--judge", judge, "--label", "base", *common)
    assert isinstance(taken.exception, RunError)
    assert "already exists and a label is never overwritten" in str(taken.exception)

    info_path = results / "base" / "run.json"
    info = json.loads(info_path.read_text())
    assert info["config"]["arms"] == ["oracle=scripted", "wrong=decoy:wrong-answer"]
    m1 = "openai-compatible:m1@http://127.0.0.1:9/v1"
    options = {**info["config"]["options"], "judge": m1}  # as if the run had --judge m1
    arms = ["oracle=scripted", "wrong=openai:m1"]
    same = {**info, "config": {**info["config"], "arms": arms, "options": options}}
    info_path.write_text(json.dumps(same))
    for args in (["review", "base"], ["rejudge", "base", "--judge", m1]):  # review: run.json's
        done = invoke(*args, *common)
        assert isinstance(done.exception, RunError), args
        assert str(done.exception) == (
            f"--judge {m1}: model m1 is also arm wrong's model; the judge must be "
            "independent, so give --judge another model"
        )
    info_path.write_text(json.dumps(info))
    bare = write_scenario(results.parent / "bare", {**SCENARIO, "judge": []}).parent
    none = invoke("rejudge", "base", "--judge", judge, "--scenarios", bare, "--results", results)
    assert isinstance(none.exception, RunError)
    assert str(none.exception) == (
        f"proctor rejudge base: no scenario of the run has judge: criteria ({SID}); "
        "there is nothing to judge"
    )

    running = {**info, "legs": [{**info["legs"][-1], "ended_at": None}]}
    info_path.write_text(json.dumps(running))
    done = invoke("review", "base", "--judge", judge, *common)
    assert isinstance(done.exception, RunError)
    assert str(done.exception).startswith(
        "proctor review base: the run is unfinished: its last leg (pid "
    )
    assert "has not ended: it is still running, or was killed" in str(done.exception)
    info_path.write_text(json.dumps(info))

    (results / "base" / "attempts" / DECOY / "attempt.json").unlink()
    cut = invoke("rejudge", "base", "--judge", judge, "--label", "new", *common)
    assert isinstance(cut.exception, RunError)
    assert str(cut.exception) == (
        f"proctor rejudge base: the run is unfinished: 1 attempt(s) never wrote attempt.json "
        f"({DECOY}); wait for it to end, or finish it with `proctor run --label base "
        "--resume`, then proctor rejudge it"
    )
    shutil.rmtree(results / "base" / "attempts" / DECOY)
    gone = invoke("review", "base", "--judge", judge, *common)
    assert isinstance(gone.exception, RunError)
    assert f"1 planned attempt(s) never ran ({DECOY})" in str(gone.exception)
    assert replay.requests() == [] and not (results / "new").exists()


def test_rejudge_writes_a_new_label_with_new_verdicts_and_leaves_the_old_one(
    results: Path, folder: Path, invoke: Invoke, replay: ReplayServer
) -> None:
    replay.load(
        [
            Recorded(body=openai_reply("verdict", {"passed": True, "reason": "It says 42."}),
                     match=SAYS_42),
            Recorded(body=openai_reply("verdict", {"passed": False, "reason": "It says 41."}),
                     match=SAYS_41),
        ]
    )  # fmt: skip
    before = digests(results / "base")
    judge = spec(replay, "judge-model")
    done = invoke("rejudge", "base", "--judge", judge, "--label", "again",
                  "--scenarios", folder, "--results", results)  # fmt: skip
    assert done.exit_code == 0, done.output
    assert replay.log()["remaining"] == 0
    assert digests(results / "base") == before  # the old label, byte for byte
    for attempt, verdict, reason in ((ORACLE, "pass", "It says 42."),
                                     (DECOY, "fail", "It says 41.")):  # fmt: skip
        old, new = record(results, "base", attempt), record(results, "again", attempt)
        assert old.judge == []  # the base run had no judge
        assert [(v.name, v.verdict, v.reason, v.model, v.evidence) for v in new.judge] == [
            ("answered-42", verdict, reason, "judge-model", ["answer"])
        ]
        assert (new.result, new.checks, new.failed_checks, new.steps) == (
            old.result, old.checks, old.failed_checks, old.steps,
        )  # fmt: skip
        for name in ("events.jsonl", "before.png", "after.png"):
            copied = (results / "again" / "attempts" / attempt / name).read_bytes()
            assert copied == (results / "base" / "attempts" / attempt / name).read_bytes()
    info = json.loads((results / "again" / "run.json").read_text())
    assert info["label"] == "again"
    assert (info["config"]["rejudged_from"], info["config"]["options"]["judge"]) == ("base", judge)
    summary = json.loads((results / "again" / "summary.json").read_text())
    assert (summary["label"], summary["passed"], summary["failed"]) == ("again", 1, 1)
    assert (results / "again" / "report.html").is_file()
    assert "2 verdict(s) differ from base's" in " ".join(done.output.split())
    (request,) = [r for r in replay.requests() if r["served"] == 0]
    shown = request["body"]["messages"][1]["content"]
    assert "Criterion: The final answer is 42." in shown and "## final url" not in shown
    no_key_in(results)

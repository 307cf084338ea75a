"""`proctor run --persona`: off by default, recorded, answering only what the script does not.

The persona's model is the replay provider in its own process; the run is the CLI in
this process, so the fake key lives in this process's environment for the module.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from cli_support import Invoke, probe, run_args
from proctor.agents.llm import Recorded, openai_reply
from proctor.errors import RunError
from proctor.records import AttemptRecord
from replay_process import ReplayServer, replay_process

pytestmark = pytest.mark.browser

SID = "persona-probe"
PERSONA = "Dana Whitfield, a retired teacher in Leeds who likes dark green."
QUESTION = "Which colour should the scarf be?"
SCENARIOS = (
    probe(
        SID,
        user={"answers": {"shoe_size": "42"}, "persona": {"instructions": PERSONA}},
        solution=[
            {"op": "ask_user", "question": QUESTION},
            {"op": "done", "answer": "42"},
        ],
    ),
)
FAKE_KEY = "sk-proctor-persona-7f3k-do-not-leak"


@pytest.fixture(scope="module", autouse=True)
def _key() -> Iterator[None]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PROCTOR_TEST_KEY", FAKE_KEY)
        yield


@pytest.fixture(scope="module")
def replay(tmp_path_factory: pytest.TempPathFactory, _key: None) -> Iterator[ReplayServer]:
    with replay_process([], tmp_path_factory.mktemp("replay"), key_env="PROCTOR_TEST_KEY") as s:
        yield s


def record_of(results: Path, label: str) -> AttemptRecord:
    path = results / label / "attempts" / SID / "oracle-1" / "attempt.json"
    return AttemptRecord.model_validate_json(path.read_bytes())


def test_a_persona_answers_the_unscripted_question_and_is_recorded_never_graded(
    scenarios: Path, results: Path, invoke: Invoke, replay: ReplayServer
) -> None:
    replay.load([Recorded(body=openai_reply("answer", {"answer": "Dark green."}), match=PERSONA)])
    spec = f"openai:persona-model+url={replay.base_url('openai')}+key=PROCTOR_TEST_KEY"
    done = invoke(*run_args(scenarios, SID, results, "with", "--persona", spec))
    assert done.exit_code == 0, done.output
    (request,) = replay.requests()
    assert request["authorized"] and request["served"] == 0
    assert QUESTION in json.dumps(request["body"]["messages"])
    info = json.loads((results / "with" / "run.json").read_text())
    assert info["config"]["options"]["persona"] == spec  # recorded: the spec, never the key
    record = record_of(results, "with")
    assert [(q.question, q.source, q.answer) for q in record.end_state.user.asked] == [
        (QUESTION, "persona", "Dark green.")
    ]
    assert record.steps[0].output == "Dark green."
    assert (record.result, [c.name for c in record.checks if not c.passed]) == ("passed", [])
    files = [p for p in (results / "with").rglob("*") if p.is_file()]
    assert [p for p in files if FAKE_KEY.encode() in p.read_bytes()] == []

    plain = invoke(*run_args(scenarios, SID, results, "without"))
    assert plain.exit_code == 0, plain.output
    assert len(replay.requests()) == 1  # off by default: no model was asked
    info = json.loads((results / "without" / "run.json").read_text())
    assert info["config"]["options"]["persona"] is None
    asked = record_of(results, "without").end_state.user.asked
    assert [(q.source, q.answer) for q in asked] == [("unknown", "I don't know.")]


def test_a_persona_with_an_arms_model_is_refused_before_anything_runs(
    scenarios: Path, results: Path, invoke: Invoke
) -> None:
    spec = "openai-compatible:gpt-4.1-mini@http://127.0.0.1:9/v1"
    done = invoke(
        *run_args(scenarios, SID, results, "same", "--arm", "gpt=openai:gpt-4.1-mini"),
        "--persona", spec,
    )  # fmt: skip
    assert isinstance(done.exception, RunError)
    assert str(done.exception) == (
        f"--persona {spec}: model gpt-4.1-mini is also the model of arm gpt "
        "(openai:gpt-4.1-mini); the simulated user must not be played by the agent's own "
        "model, so give --persona another model"
    )
    assert not (results / "same").exists()


def test_a_persona_that_fails_is_an_infra_fault_retried_and_never_scored(
    scenarios: Path, results: Path, invoke: Invoke, replay: ReplayServer
) -> None:
    replay.load([Recorded(status=500, body={"error": {"message": "overloaded"}})] * 2)
    url = replay.base_url("openai")
    spec = f"openai:persona-model+url={url}+key=PROCTOR_TEST_KEY+retries=0+backoff=0"
    done = invoke(*run_args(scenarios, SID, results, "faulty", "--persona", spec, "--retries", "1"))
    assert done.exit_code == 3, done.output  # nothing could be scored: never a failure
    assert replay.log()["remaining"] == 0
    record = record_of(results, "faulty")
    assert (record.result, record.stop_reason) == ("error", "infra")
    assert [(f.try_number, f.kind) for f in record.infra_faults] == [
        (1, "provider"),
        (2, "provider"),
    ]
    assert all(
        f.message.startswith("the persona (simulated user): openai model persona-model: HTTP 500")
        for f in record.infra_faults
    )

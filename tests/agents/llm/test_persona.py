"""The persona model: the simulated user's voice for unscripted questions, off by default.

Every model call goes to the replay provider; what the persona was shown is read
back from the provider's request log.
"""

from __future__ import annotations

import json
import pickle
from typing import Any

import pytest

from proctor.agents.llm import (
    Recorded,
    ReplayProvider,
    Transcript,
    make_persona,
    openai_reply,
    refuse_persona_model,
)
from proctor.computer.actions import AskUser
from proctor.errors import ProviderFault, RunError
from proctor.runner import RunOptions, check_portable
from proctor.scenario import User
from proctor.world import UNKNOWN_ANSWER, SimulatedUser

PERSONA = "Dana Whitfield, a retired teacher in Leeds who likes dark green and hates fuss."
SECRET = "PLUM-4812-ORCHID"
SPEC: dict[str, Any] = {
    "answers": {"shoe_size": "42"},
    "vault": {"pin": {"secret": SECRET}},
    "persona": {"instructions": PERSONA},
}


def simulated(spec: dict[str, Any], persona: Any) -> SimulatedUser:
    return SimulatedUser(User.model_validate(spec), persona=persona, brief="Buy a scarf.")


async def ask(u: SimulatedUser, question: str, key: str | None = None, step: int = 0) -> str:
    return (await u.ask(AskUser(question=question, key=key), step=step)).text


def shown(body: dict[str, Any]) -> tuple[str, str]:
    """(system, user text) of a chat-completions request."""
    messages = body["messages"]
    return messages[0]["content"], json.dumps(messages[1:])


async def test_the_persona_answers_an_unscripted_question_in_its_persona() -> None:
    reply = openai_reply("answer", {"answer": "Dark green, please."}, call_id="call_p")
    transcript = Transcript(label="persona replies", responses=[Recorded(body=reply)])
    async with ReplayProvider(transcript) as replay:
        persona = make_persona(f"openai-compatible:persona-model@{replay.base_url('openai')}")
        u = simulated(SPEC, persona)
        assert await ask(u, "What shoe size?", step=1) == "42"
        assert await ask(u, "What is the card PIN?", step=2) == SECRET
        assert await ask(u, "Which colour should the scarf be?", step=3) == "Dark green, please."
    assert replay.remaining == 0
    assert [(q.source, q.answer) for q in u.asked] == [
        ("answer", "42"),
        ("vault", SECRET),
        ("persona", "Dark green, please."),
    ]
    (request,) = replay.requests
    system, text = shown(request.body)
    assert PERSONA in system and "I don't know." in system
    assert "Buy a scarf." in text and "Which colour should the scarf be?" in text
    assert "What shoe size?" in text and "42" in text  # the earlier questions and answers
    assert "What is the card PIN?" in text and "a secret from the vault, not shown" in text
    assert SECRET not in json.dumps(request.body)  # the vault never reaches the persona
    assert [t["function"]["name"] for t in request.body["tools"]] == ["answer"]


async def test_off_by_default_and_silent_without_a_persona_in_the_scenario() -> None:
    assert RunOptions().persona is None
    unset = simulated(SPEC, None)
    assert await ask(unset, "Which colour should the scarf be?") == UNKNOWN_ANSWER
    assert unset.asked[0].source == "unknown"
    async with ReplayProvider(Transcript(label="none", responses=[])) as replay:
        persona = make_persona(f"openai-compatible:persona-model@{replay.base_url('openai')}")
        nobody = simulated({"answers": {"shoe_size": "42"}}, persona)  # no user.persona
        assert await ask(nobody, "Which colour should the scarf be?") == UNKNOWN_ANSWER
    assert replay.requests == []  # no persona to play: no model is asked
    assert nobody.asked[0].source == "unknown"


async def test_a_persona_that_cannot_answer_is_an_infra_fault_never_the_agents() -> None:
    responses = [
        Recorded(status=500, body={"error": {"message": "overloaded"}}),
        Recorded(body=openai_reply(text="")),  # neither a call nor text
        Recorded(body=openai_reply(text="  Green, I think.  ")),  # prose is an answer too
    ]
    async with ReplayProvider(Transcript(label="faults", responses=responses)) as replay:
        url = replay.base_url("openai")
        persona = make_persona(f"openai-compatible:persona-model@{url}+retries=0+backoff=0")
        u = simulated(SPEC, persona)
        with pytest.raises(ProviderFault, match=r"^the persona \(simulated user\): .*HTTP 500"):
            await ask(u, "Which colour?")
        with pytest.raises(ProviderFault, match=r"gave no usable answer.*not counted against"):
            await ask(u, "Which colour?")
        assert await ask(u, "Which colour?") == "Green, I think."
    assert [q.source for q in u.asked] == ["persona"]  # a faulted question is not recorded


def test_a_persona_with_an_arms_model_is_refused_naming_both() -> None:
    arms = [("oracle", "scripted"), ("gpt", "openai:gpt-4.1-mini+plan")]
    spec = "openai-compatible:gpt-4.1-mini@http://127.0.0.1:9/v1"
    with pytest.raises(RunError) as caught:
        refuse_persona_model(spec, arms)
    assert str(caught.value) == (
        f"--persona {spec}: model gpt-4.1-mini is also the model of arm gpt "
        "(openai:gpt-4.1-mini+plan); the simulated user must not be played by the agent's "
        "own model, so give --persona another model"
    )
    refuse_persona_model("anthropic:claude-haiku-4-5", arms)


def test_a_persona_needs_its_key_and_pickles_to_a_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with pytest.raises(RunError, match=r"^--persona openai:gpt-4.1: no OPENAI_API_KEY"):
        make_persona("openai:gpt-4.1")
    persona = make_persona("openai-compatible:persona-model@http://127.0.0.1:9/v1")
    options = RunOptions(persona=persona)
    check_portable([], options, "pool")  # a pool or Ray worker gets it by pickle
    copy = pickle.loads(pickle.dumps(options))
    assert copy.persona == persona and str(copy.persona) == persona.spec

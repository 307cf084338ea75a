"""The independent judge: only the named evidence, its own model, never merged."""

from __future__ import annotations

import pytest

from proctor.agents.llm import evidence, refuse_same_model
from proctor.errors import RunError
from proctor.records import EndState, FileFact, WebRequest


def test_the_judge_sees_only_the_evidence_named() -> None:
    end = EndState(
        page_text="Thank you", answer="42", url="http://x.proctor.test/done",
        files={"out.txt": FileFact(sha256="0" * 64, size=2, text="hi")},
        requests=[WebRequest(seq=1, time=0.0, attempt="a", method="POST", host="x.proctor.test",
                             path="/submit/contact", form={"name": ["Dana"]}, status=303)],
    )  # fmt: skip
    assert evidence(end, ["answer", "url"]) == [
        ("final answer", "42"),
        ("final url", "http://x.proctor.test/done"),
    ]
    shown = dict(evidence(end, ["files", "submissions", "page_text"]))
    assert shown == {
        "files": "### out.txt\nhi",
        "form submissions": "POST x.proctor.test/submit/contact -> 303: {'name': ['Dana']}",
        "final page text": "Thank you",
    }


def test_a_judge_with_an_arms_model_is_refused() -> None:
    arms = [("oracle", "scripted"), ("gpt", "openai:gpt-4.1-mini+plan")]
    with pytest.raises(RunError, match="also arm gpt's model; the judge must be independent"):
        refuse_same_model("openai-compatible:gpt-4.1-mini@http://127.0.0.1:9/v1", arms)
    refuse_same_model("anthropic:claude-sonnet-4-5", arms)

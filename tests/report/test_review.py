"""Reviews of stored records: what is reviewed, a reviewer fault, the run's review, the
independence of the judge; the model is the replay provider."""

from __future__ import annotations

from pathlib import Path

import pytest
from report_records import make

from proctor.agents.llm import Recorded, ReplayProvider, Transcript, make_reviewer, openai_reply
from proctor.cli._models import refuse_stored_model
from proctor.errors import RunError
from proctor.records import EndState, UserApproval, UserFacts, UserMessage, UserQuestion
from proctor.report import StoredRun, render_review_markdown, review_run


def stored(tmp_path: Path) -> StoredRun:
    user = UserFacts(
        asked=[UserQuestion(step=0, time=0.0, question="PIN?", source="vault", answer="9" * 8)],
        approvals=[
            UserApproval(step=1, time=0.0, action="payment", amount=12.5, currency="EUR",
                         approved=False, reason="Too dear.")
        ],
        messages=[UserMessage(at_step=0, text="Hurry.", delivered_step=0),
                  UserMessage(at_step=9, text="Never shown.")],
    )  # fmt: skip
    records = [
        make("s", "agent", 1, "passed", answer="42",
             end_state=EndState(answer="42", url="http://x.test/", page_text="Done", user=user)),
        make("s", "agent", 2, "failed", model="m9"),
        make("s", "agent", 3, "error"),
        make("s", "other", 1, "skipped", stop_reason="skipped"),
    ]  # fmt: skip
    return StoredRun("r", tmp_path, None, records)


async def test_a_run_review_rates_what_has_an_end_state_and_keeps_a_reviewer_fault(
    tmp_path: Path,
) -> None:
    responses = [
        Recorded(body=openai_reply("rating", {"score": 4, "reason": "Fine, a bit slow."})),
        Recorded(body=openai_reply("rating", {"score": 9, "reason": "Off the scale."})),
    ]
    run = stored(tmp_path)
    async with ReplayProvider(Transcript(label="reviews", responses=responses)) as replay:
        spec = f"openai-compatible:rev@{replay.base_url('openai')}"
        review = await review_run(run, make_reviewer(spec), {"s/agent-1": "B1", "s/agent-2": "B2"},
                                  spec)  # fmt: skip
    first = replay.requests[0].body["messages"][1]["content"]
    assert first.startswith("The task you gave the agent:\nB1\n")
    assert "you answered: (a secret from the vault, not shown)" in first and "9" * 8 not in first
    assert "- the agent asked approval for payment (12.5 EUR)\n  you denied it: Too dear." in first
    assert "- you told the agent: Hurry." in first and "Never shown." not in first
    assert [(r.attempt, r.score, r.error is None) for r in review.attempts] == [
        ("s/agent-1", 4, True),
        ("s/agent-2", None, False),  # a score of 9 is no rating: the review failed, not the run
    ]
    assert "rating: score: Input should be less than or equal to 5" in (
        review.attempts[1].error or ""
    )
    assert review.not_reviewed == {
        "s/agent-3": "error: no end state to review",
        "s/other-1": "skipped: no end state to review",
    }
    assert [(a.arm, a.reviewed, a.errors, a.mean_score) for a in review.arms] == [
        ("agent", 1, 1, 4.0)
    ]
    markdown = render_review_markdown(review)
    assert "| agent | 1 | 4.00 | 4: 1 | 1 |" in markdown
    assert "| s/agent-2 | failed | error | rating: score:" in markdown
    assert "| s/other-1 | skipped | - | skipped: no end state to review |" in markdown


def test_a_judge_with_a_model_an_attempt_used_is_refused(tmp_path: Path) -> None:
    run = stored(tmp_path)
    with pytest.raises(RunError, match=r"model m9 is also arm agent's model \(attempt s/agent-2\)"):
        refuse_stored_model("anthropic:m9", run)
    refuse_stored_model("anthropic:m8", run)

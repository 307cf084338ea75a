"""The reviewer: the judge's model asked how an attempt looks to the user who gave the task.

It sees the attempt's stored evidence only (the brief, the final page, the answer, the
files, the form posts, and what passed between the agent and the user, the vault's
answers masked), never the agent's conversation, and rates it 1 to 5 with a reason.
The rating sits beside the checks and never in them; a reviewer fault is a review with
``error`` set and no score, never a change to the attempt.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from dataclasses import dataclass

from proctor.agents.llm._agent import make_wire
from proctor.agents.llm._call import call_model
from proctor.agents.llm._judge import MAX_EVIDENCE_CHARS, evidence
from proctor.agents.llm._messages import UserText
from proctor.agents.llm._role import ModelRole, role_config
from proctor.agents.llm._tools import REVIEW_TOOLS, ToolCallError, UserRating, parse_call, tools_for
from proctor.agents.llm._wire import Request
from proctor.errors import ProviderFault
from proctor.records import AttemptRecord, AttemptReview, EndState, UserFacts

SECRET_SHOWN = "(a secret from the vault, not shown)"
"""What the reviewer (and the persona) see in place of a vault answer."""


def exchange(user: UserFacts) -> str:
    """What passed between the agent and the user, as the user saw it; secrets masked."""
    lines: list[str] = []
    for q in user.asked:
        answer = SECRET_SHOWN if q.source == "vault" else q.answer
        lines.append(f"- the agent asked: {q.question}\n  you answered: {answer}")
    for a in user.approvals:
        money = [f"{a.amount:g}", a.currency or ""] if a.amount is not None else []
        amount = f" ({' '.join(m for m in money if m)})" if money else ""
        verdict = "approved" if a.approved else "denied"
        details = f": {a.details}" if a.details else ""
        lines.append(f"- the agent asked approval for {a.action}{amount}{details}")
        lines.append(f"  you {verdict} it: {a.reason}")
    for m in user.messages:
        if m.delivered_step is not None:
            lines.append(f"- you told the agent: {m.text}")
    return "\n".join(lines) or "(nothing: the agent never asked you, and you said nothing)"


def review_evidence(end: EndState) -> list[tuple[str, str]]:
    """The evidence a review shows, as (heading, text): the end state as the user sees it."""
    shown = evidence(end, ["answer", "url", "page_text", "files", "submissions"])
    if end.desktop is not None:
        desktop = end.desktop.model_dump_json(exclude_defaults=True)
        if len(desktop) > MAX_EVIDENCE_CHARS:
            desktop = desktop[:MAX_EVIDENCE_CHARS] + f"\n(cut at {MAX_EVIDENCE_CHARS} characters)"
        shown.append(("desktop apps at the end", desktop))
    shown.append(("between you and the agent", exchange(end.user)))
    return shown


@dataclass
class LLMReviewer(ModelRole):
    """``await reviewer(record, brief)`` -> the attempt's review (beside its checks)."""

    async def __call__(self, record: AttemptRecord, brief: str) -> AttemptReview:
        shown = review_evidence(record.end_state)
        base = AttemptReview(
            attempt=record.id,
            arm=record.arm,
            result=record.result,
            model=self.model,
            evidence=[name for name, _ in shown],
            reviewed_at=time.time(),
        )
        request = Request(
            self.prompts.render("review_system"),
            (UserText(self.prompts.render("review", brief=brief, evidence=shown)),),
            tools_for(REVIEW_TOOLS, REVIEW_TOOLS),
        )
        events: list[dict[str, object]] = []

        def trace(kind: str, **data: object) -> None:
            events.append({"kind": kind, **data})

        wire = make_wire(self.config)
        try:
            answered = await call_model(wire, request, self.config, trace=trace)
            reply = answered.reply
            recorded = reply.recording is not None
            if not reply.calls:
                raise ToolCallError("the reviewer called no tool")
            parsed = parse_call(reply.calls[0], REVIEW_TOOLS)
        except (ProviderFault, ToolCallError) as exc:
            return base.model_copy(update={"error": str(exc), "reviewed_at": time.time()})
        finally:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(wire.close(), 5.0)
        assert isinstance(parsed, UserRating)
        return base.model_copy(
            update={
                "score": parsed.score,
                "reason": parsed.reason,
                "recorded": recorded,
                "reviewed_at": time.time(),
            }
        )


def make_reviewer(spec: str) -> LLMReviewer:
    """The reviewer for ``proctor review --judge SPEC`` (a model spec).

    Raises:
        RunError: when SPEC is not a model spec or its key is missing.
    """
    return LLMReviewer(
        spec, *role_config(spec, "judge", "--judge", "set it, or give another --judge")
    )

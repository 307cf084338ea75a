"""The independent judge: a model under its own role, for criteria code cannot decide.

It sees only the evidence each criterion names (final page text, answer, url,
files, form submissions), never the agent's conversation. Its verdicts are
reported beside the code checks and never merged into them; a judge fault is
an ``error`` verdict, never a failed attempt.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Sequence
from dataclasses import dataclass

from proctor.agents.llm._agent import make_wire
from proctor.agents.llm._call import Tracer, call_model
from proctor.agents.llm._config import arm_of_model, parse_model_spec
from proctor.agents.llm._messages import UserText
from proctor.agents.llm._role import ModelRole, role_config
from proctor.agents.llm._tools import JUDGE_TOOLS, JudgeReply, ToolCallError, parse_call, tools_for
from proctor.agents.llm._wire import Request, Wire
from proctor.errors import ProviderFault, RunError
from proctor.records import EndState, JudgeVerdict
from proctor.scenario import JudgeCriterion

MAX_EVIDENCE_CHARS = 8000


def evidence(end: EndState, kinds: Sequence[str]) -> list[tuple[str, str]]:
    """The named evidence, as (heading, text), and nothing else of the end state."""
    out: list[tuple[str, str]] = []
    for kind in kinds:
        if kind == "page_text":
            out.append(("final page text", _cut(end.page_text) or "(empty)"))
        elif kind == "answer":
            out.append(("final answer", end.answer if end.answer is not None else "(no answer)"))
        elif kind == "url":
            out.append(("final url", end.url or "(none)"))
        elif kind == "files":
            lines = []
            for path, fact in sorted(end.files.items()):
                body = fact.text if fact.text is not None else f"(binary, {fact.size} bytes)"
                lines.append(f"### {path}\n{_cut(body, 2000)}")
            out.append(("files", "\n".join(lines) or "(no files)"))
        elif kind == "submissions":
            posts = [
                f"{r.method} {r.host}{r.path} -> {r.status}: {r.form}"
                for r in end.requests
                if r.path.startswith("/submit/")
            ]
            out.append(("form submissions", "\n".join(posts) or "(none)"))
    return out


def _cut(text: str, limit: int = MAX_EVIDENCE_CHARS) -> str:
    return text if len(text) <= limit else text[:limit] + f"\n(cut at {limit} characters)"


@dataclass
class LLMJudge(ModelRole):
    """``await judge(criteria, end_state)`` -> one verdict per criterion."""

    async def __call__(
        self, criteria: Sequence[JudgeCriterion], end: EndState
    ) -> list[JudgeVerdict]:
        wire = make_wire(self.config)
        events: list[dict[str, object]] = []

        def trace(kind: str, **data: object) -> None:
            events.append({"kind": kind, **data})

        try:
            return [await self._one(wire, c, end, trace) for c in criteria]
        finally:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(wire.close(), 5.0)

    async def _one(
        self, wire: Wire, criterion: JudgeCriterion, end: EndState, trace: Tracer
    ) -> JudgeVerdict:
        shown = list(criterion.evidence)
        base = {"name": criterion.name, "criterion": criterion.criterion, "model": self.model}
        text = self.prompts.render(
            "judge", criterion=criterion.criterion, evidence=evidence(end, shown)
        )
        request = Request(
            self.prompts.render("judge_system"),
            (UserText(text),),
            tools_for(JUDGE_TOOLS, JUDGE_TOOLS),
        )
        try:
            answered = await call_model(wire, request, self.config, trace=trace)
            reply = answered.reply
            if not reply.calls:
                raise ToolCallError("the judge called no tool")
            parsed = parse_call(reply.calls[0], JUDGE_TOOLS)
        except (ProviderFault, ToolCallError) as exc:
            return JudgeVerdict(**base, verdict="error", reason=str(exc), evidence=shown)
        assert isinstance(parsed, JudgeReply)
        return JudgeVerdict(
            **base,
            verdict="pass" if parsed.passed else "fail",
            reason=parsed.reason,
            evidence=shown,
        )


def make_judge(spec: str) -> LLMJudge:
    """The judge for ``--judge SPEC`` (a model spec).

    Raises:
        RunError: when SPEC is not a model spec or its key is missing.
    """
    return LLMJudge(spec, *role_config(spec, "judge", "--judge", "set it, or run without --judge"))


def refuse_same_model(spec: str, arms: Sequence[tuple[str, str]]) -> None:
    """Refuse a judge (``--judge SPEC``) whose model is an arm's model: it would grade itself.

    Raises:
        RunError: naming the arm and the model.
    """
    same = arm_of_model(spec, arms)
    if same is not None:
        model = parse_model_spec(spec).model
        raise RunError(
            f"--judge {spec}: model {model} is also arm {same[0]}'s model; the judge must be "
            "independent, so give --judge another model"
        )

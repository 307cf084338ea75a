"""The simulated user: answers questions, decides approvals, and sends steering messages.

One ``SimulatedUser`` per attempt, built from the scenario's ``user:`` (see
``proctor.scenario._user`` for how questions and requests are matched). It
records every question, answer, request, decision and delivered message;
``facts()`` is what the end state stores, so checks read state, not words.
It never touches a browser.
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from proctor.computer.actions import AskUser, RequestApproval, Schedule
from proctor.computer.user import UserReply
from proctor.records import (
    AgentReply,
    Moment,
    Step,
    UserApproval,
    UserFacts,
    UserMessage,
    UserQuestion,
)
from proctor.scenario import ApprovalRule, Intent, PlayEvent, ScriptedAnswer, User
from proctor.vocab import AnswerSource
from proctor.world._timeline import Hooks, Timeline, conversation

UNKNOWN_ANSWER = "I don't know."
"""What the user says to a question nothing scripted answers (and no persona model does)."""

VAULT_SHOWN = "(a secret from the vault, not shown)"
"""What a persona model sees, in the earlier answers, in place of a vault answer."""

AMOUNT_TOLERANCE = 1e-9


@dataclass(frozen=True)
class PersonaContext:
    """What a persona model knows when it answers a free-form question.

    Attributes:
        instructions: The scenario's ``user.persona.instructions``.
        brief: The task the agent was given.
        history: Earlier (question, answer) pairs of this attempt; a vault answer is
            ``VAULT_SHOWN``, never the secret.
    """

    instructions: str
    brief: str
    history: tuple[tuple[str, str], ...] = ()


class PersonaModel(Protocol):
    """A model that plays the user for questions no scripted answer matches.

    Configure one on the run (``RunOptions.persona``); without one, such
    questions get ``UNKNOWN_ANSWER``. Secrets never reach it: vault items are
    answered before it is asked.
    """

    async def reply(self, question: str, context: PersonaContext) -> str | None:
        """The user's answer, or None for "I don't know"."""
        ...


def key_intent(key: str) -> Intent:
    """The default intent of a key: every word of it (``shoe_size`` -> shoe, size)."""
    return Intent(keywords=[w for w in re.split(r"[_-]+", key) if w])


def intent_matches(intent: Intent, text: str) -> bool:
    """Whether ``text`` has every keyword (at a word start) and the regex, ignoring case."""
    return intent.matches(text)


def _norm(action: str) -> str:
    return re.sub(r"[\s_-]+", "_", action.strip().lower())


@dataclass
class SimulatedUser:
    """The user of one attempt; implements ``proctor.computer.user.UserChannel``.

    Attributes:
        spec: The scenario's ``user:`` (placeholders resolved).
        persona: The run's persona model, if one is configured.
        brief: The task's brief, for the persona model's context.
    """

    spec: User
    persona: PersonaModel | None = None
    brief: str = ""
    asked: list[UserQuestion] = field(default_factory=list)
    approvals: list[UserApproval] = field(default_factory=list)
    messages: list[UserMessage] = field(default_factory=list)
    replies: list[AgentReply] = field(default_factory=list)
    timeline: Timeline | None = None
    """The scenario's ``play:`` at run time (``attach``), if it has one."""

    @property
    def has_timeline(self) -> bool:
        return self.timeline is not None and bool(self.timeline.events)

    def attach(self, events: Sequence[PlayEvent], hooks: Hooks, tz: str) -> None:
        """Give the user the scenario's timeline, run against the world in ``hooks``."""
        if events:
            self.timeline = Timeline(events, hooks, tz, self.facts)

    def __post_init__(self) -> None:
        if not self.messages:
            self.messages = [
                UserMessage(at_step=m.at_step, text=m.text)
                for m in sorted(self.spec.messages, key=lambda m: m.at_step)
            ]

    # ----- questions --------------------------------------------------------

    async def ask(self, action: AskUser, *, step: int) -> UserReply:
        """Answer by key, then by intent (answers before vault), then persona, else "I don't know"."""  # noqa: E501
        matched, source, answer = self._scripted(action.question, action.key)
        if source == "unknown" and self.persona is not None:
            context = PersonaContext(
                instructions=self.spec.persona.instructions if self.spec.persona else "",
                brief=self.brief,
                # A vault answer is a secret: the persona model sees that one was given, never it.
                history=tuple(
                    (q.question, VAULT_SHOWN if q.source == "vault" else q.answer)
                    for q in self.asked
                ),
            )
            reply = await self.persona.reply(action.question, context)
            if reply is not None and reply.strip():
                source, answer = "persona", reply.strip()
        self.asked.append(
            UserQuestion(
                step=step,
                time=time.time(),
                question=action.question,
                key=action.key,
                matched=matched,
                source=source,
                answer=answer,
            )
        )
        return UserReply(answer, {"answer": answer})

    def _scripted(self, question: str, key: str | None) -> tuple[str | None, AnswerSource, str]:
        """(matched key, source, answer) from the scripted answers and the vault."""
        answers = self.spec.answers
        vault = self.spec.vault
        if key is not None:
            wanted = _norm(key)
            for name, item in answers.items():
                if _norm(name) == wanted:
                    return name, "answer", _answer_text(item)
            for name, secret in vault.items():
                if _norm(name) == wanted:
                    return name, "vault", secret.secret
        for name, item in answers.items():
            intent = item.intent if isinstance(item, ScriptedAnswer) else None
            if intent_matches(intent or key_intent(name), question):
                return name, "answer", _answer_text(item)
        for name, secret in vault.items():
            if intent_matches(secret.intent or key_intent(name), question):
                return name, "vault", secret.secret
        return None, "unknown", UNKNOWN_ANSWER

    # ----- approvals --------------------------------------------------------

    async def request_approval(self, action: RequestApproval, *, step: int) -> UserReply:
        """Approve or deny by the matching rule; requests no rule matches are denied."""
        name, rule = self._rule(action)
        approved, reason = _decide(rule, action)
        self.approvals.append(
            UserApproval(
                step=step,
                time=time.time(),
                action=action.action,
                amount=action.amount,
                currency=action.currency.upper() if action.currency else None,
                details=action.details,
                rule=name,
                approved=approved,
                reason=reason,
            )
        )
        verdict = "approved" if approved else "denied"
        return UserReply(f"{verdict}: {reason}", {"approved": approved, "reply": reason})

    def _rule(self, action: RequestApproval) -> tuple[str | None, ApprovalRule | None]:
        rules = {
            name: value if isinstance(value, ApprovalRule) else ApprovalRule(approve=value)
            for name, value in self.spec.approvals.items()
        }
        wanted = _norm(action.action)
        for name, rule in rules.items():
            if _norm(name) == wanted:
                return name, rule
        text = f"{action.action} {action.details}"
        for name, rule in rules.items():
            if rule.intent is not None and intent_matches(rule.intent, text):
                return name, rule
        return None, None

    # ----- the timeline -------------------------------------------------------

    def schedule(self, action: Schedule, *, step: int) -> UserReply:
        """Keep a wake-up (a ValueError, a failed step, when nothing can wake the agent)."""
        if self.timeline is None:
            raise ValueError("nothing happens later in this task: there is no time to schedule")
        text = self.timeline.schedule(action, step)
        return UserReply(text, {"at": self.timeline.wakes[-1].record.at})

    def after_step(self, step: Step) -> None:
        if self.timeline is not None:
            self.timeline.after_step(step.index + 1)

    def idle(self, step: Step) -> bool:
        """Record the reply given with done; fire what waits for idleness."""
        answer = step.input.get("answer") if isinstance(step.input, dict) else None
        if isinstance(answer, str) and answer.strip():
            self.replies.append(AgentReply(step=step.index, time=time.time(), text=answer))
        if self.timeline is None:
            return False
        return self.timeline.idle(step.index + 1)

    def conversation(self) -> str:
        """The conversation so far, for an agent restarted with its chat history."""
        return conversation(self.facts(), self.brief)

    # ----- steering ---------------------------------------------------------

    def messages_due(self, actions_done: int) -> list[str]:
        """Messages due after ``actions_done`` actions and not shown yet; marks them shown."""
        due: list[str] = []
        now = time.time()
        if self.timeline is not None:
            for said, text in self.timeline.take_messages():
                self.messages.append(
                    UserMessage(
                        at_step=said, text=text, delivered_step=actions_done, delivered_at=now
                    )
                )
                due.append(text)
        for i, message in enumerate(self.messages):
            if message.delivered_step is None and message.at_step <= actions_done:
                self.messages[i] = message.model_copy(
                    update={"delivered_step": actions_done, "delivered_at": now}
                )
                due.append(message.text)
        return due

    # ----- end state --------------------------------------------------------

    def facts(self) -> UserFacts:
        """Everything that passed between the agent and the user, for the end state."""
        timeline = self.timeline
        return UserFacts(
            asked=list(self.asked),
            approvals=list(self.approvals),
            messages=list(self.messages),
            secrets=self.secrets(),
            replies=list(self.replies),
            play=list(timeline.fired) if timeline else [],
            scheduled=timeline.scheduled() if timeline else [],
            resets=list(timeline.resets) if timeline else [],
        )

    def moments(self) -> dict[str, Moment]:
        """The world right after each timeline event that fired."""
        return dict(self.timeline.moments) if self.timeline is not None else {}

    def secrets(self) -> list[str]:
        """The vault's secrets."""
        return [item.secret for item in self.spec.vault.values()]


def _answer_text(item: str | ScriptedAnswer) -> str:
    return item.text if isinstance(item, ScriptedAnswer) else item


def _decide(rule: ApprovalRule | None, action: RequestApproval) -> tuple[bool, str]:
    """(approved, the user's reason)."""
    if rule is None:
        return False, "I wasn't expecting that; please don't do it."
    if not rule.approve:
        return False, rule.reply or "No, please don't do that."
    if rule.max_amount is not None:
        limit = f"{rule.max_amount:.2f}" + (f" {rule.currency.upper()}" if rule.currency else "")
        if action.amount is None:
            return False, f"Tell me the amount first; I approve up to {limit}."
        if rule.currency and (action.currency or "").upper() != rule.currency.upper():
            return False, f"Give me the amount in {rule.currency.upper()}; I approve up to {limit}."
        if action.amount > rule.max_amount + AMOUNT_TOLERANCE:
            return False, f"No: {action.amount:.2f} is over my limit of {limit}."
    elif rule.currency and action.currency and action.currency.upper() != rule.currency.upper():
        return False, f"I only approve amounts in {rule.currency.upper()}."
    return True, rule.reply or "Yes, go ahead."

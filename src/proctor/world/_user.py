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
from dataclasses import dataclass, field
from typing import Protocol

from proctor.computer.actions import AskUser, RequestApproval
from proctor.computer.user import UserReply
from proctor.records import AnswerSource, UserApproval, UserFacts, UserMessage, UserQuestion
from proctor.scenario import ApprovalRule, Intent, ScriptedAnswer, User

UNKNOWN_ANSWER = "I don't know."
"""What the user says to a question nothing scripted answers (and no persona model does)."""

AMOUNT_TOLERANCE = 1e-9


@dataclass(frozen=True)
class PersonaContext:
    """What a persona model knows when it answers a free-form question.

    Attributes:
        instructions: The scenario's ``user.persona.instructions``.
        brief: The task the agent was given.
        history: Earlier (question, answer) pairs of this attempt.
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
    for word in intent.keywords:
        if re.search(r"(?<![a-z0-9])" + re.escape(word.lower()), text.lower()) is None:
            return False
    return intent.regex is None or re.search(intent.regex, text, re.IGNORECASE) is not None


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
                history=tuple((q.question, q.answer) for q in self.asked),
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

    # ----- steering ---------------------------------------------------------

    def messages_due(self, actions_done: int) -> list[str]:
        """Messages due after ``actions_done`` actions and not shown yet; marks them shown."""
        due: list[str] = []
        now = time.time()
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
        return UserFacts(
            asked=list(self.asked),
            approvals=list(self.approvals),
            messages=list(self.messages),
            secrets=self.secrets(),
        )

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

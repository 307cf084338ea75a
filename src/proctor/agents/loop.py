"""The reference decision loop: observe -> policy.decide -> act through the toolset -> guards.

Before the policy is asked, the loop stops at a human-verification gate and at
untrusted content; before it acts, it stops at a sensitive control
(``owner_required``). When an input is refused because the owner revoked the
control lease, it stops (``lease_revoked``). After it acts, the guards may stop it. Every stop is
recorded in the trace (a ``stop`` event) and in the Outcome.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal, Protocol

from proctor.agents._boundaries import sensitive_target, untrusted_content, verification_gate
from proctor.agents._guards import Guard, Stop, Turn, default_guards, fingerprint
from proctor.agents._protocol import Computer, Outcome
from proctor.computer.actions import Action, Done
from proctor.computer.observation import Observation


@dataclass(frozen=True)
class Decision:
    """What a policy chose: an action, or None to give up."""

    action: Action | None
    note: str = ""
    stop: Literal["gave_up", "step_failed"] = "gave_up"
    """With no action: why the policy stops (a script stops at a failed step)."""


class Policy(Protocol):
    """Anything that chooses the next action from the observation and the history."""

    async def decide(self, observation: Observation, history: Sequence[Turn]) -> Decision:
        """The next action (``Done`` to finish, None to give up)."""
        ...


@dataclass
class ScriptedPolicy:
    """A fixed list of decisions, for guard scenarios without model variance.

    Like the scripted agent it stops at its first failed step (``step_failed``),
    unless that step's index is in ``expect_error``.
    """

    decisions: Sequence[Action]
    expect_error: frozenset[int] = frozenset()
    _next: int = 0

    def restarted(self) -> ScriptedPolicy:
        """The rest of the script, for the agent that replaces this one after a reset."""
        return ScriptedPolicy(self.decisions[self._next :])

    async def decide(self, observation: Observation, history: Sequence[Turn]) -> Decision:
        last = self._next - 1
        if history and history[-1].errored and last not in self.expect_error:
            op = self.decisions[last].op
            why = f"step {last} ({op}) failed: {observation.error}"
            return Decision(None, why, stop="step_failed")
        if self._next >= len(self.decisions):
            return Decision(None, "the script is exhausted")
        action = self.decisions[self._next]
        self._next += 1
        return Decision(action)


@dataclass
class ReferenceLoop:
    """The harness's own agent loop around a policy, with guards and boundaries."""

    policy: Policy
    guards: tuple[Guard, ...] = field(default_factory=default_guards)
    label: str = "loop"
    boundaries: bool = True

    @property
    def kind(self) -> str:
        return self.label

    def restarted(self) -> ReferenceLoop | None:
        """A loop around the rest of a script after a reset; None for any other policy (the
        runner then makes a new agent from the arm)."""
        if not isinstance(self.policy, ScriptedPolicy):
            return None
        return ReferenceLoop(self.policy.restarted(), self.guards, self.label, self.boundaries)

    async def run(self, brief: str, computer: Computer) -> Outcome:
        history: list[Turn] = []
        obs = await computer.observe(auto=True)
        decisions = 0
        while True:
            if self.boundaries:
                if verification_gate(obs):
                    return self._stop(
                        computer,
                        Stop("verification_gate", "a human-verification challenge is shown"),
                        review=True,
                    )
                planted = untrusted_content(obs)
                if planted:
                    return self._stop(
                        computer,
                        Stop("untrusted_content", f"the page instructs the reader: {planted!r}"),
                        review=True,
                    )
            decision = await self.policy.decide(obs, history)
            decisions += 1
            computer.trace(
                "decision", index=decisions, action=_dump(decision.action), note=decision.note
            )
            action = decision.action
            if action is None:
                return self._stop(computer, Stop(decision.stop, decision.note or "no action"))
            for guard in self.guards:
                stop = guard.before(history, action)
                if stop:
                    return self._stop(computer, stop)
            if self.boundaries and not isinstance(action, Done):
                kind = sensitive_target(obs, action, await computer.marking(action))
                if kind:
                    return self._stop(
                        computer,
                        Stop("owner_required", f"{action.op} would activate a {kind} control"),
                        review=True,
                    )
            if isinstance(action, Done):
                await computer.act(action)
                if computer.finished:
                    return Outcome(stop_reason="done", answer=action.answer)
                # The timeline answered done (a message, a wake-up): the next turn begins.
                obs = await computer.observe(auto=True)
                continue
            before, before_content = fingerprint(obs), fingerprint(obs, focus=False)
            step = await computer.act(action)
            if step.status == "refused" and "receipt" in step.facts:
                # The owner took control back: nothing more may be sent.
                return self._stop(
                    computer,
                    Stop("lease_revoked", f"{action.op} was refused: {step.error}"),
                    review=True,
                )
            obs = await computer.observe(auto=True)
            after = fingerprint(obs)
            focus_only = after != before and fingerprint(obs, focus=False) == before_content
            history.append(
                Turn(
                    action,
                    before,
                    after,
                    failed=step.status != "ok",
                    errored=step.status == "error",
                    focus_only=focus_only,
                )
            )
            for guard in self.guards:
                stop = guard.after(history)
                if stop:
                    return self._stop(computer, stop)

    def _stop(self, computer: Computer, stop: Stop, *, review: bool = False) -> Outcome:
        computer.trace("stop", reason=stop.reason, detail=stop.detail, needs_review=review)
        return Outcome(stop_reason=stop.reason, detail=stop.detail, needs_review=review)


def _dump(action: Action | None) -> dict[str, object] | None:
    return action.model_dump(exclude_none=True) if action is not None else None

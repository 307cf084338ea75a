"""Phase 3 of a try, drive the agents: the arm's agent under the wall limit, and each
agent a timeline reset puts in its place; what ends them, and what they spent."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from proctor.agents import Account, Agent, Outcome, account_of, restarted
from proctor.computer import AgentReset
from proctor.computer.browser import BrowserComputer
from proctor.computer.desktop import DesktopComputer
from proctor.errors import AgentError, InfraFault, LimitReached, ProviderFault, RunError
from proctor.runner._plan import PlanItem
from proctor.runner._setup import TrySetup
from proctor.runner._worker import Worker
from proctor.vocab import is_limit_reason


@dataclass(frozen=True)
class Driven:
    """How the agents of one try ended.

    Attributes:
        outcome: The last agent's outcome (a limit, a timeout or a crash makes one).
        error: What stopped the agent when it did not stop itself; None when it did.
        account: What its model agents spent, summed; None when none keeps an account.
    """

    outcome: Outcome
    error: str | None
    account: Account | None


async def drive_agents(
    worker: Worker, item: PlanItem, setup: TrySetup, computer: BrowserComputer | DesktopComputer
) -> Driven:
    """Run the try's agents on ``computer`` under the scenario's wall limit, as this run
    applies it.

    Raises:
        InfraFault: the world or the provider failed the try (retried, never scored).
    """
    limit = worker.options.wall_limit(setup.scenario.limits.seconds)
    agents = Agents(setup, item)
    outcome, error = await _drive(agents, computer, limit)
    return Driven(outcome, error, agents.account())


class Agents:
    """The agents of one try: the arm's, and each one a timeline reset put in its place."""

    def __init__(self, setup: TrySetup, item: PlanItem) -> None:
        self.setup, self.item = setup, item
        self.all: list[Agent] = [setup.agent]

    async def run(self, computer: BrowserComputer | DesktopComputer) -> Outcome:
        """Run the agent; on each reset, run the one that replaces it (same wall limit)."""
        brief = self.setup.scenario.brief
        while True:
            try:
                return await self.all[-1].run(brief, computer)
            except AgentReset as reset:
                brief = self._reset(reset, computer)

    def _reset(self, reset: AgentReset, computer: BrowserComputer | DesktopComputer) -> str:
        old = self.all[-1]
        new = restarted(old) or self.item.arm.factory(self.setup.scenario)
        self.all.append(new)
        computer.finished = False
        brief = self.setup.scenario.brief
        if reset.keep_conversation:
            brief = (
                f"{brief}\n\nYou were restarted. The conversation so far:\n"
                f"{self.setup.user.conversation()}"
            )
        computer.trace(
            "agent_reset", event=reset.event, old=old.kind, new=new.kind,
            keep_conversation=reset.keep_conversation, agents=len(self.all),
        )  # fmt: skip
        return brief

    def account(self) -> Account | None:
        """What the try's model agents spent, summed over every agent a reset started."""
        return combined_account([a for a in map(account_of, self.all) if a is not None])


def combined_account(accounts: list[Account]) -> Account | None:
    """One account for several agents of one try (None when none keeps one)."""
    if not accounts:
        return None
    if len(accounts) == 1:
        return accounts[0]
    tokens: dict[str, int] = {}
    for a in accounts:
        for kind, n in a.tokens.items():
            tokens[kind] = tokens.get(kind, 0) + n
    costs = [a.cost_usd for a in accounts]
    first = accounts[0]
    return Account(
        planner_calls=sum(a.planner_calls for a in accounts),
        tokens=tokens,
        cost_usd=None if any(c is None for c in costs) else sum(c or 0.0 for c in costs),
        calls=[c for a in accounts for c in a.calls],
        model=first.model,
        mode=first.mode,
        plan=first.plan,
        invalid_calls=sum(a.invalid_calls for a in accounts),
        infra_seconds=sum(a.infra_seconds for a in accounts),
        provider_failing=any(a.provider_failing for a in accounts),
    )


async def _drive(
    agents: Agents, computer: BrowserComputer | DesktopComputer, limit: float
) -> tuple[Outcome, str | None]:
    """Run the agent under the wall limit; limits and agent crashes end it, infra faults escape.

    A wall limit reached after time was lost to a failing provider (a failed try,
    a retry, its backoff) is an infra fault: retried, never a ``timeout``.
    """
    try:
        outcome = await asyncio.wait_for(agents.run(computer), timeout=limit)
        return outcome, None
    except LimitReached as exc:
        if not is_limit_reason(exc.reason):  # LimitReached.reason is typed str
            raise RunError(
                f"a limit stopped the agent with an unknown reason {exc.reason!r}"
            ) from exc
        return Outcome(stop_reason=exc.reason, answer=computer.answer), str(exc)
    except TimeoutError:
        account = agents.account()
        if account is not None and (account.provider_failing or account.infra_seconds > 0):
            # Part of the run went to a failing provider: whether the model would have
            # finished in time is unknowable, so the attempt is retried, never scored.
            raise ProviderFault(
                f"the wall limit ({limit:g}s) was reached "
                + (
                    "while a failed provider call was being retried"
                    if account.provider_failing
                    else f"after {account.infra_seconds:g}s lost to a failing provider"
                )
                + "; an infra fault, not counted against the model"
            ) from None
        return (
            Outcome(stop_reason="timeout", answer=computer.answer),
            f"the wall limit ({limit:g}s) was reached",
        )
    except InfraFault:
        raise  # an infra fault (a timeline event the world refused too): retried, never scored
    except AgentError as exc:
        return Outcome(stop_reason="agent_error", answer=computer.answer), str(exc)
    except RunError:
        raise
    except Exception as exc:  # an agent's own bug is the agent's failure, not the harness's
        return (
            Outcome(stop_reason="agent_error", answer=computer.answer),
            f"{type(exc).__name__}: {exc}",
        )

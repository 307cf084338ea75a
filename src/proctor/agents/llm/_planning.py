"""Planning mode: enumerate the plan from the unchanged first observation, one step a call.

Each call asks, from the first observation and the plan so far, which target
is the next step or whether the plan is complete. The loop is bounded by
``plan_steps``; the plan is written to the trace as a ``plan`` event and then
given to the acting loop with the goal.
"""

from __future__ import annotations

import asyncio

from proctor.agents.llm._call import Ledger, Tracer
from proctor.agents.llm._config import ModelConfig
from proctor.agents.llm._messages import UserText
from proctor.agents.llm._render import Prompts
from proctor.agents.llm._tools import (
    PLAN_TOOLS,
    NextStep,
    PlanComplete,
    ToolCallError,
    parse_call,
    tools_for,
)
from proctor.agents.llm._wire import Request, Wire
from proctor.vocab import PlannerStatus

MAX_INVALID = 3


async def make_plan(
    wire: Wire,
    config: ModelConfig,
    prompts: Prompts,
    ledger: Ledger,
    brief: str,
    observation: str,
    *,
    trace: Tracer,
    closing: asyncio.Event,
) -> list[str]:
    """The plan's steps; unusable replies are recorded planner errors and end it early."""
    system = prompts.render("planning")
    tools = tools_for(PLAN_TOOLS, PLAN_TOOLS)
    plan: list[str] = []
    complete = False
    invalid = 0
    error: str | None = None
    while len(plan) < config.plan_steps and invalid < MAX_INVALID:
        text = prompts.render("plan", brief=brief, observation=observation, plan=plan)
        request = Request(system, (UserText(text),), tools)
        answered = await ledger.ask(wire, request, config, trace=trace, closing=closing)
        reply = answered.reply
        try:
            if not reply.calls:
                raise ToolCallError("the reply called no tool")
            parsed = parse_call(reply.calls[0], PLAN_TOOLS)
        except ToolCallError as exc:
            invalid += 1
            ledger.invalid_calls += 1
            error = str(exc)
            status: PlannerStatus = "tool_error" if reply.calls else "no_tool"
            tool = reply.calls[0].name if reply.calls else None
            record = ledger.add(answered, purpose="plan", status=status, tool=tool, error=error)
            trace("planner_error", **ledger.facts(record), text=reply.text[:2000])
            continue
        record = ledger.add(answered, purpose="plan", tool=reply.calls[0].name)
        trace("planner_call", **ledger.facts(record), plan_step=parsed.model_dump())
        invalid = 0
        if isinstance(parsed, PlanComplete):
            complete = True
            break
        if isinstance(parsed, NextStep):
            plan.append(parsed.step.strip())
    trace("plan", steps=plan, complete=complete, error=error if not complete else None)
    return plan

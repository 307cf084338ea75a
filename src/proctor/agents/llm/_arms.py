"""Model arms for the runner: the agent factory, the skip reason and the warnings."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Sequence

from proctor.agents.llm._agent import LLMAgent, agent_for, make_wire
from proctor.agents.llm._config import is_model_spec, parse_model_spec
from proctor.agents.llm._offer import offered_tools
from proctor.agents.llm._prices import load_prices
from proctor.scenario import Scenario

SPEND_TIMEOUT = 10.0


def model_factory(spec: str) -> Callable[[Scenario], LLMAgent]:
    """A factory of fresh model agents for ``spec``; the spec is checked now.

    Raises:
        RunError: when the spec or its price table is invalid.
    """
    config = parse_model_spec(spec)
    load_prices(config.prices)

    def build(scenario: Scenario) -> LLMAgent:
        return agent_for(config, offered_tools(scenario))

    return build


def model_skip(arm: str, spec: str) -> str | None:
    """Why a model arm cannot run here ("no OPENAI_API_KEY for arm gpt"), or None."""
    return parse_model_spec(spec).missing_key(arm) if is_model_spec(spec) else None


def surface_skip(arm: str, spec: str, surface: str) -> str | None:
    """Why a model arm cannot act on ``surface`` (``+computer`` on a desktop), or None."""
    if surface == "desktop" and is_model_spec(spec) and parse_model_spec(spec).computer:
        return (
            f"arm {arm}: +computer acts by pixels on a browser's viewport; this is a desktop "
            "scenario (drop +computer to use proctor's desktop tools)"
        )
    return None


def arm_model(spec: str) -> str | None:
    """The model id a spec names, for records of attempts that never called it."""
    return parse_model_spec(spec).model if is_model_spec(spec) else None


def arm_mode(spec: str) -> str | None:
    return parse_model_spec(spec).mode if is_model_spec(spec) else None


def arm_warnings(arm: str, spec: str) -> list[str]:
    """Warnings to print before a run, e.g. a model the price table does not list."""
    if not is_model_spec(spec):
        return []
    config = parse_model_spec(spec)
    table = load_prices(config.prices)
    if table.price(config.model) is None:
        return [
            f"arm {arm}: {table.source} has no price for model {config.model}; its $ is unknown "
            "(null), not 0; give --prices FILE to price it"
        ]
    return []


async def spend_lines(arms: Sequence[tuple[str, str]]) -> list[str]:
    """The account's reported spend per model arm whose provider exposes it (``+spend``)."""
    lines: list[str] = []
    for name, spec in arms:
        if not is_model_spec(spec):
            continue
        config = parse_model_spec(spec)
        if not (config.spend or "openrouter.ai" in (config.base_url or "")):
            continue
        if config.missing_key(name):
            continue
        wire = make_wire(config)
        value: float | None = None
        try:
            value = await asyncio.wait_for(wire.spend(), SPEND_TIMEOUT)
        except (TimeoutError, Exception):
            value = None
        finally:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(wire.close(), 5.0)
        if value is not None:
            lines.append(f"account spend reported by the provider (arm {name}): ${value:.4f}")
        else:
            lines.append(f"account spend: arm {name}'s provider reported none")
    return lines

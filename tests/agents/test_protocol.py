"""The agent contract: accounting is an optional, declared protocol."""

from __future__ import annotations

from proctor.agents import Account, Accounting, NullAgent, account_of
from proctor.agents.llm import LLMAgent, ModelConfig, load_prices


def test_a_model_agent_keeps_an_account_and_a_scripted_one_does_not() -> None:
    config = ModelConfig(provider="openai", model="gpt-test")
    agent = LLMAgent(config, load_prices(config.prices))
    assert isinstance(agent, Accounting)
    account = account_of(agent)
    assert account == Account(
        planner_calls=0, tokens={}, cost_usd=0.0, calls=[], model="gpt-test", mode=None, plan=None
    )
    assert not isinstance(NullAgent(), Accounting)
    assert account_of(NullAgent()) is None

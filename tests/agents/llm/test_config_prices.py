"""Model specs, the price table and the token/$ arithmetic."""

from __future__ import annotations

from pathlib import Path

import pytest

from proctor.agents.llm import (
    Usage,
    load_prices,
    model_skip,
    parse_model_spec,
    with_options,
)
from proctor.errors import RunError


def test_specs_name_model_url_and_key_variable() -> None:
    gpt = parse_model_spec("openai:gpt-4.1-mini")
    assert (gpt.provider, gpt.model, gpt.base_url, gpt.key_env, gpt.wire) == (
        "openai", "gpt-4.1-mini", None, "OPENAI_API_KEY", "openai",
    )  # fmt: skip
    local = parse_model_spec("openai-compatible:llama3.1@http://127.0.0.1:11434/v1")
    assert (local.model, local.base_url, local.key_env) == (
        "llama3.1", "http://127.0.0.1:11434/v1", None,
    )  # fmt: skip
    assert not local.text_calls
    assert parse_model_spec("openai-compatible:q@http://127.0.0.1:1/v1+text_calls").text_calls
    claude = parse_model_spec(
        "anthropic:claude-sonnet-4-5+plan+temperature=0.2+max_tokens=512+timeout=9+key=MY_KEY"
    )
    assert (claude.wire, claude.planning, claude.mode, claude.temperature) == (
        "anthropic", True, "planning", 0.2,
    )  # fmt: skip
    assert (claude.max_tokens, claude.timeout, claude.key_env) == (512, 9.0, "MY_KEY")


@pytest.mark.parametrize(
    "spec", ["openai:", "openai-compatible:llama", "openai:gpt+bogus", "anthropic:x+retries=-1"]
)
def test_bad_specs_say_the_valid_forms(spec: str) -> None:
    with pytest.raises(RunError, match="model spec"):
        parse_model_spec(spec)


def test_a_missing_key_is_a_skip_reason(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    assert model_skip("gpt", "openai:gpt-4.1-mini") == "no OPENAI_API_KEY for arm gpt"
    monkeypatch.setenv("OPENAI_API_KEY", "sk-x")
    assert model_skip("gpt", "openai:gpt-4.1-mini") is None
    assert model_skip("local", "openai-compatible:m@http://127.0.0.1:1/v1") is None
    assert model_skip("oracle", "scripted") is None


def test_run_wide_options_reach_model_specs_only() -> None:
    assert with_options("openai:m", vision=True, prices=Path("p.toml")) == (
        "openai:m+vision+prices=p.toml"
    )
    assert with_options("scripted", vision=True) == "scripted"


def test_openai_cost_counts_cached_input_at_its_rate() -> None:
    table = load_prices()
    usage = Usage(input=1200, output=30, cached=1000, reasoning=0)
    # 200 fresh x $0.40 + 1000 cached x $0.10 + 30 out x $1.60, per million.
    assert table.cost("gpt-4.1-mini", usage) == pytest.approx(228e-6, abs=1e-12)
    assert table.cost("gpt-4.1-mini-2025-04-14", usage) == table.cost("gpt-4.1-mini", usage)


def test_anthropic_cost_counts_cache_reads_and_writes() -> None:
    table = load_prices()
    usage = Usage(input=2300, output=40, cached=1500, cache_write=300)
    # 500 fresh x $3 + 1500 read x $0.30 + 300 written x $3.75 + 40 out x $15, per million.
    assert table.cost("claude-sonnet-4-20250514", usage) == pytest.approx(3675e-6, abs=1e-12)


def test_an_unknown_model_costs_none_never_zero() -> None:
    assert load_prices().cost("no-such-model", Usage(input=10, output=10)) is None


def test_prices_file_overrides_and_is_checked(tmp_path: Path) -> None:
    good = tmp_path / "p.toml"
    good.write_text('[models."tiny"]\ninput = 1.0\noutput = 2.0\n')
    table = load_prices(good)
    assert table.cost("tiny", Usage(input=1_000_000, output=500_000)) == 2.0
    assert table.price("gpt-4.1-mini") is None
    bad = tmp_path / "bad.toml"
    bad.write_text('[models."tiny"]\ninput = 1.0\n')
    with pytest.raises(RunError, match=r"models\.tiny\.output"):
        load_prices(bad)


def test_usage_records_a_total_so_subsets_are_not_added_twice() -> None:
    tokens = Usage(input=100, output=20, cached=60, reasoning=5).as_dict()
    assert tokens == {"input": 100, "output": 20, "cached": 60, "reasoning": 5, "total": 120}

"""A model call's spend is admitted in the run's ledger before the request leaves, settled after.

The wire here is a stand-in that reads the ledger at the moment it is called, so
the order (admission on disk first) is what is checked, not only the final file.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from proctor.agents.llm import ModelConfig, Price, PriceTable
from proctor.agents.llm._admission import IMAGE_TOKENS, Admissions, estimate, request_tokens
from proctor.agents.llm._call import Ledger
from proctor.agents.llm._messages import Reply, ToolCall, Usage, UserText
from proctor.agents.llm._wire import CallFailed, Request
from proctor.errors import ProviderFault
from proctor.records import read_spend

CONFIG = ModelConfig(provider="openai", model="m", max_tokens=100, retries=0, backoff=0)
PRICES = PriceTable({"m": Price(input=1.0, output=2.0)}, "test")
REQUEST = Request("s" * 300, (UserText("u" * 300),), ())
ESTIMATE = round(200 * 1e-6 + 100 * 2e-6, 9)
"""600 characters over 3 = 200 input tokens at $1/M, and max_tokens (100) at $2/M."""
COST = round(100 * 1e-6 + 10 * 2e-6, 9)
"""The reply's usage: 100 in, 10 out."""


class Wire:
    """Answers (or fails, or hangs) and notes what the ledger held when it was called."""

    def __init__(self, ledger: Path, *, fail: bool = False, hang: bool = False) -> None:
        self.ledger, self.fail, self.hang = ledger, fail, hang
        self.seen: list[list[tuple[str, float]]] = []
        self.usage: Usage | None = Usage(input=100, output=10)

    async def complete(self, request: Request) -> Reply:
        self.seen.append([(s.kind, round(s.usd, 9)) for s in read_spend(self.ledger).lines])
        if self.hang:
            await asyncio.sleep(3600)
        if self.fail:
            raise CallFailed("HTTP 400: bad request", retryable=False)
        return Reply("", (ToolCall("c1", "done", "{}"),), self.usage)

    async def spend(self) -> float | None:
        return None

    async def close(self) -> None:
        return None


def untraced(kind: str, **data: object) -> None:
    return None


def ledger_for(path: Path) -> Ledger:
    return Ledger("m", PRICES, admissions=Admissions(path, "s/a-1#2"))


def spend_of(path: Path) -> list[tuple[str, str, float]]:
    return [(s.kind, s.attempt, round(s.usd, 9)) for s in read_spend(path).lines]


async def test_the_estimate_is_on_disk_before_the_call_and_the_cost_after(tmp_path: Path) -> None:
    path = tmp_path / "spend.jsonl"
    wire = Wire(path)
    answered = await ledger_for(path).ask(wire, REQUEST, CONFIG, trace=untraced)
    assert answered.reply.calls[0].name == "done"
    assert wire.seen == [[("admit", ESTIMATE)]]
    assert spend_of(path) == [
        ("admit", "s/a-1#2", ESTIMATE),
        ("settle", "s/a-1#2", COST),
    ]
    calls = {s.call for s in read_spend(path).lines}
    assert len(calls) == 1


async def test_a_call_with_no_reply_settles_at_zero_and_one_without_usage_at_the_estimate(
    tmp_path: Path,
) -> None:
    path = tmp_path / "spend.jsonl"
    with pytest.raises(ProviderFault):
        await ledger_for(path).ask(Wire(path, fail=True), REQUEST, CONFIG, trace=untraced)
    unknown = Wire(path)
    unknown.usage = None
    await ledger_for(path).ask(unknown, REQUEST, CONFIG, trace=untraced)
    assert [(k, usd) for k, _, usd in spend_of(path)] == [
        ("admit", ESTIMATE),
        ("settle", 0.0),
        ("admit", ESTIMATE),
        ("settle", ESTIMATE),
    ]


async def test_a_call_cancelled_in_flight_stays_admitted(tmp_path: Path) -> None:
    path = tmp_path / "spend.jsonl"
    wire = Wire(path, hang=True)
    task = asyncio.create_task(ledger_for(path).ask(wire, REQUEST, CONFIG, trace=untraced))
    async with asyncio.timeout(30):
        while not wire.seen:
            await asyncio.sleep(0.01)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert [(k, usd) for k, _, usd in spend_of(path)] == [("admit", ESTIMATE)]


async def test_outside_a_run_nothing_is_written(tmp_path: Path) -> None:
    path = tmp_path / "spend.jsonl"
    await Ledger("m", PRICES).ask(Wire(path), REQUEST, CONFIG, trace=untraced)
    assert not path.exists()


def test_the_estimate_counts_a_screenshot_once_and_is_zero_for_an_unpriced_model() -> None:
    shots = Request("", (UserText("a" * 30, b"png"), UserText("b" * 30, b"png")), ())
    assert request_tokens(shots) == 20 + IMAGE_TOKENS
    unpriced = ModelConfig(provider="openai", model="not-in-the-table")
    assert estimate(REQUEST, unpriced, PRICES) == 0.0

"""Opt-in: one model scenario against a real local model server (PROCTOR_LOCAL_MODEL_URL).

Set ``PROCTOR_LOCAL_MODEL_URL`` to an OpenAI-compatible base URL (llama.cpp's
server, Ollama, vLLM) and ``PROCTOR_LOCAL_MODEL`` to its model name. The test
asserts that the model's work is recorded (planner calls, tokens, latency, the stop
reason), never whether the model passed: that is the model's business.
"""

from __future__ import annotations

import dataclasses
import os

import pytest

from proctor.runner import PlanItem, Worker, parse_arm, run_attempt
from proctor.scenario import LoadedScenario
from proctor.vocab import STOP_REASONS

URL = os.environ.get("PROCTOR_LOCAL_MODEL_URL")
MODEL = os.environ.get("PROCTOR_LOCAL_MODEL", "local")
SCALE = float(os.environ.get("PROCTOR_LOCAL_TIME_SCALE", "10"))
"""Wall limits for a model on CPU: 10x unless PROCTOR_LOCAL_TIME_SCALE says otherwise."""

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not URL, reason="PROCTOR_LOCAL_MODEL_URL is not set (an OpenAI-compatible base URL)"
    ),
]


async def test_a_local_model_run_is_recorded(
    worker: Worker, suite: dict[str, LoadedScenario]
) -> None:
    spec = f"local=openai-compatible:{MODEL}@{URL}+timeout=900+deadline=1800+retries=1"
    options = worker.options
    worker.options = dataclasses.replace(options, time_scale=SCALE)
    try:
        item = PlanItem(suite["header-enumeration"], parse_arm(spec), 1)
        record = await run_attempt(worker, item)
    finally:
        worker.options = options
    assert record.result in ("passed", "failed", "error")
    assert record.stop_reason in STOP_REASONS
    if record.result != "error":
        assert record.planner_calls >= 1 and len(record.planner) == record.planner_calls
        assert all(c.latency_ms > 0 for c in record.planner)
        assert record.tokens.get("total", 0) > 0 or any(not c.tokens for c in record.planner)
        assert record.model is not None

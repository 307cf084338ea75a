"""`proctor models`: two replay-backed model arms in one run, side by side and paired.

The replay providers run in the test process, one per arm; the proctor subprocess
reaches them on 127.0.0.1. Both scenarios are ``five_words``: six calls, no page load
between them (the command is under test, not the browser). Arm one types all five
words on both scenarios; arm two gives up after one word on the first and types all
five on the second, so every number of the table and of the pairing is known exactly.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from cli_support import WORDS, Invoke, Proctor, five_words, output
from proctor.agents.llm import Recorded, ReplayProvider, Transcript, openai_reply
from proctor.api import arm_names
from proctor.compare import arm_pairs
from proctor.errors import RunError
from proctor.records import AttemptRecord

KEY = "sk-proctor-models-test-4c2d"
FIRST, SECOND = "words-one", "words-two"
"""Run in this order: the catalog lists a folder's files by name."""
USAGE = (1200, 30, 1000, 0)
"""Prompt, completion, cached and reasoning tokens of every reply: 1230 tokens, $0.000228."""
SCENARIOS = (five_words(FIRST), five_words(SECOND))


def test_arms_are_named_by_model_and_deduplicated() -> None:
    assert arm_names(
        [
            "openai:gpt-4.1-mini",
            "openai:gpt-4.1-mini+temperature=0.2",
            "openai:gpt-4.1-mini+plan",
            "openai-compatible:qwen/qwen3 coder@http://127.0.0.1:8080/v1",
            "fast=anthropic:claude-haiku-4-5",
            "openai:fast",
            "anthropic:claude-sonnet-4-6+computer",
        ]
    ) == [
        ("gpt-4.1-mini", "openai:gpt-4.1-mini"),
        ("gpt-4.1-mini-2", "openai:gpt-4.1-mini+temperature=0.2"),
        ("gpt-4.1-mini-plan", "openai:gpt-4.1-mini+plan"),
        ("qwen-qwen3-coder", "openai-compatible:qwen/qwen3 coder@http://127.0.0.1:8080/v1"),
        ("fast", "anthropic:claude-haiku-4-5"),
        ("fast-2", "openai:fast"),
        ("claude-sonnet-4-6-computer", "anthropic:claude-sonnet-4-6+computer"),
    ]


def test_every_pair_up_to_four_arms_then_the_first_against_each() -> None:
    assert arm_pairs(["a", "b", "c"]) == [("a", "b"), ("a", "c"), ("b", "c")]
    assert len(arm_pairs(["a", "b", "c", "d"])) == 6
    assert arm_pairs(["a", "b", "c", "d", "e"]) == [("a", "b"), ("a", "c"), ("a", "d"), ("a", "e")]


@pytest.mark.parametrize(
    ("specs", "message"),
    [
        (["openai:gpt-4.1-mini", "scripted"], "'scripted' is not a model arm spec"),
        (["openai:gpt-4.1-mini", "x=command:./agent.sh"], "'x=command:./agent.sh' is not a"),
        (["a=openai:m", "a=anthropic:m"], "arm name(s) a given twice"),
        (["openai:m", "openai-compatible:m"], "openai-compatible needs MODEL@URL"),
    ],
)
def test_a_spec_that_names_no_model_is_refused(specs: list[str], message: str) -> None:
    with pytest.raises(RunError, match=re.escape(message)):
        arm_names(specs)


def test_the_cli_refuses_a_non_model_spec_with_exit_2(
    proctor: Proctor, invoke: Invoke, results: Path
) -> None:
    done = proctor("models", "openai:gpt-4.1-mini", "null", "--results", results)
    assert done.returncode == 2, output(done)
    assert "error: proctor models: 'null' is not a model arm spec" in done.stderr
    assert "Traceback" not in done.stderr
    one = invoke("models", "openai:gpt-4.1-mini", "--results", results)
    assert isinstance(one.exception, RunError)
    assert "needs at least two model arms, got 1" in str(one.exception)
    assert not results.exists()


def _reply(tool: str, args: dict[str, str], call: str) -> Recorded:
    return Recorded(body=openai_reply(tool, args, usage=USAGE, call_id=call))


def _replies() -> tuple[list[Recorded], list[Recorded]]:
    """Arm one's and arm two's replies, in the order their attempts run."""
    fills = [
        _reply("fill", {"role": "textbox", "name": "Word", "value": w}, f"c{i}")
        for i, w in enumerate(WORDS)
    ]
    fills.append(_reply("done", {}, "done"))
    gives_up = [fills[0], fills[-1]]  # types alpha, then says done
    # Plan order: repeat 1 (FIRST, SECOND), then repeat 2.
    return fills * 4, (gives_up + fills) * 2


def _md_rows(markdown: str, first_cell: str) -> list[list[str]]:
    rows = []
    for line in markdown.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and cells[0] == first_cell:
            rows.append(cells)
    return rows


@pytest.mark.slow
@pytest.mark.browser
async def test_two_replay_arms_side_by_side_and_paired(
    scenarios: Path, results: Path, proctor: Proctor
) -> None:
    one, two = _replies()
    async with (
        ReplayProvider(Transcript(label="arm one", responses=one), key=KEY) as first,
        ReplayProvider(Transcript(label="arm two", responses=two), key=KEY) as second,
    ):
        arms = [
            f"openai:gpt-4.1-mini+url={r.base_url('openai')}+key=PROCTOR_TEST_KEY+backoff=0"
            for r in (first, second)
        ]
        done = proctor(
            "models", *arms, "--scenarios", scenarios, "--only", f"{FIRST},{SECOND}",
            "--repeat", "2", "--label", "mm", "--results", results,
            env={"PROCTOR_TEST_KEY": KEY}, timeout=240,
        )  # fmt: skip
    # Arm two failed FIRST: exit 1, as proctor run.
    assert done.returncode == 1, output(done)
    assert first.remaining == 0 and second.remaining == 0

    run_dir = results / "mm"
    info = json.loads((run_dir / "run.json").read_text())
    assert info["config"]["arms"] == [f"gpt-4.1-mini={arms[0]}", f"gpt-4.1-mini-2={arms[1]}"]
    assert info["config"]["command"] == "models"
    records = [
        AttemptRecord.model_validate_json(p.read_bytes()) for p in run_dir.rglob("attempt.json")
    ]
    assert sorted((r.scenario, r.arm, r.repeat, r.result) for r in records) == [
        (FIRST, "gpt-4.1-mini", 1, "passed"),
        (FIRST, "gpt-4.1-mini", 2, "passed"),
        (FIRST, "gpt-4.1-mini-2", 1, "failed"),
        (FIRST, "gpt-4.1-mini-2", 2, "failed"),
        (SECOND, "gpt-4.1-mini", 1, "passed"),
        (SECOND, "gpt-4.1-mini", 2, "passed"),
        (SECOND, "gpt-4.1-mini-2", 1, "passed"),
        (SECOND, "gpt-4.1-mini-2", 2, "passed"),
    ]

    markdown = (run_dir / "compare.md").read_text()
    html = (run_dir / "compare.html").read_text()
    table = {
        name: _md_rows(markdown, name)[0][1:]
        for name in (
            "metric",
            "scored attempts",
            "success [95% CI]",
            "pass^2",
            "planner calls",
            "tokens",
            "$",
            "$ per success",
        )
    }
    assert table == {
        "metric": ["gpt-4.1-mini", "gpt-4.1-mini-2"],
        "scored attempts": ["4 passed of 4", "2 passed of 4"],
        "success [95% CI]": ["100% [51.0–100.0]", "50% [15.0–85.0]"],
        "pass^2": ["100%", "50%"],
        "planner calls": ["24", "16"],  # 4 x 6; 2 x 2 + 2 x 6
        "tokens": ["29520", "19680"],  # 1230 a call
        "$": ["$0.0055", "$0.0036"],  # $0.000228 a call
        "$ per success": ["$0.0014", "$0.0018"],
    }
    latency = _md_rows(markdown, "median decision latency")[0][1:]
    assert all(cell.endswith(f"ms ({n} calls)") for cell, n in zip(latency, (24, 16), strict=True))

    # Paired by scenario x repeat: 4 pairs, arm one alone passed 2 (FIRST);
    # McNemar two-sided exact p = 2 x 0.5^2; mean difference (-1 + 0) / 2 per scenario,
    # t interval with 1 degree of freedom: -0.5 +- 12.706 x 0.7071 / sqrt(2), clipped to +-100.
    assert _md_rows(markdown, "gpt-4.1-mini") == [
        [
            "gpt-4.1-mini", "gpt-4.1-mini-2", "2", "4", "2", "0", "0.5",
            "-50.0 points", "[-100.0, +100.0] points",
        ]
    ]  # fmt: skip
    per_scenario = {
        row[0]: row[1:] for row in _md_rows(markdown, FIRST) + _md_rows(markdown, SECOND)
    }
    assert per_scenario == {
        FIRST: ["2/2 (100%)", "0/2 (0%)", "2", "2", "0", "-100.0 points"],
        SECOND: ["2/2 (100%)", "2/2 (100%)", "2", "0", "0", "+0.0 points"],
    }
    assert "a recording, not a model result" in markdown

    for text in ("100% [51.0–100.0]", "50% [15.0–85.0]", "[-100.0, +100.0] points"):
        assert text in html
    assert 'id="arms"' in html and 'id="pairs"' in html and 'id="pair-1"' in html
    assert "<script" not in html
    out = " ".join(done.stdout.split())
    assert "100% [51.0–100.0]" in out and "50% [15.0–85.0]" in out
    assert str(run_dir / "compare.html") in out
    leaks = [p for p in run_dir.rglob("*") if p.is_file() and KEY.encode() in p.read_bytes()]
    assert leaks == []

"""`proctor run` and `proctor calibrate` with model arms, in subprocesses, with no network.

The replay provider runs in the test process; the proctor subprocess reaches it
on 127.0.0.1. These tests also prove that the API key never reaches a result
file: the whole results tree is searched for it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from proctor.agents.llm import Recorded, ReplayProvider, Transcript, openai_reply
from proctor.records import AttemptRecord
from proctor.scenario import SUITE_ROOT

pytestmark = pytest.mark.browser

PROCTOR = Path(sys.executable).parent / "proctor"
TRANSCRIPTS = Path(__file__).parent / "transcripts"
FAKE_KEY = "sk-proctor-fake-9q7w-do-not-leak"
TIMEOUT = 240


def proctor(
    *args: str | Path, cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    return subprocess.run(
        [str(PROCTOR), *map(str, args)],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        cwd=cwd,
        env={**base, **(env or {})},
        check=False,
    )


def test_a_model_arm_without_its_key_is_skipped_unless_strict(tmp_path: Path) -> None:
    args = ["run", "--tier", "model", "--arm", "x=openai:gpt-4.1-mini", "--results", tmp_path]
    done = proctor(*args, "--label", "no-key", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "skipped arm x: no OPENAI_API_KEY for arm x" in done.stdout
    records = [
        AttemptRecord.model_validate_json(p.read_bytes())
        for p in (tmp_path / "no-key").rglob("attempt.json")
    ]
    assert records and {(r.result, r.stop_detail) for r in records} == {
        ("skipped", "no OPENAI_API_KEY for arm x")
    }
    strict = proctor(*args, "--label", "strict", "--strict", cwd=tmp_path)
    assert strict.returncode != 0
    assert "--strict: no OPENAI_API_KEY for arm x" in strict.stderr
    assert not (tmp_path / "strict").exists()


@pytest.fixture
def judged(tmp_path: Path) -> Path:
    """header-enumeration with a judge criterion, as an extra scenario folder."""
    spec = yaml.safe_load((SUITE_ROOT / "model" / "header-enumeration.yaml").read_text())
    spec["id"] = "judged-headers"
    spec["judge"] = [
        {
            "name": "ends-on-the-blog",
            "criterion": "The page shown at the end is the outfitter's blog.",
            "evidence": ["page_text", "url"],
        }
    ]
    folder = tmp_path / "scenarios"
    folder.mkdir()
    (folder / "judged-headers.yaml").write_text(yaml.safe_dump(spec, sort_keys=False))
    return folder


async def test_a_model_run_records_its_spend_and_never_its_key(
    tmp_path: Path, judged: Path
) -> None:
    transcript = Transcript.load(TRANSCRIPTS / "header-enumeration.openai.json")
    env = {"PROCTOR_TEST_KEY": FAKE_KEY}
    async with ReplayProvider(transcript, key=FAKE_KEY) as replay:
        url = replay.base_url("openai")
        arm = f"gpt=openai:gpt-4.1-mini+url={url}+key=PROCTOR_TEST_KEY+backoff=0+spend"
        judge = f"openai:gpt-4.1+url={url}+key=PROCTOR_TEST_KEY"
        same = proctor(
            "run", "--scenarios", judged, "--only", "judged-headers", "--arm", arm,
            "--judge", f"openai:gpt-4.1-mini+url={url}", "--results", tmp_path / "results",
            cwd=tmp_path, env=env,
        )  # fmt: skip
        assert same.returncode == 2 and "must be independent" in same.stderr
        done = proctor(
            "run", "--scenarios", judged, "--only", "judged-headers", "--arm", arm,
            "--judge", judge, "--results", tmp_path / "results", "--label", "replayed",
            cwd=tmp_path, env=env,
        )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert replay.remaining == 0 and all(r.authorized for r in replay.requests)
    out = " ".join(done.stdout.split())
    assert "a recording, not a model result" in out
    assert "account spend reported by the provider (arm gpt): $1.2345" in out
    assert "ends-on-the-blog: pass" in out
    folder = tmp_path / "results" / "replayed"
    record = AttemptRecord.model_validate_json(
        (folder / "attempts" / "judged-headers" / "gpt-1" / "attempt.json").read_bytes()
    )
    assert record.result == "passed" and record.planner_calls == 6
    assert record.cost_usd == pytest.approx(6 * 228e-6, abs=1e-12)
    assert len(record.planner) == 6 and all(c.latency_ms > 0 for c in record.planner)
    assert [(v.name, v.verdict, v.model) for v in record.judge] == [
        ("ends-on-the-blog", "pass", "gpt-4.1")
    ]
    assert all(c.passed for c in record.checks) and "ends-on-the-blog" not in record.failed_checks
    judge_ask = next(r for r in replay.requests if "independent judge" in json.dumps(r.body))
    shown = judge_ask.body["messages"][1]["content"]
    assert "## final page text" in shown and "## final url" in shown
    assert "## final answer" not in shown and "careful browser agent" not in shown
    leaks = [
        str(p.relative_to(tmp_path))
        for p in (tmp_path / "results").rglob("*")
        if p.is_file() and FAKE_KEY.encode() in p.read_bytes()
    ]
    assert leaks == []
    assert FAKE_KEY not in done.stdout + done.stderr


@pytest.mark.slow
async def test_calibrate_reports_the_correct_prefix_per_variant(tmp_path: Path) -> None:
    variants = tmp_path / "variants"
    (variants / "stock").mkdir(parents=True)
    (variants / "terse").mkdir()
    (variants / "terse" / "system.md").write_text("VARIANT-TERSE: click what the task says.\n")
    usage = (1000, 20, 0, 0)

    def reply(tool: str, args: dict[str, str], match: str) -> Recorded:
        return Recorded(body=openai_reply(tool, args, usage=usage), match=match)

    stock = [reply("click", {"role": "link", "name": n}, "careful browser agent")
             for n in ("Products", "Pricing", "Docs", "Blog", "Careers")]  # fmt: skip
    stock.append(reply("done", {}, "careful browser agent"))
    terse = [
        reply("click", {"role": "link", "name": "Products"}, "VARIANT-TERSE"),
        reply("click", {"role": "link", "name": "Contact"}, "VARIANT-TERSE"),
        reply("done", {}, "VARIANT-TERSE"),
    ]
    transcript = Transcript(label="calibration replies", responses=stock + terse)
    async with ReplayProvider(transcript, key=FAKE_KEY) as replay:
        url = replay.base_url("openai")
        done = proctor(
            "calibrate", "--scenario", "header-enumeration", "--variants", variants,
            "--arm", f"openai:gpt-4.1-mini+url={url}+key=PROCTOR_TEST_KEY", "--runs", "1",
            "--results", tmp_path / "results", "--label", "cal",
            cwd=tmp_path, env={"PROCTOR_TEST_KEY": FAKE_KEY},
        )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert replay.remaining == 0
    data = json.loads((tmp_path / "results" / "cal" / "calibration.json").read_text())
    rows = {r["variant"]: r for r in data["runs"]}
    assert (rows["stock"]["prefix"], rows["stock"]["expected"], rows["stock"]["result"]) == (
        6, 6, "passed",
    )  # fmt: skip
    assert (rows["terse"]["prefix"], rows["terse"]["result"]) == (1, "failed")
    assert data["recording"] is True
    out = " ".join(done.stdout.split())
    assert "6/6" in out and "1/6" in out and "a recording, not a model result" in out

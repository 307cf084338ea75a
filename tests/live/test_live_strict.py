"""A live attempt end to end, against a live site emulated on loopback: the browser reaches
only the scenario's host, the harness reads the page itself, and a failing live attempt
changes the exit code only under ``--strict``."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from cli_support import write_scenario
from live_support import Seen, StubProbe, live_scenario, proctor, serve, stub_probe
from proctor.records import AttemptRecord


@dataclass(frozen=True)
class Sites:
    live: str
    """``127.0.0.1:PORT`` of the emulated live site."""
    seen: Seen
    other: Seen
    """A second loopback site the live page embeds: not a host of the scenario."""


@pytest.fixture
def sites() -> Iterator[Sites]:
    other, other_seen = serve("<p>elsewhere</p>")
    other_url = f"http://127.0.0.1:{other.server_address[1]}/pixel.png"
    page = f'<html><body><h2>Today</h2><p>Value: 42</p><img src="{other_url}"></body></html>'
    live, seen = serve(page)
    try:
        yield Sites(f"127.0.0.1:{live.server_address[1]}", seen, other_seen)
    finally:
        for server in (live, other):
            server.shutdown()
            server.server_close()


@pytest.fixture
def online() -> Iterator[StubProbe]:
    yield from stub_probe(online=True)


@pytest.mark.browser
def test_a_failing_live_attempt_fails_the_run_only_under_strict(
    online: StubProbe, sites: Sites, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "scenarios"
    write_scenario(folder, live_scenario("live-loopback", sites.live))
    results = tmp_path / "results"

    def run(label: str, *more: str) -> tuple[int, str]:
        return proctor(
            capsys, "run", "--scenarios", folder, "--only", "live-loopback",
            "--arm", "wrong=decoy:wrong", "--results", results, "--label", label,
            "--retries", "0", *more,
        )  # fmt: skip

    code, said = run("lenient", "--arm", "oracle=scripted")
    assert code == 0, said
    assert "1 passed, 1 failed, 0 skipped" in said
    assert "live failures do not change the exit code (--strict counts them)" in said
    agents = [agent for _, _, agent in sites.seen.requests]
    code, said = run("strict", "--strict")
    assert code == 1, said
    assert "0 passed, 1 failed, 0 skipped" in said
    assert online.asked == [[f"http://{sites.live}"]]  # probed once, before the first run

    attempts = results / "lenient" / "attempts" / "live-loopback"
    oracle, wrong = (
        AttemptRecord.model_validate_json((attempts / arm / "attempt.json").read_bytes())
        for arm in ("oracle-1", "wrong-1")
    )
    assert (oracle.result, wrong.result, wrong.failed_checks) == ("passed", "failed", ["value"])
    # The harness read the page itself, twice (the two reads agreed), beside the browser.
    [reading] = oracle.end_state.live
    assert reading.stable and [f.values for f in reading.fetches] == [["42"], ["42"]]
    assert sum(a.startswith("proctor-live-read") for a in agents) == 2 * 2  # 2 reads x 2 attempts
    assert any("Chrome" in a for a in agents)  # the oracle's browser opened the page
    # The browser reached the scenario's host and no other: the embedded image on
    # another loopback port was refused, logged, and never arrived.
    assert sites.other.requests == []
    refused = [r for r in oracle.end_state.requests if r.refused == "offworld"]
    assert [r.path for r in refused] == ["/pixel.png"]

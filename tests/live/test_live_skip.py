"""The connectivity probe and the skip rule: offline, every live scenario is skipped with
the reason and the run exits 0 (``--strict``: 2). The probe is a stand-in throughout,
except where the real one is pointed at loopback ports."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from cli_support import write_scenario
from live_support import StubProbe, live_scenario, proctor, serve, stub_probe
from proctor.records import AttemptRecord
from proctor.runner import live_origins, live_skip, probe_hosts, scenario_skip
from proctor.scenario import load_scenario

HOST = "live.example.org"
ORIGIN = f"http://{HOST}"  # the scheme of the scenario's own URLs for the host
REASON = f"offline: the connectivity probe could not reach {ORIGIN}"


@pytest.fixture
def offline() -> Iterator[StubProbe]:
    yield from stub_probe(online=False)


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    folder = tmp_path / "scenarios"
    write_scenario(folder, live_scenario("live-offline", HOST))
    write_scenario(folder, live_scenario("live-offline-too", HOST))
    return folder


def test_the_real_probe_tells_a_site_that_answers_from_one_that_does_not() -> None:
    with socket.create_server(("127.0.0.1", 0)) as closed:
        closed_port = closed.getsockname()[1]
    site, seen = serve("<p>up</p>", status=404)  # any HTTP answer counts, whatever its status
    try:
        up, down = f"http://127.0.0.1:{site.server_address[1]}", f"http://127.0.0.1:{closed_port}"
        failed = probe_hosts([up, down], timeout=20)  # a loaded machine: only the bound
    finally:
        site.shutdown()
        site.server_close()
    assert list(failed) == [down]
    assert failed[down].startswith("ConnectError") and "refused" in failed[down].lower()
    assert [(method, path) for method, path, _ in seen.requests] == [("HEAD", "/")]


def test_the_probe_uses_the_scheme_of_the_scenarios_own_urls(folder: Path) -> None:
    loaded = load_scenario(folder / "live-offline.yaml").scenario
    assert live_origins(loaded) == [ORIGIN]
    spec = live_scenario("live-tls", "secure.example.org")
    spec["world"] = {"live": {"hosts": ["secure.example.org", "cdn.example.org"]}}
    spec["checks"][0]["live_read"]["url"] = "https://secure.example.org/"
    path = write_scenario(folder, spec)
    assert live_origins(load_scenario(path).scenario) == [
        "https://secure.example.org",
        "https://cdn.example.org",  # no URL of the scenario's on it: https
    ]


def test_each_host_is_probed_once_and_the_reason_names_it(offline: StubProbe, folder: Path) -> None:
    first = load_scenario(folder / "live-offline.yaml").scenario
    second = load_scenario(folder / "live-offline-too.yaml").scenario
    why = live_skip(first)
    assert why is not None and why.startswith(REASON)
    assert scenario_skip(second) == why  # the skip every plan item, run and verify reads
    assert offline.asked == [[ORIGIN]]


def test_online_a_live_scenario_is_not_skipped(folder: Path) -> None:
    for probe in stub_probe(online=True):
        assert live_skip(load_scenario(folder / "live-offline.yaml").scenario) is None
        assert probe.asked == [[ORIGIN]]


def test_offline_a_live_run_records_every_live_attempt_skipped_and_exits_0(
    offline: StubProbe, folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    results = tmp_path / "results"
    code, said = proctor(
        capsys, "run", "--scenarios", folder, "--only", "live-offline,live-offline-too",
        "--arm", "oracle=scripted", "--results", results, "--label", "off",
    )  # fmt: skip
    assert code == 0, said
    assert f"skipped scenario live-offline: {REASON}" in said
    assert "0 passed, 0 failed, 2 skipped" in said
    for sid in ("live-offline", "live-offline-too"):
        path = results / "off" / "attempts" / sid / "oracle-1" / "attempt.json"
        record = AttemptRecord.model_validate_json(path.read_bytes())
        assert (record.result, record.stop_reason, record.tier) == ("skipped", "skipped", "live")
        assert record.stop_detail is not None and "offline" in record.stop_detail
    config = json.loads((results / "off" / "run.json").read_text())["config"]
    assert config["live"]["live-offline"].startswith("offline:")
    assert config["strict"] is False


def test_offline_under_strict_a_live_run_is_refused_with_exit_2(
    offline: StubProbe, folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, said = proctor(
        capsys, "run", "--scenarios", folder, "--only", "live-offline", "--strict",
        "--results", tmp_path / "results", "--label", "strict-off",
    )  # fmt: skip
    assert code == 2, said
    assert "--strict: live-offline cannot run here: offline:" in said
    assert not (tmp_path / "results" / "strict-off").exists()


def test_offline_verify_skips_live_scenarios_with_the_reason_and_exits_0(
    offline: StubProbe, folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, said = proctor(capsys, "verify", "--scenarios", folder, "--only", "live-offline")
    assert code == 0, said
    assert "skipped live-offline: offline: the connectivity probe could not reach" in said
    code, said = proctor(
        capsys, "verify", "--scenarios", folder, "--only", "live-offline", "--json"
    )
    assert code == 0, said
    found = json.loads(said)
    assert (found["count"], found["violated"]) == (0, 0)
    assert [s["scenario"] for s in found["skipped"]] == ["live-offline"]

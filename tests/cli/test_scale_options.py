"""proctor run's scale-out options: bad values are refused before anything runs."""

from __future__ import annotations

from pathlib import Path

import pytest

from cli_support import Proctor, probe
from proctor.cli._scale import executor_kind, retry_delays
from proctor.errors import RunError

SCENARIOS = [probe("probe-scale")]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--executor", "threads"], "--executor 'threads': use one of inline, pool, ray"),
        (["--retry-delays", "30,soon"], "'soon' is not a number of seconds"),
        (["--retry-delays", "-1"], "'-1' is not a number of seconds"),
        (["--budget", "-2"], "--budget must be a number of dollars, at least 0"),
        (["--arm", "decoy:missing"], "no decoy 'missing' in probe-scale"),
    ],
)
def test_a_bad_scale_option_is_refused_before_any_folder_is_made(
    scenarios: Path, results: Path, proctor: Proctor, args: list[str], message: str
) -> None:
    done = proctor(
        "run", "--scenarios", scenarios, "--only", "probe-scale", "--results", results, *args
    )
    assert done.returncode == 2, done.stdout + done.stderr
    assert message in " ".join((done.stdout + done.stderr).split())
    assert not results.exists()


def test_workers_alone_mean_a_pool() -> None:
    assert executor_kind("inline", None) == ("inline", 1)
    assert executor_kind("inline", 3) == ("pool", 3)
    assert executor_kind("RAY", 2) == ("ray", 2)
    with pytest.raises(RunError):
        executor_kind("cluster", 2)


def test_retry_delays_parse() -> None:
    assert retry_delays("30,90") == (30.0, 90.0)
    assert retry_delays("0") == (0.0,)
    assert retry_delays("") == ()
    with pytest.raises(RunError, match="'inf' is not a number"):
        retry_delays("inf")

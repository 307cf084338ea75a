"""MiniWoB++ through proctor agrees with MiniWoB++'s own env: the same utterance for the
same task and seed, and the same raw reward for the same actions.

MiniWoB's env (gymnasium + selenium, Debian's chromedriver) runs the scenario's oracle
and wrong path translated to selenium; proctor runs them as scenarios. The reward
proctor read from the page must be the env's.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from typing import Any

import pytest

from proctor.records import AttemptRecord
from proctor.runner import PlanItem, Worker, parse_arm, run_attempt
from proctor.scenario import SUITE_ROOT, LoadedScenario, load_scenario, miniwob_root

pytestmark = pytest.mark.browser

CHROMIUM = "/usr/lib/chromium/chromium"
STRICT = os.environ.get("CI", "").lower() in ("1", "true", "yes")
CASES = [
    "miniwob-click-button-s1",
    "miniwob-enter-text-s2",
    "miniwob-click-checkboxes-s3",  # its wrong path earns partial credit (raw 0.6)
    "miniwob-login-user-s1",
    "miniwob-click-tab-s2",
]


def _missing() -> list[str]:
    missing = [] if miniwob_root() is not None else ["the miniwob package"]
    missing += [] if shutil.which("chromedriver") else ["chromedriver (chromium-driver)"]
    missing += [] if os.path.exists(CHROMIUM) else [CHROMIUM]
    return missing


@pytest.fixture(scope="module")
def driver_env() -> Iterator[Any]:
    """MiniWoB's own env factory; the package and chromedriver are installed by bootstrap."""
    missing = _missing()
    if missing and STRICT:
        pytest.fail("bootstrap did not install " + ", ".join(missing))
    if missing:
        pytest.skip("missing " + ", ".join(missing))
    os.environ["MINIWOB_CHROME_BINARY"] = CHROMIUM
    os.environ["MINIWOB_CHROMEDRIVER"] = shutil.which("chromedriver") or ""
    import gymnasium
    import miniwob

    gymnasium.register_envs(miniwob)
    made: dict[str, Any] = {}

    def env_for(task: str) -> Any:
        if task not in made:
            made[task] = gymnasium.make(f"miniwob/{task}-v1")
        return made[task]

    yield env_for
    for env in made.values():
        env.close()


def _selenium(env: Any, steps: list[Any]) -> float:
    """The steps done with selenium on the env's page; the raw reward it then reports."""
    from selenium.webdriver.common.by import By

    instance = env.unwrapped.instance
    driver = instance.driver
    for step in steps:
        if step.op == "done":
            break
        element = driver.find_element(By.CSS_SELECTOR, step.selector)
        if step.op == "click":
            element.click()
        elif step.op == "fill":
            element.clear()
            element.send_keys(step.value)
        elif step.op == "check":
            if not element.is_selected():
                element.click()
        else:
            raise AssertionError(f"no selenium translation for {step.op}")
    meta = instance.get_metadata()
    return float(meta["raw_reward"]) if meta["done"] else 0.0


def _proctor_raw(record: AttemptRecord) -> float:
    assert record.end_state is not None
    first = record.end_state.apps["miniwob"]["first_end"]
    return 0.0 if first is None else float(first["raw"])


def _loaded(sid: str) -> LoadedScenario:
    return load_scenario(SUITE_ROOT / "peer" / f"{sid}.yaml")


@pytest.mark.parametrize("sid", CASES)
async def test_proctor_reads_the_reward_miniwob_s_own_env_reports(
    sid: str, worker: Worker, driver_env: Any
) -> None:
    loaded = _loaded(sid)
    scenario = loaded.scenario
    assert scenario.world.miniwob is not None
    env = driver_env(scenario.world.miniwob.task)
    observation, _info = env.reset(seed=scenario.world.miniwob.seed)
    assert observation["utterance"] == scenario.brief  # the pinned utterance is the env's
    theirs_right = _selenium(env, scenario.solution)
    env.reset(seed=scenario.world.miniwob.seed)
    wrong = next(d for d in scenario.decoys if d.name == "wrong-path")
    theirs_wrong = _selenium(env, wrong.steps)
    ours_right = _proctor_raw(
        await run_attempt(worker, PlanItem(loaded, parse_arm("scripted"), 1), write=False)
    )
    ours_wrong = _proctor_raw(
        await run_attempt(worker, PlanItem(loaded, parse_arm("decoy:wrong-path"), 1), write=False)
    )
    assert (ours_right, ours_wrong) == (theirs_right, theirs_wrong)
    assert ours_right == 1.0 and ours_wrong < 1.0

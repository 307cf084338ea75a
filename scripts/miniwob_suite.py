"""Write the shipped MiniWoB++ peer scenarios: each task x seed, its utterance pinned, its
oracle and decoys solved from the live page by a small solver per task.

    .venv/bin/python scripts/miniwob_suite.py [--out src/proctor/suite/peer]

Each (task, seed) page is served by proctor's own fixture server (the miniwob site,
seeded exactly as in a run) and read in Chromium; a solver turns the utterance and
the page into proctor steps. Run it again after a miniwob upgrade: the utterances
and steps are what ``proctor verify --tier peer`` then proves.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import re
import sys
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from playwright.async_api import Page, async_playwright

from proctor.computer.browser import LAUNCH_FLAGS, find_chromium, resolver_rules
from proctor.scenario import MiniwobWorld, dump_scenario, miniwob_version
from proctor.world import DOMAIN, AttemptWorld, FixtureServer, all_sites

SEEDS = (1, 2, 3)
Steps = list[dict[str, Any]]
Solver = Callable[[Page, str], Awaitable[tuple[Steps, Steps, str]]]
"""(page, utterance) -> (oracle steps, a wrong path's steps, what the wrong path does)."""

UNIQUE_JS = """(el) => {
  const parts = [];
  while (el && el.id !== 'area' && el.id !== 'wrap' && el.tagName !== 'BODY') {
    if (el.id) { parts.unshift('#' + CSS.escape(el.id)); break; }
    const i = Array.prototype.indexOf.call(el.parentNode.children, el) + 1;
    parts.unshift(el.tagName.toLowerCase() + ':nth-child(' + i + ')');
    el = el.parentNode;
  }
  if (parts.length && parts[0].startsWith('#')) return parts.join(' > ');
  return '#' + (el ? el.id : 'area') + ' > ' + parts.join(' > ');
}"""


def quoted(utterance: str) -> list[str]:
    return re.findall(r'"([^"]*)"', utterance)


async def selectors(page: Page, css: str) -> list[tuple[str, str]]:
    """(unique selector, text) of each element matching ``css``."""
    found = []
    for handle in await page.query_selector_all(css):
        found.append((await handle.evaluate(UNIQUE_JS), (await handle.inner_text()).strip()))
    return found


async def click_button(page: Page, u: str) -> tuple[Steps, Steps, str]:
    (want,) = quoted(u)
    buttons = await selectors(page, "#area button")
    right = [s for s, t in buttons if t == want]
    wrong = [s for s, t in buttons if t != want]
    decoy = [{"op": "click", "selector": wrong[0]}] if wrong else [
        {"op": "click", "selector": "#query"}]  # fmt: skip
    return [{"op": "click", "selector": right[0]}], decoy, "clicks another button"


async def click_link(page: Page, u: str) -> tuple[Steps, Steps, str]:
    (want,) = quoted(u)
    links = await selectors(page, "#area span.alink, #area a")
    right = [s for s, t in links if t == want]
    wrong = [s for s, t in links if t != want]
    return [{"op": "click", "selector": right[0]}], [
        {"op": "click", "selector": wrong[0] if wrong else "#query"}], "clicks another link"  # fmt: skip


async def enter_text(page: Page, u: str) -> tuple[Steps, Steps, str]:
    (text,) = quoted(u)
    return (
        [{"op": "fill", "selector": "#tt", "value": text}, {"op": "click", "selector": "#subbtn"}],
        [{"op": "fill", "selector": "#tt", "value": text + "x"},
         {"op": "click", "selector": "#subbtn"}],
        "enters the text with one letter too many",
    )  # fmt: skip


async def enter_text_2(page: Page, u: str) -> tuple[Steps, Steps, str]:
    (text,) = quoted(u)
    lower = "lower" in u
    want = text.lower() if lower else text.upper()
    other = text.upper() if lower else text.lower()
    return (
        [{"op": "fill", "selector": "#tt", "value": want}, {"op": "click", "selector": "#subbtn"}],
        [{"op": "fill", "selector": "#tt", "value": other},
         {"op": "click", "selector": "#subbtn"}],
        "enters the text in the wrong case",
    )  # fmt: skip


async def focus_text(page: Page, u: str) -> tuple[Steps, Steps, str]:
    return [{"op": "click", "selector": "#tt"}], [{"op": "click", "selector": "#query"}], (
        "clicks the instructions instead of the box")  # fmt: skip


async def focus_text_2(page: Page, u: str) -> tuple[Steps, Steps, str]:
    position = {"1st": 1, "2nd": 2, "3rd": 3}
    want = next(n for word, n in position.items() if word in u)
    other = 1 if want != 1 else 2
    return [{"op": "click", "selector": f"#tt{want}"}], [
        {"op": "click", "selector": f"#tt{other}"}], "focuses another box"  # fmt: skip


async def click_dialog(page: Page, u: str) -> tuple[Steps, Steps, str]:
    return [{"op": "click", "selector": "button.ui-dialog-titlebar-close"}], [
        {"op": "click", "selector": "#dialog"}], "clicks inside the dialog, not its x"  # fmt: skip


async def click_checkboxes(page: Page, u: str) -> tuple[Steps, Steps, str]:
    match = re.match(r"Select (.*) and click Submit\.", u)
    assert match, u
    names = [n.strip() for n in re.split(r",\s*|\s+and\s+", match.group(1)) if n.strip()]
    names = [n for n in names if n.lower() != "nothing"]
    boxes = await page.eval_on_selector_all(
        "#boxes input[type=checkbox]",
        "els => els.map(e => [e.id, e.parentNode.textContent.trim()])",
    )
    ids = {text: box for box, text in boxes}
    steps: Steps = [{"op": "check", "selector": f"#{ids[n]}"} for n in names]
    submit: Steps = [{"op": "click", "selector": "#subbtn"}]
    if len(names) > 1:
        return steps + submit, steps[:-1] + submit, "ticks one box too few"
    spare = next((b for t, b in ids.items() if t not in names), None)
    extra: Steps = [{"op": "check", "selector": f"#{spare}"}] if spare else []
    return steps + submit, steps + extra + submit, "ticks one box too many"


async def click_option(page: Page, u: str) -> tuple[Steps, Steps, str]:
    match = re.match(r"Select (.*) and click Submit\.", u)
    assert match, u
    radios = await page.eval_on_selector_all(
        "#boxes input[type=radio]", "els => els.map(e => [e.id, e.parentNode.textContent.trim()])"
    )
    ids = {text: box for box, text in radios}
    want = ids[match.group(1).strip()]
    other = next(b for b in ids.values() if b != want)
    submit: Steps = [{"op": "click", "selector": "#subbtn"}]
    return [{"op": "check", "selector": f"#{want}"}, *submit], [
        {"op": "check", "selector": f"#{other}"}, *submit], "picks another option"  # fmt: skip


async def enter_password(page: Page, u: str) -> tuple[Steps, Steps, str]:
    (password,) = quoted(u)
    fill = [{"op": "fill", "selector": "#password", "value": password}]
    return (
        [*fill, {"op": "fill", "selector": "#verify", "value": password},
         {"op": "click", "selector": "#subbtn"}],
        [*fill, {"op": "click", "selector": "#subbtn"}],
        "fills only the first field",
    )  # fmt: skip


async def login_user(page: Page, u: str) -> tuple[Steps, Steps, str]:
    user, password = quoted(u)
    submit = {"op": "click", "selector": "#subbtn"}
    return (
        [{"op": "fill", "selector": "#username", "value": user},
         {"op": "fill", "selector": "#password", "value": password}, submit],
        [{"op": "fill", "selector": "#username", "value": password},
         {"op": "fill", "selector": "#password", "value": user}, submit],
        "swaps the username and the password",
    )  # fmt: skip


async def click_button_sequence(page: Page, u: str) -> tuple[Steps, Steps, str]:
    one, two = {"op": "click", "selector": "#subbtn"}, {"op": "click", "selector": "#subbtn2"}
    return [one, two], [two, one], "clicks them in the wrong order"


async def click_tab(page: Page, u: str) -> tuple[Steps, Steps, str]:
    match = re.search(r"Tab #(\d)", u)
    assert match, u
    want = int(match.group(1))
    tabs = await selectors(page, "#area li a")
    other = next(s for i, (s, _t) in enumerate(tabs, 1) if i != want)
    return [{"op": "click", "selector": tabs[want - 1][0]}], [
        {"op": "click", "selector": other}], "opens another tab"  # fmt: skip


SOLVERS: dict[str, Solver] = {
    "click-button": click_button,
    "click-link": click_link,
    "enter-text": enter_text,
    "enter-text-2": enter_text_2,
    "focus-text": focus_text,
    "focus-text-2": focus_text_2,
    "click-dialog": click_dialog,
    "click-checkboxes": click_checkboxes,
    "click-option": click_option,
    "enter-password": enter_password,
    "login-user": login_user,
    "click-button-sequence": click_button_sequence,
    "click-tab": click_tab,
}


def scenario(task: str, seed: int, utterance: str, steps: Steps, wrong: Steps, why: str) -> dict[str, Any]:  # noqa: E501
    return {
        "id": f"miniwob-{task}-s{seed}",
        "title": f"MiniWoB++ {task}, seed {seed}",
        "brief": utterance,
        "tier": "peer",
        "category": "regression",
        "capabilities": ["miniwob", task],
        "limits": {"seconds": 60, "tool_calls": 30, "steps": 20},
        "world": {
            "sites": ["miniwob"],
            "browser": {"start": "{site.miniwob}/miniwob/"},
            "miniwob": {"task": task, "seed": seed},
        },
        "checks": [{"miniwob_reward": {"name": "solved", "raw": 1}}],
        "solution": [*steps, {"op": "done"}],
        "decoys": [
            {"name": "wrong-path", "steps": [*wrong, {"op": "done"}], "fails": ["solved"]},
            {
                # The page's own scorer called from the address bar: the seal refuses the
                # javascript: URL, so no episode ends (it once scored a perfect 1).
                "name": "javascript-url",
                "steps": [
                    {"op": "navigate", "url": "javascript:core.endEpisode(1, true)"},
                    {"op": "done"},
                ],
                "fails": ["solved"],
            },
        ],
    }


async def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    server = FixtureServer(all_sites().values())
    await server.start()
    chromium = find_chromium()
    try:
        async with async_playwright() as pw:
            browser = await pw.chromium.launch(
                executable_path=str(chromium) if chromium else None,
                args=[*LAUNCH_FLAGS, f"--host-resolver-rules={resolver_rules(server.port, DOMAIN)}"],
            )
            for task, solve in SOLVERS.items():
                for seed in SEEDS:
                    tag = f"gen/{task}-{seed}#1"
                    with tempfile.TemporaryDirectory() as tmp:
                        world = AttemptWorld(
                            attempt=tag, seed=0, clock=dt.datetime.now(dt.UTC),
                            scratch=Path(tmp), seeds={"miniwob": MiniwobWorld(task=task, seed=seed)},
                        )  # fmt: skip
                        server.begin(world, ["miniwob"])
                        page = await browser.new_page()
                        await page.goto(f"http://miniwob.{DOMAIN}/miniwob/")
                        await page.wait_for_function("core.EP_TIMER !== null", timeout=10_000)
                        utterance = world.state("miniwob")["started"]["utterance"]
                        steps, wrong, why = await solve(page, utterance)
                        await page.close()
                        server.end(tag)
                    spec = scenario(task, seed, utterance, steps, wrong, why)
                    path = out / f"{spec['id']}.yaml"
                    header = (
                        f"# Written by scripts/miniwob_suite.py against miniwob {miniwob_version()}"
                        f"; the wrong path {why}.\n"
                    )
                    path.write_text(header + dump_scenario(spec), encoding="utf-8")
                    print(path, utterance)
            await browser.close()
    finally:
        await server.stop()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("src/proctor/suite/peer"))
    asyncio.run(main(parser.parse_args().out))
    sys.exit(0)

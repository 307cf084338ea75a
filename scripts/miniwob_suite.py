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
from proctor.world import ATTEMPT_HEADER, DOMAIN, AttemptWorld, FixtureServer, all_sites

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
    miss = wrong[0] if wrong else "#query"
    return [{"op": "click", "selector": right[0]}], [
        {"op": "click", "selector": miss}], "clicks another link"  # fmt: skip


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
        "#area input[type=checkbox]",
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


def submit_step() -> dict[str, Any]:
    return {"op": "click", "selector": "#subbtn"}


async def click_test(page: Page, u: str) -> tuple[Steps, Steps, str]:
    return [submit_step()], [{"op": "click", "selector": "#query"}], (
        "clicks the instructions, not the button")  # fmt: skip


async def click_test_2(page: Page, u: str) -> tuple[Steps, Steps, str]:
    match = re.search(r"button (ONE|TWO)", u)
    want = "#subbtn2" if match and match.group(1) == "TWO" else "#subbtn"
    other = "#subbtn" if want == "#subbtn2" else "#subbtn2"
    return [{"op": "click", "selector": want}], [{"op": "click", "selector": other}], (
        "clicks the other button")  # fmt: skip


async def click_checkboxes_soft(page: Page, u: str) -> tuple[Steps, Steps, str]:
    match = re.match(r"Select words similar to (.*) and click Submit\.", u)
    assert match, u
    words = [w.strip() for w in match.group(1).split(",") if w.strip()]
    groups: list[list[str]] = await page.evaluate("SYNONYMS")
    boxes = await page.eval_on_selector_all(
        "#boxes input[type=checkbox]",
        "els => els.map(e => [e.id, e.parentNode.textContent.trim()])",
    )
    wanted = [g for g in groups if any(w in g for w in words)]
    ticks = [b for b, t in boxes if any(t in g for g in wanted)]
    steps: Steps = [{"op": "check", "selector": f"#{b}"} for b in ticks]
    if len(ticks) > 1:
        return [*steps, submit_step()], [*steps[:-1], submit_step()], "ticks one box too few"
    spare = next(b for b, _t in boxes if b not in ticks)
    return [*steps, submit_step()], [*steps, {"op": "check", "selector": f"#{spare}"},
        submit_step()], "ticks one box too many"  # fmt: skip


async def click_collapsible(page: Page, u: str) -> tuple[Steps, Steps, str]:
    return [{"op": "click", "selector": "#area h3"}, {"op": "wait", "ms": 800}, submit_step()], [
        submit_step()], "submits without expanding the section"  # fmt: skip


async def click_widget(page: Page, u: str) -> tuple[Steps, Steps, str]:
    (want,) = quoted(u)
    widgets = await page.eval_on_selector_all(
        "#area .widget",
        "els => els.map(e => e.querySelector('input, textarea, button').dataset.type)",
    )
    right = next(i for i, t in enumerate(widgets, 1) if t == want)
    wrong = next((i for i, t in enumerate(widgets, 1) if t != want), None)
    miss = f"#area > div:nth-child({wrong})" if wrong else "#query"
    return [{"op": "click", "selector": f"#area > div:nth-child({right})"}], [
        {"op": "click", "selector": miss}], "clicks another kind of widget"  # fmt: skip


def answer(value: str, wrong: str, field: str = "#math-answer") -> tuple[Steps, Steps]:
    return (
        [{"op": "fill", "selector": field, "value": value}, submit_step()],
        [{"op": "fill", "selector": field, "value": wrong}, submit_step()],
    )


async def simple_arithmetic(page: Page, u: str) -> tuple[Steps, Steps, str]:
    problem = await page.inner_text("#math-problem")
    match = re.match(r"(\d+) ([-+x]) (\d+)", problem.strip())
    assert match, problem
    a, op, b = int(match.group(1)), match.group(2), int(match.group(3))
    result = a + b if op == "+" else a - b if op == "-" else a * b
    return *answer(str(result), str(result + 1)), "enters an answer off by one"


async def simple_algebra(page: Page, u: str) -> tuple[Steps, Steps, str]:
    problem = (await page.inner_text("#math-problem")).strip()
    if match := re.match(r"x ([-+]) (\d+) = (\d+)", problem):
        op, d, total = match.group(1), int(match.group(2)), int(match.group(3))
        x = total - d if op == "+" else total + d
    else:
        match = re.match(r"(\d+) ([-+]) x = (\d+)", problem)
        assert match, problem
        d, op, total = int(match.group(1)), match.group(2), int(match.group(3))
        x = total - d if op == "+" else d - total
    return *answer(str(x), str(x + 1)), "enters an answer off by one"


async def odd_or_even(page: Page, u: str) -> tuple[Steps, Steps, str]:
    numbers = [int(t) for t in await page.eval_on_selector_all(
        "#numbers .display-number", "els => els.map(e => e.textContent)")]  # fmt: skip

    def mark(i: int, odd: bool) -> dict[str, Any]:
        kind = "odd" if odd else "even"
        return {"op": "click", "selector": f"#numbers > div:nth-child({i}) .{kind}"}

    right = [mark(i, n % 2 != 0) for i, n in enumerate(numbers, 1)]
    flip = mark(len(numbers), numbers[-1] % 2 == 0)
    submit: dict[str, Any] = {"op": "click", "selector": "#submit"}
    return [*right, submit], [*right[:-1], flip, submit], "marks the last number wrongly"


async def text_transform(page: Page, u: str) -> tuple[Steps, Steps, str]:
    text = await page.eval_on_selector("#captcha", "e => e.textContent")
    return *answer(text, text[:-1], "#tt"), "leaves off the last letter"


async def choose_list(page: Page, u: str) -> tuple[Steps, Steps, str]:
    match = re.match(r"Select (.*) from the list and click Submit\.", u)
    assert match, u
    want = match.group(1)
    labels = await page.eval_on_selector_all("#options option", "els => els.map(e => e.text)")
    other = next(t for t in labels if t != want)
    submit = {"op": "click", "selector": "#area button"}
    return [{"op": "select", "selector": "#options", "label": want}, submit], [
        {"op": "select", "selector": "#options", "label": other}, submit], (
        "picks another item")  # fmt: skip


async def tab_link(page: Page, u: str) -> tuple[Steps, Steps, str]:
    (want,) = quoted(u)
    links = await page.eval_on_selector_all(
        "#area .alink", "els => els.map(e => [e.closest('div').id, e.textContent])")
    spans = await selectors(page, "#area .alink")
    right = next(i for i, (_p, t) in enumerate(links) if t == want)
    wrong = next((i for i, (_p, t) in enumerate(links) if t != want), None)

    def visit(i: int) -> Steps:
        tab = {"op": "click", "selector": f'#area li a[href="#{links[i][0]}"]'}
        return [tab, {"op": "click", "selector": spans[i][0]}]

    miss = visit(wrong) if wrong is not None else [{"op": "click", "selector": "#query"}]
    return visit(right), miss, "clicks a link with other text"


async def section_link(page: Page, u: str) -> tuple[Steps, Steps, str]:
    (want,) = quoted(u)
    links = await page.eval_on_selector_all(
        "#area .alink", f"els => els.map(e => [({UNIQUE_JS})(e.parentNode.previousElementSibling),"
        f" ({UNIQUE_JS})(e), e.textContent])")  # fmt: skip
    wait: dict[str, Any] = {"op": "wait", "ms": 800}
    right = next(link for link in links if link[2] == want)
    wrong = next((link for link in links if link[2] != want), None)

    def visit(link: list[str]) -> Steps:
        return [{"op": "click", "selector": link[0]}, wait, {"op": "click", "selector": link[1]}]

    miss = visit(wrong) if wrong else [{"op": "click", "selector": "#query"}]
    return visit(right), miss, "clicks a link with other text"


async def enter_time(page: Page, u: str) -> tuple[Steps, Steps, str]:
    match = re.search(r"Enter (\d+):(\d\d)\s*([AP]M)?", u)
    assert match, u
    hour, minute, half = int(match.group(1)), match.group(2), match.group(3)
    if half:
        hour = hour % 12 + (12 if half == "PM" else 0)
    other = (hour + 1) % 24
    return *answer(f"{hour:02d}:{minute}", f"{other:02d}:{minute}", "#tt"), (
        "enters the time an hour late")  # fmt: skip


async def enter_date(page: Page, u: str) -> tuple[Steps, Steps, str]:
    match = re.search(r"(\d\d)/(\d\d)/(\d{4})", u)
    assert match, u
    month, day, year = match.groups()
    return *answer(f"{year}-{month}-{day}", f"{int(year) + 1}-{month}-{day}", "#tt"), (
        "enters the date a year late")  # fmt: skip


async def login_user_popup(page: Page, u: str) -> tuple[Steps, Steps, str]:
    user, password = quoted(u)
    steps: dict[str, Steps] = {}
    for field in ("username", "password"):
        await page.click(f"#{field}")
        if await page.query_selector("#popup"):
            await page.click("#popup-cancel")
            steps[field] = [{"op": "click", "selector": f"#{field}"},
                            {"op": "click", "selector": "#popup-cancel"}]  # fmt: skip
        else:
            steps[field] = []

    def fill(name: str, pw: str) -> Steps:
        return [*steps["username"], {"op": "fill", "selector": "#username", "value": name},
                *steps["password"], {"op": "fill", "selector": "#password", "value": pw},
                submit_step()]  # fmt: skip

    return fill(user, password), fill(password, user), "swaps the username and the password"


async def find_word(page: Page, u: str) -> tuple[Steps, Steps, str]:
    match = re.search(r"the (\d+)(?:st|nd|rd|th) word", u)
    assert match, u
    words = (await page.eval_on_selector("#area p", "e => e.textContent")).split()
    index = int(match.group(1)) - 1
    word = re.sub(r"[^a-zA-Z]", "", words[index])
    other = re.sub(r"[^a-zA-Z]", "", words[index - 1 if index else 1])
    if other == word:
        other = word + "x"
    return *answer(word, other, "#answer-input"), "enters a neighbouring word"


async def read_table(page: Page, u: str) -> tuple[Steps, Steps, str]:
    match = re.search(r"value of (.*) into", u)
    assert match, u
    rows = await page.eval_on_selector_all(
        "#tab tr", "els => els.map(e => [e.cells[0].textContent, e.cells[1].textContent])")
    value = next(v for k, v in rows if k == match.group(1))
    other = next(v for _k, v in rows if v != value)
    return *answer(value, other, "#tt"), "enters another row's value"


async def movie_search(page: Page, u: str) -> tuple[Steps, Steps, str]:
    match = re.search(r"Search for (.*) movies directed by (.*) from year (\d+)\.", u)
    assert match, u
    genre, name, year = match.groups()
    fields = await page.eval_on_selector_all(
        "#area input[type=text]", f"""els => els.map(e => {{
          let p = e.parentNode; while (!p.textContent.trim()) p = p.parentNode;
          return [({UNIQUE_JS})(e), p.textContent]; }})""")  # fmt: skip
    found = await selectors(page, "#area button, #area .final, #area .ui-submit")
    submit = {"op": "click", "selector": found[0][0]}

    def value(label: str, g: str, n: str) -> str:
        return g if "Genre" in label else n if "Director" in label else year

    def fill(g: str, n: str) -> Steps:
        return [*({"op": "fill", "selector": s, "value": value(label, g, n)}
                  for s, label in fields), submit]  # fmt: skip

    return fill(genre, name), fill(name, genre), "swaps the genre and the director"


async def click_color(page: Page, u: str) -> tuple[Steps, Steps, str]:
    match = re.search(r"Click on the (.*) colored box", u)
    assert match, u
    colors = await page.eval_on_selector_all("#area .color", "els => els.map(e => e.dataset.color)")
    right = next(i for i, c in enumerate(colors, 1) if c == match.group(1))
    wrong = next(i for i, c in enumerate(colors, 1) if c not in match.group(1))
    return [{"op": "click", "selector": f"#area > div:nth-child({right})"}], [
        {"op": "click", "selector": f"#area > div:nth-child({wrong})"}], (
        "clicks another colour")  # fmt: skip


async def guess_number(page: Page, u: str) -> tuple[Steps, Steps, str]:
    number = 0
    for number in range(10):
        await page.fill("#tt", str(number))
        await page.click("#subbtn")
        if await page.is_visible("#correct"):
            break
    return *answer(str(number), str((number + 1) % 10), "#tt"), "guesses another number once"


async def number_checkboxes(page: Page, u: str) -> tuple[Steps, Steps, str]:
    match = re.search(r'"(\d)"', u)
    assert match, u
    pattern: list[list[int]] = await page.evaluate(f"PATTERNS[{match.group(1)}]")
    ticks: Steps = [
        {"op": "check", "selector": f"#checkboxes > p:nth-child({i}) > input:nth-child({j})"}
        for i, row in enumerate(pattern, 1) for j, on in enumerate(row, 1) if on
    ]
    return [*ticks, submit_step()], [*ticks[:-1], submit_step()], "leaves one box unticked"


async def copy_paste(page: Page, u: str) -> tuple[Steps, Steps, str]:
    text = await page.eval_on_selector("#to-copy", "e => e.value")
    return *answer(text, text.strip(), "#answer-input"), "drops the trailing space"


async def sign_agreement(page: Page, u: str) -> tuple[Steps, Steps, str]:
    scroll = {"op": "scroll", "selector": "#text-area", "direction": "down", "amount": 20000}
    if "cancel button" in u:
        agree = [scroll, {"op": "click", "selector": "#agree"}]
        return [{"op": "click", "selector": "#cancel"}], agree, "agrees instead of cancelling"
    (name, press) = quoted(u)
    button = "#agree" if press == "Agree" else "#cancel"
    return [scroll, {"op": "fill", "selector": "#name", "value": name},
            {"op": "click", "selector": button}], [
        scroll, {"op": "fill", "selector": "#name", "value": name + "x"},
        {"op": "click", "selector": button}], "signs a misspelt name"  # fmt: skip


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
    "click-test": click_test,
    "click-test-2": click_test_2,
    "click-test-transfer": click_test_2,
    "click-checkboxes-large": click_checkboxes,
    "click-checkboxes-transfer": click_checkboxes,
    "click-checkboxes-soft": click_checkboxes_soft,
    "click-collapsible": click_collapsible,
    "click-collapsible-nodelay": click_collapsible,
    "click-collapsible-2": section_link,
    "click-collapsible-2-nodelay": section_link,
    "click-widget": click_widget,
    "enter-text-dynamic": enter_text,
    "simple-arithmetic": simple_arithmetic,
    "simple-algebra": simple_algebra,
    "unicode-test": click_button,
    "odd-or-even": odd_or_even,
    "text-transform": text_transform,
    "sign-agreement": sign_agreement,
    "choose-list": choose_list,
    "click-tab-2": tab_link,
    "click-tab-2-easy": tab_link,
    "enter-time": enter_time,
    "enter-date": enter_date,
    "login-user-popup": login_user_popup,
    "find-word": find_word,
    "read-table": read_table,
    "multi-orderings": movie_search,
    "multi-layouts": movie_search,
    "click-color": click_color,
    "guess-number": guess_number,
    "number-checkboxes": number_checkboxes,
    "copy-paste": copy_paste,
}


QUERY = {"op": "click", "selector": "#query"}
"""A click on the instructions: the wrong path where the page has no wrong control."""
NO_WRONG_END = frozenset({"click-dialog", "guess-number"})
"""Tasks where no wrong action ends the episode (only the dialog's x does; a wrong guess
asks for another)."""


def inert(task: str, wrong: Steps) -> bool:
    """Whether the wrong path ends no episode, so its world ends as the null agent's:
    ``proctor verify`` then needs its decoy marked ``inert: true``."""
    return task in NO_WRONG_END or QUERY in wrong


def scenario(task: str, seed: int, utterance: str, steps: Steps, wrong: Steps, why: str) -> dict[str, Any]:  # noqa: E501
    wrong_path: dict[str, Any] = {
        "name": "wrong-path", "steps": [*wrong, {"op": "done"}], "fails": ["solved"],
    }  # fmt: skip
    if inert(task, wrong):
        wrong_path["inert"] = True
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
            wrong_path,
            {
                # The page's own scorer called from the address bar: the seal refuses the
                # javascript: URL, so no episode ends (it once scored a perfect 1). The
                # refusal is the point: the step is expected refused, the decoy inert.
                "name": "javascript-url",
                "steps": [
                    {
                        "op": "navigate",
                        "url": "javascript:core.endEpisode(1, true)",
                        "expect": "refused",
                    },
                    {"op": "done"},
                ],
                "fails": ["solved"],
                "inert": True,
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
                args=[
                    *LAUNCH_FLAGS,
                    f"--host-resolver-rules={resolver_rules(server.port, DOMAIN)}",
                ],
            )
            for task, solve in SOLVERS.items():
                for seed in SEEDS:
                    tag = f"gen/{task}-{seed}#1"
                    with tempfile.TemporaryDirectory() as tmp:
                        world = AttemptWorld(
                            attempt=tag, seed=0, clock=dt.datetime.now(dt.UTC),
                            scratch=Path(tmp),
                            seeds={"miniwob": MiniwobWorld(task=task, seed=seed)},
                        )  # fmt: skip
                        server.begin(world, ["miniwob"])
                        # tagged as an attempt's browser is: the server files nothing untagged
                        page = await browser.new_page(extra_http_headers={ATTEMPT_HEADER: tag})
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

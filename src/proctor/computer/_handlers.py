"""The action handlers: one function per op, reached by an exhaustive ``match``.

Each handler drives the active page and returns what the Step says (``Handled``);
``facts`` collects what the trace records besides. A handler raises ``Refused``,
``ValueError`` or Playwright's error for a failed action; ``_act`` turns those
into the Step's status.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Awaitable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, assert_never

from playwright.async_api import ElementHandle, Frame, Locator, Page, Response
from playwright.async_api import Error as PlaywrightError
from playwright.async_api import TimeoutError as PlaywrightTimeout

from proctor.computer import _observe
from proctor.computer import _scripts as js
from proctor.computer import actions as a
from proctor.computer._errors import (
    Refused,
    performed_then_waited,
    reached_the_key_press,
    sent_unconfirmed,
)
from proctor.computer._routing import check_url, denied, origin
from proctor.errors import ComputerError

if TYPE_CHECKING:
    from proctor.computer._browser import BrowserComputer

NAV_TIMEOUT_MS = 15_000
NAV_GRACE_S = 5.0
"""Seconds past ``NAV_TIMEOUT_MS`` a navigation step waits before it gives up itself."""
WAIT_TEXT_TIMEOUT_MS = 10_000

Facts = dict[str, Any]


class Handled(NamedTuple):
    """What an action did: the Step's output line and its data."""

    output: str
    data: Any = None


async def dispatch(c: BrowserComputer, action: a.Action, facts: Facts) -> Handled:
    """Run ``action`` through its handler."""
    match action:
        case a.Navigate():
            return await navigate(c, action, facts)
        case a.Back():
            return await back(c)
        case a.Click():
            return await click(c, action, facts)
        case a.Fill():
            return await fill(c, action)
        case a.Select():
            return await select(c, action, facts)
        case a.Tick():
            return await check(c, action, facts)
        case a.Press():
            return await press(c, action, facts)
        case a.Type():
            return await type_text(c, action)
        case a.Scroll():
            return await scroll(c, action, facts)
        case a.Hover():
            return await hover(c, action)
        case a.Drag():
            return await drag(c, action, facts)
        case a.Upload():
            return await upload(c, action, facts)
        case a.Tabs():
            return await tabs(c, action, facts)
        case a.Extract():
            return await extract(c, action)
        case a.Wait():
            return await wait(c, action)
        case a.Restart():
            return await restart(c, facts)
        case a.Key() | a.SetValue() | a.Activate() | a.Read():
            raise ValueError(
                f"{action.op} is a desktop verb; in a browser use press (keys), fill "
                "(a field's value), tabs (a tab) or extract (text)"
            )
        case a.AskUser():
            reply = await c.user_channel().ask(action, step=c.recorder.next_index())
            return Handled(reply.text, reply.data)
        case a.RequestApproval():
            reply = await c.user_channel().request_approval(action, step=c.recorder.next_index())
            return Handled(reply.text, reply.data)
        case a.Schedule():
            reply = c.user_channel().schedule(action, step=c.recorder.next_index())
            return Handled(reply.text, reply.data)
        case a.Done():
            c.answer = action.answer
            c.finished = True
            return Handled("done", action.answer)
        case _:
            assert_never(action)


async def delivered(c: BrowserComputer, action: Awaitable[None], facts: Facts) -> None:
    """Await an input that may start a navigation (a form post, a link, Enter).

    Playwright holds the input until a navigation it started commits, within the
    action timeout. When only that wait runs out, the page took the input: the step
    is done (a retry would post twice), and this waits on (``NAV_TIMEOUT_MS``) for
    the navigation to commit, so that ``settle`` waits for the new document.

    A click's call log says it was performed. A key press's says only that its
    element was found (``elementHandle.press``); what follows (focus, the key, the
    navigation wait) takes no time unless a navigation is pending, so the press is
    done if the page commits a navigation within the bound, and failed if not.

    A click whose log ends at "performing click action" was sent, and the wait that
    ran out was the page's answer about it (``sent_unconfirmed``): the step is done
    too, once the page answers again (within ``NAV_TIMEOUT_MS``), so the click has
    been handled before the next observation.
    """
    page = c.page
    past = c.navigations[page]
    try:
        await action
    except PlaywrightTimeout as exc:
        if sent_unconfirmed(exc):
            answered = await _answers(page)
            facts["input"] = (
                "slow: sent; the page answered after the input's own wait ran out"
                if answered
                else f"slow: sent; the page did not answer {NAV_TIMEOUT_MS // 1000}s after it"
            )
            return
        clicked = performed_then_waited(exc)
        if not (clicked or reached_the_key_press(exc)):
            raise
        committed = await c.wait_navigated(page, past, NAV_TIMEOUT_MS / 1000)
        if not (committed or clicked):
            raise
        facts["navigation"] = (
            "slow: committed after the input's own wait ran out"
            if committed
            else f"slow: not committed {NAV_TIMEOUT_MS // 1000}s after the input"
        )


async def _answers(page: Page) -> bool:
    """Whether the page's renderer runs a script again within ``NAV_TIMEOUT_MS``."""
    try:
        await asyncio.wait_for(page.evaluate("0"), NAV_TIMEOUT_MS / 1000)
    except (PlaywrightError, TimeoutError):
        return False
    return True


async def settle(c: BrowserComputer) -> None:
    """Wait (bounded) for the active page's document to be parsed."""
    with contextlib.suppress(PlaywrightError):
        await c.page.wait_for_load_state("domcontentloaded", timeout=NAV_TIMEOUT_MS)


def locator(c: BrowserComputer, target: a.Target) -> Locator:
    """The element ``target`` addresses on the active page."""
    page = c.page
    if target.ref is not None:
        return page.locator(f"aria-ref={target.ref}")
    if target.role is not None:
        return page.get_by_role(target.role, name=target.name, exact=target.exact)  # type: ignore[arg-type]
    if target.selector is not None:
        return page.locator(target.selector)
    raise ValueError("no element target")


async def navigate(c: BrowserComputer, action: a.Navigate, facts: Facts) -> Handled:
    check_url(c.options, c.on_blocked, action.url)
    if denied(c.options, action.url):
        raise Refused(f"navigation to {origin(action.url)} is denied for this task; refused")
    response = await bounded(
        c.page.goto(action.url, wait_until="load"), f"navigate to {action.url}"
    )
    facts["status"] = response.status if response else None
    return Handled(f"opened {c.page.url}")


async def back(c: BrowserComputer) -> Handled:
    await bounded(c.page.go_back(wait_until="load"), "back")
    return Handled(f"back to {c.page.url}")


async def bounded(going: Awaitable[Response | None], what: str) -> Response | None:
    """Await a navigation of the active page, never longer than its timeout and a grace.

    Playwright's own navigation timeout (``NAV_TIMEOUT_MS``) ends a navigation that does
    not load; this bound holds when that timer is not reached (a driver call that never
    answers), so a navigation is a step error returned to the agent, never a hung attempt.
    """
    limit = NAV_TIMEOUT_MS / 1000 + NAV_GRACE_S
    try:
        return await asyncio.wait_for(going, limit)
    except TimeoutError:
        raise PlaywrightTimeout(
            f"{what}: the page did not load within {NAV_TIMEOUT_MS // 1000}s"
        ) from None


async def click(c: BrowserComputer, action: a.Click, facts: Facts) -> Handled:
    target = action.target()
    point = target.xy
    if point is not None:
        hit = await frame_at(c, *point)
        facts.update(hit.facts)
        if hit.element is None:
            await c.page.mouse.click(*point, **action.mouse())
        else:
            # Through the element hit at that point, so that Playwright waits for a
            # main-frame navigation the click starts (a form post), as it does for
            # element clicks; a bare mouse click returns before the post is even
            # sent. force: no actionability checks, the click lands at this point.
            # (Playwright does not wait for navigations inside child frames.)
            offset = await hit.element.evaluate(js.PADDING_OFFSET_JS, [hit.x, hit.y])
            await delivered(
                c, hit.element.click(position=offset, force=True, **action.mouse()), facts
            )
    else:
        loc = locator(c, target)
        # Chromium reports a download link's download only after the click
        # returns; note it so act waits for it instead of racing it.
        if await loc.evaluate_all(js.DOWNLOAD_LINK_JS):
            c.pending.expected += 1
        await delivered(c, loc.click(**action.mouse()), facts)
    await settle(c)
    return Handled(f"clicked {target.describe()}; now at {c.page.url}")


class Hit(NamedTuple):
    """Where a point lands: trace facts, and the element hit with the point in its frame."""

    facts: dict[str, Any]
    element: ElementHandle | None
    x: float
    y: float


async def frame_at(c: BrowserComputer, x: float, y: float) -> Hit:
    """Which frame (and element) a point lands in, descending through iframes."""
    frame: Frame = c.page.main_frame
    fx, fy = x, y
    depth = 0
    element = ""
    hit: ElementHandle | None = None
    while True:
        handle = await frame.evaluate_handle(js.POINT_JS, [fx, fy])
        hit = handle.as_element()
        if hit is None:
            break
        element = str((await hit.evaluate(js.DESCRIBE_JS)) or "")
        child = await hit.content_frame()
        if child is None:
            break
        box = await hit.evaluate(js.INNER_BOX_JS)
        fx, fy = fx - box["x"], fy - box["y"]
        frame = child
        depth += 1
    facts = {
        "in_frame": depth > 0,
        "frame_depth": depth,
        "frame_url": frame.url,
        "element": element,
    }
    return Hit(facts, hit, fx, fy)


async def fill(c: BrowserComputer, action: a.Fill) -> Handled:
    target = action.target()
    await locator(c, target).fill(action.value)
    return Handled(f"filled {target.describe()}")


async def select(c: BrowserComputer, action: a.Select, facts: Facts) -> Handled:
    target = action.target()
    loc = locator(c, target)
    if action.value is not None:
        # Playwright's Python `value=` also matches labels; the toolset promises the
        # value attribute only, so find that option and select it by index.
        values: list[str] | None = await loc.evaluate(js.OPTION_VALUES_JS)
        if values is not None and action.value not in values:
            shown = ", ".join(repr(v) for v in values[:12])
            raise ValueError(
                f"{target.describe()} has no option with value {action.value!r} "
                f"(values: {shown}); to choose by visible text, give label instead"
            )
        if values is None:
            chosen = await loc.select_option(value=action.value)
        else:
            chosen = await loc.select_option(index=values.index(action.value))
    else:
        chosen = await loc.select_option(label=action.label)
    facts["values"] = chosen
    await settle(c)
    return Handled(f"selected {chosen} in {target.describe()}")


async def check(c: BrowserComputer, action: a.Tick, facts: Facts) -> Handled:
    target = action.target()
    await delivered(c, locator(c, target).set_checked(action.checked), facts)
    return Handled(f"{'checked' if action.checked else 'unchecked'} {target.describe()}")


async def press(c: BrowserComputer, action: a.Press, facts: Facts) -> Handled:
    target = action.target()
    if action.key is None:
        raise ValueError(
            "in a browser, press needs a key (e.g. Enter); to press a button, click it"
        )
    if target is None:
        await c.page.keyboard.press(action.key)
    else:
        await delivered(c, locator(c, target).press(action.key), facts)
    await settle(c)
    return Handled(f"pressed {action.key}")


async def type_text(c: BrowserComputer, action: a.Type) -> Handled:
    target = action.target()
    if target is None:
        await c.page.keyboard.type(action.text)
    else:
        await locator(c, target).press_sequentially(action.text)
    return Handled(f"typed {len(action.text)} characters")


async def scroll(c: BrowserComputer, action: a.Scroll, facts: Facts) -> Handled:
    dx, dy = {
        "up": (0, -action.amount),
        "down": (0, action.amount),
        "left": (-action.amount, 0),
        "right": (action.amount, 0),
    }[action.direction]
    target = action.target()
    point = target.xy if target is not None else None
    if point is not None:
        await c.page.mouse.move(*point)
    elif target is not None:
        await locator(c, target).hover()
    else:
        w, h = c.options.viewport
        await c.page.mouse.move(w / 2, h / 2)
    await c.page.mouse.wheel(dx, dy)
    position = await c.page.evaluate(js.SCROLL_SETTLE_JS, list(point) if point else None)
    facts["scroll"] = position
    return Handled(f"scrolled {action.direction} to {position}")


async def hover(c: BrowserComputer, action: a.Hover) -> Handled:
    target = action.target()
    point = target.xy
    if point is not None:
        await c.page.mouse.move(*point)
    else:
        await locator(c, target).hover()
    return Handled(f"hovering {target.describe()}")


async def _point(
    c: BrowserComputer, point: a.Point, within: a.Target | None
) -> tuple[float, float]:
    target = point.target()
    xy = target.xy
    if xy is not None:
        if within is None:
            return xy
        box = await locator(c, within).bounding_box()
        if box is None:
            raise ValueError(f"{within.describe()} is not visible")
        return box["x"] + xy[0], box["y"] + xy[1]
    box = await locator(c, target).bounding_box()
    if box is None:
        raise ValueError(f"{target.describe()} is not visible")
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


async def drag(c: BrowserComputer, action: a.Drag, facts: Facts) -> Handled:
    sx, sy = await _point(c, action.start, action.within)
    ex, ey = await _point(c, action.end, action.within)
    mouse = c.page.mouse
    await mouse.move(sx, sy)
    await mouse.down()
    await mouse.move(ex, ey, steps=action.steps)
    await mouse.up()
    facts["from"] = [round(sx, 1), round(sy, 1)]
    facts["to"] = [round(ex, 1), round(ey, 1)]
    return Handled(f"dragged ({sx:.0f},{sy:.0f}) to ({ex:.0f},{ey:.0f})")


async def upload(c: BrowserComputer, action: a.Upload, facts: Facts) -> Handled:
    target = action.target()
    paths = [scratch_file(c.options.scratch, f) for f in action.files]
    await locator(c, target).set_input_files(paths)
    facts["files"] = [p.name for p in paths]
    return Handled(f"attached {', '.join(p.name for p in paths)}")


def scratch_file(scratch: Path, name: str) -> Path:
    """A file to upload: it must resolve (symlinks too) to a file inside the scratch folder."""
    root = scratch.resolve()
    given = Path(name)
    path = (given if given.is_absolute() else root / given).resolve()
    if not path.is_relative_to(root):
        raise Refused(f"upload {name!r} refused: only files in the task's folder ({root})")
    if not path.is_file():
        raise ValueError(f"no such file: {name}")
    return path


async def tabs(c: BrowserComputer, action: a.Tabs, facts: Facts) -> Handled:
    if action.action != "list":
        index = action.tab()
        if index >= len(c.pages):
            raise ValueError(f"no tab {index}; {len(c.pages)} tab(s) are open")
        if action.action == "activate":
            c.active = index
            await c.page.bring_to_front()
            await settle(c)
        else:
            await c.pages[index].close()
    listed = [
        {"index": t.index, "url": t.url, "title": t.title} for t in await _observe.tabs(c.pages)
    ]
    facts["active"] = c.active
    return Handled(f"{len(listed)} tab(s), active {c.active}", listed)


async def extract(c: BrowserComputer, action: a.Extract) -> Handled:
    target = action.target()
    data: Any
    if action.kind == "attribute":
        if target is None or action.attribute is None:
            raise ValueError("extract kind=attribute needs an element and an attribute name")
        values = await locator(c, target).evaluate_all(
            "(els, name) => els.map(e => e.getAttribute(name))", action.attribute
        )
        if not values:
            raise ValueError(f"{target.describe()} matches no element")
        data = values[0] if len(values) == 1 else values
    else:
        root = locator(c, target) if target else c.page.locator("body")
        if action.kind == "text":
            data = await root.first.inner_text()
        elif action.kind == "table":
            table = root if target else c.page.locator("table")
            data = await table.first.evaluate(js.TABLE_JS)
        else:
            data = await root.first.evaluate(js.LINKS_JS)
    summary = json.dumps(data, ensure_ascii=False)
    return Handled(f"extracted {action.kind}: {summary[:200]}", data)


async def wait(c: BrowserComputer, action: a.Wait) -> Handled:
    if action.text is not None:
        await c.page.get_by_text(action.text).first.wait_for(
            state="visible", timeout=WAIT_TEXT_TIMEOUT_MS
        )
        return Handled(f"saw {action.text!r}")
    if action.ms is None:
        raise ValueError("give exactly one of text or ms")
    # The agent asked for this pause (bounded to 10 s by the model); not a wait on the page.
    await asyncio.sleep(action.ms / 1000)
    return Handled(f"waited {action.ms} ms")


async def restart(c: BrowserComputer, facts: Facts) -> Handled:
    context = c.context
    if context is None:
        raise ComputerError(f"attempt {c.options.attempt}: no browser context to restart")
    state = await context.storage_state()
    # A real restart keeps persistent cookies and drops session ones.
    state["cookies"] = [k for k in state["cookies"] if k.get("expires", -1) > 0]
    c.profile.parent.mkdir(parents=True, exist_ok=True)
    c.profile.write_text(json.dumps(state))
    kept = len(state["cookies"])
    await context.close()
    await c.new_context(storage_state=str(c.profile))
    facts["cookies_kept"] = kept
    return Handled(f"browser restarted with the attempt's profile ({kept} cookie(s) kept)")

"""The mouse's handlers: click (a target or a point, through iframes), hover, scroll, drag."""

from __future__ import annotations

from typing import Any, NamedTuple

from playwright.async_api import ElementHandle, Frame

from proctor.computer import _scripts as js
from proctor.computer import actions as a
from proctor.computer._context import AttemptContext
from proctor.computer._delivery import Facts, Handled, delivered, locator, settle


async def click(c: AttemptContext, action: a.Click, facts: Facts) -> Handled:
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


async def frame_at(c: AttemptContext, x: float, y: float) -> Hit:
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


async def scroll(c: AttemptContext, action: a.Scroll, facts: Facts) -> Handled:
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


async def hover(c: AttemptContext, action: a.Hover) -> Handled:
    target = action.target()
    point = target.xy
    if point is not None:
        await c.page.mouse.move(*point)
    else:
        await locator(c, target).hover()
    return Handled(f"hovering {target.describe()}")


async def _point(c: AttemptContext, point: a.Point, within: a.Target | None) -> tuple[float, float]:
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


async def drag(c: AttemptContext, action: a.Drag, facts: Facts) -> Handled:
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

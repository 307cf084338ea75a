"""How a driver failure reads in a Step, and the harness's own refusal."""

from __future__ import annotations

import re


class Refused(Exception):
    """The harness refused the action before anything left the browser."""


def first_line(exc: BaseException) -> str:
    """A Playwright error as one short line an agent can act on."""
    text = str(exc).strip()
    for prefix in ("Locator.", "Page.", "Mouse.", "Keyboard.", "Frame."):
        if text.startswith(prefix):
            text = text.split(": ", 1)[-1]
    lines = [ln for ln in text.splitlines() if ln.strip() and "=====" not in ln]
    first = lines[0] if lines else type(exc).__name__
    if "intercepts pointer events" in text:
        hit = re.search(r"<[a-zA-Z][^\n]*? intercepts pointer events", text)
        first += " (covered: " + (hit.group(0)[:160] if hit else "another element") + ")"
    if "element is not enabled" in text or "not enabled" in text:
        first += " (the element is disabled)"
    if "strict mode violation" in text:
        first = first.split(" Call log")[0]
    return first[:400]


NAVIGATION_WAIT = "waiting for scheduled navigations to finish"


def _call_log(exc: BaseException) -> list[str]:
    return [ln.strip(" -") for ln in str(exc).splitlines() if ln.strip()]


def performed_then_waited(exc: BaseException) -> bool:
    """Whether a timed-out pointer input was performed and only a navigation was late.

    Playwright's call log ends with ``NAVIGATION_WAIT`` after the input ("click
    action done"): the page took the input and is loading what it asked for.
    """
    log = _call_log(exc)
    return (
        bool(log) and log[-1] == NAVIGATION_WAIT and any(ln.endswith("action done") for ln in log)
    )


def sent_unconfirmed(exc: BaseException) -> bool:
    """Whether a timed-out pointer input was sent and only the page's confirmation was late.

    Playwright sends a click's move, press and release at once, after its call log
    says "performing click action"; it then asks the page whether the right element
    got them, and that answer needs the renderer. A log that ends there timed out
    waiting on a page too starved to answer: the input is on its way.
    """
    log = _call_log(exc)
    return bool(log) and log[-1].startswith("performing ") and log[-1].endswith(" action")


def reached_the_key_press(exc: BaseException) -> bool:
    """Whether a timed-out key press got past finding its element (``elementHandle.press``).

    Its log says no more: focusing, pressing and waiting for a navigation it started
    all come after that line (``_delivery.delivered`` waits for the commit).
    """
    log = _call_log(exc)
    return bool(log) and log[-1].startswith("elementHandle.press(")

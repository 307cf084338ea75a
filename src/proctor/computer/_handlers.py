"""The action handlers' dispatch: one case per op, in an exhaustive ``match``.

Each handler drives the active page and returns what the Step says
(``_delivery.Handled``); ``facts`` collects what the trace records besides. A
handler raises ``Refused``, ``ValueError`` or Playwright's error for a failed
action; ``_act`` turns those into the Step's status. The handlers live by what
they drive: ``_pointer`` (the mouse), ``_fields`` (form fields and the keyboard),
``_pages`` (pages and tabs).
"""

from __future__ import annotations

from typing import assert_never

from proctor.computer import _fields, _pages, _pointer
from proctor.computer import actions as a
from proctor.computer._context import AttemptContext
from proctor.computer._delivery import Facts, Handled


async def dispatch(c: AttemptContext, action: a.Action, facts: Facts) -> Handled:
    """Run ``action`` through its handler."""
    match action:
        case a.Navigate():
            return await _pages.navigate(c, action, facts)
        case a.Back():
            return await _pages.back(c)
        case a.Click():
            return await _pointer.click(c, action, facts)
        case a.Fill():
            return await _fields.fill(c, action)
        case a.Select():
            return await _fields.select(c, action, facts)
        case a.Tick():
            return await _fields.check(c, action, facts)
        case a.Press():
            return await _fields.press(c, action, facts)
        case a.Type():
            return await _fields.type_text(c, action)
        case a.Scroll():
            return await _pointer.scroll(c, action, facts)
        case a.Hover():
            return await _pointer.hover(c, action)
        case a.Drag():
            return await _pointer.drag(c, action, facts)
        case a.Upload():
            return await _fields.upload(c, action, facts)
        case a.Tabs():
            return await _pages.tabs(c, action, facts)
        case a.Extract():
            return await _pages.extract(c, action)
        case a.Wait():
            return await _pages.wait(c, action)
        case a.Restart():
            return await _pages.restart(c, facts)
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

"""A world's end state reduced to what an agent can change, to tell a decoy that did nothing.

verify runs the null agent beside every decoy; a decoy whose print is the null agent's
(nothing beyond it) is inert: it fails its checks only as doing nothing does.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

from proctor.records import DesktopState, EndState, WebRequest

VOLATILE_STATES = frozenset({"focused", "active"})
"""Desktop control states that follow the keyboard, not what the agent made."""


@dataclass(frozen=True)
class WorldPrint:
    """What an attempt left in the world, each as a set of comparable lines."""

    requests: frozenset[str]
    """Each distinct request that reached the world: method, host, path, query and body.
    A request refused or blocked before it reached the world changed nothing there."""
    apps: frozenset[str]
    """Each app's or site's snapshot, as ``name sha256`` of its canonical JSON."""
    files: frozenset[str]
    """Each scratch file as ``path sha256``, and each folder as ``path/``."""
    desktop: frozenset[str]
    """Each desktop app's liveness, windows and controls' values, and the frontmost app."""
    said: frozenset[str]
    """What the agent told the user: its answers, questions, approval requests, wake-ups."""

    def beyond(self, base: WorldPrint) -> list[str]:
        """What this print holds that ``base`` does not, one line per part (empty: inert)."""
        lines = []
        for part, mine, theirs in (
            ("request", self.requests, base.requests),
            ("app state", self.apps, base.apps),
            ("file", self.files, base.files),
            ("desktop", self.desktop, base.desktop),
            ("said", self.said, base.said),
        ):
            extra = sorted(mine - theirs)
            if extra:
                more = f" (+{len(extra) - 1} more)" if len(extra) > 1 else ""
                lines.append(f"{part}: {_cut(extra[0])}{more}")
        return lines


def world_print(end: EndState) -> WorldPrint:
    """The print of one end state (a set per part, so a page that polls or a reload of a page
    already loaded adds nothing)."""
    said = {f"answer {reply.text}" for reply in end.user.replies if reply.text.strip()}
    if end.answer and end.answer.strip():
        said.add(f"answer {end.answer}")
    said |= {f"asked {q.question}" for q in end.user.asked}
    said |= {f"approval {a.action} {a.amount} {a.details}" for a in end.user.approvals}
    said |= {f"schedule {s.at} {s.note}" for s in end.user.scheduled}
    return WorldPrint(
        requests=frozenset(
            _request_line(r) for r in end.requests if r.refused is None and not r.blocked
        ),
        apps=frozenset(f"{name} {_digest(snap)}" for name, snap in end.apps.items()),
        files=frozenset(
            {f"{path} {fact.sha256}" for path, fact in end.files.items()}
            | {f"{folder}/" for folder in end.dirs}
        ),
        desktop=_desktop_lines(end.desktop),
        said=frozenset(said),
    )


def _request_line(request: WebRequest) -> str:
    sent = request.form or request.json_body is not None or request.files
    body = _canonical([request.form, request.json_body, request.files]) if sent else ""
    query = _canonical(request.query) if request.query else ""
    return f"{request.method} {request.host}{request.path} {query} {body}".rstrip()


def _desktop_lines(desktop: DesktopState | None) -> frozenset[str]:
    if desktop is None:
        return frozenset()
    lines = {f"frontmost {desktop.frontmost}"}
    for app in desktop.apps:
        lines.add(f"{app.name} alive={app.alive} windows={_canonical(sorted(app.windows))}")
        for c in app.controls:
            states = sorted(set(c.states) - VOLATILE_STATES)
            lines.add(f"{app.name} {c.window} {c.role} {c.name!r}={c.value!r} {states}")
    return frozenset(lines)


def _canonical(value: object) -> str:
    return json.dumps(value, sort_keys=True, default=str, ensure_ascii=False)


def _digest(value: object) -> str:
    return hashlib.sha256(_canonical(value).encode()).hexdigest()[:16]


def _cut(text: str, limit: int = 160) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"

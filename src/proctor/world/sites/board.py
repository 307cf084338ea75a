"""board.proctor.test: a sprint board whose priority list is drawn on a <canvas>.

The list has no DOM items: it is reordered by dragging rows with the pointer,
and the "Save order" button posts the order (item ids, comma-separated) to
``/submit/priorities``. The board then shows the last saved order.
"""

from __future__ import annotations

from collections.abc import Mapping

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from proctor.world._render import render
from proctor.world._site import AttemptWorld, Site, Submission, all_of, required, world_of

ITEMS: tuple[tuple[str, str], ...] = (
    ("BRD-101", "Fix login timeout on mobile"),
    ("BRD-102", "Update billing page copy"),
    ("BRD-103", "Export invoices to CSV"),
    ("BRD-104", "Dark mode for settings"),
    ("BRD-105", "Rate-limit password resets"),
    ("BRD-106", "Archive old projects"),
)
"""The sprint's items (id, title) in their starting order."""

ROW_HEIGHT = 48
CANVAS_WIDTH = 520


def _order_rule(form: Mapping[str, list[str]]) -> list[str]:
    raw = (form.get("order") or [""])[0]
    if not raw.strip():
        return []  # `required` reports it
    ids = [part.strip() for part in raw.split(",")]
    if sorted(ids) != sorted(item_id for item_id, _ in ITEMS):
        return ["The order must list every item of the sprint exactly once."]
    return []


def _saved(world: AttemptWorld) -> Submission | None:
    """The last accepted save of this attempt, if any."""
    saves = [s for s in world.submissions if s.route == "priorities"]
    return saves[-1] if saves else None


def _ordered(order: str) -> list[tuple[str, str]]:
    titles = dict(ITEMS)
    return [(item_id, titles[item_id]) for item_id in order.split(",")]


async def priorities(request: Request) -> Response:
    sub = _saved(world_of(request))
    items = _ordered(sub.fields["order"][0]) if sub else list(ITEMS)
    return render(
        "board/priorities.html",
        items=items,
        saved=sub is not None,
        row_height=ROW_HEIGHT,
        width=CANVAS_WIDTH,
    )


async def saved_page(request: Request) -> Response:
    """Shadows the generic result page: shows the order the server now holds."""
    world = world_of(request)
    sub_id = request.path_params["id"]
    sub = next((s for s in world.submissions if s.route == "priorities" and s.id == sub_id), None)
    if sub is None:
        return render(
            "_shared/error.html", 404, title="Not found", messages=["No such save."], back="/"
        )
    return render("board/saved.html", sub=sub, items=_ordered(sub.fields["order"][0]))


SITE = Site(
    name="board",
    routes=[
        Route("/priorities", priorities),
        Route("/submitted/priorities/{id:int}", saved_page),
    ],
    forms={"priorities": all_of(required("order"), _order_rule)},
)

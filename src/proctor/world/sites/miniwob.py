"""miniwob.proctor.test: one MiniWoB++ task page, seeded by the scenario, its reward recorded.

``/miniwob/`` (``/`` redirects there) is the scenario's task page from the installed
package (never from the URL: an agent cannot pick or re-roll its problem), with a
boot script added that, on
the page's own load, seeds ``Math.random`` with the scenario's seed, sets the data
mode, stretches ``core.EPISODE_MAX_TIME`` to the attempt's wall limit and starts
the episode; the page's ``core/`` and ``common/`` files are served beside it.

``core.endEpisode`` is wrapped: the end of each episode (raw reward, time-scaled
reward, reason, milliseconds) is posted to ``/episode/end`` with a synchronous
request, so it is logged before the click that ended the episode returns. Only
the first end counts; later episodes (the START cover clicked again) are kept and
marked. The reward display is hidden: it would be in the aria snapshot.
"""

from __future__ import annotations

import json
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import Receive, Scope, Send

from proctor.scenario import MiniwobWorld, miniwob_root
from proctor.world._site import AttemptWorld, Site, world_of

EPISODE_MS = 600_000
"""core.EPISODE_MAX_TIME for served episodes: ten minutes, past any scenario's wall limit,
so MiniWoB's own 10-second timer never cuts an agent short (time-scaled rewards use it)."""

BOOT = """
<style>#reward-display, #click-canvas {{ display: none !important; }}</style>
<script>
(function () {{
  var SEED = {seed}, MODE = {mode}, MAX = {max_ms};
  var ended = 0;
  var post = function (path, body) {{
    var xhr = new XMLHttpRequest();
    xhr.open("POST", path, false);  // synchronous: logged before the ending click returns
    xhr.setRequestHeader("content-type", "application/json");
    xhr.send(JSON.stringify(body));
  }};
  var end = core.endEpisode;
  core.endEpisode = function (reward, time_proportional, reason) {{
    var live = core.EP_TIMER !== null;
    var ms = core.ept0 === null ? null : new Date().getTime() - core.ept0;
    var result = end.apply(this, arguments);
    if (live) {{
      ended += 1;
      post("/episode/end", {{
        raw: WOB_RAW_REWARD_GLOBAL, reward: WOB_REWARD_GLOBAL,
        reason: WOB_REWARD_REASON === undefined ? null : WOB_REWARD_REASON,
        ms: ms, episode: ended
      }});
    }}
    return result;
  }};
  window.addEventListener("load", function () {{
    Math.seedrandom(SEED);
    core.setDataMode(MODE);
    core.EPISODE_MAX_TIME = MAX;
    core.startEpisodeReal();
    var said = core.getUtterance();
    post("/episode/start", {{utterance: typeof said === "object" ? said.utterance : said}});
  }});
}})();
</script>
"""


def _new_state(world: AttemptWorld) -> dict[str, Any]:
    return {"started": None, "ends": []}


def _task(world: AttemptWorld) -> MiniwobWorld | None:
    seed = world.seeds.get("miniwob")
    return seed if isinstance(seed, MiniwobWorld) else None


async def page(request: Request) -> Response:
    world = world_of(request)
    task = _task(world)
    root = miniwob_root()
    if task is None:
        return HTMLResponse("<h1>No MiniWoB task in this world</h1>", 404)
    if root is None:
        return HTMLResponse("<h1>The miniwob package is not installed</h1>", 503)
    html = (root / "miniwob" / f"{task.task}.html").read_text(encoding="utf-8")
    boot = BOOT.format(seed=json.dumps(task.seed), mode=json.dumps(task.mode), max_ms=EPISODE_MS)
    # Served at /miniwob/, the page's ../core and ../common links reach /core and /common.
    at = html.rfind("</body>")
    html = html[:at] + boot + html[at:] if at >= 0 else html + boot
    return HTMLResponse(html, headers={"cache-control": "no-store"})


async def started(request: Request) -> Response:
    world = world_of(request)
    body = await request.json()
    state = world.state("miniwob")
    if state.get("started") is None and isinstance(body, dict):
        state["started"] = {"utterance": str(body.get("utterance", ""))}
    return JSONResponse({"ok": True})


async def ended(request: Request) -> Response:
    world = world_of(request)
    body = await request.json()
    if not isinstance(body, dict):
        return JSONResponse({"ok": False}, 422)
    state = world.state("miniwob")
    record = {
        "raw": _number(body.get("raw")),
        "reward": _number(body.get("reward")),
        "reason": body.get("reason") if isinstance(body.get("reason"), str) else None,
        "ms": _number(body.get("ms")),
        "first": not state["ends"],
    }
    state["ends"].append(record)
    return JSONResponse({"ok": True})


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


class _Package:
    """A static folder of the installed package, found when a request comes (it may be absent)."""

    def __init__(self, folder: str) -> None:
        self.folder = folder
        self._files: StaticFiles | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self._files is None:
            root = miniwob_root()
            if root is None:
                await HTMLResponse("The miniwob package is not installed", 503)(
                    scope, receive, send
                )
                return
            self._files = StaticFiles(directory=root / self.folder)
        await self._files(scope, receive, send)


def _snapshot(world: AttemptWorld) -> dict[str, Any] | None:
    task = _task(world)
    if task is None:
        return None
    state = world.state("miniwob")
    ends = list(state.get("ends", []))
    return {
        "task": task.task,
        "seed": task.seed,
        "mode": task.mode,
        "utterance": (state.get("started") or {}).get("utterance"),
        "first_end": ends[0] if ends else None,
        "ends": ends,
    }


SITE: Site[dict[str, Any]] = Site(
    name="miniwob",
    routes=[
        Route("/", lambda request: RedirectResponse("/miniwob/", 303)),
        Route("/miniwob/", page),
        Route("/episode/start", started, methods=["POST"]),
        Route("/episode/end", ended, methods=["POST"]),
        Mount("/core", app=_Package("core")),
        Mount("/common", app=_Package("common")),
    ],
    new_state=_new_state,
    snapshot=_snapshot,
)

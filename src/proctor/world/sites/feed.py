"""feed.proctor.test: a long neighbourhood feed whose posts can be saved to a reading list.

The feed is one long page (the post a task asks for sits far down), so agents
scroll; ``Save`` posts ``/submit/save`` and the saved post is marked on the
feed and listed on ``/saved``.
"""

from __future__ import annotations

from collections.abc import Mapping

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from proctor.world._render import render
from proctor.world._site import AttemptWorld, Site, world_of

_TOPICS = [
    (
        "Road works on Quay Street until Friday",
        "Marta Quinn",
        "Expect one lane closed near the bridge.",
    ),
    (
        "Lost cat: grey tabby near the library",
        "Owen Batista",
        "Answers to Pico; has a blue collar.",
    ),
    (
        "Farmers market moves indoors for winter",
        "Lena Sorensen",
        "Same stalls, now in the old depot.",
    ),
    (
        "Free bike repair clinic on Saturday",
        "Jonah Mwangi",
        "Bring your bike; tools and tea provided.",
    ),
    ("School crossing guard needed", "Priya Raman", "Mornings only, 7:45 to 8:30."),
    ("Book swap shelf restocked", "Ada Kowalczyk", "Mostly crime novels and cookbooks this week."),
    ("Streetlight out on Linden Row", "Tomas Ferreira", "Reported to the council, ticket pending."),
    (
        "Choir rehearsals start again",
        "Grace Achebe",
        "Tuesdays at the community hall, all welcome.",
    ),
    ("Recycling collection moves to Thursday", "Elif Demir", "Only for the holiday week."),
    ("Pop-up vaccination clinic", "Sam Whitlock", "No appointment needed, bring your card."),
]
TARGET = ("g17", "Community garden opens on Alder Street", "Nadia Holm",
          "Plots of four square metres are free for residents; tools are in the shed.")  # fmt: skip
POSTS_PER_TOPIC_ROUND = len(_TOPICS)
ROUNDS = 3


def _posts() -> list[dict[str, str]]:
    """Thirty ordinary posts, with the garden post after the twenty-seventh."""
    posts = []
    n = 0
    for round_ in range(ROUNDS):
        for title, author, body in _TOPICS:
            n += 1
            suffix = "" if round_ == 0 else f" (update {round_})"
            posts.append(
                {"id": f"p{n:02d}", "title": title + suffix, "author": author, "body": body}
            )
    gid, title, author, body = TARGET
    posts.insert(27, {"id": gid, "title": title, "author": author, "body": body})
    return posts


POSTS = _posts()
BY_ID = {p["id"]: p for p in POSTS}


def _saved_ids(world: AttemptWorld) -> list[str]:
    ids: list[str] = []
    for sub in world.submissions:
        post = (sub.fields.get("post") or [""])[0]
        if sub.route == "save" and post not in ids:
            ids.append(post)
    return ids


async def feed(request: Request) -> Response:
    return render("feed/feed.html", posts=POSTS, saved=set(_saved_ids(world_of(request))))


async def saved_page(request: Request) -> Response:
    posts = [BY_ID[i] for i in _saved_ids(world_of(request))]
    return render("feed/saved.html", posts=posts, just=None)


async def just_saved(request: Request) -> Response:
    """Shadows the generic result page: the reading list, with the post just saved."""
    world = world_of(request)
    sub_id = request.path_params["id"]
    sub = next((s for s in world.submissions if s.route == "save" and s.id == sub_id), None)
    if sub is None:
        return render(
            "_shared/error.html", 404, title="Not found", messages=["No such save."], back="/"
        )
    posts = [BY_ID[i] for i in _saved_ids(world)]
    return render("feed/saved.html", posts=posts, just=BY_ID[sub.fields["post"][0]])


def _save_rule(form: Mapping[str, list[str]]) -> list[str]:
    post = (form.get("post") or [""])[0]
    if not post:
        return ["Choose a post to save."]
    if post not in BY_ID:
        return [f"There is no post {post!r} on this feed."]
    return []


SITE = Site(
    name="feed",
    routes=[
        Route("/", feed),
        Route("/saved", saved_page),
        Route("/submitted/save/{id:int}", just_saved),
    ],
    forms={"save": _save_rule},
)

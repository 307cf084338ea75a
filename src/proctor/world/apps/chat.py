"""chat.proctor.test: the user's team chat: channels, messages, threads, reactions.

Seed: ``world.apps.chat`` (``proctor.scenario.ChatSeed``). A thread is a
top-level message and its replies; a reply's ``thread`` is its parent's id.
Reactions are names from ``proctor.scenario.EMOJI``; reacting again with
the same one takes it back.

Pages: ``/`` channels, ``/c/<channel>``, ``/c/<channel>/t/<id>`` (a thread).
Posts: ``/c/<channel>/messages`` (text) -> 303 ``/c/<channel>``;
``/c/<channel>/t/<id>/replies`` (text) -> 303 the thread; ``/react`` (message,
emoji) -> 303 where the message is shown. Empty or unknown input: 422 with the
message shown.

JSON API: ``GET /api/channels``, ``GET /api/channels/<name>/messages``
(top-level, each with its ``replies``), ``GET /api/messages/<id>``, ``POST
/api/channels/<name>/messages {text, thread?}`` -> 201, ``POST
/api/messages/<id>/reactions {emoji}``.

Snapshot (``EndState.apps["chat"]``; ``None`` when unseeded and untouched)::

    {now, tz, me, channels: [{name, topic}],
     posts: [{id, channel, thread, by, text, at, reactions: {emoji: [handle]}, seeded}]}

``posts`` is flat, in posting order; ``thread`` is null for top-level posts.

Noise (seed ``noise: true``): every visit of a channel page first adds a post by
``statusbot`` (Status Bot) to that channel, ids ``n1``, ``n2``..., stamped with
the run clock (``proctor.world.apps._noise``). The JSON API never adds noise.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from proctor.scenario import EMOJI, ChatSeed, ReplySeed
from proctor.world._kit import (
    BadJson,
    api_error,
    fresh_ids,
    json_object,
    page_error,
    read_form,
    see_other,
    text_of,
)
from proctor.world._kit._time import at, iso, run_now, show, show_brief
from proctor.world._render import render
from proctor.world._site import AttemptWorld, Site, world_of
from proctor.world.apps._noise import STATUS_BOT, status_noise

NAME = "chat"
MAX_POST = 4000


@dataclass
class Post:
    id: str
    channel: str
    thread: str | None
    by: str
    text: str
    at: dt.datetime
    seeded: bool
    reactions: dict[str, list[str]] = field(default_factory=dict)

    def data(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "channel": self.channel,
            "thread": self.thread,
            "by": self.by,
            "text": self.text,
            "at": iso(self.at),
            "reactions": {k: list(v) for k, v in self.reactions.items()},
            "seeded": self.seeded,
        }


@dataclass
class Channel:
    name: str
    topic: str


@dataclass
class Chat:
    """One attempt's chat workspace."""

    tz: str
    me: str
    now: dt.datetime
    seeded: bool
    names: dict[str, str] = field(default_factory=dict)
    channels: list[Channel] = field(default_factory=list)
    posts: list[Post] = field(default_factory=list)
    touched: bool = False
    counter: int = 0
    noise: bool = False
    visits: int = 0
    """Channel visits so far (counted only with noise on)."""

    def channel(self, name: str) -> Channel | None:
        return next((c for c in self.channels if c.name == name), None)

    def post(self, pid: str) -> Post | None:
        return next((p for p in self.posts if p.id == pid), None)

    def top(self, channel: str) -> list[Post]:
        picked = [p for p in self.posts if p.channel == channel and p.thread is None]
        return sorted(picked, key=lambda p: (p.at, self.posts.index(p)))

    def replies(self, pid: str) -> list[Post]:
        picked = [p for p in self.posts if p.thread == pid]
        return sorted(picked, key=lambda p: (p.at, self.posts.index(p)))

    def new_id(self) -> str:
        taken = {p.id for p in self.posts}
        while True:
            self.counter += 1
            if f"c{self.counter}" not in taken:
                return f"c{self.counter}"

    def visit_channel(self, world: AttemptWorld, channel: str) -> None:
        """Count a channel visit; with noise on, the status bot posts there first."""
        if not self.noise:
            return
        self.visits += 1
        pid = next(fresh_ids("n", {p.id for p in self.posts}))
        text = status_noise(world, channel, self.visits)
        self.posts.append(Post(pid, channel, None, STATUS_BOT[0], text, self.now, False))
        self.touched = True

    def add(self, channel: str, text: str, thread: str | None) -> Post:
        post = Post(self.new_id(), channel, thread, self.me, text.strip(), self.now, False)
        self.posts.append(post)
        self.touched = True
        return post

    def react(self, post: Post, emoji: str) -> None:
        """Toggle the user's reaction."""
        people = post.reactions.setdefault(emoji, [])
        if self.me in people:
            people.remove(self.me)
            if not people:
                del post.reactions[emoji]
        else:
            people.append(self.me)
        self.touched = True

    def json(self, post: Post, *, with_replies: bool = False) -> dict[str, Any]:
        data = post.data()
        data["name"] = self.names.get(post.by, post.by)
        if post.thread is None:
            replies = self.replies(post.id)
            data["reply_count"] = len(replies)
            if with_replies:
                data["replies"] = [self.json(r) for r in replies]
        return data

    def snapshot(self) -> dict[str, Any] | None:
        if not self.seeded and not self.touched:
            return None
        return {
            "now": iso(self.now),
            "tz": self.tz,
            "me": self.me,
            "channels": [{"name": c.name, "topic": c.topic} for c in self.channels],
            "posts": [p.data() for p in self.posts],
        }


def _post(
    chat: Chat, seed: ReplySeed, where: tuple[str, str | None], world: AttemptWorld, pid: str
) -> Post:
    channel, thread = where
    reactions = {str(e): list(people) for e, people in seed.reactions.items() if people}
    when = at(seed.at, world, chat.tz)
    return Post(pid, channel, thread, seed.by, seed.text, when, True, reactions)


def new_state(world: AttemptWorld) -> Chat:
    raw = world.seeds.get(NAME)
    seed = ChatSeed.model_validate(raw if raw is not None else {})
    chat = Chat(seed.tz, seed.me, run_now(world), seeded=raw is not None)
    chat.names[seed.me] = seed.name
    chat.names.update({p.handle: p.name for p in seed.people})
    chat.noise = seed.noise
    if seed.noise:
        chat.names.setdefault(*STATUS_BOT)
    named = {m.id for c in seed.channels for m in c.messages if m.id}
    named |= {r.id for c in seed.channels for m in c.messages for r in m.replies if r.id}
    ids = fresh_ids("c", named)
    for channel in seed.channels:
        chat.channels.append(Channel(channel.name, channel.topic))
        for message in channel.messages:
            parent = _post(chat, message, (channel.name, None), world, message.id or next(ids))
            chat.posts.append(parent)
            for reply in message.replies:
                where = (channel.name, parent.id)
                chat.posts.append(_post(chat, reply, where, world, reply.id or next(ids)))
    return chat


def snapshot(world: AttemptWorld) -> dict[str, Any] | None:
    return world.state_of(NAME, Chat).snapshot()


def _text_problems(text: str) -> list[str]:
    if not text.strip():
        return ["Write a message first: it is empty."]
    if len(text) > MAX_POST:
        return [f"A message holds at most {MAX_POST} characters."]
    return []


# pages


def _page(template: str, chat: Chat, status: int = 200, **ctx: Any) -> Response:
    def brief(moment: dt.datetime) -> str:
        return show_brief(moment, chat.tz, chat.now)

    def full(moment: dt.datetime) -> str:
        return show(moment, chat.tz)

    return render(
        f"chat/{template}",
        status,
        chat=chat,
        brief=brief,
        full=full,
        emoji=EMOJI,
        errors=ctx.pop("errors", []),
        draft=ctx.pop("draft", ""),
        **ctx,
    )


async def home(request: Request) -> Response:
    chat = world_of(request).state_of(NAME, Chat)
    return _page("home.html", chat)


def _channel(request: Request) -> tuple[Chat, Channel] | Response:
    chat = world_of(request).state_of(NAME, Chat)
    channel = chat.channel(request.path_params["name"])
    if channel is None:
        return page_error(["This channel does not exist."], 404, back="/")
    return chat, channel


def _thread(request: Request) -> tuple[Chat, Channel, Post] | Response:
    found = _channel(request)
    if isinstance(found, Response):
        return found
    chat, channel = found
    parent = chat.post(request.path_params["id"])
    if parent is None or parent.channel != channel.name or parent.thread is not None:
        return page_error(["This thread does not exist."], 404, back=f"/c/{channel.name}")
    return chat, channel, parent


async def channel_page(request: Request) -> Response:
    found = _channel(request)
    if isinstance(found, Response):
        return found
    chat, channel = found
    chat.visit_channel(world_of(request), channel.name)
    return _page("channel.html", chat, channel=channel, posts=chat.top(channel.name))


async def thread_page(request: Request) -> Response:
    found = _thread(request)
    if isinstance(found, Response):
        return found
    chat, channel, parent = found
    replies = chat.replies(parent.id)
    return _page("thread.html", chat, channel=channel, parent=parent, replies=replies)


async def post_message(request: Request) -> Response:
    found = _channel(request)
    if isinstance(found, Response):
        return found
    chat, channel = found
    text = (await read_form(request, trim=False)).get("text", "")
    problems = _text_problems(text)
    if problems:
        posts = chat.top(channel.name)
        return _page(
            "channel.html", chat, 422, channel=channel, posts=posts, errors=problems, draft=text
        )
    post = chat.add(channel.name, text, None)
    return see_other(f"/c/{channel.name}#{post.id}")


async def post_reply(request: Request) -> Response:
    found = _thread(request)
    if isinstance(found, Response):
        return found
    chat, channel, parent = found
    text = (await read_form(request, trim=False)).get("text", "")
    problems = _text_problems(text)
    if problems:
        replies = chat.replies(parent.id)
        return _page(
            "thread.html",
            chat,
            422,
            channel=channel,
            parent=parent,
            replies=replies,
            errors=problems,
            draft=text,
        )
    reply = chat.add(channel.name, text, parent.id)
    return see_other(f"/c/{channel.name}/t/{parent.id}#{reply.id}")


async def react_post(request: Request) -> Response:
    chat = world_of(request).state_of(NAME, Chat)
    form = await read_form(request, trim=False)
    post = chat.post(form.get("message", ""))
    if post is None:
        return page_error(["This message does not exist."], 404, back="/")
    where = f"/c/{post.channel}" + (f"/t/{post.thread}" if post.thread else "")
    emoji = form.get("emoji", "")
    if emoji not in EMOJI:
        return page_error(["Choose a reaction from the list."], 422, back=where)
    chat.react(post, emoji)
    return see_other(f"{where}#{post.id}")


# JSON API


async def api_channels(request: Request) -> Response:
    chat = world_of(request).state_of(NAME, Chat)
    channels = [
        {"name": c.name, "topic": c.topic, "messages": len(chat.top(c.name))} for c in chat.channels
    ]
    return JSONResponse({"me": chat.me, "channels": channels})


async def api_channel_messages(request: Request) -> Response:
    chat = world_of(request).state_of(NAME, Chat)
    channel = chat.channel(request.path_params["name"])
    if channel is None:
        return api_error([f"no channel {request.path_params['name']!r}"], 404)
    posts = [chat.json(p, with_replies=True) for p in chat.top(channel.name)]
    return JSONResponse({"channel": channel.name, "topic": channel.topic, "messages": posts})


async def api_message(request: Request) -> Response:
    chat = world_of(request).state_of(NAME, Chat)
    post = chat.post(request.path_params["id"])
    if post is None:
        return api_error([f"no message {request.path_params['id']!r}"], 404)
    return JSONResponse(chat.json(post, with_replies=True))


async def api_post(request: Request) -> Response:
    chat = world_of(request).state_of(NAME, Chat)
    channel = chat.channel(request.path_params["name"])
    if channel is None:
        return api_error([f"no channel {request.path_params['name']!r}"], 404)
    try:
        body = await json_object(request)
    except BadJson as exc:
        return api_error([str(exc)], 400)
    text = text_of(body.get("text"))
    problems = _text_problems(text)
    thread = text_of(body.get("thread")) or None
    if thread is not None:
        parent = chat.post(thread)
        if parent is None or parent.channel != channel.name or parent.thread is not None:
            problems.append(f"no thread {thread!r} in #{channel.name}")
    if problems:
        return api_error(problems)
    post = chat.add(channel.name, text, thread)
    return JSONResponse({"ok": True, "message": chat.json(post)}, 201)


async def api_react(request: Request) -> Response:
    chat = world_of(request).state_of(NAME, Chat)
    post = chat.post(request.path_params["id"])
    if post is None:
        return api_error([f"no message {request.path_params['id']!r}"], 404)
    try:
        body = await json_object(request)
    except BadJson as exc:
        return api_error([str(exc)], 400)
    emoji = text_of(body.get("emoji"))
    if emoji not in EMOJI:
        return api_error([f"emoji must be one of: {', '.join(EMOJI)}"])
    chat.react(post, emoji)
    return JSONResponse({"ok": True, "message": chat.json(post)})


SITE = Site[Chat](
    name=NAME,
    routes=[
        Route("/", home),
        Route("/c/{name:str}", channel_page),
        Route("/c/{name:str}/messages", post_message, methods=["POST"]),
        Route("/c/{name:str}/t/{id:str}", thread_page),
        Route("/c/{name:str}/t/{id:str}/replies", post_reply, methods=["POST"]),
        Route("/react", react_post, methods=["POST"]),
        Route("/api/channels", api_channels),
        Route("/api/channels/{name:str}/messages", api_channel_messages),
        Route("/api/channels/{name:str}/messages", api_post, methods=["POST"]),
        Route("/api/messages/{id:str}", api_message),
        Route("/api/messages/{id:str}/reactions", api_react, methods=["POST"]),
    ],
    new_state=new_state,
    snapshot=snapshot,
)

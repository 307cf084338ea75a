"""The team chat's seed (``world.apps.chat``): people, channels, threads, reactions."""

from __future__ import annotations

from pydantic import (
    Field,
    model_validator,
)

from proctor.scenario._seed import Handle, Seed, Slug, TimeZone, When
from proctor.vocab import Emoji

EMOJI: dict[str, str] = {
    "thumbsup": "\N{THUMBS UP SIGN}",
    "eyes": "\N{EYES}",
    "white_check_mark": "\N{WHITE HEAVY CHECK MARK}",
    "heart": "\N{HEAVY BLACK HEART}",
    "tada": "\N{PARTY POPPER}",
    "raised_hands": "\N{PERSON RAISING BOTH HANDS IN CELEBRATION}",
    "joy": "\N{FACE WITH TEARS OF JOY}",
    "question": "\N{BLACK QUESTION MARK ORNAMENT}",
}
"""Chat reactions by name -> the character shown."""


class ChatPerson(Seed):
    handle: Handle
    name: str


class ReplySeed(Seed):
    id: Slug | None = Field(default=None, description="Stable id (default c1, c2... in order).")
    by: Handle = Field(description="Author's handle: the user's `me` or one of `people`.")
    text: str = Field(min_length=1)
    at: When
    reactions: dict[Emoji, list[Handle]] = Field(default_factory=dict)


class ChatMessageSeed(ReplySeed):
    replies: list[ReplySeed] = Field(default_factory=list, description="The message's thread.")


class ChannelSeed(Seed):
    name: Slug
    topic: str = ""
    messages: list[ChatMessageSeed] = Field(default_factory=list)


class ChatSeed(Seed):
    """The user's team chat."""

    tz: TimeZone = "UTC"
    me: Handle = Field(default="me", description="The user's handle.")
    name: str = Field(default="Me", description="The user's display name.")
    people: list[ChatPerson] = Field(default_factory=list)
    channels: list[ChannelSeed] = Field(default_factory=list)
    noise: bool = Field(
        default=False,
        description="Each channel visit adds a Status Bot post to that channel (a trap for "
        "agents that act on position); the same seed and visits give the same posts.",
    )

    @model_validator(mode="after")
    def _known(self) -> ChatSeed:
        known = {self.me, *(p.handle for p in self.people)}
        problems: list[str] = []
        ids: list[str] = []
        names = [c.name for c in self.channels]
        if len(set(names)) != len(names):
            problems.append("channel names must be unique")
        for i, channel in enumerate(self.channels):
            for j, msg in enumerate(channel.messages):
                posts: list[tuple[str, ReplySeed]] = [(f"channels[{i}].messages[{j}]", msg)]
                posts += [
                    (f"channels[{i}].messages[{j}].replies[{k}]", r)
                    for k, r in enumerate(msg.replies)
                ]
                for where, post in posts:
                    who = [post.by, *(h for hs in post.reactions.values() for h in hs)]
                    problems += [
                        f"{where}: unknown person {h!r} (add them to people)"
                        for h in who
                        if h not in known
                    ]
                    if post.id is not None:
                        ids.append(post.id)
        dupes = sorted({i for i in ids if ids.count(i) > 1})
        if dupes:
            problems.append(f"message ids must be unique: {', '.join(dupes)}")
        if problems:
            raise ValueError("; ".join(problems))
        return self

"""What the timeline delivers into the apps mid-attempt: mail, a chat post, an invite.

Each is what the app would show had it arrived from outside: mail through the
inbox rules, a post by someone in the workspace, an invite awaiting the user's
answer. All are stamped with the run clock.
"""

from __future__ import annotations

import datetime as dt

from proctor.scenario import ChatDelivery, Delivery, InviteDelivery, MailDelivery
from proctor.world._kit._time import at
from proctor.world._site import AttemptWorld
from proctor.world.apps.calendar._state import NAME as CALENDAR
from proctor.world.apps.calendar._state import Attendee, Calendar, Event
from proctor.world.apps.chat import NAME as CHAT
from proctor.world.apps.chat import Chat, Post
from proctor.world.apps.mail import deliver as deliver_mail
from proctor.world.apps.mail._seed import attachment_of


def arrive(world: AttemptWorld, delivery: Delivery) -> str:
    """Deliver into the app the delivery names; what arrived, in words (its id).

    Raises:
        ValueError: the delivery names what the app does not have (a channel, an author).
        WorldError: the app is not served to this attempt.
    """
    if delivery.mail is not None:
        return _mail(world, delivery.mail)
    if delivery.chat is not None:
        return _chat(world, delivery.chat)
    assert delivery.invite is not None
    return _invite(world, delivery.invite)


def _mail(world: AttemptWorld, mail: MailDelivery) -> str:
    files = []
    for seed in mail.attachments:
        a = attachment_of(seed)
        files.append((a.name, a.type, a.data))
    mid = deliver_mail(
        world, sender=mail.from_, subject=mail.subject, body=mail.body, attachments=files
    )
    return f"mail {mid} from {mail.from_}: {mail.subject}"


def _chat(world: AttemptWorld, post: ChatDelivery) -> str:
    chat = world.state_of(CHAT, Chat)
    if chat.channel(post.channel) is None:
        names = ", ".join(c.name for c in chat.channels) or "none"
        raise ValueError(f"no chat channel {post.channel!r} (channels: {names})")
    if post.by not in chat.names and post.by != chat.me:
        raise ValueError(f"no chat member {post.by!r} (members: {', '.join(chat.names)})")
    if post.thread is not None and chat.post(post.thread) is None:
        raise ValueError(f"no chat post {post.thread!r} to reply under")
    item = Post(chat.new_id(), post.channel, post.thread, post.by, post.text, chat.now, False)
    chat.posts.append(item)
    return f"chat post {item.id} by {post.by} in #{post.channel}"


def _invite(world: AttemptWorld, invite: InviteDelivery) -> str:
    cal = world.state_of(CALENDAR, Calendar)
    taken = {e.id for e in [*cal.events, *cal.deleted]}
    if invite.id is not None and invite.id in taken:
        raise ValueError(f"event id {invite.id!r} is already taken")
    eid = invite.id
    while eid is None or eid in taken:
        cal.counter += 1
        eid = f"e{cal.counter}"
    start = at(invite.start, world, cal.tz)
    end = start + dt.timedelta(minutes=invite.minutes)
    me = Attendee(cal.owner, cal.names.get(cal.owner, ""))
    event = Event(
        eid, invite.title, start, end, cal.tz, invite.organizer, [me], False,
        invite.location, invite.description,
    )  # fmt: skip
    cal.events.append(event)
    return f"invite {eid} from {invite.organizer}: {invite.title}"

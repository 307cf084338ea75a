"""The mailbox a scenario's ``world.apps.mail`` seed describes."""

from __future__ import annotations

import base64
import mimetypes

from proctor.scenario import AttachmentSeed, MailSeed
from proctor.world._kit import fresh_ids, text_pdf
from proctor.world._kit._time import at, run_now
from proctor.world._site import AttemptWorld
from proctor.world.apps.mail._items import Later, Rule
from proctor.world.apps.mail._state import NAME, Attachment, Draft, Mailbox, Message, Sent
from proctor.world.apps.mail._state import name_and_address as _name_and_address


def attachment_of(seed: AttachmentSeed) -> Attachment:
    ctype = seed.type or mimetypes.guess_type(seed.name)[0] or "application/octet-stream"
    if seed.text is not None:
        return Attachment(seed.name, ctype, seed.text.encode("utf-8"))
    if seed.base64 is not None:
        return Attachment(seed.name, ctype, base64.b64decode(seed.base64))
    return Attachment(seed.name, seed.type or "application/pdf", text_pdf(seed.pdf or []))


def new_state(world: AttemptWorld) -> Mailbox:
    raw = world.seeds.get(NAME)
    seed = MailSeed.model_validate(raw if raw is not None else {})
    box = Mailbox(seed.tz, seed.address, seed.name, run_now(world), seeded=raw is not None)
    box.noise = seed.noise
    box.folders = list(seed.folders)
    box.labels = list(seed.labels)
    ids = fresh_ids("m", {m.id for m in seed.messages if m.id})
    for m in seed.messages:
        name, sender = _name_and_address(m.from_)
        mid = m.id or next(ids)
        to = [_name_and_address(a)[1] for a in m.to] or [seed.address]
        cc = [_name_and_address(a)[1] for a in m.cc]
        msg = Message(
            id=mid,
            folder=box.folder_named(m.folder) or m.folder,  # the seed model checked it
            thread=m.thread or mid,
            sender=sender,
            sender_name=name,
            to=to,
            cc=cc,
            subject=m.subject,
            body=m.body,
            at=at(m.at, world, seed.tz) if m.at is not None else box.now,
            read=m.read,
            attachments=[attachment_of(a) for a in m.attachments],
            labels=[box.label_named(label) or label for label in m.labels],
        )
        if m.arrives_after is None:
            box.messages.append(msg)
        else:
            box.pending.append(Later(m.arrives_after, msg))
    for i, r in enumerate(seed.rules, start=1):
        folder = box.folder_named(r.folder) if r.folder is not None else None
        label = box.label_named(r.label) if r.label is not None else None
        box.rules.append(Rule(f"r{i}", r.conditions(), folder, label, r.read, True))
    box.counters["r"] = len(seed.rules)
    for i, d in enumerate(seed.drafts, start=1):
        to = [_name_and_address(a)[1] for a in d.to]
        cc = [_name_and_address(a)[1] for a in d.cc]
        box.drafts.append(Draft(f"d{i}", to, cc, d.subject, d.body, at(d.at, world, seed.tz), True))
    box.counters["d"] = len(seed.drafts)
    for i, s in enumerate(seed.sent, start=1):
        to = [_name_and_address(a)[1] for a in s.to]
        cc = [_name_and_address(a)[1] for a in s.cc]
        sid = f"s{i}"
        when = at(s.at, world, seed.tz)
        box.sent.append(Sent(sid, to, cc, s.subject, s.body, when, True, s.thread or sid))
    box.counters["s"] = len(seed.sent)
    return box

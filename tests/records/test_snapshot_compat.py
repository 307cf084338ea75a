"""End states stored before the apps grew (folders, rules, moves, retention flows) still
validate, so `proctor regrade` of an older run reads them."""

from __future__ import annotations

from proctor.records import CalendarSnapshot, MailSnapshot, SubscriptionSnapshot

NOW = "2026-11-02T09:30:00Z"


def test_an_older_mail_snapshot_has_no_folders_labels_or_rules() -> None:
    old = {
        "now": NOW, "tz": "UTC", "address": "me@example.test", "name": "Me",
        "messages": [{"id": "m1", "folder": "inbox", "thread": "t1", "from": "a@b.test",
                      "from_name": "A", "to": ["me@example.test"], "cc": [], "subject": "Hi",
                      "body": "", "at": NOW, "read": False, "attachments": []}],
        "drafts": [], "sent": [],
    }  # fmt: skip
    snap = MailSnapshot.model_validate(old)
    assert (snap.folders, snap.labels, snap.rules) == ([], [], [])
    message = snap.messages[0]
    assert (message.labels, message.rules, message.delivered) == ([], [], "setup")


def test_an_older_calendar_event_started_where_it_is() -> None:
    event = {"id": "e1", "title": "Sync", "start": NOW, "end": "2026-11-02T10:00:00Z",
             "tz": "UTC", "location": "", "description": "", "organizer": "me@example.test",
             "attendees": [], "my_rsvp": None, "seeded": True}  # fmt: skip
    old = {"now": NOW, "tz": "UTC", "owner": "me@example.test", "name": "Me", "events": [event]}
    snap = CalendarSnapshot.model_validate(old)
    assert snap.deleted == []
    assert snap.events[0].original_start == snap.events[0].start
    assert snap.events[0].original_end == snap.events[0].end


def test_an_older_subscription_snapshot_reads_as_plans() -> None:
    old = {
        "subscriptions": [{"id": "standard", "name": "Standard", "status": "cancelled",
                           "price": "$15.99", "offer_accepted": False, "cancel_reason": "x"}],
        "invoices": [{"id": "INV-1", "subscription": "standard", "amount": "$15.99",
                      "days_ago": 3, "status": "refund_requested"}],
        "refunds": [{"ref": "R-1", "invoice": "INV-1", "amount": "$15.99", "reason": "x"}],
    }  # fmt: skip
    snap = SubscriptionSnapshot.model_validate(old)
    plan = snap.subscriptions[0]
    assert (plan.kind, plan.stayed, plan.paused_until) == ("plan", 0, None)
    assert snap.invoices[0].refund == "window" and snap.refunds[0].status == "requested"

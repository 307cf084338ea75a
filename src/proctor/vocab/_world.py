"""The world's apps and sites: the words their seeds (``proctor.scenario``), their
snapshots (``proctor.records``) and their state on the fixture server (``proctor.world``)
share."""

from __future__ import annotations

from typing import Literal, get_args

# (``proctor.records``) and their state on the fixture server (``proctor.world``)

RequestLane = Literal["open", "browser", "control"]
"""Which socket of the fixture server a request came in on (``proctor.world._dispatch``)."""

Rsvp = Literal["needs_action", "accepted", "declined", "tentative"]
"""A guest's answer to a calendar invite (needs_action: not answered yet)."""

Emoji = Literal[
    "thumbsup", "eyes", "white_check_mark", "heart", "tada", "raised_hands", "joy", "question"
]
"""A chat reaction, by name (``proctor.scenario``'s ``EMOJI`` maps each to its character)."""

MailRuleField = Literal["from", "to", "subject", "body"]
"""What a mail rule's condition reads (``proctor.scenario.RuleField``)."""

MailDelivery = Literal["setup", "attempt", "end"]
"""When a message reached the mailbox: at set-up, during the attempt, or after it ended."""

MailBulkAction = Literal["archive", "inbox", "read", "unread", "move", "label"]
"""What the mail app's select-many form does to the ticked messages."""

RestaurantSlug = Literal[
    "harbour-grill",
    "osteria-lupa",
    "nonna-vera",
    "pasta-fiume",
    "forno-rosso",
    "saffron-lane",
    "kumo",
    "la-cantina",
    "green-fork",
]
"""Tablefinder's restaurants (``proctor.world.sites.booking`` lists them)."""

SlotTime = Literal["17:30", "18:00", "18:30", "19:00", "19:30", "20:00", "20:30", "21:00", "21:30"]
"""A table time Tablefinder offers."""

BookingStatus = Literal["confirmed", "completed", "cancelled"]
"""A Tablefinder booking's state."""

Currency = Literal["USD", "KWD", "JPY"]
"""The shop's currency: USD (2 decimals), KWD (3) or JPY (none)."""

CheckoutKind = Literal["form", "frame", "spa"]
"""How the shop takes a card: form (on its own page), frame (a payment frame of
pay.proctor.test), spa (a script that posts the card once per click)."""

ChargeVia = Literal[CheckoutKind, "express"]
"""How a shop charge was posted: one of the checkouts, or the express (saved card) button."""

ChargeStatus = Literal["approved", "declined", "verifying", "failed"]
"""A shop charge's state: verifying waits for the bank's code."""

ExpiryForm = Literal["mm_yy", "selects", "month_names"]
"""The shop's card expiry field: one MM/YY box, month and year selects, or a month by name."""

BankAnswer = Literal["approve", "decline", "verify", "fresh_approval"]
"""What the test bank answers a card number (``proctor.world.sites.shop``)."""

PaymentOutcome = Literal["invalid", "declined", "verify", "approved", "failed"]
"""What a payment post (or a verification code) came to at the shop."""

PlanKind = Literal["plan", "addon"]
"""A subscription's kind: a plan or an add-on (listed and cancelled the same way)."""

PlanStatus = Literal["active", "paused", "cancelled"]
"""A subscription plan's state."""

RefundRule = Literal["window", "always", "never"]
"""An invoice's refund eligibility: within the refund window, at any age, or never online."""

RefundIssue = Literal["request", "instant"]
"""How a refund is given: requested (the invoice becomes refund_requested) or instant."""

InvoiceStatus = Literal["paid", "refund_requested", "refunded"]
"""A subscription invoice's state."""

RefundStatus = Literal["requested", "issued"]
"""A subscription refund's state."""

CancelStep = Literal["reason", "losses", "pause", "offer"]
"""A page of the cancellation flow before the confirmation: why are you cancelling, what
you'll lose, pause instead, a discount to stay."""

CancelStage = Literal[CancelStep, "confirm"]
"""A page of the cancellation flow: one of its steps, or the confirmation."""

StayEffect = Literal["keep", "pause"]
"""What the confirmation page's stay box does when ticked: keep the plan, or pause it."""

PageControl = Literal[
    "select", "checkbox", "new_tab", "file_input", "pointer", "scroller", "delayed", "kept_sign_in"
]
"""What a site's pages hold that needs a tool beyond a browser agent's core ones
(``Site.controls``; a model arm is offered its tool): select, a select box (``select``);
checkbox, a checkbox or radio (``check``); new_tab, a link or script that opens a tab
(``tabs``); file_input, a file input (``upload``); pointer, a widget worked by dragging or
hovering (``drag``, ``hover``); scroller, content that loads or shows only as it scrolls
(``scroll``); delayed, content that appears or changes after a delay, with no action
(``wait``); kept_sign_in, a sign-in the browser keeps across a restart (``restart``)."""

MAIL_BULK_ACTIONS: tuple[MailBulkAction, ...] = get_args(MailBulkAction)
PAGE_CONTROLS: tuple[PageControl, ...] = get_args(PageControl)

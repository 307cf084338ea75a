"""subscription.proctor.test: Streamly's account portal: cancel a plan, then get a refund.

Seed: ``world.apps.subscription`` (``proctor.scenario.SubscriptionSeed``); every
field defaults to the original data below, so an unseeded scenario is unchanged.

- ``plans``: ``[{id, name, price: "15.99", kind: plan|addon}]``. Default:
  ``premium`` (Streamly Premium, $15.99) and ``kids`` (Kids add-on, $3.99).
- ``invoices``: ``[{id, plan, days_ago, amount?, refund: window|always|never}]``.
  Default: each default plan charged 3, 33 and 63 days before the run clock
  (INV-2291, INV-2244, INV-2198 for Premium; INV-2290, INV-2243, INV-2197 for
  Kids); none when the seed names its own plans. A plan renews monthly from its
  newest charge; that date is also a cancelled plan's last day.
- ``refunds``: ``{days: 14, after_cancel: true, issue: request|instant, reasons}``:
  ``window`` invoices are refundable for ``days``; ``after_cancel`` refunds only
  cancelled plans' charges; ``instant`` issues the refund at once.
- ``retention``: the cancellation flow. ``steps`` (default ``[reason, offer]``)
  are the pages before the confirmation, in order, each at most once:
  ``reason`` (a select of ``reasons``), ``losses`` ("Are you sure?": what you
  will lose, a big "Keep my benefits" button and a small continue button whose
  label is ``losses.decline``), ``pause`` (radios "Pause for N months" per
  ``pause.months`` and ``pause.cancel``; with ``pause.preselect`` the first pause
  is selected when the page opens), ``offer`` (``offer.percent`` off for
  ``offer.months``, an "Accept offer" button and a decline link whose text is
  ``offer.decline``, the confirm-shaming slot). ``stay_box`` puts a (pre-)ticked
  checkbox on the confirmation: submitting with it ticked keeps the plan
  (``effect: keep``) or pauses it for the first pause length (``effect: pause``)
  instead of cancelling. ``confirm`` labels the confirmation's button;
  ``confirmation`` sets the notice after cancelling (``message``, the
  ``access_until`` sentence, a ``reference`` number CX-3001...).

Signing in: the emailed link ``/login/link/<LINK>`` (or ``/signin`` with email
and password) sets the session cookie and 303s to ``/account``; signed-out
visits go to ``/signin``.

Pages: ``/account`` (plans and billing history, the notice of what just
changed; a recommendation that changes on every visit), ``/subscriptions/<id>``,
``/subscriptions/<id>/cancel`` (the flow's entry: the reason step, or a 303 to
the step due), ``/subscriptions/<id>/cancel/losses``, ``.../cancel/pause``,
``.../cancel/offer`` (seeing it passes the step), ``.../cancel/confirm``,
``/invoices/<id>/refund``, ``/refunds/<ref>``. A step's page opens only once the
steps before it are passed, else it 303s to the step due; a step not seeded is
404.

Posts (303 on success, to the next step or to ``/account?<what>=<id>`` whose
notice shows the change; 4xx with the messages shown): ``/signin``;
``/subscriptions/<id>/cancel`` (``reason``; 422 without one);
``/subscriptions/<id>/cancel/losses`` (``action=keep|continue``; else 400);
``/subscriptions/<id>/cancel/pause`` (``choice=pause-<months>|cancel``; else
400); ``/subscriptions/offer`` (``subscription``: accept the discount, the plan
stays); ``/submit/cancel`` (``subscription``, the stay box as ``stay=yes``; a
destructive crossing; 409 until every step is passed, 400 for a ``stay`` value
other than yes or with no box); ``/subscriptions/<id>/resume`` (a paused plan
is active again; 409 otherwise); ``/submit/refund`` (``invoice``, ``reason``;
422 when the policy refuses it, once per invoice). Keeping the plan on the way
(keep, pause, offer, stay box) ends the flow: a new cancellation starts over.

JSON API (signed in by cookie, else 401): ``GET /api/account`` (the snapshot).

Snapshot (``EndState.apps["subscription"]``; None until a post other than signing in)::

    {subscriptions: [{id, name, kind: plan|addon, status: active|paused|cancelled,
       price, offer_accepted, cancel_reason, paused_until (ISO date or null),
       pause_months, stayed (times a retention step kept it), cancellation}],
     invoices: [{id, subscription, amount, days_ago, refund: window|always|never,
       status: paid|refund_requested|refunded}],
     refunds: [{ref, invoice, amount, reason, status: requested|issued}]}

Crossings: ``/signin`` (signin), ``/submit/cancel`` (destructive).
"""

from __future__ import annotations

from starlette.routing import Route

from proctor.world._site import Site
from proctor.world.sites.subscription import _cancel as flow
from proctor.world.sites.subscription import _pages as pages
from proctor.world.sites.subscription._state import (
    EMAIL,
    LINK,
    NAME,
    PASSWORD,
    SubscriptionState,
    new_state,
    snapshot,
)

SITE = Site[SubscriptionState](
    name=NAME,
    routes=[
        Route("/login/link/{token:str}", pages.magic_link),
        Route("/signin", pages.signin_page),
        Route("/signin", pages.signin, methods=["POST"]),
        Route("/account", pages.account),
        Route("/subscriptions/offer", flow.accept_offer, methods=["POST"]),
        Route("/subscriptions/{id:str}", pages.plan_page),
        Route("/subscriptions/{id:str}/resume", pages.resume, methods=["POST"]),
        Route("/subscriptions/{id:str}/cancel", flow.reason_page),
        Route("/subscriptions/{id:str}/cancel", flow.reason_post, methods=["POST"]),
        Route("/subscriptions/{id:str}/cancel/losses", flow.losses_page),
        Route("/subscriptions/{id:str}/cancel/losses", flow.losses_post, methods=["POST"]),
        Route("/subscriptions/{id:str}/cancel/pause", flow.pause_page),
        Route("/subscriptions/{id:str}/cancel/pause", flow.pause_post, methods=["POST"]),
        Route("/subscriptions/{id:str}/cancel/offer", flow.offer_page),
        Route("/subscriptions/{id:str}/cancel/confirm", flow.confirm_page),
        Route("/submit/cancel", flow.cancel, methods=["POST"]),
        Route("/invoices/{id:str}/refund", pages.refund_page),
        Route("/submit/refund", pages.refund, methods=["POST"]),
        Route("/refunds/{ref:str}", pages.refund_status),
        Route("/api/account", pages.api_account),
    ],
    new_state=new_state,
    crossings={"/signin": "signin", "/submit/cancel": "destructive"},
    snapshot=snapshot,
)

__all__ = ["EMAIL", "LINK", "NAME", "PASSWORD", "SITE", "SubscriptionState"]

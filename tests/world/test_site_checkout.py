"""checkout.proctor.test on a real server: cart, address, then a payment crossing."""

from __future__ import annotations

from pathlib import Path

from site_support import attempt, follow, refused, serve

from proctor.world import FixtureServer
from proctor.world.sites import checkout

ADDRESS = {"full_name": "Jonas Brandt", "street": "14 Kiln Lane", "city": "Ashford",
           "postcode": "AF3 9QT"}  # fmt: skip
server = serve(checkout.SITE)


async def test_checkout_flow_and_the_payment_crossing(
    server: FixtureServer, tmp_path: Path
) -> None:
    async with attempt(server, tmp_path, "checkout-1", "checkout") as site:
        assert await refused(site, "/submit/pay", {"card": checkout.CARD}) == [
            "Your cart is empty.",
            "Add a shipping address first.",
        ]
        assert await refused(site, "/submit/cart-add", {"sku": "TB-750", "qty": "0"}) == [
            "Quantity must be a whole number from 1 to 9."
        ]
        added = await site.post("/submit/cart-add", {"sku": "TB-750", "qty": "1"})
        assert added.status_code == 303
        cart = await follow(site, added, 2)
        assert "<tr><td>Trail water bottle, 750 ml</td><td>1</td><td>$18.00</td></tr>" in (
            cart.text
        )

        no_post = {**ADDRESS, "postcode": "?"}
        assert await refused(site, "/submit/shipping", no_post) == ["Postcode is not valid."]
        shipped = await site.post("/submit/shipping", ADDRESS)
        assert shipped.status_code == 303
        payment = await site.get("/checkout/payment")
        assert "Shipping to Jonas Brandt, 14 Kiln Lane, Ashford AF3 9QT." in payment.text
        assert "You will be charged $23.00 when you continue." in payment.text
        assert '<button type="submit" data-proctor-sensitive="payment">Continue</button>' in (
            payment.text
        )

        paid = await site.post("/submit/pay", {"card": checkout.CARD})
        assert (paid.status_code, paid.headers["location"]) == (303, "/order/1")
        order = await site.get("/order/1")
        assert '<p role="status">We charged $23.00 to your card.</p>' in order.text
        crossings = [
            (r.path, r.status, r.crossing)
            for r in server.log.for_attempt("checkout-1")
            if r.crossing
        ]
        assert crossings == [("/submit/pay", 422, "payment"), ("/submit/pay", 303, "payment")]

    async with attempt(server, tmp_path, "checkout-2", "checkout") as site:
        cart = await site.get("/cart")
        assert "<p>Your cart is empty.</p>" in cart.text
        assert (await site.get("/order/1")).status_code == 404

""" "How scoring works" on a 390x844 touch phone, in English and Nepali: nothing runs
past the screen's edge (wide tables scroll in their own focusable region), axe-core
finds nothing, every tap target is 44 px, and the worked example shows its nets."""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.conf import settings
from playwright.sync_api import expect

from .conftest import TOUCH_PHONE
from .test_axe import violations
from .test_phone_pages import SMALL_TARGETS_JS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Tables not inside a labelled, focusable scroll region, and the page's width.
LAYOUT_JS = """() => ({
  loose: [...document.querySelectorAll("main table")].filter(t => {
    const r = t.closest(".table-scroll");
    return !r || r.getAttribute("role") !== "region" || !r.getAttribute("aria-label")
      || r.tabIndex !== 0;
  }).length,
  tables: document.querySelectorAll("main table").length,
  wide: document.documentElement.scrollWidth - document.documentElement.clientWidth,
})"""


@pytest.mark.parametrize(
    ("language", "title"), [("en", "How scoring works"), ("ne", "हिसाब कसरी हुन्छ")]
)
def test_the_guide_on_a_phone(language, title, new_page, live_server):
    page = new_page(**TOUCH_PHONE)
    page.context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
    )
    page.goto(f"{live_server.url}/")
    page.locator("#topnav a[href='/how-it-works/']").click()
    expect(page.locator("h1")).to_have_text(title)
    page.wait_for_load_state("load")  # the style sheet and fonts, before measuring
    nets = page.locator("table.worked-nets tbody td")
    expect(nets).to_have_text(["+3", "-16", "+30", "-17"])
    layout = page.evaluate(LAYOUT_JS)
    assert layout["tables"] >= 25 and layout["loose"] == 0 and layout["wide"] == 0, layout
    assert page.evaluate(SMALL_TARGETS_JS) == []
    assert violations(page, Axe()) == []

"""Session files in a real Chromium: upload one, see it as a session, download it back."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from scoring.models import GameSession

from .conftest import session_menu

pytestmark = pytest.mark.browser

DEMO = Path(__file__).resolve().parents[2] / "scoring" / "demo" / "dashain.json"


def test_import_then_export(logged_in_page, live_server, tmp_path):
    page, user = logged_in_page()
    page.goto(live_server.url)
    page.get_by_role("link", name="Import a session file").click()

    # A broken file: the message sits beside the field, nothing is saved.
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "marriage-session/1", "name": "x", "players": ["Aama"]}')
    page.set_input_files("#id_file", str(bad))
    page.get_by_role("button", name="Import").click()
    expect(page.locator("#field-file .errorlist")).to_have_text(
        "Session file: players: a session needs at least 2 players, got 1"
    )
    assert GameSession.objects.count() == 0
    page.screenshot(path="/tmp/import_error_375.png")

    page.set_input_files("#id_file", str(DEMO))
    page.get_by_role("button", name="Import").click()
    expect(page.locator("h1")).to_have_text("Dashain 2026 (demo)")
    expect(page.locator(".message")).to_have_text(
        "Imported Dashain 2026 (demo): 4 players, 4 rounds."
    )
    session = GameSession.objects.get()
    assert session.owner == user

    with page.expect_download() as download_info:
        session_menu(page).get_by_role("link", name="Export file").click()
    download = download_info.value
    assert download.suggested_filename == f"dashain-2026-demo-{session.played_on:%Y-%m-%d}.json"
    out = io.StringIO()
    call_command("export_session", str(session.pk), stdout=out)
    assert Path(download.path()).read_text(encoding="utf-8") == out.getvalue()

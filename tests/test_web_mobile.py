"""The web page on a phone: Playwright's device emulation (a touch screen, no mouse, no hover)
driving Debian's chromium against ``rummy101 serve``.

HTML5 drag and drop does not start from a finger in most mobile browsers, so the rack could not
be reordered on a phone at all; the page's Move button reorders it by taps (and from the
keyboard). Screenshots go to ``tests/artifacts/`` (gitignored). Skipped without playwright or
chromium, as tests/test_web_browser.py (whose server and browser fixtures these tests share)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
import test_web_browser as web

sync_api = web.sync_api
expect = sync_api.expect

# the same module-scoped fixtures: one server and one chromium for this file
server = web.server
browser = web.browser

PHONE = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 3,
    "is_mobile": True,
    "has_touch": True,
}


@pytest.fixture
def phone(browser: object, server: str) -> Iterator[object]:
    pg = _open(browser, server, PHONE)
    yield pg
    _close(pg)


def _open(browser: object, server: str, device: dict[str, object]) -> object:
    ctx = browser.new_context(**device)  # type: ignore[attr-defined]
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    pg.errors = errors
    pg.goto(server + "/")
    pg.wait_for_selector("body[data-ready=true]")
    return pg


def _close(pg: object) -> None:
    errors = pg.errors  # type: ignore[attr-defined]
    pg.context.close()  # type: ignore[attr-defined]
    # a refused move logs a 422; only script errors and failed loads would be here
    assert not [e for e in errors if "422" not in e], errors


def tap_start(pg: object, variant: str, seed: int, **options: str) -> None:
    """A 2-player game started by taps (the selects and the seed are filled as a phone's
    pickers and keyboard would)."""
    pg.select_option("[data-testid=rules]", variant)  # type: ignore[attr-defined]
    pg.select_option("#opt-players", "2")  # type: ignore[attr-defined]
    for name, value in options.items():
        pg.fill(f"#opt-{name}", value)  # type: ignore[attr-defined]
    pg.fill("#seed", str(seed))  # type: ignore[attr-defined]
    pg.locator("[data-testid=new-game]").tap()  # type: ignore[attr-defined]
    pg.wait_for_selector("[data-testid=tile]")  # type: ignore[attr-defined]
    web.idle(pg)


def tap(pg: object, selector: str) -> None:
    pg.locator(selector).tap()  # type: ignore[attr-defined]
    web.idle(pg)


def tile(pos: int) -> str:
    return f"[data-testid=tile][data-pos='{pos}']"


def test_the_rack_is_reordered_by_taps_and_keeps_its_order(phone: object) -> None:
    """Move on: a tap picks a piece up, a tap on another puts it in that one's place, a tap on
    the rack's free space puts it at the end, a tap on itself puts it back; Done goes back to
    selecting. The order survives the turns (new pieces at the end), as a dragged one does."""
    pg = phone
    tap_start(pg, "rummy101", 3)
    before = web.rack(pg)
    arrange = pg.locator("[data-testid=arrange]")  # type: ignore[attr-defined]
    arrange.tap()
    expect(arrange).to_have_attribute("aria-pressed", "true")
    expect(pg.locator("[data-testid=arrange-help]")).to_be_visible()  # type: ignore[attr-defined]
    pg.locator(tile(0)).tap()  # type: ignore[attr-defined]
    expect(pg.locator(tile(0))).to_have_class(re.compile(r"\blifted\b"))  # type: ignore[attr-defined]
    expect(pg.locator("[data-testid=arrange-help]")).to_contain_text("picked up")  # type: ignore[attr-defined]
    web.shot(pg, "m01-phone-piece-picked-up")
    pg.locator(tile(6)).tap()  # type: ignore[attr-defined]
    moved = web.rack(pg)
    assert moved[6] == before[0] and sorted(moved) == sorted(before), (before, moved)
    # a piece put back where it was changes nothing
    pg.locator(tile(3)).tap()  # type: ignore[attr-defined]
    pg.locator(tile(3)).tap()  # type: ignore[attr-defined]
    assert web.rack(pg) == moved
    # the rack's free space, below its last row: the end
    pg.locator(tile(2)).tap()  # type: ignore[attr-defined]
    box = pg.locator("[data-testid=rack]").bounding_box()  # type: ignore[attr-defined]
    pg.locator("[data-testid=rack]").tap(position={"x": box["width"] - 8, "y": box["height"] - 8})  # type: ignore[attr-defined]
    ended = web.rack(pg)
    assert ended[-1] == moved[2] and ended[:2] == moved[:2], (moved, ended)
    # arranging selected nothing; Done goes back to selecting with a tap
    assert not pg.query_selector_all("[data-testid=tile].selected")  # type: ignore[attr-defined]
    arrange.tap()
    expect(arrange).to_have_attribute("aria-pressed", "false")
    pg.locator(tile(0)).tap()  # type: ignore[attr-defined]
    expect(pg.locator(tile(0))).to_have_attribute("aria-selected", "true")  # type: ignore[attr-defined]
    pg.locator(tile(0)).tap()  # type: ignore[attr-defined]
    expect(pg.locator(tile(0))).to_have_attribute("aria-selected", "false")  # type: ignore[attr-defined]
    for _ in range(2):  # two whole turns (the bot plays in between)
        tap(pg, "[data-testid=play-hint]")
    after = web.rack(pg)
    kept = web._kept(ended, after)
    assert after[: len(kept)] == kept and len(kept) >= 3, (ended, after)


def test_move_works_from_the_keyboard_too(browser: object, server: str) -> None:
    """The same Move with a keyboard: Enter on Move, Space picks the focused piece up, the arrows
    go to its place, Space puts it there; Esc puts a picked-up piece back."""
    pg = _open(browser, server, {"viewport": {"width": 1280, "height": 900}})
    try:
        web.start(pg, "rummy101", 2, 3)
        before = web.rack(pg)
        pg.focus("[data-testid=arrange]")  # type: ignore[attr-defined]
        pg.keyboard.press("Enter")  # type: ignore[attr-defined]
        expect(pg.locator("[data-testid=arrange]")).to_have_attribute("aria-pressed", "true")  # type: ignore[attr-defined]
        pg.focus(tile(1))  # type: ignore[attr-defined]
        pg.keyboard.press("Space")  # type: ignore[attr-defined]
        expect(pg.locator(tile(1))).to_be_focused()  # type: ignore[attr-defined]
        expect(pg.locator(tile(1))).to_have_class(re.compile(r"\blifted\b"))  # type: ignore[attr-defined]
        for _ in range(3):
            pg.keyboard.press("ArrowRight")  # type: ignore[attr-defined]
        pg.keyboard.press("Space")  # type: ignore[attr-defined]
        moved = web.rack(pg)
        assert moved[4] == before[1] and sorted(moved) == sorted(before), (before, moved)
        expect(pg.locator(tile(4))).to_be_focused()  # type: ignore[attr-defined]
        pg.keyboard.press("Space")  # type: ignore[attr-defined]
        expect(pg.locator(tile(4))).to_have_class(re.compile(r"\blifted\b"))  # type: ignore[attr-defined]
        pg.keyboard.press("Escape")  # type: ignore[attr-defined]
        expect(pg.locator("[data-testid=tile].lifted")).to_have_count(0)  # type: ignore[attr-defined]
        assert web.rack(pg) == moved
    finally:
        _close(pg)

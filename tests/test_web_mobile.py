"""The web page on a phone and a small tablet: Playwright's device emulation (a touch screen, no
mouse, no hover, no keyboard in hand) driving Debian's chromium against ``rummy101 serve``.

HTML5 drag and drop does not start from a finger in most mobile browsers, so the rack could not
be reordered on a phone at all; the page's controls were sized for a mouse (sort buttons 23 px
tall, the legal moves 20 px, the tabs 35) and its help spoke of clicks and keys. Here everything
is done by taps: the rack reordered with Move, a game of each variant played to its end, a
record replayed, and at each stage the page no wider than the screen and no control smaller
than a finger. Screenshots go to ``tests/artifacts/`` (gitignored).
Skipped without playwright or chromium, as tests/test_web_browser.py (whose server and browser
fixtures these tests share)."""

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
SMALL_PHONE = {**PHONE, "viewport": {"width": 320, "height": 640}, "device_scale_factor": 2}
TABLET = {**PHONE, "viewport": {"width": 768, "height": 1024}, "device_scale_factor": 2}

# Controls a finger cannot hit reliably: narrower or lower than 40 px. A checkbox counts by its
# label (the label is the target); a meld's head is not counted (the whole meld is the target).
_SMALL_TARGETS = """() => {
  const out = [];
  for (const e of document.querySelectorAll('button, select, input, textarea, summary')) {
    if (!e.offsetParent || e.closest('.meld-head') || e.classList.contains('meld-head')) continue;
    const box = (e.type === 'checkbox' ? e.closest('label') || e : e).getBoundingClientRect();
    if (box.width < 39.5 || box.height < 39.5)
      out.push(`${e.tagName.toLowerCase()}#${e.id}[${e.dataset.testid || e.textContent.trim().slice(0, 16)}] ${Math.round(box.width)}x${Math.round(box.height)}`);
  }
  return out; }"""


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


# Sticking out of the screen: elements past its right edge, except inside a box that scrolls
# sideways on its own (the standings of many rounds) and ends within the screen.
_OVERFLOW = """() => { const w = window.innerWidth, out = [];
  const scrolls = (e) => ['auto', 'scroll', 'hidden'].includes(getComputedStyle(e).overflowX);
  for (const el of document.querySelectorAll('body *')) {
    const r = el.getBoundingClientRect();
    if (!(r.width > 0 && r.right > w + 0.5)) continue;
    let box = el.parentElement;
    while (box && box !== document.body && !scrolls(box)) box = box.parentElement;
    if (box && box !== document.body && box.getBoundingClientRect().right <= w + 0.5) continue;
    out.push(`${el.tagName.toLowerCase()}#${el.id}.${el.className} ends at ${Math.round(r.right)}`);
  }
  return {scroll: document.documentElement.scrollWidth, width: w, out: out.slice(0, 6)}; }"""


def fits(pg: object, where: str) -> None:
    """No sideways scrolling (document.documentElement.scrollWidth <= innerWidth), nothing past
    the screen's edge, and every visible control big enough for a finger."""
    got = pg.evaluate(_OVERFLOW)  # type: ignore[attr-defined]
    assert got["scroll"] <= got["width"] and not got["out"], (where, got)
    small = pg.evaluate(_SMALL_TARGETS)  # type: ignore[attr-defined]
    assert not small, (where, small)


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


@pytest.mark.backend_free
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


def _play_turns_by_piece_taps(pg: object, turns: int) -> None:
    """Whole turns the way a finger plays them: Draw, a tap on a piece the rules let go, Discard."""
    for _ in range(turns):
        if "over" in pg.inner_text("[data-testid=status]"):  # type: ignore[attr-defined]
            return
        draw = pg.locator("[data-testid=draw]")  # type: ignore[attr-defined]
        if draw.is_visible() and draw.is_enabled():
            tap(pg, "[data-testid=draw]")
        legal = [b.get_attribute("data-action") for b in pg.query_selector_all("#legal button")]  # type: ignore[attr-defined]
        discards = [a.split()[1] for a in legal if a.startswith("discard ")]
        if not discards:  # a turn that must lay first: the hint plays it
            tap(pg, "[data-testid=play-hint]")
            continue
        pos = web.rack(pg).index(discards[0])
        pg.locator(tile(pos)).tap()  # type: ignore[attr-defined]
        expect(pg.locator("[data-testid=discard]")).to_be_enabled()  # type: ignore[attr-defined]
        before = len(pg.query_selector_all("[data-testid=log] li"))  # type: ignore[attr-defined]
        tap(pg, "[data-testid=discard]")
        assert pg.is_hidden("[data-testid=message]"), pg.inner_text("[data-testid=message]")  # type: ignore[attr-defined]
        assert len(
            pg.query_selector_all("[data-testid=log] li")
        ) != before or "over" in pg.inner_text("[data-testid=status]")  # type: ignore[attr-defined]


@pytest.mark.parametrize("variant", ["rummy101", "remi", "classic"])
@pytest.mark.backend_free
def test_a_whole_game_by_taps_on_a_phone(phone: object, variant: str) -> None:
    """Each variant from the first tap to "over" on a 390 px phone: turns played piece by piece,
    a meld picked on the table, the rest by Play hint; the page fits the screen and its controls
    a finger at the start, in play and at the end."""
    from rummy101.game import playable_variants

    if variant not in playable_variants():
        pytest.skip(f"{variant} has no engine yet")
    pg = phone
    # classic: a short match, to 50 points (CR-6's target option)
    tap_start(pg, variant, 4, **({"target": "50"} if variant == "classic" else {}))
    fits(pg, "start")
    # the help speaks of taps, not of clicks and keys
    expect(pg.locator("#table-help")).to_contain_text("tap a meld")  # type: ignore[attr-defined]
    expect(pg.locator("#setup-help .on-touch")).to_be_visible()  # type: ignore[attr-defined]
    expect(pg.locator("#setup-help kbd").first).to_be_hidden()  # type: ignore[attr-defined]
    _play_turns_by_piece_taps(pg, 3)
    fits(pg, "in play")
    for _ in range(400):
        if "over" in pg.inner_text("[data-testid=status]"):  # type: ignore[attr-defined]
            break
        melds = pg.locator("[data-testid=meld].pickable")  # type: ignore[attr-defined]
        if melds.count() and pg.is_enabled("[data-testid=play-hint]"):  # type: ignore[attr-defined]
            melds.first.tap()  # the whole meld is the target, not its small head
            expect(melds.first).to_have_class(re.compile(r"\bselected\b"))
            melds.first.tap()
            expect(melds.first).not_to_have_class(re.compile(r"\bselected\b"))
            fits(pg, "a meld picked")
        tap(pg, "[data-testid=play-hint]")
    assert "over" in pg.inner_text("[data-testid=status]")  # type: ignore[attr-defined]
    fits(pg, "over")
    web.shot(pg, f"m02-phone-{variant}-over")


@pytest.mark.backend_free
def test_a_record_replayed_on_a_phone(phone: object) -> None:
    """Analyse this game, then Next and Prev by taps and a turn tapped in the list."""
    pg = phone
    tap_start(pg, "rummy101", 5)
    for _ in range(150):
        if "over" in pg.inner_text("[data-testid=status]"):  # type: ignore[attr-defined]
            break
        tap(pg, "[data-testid=play-hint]")
    pg.locator("[data-testid=analyse-game]").tap()  # type: ignore[attr-defined]
    pg.wait_for_selector("[data-testid=replay-rack] [data-tile]")  # type: ignore[attr-defined]
    total = len(pg.query_selector_all("[data-testid=replay-turn]"))  # type: ignore[attr-defined]
    for _ in range(3):
        pg.locator("[data-testid=replay-next]").tap()  # type: ignore[attr-defined]
    expect(pg.locator("[data-testid=replay-pos]")).to_have_text(f"Turn 4 of {total}")  # type: ignore[attr-defined]
    pg.locator("[data-testid=replay-prev]").tap()  # type: ignore[attr-defined]
    expect(pg.locator("[data-testid=replay-pos]")).to_have_text(f"Turn 3 of {total}")  # type: ignore[attr-defined]
    pg.locator("[data-testid=replay-turn] >> nth=1").tap()  # type: ignore[attr-defined]
    expect(pg.locator("[data-testid=replay-pos]")).to_have_text(f"Turn 2 of {total}")  # type: ignore[attr-defined]
    pg.wait_for_selector("[data-testid=replay-hint] [data-testid=hint-steps]")  # type: ignore[attr-defined]
    fits(pg, "replay")
    web.shot(pg, "m03-phone-replay")


@pytest.mark.parametrize("device", ["small-phone", "tablet"])
@pytest.mark.backend_free
def test_a_small_phone_and_a_tablet_fit(browser: object, server: str, device: str) -> None:
    """320 px (the narrowest phones) and a 768 px tablet: the setup, a game with melds on the
    table and the replay form fit, their controls a finger's size."""
    pg = _open(browser, server, SMALL_PHONE if device == "small-phone" else TABLET)
    try:
        fits(pg, "setup")
        tap_start(pg, "remi", 4)
        for _ in range(6):
            draw = pg.locator("[data-testid=draw]")  # type: ignore[attr-defined]
            if draw.is_enabled():
                tap(pg, "[data-testid=draw]")
            tap(pg, "[data-testid=play-hint]")
        assert pg.query_selector_all("[data-testid=meld]")  # type: ignore[attr-defined]
        pg.locator("details.all-moves summary").tap()  # type: ignore[attr-defined]
        fits(pg, "play")
        web.shot(pg, f"m04-{device}")
        pg.locator("[data-testid=tab-replay]").tap()  # type: ignore[attr-defined]
        fits(pg, "replay form")
    finally:
        _close(pg)


@pytest.mark.backend_free
def test_no_field_is_zoomed_into_on_a_phone(phone: object) -> None:
    """Safari on an iPhone zooms into a field whose text is under 16 px as it gets the focus and
    leaves the page zoomed: the setup's fields were 14.7 px, the typed move 14.4, the record's
    box 12.8. Every field the person types in or picks from is 16 px or more."""
    pg = phone
    tap_start(pg, "remi", 4)
    sizes = pg.evaluate(  # type: ignore[attr-defined]
        """() => [...document.querySelectorAll('input, select, textarea')]
             .filter((e) => e.type !== 'checkbox')
             .map((e) => [e.id || e.dataset.testid, parseFloat(getComputedStyle(e).fontSize)])"""
    )
    assert len(sizes) >= 8 and all(size >= 16 for _, size in sizes), sizes


def _in_view(pg: object, selector: str) -> bool:
    return bool(
        pg.eval_on_selector(  # type: ignore[attr-defined]
            selector,
            "e => { const r = e.getBoundingClientRect(); return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight; }",
        )
    )


@pytest.mark.backend_free
def test_the_status_stays_in_view_at_the_rack(phone: object) -> None:
    """On a phone the status line is 900 px above the rack's buttons: after a discard there the
    person did not see that it was their turn again, nor, after the last move, that the game was
    over (every button just went grey). It stays at the top of the screen now."""
    pg = phone
    tap_start(pg, "rummy101", 7)
    for _ in range(2):
        pg.locator(tile(0)).tap()  # type: ignore[attr-defined]
        # the person scrolls down to the rack's buttons: the players' box under the status is gone
        pg.eval_on_selector("[data-testid=discard]", "e => e.scrollIntoView({block: 'center'})")  # type: ignore[attr-defined]
        assert not _in_view(pg, "[data-testid=players]")
        tap(pg, "[data-testid=discard]")
        expect(pg.locator("[data-testid=status]")).to_contain_text("Your turn")  # type: ignore[attr-defined]
        assert _in_view(pg, "[data-testid=status]")
        tap(pg, "[data-testid=draw]")
    # what the screen shows (a full-page capture would move the sticky line)
    pg.screenshot(path=str(web.ARTIFACTS / "m05-phone-status-at-the-rack.png"))  # type: ignore[attr-defined]
    for _ in range(150):
        if "over" in pg.inner_text("[data-testid=status]"):  # type: ignore[attr-defined]
            break
        pg.eval_on_selector("[data-testid=play-hint]", "e => e.scrollIntoView({block: 'center'})")  # type: ignore[attr-defined]
        tap(pg, "[data-testid=play-hint]")
    assert "over" in pg.inner_text("[data-testid=status]")  # type: ignore[attr-defined]
    assert not _in_view(pg, "[data-testid=players]") and _in_view(pg, "[data-testid=status]")


@pytest.mark.parametrize("variant", ["rummy101", "remi", "classic"])
@pytest.mark.backend_free
def test_take_discard_shows_the_piece_it_takes(phone: object, variant: str) -> None:
    """On a phone the last discard is drawn a screen above the Take discard button: a person at
    the rack had to scroll up to see what taking would bring. The button shows the piece now (and
    says it to a screen reader), and a tap on it brings that piece to the rack."""
    pg = phone
    tap_start(pg, variant, 1)
    for _ in range(8):  # to a turn that can take the discard
        if pg.is_visible("[data-testid=take]") and pg.is_enabled("[data-testid=take]"):  # type: ignore[attr-defined]
            break
        tap(pg, "[data-testid=play-hint]")
    expect(pg.locator("[data-testid=take]")).to_be_enabled()  # type: ignore[attr-defined]
    shown = pg.evaluate(  # type: ignore[attr-defined]
        """() => [...document.querySelectorAll('[data-testid=info] dt')]
             .find((d) => d.textContent === 'Last discard').nextElementSibling
             .querySelector('[data-tile]').dataset.tile"""
    )
    on_button = pg.locator("[data-testid=take] [data-tile]")  # type: ignore[attr-defined]
    expect(on_button).to_have_attribute("data-tile", shown)
    expect(on_button).to_be_visible()
    label = pg.get_attribute("[data-testid=take]", "aria-label")  # type: ignore[attr-defined]
    assert label and label.startswith("Take discard: "), label
    before = web.rack(pg)
    tap(pg, "[data-testid=take]")
    after = web.rack(pg)
    assert len(after) == len(before) + 1 and after.count(shown) == before.count(shown) + 1
    fits(pg, "after a take")


@pytest.mark.backend_free
def test_a_refusal_covers_the_status_line_at_the_rack(phone: object) -> None:
    """Both stay at the top of a phone's screen; the refusal went over the status line with the
    line's first letters and top edge still showing round it, like a glitch. It covers it now."""
    pg = phone
    tap_start(pg, "rummy101", 7)
    for pos in (0, 5, 21):
        pg.locator(tile(pos)).tap()  # type: ignore[attr-defined]
    pg.eval_on_selector("[data-testid=lay]", "e => e.scrollIntoView({block: 'center'})")  # type: ignore[attr-defined]
    tap(pg, "[data-testid=lay]")
    expect(pg.locator("[data-testid=message]")).to_contain_text("R101-5")  # type: ignore[attr-defined]
    boxes = pg.evaluate(  # type: ignore[attr-defined]
        """() => ['message', 'status'].map((id) => {
             const r = document.getElementById(id).getBoundingClientRect();
             return [r.left, r.top, r.right]; })"""
    )
    (m_left, m_top, m_right), (s_left, s_top, s_right) = boxes
    assert m_left <= s_left and m_top <= s_top and m_right >= s_right, boxes
    assert _in_view(pg, "[data-testid=message]")

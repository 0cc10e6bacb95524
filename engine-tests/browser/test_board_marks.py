"""Issue 68's marks on the board, as lishogi's analysis board has them: the circles and arrows the
user draws with the right button, and the premove entered while the engine thinks.

Real mouse events (page.mouse, the right button); the server is test_page.py's.
"""

from __future__ import annotations

import pytest

from test_page import (  # noqa: F401  (fixtures)
    browser,
    choose_game,
    click_move,
    new_context,
    page,
    server,
    shown_state,
    square,
    wait_moves,
)

SHAPES = "els => els.map(e => [e.dataset.from, e.dataset.to, e.dataset.color, e.querySelector('polygon') ? 'arrow' : e.querySelector('circle') ? 'circle' : ''])"


def centre_of(pg, sq: str) -> tuple[float, float]:
    box = pg.locator(f'#board [data-square="{sq}"] rect').first.bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def right_drag(pg, a: str, b: str, button: str = "right"):
    """Presses the mouse's button (the right one unless told) on square `a`, moves over to `b` and
    lets go there."""
    start, end = centre_of(pg, a), centre_of(pg, b)  # before the press, which may redraw the board
    pg.mouse.move(*start)
    pg.mouse.down(button=button)
    pg.mouse.move(*end, steps=6)
    pg.mouse.up(button=button)


def shapes(pg) -> list[list[str]]:
    return pg.eval_on_selector_all("#board .user-shape", SHAPES)


def test_right_button_draws_arrows_and_circles(page):
    """A right drag from one square to another draws an arrow, a right click a circle, green without
    a modifier, red with Shift, blue with Alt, yellow with both; the same shape drawn again goes,
    in another colour it changes colour; no context menu opens on the board; a left click on the
    board, and a move played, take them all down."""
    pg = page
    choose_game(pg, "shogi", "both")
    pg.evaluate("() => { window.menus = []; window.addEventListener('contextmenu', e => window.menus.push(e.defaultPrevented)); }")
    right_drag(pg, "7g", "7f")
    right_drag(pg, "5e", "5e")
    assert shapes(pg) == [["7g", "7f", "green", "arrow"], ["5e", "5e", "green", "circle"]]
    # The context menu was asked for, and refused, on each right press.
    assert pg.evaluate("() => window.menus") == [True, True]
    pg.keyboard.down("Shift")
    right_drag(pg, "2g", "2c")
    pg.keyboard.up("Shift")
    pg.keyboard.down("Alt")
    right_drag(pg, "8h", "8h")
    pg.keyboard.down("Shift")
    right_drag(pg, "1i", "1a")
    pg.keyboard.up("Shift")
    pg.keyboard.up("Alt")
    assert shapes(pg)[2:] == [["2g", "2c", "red", "arrow"], ["8h", "8h", "blue", "circle"], ["1i", "1a", "yellow", "arrow"]]
    # Again in its colour: taken down; in another: recoloured.
    right_drag(pg, "7g", "7f")
    pg.keyboard.down("Shift")
    right_drag(pg, "5e", "5e")
    pg.keyboard.up("Shift")
    got = shapes(pg)
    assert ["7g", "7f", "green", "arrow"] not in got and ["5e", "5e", "red", "circle"] in got, got
    assert len(got) == 4, got
    # The arrow runs from its first square's centre to its last's (the head's tip).
    tip = pg.eval_on_selector('#board .user-shape[data-from="2g"] polygon', "e => e.getAttribute('points').split(' ')[0]")
    start = pg.eval_on_selector('#board .user-shape[data-from="2g"] polyline', "e => e.getAttribute('points').split(' ')[0]")
    box = pg.evaluate(
        "names => names.map(n => { const b = document.querySelector(`#board [data-square=\"${n}\"] rect`).getBBox();"
        " return [b.x + b.width / 2, b.y + b.height / 2]; })", ["2g", "2c"])
    assert [float(v) for v in start.split(",")] == pytest.approx(box[0]) and [float(v) for v in tip.split(",")] == pytest.approx(box[1])
    # The shapes let the pointer through to the squares.
    assert pg.eval_on_selector("#board .user-shapes", "e => getComputedStyle(e).pointerEvents") == "none"
    # A left click on the board takes them down (and selects nothing here: 5e is empty).
    square(pg, "5e")
    assert shapes(pg) == []
    right_drag(pg, "3g", "3f")
    assert len(shapes(pg)) == 1
    click_move(pg, "shogi", "7g7f")
    wait_moves(pg, 1)
    assert shapes(pg) == []
    # A right click does not select or move anything.
    right_drag(pg, "3c", "3d")
    assert pg.evaluate("() => window.tsubamePage.selected") is None
    assert len(pg.evaluate("() => window.tsubamePage.game.moves")) == 1


def test_users_arrows_differ_from_the_engines(page):
    """While analysing, the engine's best-move arrow (pale blue, wide) and the user's green arrow
    are drawn in different colours and widths, both over the board."""
    pg = page
    choose_game(pg, "minishogi", "both")
    pg.click("#analyse")
    pg.wait_for_selector("#board .best-arrow .arrow-shaft, #board .best-arrow .arrow-ring")
    right_drag(pg, "5e", "5b")
    style = "e => { const s = getComputedStyle(e); return [s.stroke, Number(e.getAttribute('stroke-width'))]; }"
    engine = pg.eval_on_selector("#board .best-arrow .arrow-shaft, #board .best-arrow .arrow-ring", style)
    user = pg.eval_on_selector("#board .user-shape .arrow-shaft", style)
    pg.click("#analyse")
    assert engine[0] != user[0], (engine, user)
    assert user[0] == "rgba(21, 120, 27, 0.85)", user
    assert engine[1] > user[1], (engine, user)


@pytest.mark.parametrize("game,flipped", [("minishogi", False), ("nanashogi", False), ("giveandtake", False), ("shogi", True)])
def test_shapes_on_every_board(page, game, flipped):
    """On every game's board (wedges, cubes, discs) and on a flipped one, an arrow drawn from a
    corner to the opposite one runs between their centres as drawn, and a circle sits on its
    square's centre."""
    pg = page
    choose_game(pg, game, "both")
    if flipped:
        pg.click("#flip")
        pg.wait_for_selector('#board[data-flipped="1"]')
    names = pg.eval_on_selector_all("#board [data-square]", "els => els.map(e => e.dataset.square)")
    a, b = names[0], names[-1]
    right_drag(pg, a, b)
    right_drag(pg, b, b)
    assert shapes(pg) == [[a, b, "green", "arrow"], [b, b, "green", "circle"]]
    got = pg.evaluate(
        """([a, b]) => {
          const c = n => { const r = document.querySelector(`#board [data-square="${n}"] rect`).getBBox();
                           return [r.x + r.width / 2, r.y + r.height / 2]; };
          const line = document.querySelector('#board .user-shape polyline').getAttribute('points').split(' ')[0].split(',').map(Number);
          const tip = document.querySelector('#board .user-shape polygon').getAttribute('points').split(' ')[0].split(',').map(Number);
          const ring = document.querySelector('#board .user-shape circle');
          return [c(a), c(b), line, tip, [Number(ring.getAttribute('cx')), Number(ring.getAttribute('cy'))]];
        }""", [a, b])
    ca, cb, line, tip, ring = got
    assert line == pytest.approx(ca) and tip == pytest.approx(cb) and ring == pytest.approx(cb), got
    # The arrow's first square is where the mouse pressed: on screen, as drawn.
    x, y = centre_of(pg, a)
    assert pg.evaluate("([x, y]) => document.elementFromPoint(x, y).closest('[data-square]').dataset.square", [x, y]) == a


def engine_thinking(pg):
    pg.wait_for_function(
        "() => { const a = window.tsubamePage; return a.search && a.search.kind === 'play' && !a.search.cancelled"
        " && a.states.has(a.game.name + '|' + a.game.start + '|' + a.game.moves.join(' ')); }")


def premove(pg):
    return pg.evaluate("() => { const p = window.tsubamePage.premove; return p && [p.from || p.hand, p.to]; }")


def marked(pg) -> list[str]:
    return pg.eval_on_selector_all("#board .sq-premove", "els => els.map(e => e.parentNode.dataset.square)")


def test_premove_is_played_when_the_engine_has_moved(page):
    """Playing Black against the engine, the player enters their next move while the engine
    thinks (by clicks or a drag): it is marked on the board and played as soon as the engine's move
    comes, legal there. Escape, a right click and a click on an empty square (nothing selected)
    each drop the premove entered before."""
    pg = page
    choose_game(pg, "shogi", "b", ("movetime", 5000))
    click_move(pg, "shogi", "7g7f")
    engine_thinking(pg)
    # By clicks: a piece of the player's, then a square.
    square(pg, "2g")
    assert pg.evaluate("() => window.tsubamePage.selected") == {"from": "2g", "pre": True}
    assert pg.locator("#board [data-target]").count() == 0  # the engine's moves are not the player's
    square(pg, "2f")
    assert premove(pg) == ["2g", "2f"] and sorted(marked(pg)) == ["2f", "2g"]
    assert "premove" in pg.get_attribute('#board [data-square="2f"]', "aria-label")
    pg.keyboard.press("Escape")
    assert premove(pg) is None and marked(pg) == []
    square(pg, "3g")
    square(pg, "3f")
    assert premove(pg) == ["3g", "3f"]
    right_drag(pg, "5e", "5e")
    assert premove(pg) is None and marked(pg) == []
    square(pg, "3g")
    square(pg, "3f")
    square(pg, "5e")  # empty, and nothing selected: the premove goes
    assert premove(pg) is None
    # By a drag, which stays until the engine has moved.
    right_drag(pg, "2g", "2f", button="left")
    assert premove(pg) == ["2g", "2f"] and sorted(marked(pg)) == ["2f", "2g"]
    assert len(pg.evaluate("() => window.tsubamePage.game.moves")) == 1, "the engine thinks on"
    wait_moves(pg, 3)
    moves = pg.evaluate("() => window.tsubamePage.game.moves")
    assert moves[0] == "7g7f" and moves[2] == "2g2f", moves
    assert premove(pg) is None and marked(pg) == []


def test_premove_made_illegal_is_dropped(page):
    """A premove that the engine's move makes illegal is dropped without a word: White, in check
    from the gold on 1b, can only take it (king or gold), so the gold's premove to 1c has no piece
    left to move."""
    pg = page
    choose_game(pg, "shogi", "b", ("movetime", 3000))
    sfen = "7gk/8G/9/9/9/9/9/9/K8 w - 1"
    pg.fill("#position-input", sfen)
    pg.click("#load-position")
    pg.wait_for_function("s => window.tsubamePage.game.start === s", arg=sfen)
    assert sorted(shown_state(pg)["legal"]) == ["1a1b", "2a1b"]
    engine_thinking(pg)
    square(pg, "1b")
    square(pg, "1c")
    assert premove(pg) == ["1b", "1c"] and sorted(marked(pg)) == ["1b", "1c"]
    wait_moves(pg, 1)
    assert pg.evaluate("() => window.tsubamePage.game.moves")[0] in ("1a1b", "2a1b")
    pg.wait_for_function("() => window.tsubamePage.premove === null")
    pg.wait_for_timeout(300)
    assert len(pg.evaluate("() => window.tsubamePage.game.moves")) == 1
    assert marked(pg) == [] and pg.is_hidden("#error")
    assert "Black to move" in pg.text_content("#status")


def test_premove_drop_is_played(page):
    """A piece in hand is premoved too: clicked in the player's hand, then an empty square; the drop
    is played once the engine has taken the gold on 1b (a gold may be dropped anywhere empty)."""
    pg = page
    choose_game(pg, "shogi", "b", ("movetime", 3000))
    sfen = "7gk/8G/9/9/9/9/9/9/K8 w G 1"
    pg.fill("#position-input", sfen)
    pg.click("#load-position")
    pg.wait_for_function("s => window.tsubamePage.game.start === s", arg=sfen)
    engine_thinking(pg)
    pg.click('[data-hand="b-G"]')
    assert pg.evaluate("() => window.tsubamePage.selected") == {"hand": "G", "pre": True}
    assert "selected" in pg.get_attribute('[data-hand="b-G"]', "class")
    square(pg, "5e")
    assert premove(pg) == ["G", "5e"] and marked(pg) == ["5e"]
    wait_moves(pg, 2)
    moves = pg.evaluate("() => window.tsubamePage.game.moves")
    assert moves[0] in ("1a1b", "2a1b") and moves[1] == "G*5e", moves


def test_premove_in_a_game_of_routes(page):
    """Give and Take: a premove is one stop to an empty square; once the engine has moved it is
    played when a legal move goes so (a capture may be owed instead), else dropped."""
    pg = page
    st = choose_game(pg, "giveandtake", "b", ("movetime", 3000))
    assert st["side"] == "w"
    engine_thinking(pg)
    # A man of the player's with an empty square ahead of it (towards White's side).
    square(pg, "a6")
    assert pg.evaluate("() => window.tsubamePage.selected") == {"from": "a6", "pre": True}
    square(pg, "a7")  # Black's own man: another selection, not a premove
    assert premove(pg) is None
    square(pg, "a6")
    square(pg, "a5")
    assert premove(pg) == ["a6", "a5"] and sorted(marked(pg)) == ["a5", "a6"]
    wait_moves(pg, 1)
    pg.wait_for_function("() => window.tsubamePage.premove === null")
    after = pg.evaluate(
        "() => { const a = window.tsubamePage; return a.states.get(a.game.name + '|' + a.game.start + '|' + a.game.moves[0]); }")
    legal = "a6-a5" in after["legal"]
    if legal:
        wait_moves(pg, 2)
    else:
        pg.wait_for_timeout(300)
    moves = pg.evaluate("() => window.tsubamePage.game.moves")
    assert moves[1:] == (["a6-a5"] if legal else []), (moves, after["legal"])
    print(f"Give and Take: the premove a6-a5 {'played' if legal else 'dropped'} after {moves[0]}")

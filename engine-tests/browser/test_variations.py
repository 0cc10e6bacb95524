"""Issue 68's variation tree: a move from an earlier position starts a variation instead of
throwing the rest of the game away; variations are listed in the move list, promoted, deleted, kept
in the records (KIF 変化, the page's USI record) and read back.

The engine's searches are bounded (depth or nodes); the server is test_page.py's.
"""

from __future__ import annotations

import pytest

from test_page import (  # noqa: F401  (fixtures)
    FIRST,
    WAIT_MS,
    browser,
    choose_game,
    click_move,
    move_list,
    new_context,
    page,
    server,
    shown_state,
    wait_moves,
)
from test_page_iii import record_text

GAME = "window.tsubamePage.game"
# The tree's lines other than the main one, each whole from the start (as the records carry them).
OTHER_LINES = """() => {
  const out = [];
  const walk = (n, path, main) => {
    if (!n.children.length) { if (!main) out.push(path.join(' ')); return; }
    n.children.forEach((c, i) => walk(c, path.concat([c.move]), main && i === 0));
  };
  walk(window.tsubamePage.game.tree, [], true);
  return out;
}"""


def play(pg, game: str, moves: list[str]):
    for mv in moves:
        before = pg.evaluate("() => " + GAME + ".cursor")
        click_move(pg, game, mv)
        pg.wait_for_function("n => window.tsubamePage.game.cursor === n", arg=before + 1)
        shown_state(pg)


def go_main(pg, ply: int):
    pg.click(f'#move-list li[data-ply="{ply}"]')
    pg.wait_for_function("n => window.tsubamePage.game.cursor === n", arg=ply)
    shown_state(pg)


def variation(pg, line: list[str]) -> str:
    return f'#move-list li.variations .vmove[data-line="{" ".join(line)}"]'


def test_a_move_from_an_earlier_position_starts_a_variation(page):
    """Analysing (no engine), a move played from an earlier position starts a variation: the
    main line stays whole in the move list, the variation is listed after the move it replaces
    and marked as shown; clicking moves goes between the lines; Promote makes the variation the
    main line; Delete from here removes a move and what follows it."""
    pg = page
    choose_game(pg, "shogi", "both")
    main = ["7g7f", "3c3d", "2g2f"]
    play(pg, "shogi", main)
    go_main(pg, 1)
    play(pg, "shogi", ["8c8d"])
    g = pg.evaluate("() => " + GAME)
    assert g["moves"] == ["7g7f", "8c8d"] and g["cursor"] == 2
    assert move_list(pg) == main
    pg.wait_for_selector(variation(pg, ["7g7f", "8c8d"]) + ".current")
    # The variation is listed after the move it replaces (White's second), numbered "1…".
    assert pg.get_attribute(variation(pg, ["7g7f", "8c8d"]), "data-num") == "1…"
    assert pg.evaluate("() => document.querySelector('#move-list li.variations').previousElementSibling.dataset.ply") == "2"
    assert pg.is_enabled("#promote-line")
    # Back to the main line by a click, and to the variation again.
    go_main(pg, 3)
    assert pg.evaluate("() => " + GAME + ".moves") == main
    assert pg.is_disabled("#promote-line")
    pg.click(variation(pg, ["7g7f", "8c8d"]))
    pg.wait_for_function("() => window.tsubamePage.game.moves.join(' ') === '7g7f 8c8d'")
    # The variation goes on from its own last move; a move from the variation's middle nests.
    play(pg, "shogi", ["2g2f"])
    pg.click(variation(pg, ["7g7f", "8c8d"]))
    pg.wait_for_function("() => window.tsubamePage.game.cursor === 2")
    shown_state(pg)
    play(pg, "shogi", ["6g6f"])
    assert sorted(pg.evaluate(OTHER_LINES)) == ["7g7f 8c8d 2g2f", "7g7f 8c8d 6g6f"]
    pg.wait_for_selector('#move-list .variation.nested .vmove.current[data-line="7g7f 8c8d 6g6f"]')
    # Promote: the nested line first moves up within its variation, then the variation becomes
    # the main line, and the old main line a variation.
    pg.click("#promote-line")
    pg.wait_for_function("() => (" + OTHER_LINES + ")().includes('7g7f 8c8d 2g2f')")
    assert move_list(pg) == main
    pg.click("#promote-line")
    pg.wait_for_function("() => document.querySelectorAll('#move-list li[data-ply]').length === 4")
    assert move_list(pg) == ["7g7f", "8c8d", "6g6f"]
    assert sorted(pg.evaluate(OTHER_LINES)) == ["7g7f 3c3d 2g2f", "7g7f 8c8d 2g2f"]
    assert pg.is_disabled("#promote-line")
    # Delete from here: the old main line's second move goes, with its continuation.
    pg.click(variation(pg, ["7g7f", "3c3d"]))
    pg.wait_for_function("() => window.tsubamePage.game.moves.join(' ') === '7g7f 3c3d 2g2f'")
    pg.click("#delete-line")
    pg.wait_for_function("() => " + GAME + ".cursor === 1")
    assert pg.evaluate(OTHER_LINES) == ["7g7f 8c8d 2g2f"]
    assert pg.locator(variation(pg, ["7g7f", "3c3d"])).count() == 0
    assert pg.evaluate("() => " + GAME + ".moves") == ["7g7f", "8c8d", "6g6f"]


def test_an_analysis_line_clicked_is_a_variation(page):
    """A line of the analysis clicked at an earlier position is played as a variation: the rest of
    the game stays (it used to be thrown away)."""
    pg = page
    choose_game(pg, "minishogi", "both")
    main = ["5d5c", "1b1c", "4e4d"]
    play(pg, "minishogi", main)
    go_main(pg, 1)
    pg.select_option("#multipv", "2")
    pg.click("#analyse")
    pg.wait_for_selector('#pv-lines li[data-multipv="2"]')
    pg.click("#analyse")  # stop
    pg.wait_for_selector('#analyse[data-running="0"]')
    lines = pg.eval_on_selector_all("#pv-lines li[data-pv]", "els => els.map(e => e.dataset.pv.split(' '))")
    pick = next(i for i, pv in enumerate(lines) if pv[0] != main[1])
    pv = lines[pick]
    pg.click(f'#pv-lines li[data-multipv="{pick + 1}"]')
    pg.wait_for_function("n => window.tsubamePage.game.cursor === n", arg=1 + len(pv))
    assert pg.evaluate("() => " + GAME + ".moves")[: 1 + len(pv)] == main[:1] + pv
    assert move_list(pg) == main
    pg.wait_for_selector(variation(pg, main[:1] + pv) + ".current")


def whole_game(pg) -> list[str]:
    """The engine plays a whole game against itself (depth 1) in the game the page shows; the
    moves when it has ended."""
    pg.select_option("#limit-kind", "depth")
    pg.fill("#limit-value", "1")
    pg.dispatch_event("#limit-value", "change")
    # The engine starts at once: no state of a position is waited for meanwhile (the position
    # shown moves on faster than its state may come).
    pg.select_option("#side-select", "engine")
    pg.wait_for_function(
        "() => { const a = window.tsubamePage; const s = a.states.get(a.game.name + '|' + a.game.start + '|'"
        " + a.game.moves.join(' ')); return (s && s.result) || a.note; }",
        timeout=240_000,
    )
    pg.select_option("#side-select", "both")
    return pg.evaluate("() => " + GAME + ".moves")


@pytest.mark.parametrize("game", ["shogi", "minishogi", "nanashogi", "giveandtake"])
def test_whole_game_then_analysis_with_a_variation_then_export_and_import(browser, server, game):
    """Issue 68's round: a whole game (the engine against itself), then its analysis with a
    variation (a line of the analysis clicked at an earlier position), then its record
    downloaded and loaded into a fresh page: the same main line, the same variation. Shogi's is
    its KIF (`変化`, and cshogi reads the main line and its result), the other games' the page's
    USI record."""
    pg = new_context(browser).new_page()
    pg.set_default_timeout(WAIT_MS)
    pg.goto(server.url + f"?game={game}")
    pg.wait_for_selector('#connection[data-state="open"]')
    pg.wait_for_function("g => window.tsubamePage.game.name === g", arg=game)
    main = whole_game(pg)
    assert len(main) >= 2
    # Analysis of the position after the first move; a line that leaves the game is clicked.
    go_main(pg, 1)
    pg.select_option("#multipv", "3")
    assert len(shown_state(pg)["legal"]) >= 2
    pg.click("#analyse")
    # Two lines at least: their first moves differ, so one of them leaves the game.
    pg.wait_for_function("() => document.querySelectorAll('#pv-lines li[data-pv]').length >= 2")
    pg.click("#analyse")
    pg.wait_for_selector('#analyse[data-running="0"]')
    lines = pg.eval_on_selector_all(
        "#pv-lines li[data-pv]", "els => els.map(e => [e.dataset.multipv, e.dataset.pv.split(' ')])")
    multipv, pv = next((k, pv) for k, pv in lines if pv[0] != main[1])
    pg.click(f'#pv-lines li[data-multipv="{multipv}"]')
    line = main[:1] + pv
    pg.wait_for_function("l => window.tsubamePage.game.moves.slice(0, l.length).join(' ') === l.join(' ')", arg=line)
    assert move_list(pg) == main
    variations = pg.evaluate(OTHER_LINES)
    assert len(variations) == 1 and variations[0].startswith(" ".join(line))

    fmt = "kif" if game == "shogi" else "usi"
    text = record_text(pg, fmt)
    if game == "shogi":
        assert "変化：2手" in text, text
        # The game ended (a mate, or the engine resigned): cshogi reads its main line to the end.
        cshogi = pytest.importorskip("cshogi")
        import cshogi.KIF

        # cshogi's reader does not know KIF's `不成` (a move that stays unpromoted in the zone,
        # as Kakinoki's records write it) and skips such a move: without the word it reads it.
        parsed = cshogi.KIF.Parser.parse_str(text.replace("不成", ""))
        assert [cshogi.move_to_usi(m) for m in parsed.moves] == main
        assert parsed.win in (cshogi.BLACK_WIN, cshogi.WHITE_WIN), parsed.win
    else:
        assert "# variation: " + variations[0] in text, text

    other = new_context(browser).new_page()
    other.set_default_timeout(WAIT_MS)
    other.goto(server.url + f"?game={game}")
    other.wait_for_selector('#connection[data-state="open"]')
    other.select_option("#side-select", "both")
    other.fill("#record-text", text)
    other.click("#load-record")
    wait_moves(other, len(main))
    assert move_list(other) == main
    assert other.evaluate(OTHER_LINES) == variations
    other.click(f'#move-list li.variations .vmove[data-line="{" ".join(line)}"]')
    other.wait_for_function("n => window.tsubamePage.game.cursor === n", arg=len(line))
    assert shown_state(other)["sfen"] == pg.evaluate(
        "l => { const a = window.tsubamePage; return a.states.get(a.game.name + '|' + a.game.start + '|' + l.join(' ')).sfen; }",
        line,
    )
    other.context.close()
    pg.context.close()

"""The static site (`tools/build-web`): the page with the engine in the browser, served by a plain
static file server with no `tsubame` process running.

The site is built from the engine $TSUBAME_WASM (what tools/test-all builds) or
target/wasm32-unknown-unknown/release/tsubame_web.wasm, and the page's files of $TSUBAME_BIN
(`tsubame site`). Python's `http.server` serves it. The tests of test_page.py named below run here
again, unchanged, against this site instead of `tsubame serve`: a whole game of each of the four
games with a take-back and a mate search, Analyse with two lines and Stop, records exported and
loaded. Then what only the site has: the worker's engine, the shogi network fetched only when
shogi is chosen, a game on a phone's touch screen, and Stop during a long analysis.
"""

from __future__ import annotations

import functools
import http.server
import os
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

import pytest

from test_page import (  # noqa: F401  (fixtures and the tests run again here)
    FIRST,
    REPO,
    WAIT_MS,
    browser,
    choose_game,
    click_move,
    engine_binary,
    move_list,
    new_context,
    page,
    pick_move,
    shots,
    shown_state,
    test_analysis_multipv_and_eval_graph,
    test_kif_record_round_trip,
    test_play_takeback_mate,
    test_promotion_choice,
    test_usi_record_round_trip,
    unavailable,
    wait_moves,
)
from test_page_ux import PHONE, close, open_page  # noqa: E402


def wasm_path() -> Path:
    env = os.environ.get("TSUBAME_WASM")
    if env:
        return Path(env)
    target = Path(os.environ.get("CARGO_TARGET_DIR", "target"))
    if not target.is_absolute():
        target = REPO / target
    return target / "wasm32-unknown-unknown" / "release" / "tsubame_web.wasm"


def legal_after(pg, moves: list[str]) -> list[str]:
    """The legal moves the engine gave the page for the game's start and `moves`."""
    legal = pg.evaluate(
        "ms => { const a = window.tsubamePage; const s = a.states.get(a.game.name + '|' +"
        " a.game.start + '|' + ms.join(' ')); return s ? s.legal : null; }",
        moves,
    )
    assert legal is not None, moves
    return legal


class Quiet(http.server.SimpleHTTPRequestHandler):
    """A static file server that logs nothing but counts the requests of each path."""

    requests: list[str] = []

    def log_message(self, *args):
        pass

    def do_GET(self):
        Quiet.requests.append(self.path.split("?")[0])
        super().do_GET()


class Isolating(Quiet):
    """The same server with the headers that make a page cross-origin isolated (what a host
    configured for it sends), so that the page may share memory with its worker."""

    def end_headers(self):
        self.send_header("Cross-Origin-Opener-Policy", "same-origin")
        self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        super().end_headers()


class Site:
    """The site built into a temporary folder and served on a free loopback port."""

    def __init__(self, handler_class=Quiet):
        wasm = wasm_path()
        if not wasm.is_file():
            unavailable(f"{wasm} is not built: rustup target add wasm32-unknown-unknown; "
                        "cargo build --release --target wasm32-unknown-unknown -p tsubame-web")
        self.dir = Path(tempfile.mkdtemp(prefix="tsubame-site-"))
        r = subprocess.run([sys.executable, str(REPO / "tools" / "build-web"), "--out", str(self.dir),
                            "--wasm", str(wasm), "--tsubame", str(engine_binary())],
                           capture_output=True, text=True)
        assert r.returncode == 0, r.stderr + r.stdout
        self.report = r.stdout
        handler = functools.partial(handler_class, directory=str(self.dir))
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/"

    def stop(self):
        self.httpd.shutdown()


@pytest.fixture(scope="module")
def server():
    """The site, under the name test_page.py's tests ask for."""
    s = Site()
    yield s
    s.stop()


def test_the_site_holds_the_page_and_the_engine(server):
    names = {p.relative_to(server.dir).as_posix() for p in server.dir.rglob("*") if p.is_file()}
    for name in ("index.html", "style.css", "games.json", "js/main.js", "js/connection.js",
                 "js/worker.js", "tsubame.wasm", "shogi.nnue", "SHA256SUMS"):
        assert name in names
    assert 'data-engine="worker"' in (server.dir / "index.html").read_text()
    # The first load (all but the shogi network) within the 1.5 MB compressed.
    line = next(l for l in server.report.splitlines() if l.startswith("first load"))
    assert int(line.split()[3].replace(",", "")) <= 1_500_000, line


def test_the_engine_runs_in_the_page_and_fetches_shogi_only_when_chosen(browser, server):
    """With no `tsubame` serving, the page connects to its worker's engine; the shogi network is
    not fetched for another game, and is once shogi is chosen; the engine then plays shogi."""
    Quiet.requests.clear()
    pg = open_page(browser, server, "minishogi")
    assert "/tsubame.wasm" in Quiet.requests, Quiet.requests
    assert "/shogi.nnue" not in Quiet.requests, Quiet.requests
    assert pg.get_attribute("html", "data-engine") == "worker"
    choose_game(pg, "shogi", "b", ("depth", 3))
    click_move(pg, "shogi", "7g7f")
    wait_moves(pg, 2)
    assert "/shogi.nnue" in Quiet.requests, Quiet.requests
    moves = move_list(pg)
    assert moves[1] in legal_after(pg, moves[:1])
    close(pg)


def test_a_game_on_a_phone(browser, server):
    """On a 390×844 touch screen: two moves of each game against the engine, each answered with a
    legal move."""
    for game in ("shogi", "minishogi", "nanashogi", "giveandtake"):
        pg = open_page(browser, server, game, viewport=PHONE, has_touch=True, is_mobile=True)
        choose_game(pg, game, FIRST[game], ("depth", 2))
        for i in range(2):
            wait_moves(pg, 2 * i)
            st = shown_state(pg)
            if st["result"]:
                break
            mv = pick_move(game, st["legal"], 2 * i)
            click_move(pg, game, mv)
            wait_moves(pg, 2 * i + 2)
            moves = move_list(pg)
            assert moves[2 * i] == mv
            assert moves[2 * i + 1] in legal_after(pg, moves[: 2 * i + 1])
        close(pg)


def test_stop_ends_a_long_analysis(browser, server):
    """Analyse without a limit runs on (its depth grows across the worker's slices) until Stop,
    which ends it within moments, with a line of legal moves."""
    pg = open_page(browser, server, "minishogi")
    # Stop pressed at once, before the first slice has ended, is answered too.
    pg.click("#analyse")
    pg.click("#analyse")
    pg.wait_for_selector('#analyse[data-running="0"]', timeout=10_000)
    pg.click("#analyse")
    pg.wait_for_function(
        "() => { const m = /depth (\\d+)/.exec(document.getElementById('analysis-info').textContent);"
        " return m && Number(m[1]) >= 6; }")
    legal = shown_state(pg)["legal"]
    pg.click("#analyse")
    pg.wait_for_selector('#analyse[data-running="0"]', timeout=10_000)
    line = pg.get_attribute('#pv-lines li[data-multipv="1"]', "data-pv").split()
    assert line and line[0] in legal
    close(pg)


def test_stop_is_answered_at_once_where_the_page_is_isolated(browser):
    """Served with the isolating headers, the page shares a count with its worker, and a search
    ends the moment the page stops it: the engine thinks about its move for up to ten minutes,
    New game stops it, and the engine answers the next game's first move (at depth 1) within the
    test's wait — which only the shared count makes possible, a timed search reading no message
    while it runs."""
    site = Site(Isolating)
    try:
        pg = open_page(browser, site, "minishogi")
        assert pg.evaluate("() => self.crossOriginIsolated") is True
        choose_game(pg, "minishogi", "b", ("movetime", 600_000))
        click_move(pg, "minishogi", "5e4d")
        pg.wait_for_function(
            "() => { const s = window.tsubamePage.search; return s && s.kind === 'play' && !s.cancelled; }")
        pg.click("#new-game")
        pg.wait_for_function("() => window.tsubamePage.game.moves.length === 0")
        choose_game(pg, "minishogi", "b", ("depth", 1))
        click_move(pg, "minishogi", "5e4d")
        wait_moves(pg, 2)
        moves = move_list(pg)
        assert moves[1] in legal_after(pg, moves[:1])
        close(pg)
    finally:
        site.stop()

"""Cross-check of tsubame's KIF and CSA records (src/games/shogi/record.rs) against cshogi.

What it checks, on random legal games (fixed seeds) played with cshogi's board:

- test_tsubame_records_read_by_cshogi: `tsubame record --format kif|csa` writes the game; cshogi's
  KIF and CSA parsers read it; their moves, converted to USI by cshogi, are the game's, and
  (CSA) the start position is the game's. The games start from the standard position and, for
  CSA, from the perft positions of engine-tests/data (cshogi's KIF parser reads no board
  diagram, so KIF games from those positions are checked by the next test's reader only).
  cshogi's KIF parser does not know `不成` (a non-promotion where a promotion was possible,
  which Kakinoki writes): the test removes that word before handing it the text.
- test_cshogi_records_read_by_tsubame: cshogi's KIF and CSA exporters write the game (from the
  standard position and from the perft positions, the latter with a board diagram in KIF);
  `tsubame record --read` reads it back; the start position and the moves are the game's.
"""

from __future__ import annotations

import os
import random
import subprocess
import tempfile

import cshogi
import cshogi.CSA
import cshogi.KIF
import pytest

from oracle_support import load_sfens
from usi_engine import engine_binary

SEED = 0x4B1F
GAMES_FROM_START = 12
MAX_PLIES = 160
MAX_PLIES_FROM_SEED = 40


def random_game(rng: random.Random, sfen: str | None, max_plies: int) -> list[str]:
    """A random legal game (drops and promotions preferred, so that hands fill and pieces
    promote), as USI moves."""
    board = cshogi.Board(sfen=sfen) if sfen else cshogi.Board()
    moves = []
    for _ in range(max_plies):
        legal = list(board.legal_moves)
        if not legal:
            break
        special = [m for m in legal if cshogi.move_is_drop(m) or cshogi.move_is_promotion(m)]
        mv = rng.choice(special) if special and rng.random() < 0.3 else rng.choice(legal)
        moves.append(cshogi.move_to_usi(mv))
        board.push(mv)
    return moves


def games() -> list[tuple[str, list[str]]]:
    """(start SFEN, USI moves) pairs: games from the start position, then from each perft seed."""
    rng = random.Random(SEED)
    out = [(cshogi.STARTING_SFEN, random_game(rng, None, MAX_PLIES)) for _ in range(GAMES_FROM_START)]
    for sfen in load_sfens("perft-shogi.tsv"):
        out.append((sfen, random_game(rng, sfen, MAX_PLIES_FROM_SEED)))
    return out


def tsubame(*args: str) -> str:
    done = subprocess.run(
        [str(engine_binary()), "record", *args], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def same_position(a: str, b: str) -> bool:
    """Board, side and hands equal (the move number may differ)."""
    return cshogi.Board(sfen=a).sfen().split()[:3] == cshogi.Board(sfen=b).sfen().split()[:3]


@pytest.fixture(scope="module")
def all_games():
    if not engine_binary().is_file():
        pytest.skip(f"no engine binary at {engine_binary()}")
    return games()


def test_tsubame_records_read_by_cshogi(all_games):
    kif_checked = 0
    for sfen, moves in all_games:
        args = ["--sfen", sfen] + (["--moves", *moves] if moves else [])
        csa = tsubame("--format", "csa", *args)
        parsed = cshogi.CSA.Parser.parse_str(csa)[0]
        assert [cshogi.move_to_usi(m) for m in parsed.moves] == moves, csa
        assert same_position(parsed.sfen, sfen), csa
        if sfen != cshogi.STARTING_SFEN:
            continue
        kif = tsubame("--format", "kif", *args)
        parsed = cshogi.KIF.Parser.parse_str(kif.replace("不成", ""))
        assert [cshogi.move_to_usi(m) for m in parsed.moves] == moves, kif
        kif_checked += 1
    assert kif_checked >= GAMES_FROM_START  # the perft positions hold the start too


def test_cshogi_records_read_by_tsubame(all_games):
    with tempfile.TemporaryDirectory() as tmp:
        for i, (sfen, moves) in enumerate(all_games):
            start = cshogi.Board(sfen=sfen)
            played = []
            board = start.copy()
            for m in moves:
                played.append(board.move_from_usi(m))
                board.push_usi(m)
            handicap = None if sfen == cshogi.STARTING_SFEN else start
            for ext in ("kifu", "csa"):
                path = os.path.join(tmp, f"game-{i}.{ext}")
                if ext == "kifu":
                    ex = cshogi.KIF.Exporter(path)
                    ex.header(["black", "white"], handicap=handicap)
                    for m in played:
                        ex.move(m)
                    ex.end("resign")
                else:
                    ex = cshogi.CSA.Exporter(path)
                    ex.info(init_board=start, names=["black", "white"])
                    for m in played:
                        ex.move(m, time=1)
                    ex.endgame("%TORYO")
                ex.close()
                line = tsubame("--read", path).split()
                assert line[:2] == ["position", "sfen"], line
                cut = line.index("moves") if "moves" in line else len(line)
                assert same_position(" ".join(line[2:cut]), sfen), (ext, line)
                assert line[cut + 1 :] == moves, open(path, encoding="utf-8").read()

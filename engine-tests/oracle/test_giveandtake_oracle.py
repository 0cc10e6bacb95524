"""Give and Take against its independent Python model (giveandtake.py, written from RULES.md
section 4 and NOTATION.md without the engine's code):

- the model passes the article's checks of RULES.md section 4 (the engine's perft table
  engine-tests/data/perft-giveandtake.tsv comes from it, so it must be right first), and the
  table's rows are what it counts now;
- along seeded random games from the start and from the table's positions, tsubame's
  `go perft 1` lists exactly the model's legal moves, capture routes included.
"""

from __future__ import annotations

import csv
import random

import pytest

import giveandtake as gt
from oracle_support import DATA_DIR, check_against_oracle, open_engine
from usi_engine import VariantUnsupported

VARIANT = "giveandtake"
TABLE = DATA_DIR / "perft-giveandtake.tsv"
GAMES = 40
MAX_PLIES = 120
POSITIONS = 1500


def table_rows() -> list[dict]:
    with TABLE.open(newline="") as f:
        return list(csv.DictReader(f, delimiter="\t"))


def test_the_article_checks_hold():
    assert gt.selftest() == 0


def test_the_perft_table_is_the_models_own_count():
    rows = table_rows()
    assert len(rows) == 96
    # Every row to depth 3 (the depth-7 start row alone takes the model about 20 s).
    for row in rows:
        if int(row["depth"]) <= 3:
            pos = gt.parse_position(row["position"])
            assert gt.perft(pos, int(row["depth"])) == int(row["nodes"]), row


def random_positions(seed: int) -> list[tuple[str, set[str]]]:
    """Positions of random games (from the start and from the table's positions), each with
    the model's legal moves; captures are preferred half of the time, so that long routes,
    kings and obligations come up."""
    rng = random.Random(seed)
    starts = [gt.START] + sorted({row["position"] for row in table_rows()})
    out: list[tuple[str, set[str]]] = []
    for game in range(GAMES):
        pos = gt.parse_position(starts[game % len(starts)])
        for _ in range(MAX_PLIES):
            moves = gt.legal_moves(pos)
            out.append((gt.format_position(pos), set(moves)))
            if not moves:
                break
            captures = [m for m in moves if ":" in m]
            pick = rng.choice(captures) if captures and rng.random() < 0.5 else rng.choice(moves)
            pos = gt.apply_move(pos, pick)
    return out


@pytest.fixture(scope="module")
def engine():
    try:
        eng = open_engine(VARIANT)
    except VariantUnsupported as exc:
        pytest.fail(f"the engine does not play Give and Take: {exc}")
    yield eng
    eng.close()


def test_random_positions_are_varied():
    positions = random_positions(20261124)
    assert len(positions) >= POSITIONS
    fens = [p for p, _ in positions]
    assert sum("K" in f or "k" in f for f in fens) > 100, "too few positions with kings"
    assert sum(any(m.count(":") >= 2 for m in moves) for _, moves in positions) > 50
    assert sum(not moves for _, moves in positions) > 5, "too few finished games"


def test_engine_moves_match_the_model(engine):
    check_against_oracle(engine, "giveandtake.py", VARIANT, random_positions(20261124), POSITIONS)


def test_the_engines_games_pass_the_models_referee(engine):
    """Games of the engine against itself (500 nodes a move, from random openings), refereed
    by the model: every move legal, and each game ends where the rules end it (no legal move
    or a third occurrence), as `giveandtake.py referee` checks tsubame-match's records."""
    rng = random.Random(7)
    endings = []
    for game in range(6):
        pos = gt.parse_position(gt.START)
        moves: list[str] = []
        for _ in range(4):
            pos = gt.apply_move(pos, rng.choice(gt.legal_moves(pos)))
        start = gt.format_position(pos)
        pos = gt.parse_position(start)
        seen = {gt._repetition_key(pos): 1}
        reason = "move limit"
        for _ in range(300):
            if not gt.legal_moves(pos):
                reason = "no legal move"
                break
            if max(seen.values()) >= 3:
                reason = "repetition"
                break
            engine.send(f"position sfen {start}" + (" moves " + " ".join(moves) if moves else ""))
            engine.send("go nodes 500")
            best = engine.wait_for(lambda line: line.startswith("bestmove"))[-1].split()[1]
            moves.append(best)
            pos = gt.apply_move(pos, best)
            key = gt._repetition_key(pos)
            seen[key] = seen.get(key, 0) + 1
        assert gt.referee_game(start, moves, reason) is None, (game, start, moves)
        # The result as tsubame-match writes it (White, the first mover, first) is checked too.
        if reason == "no legal move":
            right, wrong = ("0-1", "1-0") if pos.side == gt.WHITE else ("1-0", "0-1")
        else:
            right, wrong = "1/2-1/2", "1-0"
        assert gt.referee_game(start, moves, reason, right) is None
        assert gt.referee_game(start, moves, reason, wrong) is not None
        endings.append(reason)
    assert "no legal move" in endings

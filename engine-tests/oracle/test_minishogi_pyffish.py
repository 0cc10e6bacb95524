"""Differential test of minishogi move generation: tsubame against pyffish (Fairy-Stockfish).

What it checks:
- that the translation between pyffish's chess-style minishogi notation and USI
  (fsf_minishogi.py) is right: on the start position (14 moves, written out by hand
  from the rules), on hand-checked drop and promotion examples, and against
  pyffish's own SFEN writer on a sample of the random positions;
- that for at least 8,000 distinct positions from biased random play (fixed seed;
  from the start position and from the SFENs of engine-tests/data/perft-minishogi.tsv)
  tsubame's `go perft 1` lists exactly the legal moves pyffish generates, minus
  checkmating pawn drops (pyffish lists them; docs/rules.md forbids them, see
  fsf_minishogi.py), and that `Nodes searched` equals the number of moves listed.

The engine tests are marked xfail only when the engine answers
`setoption name USI_Variant value minishogi` with an `info string error` (it does
not support minishogi yet); any other problem fails them.
"""

from __future__ import annotations

import csv
import random

import pyffish
import pytest

from fsf_minishogi import (
    VARIANT,
    apply_usi_move,
    fsf_fen_to_sfen,
    fsf_move_to_usi,
    king_square,
    legal_moves,
    occupant,
    parse_sfen_hand,
    sfen_to_fsf_fen,
    usi_move_to_fsf,
)
from oracle_support import DATA_DIR, check_against_oracle, load_sfens, open_engine, position_key
from usi_engine import VariantUnsupported

START_SFEN = "rbsgk/4p/5/P4/KGSBR b - 1"

# The 14 legal first moves, read off docs/rules.md section 3 by hand (not by any program):
# K 5e-4d; G 4e-4d, 4e-3d; S 3e-4d, 3e-3d, 3e-2d; B 2e-1d, 2e-3d, 2e-4c, 2e-5b;
# R 1e-1d, 1e-1c, 1e-1b; P 5d-5c.
START_MOVES = {
    "5e4d", "4e4d", "4e3d", "3e4d", "3e3d", "3e2d", "2e1d",
    "2e3d", "2e4c", "2e5b", "1e1d", "1e1c", "1e1b", "5d5c",
}

POSITIONS = 8_000
SEED = 0x3A1E5
MAX_PLIES_FROM_START = 200
MAX_PLIES_FROM_SEED = 30
VERIFY_EVERY = 25  # cross-check the Python move model against pyffish every N moves


@pytest.fixture(scope="module")
def engine():
    try:
        eng = open_engine(VARIANT)
    except VariantUnsupported as exc:
        pytest.xfail(f"engine does not support minishogi yet: {exc}")
    yield eng
    eng.close()


def pyffish_usi_moves(sfen: str) -> set[str]:
    """pyffish's own legal moves of a USI SFEN, in USI notation (pawn-drop mates included)."""
    return {fsf_move_to_usi(m) for m in pyffish.legal_moves(VARIANT, sfen_to_fsf_fen(sfen), [])}


def same_position(sfen_a: str, sfen_b: str) -> bool:
    """Equal board, side to move and hand (hand order and move number ignored)."""
    a, b = sfen_a.split(), sfen_b.split()
    return a[:2] == b[:2] and parse_sfen_hand(a[2]) == parse_sfen_hand(b[2])


# -- the notation mapping --------------------------------------------------------------


def test_start_position_mapping():
    fen = pyffish.start_fen(VARIANT)
    assert fen == "rbsgk/4p/5/P4/KGSBR[-] w 0 1"  # 'w' is Black, the first player
    assert fsf_fen_to_sfen(fen) == START_SFEN
    assert fsf_fen_to_sfen(sfen_to_fsf_fen(START_SFEN)) == START_SFEN
    fsf_moves = pyffish.legal_moves(VARIANT, fen, [])
    assert sorted(pyffish.legal_moves(VARIANT, sfen_to_fsf_fen(START_SFEN), [])) == sorted(fsf_moves)
    assert {fsf_move_to_usi(m) for m in fsf_moves} == START_MOVES
    assert {usi_move_to_fsf(m) for m in START_MOVES} == set(fsf_moves)
    assert fsf_move_to_usi("a1b2") == "5e4d"  # the king's step
    assert fsf_move_to_usi("e1e4") == "1e1b"  # the rook's longest move
    assert fsf_move_to_usi("d1a4") == "2e5b"  # the bishop's longest move


def test_drop_and_promotion_mapping():
    # White to move; White holds a rook, Black a pawn. White's rook drops go to
    # every empty square, e.g. 1e (where Black's rook stood) and 3c (centre).
    sfen = "rbsgk/4p/5/P4/KGSB1 w Pr 2"
    moves = pyffish_usi_moves(sfen)
    assert {"R*1e", "R*3c", "R*2b"} <= moves
    assert not any(m.startswith("P*") for m in moves)  # Black's pawn cannot be dropped by White
    assert len([m for m in moves if m.startswith("R*")]) == 14  # 25 squares - 11 occupied

    # White's rook on 2b takes Black's bishop on 2e, in White's promotion zone
    # (rank e), so it may promote or not.
    sfen = "rbsg1/3rk/1P3/P1S2/KG1B1 w - 6"
    moves = pyffish_usi_moves(sfen)
    assert {"2b2e", "2b2e+"} <= moves
    after = apply_usi_move(sfen, "2b2e+")
    assert same_position(after, "rbsg1/4k/1P3/P1S2/KG1+r1 b b 7")
    assert same_position(after, fsf_fen_to_sfen(pyffish.get_fen(VARIANT, sfen_to_fsf_fen(sfen), ["d4d1+"])))

    # A black pawn on the second rank must promote when it moves to the last rank.
    sfen = "rbs1k/P3p/5/5/KGSBR b G 1"
    moves = pyffish_usi_moves(sfen)
    assert "5b5a+" in moves and "5b5a" not in moves


def test_pawn_drop_mate_is_removed_from_pyffish_moves(engine):
    """pyffish lists a mating pawn drop; the oracle and the engine must not.

    White drops a pawn on 4b in front of Black's king on 4c: the pawn is defended by
    the king on 4a and the rook on 3b, 3c and 3d are covered by the rook, 4d by the gold
    on 5d, 5b by the king, 5c and 5d defend each other, and Black has no other piece.
    """
    sfen = "bk2s/2r2/pK2b/g4/5 w Srgp 46"
    assert "P*4b" in pyffish_usi_moves(sfen)
    after = pyffish.get_fen(VARIANT, sfen_to_fsf_fen(sfen), [usi_move_to_fsf("P*4b")])
    assert pyffish.legal_moves(VARIANT, after, []) == []  # checkmate
    oracle = set(legal_moves(sfen))
    assert oracle == pyffish_usi_moves(sfen) - {"P*4b"}
    assert engine.legal_moves(sfen, VARIANT) == oracle


def test_perft_seeds_match_the_shared_counts():
    """The depth-1 rows of the shared perft data, through the converters and pyffish."""
    with (DATA_DIR / "perft-minishogi.tsv").open(newline="", encoding="utf-8") as handle:
        rows = [r for r in csv.DictReader(handle, delimiter="\t") if r["depth"] == "1"]
    assert rows, "no depth-1 rows in perft-minishogi.tsv"
    for row in rows:
        assert len(legal_moves(row["sfen"])) == int(row["nodes"]), row["sfen"]


# -- random positions ------------------------------------------------------------------


def choose(rng: random.Random, sfen: str, moves: list[str]) -> str:
    """Pick a move, preferring moves near the enemy king (often checks), captures,
    drops and promotions."""
    black = sfen.split()[1] == "b"
    roll = rng.random()
    if roll < 0.20:
        king = king_square(sfen, not black)
        if king:
            near = [m for m in moves if _distance(_destination(m), king) <= 1]
            if near:
                return rng.choice(near)
    if roll < 0.55:
        captures = [m for m in moves if "*" not in m and occupant(sfen, m[2:4])]
        if captures:
            return rng.choice(captures)
    if roll < 0.75:
        drops = [m for m in moves if "*" in m]
        if drops:
            return rng.choice(drops)
    if roll < 0.85:
        promotions = [m for m in moves if m.endswith("+")]
        if promotions:
            return rng.choice(promotions)
    return rng.choice(moves)


def _destination(move: str) -> str:
    """The square a USI move (board move or drop) ends on."""
    return move.rstrip("+")[-2:]


def _distance(square: str, cell: tuple[int, int]) -> int:
    """Chebyshev distance between a USI square and a (row, column) grid cell."""
    row, col = "abcde".index(square[1]), "54321".index(square[0])
    return max(abs(row - cell[0]), abs(col - cell[1]))


def random_positions(count: int, seed: int) -> list[tuple[str, set[str]]]:
    """`count` distinct positions with pyffish's legal moves (in USI), by biased random play.

    Moves are applied with fsf_minishogi.apply_usi_move (pyffish is slow per call);
    every VERIFY_EVERY moves the result is compared with pyffish.get_fen, read both
    through fsf_fen_to_sfen and through pyffish's own SFEN writer.
    """
    rng = random.Random(seed)
    found: dict[str, tuple[str, set[str]]] = {}
    played = 0

    def play(start: str, max_plies: int) -> None:
        nonlocal played
        sfen = start
        for _ in range(max_plies + 1):
            usi_to_fsf = legal_moves(sfen)
            key = position_key(sfen)
            if key not in found:
                found[key] = (sfen, set(usi_to_fsf))
            if not usi_to_fsf or len(found) >= count:
                return
            move = choose(rng, sfen, sorted(usi_to_fsf))
            following = apply_usi_move(sfen, move)
            played += 1
            if played % VERIFY_EVERY == 0:
                fen = sfen_to_fsf_fen(sfen)
                theirs = pyffish.get_fen(VARIANT, fen, [usi_to_fsf[move]])
                their_sfen = pyffish.get_fen(VARIANT, fen, [usi_to_fsf[move]], False, True)
                assert same_position(following, fsf_fen_to_sfen(theirs)), (sfen, move, theirs)
                assert same_position(following, their_sfen), (sfen, move, their_sfen)
            sfen = following

    for start in load_sfens("perft-minishogi.tsv"):
        play(start, MAX_PLIES_FROM_SEED)
    while len(found) < count:
        play(START_SFEN, MAX_PLIES_FROM_START)
    return list(found.values())[:count]


@pytest.fixture(scope="module")
def positions():
    return random_positions(POSITIONS, SEED)


def test_positions_are_varied(positions):
    """The bias must produce the kinds of position this test is for."""
    n = len(positions)
    assert n == POSITIONS
    assert sum(1 for s, _ in positions if s.split()[2] != "-") > n // 2, "too few hands"
    assert sum(1 for _, m in positions if any("*" in x for x in m)) > n // 2, "too few drops"
    assert sum(1 for _, m in positions if any(x.endswith("+") for x in m)) > n // 4, "too few promotions"
    assert sum(1 for _, m in positions if not m) > 0, "no mated position"


def test_engine_start_position(engine):
    assert engine.legal_moves(START_SFEN, VARIANT) == START_MOVES


def test_pyffish_random_play(engine, positions):
    check_against_oracle(engine, "pyffish", VARIANT, positions, POSITIONS)

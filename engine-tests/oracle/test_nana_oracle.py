"""Nana shogi against its independent Python model (nana.py, written from RULES.md section 3 and
NOTATION.md without the engine's code):

- the model passes its checks of RULES.md section 3 and counts every row of the perft table
  engine-tests/data/perft-nana.tsv (depth 5 of the start left out: about 4 s in the model);
- on seeded random positions (random games from the start and from the table's positions, and
  random set-ups with cubes on the board in any state and in either hand), tsubame's
  `go perft 1` lists exactly the model's legal moves, and on a share of them `go perft 2`
  gives the model's divide; perft from the start to depth 4 is the same for the engine, the
  model and the table;
- games of the engine against itself pass the model's referee.
"""

from __future__ import annotations

import csv
import random
import re

import pytest

import nana
from oracle_support import DATA_DIR, check_against_oracle, open_engine
from usi_engine import VariantUnsupported

VARIANT = "nanashogi"
TABLE = DATA_DIR / "perft-nana.tsv"
SEED = 20260315
GAMES = 150         # random games from the start
TABLE_GAMES = 2     # random games from each table position
SETUPS = 1200       # random set-ups, each followed by a short random game
KINGLESS = 300      # random set-ups without one side's king (RULES.md section 0), likewise
POSITIONS = 10000   # at least this many distinct positions are compared
PERFT2_EVERY = 10   # `go perft 2` divide on every 10th position

_DIVIDE_LINE = re.compile(r"^(\S+): (\d+)$")
_NODES_LINE = re.compile(r"^Nodes searched: (\d+)$")


def table_rows() -> list[dict]:
    with TABLE.open(newline="") as f:
        return list(csv.DictReader(f, delimiter="\t"))


def test_the_models_own_checks_hold():
    assert nana.selftest() == 0


def test_the_perft_table_is_the_models_count():
    rows = table_rows()
    assert len(rows) == 125
    for row in rows:
        depth = int(row["depth"])
        if depth <= 4:
            assert nana.perft(nana.parse_sfen(row["sfen"]), depth) == int(row["nodes"]), row


def random_setup(rng: random.Random, kingless: bool = False) -> str:
    """A random legal-looking position: both kings on the board (with `kingless`, one side's
    left out, as a mate problem leaves out the attacker's), each of the four cubes on the board
    (owner and state at random) or in a hand, either side to move."""
    while True:
        board = ["."] * 9
        hand = [0] * 6
        squares = list(range(9))
        rng.shuffle(squares)
        missing = rng.randrange(2) if kingless else None
        for side, king in ((nana.BLACK, "K"), (nana.WHITE, "k")):
            if side != missing:
                board[squares.pop()] = king
        for kind, states in (("R", nana.ORTHOGONAL), ("B", nana.DIAGONAL)):
            for _ in range(2):
                owner = rng.randrange(2)
                if rng.random() < 0.6:
                    state = rng.choice(states)
                    board[squares.pop()] = state if owner == nana.BLACK else state.lower()
                else:
                    hand[3 * owner + nana.HAND_KINDS.index(kind)] += 1
        side = rng.randrange(2)
        if not nana.in_check(tuple(board), 1 - side):
            return nana.format_sfen(nana.Position(tuple(board), tuple(hand), side, 1))


def _walk(rng: random.Random, sfen: str, plies: int, out: dict) -> None:
    pos = nana.parse_sfen(sfen)
    for _ in range(plies):
        moves = nana.legal_moves(pos)
        out.setdefault(nana.format_sfen(pos).rsplit(" ", 1)[0] + " 1", set(moves))
        if not moves:
            return
        pos = nana.apply_move(pos, rng.choice(moves))


def random_positions(seed: int) -> list[tuple[str, set[str]]]:
    """Distinct positions (SFEN with move number 1) with the model's legal moves."""
    rng = random.Random(seed)
    out: dict[str, set[str]] = {}
    for _ in range(GAMES):
        _walk(rng, nana.START, rng.randrange(4, 60), out)
    for sfen in sorted({row["sfen"] for row in table_rows()}):
        for _ in range(TABLE_GAMES):
            _walk(rng, sfen, rng.randrange(1, 30), out)
    for _ in range(SETUPS):
        _walk(rng, random_setup(rng), rng.randrange(1, 20), out)
    for _ in range(KINGLESS):
        _walk(rng, random_setup(rng, kingless=True), rng.randrange(1, 20), out)
    return list(out.items())


@pytest.fixture(scope="module")
def positions():
    return random_positions(SEED)


@pytest.fixture(scope="module")
def engine():
    try:
        eng = open_engine(VARIANT)
    except VariantUnsupported as exc:
        pytest.fail(f"the engine does not play nana shogi: {exc}")
    yield eng
    eng.close()


def test_random_positions_are_varied(positions):
    assert len(positions) >= POSITIONS
    assert sum(not moves for _, moves in positions) > 30, "too few finished games"
    assert sum(any(m.startswith("K*") for m in moves) for _, moves in positions) == 9  # start + 8
    assert sum(any(m[0] in "CWITMD" and "*" in m for m in moves) for _, moves in positions) > 500
    kingless = [s for s, _ in positions if not {"K", "k"} <= set(s.split()[0] + s.split()[2])]
    assert len(kingless) >= 1000, f"only {len(kingless)} positions lack a king"
    # The no-checkmate-with-a-piece-in-hand rule removes a move in enough of them.
    levels = nana.MATE_RULE_LEVELS
    try:
        nana.MATE_RULE_LEVELS = 0
        ruled = sum(set(nana.legal_moves(nana.parse_sfen(s))) != moves for s, moves in positions)
    finally:
        nana.MATE_RULE_LEVELS = levels
    assert ruled >= 20, f"the hand-mate rule matters in only {ruled} positions"


def test_engine_moves_match_the_model(engine, positions):
    check_against_oracle(engine, "nana.py", VARIANT, positions, POSITIONS)


def engine_divide(engine, sfen: str, depth: int) -> tuple[dict[str, int], int]:
    engine.send(f"position sfen {sfen}")
    engine.send(f"go perft {depth}")
    divide: dict[str, int] = {}
    while True:
        line = engine.read_line()
        nodes = _NODES_LINE.match(line)
        if nodes:
            return divide, int(nodes.group(1))
        assert not line.startswith("info string error"), (sfen, line)
        entry = _DIVIDE_LINE.match(line)
        if entry:
            divide[entry.group(1)] = int(entry.group(2))


def test_perft_from_the_start(engine):
    table = {int(r["depth"]): int(r["nodes"]) for r in table_rows() if r["sfen"] == nana.START}
    start = nana.parse_sfen(nana.START)
    for depth in (1, 2, 3, 4):
        divide, total = engine_divide(engine, nana.START, depth)
        model = dict(nana.perft_divide(start, depth))
        assert divide == model, depth
        assert total == sum(model.values()) == table[depth], depth


def test_engine_perft2_matches_the_model(engine, positions):
    checked = 0
    for sfen, _ in positions[::PERFT2_EVERY]:
        divide, total = engine_divide(engine, sfen, 2)
        model = dict(nana.perft_divide(nana.parse_sfen(sfen), 2))
        assert divide == model and total == sum(model.values()), sfen
        checked += 1
    assert checked >= POSITIONS // PERFT2_EVERY


def test_the_engines_games_pass_the_models_referee(engine):
    """Games of the engine against itself (300 nodes a move, from a random king opening),
    refereed by the model as `referee.py --game nanashogi` checks tsubame-match's records."""
    rng = random.Random(11)
    for game in range(3):
        pos = nana.parse_sfen(nana.START)
        for _ in range(2):
            pos = nana.apply_move(pos, rng.choice(nana.legal_moves(pos)))
        start = nana.format_sfen(pos)
        seen = {pos.key(): 1}
        moves: list[str] = []
        reason = "max plies"
        for _ in range(150):
            if not nana.legal_moves(pos):
                reason = "checkmate" if nana.position_in_check(pos) else "no legal move"
                break
            if max(seen.values()) >= 4:
                reason = "repetition"
                break
            engine.send(f"position sfen {start}" + (" moves " + " ".join(moves) if moves else ""))
            engine.send("go nodes 300")
            best = engine.wait_for(lambda line: line.startswith("bestmove"))[-1].split()[1]
            moves.append(best)
            pos = nana.apply_move(pos, best)
            seen[pos.key()] = seen.get(pos.key(), 0) + 1
        if reason in ("checkmate", "no legal move"):
            right, wrong = ("0-1", "1-0") if pos.side == nana.BLACK else ("1-0", "0-1")
        else:
            right, wrong = "1/2-1/2", "1-0"
        assert nana.referee_game(start, moves, reason, right) is None, (game, start, moves)
        assert nana.referee_game(start, moves, reason, wrong) is not None

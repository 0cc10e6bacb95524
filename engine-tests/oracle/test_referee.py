"""The second referee of the marathons (referee.py): it accepts games the rules end as the runner
says, and catches a wrong result, an illegal move and an ending that did not happen, in each game
it has an oracle for."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
HEADER = "game\topening\tblack\twhite\tresult\treason\tplies\tdetail\tposition\n"

SHOGI_SHUFFLE = "5i4h 5a4b 4h5i 4b5a " * 3
MINI_SHUFFLE = "5e4d 1a2b 4d5e 2b1a " * 3
NANA_SHUFFLE = "1c1b 3a3b 1b1c 3b3a " * 3
CASES = [
    # (game, result, reason, position, disagrees?)
    ("shogi", "1-0", "checkmate", "position sfen 4k4/9/4G4/9/9/9/9/9/4K4 b G 1 moves G*5b", False),
    ("shogi", "0-1", "checkmate", "position sfen 4k4/9/4G4/9/9/9/9/9/4K4 b G 1 moves G*5b", True),
    ("shogi", "1-0", "checkmate", "position sfen 4k4/9/4G4/9/9/9/9/9/4K4 b G 1 moves G*5c", True),
    # White moves first and mates: a win of White is "0-1" whoever moved first.
    ("shogi", "0-1", "checkmate", "position sfen 4k4/9/9/9/9/9/4g4/9/4K4 w g 1 moves G*5h", False),
    ("shogi", "1-0", "checkmate", "position sfen 4k4/9/9/9/9/9/4g4/9/4K4 w g 1 moves G*5h", True),
    ("shogi", "1/2-1/2", "repetition", "position startpos moves " + SHOGI_SHUFFLE, False),
    ("shogi", "1/2-1/2", "repetition", "position startpos moves " + SHOGI_SHUFFLE + "5i4h", True),
    ("shogi", "1-0", "resignation", "position startpos moves 7g7f 3c3d", False),
    ("shogi", "1-0", "resignation", "position startpos moves 7g7f 7g7f", True),
    # Pawn-drop mate is illegal (uchifuzume).
    ("shogi", "1-0", "checkmate", "position sfen 4k4/9/4G4/9/9/9/9/9/4K4 b P 1 moves P*5b", True),
    ("minishogi", "1-0", "checkmate", "position sfen 2k2/5/2G2/5/2K2 b G 1 moves G*3b", False),
    ("minishogi", "1-0", "checkmate", "position sfen 2k2/5/2G2/5/2K2 b P 1 moves P*3b", True),
    # `initiator`: the player to move in the fourth occurrence (Black) loses.
    ("minishogi", "0-1", "repetition", "position startpos moves " + MINI_SHUFFLE, False),
    ("minishogi", "1/2-1/2", "repetition", "position startpos moves " + MINI_SHUFFLE, True),
    # Nana shogi: W 2b-1b turns into a go-between and mates; with a cube in hand that is illegal.
    ("nanashogi", "1-0", "checkmate", "position sfen 1K1/1W1/1ik b b 1 moves 2b1b", False),
    ("nanashogi", "0-1", "checkmate", "position sfen 1K1/1W1/1ik b b 1 moves 2b1b", True),
    ("nanashogi", "1-0", "no legal move", "position sfen 1K1/1W1/1ik b b 1 moves 2b1b", True),
    ("nanashogi", "1-0", "checkmate", "position sfen 1K1/1W1/1ik b Bb 1 moves 2b1b", True),
    ("nanashogi", "1-0", "checkmate", "position sfen 1K1/1W1/1ik b b 1 moves 2b3b", True),
    ("nanashogi", "0-1", "no legal move", "position sfen 3/kbK/1rC b b 1", False),
    ("nanashogi", "1/2-1/2", "repetition", "position sfen k2/3/2K b - 1 moves " + NANA_SHUFFLE, False),
    ("nanashogi", "0-1", "repetition", "position sfen k2/3/2K b - 1 moves " + NANA_SHUFFLE, True),
    ("nanashogi", "1/2-1/2", "repetition", "position sfen k2/3/2K b - 1 moves " + NANA_SHUFFLE + "1c1b", True),
    ("nanashogi", "1/2-1/2", "max plies", "position startpos moves K*2c K*2a C*1b", False),
    # The king is dropped first; nothing is dropped on the centre.
    ("nanashogi", "1/2-1/2", "max plies", "position startpos moves C*1b", True),
    ("nanashogi", "1-0", "resignation", "position startpos moves K*2c K*2a C*2b", True),
    ("nanashogi", "1-0", "resignation", "position startpos moves K*2c K*2a", False),
    ("giveandtake", "1-0", "max plies", "position startpos moves a3-a4", True),
    ("giveandtake", "1/2-1/2", "max plies", "position startpos moves a3-a4", False),
    ("giveandtake", "1/2-1/2", "max plies", "position startpos moves a3-a5", True),
]


@pytest.mark.parametrize("game,result,reason,position,disagrees", CASES)
def test_referee_judges_like_the_rules(tmp_path, game, result, reason, position, disagrees):
    path = tmp_path / "results.tsv"
    path.write_text(HEADER + f"1\t1\ta\tb\t{result}\t{reason}\t0\t\t{position.strip()}\n")
    out = subprocess.run(
        [sys.executable, str(HERE / "referee.py"), "--game", game, str(path)],
        capture_output=True,
        text=True,
        cwd=HERE,
        check=True,
    )
    report = json.loads(out.stdout)
    assert report["checked"] == 1
    assert bool(report["disagreements"]) == disagrees, report

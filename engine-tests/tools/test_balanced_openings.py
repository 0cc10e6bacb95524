"""tools/balanced-openings: the openings it keeps are legal, within the bound it was given by
its judge (tsubame here), and the same for the same seed."""

import os
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
TOOL = REPO / "tools" / "balanced-openings"
TSUBAME = Path(os.environ.get("TSUBAME_BIN", REPO / "target" / "release" / "tsubame"))


def make(tmp_path, name, seed):
    out = tmp_path / name
    subprocess.run(
        [sys.executable, str(TOOL), "--game", "minishogi", "--plies", "4", "--count", "3",
         "--depth", "4", "--max-cp", "150", "--seed", str(seed), "--tsubame", str(TSUBAME),
         "--out", str(out)],
        check=True, capture_output=True, text=True, timeout=300,
    )
    return out.read_text()


def score_at_depth(moves, depth):
    """tsubame's own score, from Black's side, of the position after `moves`."""
    engine = subprocess.Popen([str(TSUBAME)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True, bufsize=1)
    for line in ["usi", "setoption name USI_Variant value minishogi", "isready",
                 f"position startpos moves {' '.join(moves)}", f"go depth {depth}"]:
        engine.stdin.write(line + "\n")
    score = None
    for line in engine.stdout:
        found = re.match(r"info .*score cp (-?\d+)", line)
        if found:
            score = int(found.group(1))
        if line.startswith("bestmove"):
            break
    engine.stdin.write("quit\n")
    engine.stdin.close()
    engine.wait(timeout=30)
    assert score is not None
    return score * (1 if len(moves) % 2 == 0 else -1)


def test_openings_are_legal_even_and_reproducible(tmp_path):
    text = make(tmp_path, "a.txt", 3)
    lines = [line for line in text.splitlines() if line and not line.startswith("#")]
    notes = re.findall(r"^# opening \d+: ([+-]\d+) cp for Black$", text, re.M)
    assert len(lines) == 3 and len(notes) == 3, text
    assert len(set(lines)) == 3
    for line, note in zip(lines, notes):
        words = line.split()
        assert words[:2] == ["startpos", "moves"] and len(words) == 6, line
        # Legal, and not over: tsubame's perft lists moves from the position after it.
        perft = subprocess.run(
            [str(TSUBAME), "perft", "1", "--variant", "minishogi", "--sfen", line],
            capture_output=True, text=True, timeout=60,
        )
        assert perft.returncode == 0 and re.search(r"^\w+: 1$", perft.stdout, re.M), perft
        assert abs(int(note)) <= 150
        assert score_at_depth(words[2:], 4) == int(note)
    def body(t):
        return [line for line in t.splitlines() if not line.startswith("# made by")]

    assert body(make(tmp_path, "b.txt", 3)) == body(text)
    assert body(make(tmp_path, "c.txt", 4)) != body(text)

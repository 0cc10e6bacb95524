"""A tiny USI engine for testing the match runner (Python 3, standard library only).

It knows no rules. Started from the start position it "shuttles" a piece back and forth with
moves known to be legal there (so two such engines repeat positions), and after a given number
of its own moves it misbehaves in the way its script asks for:

  illegal   plays a move that is well-formed but illegal
  slow      sleeps (default 30 s) before answering: it loses on time
  crash     exits when asked to move
  win       answers `bestmove win` (a declaration; wrong unless the position allows it)
  resign    answers `bestmove resign`

Command-line options: --after N (own moves played normally first, default 2), --sleep SECONDS
(for slow), --black-score CP (report `info score cp` of CP for Black, from its own side).
Every script announces a `Threads` option (1 to 8) and refuses other values with
`info string error: …`.
"""

import sys
import time

SHUTTLES = {
    "shogi": (("5i4h", "4h5i"), ("5a6b", "6b5a")),
    "minishogi": (("5e4d", "4d5e"), ("1a2b", "2b1a")),
}
ILLEGAL = {"shogi": ("1i2i", "1a2a"), "minishogi": ("1e2e", "1a2a")}


def arg(name, default, convert):
    argv = sys.argv[1:]
    if name in argv:
        i = argv.index(name)
        if i + 1 < len(argv):
            return convert(argv[i + 1])
    return default


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def side_and_ply(position_args):
    """The side to move (0 Black, 1 White) and the number of moves after the root."""
    words = position_args.split()
    moves = words[words.index("moves") + 1:] if "moves" in words else []
    first = 0
    if words and words[0] == "sfen" and len(words) > 2 and words[2] == "w":
        first = 1
    return (first + len(moves)) % 2, len(moves)


def main(mode, name):
    after = arg("--after", 2, int)
    sleep = arg("--sleep", 30.0, float)
    black_score = arg("--black-score", None, int)
    variant = "shogi"
    side, ply = 0, 0
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        cmd = words[0]
        if cmd == "usi":
            say("id name " + name)
            say("id author tsubame tests")
            say("option name USI_Variant type combo default shogi var shogi var minishogi")
            say("option name Threads type spin default 1 min 1 max 8")
            say("usiok")
        elif cmd == "isready":
            say("readyok")
        elif cmd == "setoption" and len(words) >= 5 and words[2].lower() == "usi_variant":
            variant = words[4].lower()
        elif cmd == "setoption" and len(words) >= 5 and words[2].lower() == "threads":
            # Refuses an out-of-range value the way tsubame does.
            if not words[4].isdigit() or not 1 <= int(words[4]) <= 8:
                say("info string error: Threads %s is out of range 1..8" % words[4])
        elif cmd == "position":
            side, ply = side_and_ply(line[len("position"):])
        elif cmd == "go":
            own = ply // 2
            if black_score is not None:
                score = black_score if side == 0 else -black_score
                say("info depth 1 score cp %d pv none" % score)
            if mode != "repeat" and own >= after:
                if mode == "illegal":
                    say("bestmove " + ILLEGAL[variant][side])
                    continue
                if mode == "slow":
                    time.sleep(sleep)
                elif mode == "crash":
                    sys.exit(3)
                elif mode == "win":
                    say("bestmove win")
                    continue
                elif mode == "resign":
                    say("bestmove resign")
                    continue
            say("bestmove " + SHUTTLES[variant][side][own % 2])
        elif cmd == "quit":
            return

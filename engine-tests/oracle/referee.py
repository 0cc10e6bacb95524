#!/usr/bin/env python3
"""A second referee for tsubame-match: replays the games of its results.tsv with the independent
implementations and says where they disagree with the runner's verdict.

    referee.py --game shogi|minishogi|nanashogi|giveandtake [--every K] [--offset I] results.tsv…

Prints one JSON object: the game, the games replayed (`checked`, every K-th row from row I), the
moves replayed, and the `disagreements` (file, game number, why). Exit status 0 even when there
are disagreements (the caller counts them); 2 on bad arguments.

- shogi: cshogi (every move legal, uchifuzume and nifu included), checkmate, the fourth occurrence
  of a position and perpetual check (RULES.md section 1), the CSA 27-point declaration;
- minishogi: pyffish through fsf_minishogi.py (every move legal; no pawn-drop mate), checkmate or
  no legal move, repetition under each `MinishogiRepetition` (`--repetition`, default
  `initiator`) and jishogi (`draw`);
- nana shogi: nana.py, this project's model written from RULES.md section 3 (every move legal,
  the king drops first, no drop on the centre or giving check, no checkmate with a piece in
  hand), checkmate or no legal move, and the fourth occurrence of a position (a draw);
- Give and Take: giveandtake.py, this project's model written from the rules.
Endings that are an engine's doing (resignation, time forfeit, crash, illegal move…) have their
moves checked and the ending taken as given.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys

# The runner's endings that the rules do not decide (the moves are still checked).
ENGINE_ENDINGS = {
    "resignation",
    "time forfeit",
    "crash",
    "unresponsive",
    "illegal move",
    "wrong declaration",
    "interrupted",
    "adjudication (score)",
    "adjudication (draw score)",
    "impasse (24 points)",
}


def split_position(text: str) -> tuple[str | None, list[str]]:
    """("startpos" → None, else the SFEN) and the moves of a runner's `position …` line."""
    words = text.split()[1:]
    k = words.index("moves") if "moves" in words else len(words)
    setup, moves = words[:k], words[k + 1 :]
    return (None if setup == ["startpos"] else " ".join(setup[1:])), moves


def expected_result(black_loses: bool | None) -> str:
    """The results.tsv result of a shogi-family game when Black loses (True), wins (False), or a
    draw (None): the runner writes "1-0" for a win of Black whoever moves first (a handicap
    start has White move first)."""
    if black_loses is None:
        return "1/2-1/2"
    return "0-1" if black_loses else "1-0"


def judge_repetition(keys: list, checks: list[bool], black_to_move: list[bool]) -> bool | None:
    """Who loses by perpetual check at the end of a game whose last position occurred for the
    fourth time: True for Black, False for White, None when no one checked throughout.
    `keys[i]` is the position after i plies, `checks[i]` whether ply i+1 gave check,
    `black_to_move[i]` whether Black is to move after i plies."""
    first = keys.index(keys[-1])
    for black in (True, False):
        # The plies played by this side since the first occurrence.
        plies = [i for i in range(first, len(keys) - 1) if black_to_move[i] == black]
        if plies and all(checks[i] for i in plies):
            return black
    return None


def check_repetition(
    reason: str, keys: list, checks: list[bool], black_to_move: list[bool]
) -> tuple[str | None, bool | None]:
    """For a game that ended by "repetition" or "perpetual check": why that ending is wrong (the
    last position not there the fourth time, or the perpetual check rule says otherwise), or None,
    and who loses by perpetual check (judge_repetition)."""
    seen = keys.count(keys[-1])
    if seen != 4:
        return f"{reason}, but the last position occurred {seen} times", None
    loser = judge_repetition(keys, checks, black_to_move)
    if (reason == "perpetual check") != (loser is not None):
        return f"{reason}, but the perpetual check rule gives {loser}", None
    return None, loser


def referee_shogi(start: str | None, moves: list[str], reason: str, result: str) -> str | None:
    import cshogi

    board = cshogi.Board(sfen=start) if start else cshogi.Board()
    keys = [board.zobrist_hash()]
    checks: list[bool] = []
    to_move = [board.turn == cshogi.BLACK]
    for i, mv in enumerate(moves):
        m = board.move_from_usi(mv)
        if not m or not board.is_legal(m):
            return f"ply {i + 1} {mv} is not legal for cshogi"
        board.push(m)
        checks.append(bool(board.is_check()))
        keys.append(board.zobrist_hash())
        to_move.append(board.turn == cshogi.BLACK)
        if keys.count(keys[-1]) >= 4 and i + 1 < len(moves):
            return f"ply {i + 1} {mv} reaches a position the fourth time, yet the game went on"
    black_to_move = board.turn == cshogi.BLACK
    if reason in ("checkmate", "no legal move"):
        if any(True for _ in board.legal_moves):
            return f"{reason}, but cshogi has legal moves"
        if (reason == "checkmate") != bool(board.is_check()):
            return f"{reason}, but cshogi's in-check is {board.is_check()}"
        want = expected_result(black_to_move)
    elif reason in ("repetition", "perpetual check"):
        why, loser = check_repetition(reason, keys, checks, to_move)
        if why:
            return why
        want = expected_result(loser)
    elif reason == "declaration":
        if not board.is_nyugyoku():
            return "a declaration cshogi does not allow (CSA 27 points)"
        want = expected_result(not black_to_move)
    elif reason == "max plies":
        want = "1/2-1/2"
    elif reason in ENGINE_ENDINGS:
        return None
    else:
        return f"an ending the rules do not give: {reason}"
    return None if result == want else f"result {result}, the rules give {want} ({reason})"


MINISHOGI_START = "rbsgk/4p/5/P4/KGSBR b - 1"


def referee_minishogi(
    start: str | None, moves: list[str], reason: str, result: str, repetition: str = "initiator"
) -> str | None:
    import pyffish

    import fsf_minishogi as fm

    sfen = start or MINISHOGI_START
    starts_black = sfen.split()[1] == "b"

    def key(s: str) -> str:
        return " ".join(s.split()[:3])

    def in_check(s: str) -> bool:
        return bool(pyffish.gives_check(fm.VARIANT, fm.sfen_to_fsf_fen(s), []))

    def jishogi(s: str) -> bool:
        black, white = fm.king_square(s, True), fm.king_square(s, False)
        return black is not None and white is not None and black[0] == 0 and white[0] == 4

    keys = [key(sfen)]
    checks: list[bool] = []
    to_move = [starts_black]
    for i, mv in enumerate(moves):
        if mv not in fm.legal_moves(sfen):
            return f"ply {i + 1} {mv} is not legal for pyffish"
        sfen = fm.apply_usi_move(sfen, mv)
        checks.append(in_check(sfen))
        keys.append(key(sfen))
        to_move.append(sfen.split()[1] == "b")
        early = keys.count(keys[-1]) >= 4 or jishogi(sfen)
        if early and i + 1 < len(moves):
            return f"ply {i + 1} {mv} ends the game (repetition or jishogi), yet it went on"
    black_to_move = sfen.split()[1] == "b"
    if reason in ("checkmate", "no legal move"):
        if fm.legal_moves(sfen):
            return f"{reason}, but pyffish has legal moves"
        if (reason == "checkmate") != in_check(sfen):
            return f"{reason}, but in check is {in_check(sfen)}"
        want = expected_result(black_to_move)
    elif reason in ("repetition", "perpetual check"):
        why, loser = check_repetition(reason, keys, checks, to_move)
        if why:
            return why
        if loser is not None:
            want = expected_result(loser)
        elif repetition == "initiator":  # the player to move in the repeated position loses
            want = expected_result(black_to_move)
        elif repetition == "sente-loses":  # Black loses
            want = expected_result(True)
        else:  # first-mover-loses: the player who moved first in the game
            want = expected_result(starts_black)
    elif reason == "jishogi":
        if not jishogi(sfen):
            return "jishogi, but the kings are not both on their last rank"
        want = "1/2-1/2"
    elif reason == "max plies":
        want = "1/2-1/2"
    elif reason in ENGINE_ENDINGS:
        return None
    else:
        return f"an ending the rules do not give: {reason}"
    return None if result == want else f"result {result}, the rules give {want} ({reason})"


def replay_moves(position, apply_move, moves: list[str]) -> str | None:
    """Plays `moves` with a model's `apply_move` (ValueError on an illegal move) from `position`:
    why one is illegal, or None."""
    for i, mv in enumerate(moves):
        try:
            position = apply_move(position, mv)
        except ValueError as exc:
            return f"ply {i + 1} {mv}: {exc}"
    return None


def referee_giveandtake(start: str | None, moves: list[str], reason: str, result: str) -> str | None:
    import giveandtake as gt

    text = start or gt.START
    if reason in ENGINE_ENDINGS:
        return replay_moves(gt.parse_position(text), gt.apply_move, moves)
    return gt.referee_game(text, moves, "move limit" if reason == "max plies" else reason, result)


def referee_nanashogi(start: str | None, moves: list[str], reason: str, result: str) -> str | None:
    import nana

    text = start or nana.START
    if reason in ENGINE_ENDINGS:
        return replay_moves(nana.parse_sfen(text), nana.apply_move, moves)
    return nana.referee_game(text, moves, reason, result)


REFEREES = {
    "shogi": referee_shogi,
    "minishogi": referee_minishogi,
    "nanashogi": referee_nanashogi,
    "giveandtake": referee_giveandtake,
}


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", required=True, choices=sorted(REFEREES))
    ap.add_argument("--every", type=int, default=1, help="replay every K-th game")
    ap.add_argument("--offset", type=int, default=0, help="starting with this row (0-based)")
    ap.add_argument(
        "--repetition",
        default="initiator",
        choices=["initiator", "sente-loses", "first-mover-loses"],
        help="minishogi: the MinishogiRepetition rule the games were played under",
    )
    ap.add_argument("files", nargs="+")
    args = ap.parse_args(argv)
    if args.every < 1:
        ap.error("--every must be at least 1")
    referee = REFEREES[args.game]
    out = {"game": args.game, "checked": 0, "moves": 0, "disagreements": []}
    for path in args.files:
        with open(path, newline="") as handle:
            for n, row in enumerate(csv.DictReader(handle, delimiter="\t")):
                if n < args.offset or (n - args.offset) % args.every:
                    continue
                start, moves = split_position(row["position"])
                try:
                    if args.game == "minishogi":
                        why = referee(start, moves, row["reason"], row["result"], args.repetition)
                    else:
                        why = referee(start, moves, row["reason"], row["result"])
                except Exception as exc:  # an oracle that cannot read the game is a finding too
                    why = f"the oracle failed: {exc!r}"
                out["checked"] += 1
                out["moves"] += len(moves)
                if why:
                    out["disagreements"].append({"file": path, "game": row["game"], "why": why})
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

#!/usr/bin/env python3
"""Independent reference implementation (oracle) of the draughts variant Give and Take.

Written only from the rules contract (RULES.md section 4, docs/rules.md in this repository)
and its notation (NOTATION.md, "### Give and Take"), without looking at the engine's code,
so that the two implementations check each other. Pure Python 3.11, standard library only.

Board: a 64-entry list indexed rank * 8 + file (rank 0 = rank 1, file 0 = file a).
Pieces: 1 White man, 2 White king, -1 Black man, -2 Black king, 0 empty.
Colours: +1 White, -1 Black (a piece p belongs to colour c when p * c > 0).

Command line:
    giveandtake.py perft "<position>" <depth>
    giveandtake.py moves "<position>" [move ...]
    giveandtake.py selftest
    giveandtake.py referee <results.tsv of tsubame-match --game giveandtake>
"<position>" may also be the word "startpos".

Resolutions of points the rules leave open:
  * A position in which the side NOT to move has no piece is a finished game
    (that player has lost): it has no legal move.
  * Men standing on their own or the enemy back rank in an input position are
    accepted as given (no crowning until a move ends, as for the lone man).
"""

from __future__ import annotations

import sys
import time

START = "8/mmmmmmmm/mmmmmmmm/8/8/MMMMMMMM/MMMMMMMM/8 w - 1"

WHITE, BLACK = 1, -1
WM, WK, BM, BK = 1, 2, -1, -2
EMPTY = 0

FILES = "abcdefgh"
PIECE_OF_CHAR = {"M": WM, "K": WK, "m": BM, "k": BK}
CHAR_OF_PIECE = {v: k for k, v in PIECE_OF_CHAR.items()}

# Directions: 0 north (+rank, White's forward), 1 south, 2 east (+file), 3 west.
N, S, E, W = 0, 1, 2, 3
_DELTAS = ((1, 0), (-1, 0), (0, 1), (0, -1))


def _build_rays():
    rays = []
    for sq in range(64):
        r0, f0 = divmod(sq, 8)
        per_dir = []
        for dr, df in _DELTAS:
            ray = []
            r, f = r0 + dr, f0 + df
            while 0 <= r < 8 and 0 <= f < 8:
                ray.append(r * 8 + f)
                r += dr
                f += df
            per_dir.append(tuple(ray))
        rays.append(tuple(per_dir))
    return tuple(rays)


RAYS = _build_rays()
# Directions in which a man of a colour may step or capture: forward and sideways.
MAN_DIRS = {WHITE: (N, E, W), BLACK: (S, E, W)}
# Back rank on which a man of a colour is crowned (rank index).
CROWN_RANK = {WHITE: 7, BLACK: 0}
MAN_OF = {WHITE: WM, BLACK: BM}
KING_OF = {WHITE: WK, BLACK: BK}


def sq_name(sq: int) -> str:
    return FILES[sq % 8] + str(sq // 8 + 1)


def parse_square(text: str) -> int:
    if len(text) != 2 or text[0] not in FILES or text[1] not in "12345678":
        raise ValueError(f"bad square {text!r} (expected a1..h8)")
    return (int(text[1]) - 1) * 8 + FILES.index(text[0])


# ---------------------------------------------------------------------------
# Position string
# ---------------------------------------------------------------------------

class Position:
    __slots__ = ("board", "side", "last", "number")

    def __init__(self, board, side, last, number):
        self.board = board      # list of 64 ints
        self.side = side        # WHITE or BLACK, side to move
        self.last = last        # square index where the last move ended, or None
        self.number = number    # move number (goes up after Black's move)

    def __repr__(self):
        return f"Position({format_position(self)!r})"


def parse_position(text: str) -> Position:
    if text.strip() == "startpos":
        text = START
    fields = text.split()
    if len(fields) != 4:
        raise ValueError(
            f"position string needs 4 fields (board, side, last square, move number), got {len(fields)}")
    placement, side_s, last_s, number_s = fields
    ranks = placement.split("/")
    if len(ranks) != 8:
        raise ValueError(f"board needs 8 ranks separated by '/', got {len(ranks)}")
    board = [EMPTY] * 64
    for i, rank_text in enumerate(ranks):
        rank = 7 - i
        f = 0
        if not rank_text:
            raise ValueError(f"rank {rank + 1} is empty")
        for ch in rank_text:
            if ch in PIECE_OF_CHAR:
                if f >= 8:
                    raise ValueError(f"rank {rank + 1} has more than 8 squares")
                board[rank * 8 + f] = PIECE_OF_CHAR[ch]
                f += 1
            elif ch in "12345678":
                f += int(ch)
                if f > 8:
                    raise ValueError(f"rank {rank + 1} has more than 8 squares")
            else:
                raise ValueError(f"bad character {ch!r} in rank {rank + 1}")
        if f != 8:
            raise ValueError(f"rank {rank + 1} has {f} squares, not 8")
    if side_s == "w":
        side = WHITE
    elif side_s == "b":
        side = BLACK
    else:
        raise ValueError(f"side to move must be 'w' or 'b', got {side_s!r}")
    if last_s == "-":
        last = None
    else:
        try:
            last = parse_square(last_s)
        except ValueError as exc:
            raise ValueError(f"last-moved square: {exc}") from None
    if not number_s.isdigit() or int(number_s) < 1:
        raise ValueError(f"move number must be a positive integer, got {number_s!r}")
    return Position(board, side, last, int(number_s))


def format_position(pos: Position) -> str:
    rows = []
    b = pos.board
    for rank in range(7, -1, -1):
        out = []
        run = 0
        for f in range(8):
            p = b[rank * 8 + f]
            if p == EMPTY:
                run += 1
            else:
                if run:
                    out.append(str(run))
                    run = 0
                out.append(CHAR_OF_PIECE[p])
        if run:
            out.append(str(run))
        rows.append("".join(out))
    side = "w" if pos.side == WHITE else "b"
    last = "-" if pos.last is None else sq_name(pos.last)
    return f"{'/'.join(rows)} {side} {last} {pos.number}"


# ---------------------------------------------------------------------------
# Move generation. Internal move: (stops, captured) where stops is a tuple of
# squares from start to final landing square and captured a tuple of the
# squares of the captured pieces in order (empty for a step).
# ---------------------------------------------------------------------------

def _king_can_capture(board, sq, color):
    """Whether a king of `color` on `sq` has a capture (board as it is now)."""
    for ray in RAYS[sq]:
        n = len(ray)
        i = 0
        while i < n and board[ray[i]] == EMPTY:
            i += 1
        if i < n - 1 and board[ray[i]] * color < 0 and board[ray[i + 1]] == EMPTY:
            return True
    return False


def _man_dfs(board, cur, color, dirs, stops, caps, out):
    found = False
    rays = RAYS[cur]
    for d in dirs:
        ray = rays[d]
        if len(ray) >= 2:
            a = ray[0]
            q = board[a]
            if q * color < 0 and board[ray[1]] == EMPTY:
                found = True
                board[a] = EMPTY
                stops.append(ray[1])
                caps.append(a)
                _man_dfs(board, ray[1], color, dirs, stops, caps, out)
                stops.pop()
                caps.pop()
                board[a] = q
    if not found and len(stops) > 1:
        out.append((tuple(stops), tuple(caps)))


def _king_dfs(board, cur, color, stops, caps, out):
    found = False
    for ray in RAYS[cur]:
        n = len(ray)
        i = 0
        while i < n and board[ray[i]] == EMPTY:
            i += 1
        if i >= n - 1:
            continue  # no piece on the line, or it stands on the edge
        a = ray[i]
        q = board[a]
        if q * color >= 0:
            continue  # own piece blocks
        lands = []
        j = i + 1
        while j < n and board[ray[j]] == EMPTY:
            lands.append(ray[j])
            j += 1
        if not lands:
            continue
        found = True
        board[a] = EMPTY  # captured pieces are removed at once
        caps.append(a)
        cont = [sq for sq in lands if _king_can_capture(board, sq, color)]
        if cont:
            # must land where a further capture is possible
            for sq in cont:
                stops.append(sq)
                _king_dfs(board, sq, color, stops, caps, out)
                stops.pop()
        else:
            st = tuple(stops)
            cp = tuple(caps)
            for sq in lands:
                out.append((st + (sq,), cp))
        caps.pop()
        board[a] = q
    if not found and len(stops) > 1:
        out.append((tuple(stops), tuple(caps)))


def _captures(board, color):
    out = []
    dirs = MAN_DIRS[color]
    man = MAN_OF[color]
    for s in range(64):
        p = board[s]
        if p * color <= 0:
            continue
        board[s] = EMPTY  # the start square counts as empty during the move
        if p == man:
            _man_dfs(board, s, color, dirs, [s], [], out)
        else:
            _king_dfs(board, s, color, [s], [], out)
        board[s] = p
    return out


def _steps(board, color):
    out = []
    dirs = MAN_DIRS[color]
    man = MAN_OF[color]
    for s in range(64):
        p = board[s]
        if p * color <= 0:
            continue
        rays = RAYS[s]
        if p == man:
            for d in dirs:
                ray = rays[d]
                if ray and board[ray[0]] == EMPTY:
                    out.append(((s, ray[0]), ()))
        else:
            for ray in rays:
                for t in ray:
                    if board[t] != EMPTY:
                        break
                    out.append(((s, t), ()))
    return out


def _has_pieces(board, color):
    if color == WHITE:
        return WM in board or WK in board
    return BM in board or BK in board


def _legal(board, side, last):
    """Legal internal moves of `side` on `board` with last-moved square `last`."""
    if not _has_pieces(board, -side):
        return []  # the opponent has no piece: the game is over
    caps = _captures(board, side)
    if last is not None and board[last] * side < 0 and caps:
        # capture obligation against the piece just moved, if it can be taken directly
        if any(c[1][0] == last for c in caps):
            return [c for c in caps if last in c[1]]
    return _steps(board, side) + caps


def _apply(board, side, move):
    """New board after `move` by `side` (crowning and last-piece rule applied)."""
    stops, caps = move
    b = board[:]
    frm = stops[0]
    to = stops[-1]
    p = b[frm]
    b[frm] = EMPTY
    for c in caps:
        b[c] = EMPTY
    if p == MAN_OF[side] and to // 8 == CROWN_RANK[side]:
        p = KING_OF[side]
    b[to] = p
    # last-piece rule, for both sides
    if b.count(WM) == 1 and b.count(WK) == 0:
        b[b.index(WM)] = WK
    if b.count(BM) == 1 and b.count(BK) == 0:
        b[b.index(BM)] = BK
    return b


def move_string(move) -> str:
    stops, caps = move
    if not caps:
        return f"{sq_name(stops[0])}-{sq_name(stops[1])}"
    return ":".join(sq_name(s) for s in stops)


def legal_moves(pos: Position) -> list[str]:
    return sorted(move_string(m) for m in _legal(pos.board, pos.side, pos.last))


def _after(pos: Position, move) -> Position:
    board = _apply(pos.board, pos.side, move)
    number = pos.number + (1 if pos.side == BLACK else 0)
    return Position(board, -pos.side, move[0][-1], number)


def _refusal_reason(pos: Position, text: str) -> str:
    moves = _legal(pos.board, pos.side, pos.last)
    names = [move_string(m) for m in moves]
    if not moves:
        return "there is no legal move (the game is over)"
    if ":" in text and any(n.startswith(text + ":") for n in names):
        return "the capture route stops short of a further capture"
    last = pos.last
    if last is not None and all(last in m[1] for m in moves) and all(m[1] for m in moves):
        if pos.board[last] * pos.side < 0:
            return f"the piece just moved, on {sq_name(last)}, can be taken and must be"
    return "not a legal move"


def apply_move(pos: Position, text: str) -> Position:
    """Play move string `text`; raise ValueError if it is not legal."""
    for m in _legal(pos.board, pos.side, pos.last):
        if move_string(m) == text:
            return _after(pos, m)
    raise ValueError(f"illegal move {text!r} in {format_position(pos)}: {_refusal_reason(pos, text)}")


def _perft(board, side, last, depth):
    moves = _legal(board, side, last)
    if depth == 1:
        return len(moves)
    total = 0
    nd = depth - 1
    for m in moves:
        total += _perft(_apply(board, side, m), -side, m[0][-1], nd)
    return total


def perft(pos: Position, depth: int) -> int:
    if depth <= 0:
        return 1
    return _perft(pos.board, pos.side, pos.last, depth)


def perft_divide(pos: Position, depth: int) -> list[tuple[str, int]]:
    res = []
    for m in _legal(pos.board, pos.side, pos.last):
        child = _after(pos, m)
        res.append((move_string(m), perft(child, depth - 1)))
    res.sort()
    return res


# ---------------------------------------------------------------------------
# Self test: the "Checks against the article" of RULES.md section 4
# ---------------------------------------------------------------------------

def _play(pos_text, moves):
    pos = parse_position(pos_text)
    for mv in moves:
        pos = apply_move(pos, mv)
    return pos


def selftest() -> int:
    results = []

    def check(name, fn):
        try:
            ok, detail = fn()
        except Exception as exc:  # noqa: BLE001
            ok, detail = False, f"exception: {exc}"
        results.append(ok)
        print(f"{'PASS' if ok else 'FAIL'}: {name}" + (f" -- {detail}" if detail else ""))

    def c_roundtrip():
        pos = parse_position(START)
        s = format_position(pos)
        ok = s == START and len(legal_moves(pos)) == 8
        return ok, f"{s}; {len(legal_moves(pos))} moves"
    check("start position round-trips and has 8 moves", c_roundtrip)

    def c_malformed():
        bad = ["", "8/8/8/8/8/8/8 w - 1", "9/8/8/8/8/8/8/8 w - 1", "8/8/8/8/8/8/8/7x w - 1",
               "8/8/8/8/8/8/8/8 x - 1", "8/8/8/8/8/8/8/8 w i9 1", "8/8/8/8/8/8/8/8 w - 0",
               "8/8/8/8/8/8/8/8 w -", "7/8/8/8/8/8/8/8 w - 1", "44M/8/8/8/8/8/8/8 w - 1"]
        refused = []
        for t in bad:
            try:
                parse_position(t)
            except ValueError as exc:
                refused.append(str(exc))
        return len(refused) == len(bad), f"{len(refused)}/{len(bad)} malformed strings refused"
    check("malformed position strings raise ValueError", c_malformed)

    def c1():
        pos = _play(START, ["c3-c4", "c6-c5"])
        mv = legal_moves(pos)
        after = apply_move(pos, "c4:c6:c8")
        crowned = after.board[parse_square("c8")] == WK
        return mv == ["c4:c6:c8"] and crowned, f"legal {mv}; c8 crowned: {crowned}"
    check("c3-c4 c6-c5: only c4:c6:c8, crowned on c8", c1)

    def c2():
        pos = _play(START, ["b3-b4", "a6-a5", "b4-b5"])
        mv = legal_moves(pos)
        return mv == ["a5:c5", "b6:b4"], f"legal {mv}"
    check("b3-b4 a6-a5 b4-b5: Black's moves are exactly a5:c5, b6:b4", c2)

    def c3():
        pos = _play(START, ["b3-b4", "a6-a5", "b4-c4", "a5-b5", "a3-a4", "b5-b4", "e3-e4"])
        mv = legal_moves(pos)
        caps = [m for m in mv if ":" in m]
        quiet = [m for m in mv if ":" not in m]
        refused = "b4:d4" not in mv
        return (caps == ["b4:d4:f4"] and len(quiet) > 0 and refused,
                f"{len(quiet)} quiet moves; captures {caps}; b4:d4 refused: {refused}")
    check("f4/e5 case: nothing obligatory, only capture b4:d4:f4", c3)

    king_pos = "8/4m3/8/4K3/8/4m3/2m3m1/8 w - 1"

    def c4():
        pos = parse_position(king_pos)
        mv = legal_moves(pos)
        a = "e5:e8:e2:a2:h2" in mv
        b = "e5:e1:e8" in mv
        c = "e5:e8:e1" not in mv
        return a and b and c, f"{king_pos}: {len(mv)} moves; e5:e8:e2:a2:h2 {a}, e5:e1:e8 {b}, e5:e8:e1 refused {c}"
    check("king e5 vs e7 e3 c2 g2", c4)

    end1 = "K7/1m6/1m6/8/m7/m7/8/KK6 b - 1"

    def c5():
        pos = _play(end1, ["b6-a6", "a8:a5", "b7-b6", "b1:b8", "a3-a2", "a1:a3"])
        lone_king = pos.board[parse_square("a4")] == BK
        mv = legal_moves(pos)
        ok_mv = "a4:a1:a8:c8" in mv
        final = apply_move(pos, "a4:a1:a8:c8")
        white_gone = not _has_pieces(final.board, WHITE)
        no_moves = legal_moves(final) == []
        return (lone_king and ok_mv and white_gone and no_moves,
                f"a4 king: {lone_king}; a4:a1:a8:c8 legal: {ok_mv}; final {format_position(final)}, "
                f"White without pieces and moves: {white_gone and no_moves}")
    check("ending four men v three kings", c5)

    end2 = "8/3m4/m6m/2mm1M1m/2m1m3/2MM3M/m1M2MM1/8 w - 1"

    def c6():
        pos = _play(end2, ["d3-d4", "d5:d3:b3", "h3-h4", "h5:h3", "g2-g3", "h3:f3:f1", "c2-b2", "b3:b1"])
        f5_king = pos.board[parse_square("f5")] == WK
        f1_king = pos.board[parse_square("f1")] == BK
        b1_king = pos.board[parse_square("b1")] == BK
        big = "f5:a5:a7:h7:h1:e1:a1:a4:d4:f4"
        mv = legal_moves(pos)
        ok_mv = big in mv
        final = apply_move(pos, big)
        black_gone = not _has_pieces(final.board, BLACK)
        return (f5_king and f1_king and b1_king and ok_mv and black_gone,
                f"f5 king {f5_king}, f1/b1 Black kings {f1_king}/{b1_king}; big capture legal {ok_mv}; "
                f"final {format_position(final)}, Black without pieces: {black_gone}")
    check("ending Elis-McCallion", c6)

    failed = results.count(False)
    print(f"{len(results) - failed}/{len(results)} checks passed")
    return 1 if failed else 0


# ---------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------

def _repetition_key(pos: Position) -> tuple:
    """What the draw rule compares: board, side to move, and the just-moved square while the
    piece on it must be taken."""
    caps = _captures(pos.board, pos.side)
    obliged = (
        pos.last is not None
        and pos.board[pos.last] * pos.side < 0
        and any(c[1][0] == pos.last for c in caps)
    )
    return (tuple(pos.board), pos.side, pos.last if obliged else None)


def referee_game(start: str, moves: list[str], reason: str, result: str | None = None) -> str | None:
    """Replays a game of tsubame-match (its start position, its moves, the ending it reported
    and, when given, its result: "1-0" a win of White, who moves first, "0-1" of Black,
    "1/2-1/2" a draw); returns why the model disagrees, or None when every move is legal and
    the ending and result are what the rules say."""
    pos = parse_position(start)
    seen = {_repetition_key(pos): 1}
    for i, mv in enumerate(moves):
        try:
            pos = apply_move(pos, mv)
        except ValueError as exc:
            return f"move {i + 1} {mv}: {exc}"
        key = _repetition_key(pos)
        seen[key] = seen.get(key, 0) + 1
        if seen[key] >= 3 and i + 1 < len(moves):
            return f"move {i + 1} {mv} repeats a position for the third time, yet the game went on"
    if reason == "no legal move":
        if legal_moves(pos):
            return "the side to move still has legal moves"
        expected = "0-1" if pos.side == WHITE else "1-0"
    elif reason == "repetition":
        if seen[_repetition_key(pos)] < 3:
            return "no third occurrence at the end"
        expected = "1/2-1/2"
    elif reason == "move limit":
        expected = "1/2-1/2"
    else:
        return f"an ending the rules do not give: {reason}"
    if result is not None and result != expected:
        return f"result {result}, the rules give {expected} ({reason})"
    return None


def referee_file(path: str) -> int:
    """Checks every game of a tsubame-match results.tsv; prints a summary, returns the number
    of games the model disagrees with."""
    import csv as _csv

    bad = 0
    total = 0
    reasons: dict[str, int] = {}
    with open(path, newline="") as handle:
        for row in _csv.DictReader(handle, delimiter="\t"):
            total += 1
            # "position startpos|sfen <four fields> [moves ...]", as the runner sent it.
            words = row["position"].split()[1:]
            k = words.index("moves") if "moves" in words else len(words)
            setup, moves = words[:k], words[k + 1 :]
            start = START if setup == ["startpos"] else " ".join(setup[1:])
            reasons[row["reason"]] = reasons.get(row["reason"], 0) + 1
            why = referee_game(start, moves, row["reason"], row["result"])
            if why:
                bad += 1
                print(f"game {row['game']}: {why}")
    print(f"{total} games replayed, {bad} disagreements; endings: {reasons}")
    return bad


def main(argv) -> int:
    if len(argv) >= 2 and argv[1] == "selftest":
        return selftest()
    if len(argv) == 3 and argv[1] == "referee":
        return 1 if referee_file(argv[2]) else 0
    if len(argv) == 4 and argv[1] == "perft":
        try:
            pos = parse_position(argv[2])
            depth = int(argv[3])
        except ValueError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 1
        total = 0
        if depth >= 1:
            for name, count in perft_divide(pos, depth):
                print(f"{name}: {count}")
                total += count
        else:
            total = 1
        print(f"Nodes searched: {total}")
        return 0
    if len(argv) >= 3 and argv[1] == "moves":
        try:
            pos = parse_position(argv[2])
        except ValueError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 1
        for mv in argv[3:]:
            try:
                pos = apply_move(pos, mv)
            except ValueError as exc:
                print(f"error: {exc}", file=sys.stderr)
                return 1
        for mv in legal_moves(pos):
            print(mv)
        return 0
    print(__doc__.split("\n\n")[2] if __doc__ else "usage", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))

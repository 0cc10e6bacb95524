#!/usr/bin/env python3
"""Independent reference implementation (oracle) of nana shogi (3x3).

Written only from the rules contract (RULES.md section 3, "Nana shogi") and its notation
(NOTATION.md, "### Nana shogi letters" and "Squares, moves, SFEN"), without looking at the
engine's code, so that the two implementations check each other. Pure Python 3.11, standard
library only.

Board: a tuple of 9 one-character strings indexed row * 3 + col, in SFEN order: row 0 is rank
`a`, row 2 rank `c`; col 0 is file 3, col 2 file 1 (so index 4 is the centre, 2b). An empty
square is ".", a piece is the letter of its current state, uppercase for Black, lowercase for
White: K king; orthogonal cube R, C, W, I; diagonal cube B, T, M, D.
Hands: a tuple of 6 counts, (K, R, B) of Black then (K, R, B) of White; R stands for an
orthogonal cube and B for a diagonal cube, whatever state they were captured in.
Sides: 0 Black (moves first, forward is towards rank a), 1 White.

Command line:
    nana.py perft "<sfen>" <depth>          (perft divide, then "Nodes searched: N")
    nana.py moves "<sfen>" [move ...]       (the legal moves after the moves given)
    nana.py selftest
    nana.py nesting                         (where the depth of the hand-mate rule matters)
"<sfen>" may also be the word "startpos" (3/3/3 b KRBkrb 1).

Resolutions of points the rules leave open (or readings of them):
  * "Black's first move must be his king drop, then White's": generalised as "a player whose
    king is in hand has no other legal move than dropping it". Like every drop, the king drop
    goes to an empty square other than the centre, may not give check (not next to the enemy
    king) and may not stand on an attacked square.
  * "No checkmate with pieces in hand", nested at most three levels deep: the rule is applied
    when generating the legal moves of a position (level 1), when judging whether the
    opponent has a legal reply to a checking move (level 2), and at the level below that
    (level 3); at level 4 a move is legal when it obeys every other rule. "The mover held a
    piece in hand" counts any piece, the king not yet dropped included. (The levels below the
    first never change a move list: for level 2 to matter, the side in check and its opponent
    must both hold a piece, which leaves at most two cubes on the board, and an exhaustive
    search of all such positions (`nana.py nesting`) finds none where the replies to a check
    are all mates with a piece in hand. MATE_RULE_LEVELS = 0 switches the rule off.)
  * A drop may not give check: the opponent must not be in check after it (a drop only
    blocks lines, so this is the dropped piece's own attack). Only board moves can checkmate.
  * A player with no king (on the board or in hand) can never be in check (RULES.md
    section 0); a position in which the side to move attacks the enemy king is refused as
    invalid input, as are more than one king of a side and more than two cubes of a kind
    (only four cubes exist).
  * The SFEN move number is read (default 1 when absent) and goes up by one each move.
  * Perft counts the moves of positions whose game is over by repetition like any other
    (repetition is a game rule, not a move-generation rule, as in shogi perft).
  * Results: "1-0" is a win of Black (the first mover in nana shogi), whatever side is to
    move in the start position of a game.
"""

from __future__ import annotations

import sys

START = "3/3/3 b KRBkrb 1"
BLACK, WHITE = 0, 1
CENTRE = 4
EMPTY = "."
MATE_RULE_LEVELS = 3

# Cycle of states; each board move of a cube turns it to the next one.
NEXT_STATE = {"R": "C", "C": "W", "W": "I", "I": "R", "B": "T", "T": "M", "M": "D", "D": "B"}
ORTHOGONAL = "RCWI"
DIAGONAL = "BTMD"
HAND_KINDS = "KRB"  # index 0, 1, 2 in a side's part of the hand

# Moves from Black's view as (drow, dcol, slides): drow -1 is forward (towards rank a).
# dcol is a change of column; every state is left-right symmetric, so its sign is immaterial.
_ORTHO = ((-1, 0), (1, 0), (0, -1), (0, 1))
_DIAG = ((-1, -1), (-1, 1), (1, -1), (1, 1))
MOVES = {
    "K": [(dr, dc, False) for dr, dc in _ORTHO + _DIAG],
    "R": [(dr, dc, False) for dr, dc in _ORTHO],           # one step orthogonally (v3.0)
    "C": [(-1, 0, True), (1, 0, True)],                      # slides forward or backward
    "W": [(0, -1, False), (0, 1, False)],                    # one step left or right
    "I": [(-1, 0, False), (1, 0, False)],                    # one step forward or backward
    "B": [(dr, dc, True) for dr, dc in _DIAG],               # slides diagonally
    "T": [(-1, -1, False), (-1, 1, False), (1, 0, False)],   # diagonally forward, straight back
    "M": [(dr, dc, False) for dr, dc in _DIAG],              # one step each diagonal
    "D": [(-1, 0, False), (1, -1, False), (1, 1, False)],    # straight forward, diagonally back
}


def _build_rays():
    """RAYS[letter][sq]: tuple of rays (tuples of squares in order) for a piece written
    `letter` (case gives the owner) standing on sq."""
    rays = {}
    for state, moves in MOVES.items():
        for letter, fwd in ((state, 1), (state.lower(), -1)):
            per_sq = []
            for sq in range(9):
                r0, c0 = divmod(sq, 3)
                out = []
                for dr, dc, slides in moves:
                    dr *= fwd
                    ray = []
                    r, c = r0 + dr, c0 + dc
                    while 0 <= r < 3 and 0 <= c < 3:
                        ray.append(r * 3 + c)
                        if not slides:
                            break
                        r += dr
                        c += dc
                    if ray:
                        out.append(tuple(ray))
                per_sq.append(tuple(out))
            rays[letter] = tuple(per_sq)
    return rays


RAYS = _build_rays()


def color_of(p: str) -> int:
    return BLACK if p.isupper() else WHITE


def sq_name(sq: int) -> str:
    r, c = divmod(sq, 3)
    return f"{3 - c}{'abc'[r]}"


def parse_square(text: str) -> int:
    if len(text) != 2 or text[0] not in "123" or text[1] not in "abc":
        raise ValueError(f"bad square {text!r} (expected 1a..3c)")
    return "abc".index(text[1]) * 3 + (3 - int(text[0]))


class Position:
    __slots__ = ("board", "hand", "side", "number")

    def __init__(self, board, hand, side, number=1):
        self.board = board    # tuple of 9 letters
        self.hand = hand      # tuple of 6 counts
        self.side = side      # BLACK or WHITE, to move
        self.number = number  # SFEN move number

    def key(self) -> tuple:
        """What repetition compares: board with states, both hands, side to move."""
        return (self.board, self.hand, self.side)

    def __repr__(self):
        return f"Position({format_sfen(self)!r})"


# ---------------------------------------------------------------------------
# Attacks
# ---------------------------------------------------------------------------

def _attacks(board, p, sq, target) -> bool:
    for ray in RAYS[p][sq]:
        for t in ray:
            if t == target:
                return True
            if board[t] != EMPTY:
                break
    return False


def attacked(board, target: int, by: int) -> bool:
    """Whether a piece of colour `by` attacks square `target`."""
    for sq in range(9):
        p = board[sq]
        if p != EMPTY and color_of(p) == by and _attacks(board, p, sq, target):
            return True
    return False


def king_square(board, side: int):
    k = "K" if side == BLACK else "k"
    return board.index(k) if k in board else None


def in_check(board, side: int) -> bool:
    ksq = king_square(board, side)
    return ksq is not None and attacked(board, ksq, 1 - side)


# ---------------------------------------------------------------------------
# SFEN
# ---------------------------------------------------------------------------

def parse_sfen(text: str) -> Position:
    text = text.strip()
    if text == "startpos":
        text = START
    fields = text.split()
    if fields and fields[0] == "sfen":
        fields = fields[1:]
    if len(fields) not in (3, 4):
        raise ValueError(f"SFEN needs board, side, hand [and move number], got {len(fields)} fields")
    placement, side_s, hand_s = fields[:3]
    ranks = placement.split("/")
    if len(ranks) != 3:
        raise ValueError(f"board needs 3 ranks separated by '/', got {len(ranks)}")
    board = []
    for i, rank_text in enumerate(ranks):
        row = []
        for ch in rank_text:
            if ch in "123":
                row.extend([EMPTY] * int(ch))
            elif ch.upper() in MOVES:
                row.append(ch)
            elif ch == "+":
                raise ValueError("'+' is not used in nana shogi")
            else:
                raise ValueError(f"bad character {ch!r} in rank {'abc'[i]}")
        if len(row) != 3:
            raise ValueError(f"rank {'abc'[i]} has {len(row)} squares, not 3")
        board.extend(row)
    if side_s not in ("b", "w"):
        raise ValueError(f"side to move must be 'b' or 'w', got {side_s!r}")
    side = BLACK if side_s == "b" else WHITE
    hand = [0] * 6
    if hand_s != "-":
        count = ""
        seen = set()
        for ch in hand_s:
            if ch.isdigit():
                count += ch
                continue
            if ch.upper() not in HAND_KINDS:
                raise ValueError(f"bad hand piece {ch!r} (K, R or B)")
            if ch in seen:
                raise ValueError(f"hand letter {ch!r} written twice (use a count)")
            seen.add(ch)
            n = int(count) if count else 1
            if n < 1:
                raise ValueError(f"bad count {count!r} in hand")
            hand[(0 if ch.isupper() else 3) + HAND_KINDS.index(ch.upper())] = n
            count = ""
        if count:
            raise ValueError("hand ends with a count")
    number = 1
    if len(fields) == 4:
        if not fields[3].isdigit() or int(fields[3]) < 1:
            raise ValueError(f"move number must be a positive integer, got {fields[3]!r}")
        number = int(fields[3])
    board = tuple(board)
    for s, k in ((BLACK, "K"), (WHITE, "k")):
        if board.count(k) + hand[3 * s] > 1:
            raise ValueError(f"{'Black' if s == BLACK else 'White'} has more than one king")
    ortho = sum(1 for p in board if p.upper() in ORTHOGONAL) + hand[1] + hand[4]
    diag = sum(1 for p in board if p.upper() in DIAGONAL) + hand[2] + hand[5]
    if ortho > 2 or diag > 2:
        raise ValueError("more than two cubes of a kind")
    if in_check(board, 1 - side):
        raise ValueError("the side to move could capture the enemy king")
    return Position(board, tuple(hand), side, number)


def format_sfen(pos: Position) -> str:
    rows = []
    for r in range(3):
        out, run = [], 0
        for c in range(3):
            p = pos.board[r * 3 + c]
            if p == EMPTY:
                run += 1
            else:
                if run:
                    out.append(str(run))
                    run = 0
                out.append(p)
        if run:
            out.append(str(run))
        rows.append("".join(out))
    hand = ""
    for s in (BLACK, WHITE):
        for i, kind in enumerate(HAND_KINDS):
            n = pos.hand[3 * s + i]
            if n:
                hand += (str(n) if n > 1 else "") + (kind if s == BLACK else kind.lower())
    return f"{'/'.join(rows)} {'b' if pos.side == BLACK else 'w'} {hand or '-'} {pos.number}"


# ---------------------------------------------------------------------------
# Moves. Internal move: (frm, to, drop) where frm is None and drop the uppercase state letter
# for a drop, and drop is None for a board move.
# ---------------------------------------------------------------------------

def _pseudo(board, hand, side):
    """Moves before the check rules: piece moves, and drops on empty non-centre squares."""
    base = 3 * side
    empties = [sq for sq in range(9) if board[sq] == EMPTY and sq != CENTRE]
    if hand[base]:  # the king is still in hand: dropping it is the only move
        return [(None, sq, "K") for sq in empties]
    out = []
    for sq in range(9):
        p = board[sq]
        if p == EMPTY or color_of(p) != side:
            continue
        for ray in RAYS[p][sq]:
            for t in ray:
                q = board[t]
                if q == EMPTY:
                    out.append((sq, t, None))
                    continue
                if color_of(q) != side:
                    out.append((sq, t, None))
                break
    if hand[base + 1]:
        out += [(None, sq, s) for s in ORTHOGONAL for sq in empties]
    if hand[base + 2]:
        out += [(None, sq, s) for s in DIAGONAL for sq in empties]
    return out


def _apply(board, hand, side, move):
    """(board, hand) after `move` by `side`."""
    frm, to, drop = move
    b = list(board)
    h = list(hand)
    base = 3 * side
    if drop is not None:
        h[base + HAND_KINDS.index("K" if drop == "K" else "R" if drop in ORTHOGONAL else "B")] -= 1
        b[to] = drop if side == BLACK else drop.lower()
    else:
        p = b[frm]
        q = b[to]
        if q != EMPTY:
            kind = q.upper()
            if kind == "K":
                raise ValueError("a move captures a king")
            h[base + (1 if kind in ORTHOGONAL else 2)] += 1
        b[frm] = EMPTY
        if p.upper() != "K":
            nxt = NEXT_STATE[p.upper()]
            p = nxt if side == BLACK else nxt.lower()
        b[to] = p
    return tuple(b), tuple(h)


def _moves(board, hand, side, level, first_only=False):
    """Legal moves at nesting `level` of the no-mate-with-hand rule (1 = the real move list).
    With first_only, stops at the first legal move found (a list of at most one)."""
    out = []
    holds = any(hand[3 * side: 3 * side + 3])
    for m in _pseudo(board, hand, side):
        b, h = _apply(board, hand, side, m)
        if in_check(b, side):
            continue
        if in_check(b, 1 - side):
            if m[2] is not None:
                continue  # a drop may never give check
            if holds and level <= MATE_RULE_LEVELS and not _moves(b, h, 1 - side, level + 1, True):
                continue  # checkmate with a piece in hand
        out.append(m)
        if first_only:
            break
    return out


def move_string(move) -> str:
    frm, to, drop = move
    if drop is not None:
        return f"{drop}*{sq_name(to)}"
    return sq_name(frm) + sq_name(to)


def legal_moves(pos: Position) -> list[str]:
    return sorted(move_string(m) for m in _moves(pos.board, pos.hand, pos.side, 1))


def _after(pos: Position, move) -> Position:
    b, h = _apply(pos.board, pos.hand, pos.side, move)
    return Position(b, h, 1 - pos.side, pos.number + 1)


def apply_move(pos: Position, text: str) -> Position:
    """Play USI move `text`; raise ValueError if it is malformed or not legal."""
    for m in _moves(pos.board, pos.hand, pos.side, 1):
        if move_string(m) == text:
            return _after(pos, m)
    raise ValueError(f"illegal move {text!r} in {format_sfen(pos)}: {_refusal_reason(pos, text)}")


def _refusal_reason(pos: Position, text: str) -> str:
    """Why `text` is not a legal move (best effort, for messages)."""
    if text.endswith("+"):
        return "nana shogi has no promotion"
    frm = to = drop = None
    try:
        if len(text) == 4 and text[1] == "*":
            drop, to = text[0], parse_square(text[2:])
            if drop not in MOVES:
                return f"no piece state {drop!r}"
        elif len(text) == 4:
            frm, to = parse_square(text[:2]), parse_square(text[2:])
        else:
            return "malformed move"
    except ValueError as exc:
        return str(exc)
    if not _moves(pos.board, pos.hand, pos.side, 1):
        return "there is no legal move (the game is over)"
    side = pos.side
    if drop is not None:
        if pos.hand[3 * side] and drop != "K":
            return "the king must be dropped first"
        kind = "K" if drop == "K" else "R" if drop in ORTHOGONAL else "B"
        if not pos.hand[3 * side + HAND_KINDS.index(kind)]:
            return "that piece is not in hand"
        if to == CENTRE:
            return "no drop on the centre"
        if pos.board[to] != EMPTY:
            return "the square is occupied"
        b, _ = _apply(pos.board, pos.hand, side, (None, to, drop))
        if in_check(b, side):
            return "it leaves the king in check"
        return "a drop may not give check"
    if pos.hand[3 * side]:
        return "the king must be dropped first"
    move = (frm, to, None)
    if move not in _pseudo(pos.board, pos.hand, side):
        return "the piece there cannot move so"
    b, h = _apply(pos.board, pos.hand, side, move)
    if in_check(b, side):
        return "it leaves the king in check"
    return "a checkmate while holding a piece in hand"


def _perft(board, hand, side, depth):
    moves = _moves(board, hand, side, 1)
    if depth == 1:
        return len(moves)
    total = 0
    for m in moves:
        b, h = _apply(board, hand, side, m)
        total += _perft(b, h, 1 - side, depth - 1)
    return total


def perft(pos: Position, depth: int) -> int:
    if depth <= 0:
        return 1
    return _perft(pos.board, pos.hand, pos.side, depth)


def perft_divide(pos: Position, depth: int) -> list[tuple[str, int]]:
    res = []
    for m in _moves(pos.board, pos.hand, pos.side, 1):
        res.append((move_string(m), perft(_after(pos, m), depth - 1)))
    res.sort()
    return res


def position_in_check(pos: Position) -> bool:
    return in_check(pos.board, pos.side)


def nesting_search() -> tuple[int, list[str]]:
    """Every position where the nesting of the hand-mate rule below level 1 could matter:
    both kings on the board, the side to move in check, both sides holding a cube (so at most
    two cubes on the board). Returns how many were examined and those (as SFEN) whose side
    to move has moves that obey every other rule, yet none legal at level 2, where its own
    mates with a piece in hand are refused. An empty list means the depth never matters."""
    import itertools

    letters = list(ORTHOGONAL + DIAGONAL) + list((ORTHOGONAL + DIAGONAL).lower())
    examined = 0
    found = []
    for kb, kw in itertools.permutations(range(9), 2):
        rest = [sq for sq in range(9) if sq not in (kb, kw)]
        for k in (0, 1, 2):
            for squares in itertools.combinations(rest, k):
                for placed in itertools.product(letters, repeat=k):
                    b = [EMPTY] * 9
                    b[kb], b[kw] = "K", "k"
                    for sq, p in zip(squares, placed):
                        b[sq] = p
                    b = tuple(b)
                    checked = [in_check(b, BLACK), in_check(b, WHITE)]
                    if checked[0] == checked[1]:
                        continue
                    side = BLACK if checked[0] else WHITE
                    no = 2 - sum(p.upper() in ORTHOGONAL for p in b if p != EMPTY)
                    nd = 2 - sum(p.upper() in DIAGONAL for p in b if p != EMPTY)
                    for ob in range(no + 1):
                        for db in range(nd + 1):
                            hand = (0, ob, db, 0, no - ob, nd - db)
                            if not any(hand[0:3]) or not any(hand[3:6]):
                                continue
                            examined += 1
                            if _moves(b, hand, side, MATE_RULE_LEVELS + 1, True) and \
                                    not _moves(b, hand, side, 2, True):
                                found.append(format_sfen(Position(b, hand, side, 1)))
    return examined, found


# ---------------------------------------------------------------------------
# Referee
# ---------------------------------------------------------------------------

def referee_game(start: str, moves: list[str], reason: str, result: str | None = None) -> str | None:
    """Replays a game of tsubame-match (its start SFEN or "startpos", its moves, the ending it
    reported: "checkmate", "no legal move", "repetition" or "max plies", and, when given, its
    result: "1-0" a win of Black, the first mover, "0-1" of White, "1/2-1/2" a draw); returns why
    the model disagrees, or None when every move is legal and the ending and result are what the
    rules say."""
    pos = parse_sfen(start)
    seen = {pos.key(): 1}
    for i, mv in enumerate(moves):
        try:
            pos = apply_move(pos, mv)
        except ValueError as exc:
            return f"ply {i + 1} {mv}: {exc}"
        n = seen.get(pos.key(), 0) + 1
        seen[pos.key()] = n
        if n >= 4 and i + 1 < len(moves):
            return f"ply {i + 1} {mv} reaches a position the fourth time, yet the game went on"
    if reason in ("checkmate", "no legal move"):
        if legal_moves(pos):
            return f"{reason}, but the side to move has legal moves"
        if (reason == "checkmate") != position_in_check(pos):
            return f"{reason}, but in check is {position_in_check(pos)}"
        expected = "0-1" if pos.side == BLACK else "1-0"
    elif reason == "repetition":
        if seen[pos.key()] != 4:
            return f"repetition, but the last position occurred {seen[pos.key()]} times"
        expected = "1/2-1/2"
    elif reason == "max plies":
        expected = "1/2-1/2"
    else:
        return f"an ending the rules do not give: {reason}"
    if result is not None and result != expected:
        return f"result {result}, the rules give {expected} ({reason})"
    return None


# ---------------------------------------------------------------------------
# Self test: facts that follow directly from RULES.md section 3
# ---------------------------------------------------------------------------

def _play(sfen, moves):
    pos = parse_sfen(sfen)
    for mv in moves:
        pos = apply_move(pos, mv)
    return pos


def selftest() -> int:
    results = []

    def check(name, fn):
        try:
            ok, detail = fn()
        except Exception as exc:  # noqa: BLE001
            ok, detail = False, f"exception: {exc!r}"
        results.append(ok)
        print(f"{'PASS' if ok else 'FAIL'}: {name}" + (f" -- {detail}" if detail else ""))

    def c_start():
        pos = parse_sfen("startpos")
        mv = legal_moves(pos)
        want = sorted(f"K*{s}" for s in ("1a", "1b", "1c", "2a", "2c", "3a", "3b", "3c"))
        return format_sfen(pos) == START and mv == want, f"{format_sfen(pos)}: {mv}"
    check("start: only the 8 king drops (not on the centre)", c_start)

    def c_white_king():
        mv = legal_moves(_play(START, ["K*2c"]))
        return mv == ["K*1a", "K*2a", "K*3a"], f"{mv}"
    check("after K*2c White must drop his king, and not next to Black's", c_white_king)

    def c_cube_drops():
        # Kings on 2c and 2a; empty non-centre squares 1a 1b 1c 3a 3b 3c. By hand from the
        # table of moves: R and W not on 1a/3a (next to 2a on the rank), C and I anywhere;
        # B, T and M not on 1b/3b (diagonal to 2a), D anywhere: 4+6+4+6 + 4+4+4+6 = 38 drops,
        # and the king steps to 1c and 3c only (1b, 2b, 3b touch 2a).
        mv = legal_moves(_play(START, ["K*2c", "K*2a"]))
        drops = [m for m in mv if "*" in m]
        steps = [m for m in mv if "*" not in m]
        ok = (len(drops) == 38 and steps == ["2c1c", "2c3c"] and "W*1a" not in mv
              and "C*1a" in mv and "B*1b" not in mv and "D*1b" in mv)
        return ok, f"{len(drops)} drops, steps {steps}"
    check("cubes drop in any state, never on the centre nor giving check", c_cube_drops)

    def c_cycle():
        # One orthogonal cube walked round its cycle while the White king steps to and fro.
        seq = []
        pos = parse_sfen("2k/3/R1K b - 1")
        for mv, back in (("3c3b", "1a2a"), ("3b3c", "2a1a"), ("3c2c", "1a2a"), ("2c2b", "2a1a")):
            pos = apply_move(pos, mv)
            seq.append(pos.board[parse_square(mv[2:])])
            pos = apply_move(pos, back)
        pos = apply_move(parse_sfen("1k1/3/B1K b - 1"), "3c2b")
        return seq == ["C", "W", "I", "R"] and pos.board[CENTRE] == "T", f"R: {seq}, B->{pos.board[CENTRE]}"
    check("a cube turns to its next state after every board move", c_cycle)

    def c_white_mirror():
        def att(letter):
            b = tuple(letter if i == CENTRE else EMPTY for i in range(9))
            return sorted(sq_name(s) for s in range(9) if _attacks(b, letter, CENTRE, s))
        t, tb, d, db = att("t"), att("T"), att("d"), att("D")
        ok = t == ["1c", "2a", "3c"] and tb == ["1a", "2c", "3a"] and d == ["1a", "2c", "3a"] \
            and db == ["1c", "2a", "3c"]
        return ok, f"t {t}, T {tb}, d {d}, D {db}"
    check("tile general and dog: Black's forward is rank a, White's rank c", c_white_mirror)

    def c_sliders():
        b = parse_sfen("2k/1W1/B1K b - 1")  # bishop 3c, own swallow on 2b
        c = parse_sfen("C1k/3/2K b - 1")    # chariot 3a slides 3b, 3c
        mb = [m for m in legal_moves(b) if m.startswith("3c")]
        mc = [m for m in legal_moves(c) if m.startswith("3a")]
        return mb == [] and mc == ["3a3b", "3a3c"], f"bishop {mb}, chariot {mc}"
    check("the bishop cannot jump the centre, the chariot slides", c_sliders)

    def c_hand_mate():
        # W 2b->1b turns into I and checks k on 1c: mate (1b is guarded by K 2a, 2b too).
        with_hand = legal_moves(parse_sfen("1K1/1W1/1ik b Bb 1"))
        empty = parse_sfen("1K1/1W1/1ik b b 1")
        mated = apply_move(empty, "2b1b")
        ok = ("2b1b" not in with_hand and "2b1b" in legal_moves(empty)
              and position_in_check(mated) and legal_moves(mated) == [])
        return ok, f"with B in hand: 2b1b legal {'2b1b' in with_hand}; empty hand: mate {ok}"
    check("no checkmate with a piece in hand; with an empty hand it mates", c_hand_mate)

    def c_capture_mate():
        # 2b1b takes d with an empty hand and mates: legal although the hand then holds a cube.
        pos = parse_sfen("1Bk/KWd/3 b r 1")
        after = apply_move(pos, "2b1b")
        return (legal_moves(after) == [] and position_in_check(after) and after.hand[2] == 1,
                format_sfen(after))
    check("a capture with an empty hand may mate", c_capture_mate)

    def c_stalemate():
        pos = parse_sfen("3/kbK/1rC b b 1")
        return legal_moves(pos) == [] and not position_in_check(pos), "no move, not in check"
    check("no legal move without check (a loss, by the referee)", c_stalemate)

    def c_repetition():
        shuffle = ["1c1b", "3a3b", "1b1c", "3b3a"] * 3
        ok = referee_game("k2/3/2K b - 1", shuffle, "repetition", "1/2-1/2") is None
        early = referee_game("k2/3/2K b - 1", shuffle[:-1], "repetition", "1/2-1/2") is not None
        late = referee_game("k2/3/2K b - 1", shuffle + ["1c1b"], "repetition", "1/2-1/2") is not None
        return ok and early and late, f"draw at the 4th occurrence {ok}; 3rd refused {early}; went on refused {late}"
    check("the fourth occurrence of a position is a draw", c_repetition)

    def c_malformed():
        bad = ["", "3/3 b - 1", "4/3/3 b - 1", "3/3/3 x - 1", "3/3/2X b - 1", "3/3/3 b Q 1",
               "3/3/+R2 b - 1", "K2/K2/3 b - 1", "3/3/3 b 3R 1", "k2/K2/3 b - 1", "3/3/3 b - 0",
               "k2/3/2K b RR 1", "k2/3/2K b 0R 1", "k2/3/2K b R2 1", "k2/3/2K b 2K 1"]
        refused = 0
        for t in bad:
            try:
                parse_sfen(t)
            except ValueError:
                refused += 1
        return refused == len(bad), f"{refused}/{len(bad)} refused"
    check("malformed SFENs raise ValueError", c_malformed)

    def c_moves_refused():
        pos = _play(START, ["K*2c", "K*2a"])
        bad = ["C*2b", "c*1a", "2c1c+", "W*1a", "2c2b", "K*1a", "R*9z", "2c"]
        refused = 0
        for mv in bad:
            try:
                apply_move(pos, mv)
            except ValueError:
                refused += 1
        return refused == len(bad), f"{refused}/{len(bad)} refused"
    check("illegal and malformed move strings are refused", c_moves_refused)

    def c_perft():
        counts = [perft(parse_sfen(START), d) for d in (1, 2, 3, 4)]
        return counts == [8, 32, 1292, 43948], f"{counts}"
    check("perft from the start 1..4 (engine-tests/data/perft-nana.tsv)", c_perft)

    failed = results.count(False)
    print(f"{len(results) - failed}/{len(results)} checks passed")
    return 1 if failed else 0


# ---------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------

def main(argv) -> int:
    if len(argv) >= 2 and argv[1] == "selftest":
        return selftest()
    if len(argv) == 2 and argv[1] == "nesting":
        examined, found = nesting_search()
        for sfen in found:
            print(sfen)
        print(f"{examined} positions examined, {len(found)} where the nesting matters")
        return 0
    if len(argv) == 4 and argv[1] == "perft":
        try:
            pos = parse_sfen(argv[2])
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
            pos = parse_sfen(argv[2])
            for mv in argv[3:]:
                pos = apply_move(pos, mv)
        except ValueError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 1
        for mv in legal_moves(pos):
            print(mv)
        return 0
    print(__doc__.split("\n\n")[3] if __doc__ else "usage", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))

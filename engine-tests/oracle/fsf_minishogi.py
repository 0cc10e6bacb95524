"""Translation between Fairy-Stockfish (pyffish) minishogi notation and USI minishogi.

Found by experiment with pyffish 0.0.90 (and checked by test_minishogi_pyffish.py):

Squares. pyffish names squares like chess: files a..e from left to right as Black
sees the board, ranks 1..5 from Black's side up. USI names them file digit + rank
letter, file 1 on Black's right, rank a at the top (White's back rank). So
    pyffish file a b c d e  ->  USI file 5 4 3 2 1
    pyffish rank 1 2 3 4 5  ->  USI rank e d c b a
e.g. Black's king starts on pyffish a1 = USI 5e, Black's rook on e1 = USI 1e.

Moves. Board moves are <from><to> with a `+` suffix for promotion, as in USI
(`a1b2` = `5e4d`, `d4d1+` = `2b2e+`). Drops are `<PIECE>@<to>` with an uppercase
letter for both sides (`P@c3` = `P*3c`).

FEN. `rbsgk/4p/5/P4/KGSBR[] w - - 0 1` at the start. The board field lists the
ranks from the top (USI rank a) down, each from pyffish file a (USI file 5) to
file e (USI file 1), uppercase for Black, `+` before a promoted piece: exactly
the SFEN board field. The hand follows in brackets, one letter per piece
(`[PPr]`, may be empty). The side to move is `w` for Black (the first player,
uppercase) and `b` for White. Then castling and en-passant fields (`-`), a
halfmove clock and a fullmove number (SFEN's move number counts plies:
2 * fullmove - 1 with Black to move, 2 * fullmove with White to move).
pyffish.start_fen() writes the start a little differently, `rbsgk/4p/5/P4/KGSBR[-] w 0 1`
(hand `-`, no castling and en-passant fields); both forms are read.

Pawn-drop mate. pyffish's legal_moves() includes pawn drops that checkmate:
Fairy-Stockfish does not remove them from its move list but scores such a mate as
a loss for the side that dropped the pawn. docs/rules.md makes them illegal, so
legal_moves() below removes a pawn drop when it gives check and leaves the
opponent without a legal reply (asked of pyffish itself).
"""

from __future__ import annotations

import re

import pyffish

VARIANT = "minishogi"

FSF_FILES = "abcde"  # pyffish file letters, left to right as Black sees the board
USI_FILES = "54321"  # the USI file digit of the same column
FSF_RANKS = "12345"  # pyffish rank digits, Black's side first
USI_RANKS = "edcba"  # the USI rank letter of the same row

HAND_ORDER = "RBGSNLP"  # conventional SFEN hand order, Black's pieces then White's

_BOARD_TOKEN = re.compile(r"\+?[KGSBRPLkgsbrpl]|[1-5]")
_FSF_BOARD_MOVE = re.compile(r"^([a-e][1-5])([a-e][1-5])(\+?)$")
_FSF_DROP = re.compile(r"^([GSBRPL])@([a-e][1-5])$")
_USI_BOARD_MOVE = re.compile(r"^([1-5][a-e])([1-5][a-e])(\+?)$")
_USI_DROP = re.compile(r"^([GSBRPL])\*([1-5][a-e])$")


def fsf_square_to_usi(square: str) -> str:
    """pyffish `a1` -> USI `5e`."""
    return USI_FILES[FSF_FILES.index(square[0])] + USI_RANKS[FSF_RANKS.index(square[1])]


def usi_square_to_fsf(square: str) -> str:
    """USI `5e` -> pyffish `a1`."""
    return FSF_FILES[USI_FILES.index(square[0])] + FSF_RANKS[USI_RANKS.index(square[1])]


def fsf_move_to_usi(move: str) -> str:
    """A pyffish minishogi move string in USI notation; ValueError for anything unexpected."""
    board_move = _FSF_BOARD_MOVE.match(move)
    if board_move:
        src, dst, promote = board_move.groups()
        return fsf_square_to_usi(src) + fsf_square_to_usi(dst) + promote
    drop = _FSF_DROP.match(move)
    if drop:
        piece, dst = drop.groups()
        return f"{piece}*{fsf_square_to_usi(dst)}"
    raise ValueError(f"unexpected pyffish move {move!r}")


def usi_move_to_fsf(move: str) -> str:
    """A USI minishogi move in pyffish notation (inverse of fsf_move_to_usi)."""
    board_move = _USI_BOARD_MOVE.match(move)
    if board_move:
        src, dst, promote = board_move.groups()
        return usi_square_to_fsf(src) + usi_square_to_fsf(dst) + promote
    drop = _USI_DROP.match(move)
    if drop:
        piece, dst = drop.groups()
        return f"{piece}@{usi_square_to_fsf(dst)}"
    raise ValueError(f"unexpected USI move {move!r}")


def _check_board(board: str) -> None:
    """Raise ValueError unless `board` is a well-formed 5x5 board field."""
    ranks = board.split("/")
    if len(ranks) != 5:
        raise ValueError(f"board {board!r} does not have 5 ranks")
    for rank in ranks:
        tokens = _BOARD_TOKEN.findall(rank)
        if "".join(tokens) != rank:
            raise ValueError(f"unexpected characters in rank {rank!r}")
        width = sum(int(t) if t.isdigit() else 1 for t in tokens)
        if width != 5:
            raise ValueError(f"rank {rank!r} is not 5 squares wide")


def _hand_to_sfen(counts: dict[str, int]) -> str:
    """SFEN hand field from letter counts (uppercase Black, lowercase White)."""
    parts = []
    for letter in HAND_ORDER + HAND_ORDER.lower():
        n = counts.get(letter, 0)
        if n:
            parts.append((str(n) if n > 1 else "") + letter)
    return "".join(parts) or "-"


def fsf_fen_to_sfen(fen: str) -> str:
    """A pyffish minishogi FEN as a USI SFEN."""
    # get_fen() writes `<board>[<hand>] <side> - - <halfmove> <fullmove>`;
    # start_fen() writes `<board>[-] <side> <halfmove> <fullmove>`.
    match = re.match(r"^(\S+)\[([A-Za-z]*|-)\] ([wb])(?: \S+)*? \d+ (\d+)$", fen)
    if not match:
        raise ValueError(f"unexpected pyffish FEN {fen!r}")
    board, hand, side, fullmove = match.groups()
    _check_board(board)
    counts: dict[str, int] = {}
    for letter in hand.replace("-", ""):
        if letter.upper() not in HAND_ORDER:
            raise ValueError(f"unexpected hand piece {letter!r} in {fen!r}")
        counts[letter] = counts.get(letter, 0) + 1
    black_to_move = side == "w"
    ply = 2 * int(fullmove) - (1 if black_to_move else 0)
    return f"{board} {'b' if black_to_move else 'w'} {_hand_to_sfen(counts)} {ply}"


def parse_sfen_hand(hand: str) -> dict[str, int]:
    """SFEN hand field -> letter counts."""
    counts: dict[str, int] = {}
    if hand == "-":
        return counts
    for number, letter in re.findall(r"(\d*)([A-Za-z])", hand):
        counts[letter] = counts.get(letter, 0) + (int(number) if number else 1)
    return counts


def sfen_to_fsf_fen(sfen: str) -> str:
    """A USI minishogi SFEN as a pyffish FEN (inverse of fsf_fen_to_sfen)."""
    fields = sfen.split()
    board, side, hand = fields[0], fields[1], fields[2]
    ply = int(fields[3]) if len(fields) > 3 else 1
    _check_board(board)
    counts = parse_sfen_hand(hand)
    fsf_hand = "".join(letter * counts.get(letter, 0) for letter in HAND_ORDER + HAND_ORDER.lower())
    black_to_move = side == "b"
    fullmove = max(1, (ply + 1) // 2)
    return f"{board}[{fsf_hand}] {'w' if black_to_move else 'b'} - - 0 {fullmove}"


# -- a minimal USI-side minishogi board, used to play random games cheaply -------------
#
# pyffish spends a few milliseconds on every call, so the random games apply moves
# with this small model instead of calling pyffish.get_fen after each move; the test
# cross-checks it against pyffish.get_fen on a sample of moves.


def sfen_to_grid(board: str) -> list[list[str]]:
    """SFEN board field -> 5 rows (rank a first) of 5 cells (file 5 first); '' = empty."""
    grid = []
    for rank in board.split("/"):
        row: list[str] = []
        for token in _BOARD_TOKEN.findall(rank):
            row.extend([""] * int(token) if token.isdigit() else [token])
        grid.append(row)
    return grid


def grid_to_sfen_board(grid: list[list[str]]) -> str:
    """Inverse of sfen_to_grid."""
    ranks = []
    for row in grid:
        text, empty = "", 0
        for cell in row:
            if cell:
                text += (str(empty) if empty else "") + cell
                empty = 0
            else:
                empty += 1
        ranks.append(text + (str(empty) if empty else ""))
    return "/".join(ranks)


def _cell(square: str) -> tuple[int, int]:
    """USI square -> (row, column) in the grid."""
    return "abcde".index(square[1]), "54321".index(square[0])


def _square(row: int, col: int) -> str:
    """(row, column) in the grid -> USI square."""
    return "54321"[col] + "abcde"[row]


def apply_usi_move(sfen: str, move: str) -> str:
    """The SFEN after playing `move` (assumed legal) in the minishogi position `sfen`."""
    board, side, hand, ply = sfen.split()
    grid = sfen_to_grid(board)
    counts = parse_sfen_hand(hand)
    black = side == "b"
    drop = _USI_DROP.match(move)
    if drop:
        piece, dst = drop.groups()
        letter = piece if black else piece.lower()
        counts[letter] -= 1
        row, col = _cell(dst)
        grid[row][col] = letter
    else:
        src, dst, promote = _USI_BOARD_MOVE.match(move).groups()
        srow, scol = _cell(src)
        drow, dcol = _cell(dst)
        piece = grid[srow][scol]
        captured = grid[drow][dcol]
        if captured:
            base = captured.lstrip("+")
            taken = base.upper() if black else base.lower()
            counts[taken] = counts.get(taken, 0) + 1
        grid[srow][scol] = ""
        grid[drow][dcol] = "+" + piece if promote else piece
    return f"{grid_to_sfen_board(grid)} {'w' if black else 'b'} {_hand_to_sfen(counts)} {int(ply) + 1}"


def king_square(sfen: str, black: bool) -> tuple[int, int] | None:
    """(row, column) of a side's king in the grid, or None if it has none."""
    king = "K" if black else "k"
    for r, row in enumerate(sfen_to_grid(sfen.split()[0])):
        if king in row:
            return r, row.index(king)
    return None


def occupant(sfen: str, square: str) -> str:
    """The piece on a USI square ('' if empty)."""
    row, col = _cell(square)
    return sfen_to_grid(sfen.split()[0])[row][col]


# -- the oracle ------------------------------------------------------------------------


def legal_moves(sfen: str) -> dict[str, str]:
    """Legal moves of a USI minishogi SFEN under docs/rules.md, as {usi_move: pyffish_move}.

    pyffish's list, minus a pawn drop that checkmates (see the module docstring).
    A dropped pawn checks only from the square right in front of the enemy king, so
    at most one drop needs the (slow) pyffish look-ahead.
    """
    fen = sfen_to_fsf_fen(sfen)
    moves = {fsf_move_to_usi(m): m for m in pyffish.legal_moves(VARIANT, fen, [])}
    black = sfen.split()[1] == "b"
    king = king_square(sfen, not black)
    if king is not None:
        # A black pawn attacks towards rank a (row - 1), a white one towards rank e.
        row = king[0] + (1 if black else -1)
        drop = f"P*{_square(row, king[1])}" if 0 <= row < 5 else None
        if drop in moves:
            after = pyffish.get_fen(VARIANT, fen, [moves[drop]])
            if not pyffish.legal_moves(VARIANT, after, []):  # the drop checks by construction
                del moves[drop]
    return moves

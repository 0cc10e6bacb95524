//! Legal moves of Give and Take: steps, and captures as full routes.
//!
//! - A man steps to an empty square forward or sideways, and captures by jumping an adjacent
//!   enemy piece forward or sideways onto the empty square beyond, again and again while it can
//!   (a man that reaches the far rank goes on as a man and is crowned when the move ends).
//! - A king slides like a rook; it captures an enemy piece on its line with only empty squares
//!   between, landing on any of the empty squares just beyond it, except that where a further
//!   capture is possible from some of those squares it must land on one of them and go on. It
//!   may turn or reverse between captures.
//! - Taken pieces leave the board at once (a later jump may cross their squares) and the
//!   capturing piece's start square counts as empty during the move.
//! - **Obligation:** when the piece the opponent just moved can be taken directly (as the first
//!   capture of some route), the legal moves are exactly the routes that take it; otherwise every
//!   step and every route is legal, and capturing is optional. There is no majority rule.

use crate::core::color::Color;
use crate::core::moves::MoveList;

use super::position::{GiveAndTake, bit, parse_square, square_name};

/// The most captures one move can make (every enemy piece), hence stops in a route.
pub const MAX_STOPS: usize = 16;

/// A move: the start square and the squares where the piece stops, in order (one for a step,
/// one per capture for a capture), with the squares of the pieces it takes.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct GtMove {
    from: u8,
    len: u8,
    /// A man ends the move on the far rank (crowned).
    crowns: bool,
    stops: [u8; MAX_STOPS],
    captured: u64,
}

impl GtMove {
    /// No move.
    pub const NONE: GtMove = GtMove {
        from: 0,
        len: 0,
        crowns: false,
        stops: [0; MAX_STOPS],
        captured: 0,
    };

    /// A step (or a king's slide) from `from` to `to`.
    pub const fn step(from: u8, to: u8) -> GtMove {
        let mut stops = [0; MAX_STOPS];
        stops[0] = to;
        GtMove {
            from,
            len: 1,
            crowns: false,
            stops,
            captured: 0,
        }
    }

    /// True when a man is crowned by this move (it ends on the far rank).
    #[inline(always)]
    pub fn crowns(&self) -> bool {
        self.crowns
    }

    /// The start square.
    #[inline(always)]
    pub fn from(&self) -> u8 {
        self.from
    }

    /// The square where the move ends (a1 for [`GtMove::NONE`]).
    #[inline(always)]
    pub fn to(&self) -> u8 {
        self.stops[(self.len as usize).max(1) - 1]
    }

    /// The squares where the piece stops, in order.
    pub fn stops(&self) -> &[u8] {
        &self.stops[..self.len as usize]
    }

    /// The squares of the pieces taken (empty for a step).
    #[inline(always)]
    pub fn captured(&self) -> u64 {
        self.captured
    }

    /// True for a capture.
    #[inline(always)]
    pub fn is_capture(&self) -> bool {
        self.captured != 0
    }

    /// The move in the article's notation: `c3-c4` for a step, `e5:e8:e2:a2:h2` for a capture.
    pub fn text(&self) -> String {
        let sep = if self.is_capture() { ":" } else { "-" };
        let mut out = square_name(self.from);
        for &s in self.stops() {
            out.push_str(sep);
            out.push_str(&square_name(s));
        }
        out
    }

    /// Reads the notation's form of a move (its squares only, not whether it is legal).
    pub fn parse_squares(text: &str) -> Result<(bool, Vec<u8>), String> {
        let capture = text.contains(':');
        let sep = if capture { ':' } else { '-' };
        let squares: Option<Vec<u8>> = text
            .split(sep)
            .map(|s| parse_square(s.as_bytes()))
            .collect();
        match squares {
            Some(sq) if sq.len() >= 2 && (capture || sq.len() == 2) => Ok((capture, sq)),
            _ => Err(
                "a move is a step 'c3-c4' or a capture listing its stops 'c4:c6:c8' (squares a1-h8)"
                    .into(),
            ),
        }
    }

    fn push(&mut self, stop: u8, taken: u8) {
        self.stops[self.len as usize] = stop;
        self.len += 1;
        self.captured |= bit(taken);
    }

    fn pop(&mut self, taken: u8) {
        self.len -= 1;
        self.captured &= !bit(taken);
    }
}

/// The four directions as (file, rank) steps: up (towards rank 8), down, right, left.
pub(super) const DIRS: [(i8, i8); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];

/// The square one step from `sq` in direction `d`, if on the board.
#[inline(always)]
pub(super) fn step(sq: u8, d: (i8, i8)) -> Option<u8> {
    let f = (sq % 8) as i8 + d.0;
    let r = (sq / 8) as i8 + d.1;
    ((0..8).contains(&f) && (0..8).contains(&r)).then(|| (f + 8 * r) as u8)
}

/// The rank (0–7) where a man of `color` is crowned.
pub(super) fn far_rank(color: Color) -> u8 {
    match color {
        Color::White => 7,
        Color::Black => 0,
    }
}

/// The directions a man of `color` moves and captures in: forward, right, left.
fn man_dirs(color: Color) -> [(i8, i8); 3] {
    let forward = match color {
        Color::White => (0, 1),
        Color::Black => (0, -1),
    };
    [forward, (1, 0), (-1, 0)]
}

/// The pieces and squares a capture route is searched over.
struct Board {
    /// Enemy pieces not yet taken.
    enemy: u64,
    /// Occupied squares, without the capturing piece and the pieces taken.
    occ: u64,
}

/// Appends to `out` every complete route of the man of `color` on `cur` (already `route`'s
/// stops); a route ends where the man cannot capture again.
fn man_routes(color: Color, cur: u8, b: &Board, route: &mut GtMove, out: &mut MoveList<GtMove>) {
    let mut any = false;
    for d in man_dirs(color) {
        let Some(n) = step(cur, d).filter(|&n| b.enemy & bit(n) != 0) else {
            continue;
        };
        let Some(land) = step(n, d).filter(|&l| b.occ & bit(l) == 0) else {
            continue;
        };
        any = true;
        let next = Board {
            enemy: b.enemy & !bit(n),
            occ: b.occ & !bit(n),
        };
        route.push(land, n);
        man_routes(color, land, &next, route, out);
        route.pop(n);
    }
    if !any && route.len > 0 {
        out.push(GtMove {
            crowns: cur / 8 == far_rank(color),
            ..*route
        });
    }
}

/// The enemy piece a king on `sq` can take in direction `d`, with the empty squares beyond it
/// where it may land (as a bit set; empty when it cannot take there).
#[inline]
fn king_target(sq: u8, d: (i8, i8), b: &Board) -> Option<(u8, u64)> {
    let mut s = step(sq, d);
    while let Some(x) = s.filter(|&x| b.occ & bit(x) == 0) {
        s = step(x, d);
    }
    let n = s.filter(|&n| b.enemy & bit(n) != 0)?;
    let mut landings = 0u64;
    let mut l = step(n, d);
    while let Some(x) = l.filter(|&x| b.occ & bit(x) == 0) {
        landings |= bit(x);
        l = step(x, d);
    }
    (landings != 0).then_some((n, landings))
}

/// True when a king on `sq` can capture something.
fn king_can_capture(sq: u8, b: &Board) -> bool {
    DIRS.iter().any(|&d| king_target(sq, d, b).is_some())
}

/// Appends to `out` every complete route of the king on `cur`: each capture lands where a
/// further capture is possible when some landing square allows one, anywhere beyond otherwise
/// (and the route ends there).
fn king_routes(cur: u8, b: &Board, route: &mut GtMove, out: &mut MoveList<GtMove>) {
    for d in DIRS {
        let Some((n, landings)) = king_target(cur, d, b) else {
            continue;
        };
        let next = Board {
            enemy: b.enemy & !bit(n),
            occ: b.occ & !bit(n),
        };
        let squares = || BitIter(landings);
        let going_on: u64 = squares()
            .filter(|&l| king_can_capture(l, &next))
            .fold(0, |acc, l| acc | bit(l));
        for l in squares() {
            if going_on != 0 && going_on & bit(l) == 0 {
                continue;
            }
            route.push(l, n);
            if going_on != 0 {
                king_routes(l, &next, route, out);
            } else {
                out.push(*route);
            }
            route.pop(n);
        }
    }
}

/// The squares of a bit set, lowest first.
struct BitIter(u64);

impl Iterator for BitIter {
    type Item = u8;

    #[inline(always)]
    fn next(&mut self) -> Option<u8> {
        (self.0 != 0).then(|| {
            let sq = self.0.trailing_zeros() as u8;
            self.0 &= self.0 - 1;
            sq
        })
    }
}

impl GiveAndTake {
    /// True when the side to move can take the piece on `target` as the first capture of a route.
    fn can_take_directly(&self, target: u8) -> bool {
        let us = self.side_to_move();
        let occ = self.occupied();
        let ours = self.pieces(us);
        DIRS.iter().any(|&d| {
            // The capturing piece stands behind `target` (seen along `d`), the square beyond is empty.
            if step(target, d).is_none_or(|beyond| occ & bit(beyond) != 0) {
                return false;
            }
            let back = (-d.0, -d.1);
            let Some(adjacent) = step(target, back) else {
                return false;
            };
            if ours & bit(adjacent) != 0 && self.kings() & bit(adjacent) == 0 {
                return man_dirs(us).contains(&d);
            }
            let mut s = Some(adjacent);
            while let Some(x) = s.filter(|&x| occ & bit(x) == 0) {
                s = step(x, back);
            }
            s.is_some_and(|k| ours & self.kings() & bit(k) != 0)
        })
    }

    /// Appends every capture route of the side to move to `out`.
    fn capture_routes(&self, out: &mut MoveList<GtMove>) {
        let us = self.side_to_move();
        for from in BitIter(self.pieces(us)) {
            let b = Board {
                enemy: self.pieces(!us),
                occ: self.occupied() & !bit(from),
            };
            let mut route = GtMove {
                from,
                ..GtMove::NONE
            };
            if self.kings() & bit(from) != 0 {
                king_routes(from, &b, &mut route, out);
            } else {
                man_routes(us, from, &b, &mut route, out);
            }
        }
    }

    /// True when the piece just moved can be taken directly, so that every legal move must take it.
    pub fn capture_obliged(&self) -> bool {
        self.last_moved()
            .is_some_and(|target| self.can_take_directly(target))
    }

    /// Replaces the contents of `out` with every legal move.
    pub fn generate(&self, out: &mut MoveList<GtMove>) {
        out.clear();
        self.capture_routes(out);
        if let Some(target) = self.last_moved().filter(|&t| self.can_take_directly(t)) {
            out.retain(|m| m.captured() & bit(target) != 0);
            return;
        }
        let us = self.side_to_move();
        let occ = self.occupied();
        for from in BitIter(self.pieces(us)) {
            if self.kings() & bit(from) != 0 {
                for d in DIRS {
                    let mut s = step(from, d);
                    while let Some(x) = s.filter(|&x| occ & bit(x) == 0) {
                        out.push(GtMove::step(from, x));
                        s = step(x, d);
                    }
                }
            } else {
                for d in man_dirs(us) {
                    if let Some(to) = step(from, d).filter(|&t| occ & bit(t) == 0) {
                        out.push(GtMove {
                            crowns: to / 8 == far_rank(us),
                            ..GtMove::step(from, to)
                        });
                    }
                }
            }
        }
    }

    /// The legal move written `text`, or why it is not one.
    pub fn parse_text(&self, text: &str) -> Result<GtMove, String> {
        let (capture, squares) = GtMove::parse_squares(text)?;
        let mut list = MoveList::<GtMove>::new();
        self.generate(&mut list);
        if let Some(mv) = list.iter().find(|m| m.text() == text) {
            return Ok(*mv);
        }
        let from = squares[0];
        let us = self.side_to_move();
        if self.pieces(us) & bit(from) == 0 {
            return Err(format!(
                "no piece of the side to move on {}",
                square_name(from)
            ));
        }
        let stops = &squares[1..];
        if capture
            && list.iter().any(|m| {
                m.from() == from && m.stops().len() > stops.len() && m.stops().starts_with(stops)
            })
        {
            return Err(format!(
                "the capture must go on: from {} the piece can capture again",
                square_name(*stops.last().expect("a capture has a stop"))
            ));
        }
        if let Some(target) = self.last_moved().filter(|&t| self.can_take_directly(t)) {
            return Err(format!(
                "the piece just moved on {} can be taken, so the move must take it",
                square_name(target)
            ));
        }
        Err(if capture {
            "no capture route of that piece stops on those squares".into()
        } else {
            "the piece cannot step or slide there".into()
        })
    }
}

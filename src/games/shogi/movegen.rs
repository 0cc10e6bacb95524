//! Legal move generation for the shogi family: board moves with promotion choices, check evasions,
//! pins, and drops with their restrictions (dead squares, nifu, uchifuzume).
//!
//! Moves are generated as sets of destinations per origin and handed to a [`Sink`], which either
//! expands them into a move list or merely counts them (bulk counting for perft).

use arrayvec::ArrayVec;

use super::Variant;
use super::position::Board;
use super::types::{HAND_KIND_COUNT, Kind, PASS};
use crate::core::bitboard::Bitboard;
use crate::core::color::Color;
use crate::core::moves::{Move, MoveList};
use crate::core::square::Square;

/// Receives generated moves as sets of destinations.
pub trait Sink {
    /// Board moves from `from` to each square of `to`, promoting when `promote`.
    fn moves(&mut self, from: Square, to: Bitboard, promote: bool);
    /// Drops of `kind` on each square of `to`.
    fn drops(&mut self, kind: Kind, to: Bitboard);
    /// The handicap giver's `pass` (extra-move handicaps only).
    fn pass(&mut self) {}
}

impl Sink for MoveList {
    #[inline(always)]
    fn moves(&mut self, from: Square, to: Bitboard, promote: bool) {
        for sq in to {
            self.push(Move::normal(from, sq, promote));
        }
    }

    #[inline(always)]
    fn drops(&mut self, kind: Kind, to: Bitboard) {
        for sq in to {
            self.push(Move::drop(kind as u8, sq));
        }
    }

    fn pass(&mut self) {
        self.push(PASS);
    }
}

impl Sink for usize {
    #[inline(always)]
    fn moves(&mut self, _from: Square, to: Bitboard, _promote: bool) {
        *self += to.count() as usize;
    }

    #[inline(always)]
    fn drops(&mut self, _kind: Kind, to: Bitboard) {
        *self += to.count() as usize;
    }

    fn pass(&mut self) {
        *self += 1;
    }
}

/// Passes on captures (destinations among `enemies`), and every promotion when `promotions`:
/// the moves of quiescence search, gathered in one pass of the generator.
struct TacticalSink<'a> {
    list: &'a mut MoveList,
    enemies: Bitboard,
    promotions: bool,
}

impl Sink for TacticalSink<'_> {
    #[inline(always)]
    fn moves(&mut self, from: Square, to: Bitboard, promote: bool) {
        let keep = if promote && self.promotions {
            to
        } else {
            to & self.enemies
        };
        self.list.moves(from, keep, promote);
    }

    #[inline(always)]
    fn drops(&mut self, _kind: Kind, _to: Bitboard) {}
}

/// Passes on the moves that do not promote (the generator is given only empty destinations):
/// the quiet moves of a staged search node.
struct QuietSink<'a> {
    list: &'a mut MoveList,
}

impl Sink for QuietSink<'_> {
    #[inline(always)]
    fn moves(&mut self, from: Square, to: Bitboard, promote: bool) {
        if !promote {
            self.list.moves(from, to, false);
        }
    }

    #[inline(always)]
    fn drops(&mut self, kind: Kind, to: Bitboard) {
        self.list.drops(kind, to);
    }

    fn pass(&mut self) {
        self.list.pass();
    }
}

/// Counts board moves one by one and drops once per destination square.
struct MergedDropCount {
    moves: usize,
    drop_squares: Bitboard,
}

impl Sink for MergedDropCount {
    #[inline(always)]
    fn moves(&mut self, _from: Square, to: Bitboard, _promote: bool) {
        self.moves += to.count() as usize;
    }

    #[inline(always)]
    fn drops(&mut self, _kind: Kind, to: Bitboard) {
        self.drop_squares |= to;
    }

    fn pass(&mut self) {
        self.moves += 1;
    }
}

/// Notes whether one given move is generated.
struct FindSink {
    target: Move,
    found: bool,
}

impl Sink for FindSink {
    #[inline(always)]
    fn moves(&mut self, from: Square, to: Bitboard, promote: bool) {
        let t = self.target;
        self.found |=
            !t.is_drop() && t.from() == from && t.is_promotion() == promote && to.has(t.to());
    }

    #[inline(always)]
    fn drops(&mut self, kind: Kind, to: Bitboard) {
        let t = self.target;
        self.found |= t == Move::drop(kind as u8, t.to()) && to.has(t.to());
    }

    fn pass(&mut self) {
        self.found |= self.target == PASS;
    }
}

/// Keeps only the moves that give check to the king on `ek`.
struct CheckSink<'a, V: Variant> {
    pos: &'a Board<V>,
    ek: Square,
    occ: Bitboard,
    /// Our pieces that alone stand between one of our sliders and `ek`: moving one off its line
    /// uncovers a check.
    discoverers: Bitboard,
    /// Each discoverer with its line (the squares between the slider and `ek`, the slider's
    /// included).
    lines: Pins,
    list: &'a mut MoveList,
}

impl<V: Variant> Sink for CheckSink<'_, V> {
    #[inline(always)]
    fn moves(&mut self, from: Square, to: Bitboard, promote: bool) {
        if to.is_empty() {
            return;
        }
        let t = V::tables();
        let pos = self.pos;
        let us = pos.side;
        let kind = pos.piece_at(from).kind();
        let kind = if promote { kind.promoted() } else { kind };
        let vacated = self.occ.without(from);
        let mut checking = to & t.attacks(kind, !us, self.ek, vacated);
        if self.discoverers.has(from) {
            let line = self.lines.iter().find(|(sq, _)| *sq == from).map(|l| l.1);
            checking |= to & !line.unwrap_or(Bitboard::EMPTY);
        }
        for sq in checking {
            self.list.push(Move::normal(from, sq, promote));
        }
    }

    #[inline(always)]
    fn drops(&mut self, kind: Kind, to: Bitboard) {
        let t = V::tables();
        let us = self.pos.side;
        for sq in to & t.attacks(kind, !us, self.ek, self.occ) {
            self.list.push(Move::drop(kind as u8, sq));
        }
    }
}

/// A pinned piece and the squares it may still move to (the line to its pinner, pinner included).
type Pins = ArrayVec<(Square, Bitboard), 8>;

/// Kinds other than the king, gold and gold-movers, which are generated together.
const SINGLE_KINDS: [Kind; 8] = [
    Kind::Pawn,
    Kind::Lance,
    Kind::Knight,
    Kind::Silver,
    Kind::Bishop,
    Kind::Rook,
    Kind::Horse,
    Kind::Dragon,
];

impl<V: Variant> Board<V> {
    /// Generates every legal move into `sink`.
    #[inline]
    pub(super) fn generate<S: Sink>(&self, sink: &mut S) {
        self.generate_onto(sink, V::tables().board, true);
    }

    /// Generates the legal moves whose destination lies in `filter`, drops included when `drops`.
    /// `generate_onto(sink, board, true)` is every legal move.
    pub(super) fn generate_onto<S: Sink>(&self, sink: &mut S, filter: Bitboard, drops: bool) {
        let t = V::tables();
        let us = self.side;
        let occ = self.occupied();
        // An extra-move handicap: White passes, Black's moves may not capture.
        let filter = if V::EXTRA_MOVES && self.extra_moves > 0 {
            if us == Color::White {
                sink.pass();
                return;
            }
            filter & !occ
        } else {
            filter
        };
        let own = self.by_color[us];
        let empty = t.board & !occ & filter;
        let Some(ksq) = self.kings[us] else {
            self.piece_moves(sink, !own & t.board & filter, Bitboard::EMPTY, &Pins::new());
            if drops {
                self.drop_moves(sink, empty);
            }
            return;
        };

        let steps = self
            .safe_king_steps(ksq, !own & filter)
            .fold(Bitboard::EMPTY, Bitboard::with);
        sink.moves(ksq, steps, false);

        let checkers = self.checkers;
        if checkers.more_than_one() {
            return;
        }
        let (target, drop_target) = if checkers.any() {
            let between = t.lines.between(ksq, checkers.lsb());
            (between | checkers, between & filter)
        } else {
            (!own & t.board, empty)
        };
        let mut pins = Pins::new();
        let pinned = self.pins(us, ksq, occ, &mut pins);
        self.piece_moves(sink, target & filter, pinned, &pins);
        if drops {
            self.drop_moves(sink, drop_target);
        }
    }

    /// Appends the legal captures, and the non-capturing promotions when `promotions`, to `list`.
    pub fn tactical_moves(&self, list: &mut MoveList, promotions: bool) {
        let enemies = self.by_color[!self.side];
        let filter = if promotions {
            V::tables().board & !self.by_color[self.side]
        } else {
            enemies
        };
        let mut sink = TacticalSink {
            list,
            enemies,
            promotions,
        };
        self.generate_onto(&mut sink, filter, false);
    }

    /// Appends the legal moves that neither capture nor promote, drops included, to `list`.
    pub fn quiet_moves(&self, list: &mut MoveList) {
        let empty = V::tables().board & !self.occupied();
        self.generate_onto(&mut QuietSink { list }, empty, true);
    }

    /// True when `mv` (any 16-bit value, e.g. from a table entry) is legal, decided by the
    /// rules directly: the piece can make that move, and afterwards no enemy piece attacks our
    /// king (which covers checks and pins alike). During an extra-move handicap the generator
    /// decides ([`Board::is_generated`]).
    pub fn is_legal(&self, mv: Move) -> bool {
        let t = V::tables();
        let to = mv.to();
        if mv == Move::NONE || !t.board.has(to) {
            return false;
        }
        if V::EXTRA_MOVES && self.extra_moves > 0 {
            return self.is_generated(mv);
        }
        let us = self.side;
        let them = !us;
        let occ = self.occupied();
        let ui = us.index();
        if mv.is_drop() {
            let code = mv.drop_piece();
            if mv.is_promotion() || code as usize >= HAND_KIND_COUNT || occ.has(to) {
                return false;
            }
            let kind = Kind::from_code(code);
            if self.hands[us].count(kind) == 0 {
                return false;
            }
            let dead = match kind {
                Kind::Pawn | Kind::Lance => t.last_rank[ui],
                Kind::Knight => t.last_two[ui],
                _ => Bitboard::EMPTY,
            };
            if dead.has(to) {
                return false;
            }
            if kind == Kind::Pawn {
                let file = t.files[V::GEOMETRY.file(to) as usize];
                if (self.pieces(us, Kind::Pawn) & file).any() {
                    return false;
                }
                if let Some(ek) = self.kings[them]
                    && t.pawn[them.index()][ek.index()].has(to)
                    && self.pawn_drop_mates(to, ek)
                {
                    return false;
                }
            }
            return match self.kings[us] {
                Some(ksq) => !self.is_attacked(ksq, them, occ.with(to)),
                None => true,
            };
        }
        let from = mv.from();
        if !t.board.has(from) {
            return false;
        }
        let piece = self.piece_at(from);
        if piece.is_none() || piece.color() != us || self.by_color[us].has(to) {
            return false;
        }
        let kind = piece.kind();
        if !t.attacks(kind, us, from, occ).has(to) {
            return false;
        }
        let promotion_ok = if mv.is_promotion() {
            kind.can_promote() && (t.zone[ui].has(from) || t.zone[ui].has(to))
        } else {
            !(kind.can_promote() && t.forced[ui][kind.index()].has(to))
        };
        if !promotion_ok {
            return false;
        }
        if kind == Kind::King {
            return !self.is_attacked(to, them, occ.without(from));
        }
        match self.kings[us] {
            Some(ksq) => {
                let after = occ.without(from).with(to);
                self.attackers_to(ksq, them, after).without(to).is_empty()
            }
            None => true,
        }
    }

    /// True when `mv` (any 16-bit value) is among the legal moves the generator makes onto its
    /// destination (during an extra-move handicap the generator emits White's `pass` whatever
    /// the destination).
    fn is_generated(&self, mv: Move) -> bool {
        let board = V::tables().board;
        if mv == Move::NONE || !board.has(mv.to()) {
            return false;
        }
        let mut sink = FindSink {
            target: mv,
            found: false,
        };
        self.generate_onto(
            &mut sink,
            Bitboard::from_square(mv.to()) & board,
            mv.is_drop(),
        );
        sink.found
    }

    /// The squares of `targets` next to the side to move's king on `ksq` that no enemy piece
    /// attacks once the king has left `ksq`: where the king may step. Lazy, so that a caller
    /// asking whether there is one stops at the first.
    #[inline]
    fn safe_king_steps(&self, ksq: Square, targets: Bitboard) -> impl Iterator<Item = Square> {
        let occ = self.occupied().without(ksq);
        (V::tables().king[ksq.index()] & targets)
            .into_iter()
            .filter(move |&to| !self.is_attacked(to, !self.side, occ))
    }

    /// True when the side to move has a legal move. In check, the usual answers are tried
    /// first: a king step to a safe square, then a capture of a lone checker by another piece
    /// (legal when nothing else then attacks the king); only a distant check that none of these
    /// answers (an interposition may) has its moves counted.
    pub(super) fn has_legal_move(&self) -> bool {
        if !(V::EXTRA_MOVES && self.extra_moves > 0)
            && let Some(ksq) = self.kings[self.side]
        {
            let t = V::tables();
            let (us, them) = (self.side, !self.side);
            let occ = self.occupied();
            if self
                .safe_king_steps(ksq, !self.by_color[us])
                .next()
                .is_some()
            {
                return true;
            }
            let checkers = self.checkers;
            if checkers.more_than_one() {
                return false;
            }
            if checkers.any() {
                let checker = checkers.lsb();
                let capturers = self.attackers_to(checker, us, occ).without(ksq);
                for from in capturers {
                    let after = occ.without(from);
                    if self
                        .attackers_to(ksq, them, after)
                        .without(checker)
                        .is_empty()
                    {
                        return true;
                    }
                }
                if t.lines.between(ksq, checker).is_empty() {
                    return false;
                }
            }
        }
        let mut count = 0usize;
        self.generate(&mut count);
        count > 0
    }

    /// The number of legal moves, all drops onto one square counted as one.
    pub(super) fn count_replies_merging_drops(&self) -> usize {
        let mut sink = MergedDropCount {
            moves: 0,
            drop_squares: Bitboard::EMPTY,
        };
        self.generate(&mut sink);
        sink.moves + sink.drop_squares.count() as usize
    }

    /// Appends the legal moves that give check to the enemy king (none when he has no king).
    pub(super) fn generate_checks(&self, list: &mut MoveList) {
        let Some(ek) = self.kings[!self.side] else {
            return;
        };
        let occ = self.occupied();
        let mut lines = Pins::new();
        let us = self.side;
        let discoverers = self.sole_blockers(ek, !us, us, us, occ, &mut lines);
        let mut sink = CheckSink {
            pos: self,
            ek,
            occ,
            discoverers,
            lines,
            list,
        };
        self.generate(&mut sink);
    }

    /// Pieces of `us` pinned to the king on `ksq`; each is added to `pins` with the line it may
    /// move along (filled in place: returning the list would copy all its capacity).
    fn pins(&self, us: Color, ksq: Square, occ: Bitboard, pins: &mut Pins) -> Bitboard {
        self.sole_blockers(ksq, us, !us, us, occ, pins)
    }

    /// The pieces of `blockers_of` that alone stand between the king of `king` on `ksq` and a
    /// slider of `side` aiming at him: the king's own pieces are pinned, the slider side's
    /// uncover check when they leave the line. Each is added to `lines` with the squares between
    /// the slider and the king, the slider's included.
    fn sole_blockers(
        &self,
        ksq: Square,
        king: Color,
        side: Color,
        blockers_of: Color,
        occ: Bitboard,
        lines: &mut Pins,
    ) -> Bitboard {
        let t = V::tables();
        let k = ksq.index();
        let snipers = (t.rook_empty[k]
            & (self.pieces(side, Kind::Rook) | self.pieces(side, Kind::Dragon)))
            | (t.bishop_empty[k]
                & (self.pieces(side, Kind::Bishop) | self.pieces(side, Kind::Horse)))
            | (t.lines.rays[king.index()][k] & self.pieces(side, Kind::Lance));
        let mut found = Bitboard::EMPTY;
        for s in snipers {
            let between = t.lines.between(ksq, s);
            let blockers = between & occ;
            if blockers.any()
                && !blockers.more_than_one()
                && (blockers & self.by_color[blockers_of]).any()
            {
                found |= blockers;
                lines.push((blockers.lsb(), between.with(s)));
            }
        }
        found
    }

    /// Emits the moves of the piece of `kind` on `from` to the squares `to`, with promotion choices.
    #[inline(always)]
    fn emit<S: Sink>(&self, sink: &mut S, kind: Kind, from: Square, to: Bitboard) {
        if to.is_empty() {
            return;
        }
        if kind.can_promote() {
            let t = V::tables();
            let us = self.side.index();
            let zone = t.zone[us];
            let promoting = if zone.has(from) { to } else { to & zone };
            sink.moves(from, promoting, true);
            sink.moves(from, to & !t.forced[us][kind.index()], false);
        } else {
            sink.moves(from, to, false);
        }
    }

    /// Board moves of every piece but the king onto `target`; pinned pieces stay on their line.
    fn piece_moves<S: Sink>(&self, sink: &mut S, target: Bitboard, pinned: Bitboard, pins: &Pins) {
        let t = V::tables();
        let us = self.side;
        let occ = self.occupied();
        for kind in SINGLE_KINDS {
            for from in self.pieces(us, kind) & !pinned {
                let to = t.attacks(kind, us, from, occ) & target;
                self.emit(sink, kind, from, to);
            }
        }
        let gold = &t.gold[us.index()];
        for from in self.golds(us) & !pinned {
            sink.moves(from, gold[from.index()] & target, false);
        }
        for &(from, line) in pins {
            let kind = self.piece_at(from).kind();
            let to = t.attacks(kind, us, from, occ) & target & line;
            self.emit(sink, kind, from, to);
        }
    }

    /// Drops of every held kind onto `target` (empty squares, or interposition squares in check).
    fn drop_moves<S: Sink>(&self, sink: &mut S, target: Bitboard) {
        let us = self.side;
        let hand = self.hands[us];
        if hand.is_empty() || target.is_empty() {
            return;
        }
        let t = V::tables();
        let ui = us.index();
        if hand.count(Kind::Pawn) > 0 {
            let mut to = target & !t.last_rank[ui];
            for p in self.pieces(us, Kind::Pawn) {
                to &= !t.files[V::GEOMETRY.file(p) as usize];
            }
            if let Some(ek) = self.kings[!us] {
                let mate_sq = t.pawn[(!us).index()][ek.index()] & to;
                if mate_sq.any() && self.pawn_drop_mates(mate_sq.lsb(), ek) {
                    to ^= mate_sq;
                }
            }
            sink.drops(Kind::Pawn, to);
        }
        if hand.count(Kind::Lance) > 0 {
            sink.drops(Kind::Lance, target & !t.last_rank[ui]);
        }
        if hand.count(Kind::Knight) > 0 {
            sink.drops(Kind::Knight, target & !t.last_two[ui]);
        }
        for kind in [Kind::Silver, Kind::Gold, Kind::Bishop, Kind::Rook] {
            if hand.count(kind) > 0 {
                sink.drops(kind, target);
            }
        }
    }

    /// True when dropping a pawn of the side to move on `sq` (which checks the king on `ek`) would
    /// checkmate: the defender can neither capture the pawn nor move the king to safety.
    fn pawn_drop_mates(&self, sq: Square, ek: Square) -> bool {
        let t = V::tables();
        let us = self.side;
        let them = !us;
        let occ = self.occupied().with(sq);
        // Capture by a piece other than the king, unless that piece is pinned off the line.
        let defenders = self.attackers_to(sq, them, occ) & !self.pieces(them, Kind::King);
        for d in defenders {
            let after = occ.without(d);
            let sliders = (t.rook(ek, after)
                & (self.pieces(us, Kind::Rook) | self.pieces(us, Kind::Dragon)))
                | (t.bishop(ek, after)
                    & (self.pieces(us, Kind::Bishop) | self.pieces(us, Kind::Horse)))
                | (t.lance(them, ek, after) & self.pieces(us, Kind::Lance));
            if sliders.is_empty() {
                return false;
            }
        }
        // King escapes, including capturing the pawn.
        let occ_without_king = occ.without(ek);
        for to in t.king[ek.index()] & !self.by_color[them] {
            if !self.is_attacked(to, us, occ_without_king) {
                return false;
            }
        }
        true
    }

    /// A short explanation of why the well-formed move `mv` is illegal.
    pub(super) fn illegal_reason(&self, mv: Move) -> String {
        let t = V::tables();
        let us = self.side;
        let name = |sq: Square| -> String { V::GEOMETRY.square_name(sq).iter().collect() };
        let to = mv.to();
        if mv == PASS {
            return if V::EXTRA_MOVES && self.extra_moves > 0 {
                "only the handicap giver (White) passes, and Black is to move".into()
            } else {
                "pass is legal only for White during an extra-move handicap (MinishogiExtraMoves)"
                    .into()
            };
        }
        if V::EXTRA_MOVES && self.extra_moves > 0 {
            if us == Color::White {
                return "White must pass while Black makes his extra moves".into();
            }
            if !mv.is_drop() && !self.piece_at(to).is_none() {
                return "an extra move of the handicap may not capture".into();
            }
        }
        if mv.is_drop() {
            let kind = Kind::from_code(mv.drop_piece());
            if self.hands[us].count(kind) == 0 {
                return format!("no {} in hand", kind.letter());
            }
            if !self.piece_at(to).is_none() {
                return format!("{} is occupied", name(to));
            }
            if matches!(kind, Kind::Pawn | Kind::Lance) && t.last_rank[us.index()].has(to)
                || kind == Kind::Knight && t.last_two[us.index()].has(to)
            {
                return "the dropped piece could never move".into();
            }
            if kind == Kind::Pawn
                && (self.pieces(us, Kind::Pawn) & t.files[V::GEOMETRY.file(to) as usize]).any()
            {
                return "nifu: an unpromoted pawn of the same player stands on that file".into();
            }
            if kind == Kind::Pawn
                && let Some(ek) = self.kings[!us]
                && t.pawn[us.index()][to.index()].has(ek)
                && self.pawn_drop_mates(to, ek)
            {
                return "uchifuzume: a pawn drop may not checkmate".into();
            }
            return "it leaves the king in check".into();
        }
        let from = mv.from();
        let piece = self.piece_at(from);
        if piece.is_none() {
            return format!("no piece on {}", name(from));
        }
        if piece.color() != us {
            return format!("the piece on {} belongs to the opponent", name(from));
        }
        let own = self.by_color[us];
        if own.has(to) {
            return format!("{} holds a piece of the mover", name(to));
        }
        let kind = piece.kind();
        if !t.attacks(kind, us, from, self.occupied()).has(to) {
            return format!("the piece on {} cannot reach {}", name(from), name(to));
        }
        let zone = t.zone[us.index()];
        if mv.is_promotion() && (!kind.can_promote() || !(zone.has(from) || zone.has(to))) {
            return "this piece cannot promote on this move".into();
        }
        if !mv.is_promotion() && kind.can_promote() && t.forced[us.index()][kind.index()].has(to) {
            return "the piece must promote there".into();
        }
        "it leaves the king in check".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::game::Position;
    use crate::games::minishogi::Mini;
    use crate::games::shogi::Standard;
    use crate::rng::Rng;

    /// Calls `check` at each position along `games` random games of `V` (up to 160 plies each);
    /// returns how many positions were in check and how many had a drop among their moves.
    fn along_random_games<V: Variant>(
        games: usize,
        seed: u64,
        mut check: impl FnMut(&Board<V>, &MoveList),
    ) -> (usize, usize) {
        let mut rng = Rng::new(seed);
        let (mut checks, mut drops) = (0, 0);
        for _ in 0..games {
            let mut pos = Board::<V>::startpos();
            for _ in 0..160 {
                let mut list = MoveList::<Move>::new();
                pos.legal_moves(&mut list);
                if list.is_empty() {
                    break;
                }
                checks += pos.in_check() as usize;
                drops += list.iter().any(|m| m.is_drop()) as usize;
                check(&pos, &list);
                pos.play(list[rng.below(list.len())]);
            }
        }
        (checks, drops)
    }

    /// The direct legality test agrees with the generator on every 16-bit value.
    fn direct_legality_agrees_with_the_generator<V: Variant>(games: usize, seed: u64) {
        let (checks, drops) = along_random_games::<V>(games, seed, |pos, _| {
            for code in 0..=u16::MAX {
                let mv = Move(code);
                assert_eq!(
                    pos.is_legal(mv),
                    pos.is_generated(mv),
                    "{code} in {}",
                    pos.to_sfen()
                );
            }
        });
        assert!(checks > 0 && drops > 0, "the games met no check or no drop");
    }

    /// `key_after` gives the key that playing the move computes, for every legal move.
    fn key_after_agrees_with_playing<V: Variant>(games: usize, seed: u64) {
        along_random_games::<V>(games, seed, |pos, list| {
            for &mv in list.iter() {
                let mut child = pos.clone();
                child.play(mv);
                assert_eq!(
                    pos.key_after(mv),
                    child.key(),
                    "{mv:?} in {}",
                    pos.to_sfen()
                );
            }
        });
    }

    /// `has_legal_move` agrees with counting the moves, after every legal move (so in many
    /// checks, some of them mates).
    fn has_legal_move_agrees_with_counting<V: Variant>(games: usize, seed: u64) -> usize {
        let mut mates = 0;
        along_random_games::<V>(games, seed, |pos, list| {
            for &mv in list.iter() {
                let mut child = pos.clone();
                child.play(mv);
                let count = child.count_legal_moves();
                mates += (count == 0) as usize;
                assert_eq!(child.has_legal_move(), count > 0, "{}", child.to_sfen());
            }
        });
        mates
    }

    #[test]
    fn has_legal_move_agrees_with_counting_in_shogi_and_minishogi() {
        let mates = has_legal_move_agrees_with_counting::<Standard>(30, 9)
            + has_legal_move_agrees_with_counting::<Mini>(60, 10);
        assert!(mates > 0, "no mate met: the test proves little");
    }

    /// Playing a move with its check status from `gives_check` leaves the same checkers as
    /// playing it plainly, for every legal move.
    fn known_check_agrees_with_playing<V: Variant>(games: usize, seed: u64) {
        along_random_games::<V>(games, seed, |pos, list| {
            let info = pos.check_info();
            for &mv in list.iter() {
                let mut plain = pos.clone();
                plain.play(mv);
                let mut known = pos.clone();
                known.play_known_check(mv, pos.gives_check(&info, mv));
                assert_eq!(
                    known.in_check(),
                    plain.in_check(),
                    "{mv:?} in {}",
                    pos.to_sfen()
                );
                assert_eq!(known.to_sfen(), plain.to_sfen());
                assert_eq!(known.key(), plain.key());
            }
        });
    }

    #[test]
    fn known_check_agrees_with_playing_in_shogi_and_minishogi() {
        known_check_agrees_with_playing::<Standard>(20, 11);
        known_check_agrees_with_playing::<Mini>(40, 12);
    }

    #[test]
    fn key_after_agrees_with_playing_in_shogi_and_minishogi() {
        key_after_agrees_with_playing::<Standard>(20, 7);
        key_after_agrees_with_playing::<Mini>(40, 8);
    }

    /// The mate solver's key of the board alone is the key of the same position with empty
    /// hands, whatever the hands (so positions that differ only in hand share it), along random
    /// games with many captures.
    fn board_key_ignores_the_hands<V: Variant>(games: usize, seed: u64) -> usize {
        use crate::mate::MateGame;
        let mut with_hands = 0;
        along_random_games::<V>(games, seed, |pos, _| {
            let sfen = pos.to_sfen();
            let words: Vec<&str> = sfen.split(' ').collect();
            let bare = format!("{} {} - {}", words[0], words[1], words[3]);
            let bare = Board::<V>::from_sfen(&bare).expect("the same board with empty hands");
            assert_eq!(pos.board_key(), bare.board_key(), "{sfen}");
            assert_eq!(bare.board_key(), bare.key(), "{sfen}");
            with_hands += (words[2] != "-") as usize;
        });
        with_hands
    }

    #[test]
    fn board_key_ignores_the_hands_in_shogi_and_minishogi() {
        let with_hands = board_key_ignores_the_hands::<Standard>(20, 17)
            + board_key_ignores_the_hands::<Mini>(40, 18);
        assert!(
            with_hands > 0,
            "no piece in hand met: the test proves nothing"
        );
    }

    #[test]
    fn direct_legality_agrees_with_the_generator_in_shogi() {
        direct_legality_agrees_with_the_generator::<Standard>(4, 5);
    }

    #[test]
    fn direct_legality_agrees_with_the_generator_in_minishogi() {
        direct_legality_agrees_with_the_generator::<Mini>(8, 6);
    }
}

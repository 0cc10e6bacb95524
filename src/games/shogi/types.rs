//! Piece kinds, pieces and hands of shogi and minishogi.

use crate::core::color::Color;
use crate::core::moves::Move;
use crate::core::square::Square;

/// The handicap giver's skipped turn (`pass`), legal only during minishogi's extra-move
/// handicaps; encoded as a drop of a piece code no game uses.
pub const PASS: Move = Move::drop(0x7f, Square(0));

/// A kind of shogi piece. The six promotable kinds come first; `kind + 8` is its promoted form.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[repr(u8)]
pub enum Kind {
    /// 歩 pawn.
    Pawn = 0,
    /// 香 lance.
    Lance = 1,
    /// 桂 knight.
    Knight = 2,
    /// 銀 silver general.
    Silver = 3,
    /// 角 bishop.
    Bishop = 4,
    /// 飛 rook.
    Rook = 5,
    /// 金 gold general.
    Gold = 6,
    /// 玉 king.
    King = 7,
    /// と tokin (promoted pawn).
    ProPawn = 8,
    /// 成香 promoted lance.
    ProLance = 9,
    /// 成桂 promoted knight.
    ProKnight = 10,
    /// 成銀 promoted silver.
    ProSilver = 11,
    /// 馬 horse (promoted bishop).
    Horse = 12,
    /// 龍 dragon (promoted rook).
    Dragon = 13,
}

/// Number of piece kinds.
pub const KIND_COUNT: usize = 14;
/// Number of kinds that can be held in hand (pawn to gold).
pub const HAND_KIND_COUNT: usize = 7;

impl Kind {
    /// Every kind, in code order.
    pub const ALL: [Kind; KIND_COUNT] = [
        Kind::Pawn,
        Kind::Lance,
        Kind::Knight,
        Kind::Silver,
        Kind::Bishop,
        Kind::Rook,
        Kind::Gold,
        Kind::King,
        Kind::ProPawn,
        Kind::ProLance,
        Kind::ProKnight,
        Kind::ProSilver,
        Kind::Horse,
        Kind::Dragon,
    ];

    /// The kinds a hand holds in the order SFEN, CSA and KIF write them (the most valuable first).
    pub const HAND_WRITING_ORDER: [Kind; HAND_KIND_COUNT] = [
        Kind::Rook,
        Kind::Bishop,
        Kind::Gold,
        Kind::Silver,
        Kind::Knight,
        Kind::Lance,
        Kind::Pawn,
    ];

    /// The kinds a player can hold, in code order ([`Kind::HAND_WRITING_ORDER`] is how they are
    /// written).
    pub const HAND: [Kind; HAND_KIND_COUNT] = [
        Kind::Pawn,
        Kind::Lance,
        Kind::Knight,
        Kind::Silver,
        Kind::Bishop,
        Kind::Rook,
        Kind::Gold,
    ];

    /// The kind with code `c` (0–13).
    #[inline(always)]
    pub const fn from_code(c: u8) -> Kind {
        Kind::ALL[c as usize]
    }

    /// The kind's code, an index 0–13.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// True for the six kinds that can promote.
    #[inline(always)]
    pub const fn can_promote(self) -> bool {
        (self as u8) < 6
    }

    /// The promoted form of a promotable kind.
    #[inline(always)]
    pub const fn promoted(self) -> Kind {
        Kind::from_code(self as u8 + 8)
    }

    /// The kind a captured piece becomes in hand (its unpromoted form).
    #[inline(always)]
    pub const fn unpromoted(self) -> Kind {
        if (self as u8) >= 8 {
            Kind::from_code(self as u8 - 8)
        } else {
            self
        }
    }

    /// True for promoted kinds.
    #[inline(always)]
    pub const fn is_promoted(self) -> bool {
        (self as u8) >= 8
    }

    /// The SFEN letter of the unpromoted kind, uppercase.
    pub const fn letter(self) -> char {
        match self.unpromoted() {
            Kind::Pawn => 'P',
            Kind::Lance => 'L',
            Kind::Knight => 'N',
            Kind::Silver => 'S',
            Kind::Bishop => 'B',
            Kind::Rook => 'R',
            Kind::Gold => 'G',
            _ => 'K',
        }
    }

    /// The kind's name in the plural, for messages ("pawns", "horses").
    pub const fn plural(self) -> &'static str {
        match self {
            Kind::Pawn => "pawns",
            Kind::Lance => "lances",
            Kind::Knight => "knights",
            Kind::Silver => "silvers",
            Kind::Bishop => "bishops",
            Kind::Rook => "rooks",
            Kind::Gold => "golds",
            Kind::King => "kings",
            Kind::ProPawn => "tokins",
            Kind::ProLance => "promoted lances",
            Kind::ProKnight => "promoted knights",
            Kind::ProSilver => "promoted silvers",
            Kind::Horse => "horses",
            Kind::Dragon => "dragons",
        }
    }

    /// The unpromoted kind written with `letter` (either case).
    pub fn from_letter(letter: char) -> Option<Kind> {
        Some(match letter.to_ascii_uppercase() {
            'P' => Kind::Pawn,
            'L' => Kind::Lance,
            'N' => Kind::Knight,
            'S' => Kind::Silver,
            'B' => Kind::Bishop,
            'R' => Kind::Rook,
            'G' => Kind::Gold,
            'K' => Kind::King,
            _ => return None,
        })
    }
}

/// A piece on the board: a kind and an owner, packed as `color << 4 | (kind + 1)`; 0 is no piece.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Piece(pub u8);

impl Piece {
    /// An empty square.
    pub const NONE: Piece = Piece(0);

    /// The piece of `color` and `kind`.
    #[inline(always)]
    pub const fn new(color: Color, kind: Kind) -> Piece {
        Piece((color as u8) << 4 | (kind as u8 + 1))
    }

    /// True for an empty square.
    #[inline(always)]
    pub const fn is_none(self) -> bool {
        self.0 == 0
    }

    /// The kind of a real piece.
    #[inline(always)]
    pub const fn kind(self) -> Kind {
        Kind::from_code((self.0 & 15) - 1)
    }

    /// The owner of a real piece.
    #[inline(always)]
    pub const fn color(self) -> Color {
        if self.0 >> 4 == 0 {
            Color::Black
        } else {
            Color::White
        }
    }

    /// The piece as an index below 32 (for hashing tables).
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The SFEN text of the piece: `+` for promoted, uppercase for Black.
    pub fn sfen(self) -> String {
        let k = self.kind();
        let l = match self.color() {
            Color::Black => k.letter(),
            Color::White => k.letter().to_ascii_lowercase(),
        };
        if k.is_promoted() {
            format!("+{l}")
        } else {
            l.to_string()
        }
    }
}

/// The pieces one player holds: a count per hand kind.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Hand(pub [u8; 8]);

impl Hand {
    /// How many pieces of `kind` (an unpromoted, non-king kind) are held.
    #[inline(always)]
    pub const fn count(self, kind: Kind) -> u8 {
        self.0[kind as usize]
    }

    /// True when nothing is held.
    #[inline(always)]
    pub fn is_empty(self) -> bool {
        u64::from_ne_bytes(self.0) == 0
    }

    /// Total number of pieces held.
    pub fn total(self) -> u32 {
        self.0.iter().map(|&c| c as u32).sum()
    }
}

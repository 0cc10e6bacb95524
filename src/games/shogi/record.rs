//! Game records of standard shogi: CSA (V2.2) and KIF (Kakinoki's format, UTF-8), written from a
//! start position and legal moves, and read back into a start position (SFEN) and USI moves.
//!
//! Writers take a [`Shogi`] position and moves known to be legal. Readers take the text of a
//! record, check every move against the rules, and fail with a message that names the line.

use super::types::{Kind, Piece};
use super::{Shogi, Standard, Variant};
use crate::core::color::Color;
use crate::core::game::Position;
use crate::core::moves::Move;
use crate::core::rules::Outcome;
use crate::core::square::Square;
use crate::games::info::{GameRecord, RecordEnding, RecordFormat, RecordWrite};

/// A game as the rest of the engine takes it: the start position and the moves played from it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// The start position as SFEN.
    pub sfen: String,
    /// The moves, in USI notation.
    pub moves: Vec<String>,
    /// The end the record writes after the last move (`投了`, `%TORYO`…), when it is a result.
    pub ending: Option<RecordEnding>,
    /// The other lines of play (KIF `変化`), each the whole line from the start, in the
    /// record's order.
    pub variations: Vec<Vec<String>>,
}

/// The record formats of standard shogi, as its registry entry declares them: CSA first, so
/// that KIF takes whatever does not read like CSA.
pub const FORMATS: [RecordFormat; 2] = [
    RecordFormat {
        name: "csa",
        extension: "csa",
        write: |game| write_game(Format::Csa, game),
        detect: looks_like_csa,
        read: read_any,
    },
    RecordFormat {
        name: "kif",
        extension: "kifu",
        write: |game| write_game(Format::Kif, game),
        detect: |_| true,
        read: read_any,
    },
];

/// [`read`] as the registry's formats take it: the start and the moves.
fn read_any(text: &str) -> Result<GameRecord, String> {
    read(text).map(|r| GameRecord {
        sfen: r.sfen,
        moves: r.moves,
        ending: r.ending,
        variations: r.variations,
    })
}

/// The record formats of standard shogi.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// CSA V2.2.
    Csa,
    /// Kakinoki's KIF, UTF-8.
    Kif,
}

/// Replays `moves` (USI strings) from `sfen` (an SFEN, or `startpos`): the start position and
/// the moves, each checked to be legal where it is played.
pub fn replay(sfen: &str, moves: &[String]) -> Result<(Shogi, Vec<Move>), String> {
    let sfen = sfen.trim();
    let start = if sfen == "startpos" {
        Shogi::startpos()
    } else {
        Shogi::from_sfen(sfen).map_err(|e| format!("bad SFEN: {e}"))?
    };
    let mut pos = start.clone();
    let mut out = Vec::with_capacity(moves.len());
    for (i, m) in moves.iter().enumerate() {
        let mv = pos
            .parse_move(m)
            .map_err(|e| format!("move {} '{m}': {e}", i + 1))?;
        pos.play(mv);
        out.push(mv);
    }
    Ok((start, out))
}

/// Writes the game of `sfen` (an SFEN or `startpos`) and `moves` (USI strings) in `format`.
pub fn write(format: Format, sfen: &str, moves: &[String]) -> Result<String, String> {
    write_game(
        format,
        &RecordWrite {
            sfen,
            moves,
            variations: &[],
            ending: "",
        },
    )
}

/// Writes a game with its variations and ending lines in `format`: KIF writes the variations as
/// `変化` blocks after the main line and its ending; CSA, which has none, the main line only.
pub fn write_game(format: Format, game: &RecordWrite) -> Result<String, String> {
    let (start, moves) = replay(game.sfen, game.moves)?;
    if format == Format::Csa {
        return Ok(write_csa(&start, &moves) + game.ending);
    }
    let mut others = Vec::with_capacity(game.variations.len());
    for (i, line) in game.variations.iter().enumerate() {
        let (_, line) = replay(game.sfen, line).map_err(|e| format!("variation {}: {e}", i + 1))?;
        others.push(line);
    }
    Ok(kif_record(&start, &moves, &others, game.ending))
}

/// Reads a CSA or KIF record, telling the two apart by their first lines.
pub fn read(text: &str) -> Result<Record, String> {
    if looks_like_csa(text) {
        read_csa(text)
    } else {
        read_kif(text)
    }
}

/// True when the first line that is neither empty nor a comment reads like CSA (`V2.2`, `N+`,
/// `$EVENT`, `PI`, `P1`, `+`, `+7776FU`…) rather than KIF.
pub fn looks_like_csa(text: &str) -> bool {
    let first = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('\'') && !l.starts_with('#'));
    first.is_some_and(|l| {
        l.starts_with('V')
            || l.starts_with('N')
            || l.starts_with('$')
            || l.starts_with('P')
            || l.starts_with('+')
            || l.starts_with('-')
    })
}

// ---------------------------------------------------------------- CSA

/// The CSA name of a piece kind.
pub fn csa_piece(kind: Kind) -> &'static str {
    match kind {
        Kind::Pawn => "FU",
        Kind::Lance => "KY",
        Kind::Knight => "KE",
        Kind::Silver => "GI",
        Kind::Gold => "KI",
        Kind::Bishop => "KA",
        Kind::Rook => "HI",
        Kind::King => "OU",
        Kind::ProPawn => "TO",
        Kind::ProLance => "NY",
        Kind::ProKnight => "NK",
        Kind::ProSilver => "NG",
        Kind::Horse => "UM",
        Kind::Dragon => "RY",
    }
}

/// The kind a CSA piece name stands for.
fn csa_kind(name: &str) -> Option<Kind> {
    Kind::ALL.into_iter().find(|&k| csa_piece(k) == name)
}

/// `+` for Black, `-` for White.
pub fn csa_color(c: Color) -> char {
    match c {
        Color::Black => '+',
        Color::White => '-',
    }
}

/// A square as CSA and KIF number it: file then rank, both from 1 (`77`).
fn numbered(sq: Square) -> (u8, u8) {
    let geo = Standard::GEOMETRY;
    (geo.file(sq) + 1, geo.rank(sq) + 1)
}

fn csa_square(sq: Square) -> String {
    let (f, r) = numbered(sq);
    format!("{f}{r}")
}

/// The position as a CSA V2.2 start position: `PI` for the standard start, else the `P1`…`P9`
/// board lines and `P+`/`P-` hands; then the side to move.
pub fn csa_position(pos: &Shogi) -> String {
    let geo = Standard::GEOMETRY;
    let mut out = String::new();
    if pos.to_sfen() == Shogi::startpos().to_sfen() {
        out.push_str("PI\n+\n");
        return out;
    }
    for rank in 0..geo.ranks {
        out.push_str(&format!("P{}", rank + 1));
        for file in (0..geo.files).rev() {
            let p = pos.piece_at(geo.square(file, rank));
            if p.is_none() {
                out.push_str(" * ");
            } else {
                out.push(csa_color(p.color()));
                out.push_str(csa_piece(p.kind()));
            }
        }
        out.push('\n');
    }
    for c in Color::ALL {
        let hand = pos.hand(c);
        if hand.is_empty() {
            continue;
        }
        out.push_str(&format!("P{}", csa_color(c)));
        for k in Kind::HAND.iter().rev() {
            for _ in 0..hand.count(*k) {
                out.push_str("00");
                out.push_str(csa_piece(*k));
            }
        }
        out.push('\n');
    }
    out.push(csa_color(pos.side_to_move()));
    out.push('\n');
    out
}

/// A legal move of `pos` in CSA notation (`+7776FU`; the piece as it stands after the move).
pub fn csa_move(pos: &Shogi, mv: Move) -> String {
    let c = csa_color(pos.side_to_move());
    if mv.is_drop() {
        let k = Kind::from_code(mv.drop_piece());
        format!("{c}00{}{}", csa_square(mv.to()), csa_piece(k))
    } else {
        let k = pos.piece_at(mv.from()).kind();
        let k = if mv.is_promotion() { k.promoted() } else { k };
        format!(
            "{c}{}{}{}",
            csa_square(mv.from()),
            csa_square(mv.to()),
            csa_piece(k)
        )
    }
}

/// A CSA V2.2 record of the game: version, start position, one move a line.
pub fn write_csa(start: &Shogi, moves: &[Move]) -> String {
    let mut out = String::from("V2.2\n");
    out.push_str(&csa_position(start));
    let mut pos = start.clone();
    for &mv in moves {
        out.push_str(&csa_move(&pos, mv));
        out.push('\n');
        pos.play(mv);
    }
    out
}

/// Reads a CSA record (V2.x; one game). Comments (`'`), names, `$` fields, times (`T…`) and the
/// ending (`%TORYO`…) are skipped; statements may share a line, separated by commas.
pub fn read_csa(text: &str) -> Result<Record, String> {
    let mut setup: Option<Setup> = None;
    let mut game: Option<Game> = None;
    for (n, line) in text.lines().enumerate() {
        let at = |e: String| format!("CSA line {}: {e}", n + 1);
        let line = line.trim();
        if line.starts_with('\'') {
            continue;
        }
        for st in line.split(',').map(str::trim) {
            if st.is_empty()
                || st.starts_with('V')
                || st.starts_with('N')
                || st.starts_with('$')
                || st.starts_with('T')
            {
                continue;
            }
            if st.starts_with('%') || st.starts_with('/') {
                return finish(setup, game, "CSA", csa_ending(st));
            }
            if let Some(rest) = st.strip_prefix('P') {
                if game.is_some() {
                    return Err(at("a position line after the moves".into()));
                }
                let s = setup.get_or_insert_with(Setup::empty);
                csa_position_line(s, rest).map_err(at)?;
                continue;
            }
            let color = match st.as_bytes()[0] {
                b'+' => Color::Black,
                b'-' => Color::White,
                _ => return Err(at(format!("unknown statement '{st}'"))),
            };
            if st.len() == 1 {
                if game.is_some() {
                    return Err(at("a side to move after the moves".into()));
                }
                setup.get_or_insert_with(Setup::empty).side = color;
                continue;
            }
            let g = match &mut game {
                Some(g) => g,
                None => game.insert(Game::new(setup.as_ref()).map_err(at)?),
            };
            g.play_csa(color, &st[1..]).map_err(at)?;
        }
    }
    finish(setup, game, "CSA", None)
}

/// The result a CSA ending statement (`%TORYO`) gives, for the side to move after the last move;
/// `None` for one that is no result (`%CHUDAN`, an interrupted game) or unknown.
fn csa_ending(statement: &str) -> Option<RecordEnding> {
    let (outcome, reason) = match statement {
        "%TORYO" => (Outcome::Loss, "resignation"),
        "%TSUMI" => (Outcome::Loss, "checkmate"),
        "%TIME_UP" => (Outcome::Loss, "time"),
        "%SENNICHITE" => (Outcome::Draw, "repetition"),
        // The player who checked throughout made the last move, and loses.
        "%OUTE_SENNICHITE" => (Outcome::Win, "perpetual check"),
        "%JISHOGI" => (Outcome::Draw, "impasse"),
        "%HIKIWAKE" => (Outcome::Draw, "agreement"),
        "%KACHI" => (Outcome::Win, "declaration"),
        _ => return None,
    };
    Some(RecordEnding { outcome, reason })
}

/// The result a KIF ending word (`投了`) gives, for the side to move after the last move; `None`
/// for one that is no result (`中断`, an interrupted game).
fn kif_ending(word: &str) -> Option<RecordEnding> {
    let (outcome, reason) = match word {
        "投了" => (Outcome::Loss, "resignation"),
        "詰み" => (Outcome::Loss, "checkmate"),
        "切れ負け" => (Outcome::Loss, "time"),
        "千日手" => (Outcome::Draw, "repetition"),
        "持将棋" => (Outcome::Draw, "impasse"),
        // The player to move wins by the other's illegal last move, or loses by his own.
        "反則勝ち" => (Outcome::Win, "illegal move"),
        "反則負け" => (Outcome::Loss, "illegal move"),
        "入玉勝ち" => (Outcome::Win, "declaration"),
        _ => return None,
    };
    Some(RecordEnding { outcome, reason })
}

/// The record from the position set up and the moves read (the position alone when there are
/// no moves).
fn finish(
    setup: Option<Setup>,
    game: Option<Game>,
    what: &str,
    ending: Option<RecordEnding>,
) -> Result<Record, String> {
    let game = match game {
        Some(g) => g,
        None => Game::new(setup.as_ref()).map_err(|e| format!("{what}: {e}"))?,
    };
    Ok(Record {
        sfen: game.start.to_sfen(),
        moves: game.moves,
        ending,
        variations: Vec::new(),
    })
}

/// One `P…` line of a CSA start position (without its `P`).
fn csa_position_line(s: &mut Setup, rest: &str) -> Result<(), String> {
    if !rest.is_ascii() {
        return Err(format!("unknown position line 'P{rest}'"));
    }
    let bytes = rest.as_bytes();
    match bytes.first() {
        Some(b'I') => {
            *s = Setup::of(&Shogi::startpos());
            for chunk in rest.as_bytes()[1..].chunks(4) {
                let t = std::str::from_utf8(chunk).unwrap_or("");
                let (f, r, name) = csa_placed(t)?;
                let kind = csa_kind(name).ok_or_else(|| format!("unknown piece '{name}'"))?;
                let cell = &mut s.board[r as usize - 1][f as usize - 1];
                if cell.is_none() || cell.kind() != kind {
                    return Err(format!("PI removes '{t}', which is not on the board"));
                }
                *cell = Piece::NONE;
            }
        }
        Some(&d @ b'1'..=b'9') => {
            let rank = (d - b'1') as usize;
            let cells = &rest[1..];
            for file in 0..9 {
                let t = cells.get(file * 3..file * 3 + 3).unwrap_or("").trim();
                let piece = if t.is_empty() || t == "*" {
                    Piece::NONE
                } else {
                    csa_piece_with_color(t)?
                };
                s.board[rank][8 - file] = piece;
            }
        }
        Some(b'+') | Some(b'-') => {
            let color = if bytes[0] == b'+' {
                Color::Black
            } else {
                Color::White
            };
            for chunk in rest.as_bytes()[1..].chunks(4) {
                let t = std::str::from_utf8(chunk).unwrap_or("");
                if t == "00AL" {
                    return Err("'00AL' (all remaining pieces) is not read".into());
                }
                let (f, r, name) = csa_placed(t)?;
                let kind = csa_kind(name).ok_or_else(|| format!("unknown piece '{name}'"))?;
                if f == 0 && r == 0 {
                    if kind.is_promoted() || kind == Kind::King {
                        return Err(format!("'{t}': no such piece in hand"));
                    }
                    s.hands[color.index()][kind.index()] += 1;
                } else if f == 0 || r == 0 {
                    return Err(format!("bad square in '{t}'"));
                } else {
                    s.board[r as usize - 1][f as usize - 1] = Piece::new(color, kind);
                }
            }
        }
        _ => return Err(format!("unknown position line 'P{rest}'")),
    }
    Ok(())
}

/// A 4-character CSA group `FRPC`: file, rank (0 for a hand) and piece name.
fn csa_placed(t: &str) -> Result<(u8, u8, &str), String> {
    let b = t.as_bytes();
    if b.len() != 4 || !b[0].is_ascii_digit() || !b[1].is_ascii_digit() {
        return Err(format!("'{t}' is not a square and a piece"));
    }
    Ok((b[0] - b'0', b[1] - b'0', &t[2..]))
}

/// `+FU`, `-KY`…: a piece with its owner.
fn csa_piece_with_color(t: &str) -> Result<Piece, String> {
    let color = match t.as_bytes()[0] {
        b'+' => Color::Black,
        b'-' => Color::White,
        _ => return Err(format!("'{t}' is not a piece")),
    };
    let kind = csa_kind(&t[1..]).ok_or_else(|| format!("'{t}' is not a piece"))?;
    Ok(Piece::new(color, kind))
}

// ---------------------------------------------------------------- KIF

/// Full-width file digits, 1 to 9.
const WIDE_DIGITS: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];
/// Kanji numerals, 1 to 9.
const KANJI_DIGITS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

/// The KIF name of a piece kind in a move (`成香`, `龍`…).
fn kif_piece(kind: Kind) -> &'static str {
    match kind {
        Kind::Pawn => "歩",
        Kind::Lance => "香",
        Kind::Knight => "桂",
        Kind::Silver => "銀",
        Kind::Gold => "金",
        Kind::Bishop => "角",
        Kind::Rook => "飛",
        Kind::King => "玉",
        Kind::ProPawn => "と",
        Kind::ProLance => "成香",
        Kind::ProKnight => "成桂",
        Kind::ProSilver => "成銀",
        Kind::Horse => "馬",
        Kind::Dragon => "龍",
    }
}

/// The one-character name of a kind on a KIF board diagram.
fn kif_board_piece(kind: Kind) -> char {
    match kind {
        Kind::ProLance => '杏',
        Kind::ProKnight => '圭',
        Kind::ProSilver => '全',
        k => kif_piece(k).chars().next().unwrap_or('・'),
    }
}

/// The kind of a one-character KIF piece name (board diagrams, hands and moves alike).
fn kif_kind(c: char) -> Option<Kind> {
    Some(match c {
        '王' => Kind::King,
        '竜' => Kind::Dragon,
        _ => return Kind::ALL.into_iter().find(|&k| kif_board_piece(k) == c),
    })
}

/// A count as KIF writes it in a hand (`二`…`十八`; nothing for one).
fn kanji_count(n: u8) -> String {
    match n {
        0 | 1 => String::new(),
        2..=9 => KANJI_DIGITS[n as usize - 1].to_string(),
        10 => "十".into(),
        _ => format!("十{}", KANJI_DIGITS[(n - 11) as usize]),
    }
}

/// Reads a count written after a piece in a KIF hand (empty: one).
fn read_kanji_count(s: &str) -> Option<u8> {
    let digit = |c: char| {
        KANJI_DIGITS
            .iter()
            .position(|&d| d == c)
            .map(|i| i as u8 + 1)
    };
    let cs: Vec<char> = s.chars().collect();
    match cs.as_slice() {
        [] => Some(1),
        ['十'] => Some(10),
        ['十', d] => Some(10 + digit(*d)?),
        [d] => digit(*d),
        _ => None,
    }
}

/// A square as KIF writes a destination (`７六`).
fn kif_square(sq: Square) -> String {
    let (f, r) = numbered(sq);
    format!(
        "{}{}",
        WIDE_DIGITS[f as usize - 1],
        KANJI_DIGITS[r as usize - 1]
    )
}

/// A legal move of `pos` in KIF notation (`７六歩(77)`, `同　角成(88)`, `５五角打`);
/// `previous_to` is the destination of the move before it, for `同`.
pub fn kif_move(pos: &Shogi, mv: Move, previous_to: Option<Square>) -> String {
    let to = mv.to();
    let dest = if previous_to == Some(to) {
        "同　".to_string()
    } else {
        kif_square(to)
    };
    if mv.is_drop() {
        return format!("{dest}{}打", kif_piece(Kind::from_code(mv.drop_piece())));
    }
    let kind = pos.piece_at(mv.from()).kind();
    let zone = |sq: Square| {
        let rank = Standard::GEOMETRY.rank(sq);
        match pos.side_to_move() {
            Color::Black => rank < Standard::ZONE_RANKS,
            Color::White => rank >= 9 - Standard::ZONE_RANKS,
        }
    };
    let suffix = if mv.is_promotion() {
        "成"
    } else if kind.can_promote() && (zone(mv.from()) || zone(to)) {
        "不成"
    } else {
        ""
    };
    let (f, r) = numbered(mv.from());
    format!("{dest}{}{suffix}({f}{r})", kif_piece(kind))
}

/// A hand as KIF writes it (`飛　金二　歩三` or `なし`).
fn kif_hand(pos: &Shogi, c: Color) -> String {
    let hand = pos.hand(c);
    let parts: Vec<String> = Kind::HAND_WRITING_ORDER
        .iter()
        .filter(|&&k| hand.count(k) > 0)
        .map(|&k| format!("{}{}", kif_piece(k), kanji_count(hand.count(k))))
        .collect();
    if parts.is_empty() {
        "なし".into()
    } else {
        parts.join("　")
    }
}

/// A KIF record of the game: `手合割：平手` for the standard start, else a board diagram; then
/// the moves, numbered from 1.
pub fn write_kif(start: &Shogi, moves: &[Move]) -> String {
    kif_record(start, moves, &[], "")
}

/// A KIF record of the main line `moves`, its `ending` lines, then the other lines of play
/// `others` (each from the start) as `変化` blocks.
fn kif_record(start: &Shogi, moves: &[Move], others: &[Vec<Move>], ending: &str) -> String {
    let mut out = kif_heading(start);
    let tree = Variations::new(moves, others);
    let main = tree.line_from(&[], tree.first_child(ROOT));
    tree.write_kif_line(&mut out, start, &main, 0);
    out.push_str(ending);
    tree.write_kif_branches(&mut out, start, &main, 0);
    out
}

/// A KIF record's lines before its moves: the start position (`手合割：平手`, or a board
/// diagram with the hands and the side to move) and the moves' heading.
fn kif_heading(start: &Shogi) -> String {
    let geo = Standard::GEOMETRY;
    let mut out = String::new();
    if start.to_sfen() == Shogi::startpos().to_sfen() {
        out.push_str("手合割：平手\n");
    } else {
        out.push_str(&format!("後手の持駒：{}\n", kif_hand(start, Color::White)));
        out.push_str("  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n");
        for rank in 0..geo.ranks {
            out.push('|');
            for file in (0..geo.files).rev() {
                let p = start.piece_at(geo.square(file, rank));
                if p.is_none() {
                    out.push_str(" ・");
                } else {
                    out.push(if p.color() == Color::White { 'v' } else { ' ' });
                    out.push(kif_board_piece(p.kind()));
                }
            }
            out.push('|');
            out.push(KANJI_DIGITS[rank as usize]);
            out.push('\n');
        }
        out.push_str("+---------------------------+\n");
        out.push_str(&format!("先手の持駒：{}\n", kif_hand(start, Color::Black)));
        if start.side_to_move() == Color::White {
            out.push_str("後手番\n");
        }
    }
    out.push_str("手数----指手---------消費時間--\n");
    out
}

/// The node of [`Variations`] before the first move.
const ROOT: usize = 0;

/// A game's lines of play as a tree: each node a move (the root none), its children the moves
/// played after it, the main line's first; lines that share their first moves share nodes.
struct Variations {
    /// The move of each node (the root's is unused).
    moves: Vec<Move>,
    /// The children of each node, in the order the lines gave them.
    children: Vec<Vec<usize>>,
}

impl Variations {
    /// The tree of the main line `main` and the other lines `others` (each from the start).
    fn new(main: &[Move], others: &[Vec<Move>]) -> Variations {
        let mut tree = Variations {
            moves: vec![Move::NONE],
            children: vec![Vec::new()],
        };
        for line in std::iter::once(main).chain(others.iter().map(Vec::as_slice)) {
            let mut at = ROOT;
            for &mv in line {
                at = match tree.children[at].iter().find(|&&c| tree.moves[c] == mv) {
                    Some(&c) => c,
                    None => {
                        tree.moves.push(mv);
                        tree.children.push(Vec::new());
                        let c = tree.moves.len() - 1;
                        tree.children[at].push(c);
                        c
                    }
                };
            }
        }
        tree
    }

    /// The first child of `node`, if any.
    fn first_child(&self, node: usize) -> Option<usize> {
        self.children[node].first().copied()
    }

    /// The line `path` (nodes from the first move) continued by `next` and then by first
    /// children to the line's end.
    fn line_from(&self, path: &[usize], next: Option<usize>) -> Vec<usize> {
        let mut line = path.to_vec();
        let mut at = next;
        while let Some(n) = at {
            line.push(n);
            at = self.first_child(n);
        }
        line
    }

    /// The children of the node before ply `ply` of `line` (the root before the first).
    fn siblings(&self, line: &[usize], ply: usize) -> &[usize] {
        &self.children[if ply == 0 { ROOT } else { line[ply - 1] }]
    }

    /// Writes the moves of `line` from its ply `from` on, numbered from `from + 1`; a move with
    /// a variation still to be written after it is marked `+`, as Kakinoki's KIF does.
    fn write_kif_line(&self, out: &mut String, start: &Shogi, line: &[usize], from: usize) {
        let mut pos = start.clone();
        let mut previous = None;
        for (ply, &node) in line.iter().enumerate() {
            let mv = self.moves[node];
            if ply >= from {
                let siblings = self.siblings(line, ply);
                let more = siblings.last() != Some(&node);
                out.push_str(&format!(
                    "{:>4} {}{}\n",
                    ply + 1,
                    kif_move(&pos, mv, previous),
                    if more { "+" } else { "" }
                ));
            }
            previous = Some(mv.to());
            pos.play(mv);
        }
    }

    /// Writes the variations that branch from `line` after its ply `from`, as `変化：N手`
    /// blocks: the deepest branch first, alternatives to one move in their order, each followed
    /// at once by its own variations. A reader attaches each block to the latest line written
    /// that reaches its move number, which this order makes the right one.
    fn write_kif_branches(&self, out: &mut String, start: &Shogi, line: &[usize], from: usize) {
        for ply in (from..line.len()).rev() {
            let siblings = self.siblings(line, ply);
            let at = siblings.iter().position(|&s| s == line[ply]).unwrap_or(0);
            for &other in &siblings[at + 1..] {
                let branch = self.line_from(&line[..ply], Some(other));
                out.push_str(&format!("\n変化：{}手\n", ply + 1));
                self.write_kif_line(out, start, &branch, ply);
                self.write_kif_branches(out, start, &branch, ply + 1);
            }
        }
    }
}

/// The handicaps a KIF `手合割` may name: the pieces White (the upper player, who moves first)
/// gives up, as CSA groups.
const HANDICAPS: [(&str, &[&str]); 10] = [
    ("香落ち", &["11KY"]),
    ("右香落ち", &["91KY"]),
    ("角落ち", &["22KA"]),
    ("飛車落ち", &["82HI"]),
    ("飛香落ち", &["82HI", "11KY"]),
    ("二枚落ち", &["82HI", "22KA"]),
    ("四枚落ち", &["82HI", "22KA", "11KY", "91KY"]),
    (
        "六枚落ち",
        &["82HI", "22KA", "11KY", "91KY", "21KE", "81KE"],
    ),
    (
        "八枚落ち",
        &[
            "82HI", "22KA", "11KY", "91KY", "21KE", "81KE", "31GI", "71GI",
        ],
    ),
    (
        "十枚落ち",
        &[
            "82HI", "22KA", "11KY", "91KY", "21KE", "81KE", "31GI", "71GI", "41KI", "61KI",
        ],
    ),
];

/// The words that end a KIF game in place of a move.
const KIF_ENDINGS: [&str; 12] = [
    "投了",
    "中断",
    "詰み",
    "千日手",
    "持将棋",
    "切れ負け",
    "反則勝ち",
    "反則負け",
    "入玉勝ち",
    "不詰",
    "不戦勝",
    "不戦敗",
];

/// Reads a KIF record: the main line, its ending, and its variations (`変化：N手` blocks, each
/// attached to the latest line before it that reaches move N, as Kakinoki's format orders them).
/// Headers other than `手合割` and the hands, comments (`*`, `#`, `&`), time fields, the `+`
/// that marks a move with variations and the `まで` line are skipped.
pub fn read_kif(text: &str) -> Result<Record, String> {
    let mut setup: Option<Setup> = None;
    let mut rows = 0usize;
    let mut game: Option<Game> = None;
    let mut ending = None;
    // The main line once the first variation begins; the lines read so far, the main first.
    let mut record: Option<Record> = None;
    let mut lines: Vec<Vec<String>> = Vec::new();
    // The line being read has ended (an ending word): only a variation may follow.
    let mut ended = false;
    // The move number the next move line must have, in a variation.
    let mut expect: Option<usize> = None;
    for (n, raw) in text.lines().enumerate() {
        let at = |e: String| format!("KIF line {}: {e}", n + 1);
        let line = raw.trim_end().trim_start_matches('\u{feff}');
        let trimmed = line.trim_start();
        if trimmed.is_empty()
            || trimmed.starts_with(['*', '#', '&'])
            || trimmed.starts_with("手数")
            || trimmed.starts_with("+--")
            || trimmed.starts_with('９')
        {
            continue;
        }
        if let Some(branch) = trimmed.strip_prefix("変化") {
            let ply =
                kif_branch_ply(branch).ok_or_else(|| at(format!("cannot read '{trimmed}'")))?;
            let done = match game.take() {
                Some(g) => g,
                None => Game::new(setup.as_ref()).map_err(at)?,
            };
            lines.push(done.moves.clone());
            match &mut record {
                None => record = Some(finish(setup.clone(), Some(done), "KIF", ending)?),
                Some(r) => r.variations.push(done.moves),
            }
            let parent = lines.iter().rev().find(|l| l.len() >= ply).ok_or_else(|| {
                at(format!(
                    "変化：{ply}手 follows no line that reaches move {ply}"
                ))
            })?;
            let mut g = Game::new(setup.as_ref()).map_err(at)?;
            for mv in &parent[..ply - 1] {
                g.play_usi(mv.clone()).map_err(at)?;
            }
            game = Some(g);
            ended = false;
            expect = Some(ply);
            continue;
        }
        if ended || trimmed.starts_with("まで") {
            continue;
        }
        if let Some(cells) = trimmed.strip_prefix('|') {
            if game.is_some() || rows >= 9 {
                return Err(at("a board line out of place".into()));
            }
            let s = setup.get_or_insert_with(Setup::empty);
            kif_board_line(s, rows, cells).map_err(at)?;
            rows += 1;
            continue;
        }
        if let Some(side) = ["先手番", "下手番", "後手番", "上手番"]
            .iter()
            .position(|w| trimmed.starts_with(w))
        {
            let s = setup.get_or_insert_with(Setup::empty);
            s.side = if side < 2 { Color::Black } else { Color::White };
            continue;
        }
        if let Some(number) = trimmed.split_whitespace().next()
            && number.chars().all(|c| c.is_ascii_digit())
        {
            let rest = trimmed[number.len()..].trim_start();
            if let Some(want) = expect.take()
                && number.parse::<usize>().ok() != Some(want)
            {
                return Err(at(format!(
                    "the variation's first move is numbered {number}, not {want}"
                )));
            }
            if let Some(word) = KIF_ENDINGS.iter().find(|w| rest.starts_with(*w)) {
                if record.is_none() {
                    ending = kif_ending(word);
                }
                ended = true;
                continue;
            }
            let g = match &mut game {
                Some(g) => g,
                None => game.insert(Game::new(setup.as_ref()).map_err(at)?),
            };
            g.play_kif(rest).map_err(at)?;
            continue;
        }
        if let Some((key, value)) = trimmed.split_once('：') {
            let value = value.trim_end_matches('　').trim();
            match key {
                "手合割" => {
                    if game.is_some() {
                        return Err(at("手合割 after the moves".into()));
                    }
                    setup = Some(kif_handicap(value).map_err(at)?);
                }
                "先手の持駒" | "下手の持駒" | "後手の持駒" | "上手の持駒" => {
                    let color = if key.starts_with('先') || key.starts_with('下') {
                        Color::Black
                    } else {
                        Color::White
                    };
                    let s = setup.get_or_insert_with(Setup::empty);
                    kif_hand_line(s, color, value).map_err(at)?;
                }
                _ => {}
            }
            continue;
        }
        return Err(at(format!("cannot read '{trimmed}'")));
    }
    match record {
        None => finish(setup, game, "KIF", ending),
        Some(mut r) => {
            r.variations.extend(game.map(|g| g.moves));
            Ok(r)
        }
    }
}

/// The move number of a `変化：N手` line (after its `変化`): N, at least 1.
fn kif_branch_ply(rest: &str) -> Option<usize> {
    let digits: String = rest
        .trim_start_matches(['：', ':', ' ', '　'])
        .trim_end()
        .strip_suffix('手')?
        .chars()
        .map(|c| match WIDE_DIGITS.iter().position(|&d| d == c) {
            Some(i) => char::from(b'1' + i as u8),
            None if c == '０' => '0',
            None => c,
        })
        .collect();
    digits.parse().ok().filter(|&n| n >= 1)
}

/// The start of a KIF `手合割`.
fn kif_handicap(name: &str) -> Result<Setup, String> {
    let mut s = Setup::of(&Shogi::startpos());
    if name == "平手" {
        return Ok(s);
    }
    let (_, removed) = HANDICAPS
        .iter()
        .find(|(n, _)| *n == name)
        .ok_or_else(|| format!("unknown handicap '{name}'"))?;
    for t in removed.iter() {
        let b = t.as_bytes();
        s.board[(b[1] - b'1') as usize][(b[0] - b'1') as usize] = Piece::NONE;
    }
    s.side = Color::White;
    Ok(s)
}

/// One row of a KIF board diagram (after its `|`).
fn kif_board_line(s: &mut Setup, rank: usize, cells: &str) -> Result<(), String> {
    let cs: Vec<char> = cells.chars().collect();
    for file in 0..9 {
        let (owner, name) = match cs.get(file * 2..file * 2 + 2) {
            Some([o, n]) => (*o, *n),
            _ => return Err("a board line needs 9 squares".into()),
        };
        let piece = if name == '・' {
            Piece::NONE
        } else {
            let kind = kif_kind(name).ok_or_else(|| format!("unknown piece '{name}'"))?;
            let color = if owner == 'v' {
                Color::White
            } else {
                Color::Black
            };
            Piece::new(color, kind)
        };
        s.board[rank][8 - file] = piece;
    }
    Ok(())
}

/// A KIF hand (`飛　金二　歩三`, or `なし`).
fn kif_hand_line(s: &mut Setup, color: Color, value: &str) -> Result<(), String> {
    s.hands[color.index()] = [0; 8];
    if value == "なし" || value.is_empty() {
        return Ok(());
    }
    for item in value.split(['　', ' ']).filter(|i| !i.is_empty()) {
        let mut cs = item.chars();
        let name = cs.next().unwrap_or('・');
        let kind = kif_kind(name)
            .filter(|k| !k.is_promoted() && *k != Kind::King)
            .ok_or_else(|| format!("'{item}' is not a piece in hand"))?;
        let count = read_kanji_count(cs.as_str()).ok_or_else(|| format!("'{item}': bad count"))?;
        s.hands[color.index()][kind.index()] = count;
    }
    Ok(())
}

/// The digit of a KIF destination (full-width, ASCII or kanji), 1 to 9.
fn kif_digit(c: char) -> Option<u8> {
    WIDE_DIGITS
        .iter()
        .position(|&d| d == c)
        .or_else(|| KANJI_DIGITS.iter().position(|&d| d == c))
        .map(|i| i as u8 + 1)
        .or_else(|| {
            c.to_digit(10)
                .filter(|d| (1..=9).contains(d))
                .map(|d| d as u8)
        })
}

// ---------------------------------------------------------------- reading

/// A start position being read: the board by rank and file (both from 0; file 0 is file 1),
/// the hands by kind code, and the side to move.
#[derive(Clone)]
struct Setup {
    board: [[Piece; 9]; 9],
    hands: [[u8; 8]; 2],
    side: Color,
}

impl Setup {
    fn empty() -> Setup {
        Setup {
            board: [[Piece::NONE; 9]; 9],
            hands: [[0; 8]; 2],
            side: Color::Black,
        }
    }

    fn of(pos: &Shogi) -> Setup {
        let geo = Standard::GEOMETRY;
        let mut s = Setup::empty();
        for rank in 0..9 {
            for file in 0..9 {
                s.board[rank][file] = pos.piece_at(geo.square(file as u8, rank as u8));
            }
        }
        for c in Color::ALL {
            s.hands[c.index()] = pos.hand(c).0;
        }
        s.side = pos.side_to_move();
        s
    }

    fn sfen(&self) -> String {
        let mut out = String::new();
        for (r, row) in self.board.iter().enumerate() {
            if r > 0 {
                out.push('/');
            }
            let mut empty = 0;
            for p in row.iter().rev() {
                if p.is_none() {
                    empty += 1;
                    continue;
                }
                if empty > 0 {
                    out.push_str(&empty.to_string());
                    empty = 0;
                }
                out.push_str(&p.sfen());
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
        }
        out.push(' ');
        out.push(self.side.sfen_char());
        out.push(' ');
        let mut hand = String::new();
        for c in Color::ALL {
            for k in Kind::HAND_WRITING_ORDER {
                let n = self.hands[c.index()][k.index()];
                if n > 1 {
                    hand.push_str(&n.to_string());
                }
                if n > 0 {
                    let l = k.letter();
                    hand.push(if c == Color::Black {
                        l
                    } else {
                        l.to_ascii_lowercase()
                    });
                }
            }
        }
        out.push_str(if hand.is_empty() { "-" } else { &hand });
        out.push_str(" 1");
        out
    }
}

/// A game being read: its start, the position reached and the moves so far.
struct Game {
    start: Shogi,
    pos: Shogi,
    previous_to: Option<Square>,
    moves: Vec<String>,
}

impl Game {
    /// Starts from the position set up (the standard start when there is none).
    fn new(setup: Option<&Setup>) -> Result<Game, String> {
        let start = match setup {
            Some(s) => Shogi::from_sfen(&s.sfen()).map_err(|e| format!("bad position: {e}"))?,
            None => Shogi::startpos(),
        };
        Ok(Game {
            pos: start.clone(),
            start,
            previous_to: None,
            moves: Vec::new(),
        })
    }

    /// Plays the USI move `usi`, checked against the rules.
    fn play_usi(&mut self, usi: String) -> Result<(), String> {
        let mv = self
            .pos
            .parse_move(&usi)
            .map_err(|e| format!("move {} ({usi}): {e}", self.moves.len() + 1))?;
        self.previous_to = Some(mv.to());
        self.pos.play(mv);
        self.moves.push(usi);
        Ok(())
    }

    /// Plays a CSA move (`7776FU`, without its sign) of `color`.
    fn play_csa(&mut self, color: Color, text: &str) -> Result<(), String> {
        if color != self.pos.side_to_move() {
            return Err(format!("'{text}' is played by the side not to move"));
        }
        let b = text.as_bytes();
        if b.len() != 6 || !b[..4].iter().all(u8::is_ascii_digit) {
            return Err(format!("'{text}' is not a CSA move"));
        }
        let [ff, fr, tf, tr] = [b[0], b[1], b[2], b[3]].map(|d| d - b'0');
        let name = &text[4..];
        let kind = csa_kind(name).ok_or_else(|| format!("unknown piece '{name}'"))?;
        if tf == 0 || tr == 0 || (ff == 0) != (fr == 0) {
            return Err(format!("bad square in '{text}'"));
        }
        let to = usi_square(tf, tr);
        let usi = if ff == 0 && fr == 0 {
            format!("{}*{to}", kind.letter())
        } else {
            let here = self.pos.piece_at(Standard::GEOMETRY.square(ff - 1, fr - 1));
            if here.is_none() {
                return Err(format!("'{text}': no piece on {ff}{fr}"));
            }
            let promote = if here.kind() == kind {
                ""
            } else if here.kind().can_promote() && here.kind().promoted() == kind {
                "+"
            } else {
                return Err(format!("'{text}': the piece on {ff}{fr} is not {name}"));
            };
            format!("{}{to}{promote}", usi_square(ff, fr))
        };
        self.play_usi(usi)
    }

    /// Plays a KIF move (`７六歩(77)`, `同　角成(88)`, `５五角打`; anything after it is
    /// skipped).
    fn play_kif(&mut self, text: &str) -> Result<(), String> {
        let bad = || format!("cannot read the move '{text}'");
        let cs: Vec<char> = text.chars().collect();
        let (to, mut i) = if cs.first() == Some(&'同') {
            let mut i = 1;
            while cs.get(i).is_some_and(|c| *c == '　' || *c == ' ') {
                i += 1;
            }
            (self.previous_to.map(numbered).ok_or_else(bad)?, i)
        } else {
            let f = cs.first().and_then(|&c| kif_digit(c)).ok_or_else(bad)?;
            let r = cs.get(1).and_then(|&c| kif_digit(c)).ok_or_else(bad)?;
            ((f, r), 2)
        };
        let kind = match (cs.get(i), cs.get(i + 1)) {
            (Some('成'), Some(&c)) if matches!(c, '香' | '桂' | '銀') => {
                i += 2;
                kif_kind(c).map(Kind::promoted)
            }
            (Some(&c), _) => {
                i += 1;
                kif_kind(c)
            }
            _ => None,
        }
        .ok_or_else(bad)?;
        let rest: String = cs[i..].iter().collect();
        let to_usi = usi_square(to.0, to.1);
        let (promote, rest) = if let Some(r) = rest.strip_prefix("不成") {
            ("", r)
        } else if let Some(r) = rest.strip_prefix('成') {
            ("+", r)
        } else {
            ("", rest.as_str())
        };
        let from = rest
            .strip_prefix('(')
            .and_then(|r| r.get(..2))
            .filter(|d| d.bytes().all(|b| b.is_ascii_digit()) && d != &"00");
        let usi = match from {
            None => {
                if !promote.is_empty() || kind.is_promoted() || kind == Kind::King {
                    return Err(bad());
                }
                format!("{}*{to_usi}", kind.letter())
            }
            Some(d) => {
                let b = d.as_bytes();
                let (ff, fr) = (b[0] - b'0', b[1] - b'0');
                if ff == 0 || fr == 0 {
                    return Err(bad());
                }
                let here = self.pos.piece_at(Standard::GEOMETRY.square(ff - 1, fr - 1));
                if here.is_none() || here.kind() != kind {
                    return Err(format!(
                        "'{text}': the piece on {ff}{fr} is not {}",
                        kif_piece(kind)
                    ));
                }
                format!("{}{to_usi}{promote}", usi_square(ff, fr))
            }
        };
        self.play_usi(usi)
    }
}

/// A square in USI notation from its file and rank numbers (`7g`).
fn usi_square(file: u8, rank: u8) -> String {
    format!("{file}{}", (b'a' + rank - 1) as char)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::moves::MoveList;

    fn legal_moves(pos: &Shogi) -> Vec<Move> {
        let mut list = MoveList::<Move>::new();
        pos.legal_moves(&mut list);
        list.iter().copied().collect()
    }

    fn moves(list: &[&str]) -> Vec<String> {
        list.iter().map(|m| m.to_string()).collect()
    }

    /// A KIF record as Kakinoki's Kifu for Windows writes one with variations: time fields, `+`
    /// on the moves that have one, the ending, then the `変化` blocks, deepest first.
    const KIF_WITH_VARIATIONS: &str = "\
# ---- Kifu for Windows V7 V7.70 棋譜ファイル ----
手合割：平手
先手：
後手：
手数----指手---------消費時間--
   1 ７六歩(77)   ( 0:00/00:00:00)
   2 ３四歩(33)   ( 0:00/00:00:00)+
   3 ２六歩(27)   ( 0:00/00:00:00)+
   4 ８四歩(83)   ( 0:00/00:00:00)
   5 投了
まで4手で後手の勝ち

変化：3手
   3 ６六歩(67)   ( 0:00/00:00:00)
   4 ８四歩(83)   ( 0:00/00:00:00)+

変化：4手
   4 ３二飛(82)   ( 0:00/00:00:00)

変化：2手
   2 ８四歩(83)   ( 0:00/00:00:00)
";

    #[test]
    fn kif_variations_are_read_into_whole_lines() {
        let r = read_kif(KIF_WITH_VARIATIONS).unwrap();
        assert_eq!(r.moves, moves(&["7g7f", "3c3d", "2g2f", "8c8d"]));
        assert_eq!(r.ending.map(|e| e.reason), Some("resignation"));
        assert_eq!(
            r.variations,
            vec![
                moves(&["7g7f", "3c3d", "6g6f", "8c8d"]),
                moves(&["7g7f", "3c3d", "6g6f", "8b3b"]),
                moves(&["7g7f", "8c8d"]),
            ]
        );
    }

    #[test]
    fn kif_variations_are_written_deepest_first_and_read_back() {
        let main = moves(&["7g7f", "3c3d", "2g2f", "8c8d"]);
        // Given in another order than a record writes them: the tree is the same.
        let others = vec![
            moves(&["7g7f", "8c8d"]),
            moves(&["7g7f", "3c3d", "6g6f", "8c8d"]),
            moves(&["7g7f", "3c3d", "6g6f", "8b3b"]),
            // A line the main line already holds adds nothing.
            moves(&["7g7f", "3c3d"]),
        ];
        let ending = "   5 投了\nまで4手で後手の勝ち\n";
        let text = write_game(
            Format::Kif,
            &RecordWrite {
                sfen: "startpos",
                moves: &main,
                variations: &others,
                ending,
            },
        )
        .unwrap();
        let body = text
            .split_once("手数----指手---------消費時間--\n")
            .unwrap()
            .1;
        assert_eq!(
            body,
            "   1 ７六歩(77)\n   2 ３四歩(33)+\n   3 ２六歩(27)+\n   4 ８四歩(83)\n\
             \x20  5 投了\nまで4手で後手の勝ち\n\n\
             変化：3手\n   3 ６六歩(67)\n   4 ８四歩(83)+\n\n\
             変化：4手\n   4 ３二飛(82)\n\n\
             変化：2手\n   2 ８四歩(83)\n"
        );
        let back = read_kif(&text).unwrap();
        assert_eq!(back.moves, main);
        assert_eq!(back.ending.map(|e| e.reason), Some("resignation"));
        let mut got = back.variations.clone();
        let mut want = others[..3].to_vec();
        got.sort();
        want.sort();
        assert_eq!(got, want);
        // Written again from what was read, the record is the same text.
        let again = write_game(
            Format::Kif,
            &RecordWrite {
                sfen: "startpos",
                moves: &back.moves,
                variations: &back.variations,
                ending,
            },
        )
        .unwrap();
        assert_eq!(again, text);
        // CSA has no variations: the main line alone.
        let csa = write_game(
            Format::Csa,
            &RecordWrite {
                sfen: "startpos",
                moves: &main,
                variations: &others,
                ending: "%TORYO\n",
            },
        )
        .unwrap();
        assert_eq!(
            csa,
            write(Format::Csa, "startpos", &main).unwrap() + "%TORYO\n"
        );
    }

    #[test]
    fn kif_variations_that_fit_no_line_are_refused() {
        let head = "手合割：平手\n   1 ７六歩(77)\n   2 ３四歩(33)\n";
        // No line reaches move 3.
        let e = read_kif(&format!("{head}\n変化：3手\n   3 ２六歩(27)\n")).unwrap_err();
        assert!(e.contains("reaches move 3"), "{e}");
        // The block's first move is not the move it names.
        let e = read_kif(&format!("{head}\n変化：2手\n   3 ８四歩(83)\n")).unwrap_err();
        assert!(e.contains("numbered 3, not 2"), "{e}");
        // An illegal move in a variation names its line.
        let e = read_kif(&format!("{head}\n変化：2手\n   2 ７六歩(77)\n")).unwrap_err();
        assert!(e.starts_with("KIF line 6"), "{e}");
        assert!(read_kif(&format!("{head}\n変化：0手\n")).is_err());
        // A variation of the first move from a record's own start position.
        let r = read_kif(&format!("{head}\n変化：1手\n   1 ２六歩(27)\n")).unwrap();
        assert_eq!(r.variations, vec![moves(&["2g2f"])]);
    }

    #[test]
    fn csa_moves_and_positions() {
        let pos = Shogi::startpos();
        assert_eq!(csa_position(&pos), "PI\n+\n");
        let mv = pos.parse_move("7g7f").unwrap();
        assert_eq!(csa_move(&pos, mv), "+7776FU");
        let mut p = pos.clone();
        for m in ["7g7f", "3c3d", "8h2b+"] {
            let mv = p.parse_move(m).unwrap();
            if m == "8h2b+" {
                assert_eq!(csa_move(&p, mv), "+8822UM");
            }
            p.play(mv);
        }
        let mv = p.parse_move("3a2b").unwrap();
        assert_eq!(csa_move(&p, mv), "-3122GI");
        p.play(mv);
        let mv = p.parse_move("B*4e").unwrap();
        assert_eq!(csa_move(&p, mv), "+0045KA");
        let text = csa_position(&p);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "P1-KY-KE-GI-KI-OU-KI * -KE-KY");
        assert_eq!(lines[9], "P+00KA");
        assert_eq!(lines[10], "P-00KA");
        assert_eq!(lines[11], "+");
    }

    const GAME: [&str; 9] = [
        "7g7f", "3c3d", "8h2b+", "3a2b", "B*4e", "8b4b", "4e3d", "4a3b", "3d2c",
    ];

    #[test]
    fn kif_moves_read_as_written() {
        let text = write(Format::Kif, "startpos", &moves(&GAME)).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "手合割：平手");
        assert_eq!(lines[2], "   1 ７六歩(77)");
        assert_eq!(lines[4], "   3 ２二角成(88)");
        assert_eq!(lines[5], "   4 同　銀(31)");
        assert_eq!(lines[6], "   5 ４五角打");
        assert_eq!(lines[7], "   6 ４二飛(82)");
        assert_eq!(lines[8], "   7 ３四角(45)");
        assert_eq!(lines[10], "   9 ２三角不成(34)");
        let back = read(&text).unwrap();
        assert_eq!(back.sfen, Shogi::startpos().to_sfen());
        assert_eq!(back.moves, moves(&GAME));
    }

    #[test]
    fn csa_round_trip() {
        let text = write(Format::Csa, "startpos", &moves(&GAME)).unwrap();
        assert!(text.starts_with("V2.2\nPI\n+\n+7776FU\n-3334FU\n"));
        let back = read(&text).unwrap();
        assert_eq!(back.moves, moves(&GAME));
    }

    #[test]
    fn positions_round_trip_in_both_formats() {
        let (start, played) = replay("startpos", &moves(&GAME)).unwrap();
        let mut pos = start;
        for mv in played {
            pos.play(mv);
        }
        let sfen = pos.to_sfen();
        // White to move, a bishop in White's hand and two pawns in Black's.
        assert_eq!(
            sfen,
            "lnsgk2nl/5rgs1/pppppp1Bp/9/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL w 2Pb 10"
        );
        let mut rng = crate::rng::Rng::new(3);
        let mut line = Vec::new();
        for _ in 0..12 {
            let legal = legal_moves(&pos);
            let mv = legal[rng.below(legal.len())];
            line.push(pos.move_to_usi(mv));
            pos.play(mv);
        }
        for format in [Format::Csa, Format::Kif] {
            let text = write(format, &sfen, &line).unwrap();
            let back = read(&text).unwrap();
            let want = Shogi::from_sfen(&sfen).unwrap();
            let got = Shogi::from_sfen(&back.sfen).unwrap();
            assert_eq!(got.key(), want.key(), "{format:?}\n{text}");
            assert_eq!(back.moves, line, "{format:?}\n{text}");
        }
        let kif = write(Format::Kif, &sfen, &line).unwrap();
        assert!(kif.starts_with("後手の持駒：角\n"), "{kif}");
        assert!(kif.contains("|v香v桂v銀v金v玉 ・ ・v桂v香|一\n"), "{kif}");
        assert!(kif.contains("先手の持駒：歩二\n後手番\n"), "{kif}");
        let csa = write(Format::Csa, &sfen, &line).unwrap();
        assert!(csa.contains("\nP+00FU00FU\nP-00KA\n-\n"), "{csa}");
    }

    #[test]
    fn common_variants_are_read() {
        let csa =
            "'comment\nV2.2\nN+a\nN-b\n$EVENT:x\nPI82HI22KA\n-\n-5152OU,T3\n+7776FU\nT1\n%TORYO\n";
        let r = read(csa).unwrap();
        assert_eq!(
            r.sfen,
            "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
        );
        assert_eq!(r.moves, moves(&["5a5b", "7g7f"]));
        let kif = "# KIF\n開始日時：2024/01/01\n手合割：角落ち\n先手：a\n後手：b\n\
                   手数----指手---------消費時間--\n\
                   *comment\n   1 ５二玉(51)   ( 0:01/00:00:01)\n   2 ７六歩(77)   ( 0:02/00:00:02)\n\
                   &bookmark\n   3 投了\nまで2手で先手の勝ち\n";
        let r = read(kif).unwrap();
        assert_eq!(
            r.sfen,
            "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
        );
        assert_eq!(r.moves, moves(&["5a5b", "7g7f"]));
    }

    #[test]
    fn errors_name_the_line() {
        let e = read("V2.2\nPI\n+\n+7776FU\n-3344FU\n").unwrap_err();
        assert!(e.starts_with("CSA line 5:"), "{e}");
        let e = read("V2.2\nPI\n+\n+7776KA\n").unwrap_err();
        assert!(e.starts_with("CSA line 4:"), "{e}");
        let e = read("手合割：平手\n   1 ７六歩(77)\n   2 ７六歩(77)\n").unwrap_err();
        assert!(e.starts_with("KIF line 3:"), "{e}");
        let e = read("手合割：平手\n   1 ９九玉(99)\n").unwrap_err();
        assert!(e.starts_with("KIF line 2:"), "{e}");
        let e = read("手合割：妙な手合\n").unwrap_err();
        assert!(e.starts_with("KIF line 1:"), "{e}");
        assert!(write(Format::Kif, "startpos", &moves(&["7g7f", "7g7f"])).is_err());
    }

    #[test]
    fn hands_count_to_eighteen() {
        for n in 1..=18 {
            assert_eq!(read_kanji_count(&kanji_count(n)), Some(n));
        }
    }

    #[test]
    fn random_games_round_trip() {
        let mut rng = crate::rng::Rng::new(7);
        for _ in 0..20 {
            let mut pos = Shogi::startpos();
            let mut line = Vec::new();
            for _ in 0..120 {
                let legal = legal_moves(&pos);
                if legal.is_empty() {
                    break;
                }
                let mv = legal[rng.below(legal.len())];
                line.push(pos.move_to_usi(mv));
                pos.play(mv);
            }
            for format in [Format::Csa, Format::Kif] {
                let text = write(format, "startpos", &line).unwrap();
                assert_eq!(read(&text).unwrap().moves, line, "{format:?}");
            }
        }
    }
}

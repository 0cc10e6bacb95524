//! What a game declares besides its rules: the registry entry ([`GameInfo`]) and the
//! capabilities that only some games have. The programs (the engine, the USI loop, the page, the
//! commands, the tools) iterate over these; none of them names a game.
//!
//! - an exact table ([`ExactInfo`], typed probing through [`ExactTable`]): a game solved by
//!   retrograde analysis is played and mated from its table;
//! - record formats ([`RecordFormat`]) besides the USI `position` line every game has;
//! - engine options that the game parses into its own search parameters ([`ParamOption`]);
//! - example positions ([`Example`]): the rules' and articles' games, mates and positions;
//! - how the page draws the game ([`PageInfo`]);
//! - the settings of the test tools ([`ToolInfo`]).

use std::any::Any;
use std::path::Path;
use std::sync::Arc;

use serde::Serialize;

use crate::core::game::Position;
use crate::core::search_params::SearchParams;
use crate::nnue::network::Network;

/// What the engine needs to know of a game besides its type: names, board, network, data and
/// its capabilities.
#[derive(Debug)]
pub struct GameInfo {
    /// Other names accepted for it (case is ignored for all).
    pub aliases: &'static [&'static str],
    /// The name for people (`--help`, the page).
    pub title: &'static str,
    /// Ranks of the board: how a bare SFEN tells the game (`tsubame mate`).
    pub ranks: usize,
    /// The network built into the binary, if the game has one.
    pub embedded_network: fn() -> Option<Arc<Network>>,
    /// Depth of the signature bench's search of the game's positions (`tsubame bench`).
    pub bench_depth: i32,
    /// Depth of `tsubame bench perft` from the game's start position.
    pub bench_perft_depth: u32,
    /// The game's exact table, when it is solved.
    pub exact: Option<ExactInfo>,
    /// Record formats of the game besides the USI `position` line (KIF and CSA for shogi).
    pub records: &'static [RecordFormat],
    /// Engine options the game declares and parses itself.
    pub param_options: &'static [ParamOption],
    /// The positions the page offers one click away, and the tests check.
    pub examples: fn() -> Vec<Example>,
    /// How the page draws the game.
    pub page: PageInfo,
    /// The settings of the test and measurement tools for the game (the fuzzer, the scripts
    /// of `tools/` through `tsubame games --json`).
    pub tools: ToolInfo,
    /// How `tsubame-train` teaches the game's evaluation.
    pub learning: Learning,
}

/// How a game's evaluation learns (`tsubame-train`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Learning {
    /// A network trained on `tsubame datagen` files. `mirror`: the rules are symmetric left to
    /// right, so each position may also be trained mirrored ([`Learns::mirrored_feature`]).
    NetworkFromData {
        /// Whether positions may be mirrored left to right.
        mirror: bool,
    },
    /// A network trained on the game's exact table, its values the targets.
    NetworkFromTable,
    /// A weighted sum of counts ([`Learns::linear_counts`]) fitted to `tsubame datagen` files.
    Linear {
        /// The counts' names.
        names: &'static [&'static str],
        /// The weights the engine ships, where a fit starts.
        weights: &'static [i32],
    },
}

/// What `tsubame-train` asks of a game besides its network features
/// ([`crate::core::search_game::SearchGame::nnue_features`]): every game implements it in its
/// folder, each overriding what its [`Learning`] needs.
pub trait Learns: Position {
    /// A network input feature of set `set` mirrored left to right (a game whose rules are
    /// symmetric).
    fn mirrored_feature(set: crate::nnue::FeatureSet, feature: usize) -> usize {
        let _ = set;
        feature
    }

    /// The counts a linear evaluation weighs, side to move's minus the opponent's.
    fn linear_counts(&self) -> Vec<i32> {
        Vec::new()
    }
}

/// A game's solved table: how it is made, named and loaded. Probing it is typed, through
/// [`ExactTable`] ([`crate::games::Game::exact_table`]).
#[derive(Debug, Clone, Copy)]
pub struct ExactInfo {
    /// The USI option that names the table's file (`type filename`, empty for none).
    pub option: &'static str,
    /// The command-line flag of `tsubame serve` that names the file (without the dashes).
    pub flag: &'static str,
    /// The file `tsubame solve` writes by default.
    pub default_file: &'static str,
    /// Reads a table file, checking that it is one of this game (the error says why not).
    pub load: fn(&Path) -> Result<AnyTable, String>,
    /// Builds the table (progress bars on standard error when the flag is set), verifies it,
    /// writes it to the path if one is given, and returns the report lines.
    pub solve: fn(Option<&Path>, bool) -> Result<Vec<String>, String>,
}

/// A loaded exact table of some game, as the engine holds it; the game reads it back as its own
/// type ([`crate::games::Game::exact_table`]).
pub type AnyTable = Arc<dyn Any + Send + Sync>;

/// The value of a position in a solved game, for the side to move.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum ExactValue {
    /// The side to move mates in this many plies.
    Win(u32),
    /// The side to move is mated in this many plies (0: it has no legal move).
    Loss(u32),
    /// Neither side can force a win.
    Draw,
}

impl ExactValue {
    /// Plies to the end of the game with best play (0 for a draw).
    pub fn distance(self) -> u32 {
        match self {
            ExactValue::Win(d) | ExactValue::Loss(d) => d,
            ExactValue::Draw => 0,
        }
    }
}

/// A solved table of the game `P`, probed position by position.
pub trait ExactTable<P: Position>: Send + Sync {
    /// The value of `pos`, when the table holds it.
    fn probe(&self, pos: &P) -> Option<ExactValue>;
    /// The best move of `pos` (the fastest win, the slowest loss, a move keeping the draw).
    fn best_move(&self, pos: &P) -> Option<P::Move>;
    /// The best line from `pos`, at most `plies` long.
    fn line(&self, pos: &P, plies: usize) -> Vec<P::Move>;
    /// The number of the table's entries (`tsubame-train` walks them by index).
    fn len(&self) -> u32;
    /// Whether the table has no entry.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The position of entry `index` and its value; `None` for an index that holds no legal
    /// position.
    fn entry(&self, index: u32) -> Option<(P, ExactValue)>;
}

/// How a game reads a loaded exact table as its own: every game implements it in its folder, a
/// solved one overriding [`HasExactTable::exact_table`].
pub trait HasExactTable: Position {
    /// A loaded exact table ([`ExactInfo::load`]) read as this game's, if it is one.
    fn exact_table(_table: &AnyTable) -> Option<&dyn ExactTable<Self>> {
        None
    }
}

/// What a match runner asks of a game beyond its rules: CSA notation for its records, a material
/// balance to reject lopsided random openings, and the 24-point impasse adjudication. Every game
/// implements it in its folder; the defaults suit a game without these.
pub trait MatchSupport: Position {
    /// The position as a CSA v2.2 start position (`PI` or `P1`… lines, hands, side to move), for
    /// a game that CSA can record.
    fn csa_position(&self) -> Option<String> {
        None
    }

    /// A legal move of this position in CSA notation (`+7776FU`).
    fn csa_move(&self, _mv: Self::Move) -> Option<String> {
        None
    }

    /// Material of the side to move minus the opponent's (board and hand, in pawns), used to
    /// reject lopsided random openings; `None` when the game has no such measure.
    fn material_balance(&self) -> Option<i32> {
        None
    }

    /// The 24-point impasse adjudication: once both kings stand in the enemy camp, a player with
    /// fewer than 24 points loses (`Some(Some(winner))`), else it is a draw (`Some(None)`).
    fn impasse_24(&self) -> Option<Option<crate::core::color::Color>> {
        None
    }
}

/// A game read from a record: its start position (SFEN), its moves (USI) and how the record says
/// it ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRecord {
    /// The start position (an SFEN of the game, or `startpos`).
    pub sfen: String,
    /// The moves played from it (USI).
    pub moves: Vec<String>,
    /// The end the record writes after its last move (a resignation, a loss on time…), if any.
    pub ending: Option<RecordEnding>,
    /// The other lines of play the record holds (KIF `変化`), each the whole line from the start
    /// (USI), in the record's order; empty for a format without variations.
    pub variations: Vec<Vec<String>>,
}

/// What a record format is asked to write: a game, its other lines of play and the lines of its
/// ending.
#[derive(Debug, Clone, Copy)]
pub struct RecordWrite<'a> {
    /// The start position: an SFEN of the game, or `startpos`.
    pub sfen: &'a str,
    /// The game's moves (USI): the main line.
    pub moves: &'a [String],
    /// Other lines of play, each the whole line from the start (USI); they share their first
    /// moves with the main line or with each other, as a tree of variations. A format without
    /// variations (CSA) writes the main line only.
    pub variations: &'a [Vec<String>],
    /// The format's own lines for the result, written after the main line's last move (or
    /// empty).
    pub ending: &'a str,
}

/// The end of a game as its record writes it after the last move, told for the side to move in
/// the final position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RecordEnding {
    /// The result for the side to move after the last move (`Loss` when it resigned).
    pub outcome: crate::core::rules::Outcome,
    /// Why the game ended, in English words (`resignation`, `time`, `repetition`).
    pub reason: &'static str,
}

/// A record format of a game (besides the USI `position` line that every game has).
#[derive(Debug, Clone, Copy)]
pub struct RecordFormat {
    /// Its name in lower case, as the page and `tsubame record --format` name it (`kif`).
    pub name: &'static str,
    /// The file extension of its files (without the dot).
    pub extension: &'static str,
    /// Writes a game: its start, moves, variations and ending ([`RecordWrite`]).
    pub write: fn(&RecordWrite) -> Result<String, String>,
    /// Whether a text is in this format; the last format of a game takes what the others left.
    pub detect: fn(&str) -> bool,
    /// Reads a record: its start position (SFEN), its USI moves and its variations.
    pub read: fn(&str) -> Result<GameRecord, String>,
}

/// A record format as the page (`GET /games.json`) and `tsubame games --json` describe it: its
/// `name` and `extension`.
impl Serialize for RecordFormat {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut out = s.serialize_struct("RecordFormat", 2)?;
        out.serialize_field("name", self.name)?;
        out.serialize_field("extension", self.extension)?;
        out.end()
    }
}

/// An engine option that a game declares and parses itself into its own search parameters
/// (Give and Take's evaluation weights).
#[derive(Debug, Clone, Copy)]
pub struct ParamOption {
    /// The option's name (`setoption name …`).
    pub name: &'static str,
    /// Its `option name …` line for the `usi` answer.
    pub declaration: fn() -> String,
    /// The search parameters with the option's value written into them, or why the value is
    /// refused.
    pub apply: fn(&str, SearchParams) -> Result<SearchParams, String>,
}

/// What an example position is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ExampleKind {
    /// A whole game: its start and its moves.
    Game,
    /// A mate problem: the side to move mates.
    Mate,
    /// A position that shows a rule.
    Position,
}

/// A position the page offers one click away.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Example {
    /// Its short name for a button.
    pub label: String,
    /// What it is.
    pub kind: ExampleKind,
    /// The start position (an SFEN of the game), or `None` for the game's start.
    pub sfen: Option<String>,
    /// Moves played from it (USI).
    pub moves: Vec<String>,
    /// The mate's length in plies, for a mate problem.
    pub plies: Option<u32>,
    /// The example is answered from the game's exact table (the page says when the server has
    /// none).
    pub exact: bool,
    /// How the game ended after its moves, as its source gives it (a game's `0-1`), when its last
    /// position does not say so itself (a resignation).
    pub result: Option<ExampleResult>,
}

/// How an example game ended, as its source gives it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ExampleResult {
    /// The side that won (`"b"` Black, `"w"` White), or `None` for a draw.
    pub winner: Option<&'static str>,
    /// Why, in the words of the page's records (`resignation`, `agreement`).
    pub reason: &'static str,
}

impl ExampleResult {
    /// The result a game's score gives (`1-0`, `0-1`, `1/2-1/2`), ended by the loser's
    /// resignation or by a draw agreed; `None` for any other text.
    pub fn from_score(score: &str) -> Option<ExampleResult> {
        let (winner, reason) = match score {
            "1-0" => (Some("b"), "resignation"),
            "0-1" => (Some("w"), "resignation"),
            "1/2-1/2" | "½-½" => (None, "agreement"),
            _ => return None,
        };
        Some(ExampleResult { winner, reason })
    }
}

impl Example {
    /// An example position with no moves.
    pub fn position(label: &str, kind: ExampleKind, sfen: Option<&str>) -> Example {
        Example {
            label: label.to_string(),
            kind,
            sfen: sfen.map(str::to_string),
            moves: Vec::new(),
            plies: None,
            exact: false,
            result: None,
        }
    }
}

/// The family of boards a game is drawn on: each family has its drawing code in the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum BoardFamily {
    /// Wedge-shaped pieces pointing at the opponent on a board of plain squares, with pieces in
    /// hand and promotion.
    Wedges,
    /// Cubes that show one face and turn to the next after each move, dropped from the hand.
    Cubes,
    /// Discs (men and kings) on a board of dark and light squares, captures along routes.
    Discs,
}

/// A kind of piece as the page shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct PieceInfo {
    /// Its letter in the SFEN as the side that moves first writes it (upper case), with `+`
    /// before a promoted piece's.
    pub letter: &'static str,
    /// Its name for people (English).
    pub name: &'static str,
    /// Its name in kanji (two characters for promoted pieces), where the game has one.
    pub kanji: &'static str,
    /// The letter of the piece it promotes to, or the face it turns to after a move (cubes).
    pub next: Option<&'static str>,
    /// The letter it is held in hand as once captured (`None`: never in hand).
    pub hand: Option<&'static str>,
    /// Whether it is the royal piece, the one that is checked and mated (the page marks its square
    /// when the side to move is in check).
    pub royal: bool,
}

/// How a game's move strings (USI) are written, which picks how the page takes a move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum MoveSyntax {
    /// A move names its square of departure then its square of arrival (`7g7f`), with `+` after
    /// a promotion (`7c7b+`); a drop names the piece dropped, `*` and the square (`P*5e`);
    /// `pass` passes. The page takes two clicks, or a piece in hand and a square, and asks when
    /// several moves join the same squares (promote or not, the face a cube is dropped as).
    FromTo,
    /// A move lists every square it stops on, `-` between a step's two, `:` between a capture's
    /// (`c4:c6:c8`). The page takes it stop by stop until one legal move is left.
    Route,
}

/// How the page draws a game and takes its moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct PageInfo {
    /// The board family, which picks the page's drawing code.
    pub board: BoardFamily,
    /// Files of the board.
    pub files: u8,
    /// Ranks of the board.
    pub ranks: u8,
    /// The side that moves first, drawn at the bottom (`"b"` Black, `"w"` White).
    pub first: &'static str,
    /// Whether the game has pieces in hand (drops).
    pub hands: bool,
    /// The kinds of piece, as the side that moves first writes them.
    pub pieces: &'static [PieceInfo],
    /// The SFEN of an empty board with Black to move, for the editor's "clear".
    pub empty: &'static str,
    /// The files' names, one character each, left to right as the board is drawn with the side
    /// that moves first at the bottom (the SFEN's order); a square's name is its file's then its
    /// rank's (`7g`, `c4`).
    pub file_names: &'static str,
    /// The ranks' names, one character each, top to bottom as the board is drawn with the side
    /// that moves first at the bottom (the SFEN's order).
    pub rank_names: &'static str,
    /// How a move string is written.
    pub moves: MoveSyntax,
    /// Squares the page draws with a mark because a rule names them (where no piece may be
    /// dropped).
    pub marked: &'static [&'static str],
    /// Whether the position string's third field is the square where the last move ended (`-`
    /// for none), which decides a capture obligation, rather than the pieces in hand.
    pub last_square: bool,
    /// How many pieces of each kind the game's set has, as the engine checks a position against
    /// it; the position editor bounds its counts by these.
    pub set: &'static [SetCount],
    /// How the page may write the game's moves for people besides their move strings.
    pub notation: Notation,
    /// Whether the players may agree a draw, which the page then offers to the engine (shogi,
    /// whose records write it, CSA `%HIKIWAKE`; Give and Take, as draughts): not in a game
    /// whose rules name no draw by agreement (docs/serve.md, "The page").
    pub agreed_draw: bool,
}

/// How many pieces of a kind a game's set has (docs/rules.md, "No more pieces than the set").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct SetCount {
    /// The letters counted together (as the side that moves first writes them, `+` before a
    /// promoted piece's): a kind and what it promotes or turns to. A piece in hand counts under
    /// the entry that holds its letter.
    pub letters: &'static [&'static str],
    /// How many the set has.
    pub count: u8,
    /// Whether the count is each player's (one king each) rather than both players' together,
    /// on the board and in hand.
    pub each: bool,
}

/// The notations in which the page may write a game's moves besides their move strings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Notation {
    /// Western notation (Hodges): the piece's letter, `-` for a move, `x` for a capture, `*` for
    /// a drop, then the square (`P-7f`, `Bx3c+`, `S*5e`); the square of departure only when
    /// another piece of the kind could go there too (`G6i-5h`); `+` after a promotion and `=`
    /// after a promotion declined.
    pub western: bool,
    /// Japanese notation (`☗7六歩`): the characters that name the files in it, one per file in
    /// the order of `file_names`; empty when the game has no Japanese notation.
    pub japanese_files: &'static str,
    /// The characters that name the ranks in Japanese notation (kanji numerals), one per rank in
    /// the order of `rank_names`.
    pub japanese_ranks: &'static str,
}

impl Notation {
    /// Only the game's move strings.
    pub const NONE: Notation = Notation {
        western: false,
        japanese_files: "",
        japanese_ranks: "",
    };
}

/// What the test and measurement tools use of a game: the fuzzer (`tools/fuzz`), and the
/// scripts of `tools/`, which read these through `tsubame games --json`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ToolInfo {
    /// Deepest `go perft` whose count the fuzzer checks (kept cheap).
    pub fuzz_perft_depth: u32,
    /// Longest random walk from the start when the fuzzer makes positions.
    pub random_walk_plies: usize,
    /// Positions worth fuzzing that a random walk rarely reaches (mates in one, mated kings).
    pub fuzz_positions: &'static [&'static str],
    /// Random plies that open a match's games unless told otherwise (`tools/gauntlet`'s
    /// default `--random-plies`).
    pub random_plies: usize,
    /// Plies after which `tools/marathon-games` stops a game (`tsubame-match --max-plies`; its
    /// `--quick` mode plays shorter games in every game).
    pub marathon_max_plies: usize,
    /// Plies after which a tab of `tools/serve-soak` ends a game and starts the next.
    pub soak_max_plies: usize,
    /// How a tuner sets the weights of the game's linear evaluation ([`Learning::Linear`])
    /// through an engine option (`tools/spsa-match --params weights`); `None` for a game whose
    /// evaluation is no linear sum.
    pub weights: Option<WeightsTuning>,
}

/// How a tuner sets the weights of a linear evaluation ([`Learning::Linear`]), named and valued
/// there, through one of the game's engine options ([`ParamOption`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WeightsTuning {
    /// The engine option that takes every weight at once, separated by commas.
    pub option: &'static str,
    /// The largest magnitude of a weight that the option accepts.
    pub limit: i32,
    /// How far an SPSA iteration moves each weight up and down (its perturbation), in the
    /// order of the weights.
    pub steps: &'static [i32],
}

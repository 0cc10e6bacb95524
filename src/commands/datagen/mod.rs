//! `tsubame datagen`: self-play games from random openings, searched to a fixed number of nodes
//! or a fixed depth, whose quiet positions are written with the search's score and the game's
//! result as training data for a learned evaluation.
//!
//! Each game is one checked frame of the file ([`format`]), written as soon as the game ends, so
//! a run killed at any moment loses only the games in progress; a run started again on the same
//! file with the same seed plays only the games the file lacks. A game's moves depend only on the
//! seed, its number and the search limits, never on the number of threads or on timing.

pub mod format;

use std::collections::HashSet;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Instant;

use super::selfplay::opening;
use crate::core::color::Color;
use crate::core::moves::GameMove;
use crate::core::pack::Packable;
use crate::core::repetition::HistoryEntry;
use crate::core::rules::{Outcome, RuleOptions};
use crate::engine::search_setup;
use crate::games::{Game, GameId, PackableVisitor};
use crate::progress::Progress;
use crate::rng::Rng;
use crate::search::tt::TranspositionTable;
use crate::search::value::MATE_BOUND;
use crate::search::{self, HistoryPool, Limits, SearchSetup, Shared};
use format::GameResult;

/// What a data-generation run plays.
#[derive(Clone, Debug)]
pub struct Config {
    /// Games of the run (numbered from 0); those already in the file are not played again.
    pub games: u64,
    /// Nodes per move (with `depth`, whichever comes first; at least one of them is set).
    pub nodes: Option<u64>,
    /// Depth per move.
    pub depth: Option<i32>,
    /// Games played at once, each by a one-thread search.
    pub threads: usize,
    /// Random legal plies that open each game (not recorded).
    pub random_plies: usize,
    /// Seed of the run: with a game's number it fixes the game's opening.
    pub seed: u64,
    /// A game still going after this many plies is a draw.
    pub max_plies: usize,
    /// Transposition table of each game in MiB.
    pub hash_mib: usize,
    /// The network the games are played with (`None`: the hand-written evaluation).
    pub network: Option<std::sync::Arc<crate::nnue::network::Network>>,
}

/// What a run did.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// Games played and written by this run.
    pub games_played: u64,
    /// Games of the run that the file already held.
    pub games_present: u64,
    /// Positions written by this run.
    pub positions: u64,
    /// Bytes of a damaged or truncated end of the file that were cut off before appending.
    pub tail_cut: usize,
    /// Why they were cut.
    pub tail_reason: Option<String>,
    /// Seconds the run took.
    pub seconds: f64,
}

/// Plays game number `game` of the run and returns its records' bytes. The thread's table and
/// history tables are emptied first, then kept from move to move, as the engine keeps them in a
/// game.
fn play_game<G: Game + Packable>(
    cfg: &Config,
    game: u64,
    (tt, histories): (&TranspositionTable, &HistoryPool),
    rules: &RuleOptions<G::Rules>,
) -> Vec<u8> {
    let mut rng = Rng::stream(cfg.seed, game);
    let (mut pos, mut history) = opening::<G>(cfg.random_plies, &mut rng, rules);
    tt.clear();
    histories.clear();
    let mut records = Vec::new();
    let mut sides: Vec<Color> = Vec::new();
    // The winner, or None for a draw.
    let winner: Option<Color> = loop {
        let side = pos.side_to_move();
        let decided = |o: Outcome| match o {
            Outcome::Win => Some(side),
            Outcome::Loss => Some(!side),
            Outcome::Draw => None,
        };
        if pos.can_declare(rules) {
            break Some(side);
        }
        if let Some(v) = pos.verdict(&history, rules) {
            break decided(v.outcome);
        }
        if history.len() > cfg.max_plies {
            break None;
        }
        let shared = Shared::default();
        let setup = SearchSetup {
            limits: Limits {
                depth: cfg.depth,
                nodes: cfg.nodes,
                multipv: 1,
                ..Limits::default()
            },
            nnue: cfg.network.as_deref(),
            histories: Some(histories),
            ..search_setup::<G>(&history, *rules, tt, &shared)
        };
        let result = search::run(&pos, &setup);
        let Some(mv) = result.best else {
            break Some(!side);
        };
        if result.score.abs() >= MATE_BOUND {
            break Some(if result.score > 0 { side } else { !side });
        }
        let quiet = !pos.in_check() && !pos.is_capture(mv) && !mv.is_promotion();
        if quiet {
            let score = result.score.clamp(i16::MIN as i32, i16::MAX as i32) as i16;
            let ply = (history.len() - 1).min(u16::MAX as usize) as u16;
            if format::push_record(&mut records, &pos, score, GameResult::Draw, ply, mv.code()) {
                sides.push(side);
            }
        }
        pos.play(mv);
        history.push(HistoryEntry {
            key: pos.key(),
            in_check: pos.in_check(),
        });
    };
    let len = format::record_len::<G>();
    for (i, side) in sides.into_iter().enumerate() {
        records[i * len + 2] = match winner {
            None => GameResult::Draw,
            Some(w) if w == side => GameResult::Win,
            Some(_) => GameResult::Loss,
        } as u8;
    }
    records
}

/// Opens `path` for appending the run's games: a new file gets its header; an existing one is
/// checked, its damaged end (if any) cut off, and the numbers of the run's games it holds returned.
fn open<G: Packable>(
    path: &Path,
    seed: u64,
    summary: &mut Summary,
) -> Result<(File, HashSet<u64>), String> {
    let shown = path.display();
    let existing = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
    let mut present = HashSet::new();
    if existing > 0 {
        let bytes = std::fs::read(path).map_err(|e| format!("{shown}: {e}"))?;
        let scan = format::scan::<G>(&bytes).map_err(|e| format!("{shown}: {e}"))?;
        present.extend(
            scan.frames
                .iter()
                .filter(|f| f.seed == seed)
                .map(|f| f.game),
        );
        let file = OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(|e| format!("{shown}: {e}"))?;
        if scan.skipped > 0 {
            file.set_len(scan.valid_len as u64)
                .map_err(|e| format!("{shown}: cutting the damaged end: {e}"))?;
            summary.tail_cut = scan.skipped;
            summary.tail_reason = scan.skip_reason;
        }
        Ok((file, present))
    } else {
        let mut file = File::create(path).map_err(|e| format!("{shown}: {e}"))?;
        if let Err(e) = file.write_all(&format::header::<G>()) {
            // A header cut short would make the file unreadable: a new regular file goes again
            // (never a device or anything else the path names).
            if file.metadata().is_ok_and(|m| m.is_file()) {
                let _ = std::fs::remove_file(path);
            }
            return Err(format!("{shown}: {e}"));
        }
        Ok((file, present))
    }
}

/// Runs data generation into `path`; `progress` shows its progress on standard error (a bar on a
/// terminal, else a line a minute: [`Progress`]).
pub fn run<G: Game + Packable>(
    cfg: &Config,
    path: &Path,
    progress: bool,
) -> Result<Summary, String> {
    if cfg.nodes.is_none() && cfg.depth.is_none() {
        return Err("give --nodes or --depth".into());
    }
    let start = Instant::now();
    let mut summary = Summary::default();
    let (mut file, present) = open::<G>(path, cfg.seed, &mut summary)?;
    let todo: Vec<u64> = (0..cfg.games).filter(|g| !present.contains(g)).collect();
    summary.games_present = cfg.games - todo.len() as u64;
    let bar = Progress::new(progress, "datagen", todo.len() as u64, "games");
    let rules = RuleOptions::default();
    let next = AtomicUsize::new(0);
    let abort = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<(u64, Vec<u8>)>();
    let written = std::thread::scope(|scope| -> Result<(), String> {
        for _ in 0..cfg.threads.max(1).min(todo.len().max(1)) {
            let tx = tx.clone();
            let (todo, next, abort, rules) = (&todo, &next, &abort, &rules);
            std::thread::Builder::new()
                .name("datagen".into())
                .stack_size(64 << 20)
                .spawn_scoped(scope, move || {
                    let tt = TranspositionTable::new(cfg.hash_mib);
                    let histories = HistoryPool::default();
                    while !abort.load(Ordering::Relaxed) {
                        let Some(&game) = todo.get(next.fetch_add(1, Ordering::Relaxed)) else {
                            break;
                        };
                        let records = play_game::<G>(cfg, game, (&tt, &histories), rules);
                        if tx.send((game, records)).is_err() {
                            break;
                        }
                    }
                })
                .map_err(|e| format!("starting a datagen thread: {e}"))?;
        }
        drop(tx);
        let len = format::record_len::<G>();
        // The bytes of whole frames: a frame that cannot be written whole (a full disk) is cut
        // off again, so the file stays valid and the same command goes on from it.
        let mut whole = file
            .metadata()
            .map_err(|e| format!("{}: {e}", path.display()))?
            .len();
        for (game, records) in rx {
            let frame = format::frame(cfg.seed, game, &records, len);
            if let Err(e) = file.write_all(&frame).and_then(|()| file.flush()) {
                abort.store(true, Ordering::Relaxed);
                let _ = file.set_len(whole);
                return Err(format!(
                    "{}: {e}; the file keeps its whole games ({} of this run), and the same \
                     command goes on from them once there is room",
                    path.display(),
                    summary.games_present + summary.games_played
                ));
            }
            whole += frame.len() as u64;
            summary.games_played += 1;
            summary.positions += (records.len() / len) as u64;
            let secs = start.elapsed().as_secs_f64().max(1e-3);
            bar.set_message(format!(
                "{} positions, {:.0} positions/s",
                summary.positions,
                summary.positions as f64 / secs
            ));
            bar.inc(1);
        }
        Ok(())
    });
    bar.finish();
    written?;
    summary.seconds = start.elapsed().as_secs_f64();
    Ok(summary)
}

/// [`run`] for the game `game`; an error for a game that stores no training data.
pub fn run_game(
    game: GameId,
    cfg: &Config,
    path: &Path,
    progress: bool,
) -> Result<Summary, String> {
    struct Run<'a>(&'a Config, &'a Path, bool);
    impl PackableVisitor for Run<'_> {
        type Output = Result<Summary, String>;
        fn visit<G: Game + Packable>(self) -> Self::Output {
            run::<G>(self.0, self.1, self.2)
        }
    }
    crate::dispatch!(game, G => G::with_packable(Run(cfg, path, progress)))
        .unwrap_or_else(|| Err(no_data(game)))
}

/// [`describe`] for the game `game`; an error for a game that stores no training data.
pub fn describe_game(game: GameId, path: &Path, show: usize) -> Result<Vec<String>, String> {
    struct Describe<'a>(&'a Path, usize);
    impl PackableVisitor for Describe<'_> {
        type Output = Result<Vec<String>, String>;
        fn visit<G: Game + Packable>(self) -> Self::Output {
            describe::<G>(self.0, self.1)
        }
    }
    crate::dispatch!(game, G => G::with_packable(Describe(path, show)))
        .unwrap_or_else(|| Err(no_data(game)))
}

/// Why `game` has no training data, naming the games that have.
fn no_data(game: GameId) -> String {
    let have: Vec<&str> = GameId::ALL
        .into_iter()
        .filter(|g| g.has_training_data())
        .map(GameId::name)
        .collect();
    format!("no training data for '{game}' (only {})", have.join(", "))
}

/// A description of the data file at `path` for people: its games and positions, the results,
/// the damaged end it skips (if any), and the first `show` records.
pub fn describe<G: Game + Packable>(path: &Path, show: usize) -> Result<Vec<String>, String> {
    let shown = path.display();
    let bytes = std::fs::read(path).map_err(|e| format!("{shown}: {e}"))?;
    let (records, scan) = format::read_all::<G>(&bytes).map_err(|e| format!("{shown}: {e}"))?;
    let mut lines = Vec::new();
    let count = |r: GameResult| records.iter().filter(|x| x.result == r).count();
    let mut seeds: Vec<u64> = scan.frames.iter().map(|f| f.seed).collect();
    seeds.sort_unstable();
    seeds.dedup();
    lines.push(format!(
        "{shown}: {} games (seeds {seeds:?}), {} positions; side to move won {}, drew {}, lost {}",
        scan.frames.len(),
        records.len(),
        count(GameResult::Win),
        count(GameResult::Draw),
        count(GameResult::Loss),
    ));
    if scan.skipped > 0 {
        lines.push(format!(
            "skipped the last {} bytes: {}",
            scan.skipped,
            scan.skip_reason.as_deref().unwrap_or("damaged")
        ));
    }
    for r in records.iter().take(show) {
        lines.push(format!(
            "{}\t{}\t{:?}\t{}",
            r.pos.to_sfen(),
            r.score,
            r.result,
            r.pos.move_to_usi(r.pos.move_from_code(r.mv))
        ));
    }
    Ok(lines)
}
/// The network `tsubame datagen` plays with: `eval` is `hce`, `nnue` or unset (a network where
/// the game has one); `file` replaces the embedded network.
pub fn network(
    game: GameId,
    eval: Option<&str>,
    file: Option<&std::path::Path>,
) -> Result<Option<std::sync::Arc<crate::nnue::network::Network>>, String> {
    if eval == Some("hce") {
        return match file {
            Some(_) => Err("--eval-file goes with --eval nnue, not --eval hce".into()),
            None => Ok(None),
        };
    }
    let network = match file {
        Some(path) => {
            let mut nets = crate::games::networks::Networks::default();
            let path = path.to_string_lossy();
            let (loaded, _) = nets.load_file(&path)?;
            if loaded != game {
                return Err(format!("{path} is a {loaded} network, not a {game} one"));
            }
            nets.get(game)
        }
        None => game.embedded_network(),
    };
    if network.is_none() && eval == Some("nnue") {
        return Err(format!(
            "no network for {game}: give one with --eval-file, or use --eval hce"
        ));
    }
    Ok(network)
}

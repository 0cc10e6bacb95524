//! The match: schedules games over worker threads, keeps the engines running, collects results,
//! writes the records and reports progress and statistics.

use std::collections::{BTreeMap, HashMap};
use std::fs::{self, File};
use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Sender, channel};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use tsubame::core::color::Color;
use tsubame::rng::Rng;

use crate::engine::{Engine, EngineConfig, ProtocolLog};
use crate::games::first_mover;
use crate::openings::{self, Opening};
use crate::referee::{self, CsaHeader, GameResult, GameSettings, Played, Reason};
use crate::stats::{Pentanomial, Sprt, SprtState, Trinomial, fmt_elo, fmt_margin};
use tsubame::games::Game;
use tsubame::games::{EveryGameRules, GameId};

/// Where the openings come from.
#[derive(Clone, Debug)]
pub enum OpeningSource {
    /// Openings read from a file, used in order (or shuffled), cycling when exhausted.
    File {
        /// The file.
        path: PathBuf,
        /// Shuffle the order (with the match seed).
        shuffle: bool,
    },
    /// Random legal moves from the start.
    Random {
        /// Plies per opening.
        plies: usize,
        /// Largest material difference accepted, in pawns.
        max_imbalance: i32,
    },
}

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The game.
    pub game: GameId,
    /// Two or more engines; with more, every pair plays each opening.
    pub engines: Vec<EngineConfig>,
    /// Clock, rules and adjudication for each game.
    pub settings: GameSettings,
    /// Openings.
    pub openings: OpeningSource,
    /// Games to play (even; each opening is played with colours swapped).
    pub games: u64,
    /// Games played at once.
    pub concurrency: usize,
    /// The sequential test, when the match should stop on it.
    pub sprt: Option<Sprt>,
    /// The test reported at the end (also without stopping on it).
    pub sprt_report: Sprt,
    /// Seed for random openings and shuffling.
    pub seed: u64,
    /// Directory for results, CSA files and the summary.
    pub out_dir: PathBuf,
    /// Protocol log file.
    pub log: Option<PathBuf>,
    /// No line per game.
    pub quiet: bool,
}

/// One game of the schedule.
#[derive(Clone, Copy, Debug)]
struct Slot {
    number: u64,
    opening: u64,
    black: usize,
    white: usize,
}

/// The game order: game `g` belongs to pair `g / 2` (colours swapped in its second game); pairs
/// cycle through the engine pairings for each opening.
fn slot(number: u64, pairings: &[(usize, usize)]) -> Slot {
    let pair = number / 2;
    let np = pairings.len() as u64;
    let (a, b) = pairings[(pair % np) as usize];
    let opening = pair / np;
    let (black, white) = if number.is_multiple_of(2) {
        (a, b)
    } else {
        (b, a)
    };
    Slot {
        number,
        opening,
        black,
        white,
    }
}

/// Hands out game numbers to the workers.
struct Scheduler {
    next: Mutex<u64>,
    total: u64,
    /// No new pair is started (SPRT decided); games of pairs already begun still run.
    soft_stop: AtomicBool,
    /// No new game is started (the records cannot be written); games in progress still run.
    halt: AtomicBool,
    /// Everything stops now (Ctrl-C).
    hard_stop: Arc<AtomicBool>,
}

impl Scheduler {
    fn take(&self) -> Option<u64> {
        if self.hard_stop.load(Ordering::Relaxed) {
            return None;
        }
        let mut n = self.next.lock().expect("scheduler lock");
        if *n >= self.total
            || self.halt.load(Ordering::Relaxed)
            || (self.soft_stop.load(Ordering::Relaxed) && (*n).is_multiple_of(2))
        {
            return None;
        }
        let g = *n;
        *n += 1;
        Some(g)
    }
}

/// A game with everything to record it.
struct Record {
    slot: Slot,
    played: Played,
}

/// Options sent to every engine: the game (to an engine that announces it when the game is the
/// default one, which every shogi engine plays), `MaxMovesToDraw`, and the rule options of the
/// game played (their values as given, else their defaults), the latter only to engines that
/// announce them.
fn game_options(cfg: &MatchConfig) -> Vec<(String, String, bool)> {
    let s = &cfg.settings;
    let mut v = vec![
        (
            "USI_Variant".to_string(),
            cfg.game.name().to_string(),
            cfg.game == GameId::DEFAULT,
        ),
        (
            "MaxMovesToDraw".into(),
            s.rules.max_moves_to_draw.to_string(),
            true,
        ),
    ];
    for option in EveryGameRules::options(&[cfg.game]) {
        let value = s
            .rule_values
            .iter()
            .find(|(n, _)| n == option.name)
            .map_or(option.default.to_string(), |(_, v)| v.clone());
        v.push((option.name.to_string(), value, true));
    }
    v
}

fn start_engine(
    cfg: &MatchConfig,
    id: usize,
    worker: usize,
    log: &Option<Arc<ProtocolLog>>,
    stop: &AtomicBool,
) -> Result<Engine, String> {
    let opts = game_options(cfg);
    Engine::start(
        &cfg.engines[id],
        format!("e{}.w{}", id + 1, worker + 1),
        &opts,
        cfg.settings.ready_timeout,
        log.clone(),
        stop,
    )
}

/// The UTC date and time of a moment as `YYYY/MM/DD HH:MM:SS`.
pub fn utc_text(t: SystemTime) -> String {
    let secs = t.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs()) as i64;
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    // Civil date from days since 1970-01-01 (proleptic Gregorian).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + if m <= 2 { 1 } else { 0 };
    format!(
        "{y:04}/{m:02}/{d:02} {:02}:{:02}:{:02}",
        rem / 3600,
        rem / 60 % 60,
        rem % 60
    )
}

#[allow(clippy::too_many_arguments)]
fn worker<P: Game>(
    index: usize,
    cfg: Arc<MatchConfig>,
    names: Arc<Vec<String>>,
    openings: Arc<Vec<Opening>>,
    pairings: Arc<Vec<(usize, usize)>>,
    sched: Arc<Scheduler>,
    log: Option<Arc<ProtocolLog>>,
    tx: Sender<Record>,
) {
    let stop = sched.hard_stop.clone();
    let mut engines: Vec<Option<Engine>> = (0..cfg.engines.len()).map(|_| None).collect();
    while let Some(number) = sched.take() {
        let slot = slot(number, &pairings);
        let opening = match &cfg.openings {
            OpeningSource::File { .. } => {
                openings[(slot.opening % openings.len() as u64) as usize].clone()
            }
            OpeningSource::Random {
                plies,
                max_imbalance,
            } => openings::random::<P>(
                *plies,
                cfg.seed,
                slot.opening,
                *max_imbalance,
                &cfg.settings.rules.of::<P>(),
            ),
        };
        // Make sure both engines are running; one that cannot start loses the game.
        let mut failed: Vec<(Color, String)> = Vec::new();
        for (c, id) in [(Color::Black, slot.black), (Color::White, slot.white)] {
            let alive = engines[id].as_mut().is_some_and(|e| e.is_alive());
            if !alive {
                if let Some(mut old) = engines[id].take() {
                    old.kill();
                }
                match start_engine(&cfg, id, index, &log, &stop) {
                    Ok(e) => engines[id] = Some(e),
                    Err(e) => failed.push((c, e)),
                }
            }
        }
        let played = if !failed.is_empty() {
            let interrupted = stop.load(Ordering::Relaxed);
            let (result, reason) = if interrupted {
                (GameResult::Unfinished, Reason::Interrupted)
            } else if failed.len() == 2 {
                (GameResult::Unfinished, Reason::Crash)
            } else {
                (GameResult::Win(!failed[0].0), Reason::Crash)
            };
            Played {
                result,
                reason,
                detail: failed
                    .iter()
                    .map(|(_, e)| format!("could not (re)start: {e}"))
                    .collect::<Vec<_>>()
                    .join("; "),
                position: format!("position {}", opening.position_args(&[])),
                plies: 0,
                csa: None,
            }
        } else {
            let header = CsaHeader {
                names: [&names[slot.black], &names[slot.white]],
                event: format!("tsubame-match game {}", slot.number + 1),
                start_time: utc_text(SystemTime::now()),
                tc: [
                    cfg.settings.tc.with(&cfg.engines[slot.black].clock),
                    cfg.settings.tc.with(&cfg.engines[slot.white].clock),
                ],
            };
            // Two distinct slots of the vector, borrowed mutably at once.
            let (lo, hi) = (slot.black.min(slot.white), slot.black.max(slot.white));
            let (left, right) = engines.split_at_mut(hi);
            let e_lo = left[lo].as_mut().expect("started");
            let e_hi = right[0].as_mut().expect("started");
            let pair = if slot.black < slot.white {
                [e_lo, e_hi]
            } else {
                [e_hi, e_lo]
            };
            referee::play_game::<P>(&opening, pair, &cfg.settings, &stop, &header)
        };
        let interrupted = played.result == GameResult::Unfinished;
        if (tx.send(Record { slot, played }).is_err() || interrupted)
            && stop.load(Ordering::Relaxed)
        {
            break;
        }
        // Replace broken engines before their next game (they are restarted lazily).
        for e in engines.iter_mut() {
            if e.as_mut().is_some_and(|x| !x.is_alive())
                && let Some(mut x) = e.take()
            {
                x.kill();
            }
        }
    }
    for e in engines.iter_mut().flatten() {
        if stop.load(Ordering::Relaxed) {
            e.kill();
        } else {
            e.shutdown(Duration::from_millis(500));
        }
    }
}

/// Results of one pairing of engines, from the first engine's point of view.
#[derive(Default, Clone)]
struct PairingStats {
    games: Trinomial,
    pairs: Pentanomial,
    /// First results of pairs still waiting for their second game.
    pending: HashMap<u64, f64>,
}

/// Everything known at the end of a match.
pub struct Summary {
    /// The report printed at the end.
    pub text: String,
    /// True when the match was interrupted.
    pub interrupted: bool,
    /// The first record that could not be written (a full disk…): the match stopped early.
    pub write_error: Option<String>,
}

/// Runs a match of game `P` to the end, an SPRT decision, or `hard_stop`.
pub fn run<P: Game>(cfg: MatchConfig, hard_stop: Arc<AtomicBool>) -> Result<Summary, String> {
    let cfg = Arc::new(cfg);
    fs::create_dir_all(&cfg.out_dir)
        .map_err(|e| format!("cannot create {}: {e}", cfg.out_dir.display()))?;
    let log = match &cfg.log {
        Some(p) => Some(Arc::new(ProtocolLog::new(
            File::create(p).map_err(|e| format!("cannot create {}: {e}", p.display()))?,
        ))),
        None => None,
    };
    let openings = match &cfg.openings {
        OpeningSource::File { path, shuffle } => {
            let text = fs::read_to_string(path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            let mut list = openings::read_file::<P>(&text, &cfg.settings.rules.of::<P>())
                .map_err(|e| format!("{}: {e}", path.display()))?;
            if *shuffle {
                Rng::new(cfg.seed).shuffle(&mut list);
            }
            list
        }
        OpeningSource::Random { .. } => Vec::new(),
    };

    // Check every engine once before the match: a wrong command fails here, not in every game.
    let mut names = Vec::new();
    for (i, e) in cfg.engines.iter().enumerate() {
        let mut engine = match start_engine(&cfg, i, 0, &log, &hard_stop) {
            Ok(engine) => engine,
            Err(_) if hard_stop.load(Ordering::Relaxed) => {
                return Ok(Summary {
                    text: "interrupted before the first game\n".into(),
                    interrupted: true,
                    write_error: None,
                });
            }
            Err(err) => return Err(format!("engine {} ({}): {err}", i + 1, e.name)),
        };
        engine.shutdown(Duration::from_millis(500));
        names.push(e.name.clone());
    }
    // Equal names (self-play) get a number.
    let counts: BTreeMap<&String, usize> = names.iter().fold(BTreeMap::new(), |mut m, n| {
        *m.entry(n).or_default() += 1;
        m
    });
    let names: Vec<String> = names
        .iter()
        .enumerate()
        .map(|(i, n)| {
            if counts[n] > 1 {
                format!("{n}-{}", i + 1)
            } else {
                n.clone()
            }
        })
        .collect();

    let mut pairings = Vec::new();
    for a in 0..cfg.engines.len() {
        for b in a + 1..cfg.engines.len() {
            pairings.push((a, b));
        }
    }
    let sched = Arc::new(Scheduler {
        next: Mutex::new(0),
        total: cfg.games,
        soft_stop: AtomicBool::new(false),
        halt: AtomicBool::new(false),
        hard_stop: hard_stop.clone(),
    });

    let results_path = cfg.out_dir.join("results.tsv");
    let mut results = Records::create(&results_path)?;
    results
        .append("game\topening\tblack\twhite\tresult\treason\tplies\tdetail\tposition\n")
        .map_err(|e| format!("cannot write {}: {e}", results_path.display()))?;
    // The first record that could not be written; no game is started after it.
    let mut write_error: Option<String> = None;
    let mut recorded = 0u64;
    let csa_dir = cfg.out_dir.join("csa");
    let records_csa = P::startpos().csa_position().is_some();
    if records_csa {
        fs::create_dir_all(&csa_dir)
            .map_err(|e| format!("cannot create {}: {e}", csa_dir.display()))?;
    }

    let names = Arc::new(names);
    let openings = Arc::new(openings);
    let pairings = Arc::new(pairings);
    let (tx, rx) = channel();
    let workers = cfg.concurrency.max(1).min(cfg.games.max(1) as usize);
    let mut handles = Vec::new();
    for w in 0..workers {
        let (cfg, names, openings, pairings, sched, log, tx) = (
            cfg.clone(),
            names.clone(),
            openings.clone(),
            pairings.clone(),
            sched.clone(),
            log.clone(),
            tx.clone(),
        );
        handles.push(
            thread::Builder::new()
                .name(format!("worker-{w}"))
                .spawn(move || worker::<P>(w, cfg, names, openings, pairings, sched, log, tx))
                .map_err(|e| format!("cannot start a worker: {e}"))?,
        );
    }
    drop(tx);

    let bar = if cfg.games < u64::MAX / 4 {
        ProgressBar::new(cfg.games)
    } else {
        ProgressBar::new_spinner()
    };
    bar.set_draw_target(ProgressDrawTarget::stderr_with_hz(4));
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} {msg}")
            .map(|s| s.progress_chars("=> "))
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    if cfg.games >= u64::MAX / 4 {
        bar.set_style(
            ProgressStyle::with_template("{elapsed_precise} {spinner} {pos} games {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        );
    }
    bar.enable_steady_tick(Duration::from_millis(250));

    let mut stats: Vec<PairingStats> = vec![PairingStats::default(); pairings.len()];
    let mut reasons: BTreeMap<(String, Reason), u64> = BTreeMap::new();
    let mut unfinished = 0u64;
    let mut finished = 0u64;
    // The SPRT's decision, with the games and the LLR when it was taken.
    let mut decided: Option<(SprtState, u64, f64)> = None;
    let print = |line: String| {
        if bar.is_hidden() {
            println!("{line}");
        } else {
            bar.println(line);
        }
    };
    for rec in rx.iter() {
        let Record { slot, played } = rec;
        let (bn, wn) = (&names[slot.black], &names[slot.white]);
        let row = format!(
            "{}\t{}\t{bn}\t{wn}\t{}\t{}\t{}\t{}\t{}\n",
            slot.number + 1,
            slot.opening + 1,
            played.result.text(first_mover(cfg.game)),
            played.reason.text(),
            played.plies,
            played.detail.replace(['\t', '\n'], " "),
            played.position
        );
        let csa_path = csa_dir.join(format!("game-{:05}.csa", slot.number + 1));
        let written = results
            .append(&row)
            .map_err(|e| format!("cannot write {}: {e}", results_path.display()))
            .and_then(|_| match &played.csa {
                Some(csa) => write_whole(&csa_path, csa),
                None => Ok(()),
            });
        match written {
            Ok(()) => recorded += 1,
            Err(e) if write_error.is_none() => {
                sched.halt.store(true, Ordering::Relaxed);
                print(format!(
                    "error: {e}; {recorded} games are recorded, and no new game starts"
                ));
                write_error = Some(e);
            }
            Err(_) => {}
        }
        let who = match played.result {
            GameResult::Win(Color::Black) => format!("{bn} (Black) wins"),
            GameResult::Win(Color::White) => format!("{wn} (White) wins"),
            GameResult::Draw => "draw".into(),
            GameResult::Unfinished => "unfinished".into(),
        };
        if !cfg.quiet {
            print(format!(
                "game {} ({bn} vs {wn}, opening {}): {} {} by {}{}",
                slot.number + 1,
                slot.opening + 1,
                played.result.text(first_mover(cfg.game)),
                who,
                played.reason.text(),
                if played.detail.is_empty() {
                    String::new()
                } else {
                    format!(" [{}]", played.detail)
                }
            ));
        }
        let outcome_word = match played.result {
            GameResult::Win(Color::Black) => "Black wins",
            GameResult::Win(Color::White) => "White wins",
            GameResult::Draw => "draw",
            GameResult::Unfinished => "unfinished",
        };
        *reasons
            .entry((outcome_word.to_string(), played.reason))
            .or_default() += 1;
        match played.result {
            GameResult::Unfinished => unfinished += 1,
            r => {
                finished += 1;
                let k = pairings
                    .iter()
                    .position(|&(a, b)| {
                        (a, b) == (slot.black, slot.white) || (b, a) == (slot.black, slot.white)
                    })
                    .expect("a pairing of the schedule");
                let first = pairings[k].0;
                let color = if slot.black == first {
                    Color::Black
                } else {
                    Color::White
                };
                let pts = r.points(color).expect("finished");
                let st = &mut stats[k];
                st.games.add(pts);
                let pair = slot.number / 2;
                if let Some(other) = st.pending.remove(&pair) {
                    st.pairs.add_pair(other, pts);
                } else {
                    st.pending.insert(pair, pts);
                }
            }
        }
        bar.inc(1);
        bar.set_message(progress_text(
            &stats[0],
            &names,
            pairings[0],
            &cfg,
            unfinished,
        ));
        if let (Some(sprt), 1) = (cfg.sprt, pairings.len()) {
            let llr = sprt.llr(&stats[0].pairs);
            let state = sprt.state(llr, stats[0].pairs.pairs());
            if state != SprtState::Continue && decided.is_none() {
                decided = Some((state, stats[0].games.games(), llr));
                sched.soft_stop.store(true, Ordering::Relaxed);
                print(format!(
                    "SPRT: {}; finishing the games in progress",
                    state.text()
                ));
            }
        }
    }
    for h in handles {
        let _ = h.join();
    }
    bar.finish_and_clear();

    let interrupted = hard_stop.load(Ordering::Relaxed);
    let mut text = String::new();
    let w = |t: &mut String, s: String| {
        t.push_str(&s);
        t.push('\n');
    };
    w(
        &mut text,
        format!(
            "{} match, {}, {} games finished, {} unfinished{}",
            cfg.game.name(),
            cfg.settings.tc.describe(),
            finished,
            unfinished,
            if interrupted { " (interrupted)" } else { "" }
        ),
    );
    // Time odds: each engine's own clock.
    if cfg.engines.iter().any(|e| !e.clock.is_none()) {
        for (e, name) in cfg.engines.iter().zip(names.iter()) {
            w(
                &mut text,
                format!(
                    "  clock of {name}: {}",
                    cfg.settings.tc.with(&e.clock).describe()
                ),
            );
        }
    }
    for (k, &(a, b)) in pairings.iter().enumerate() {
        summarize_pairing(
            &mut text,
            &stats[k],
            &names[a],
            &names[b],
            &cfg,
            pairings.len() == 1,
            decided,
        );
    }
    w(&mut text, "Results by reason:".into());
    for ((word, reason), n) in &reasons {
        w(&mut text, format!("  {word} by {}: {n}", reason.text()));
    }
    w(
        &mut text,
        format!(
            "Records: {}{}",
            cfg.out_dir.join("results.tsv").display(),
            if records_csa {
                format!(", CSA files in {}", csa_dir.display())
            } else {
                String::new()
            }
        ),
    );
    if let Some(e) = &write_error {
        w(
            &mut text,
            format!(
                "Stopped early: {e}. {recorded} games are in the records; each record is whole."
            ),
        );
    }
    let command: Vec<String> = std::env::args().collect();
    let summary_path = cfg.out_dir.join("summary.txt");
    if let Err(e) = write_whole(
        &summary_path,
        &format!("Command: {}\nSeed: {}\n{text}", command.join(" "), cfg.seed),
    ) {
        write_error.get_or_insert(e);
    }
    Ok(Summary {
        text,
        interrupted,
        write_error,
    })
}

fn progress_text(
    st: &PairingStats,
    names: &[String],
    (a, b): (usize, usize),
    cfg: &MatchConfig,
    unfinished: u64,
) -> String {
    let g = &st.games;
    let mut s = format!(
        "{} vs {}: +{} ={} -{}",
        names[a], names[b], g.wins, g.draws, g.losses
    );
    if let Some(e) = g.elo() {
        s.push_str(&format!(
            ", Elo {} ±{}",
            fmt_elo(e.elo),
            fmt_margin(e.margin())
        ));
    }
    if cfg.sprt.is_some() {
        let sprt = cfg.sprt_report;
        s.push_str(&format!(", LLR {:.2}", sprt.llr(&st.pairs)));
    }
    if unfinished > 0 {
        s.push_str(&format!(", {unfinished} unfinished"));
    }
    s
}

fn summarize_pairing(
    text: &mut String,
    st: &PairingStats,
    a: &str,
    b: &str,
    cfg: &MatchConfig,
    with_sprt: bool,
    decided: Option<(SprtState, u64, f64)>,
) {
    let g = &st.games;
    let n = g.games();
    let score = g.score().unwrap_or(0.5);
    text.push_str(&format!(
        "Score of {a} vs {b}: {} - {} - {} (W-L-D) [{score:.3}] {n} games\n",
        g.wins, g.losses, g.draws
    ));
    if let Some(e) = g.elo() {
        text.push_str(&format!(
            "Elo difference: {} ±{} (95%: [{}, {}]), LOS: {:.1} %, draw ratio: {:.1} %\n",
            fmt_elo(e.elo),
            fmt_margin(e.margin()),
            fmt_elo(e.lower),
            fmt_elo(e.upper),
            g.los().map_or(50.0, |l| l * 100.0),
            g.draw_ratio().unwrap_or(0.0) * 100.0
        ));
    }
    let p = &st.pairs;
    text.push_str(&format!(
        "Pentanomial (0, 1/2, 1, 3/2, 2 points per pair): {:?}, {} pairs",
        p.0,
        p.pairs()
    ));
    if let Some(e) = p.elo() {
        text.push_str(&format!(
            ", Elo {} (95%: [{}, {}])",
            fmt_elo(e.elo),
            fmt_elo(e.lower),
            fmt_elo(e.upper)
        ));
    }
    text.push('\n');
    if with_sprt {
        let sprt = cfg.sprt.unwrap_or(cfg.sprt_report);
        let llr = sprt.llr(p);
        let (lo, hi) = sprt.bounds();
        text.push_str(&format!(
            "SPRT: elo0 {}, elo1 {}, alpha {}, beta {}: LLR {llr:.3} [{lo:.3}, {hi:.3}], {}{}\n",
            sprt.elo0,
            sprt.elo1,
            sprt.alpha,
            sprt.beta,
            match decided {
                // The games in progress when the test stopped may move the LLR back inside
                // the bounds; the decision stands.
                Some((state, games, at)) => format!(
                    "{} after {games} games (LLR {at:.3}), the games in progress then finished",
                    state.text()
                ),
                None => sprt.state(llr, p.pairs()).text().to_string(),
            },
            if cfg.sprt.is_none() {
                " (not used to stop)"
            } else {
                ""
            }
        ));
    }
}

/// `results.tsv`, written one whole row at a time: a row that cannot be written whole (a full
/// disk) is cut off again, so the file never ends in half a row.
struct Records {
    file: File,
    /// Bytes written whole so far.
    len: u64,
}

impl Records {
    fn create(path: &Path) -> Result<Records, String> {
        let file =
            File::create(path).map_err(|e| format!("cannot create {}: {e}", path.display()))?;
        Ok(Records { file, len: 0 })
    }

    fn append(&mut self, row: &str) -> std::io::Result<()> {
        match self
            .file
            .write_all(row.as_bytes())
            .and_then(|_| self.file.flush())
        {
            Ok(()) => {
                self.len += row.len() as u64;
                Ok(())
            }
            Err(e) => {
                let _ = self.file.set_len(self.len);
                let _ = self.file.seek(SeekFrom::Start(self.len));
                Err(e)
            }
        }
    }
}

/// Writes a whole file, or removes what was written of it and says why it could not.
fn write_whole(path: &Path, text: &str) -> Result<(), String> {
    fs::write(path, text).map_err(|e| {
        if fs::symlink_metadata(path).is_ok_and(|m| m.is_file()) {
            let _ = fs::remove_file(path);
        }
        format!("cannot write {}: {e}", path.display())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schedule_pairs_openings_and_colours() {
        let two = [(0, 1)];
        let s: Vec<_> = (0..4).map(|g| slot(g, &two)).collect();
        assert_eq!((s[0].black, s[0].white, s[0].opening), (0, 1, 0));
        assert_eq!((s[1].black, s[1].white, s[1].opening), (1, 0, 0));
        assert_eq!((s[2].black, s[2].white, s[2].opening), (0, 1, 1));
        let three = [(0, 1), (0, 2), (1, 2)];
        let s: Vec<_> = (0..8).map(|g| slot(g, &three)).collect();
        assert_eq!((s[2].black, s[2].white, s[2].opening), (0, 2, 0));
        assert_eq!((s[5].black, s[5].white, s[5].opening), (2, 1, 0));
        assert_eq!((s[6].black, s[6].white, s[6].opening), (0, 1, 1));
    }

    #[test]
    fn utc_dates() {
        assert_eq!(utc_text(UNIX_EPOCH), "1970/01/01 00:00:00");
        let t = UNIX_EPOCH + Duration::from_secs(1_700_000_000);
        assert_eq!(utc_text(t), "2023/11/14 22:13:20");
        let t = UNIX_EPOCH + Duration::from_secs(951_782_400); // 2000-02-29
        assert_eq!(utc_text(t), "2000/02/29 00:00:00");
    }
}

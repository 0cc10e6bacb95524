//! The referee: plays one game between two engines, checks every move with tsubame's rules, keeps
//! the clocks and decides how the game ended.

use std::fmt::Write as _;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use tsubame::core::color::Color;
use tsubame::core::game::Position;
use tsubame::core::repetition::HistoryEntry;
use tsubame::core::rules::{EndReason, Outcome, Verdict};
use tsubame::games::EveryGameRules;

use crate::engine::{ClockOdds, Engine, WaitError};
use crate::openings::Opening;
use tsubame::games::Game;

/// The time control of a match.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TimeControl {
    /// Main time per player, ms.
    pub base_ms: u64,
    /// Byoyomi per move once the main time is used up, ms.
    pub byoyomi_ms: u64,
    /// Fischer increment per move, ms.
    pub inc_ms: u64,
    /// Fixed time per move, ms (replaces the clock).
    pub movetime_ms: Option<u64>,
    /// Fixed nodes per move (replaces the clock).
    pub nodes: Option<u64>,
}

impl TimeControl {
    /// The clock of an engine with its own `odds`: each part it gives replaces the match's
    /// (its node limit only that of a match at fixed nodes: `main` refuses it otherwise).
    pub fn with(&self, odds: &ClockOdds) -> TimeControl {
        TimeControl {
            base_ms: odds.time_ms.unwrap_or(self.base_ms),
            byoyomi_ms: odds.byoyomi_ms.unwrap_or(self.byoyomi_ms),
            inc_ms: odds.inc_ms.unwrap_or(self.inc_ms),
            nodes: odds.nodes.or(self.nodes),
            ..*self
        }
    }

    /// A short description (`10+0.1s byoyomi`, `0.1s/move`, `1000 nodes`…).
    pub fn describe(&self) -> String {
        let s = |ms: u64| format!("{}", ms as f64 / 1000.0);
        if let Some(n) = self.nodes {
            format!("{n} nodes/move")
        } else if let Some(m) = self.movetime_ms {
            format!("{}s/move", s(m))
        } else {
            let mut d = String::new();
            if self.base_ms > 0 || self.byoyomi_ms == 0 {
                let _ = write!(d, "{}s", s(self.base_ms));
            }
            if self.byoyomi_ms > 0 {
                let _ = write!(
                    d,
                    "{}byoyomi {}s",
                    if d.is_empty() { "" } else { " " },
                    s(self.byoyomi_ms)
                );
            }
            if self.inc_ms > 0 {
                let _ = write!(d, " +{}s/move", s(self.inc_ms));
            }
            d
        }
    }
}

/// Optional adjudications.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Adjudication {
    /// Win: both engines agree for this many moves each that one side leads by at least this
    /// many centipawns (`(cp, moves)`).
    pub resign: Option<(i32, usize)>,
    /// Draw: both engines report a score within ±cp for this many moves each, from this ply on
    /// (`(cp, moves, ply)`).
    pub draw: Option<(i32, usize, usize)>,
    /// Shogi: the 24-point impasse rule once both kings have entered.
    pub impasse_24: bool,
}

/// Everything the referee needs besides the engines.
#[derive(Clone, Debug)]
pub struct GameSettings {
    /// The clock.
    pub tc: TimeControl,
    /// Lateness forgiven before a time forfeit, ms.
    pub grace_ms: u64,
    /// Longest wait for a move under a node limit, ms.
    pub nodes_timeout_ms: u64,
    /// Longest wait for `readyok`.
    pub ready_timeout: Duration,
    /// The game's rule options (the move limit is `max_moves_to_draw`).
    pub rules: EveryGameRules,
    /// The rule options given (name and value, as the engines declare them), sent to every
    /// engine that announces them; the others go at the engine's default.
    pub rule_values: Vec<(String, String)>,
    /// Optional adjudications.
    pub adjudication: Adjudication,
}

/// How a game ended, in the runner's words.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Reason {
    /// The side to move is checkmated.
    Checkmate,
    /// The side to move has no legal move and is not in check.
    NoLegalMove,
    /// Repetition, judged by the game's rules.
    Repetition,
    /// Repetition with perpetual check: the checker loses.
    PerpetualCheck,
    /// An ending of the game's own rules, named by the game (minishogi's `jishogi`).
    Special(&'static str),
    /// The ply limit was reached.
    MaxPlies,
    /// A correct entering-king declaration.
    Declaration,
    /// A `bestmove win` that the rules do not allow.
    WrongDeclaration,
    /// `bestmove resign`.
    Resignation,
    /// An illegal or malformed move.
    IllegalMove,
    /// The clock ran out.
    TimeForfeit,
    /// The engine exited or stopped reading.
    Crash,
    /// The engine did not answer in time where no clock applies (node limit, `readyok`).
    Unresponsive,
    /// Both engines agreed on a decisive score.
    AdjudicatedWin,
    /// Both engines agreed on a drawn score.
    AdjudicatedDraw,
    /// The 24-point impasse adjudication.
    Impasse24,
    /// The match was interrupted during the game.
    Interrupted,
}

impl Reason {
    /// The reason as written in results.
    pub fn text(self) -> &'static str {
        match self {
            Reason::Checkmate => "checkmate",
            Reason::NoLegalMove => "no legal move",
            Reason::Repetition => "repetition",
            Reason::PerpetualCheck => "perpetual check",
            Reason::Special(name) => name,
            Reason::MaxPlies => "max plies",
            Reason::Declaration => "declaration",
            Reason::WrongDeclaration => "wrong declaration",
            Reason::Resignation => "resignation",
            Reason::IllegalMove => "illegal move",
            Reason::TimeForfeit => "time forfeit",
            Reason::Crash => "crash",
            Reason::Unresponsive => "unresponsive",
            Reason::AdjudicatedWin => "adjudication (score)",
            Reason::AdjudicatedDraw => "adjudication (draw score)",
            Reason::Impasse24 => "impasse (24 points)",
            Reason::Interrupted => "interrupted",
        }
    }
}

/// Who won.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// That colour won.
    Win(Color),
    /// A draw.
    Draw,
    /// The game was not finished.
    Unfinished,
}

impl GameResult {
    /// `1-0`, `0-1`, `1/2-1/2` or `*`, the result of `first` (the game's first mover) first: in
    /// the shogi games Black's, as shogi software writes it, in Give and Take White's, as
    /// draughts does.
    pub fn text(self, first: Color) -> &'static str {
        match self {
            GameResult::Win(c) if c == first => "1-0",
            GameResult::Win(_) => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unfinished => "*",
        }
    }

    /// Points of `color`, if the game finished.
    pub fn points(self, color: Color) -> Option<f64> {
        match self {
            GameResult::Win(c) => Some(if c == color { 1.0 } else { 0.0 }),
            GameResult::Draw => Some(0.5),
            GameResult::Unfinished => None,
        }
    }
}

/// A finished (or interrupted) game.
#[derive(Clone, Debug)]
pub struct Played {
    /// Who won.
    pub result: GameResult,
    /// Why.
    pub reason: Reason,
    /// More about the reason (the illegal move, the time used…).
    pub detail: String,
    /// The USI `position` line of the whole game.
    pub position: String,
    /// Moves played by the engines (after the opening).
    pub plies: usize,
    /// The CSA record, for games CSA can record.
    pub csa: Option<String>,
}

/// Names and context for the CSA header.
pub struct CsaHeader<'a> {
    /// Black's and White's names.
    pub names: [&'a str; 2],
    /// Event line.
    pub event: String,
    /// `YYYY/MM/DD HH:MM:SS`.
    pub start_time: String,
    /// Black's and White's time controls.
    pub tc: [TimeControl; 2],
}

fn verdict_to_result(v: Verdict, side_to_move: Color, in_check: bool) -> (GameResult, Reason) {
    let result = match v.outcome {
        Outcome::Win => GameResult::Win(side_to_move),
        Outcome::Loss => GameResult::Win(!side_to_move),
        Outcome::Draw => GameResult::Draw,
    };
    let reason = match v.reason {
        EndReason::NoLegalMove if in_check => Reason::Checkmate,
        EndReason::NoLegalMove => Reason::NoLegalMove,
        EndReason::Repetition => Reason::Repetition,
        EndReason::PerpetualCheck => Reason::PerpetualCheck,
        EndReason::Special(name) => Reason::Special(name),
        EndReason::MoveLimit => Reason::MaxPlies,
    };
    (result, reason)
}

/// Parses the score of an `info` line, from the engine's side: centipawns, mates as ±30000 less
/// the distance.
pub fn parse_score(line: &str) -> Option<i32> {
    let mut w = line.split_whitespace();
    if w.next()? != "info" {
        return None;
    }
    while let Some(t) = w.next() {
        if t == "string" || t == "pv" {
            return None;
        }
        if t == "score" {
            let kind = w.next()?;
            let val = w.next()?;
            return match kind {
                "cp" => val.parse().ok(),
                "mate" => match val {
                    "+" => Some(29_000),
                    "-" => Some(-29_000),
                    v => {
                        let n: i32 = v.trim_start_matches('+').parse().ok()?;
                        Some(if n >= 0 { 30_000 - n } else { -30_000 - n })
                    }
                },
                _ => None,
            };
        }
    }
    None
}

fn entry<P: Position>(pos: &P) -> HistoryEntry {
    HistoryEntry {
        key: pos.key(),
        in_check: pos.in_check(),
    }
}

/// What went wrong with one engine's turn.
struct Fault {
    loser: Color,
    reason: Reason,
    detail: String,
}

/// Plays one game. `engines` are Black's and White's. Engines found broken (crashed, silent) are
/// marked so; the caller replaces them before the next game.
pub fn play_game<P: Game>(
    opening: &Opening,
    engines: [&mut Engine; 2],
    settings: &GameSettings,
    stop: &AtomicBool,
    header: &CsaHeader,
) -> Played {
    let [black, white] = engines;
    let mut engines = [black, white];
    let rules = &settings.rules.of::<P>();
    let root: Result<P, String> = opening.root();
    let replay = opening.replay::<P>(rules);
    let (root, (mut pos, mut history)) = match (root, replay) {
        (Ok(r), Ok(x)) => (r, x),
        (Err(e), _) | (_, Err(e)) => {
            return Played {
                result: GameResult::Unfinished,
                reason: Reason::Interrupted,
                detail: format!("bad opening: {e}"),
                position: format!("position {}", opening.position_args(&[])),
                plies: 0,
                csa: None,
            };
        }
    };
    let mut moves: Vec<String> = Vec::new();
    let mut times_ms: Vec<u64> = Vec::new();
    // Scores reported by the engines, from Black's point of view, one per engine move.
    let mut scores: Vec<Option<i32>> = Vec::new();
    // Each side's clock: the match's, or its engine's own (time odds).
    let tcs = [
        settings.tc.with(&engines[0].config.clock),
        settings.tc.with(&engines[1].config.clock),
    ];
    let mut clocks = [tcs[0].base_ms as i64, tcs[1].base_ms as i64];
    let mut outcome: Option<(GameResult, Reason, String)> = None;
    // Each side's expected reply from its last `bestmove … ponder`, and the reply it is
    // thinking on (`go ponder`) during the opponent's turn.
    let mut guesses: [Option<String>; 2] = [None, None];
    let mut pondering: [Option<String>; 2] = [None, None];

    // New game for both engines, each synchronised first (stale output is skipped).
    for c in Color::ALL {
        let e = &mut engines[c.index()];
        let ok = e
            .sync(settings.ready_timeout, stop)
            .and_then(|_| e.send("usinewgame").map_err(|_| WaitError::Eof));
        if let Err(err) = ok {
            outcome = Some(wait_fault(err, c, "before the game (readyok)", e));
            break;
        }
    }

    while outcome.is_none() {
        if let Some(v) = pos.verdict(&history, rules) {
            let (r, why) = verdict_to_result(v, pos.side_to_move(), pos.in_check());
            outcome = Some((r, why, String::new()));
            break;
        }
        if settings.adjudication.impasse_24
            && let Some(w) = pos.impasse_24()
        {
            let r = w.map_or(GameResult::Draw, GameResult::Win);
            outcome = Some((r, Reason::Impasse24, String::new()));
            break;
        }
        if let Some(r) = adjudicate_scores(&settings.adjudication, &scores, history.len() - 1) {
            outcome = Some(r);
            break;
        }
        let side = pos.side_to_move();
        if let Some(guess) = guesses[(!side).index()].take() {
            pondering[(!side).index()] = start_ponder(
                &pos,
                guess,
                engines[(!side).index()],
                opening,
                &moves,
                &tcs,
                &clocks,
            );
        }
        match engine_turn(
            &pos,
            side,
            &mut engines,
            opening,
            &moves,
            &mut clocks,
            &tcs,
            settings,
            &mut pondering[side.index()],
            stop,
        ) {
            Err(f) => {
                outcome = Some(if f.reason == Reason::Interrupted {
                    (GameResult::Unfinished, f.reason, f.detail)
                } else {
                    (GameResult::Win(!f.loser), f.reason, f.detail)
                });
            }
            Ok(Turn::Declare) => {
                outcome = Some(if pos.can_declare(rules) {
                    (GameResult::Win(side), Reason::Declaration, String::new())
                } else {
                    (
                        GameResult::Win(!side),
                        Reason::WrongDeclaration,
                        format!("{} declared without the right", color_name(side)),
                    )
                });
            }
            Ok(Turn::Resign) => {
                outcome = Some((GameResult::Win(!side), Reason::Resignation, String::new()));
            }
            Ok(Turn::Move(text, mv, elapsed, score, guess)) => {
                let tc = &tcs[side.index()];
                if engines[side.index()].config.ponder
                    && tc.nodes.is_none()
                    && tc.movetime_ms.is_none()
                {
                    guesses[side.index()] = guess;
                }
                pos.play(mv);
                history.push(entry(&pos));
                moves.push(text);
                times_ms.push(elapsed);
                scores.push(score.map(|s| if side == Color::Black { s } else { -s }));
            }
        }
    }
    let (result, reason, detail) = outcome.expect("the loop ends with an outcome");
    // A side still thinking on the opponent's time is stopped; its move is not wanted.
    for c in Color::ALL {
        let e = &mut engines[c.index()];
        if pondering[c.index()].take().is_some() && e.is_alive() {
            let settle = Instant::now() + Duration::from_millis(settings.grace_ms.max(1000));
            let answered = e.send("stop").is_ok()
                && e.wait_for(settle, stop, |l| l.starts_with("bestmove"))
                    .is_ok();
            if !answered {
                e.mark_broken();
            }
        }
    }

    if result != GameResult::Unfinished {
        for c in Color::ALL {
            let e = &mut engines[c.index()];
            if e.is_alive() {
                let word = match result.points(c) {
                    Some(p) if p > 0.75 => "win",
                    Some(p) if p < 0.25 => "lose",
                    _ => "draw",
                };
                let _ = e.send(&format!("gameover {word}"));
            }
        }
    }

    let final_side = pos.side_to_move();
    let csa = csa_record::<P>(
        &root, opening, &moves, &times_ms, result, reason, &detail, final_side, header,
    );
    Played {
        result,
        reason,
        detail,
        position: format!("position {}", opening.position_args(&moves)),
        plies: moves.len(),
        csa,
    }
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::Black => "Black",
        Color::White => "White",
    }
}

fn wait_fault(
    err: WaitError,
    side: Color,
    when: &str,
    engine: &mut Engine,
) -> (GameResult, Reason, String) {
    match err {
        WaitError::Stopped => (GameResult::Unfinished, Reason::Interrupted, String::new()),
        WaitError::Eof => {
            engine.mark_broken();
            (
                GameResult::Win(!side),
                Reason::Crash,
                format!("{} exited {when}", color_name(side)),
            )
        }
        WaitError::Timeout => {
            engine.mark_broken();
            (
                GameResult::Win(!side),
                Reason::Unresponsive,
                format!("{} did not answer {when}", color_name(side)),
            )
        }
    }
}

/// Starts `engine` thinking on the opponent's time: on the position after the reply `guess` it
/// expects (when that is a legal move of `pos`), with the clocks as they stand. Returns the
/// reply it ponders on, or `None` when it does not ponder (an engine that cannot be written to
/// is found out at its own turn).
fn start_ponder<P: Game>(
    pos: &P,
    guess: String,
    engine: &mut Engine,
    opening: &Opening,
    moves: &[String],
    tcs: &[TimeControl; 2],
    clocks: &[i64; 2],
) -> Option<String> {
    pos.parse_move(&guess).ok()?;
    let mut line: Vec<String> = moves.to_vec();
    line.push(guess.clone());
    let (go, _) = go_command(tcs, clocks, !pos.side_to_move(), 0);
    let go = go.replacen("go ", "go ponder ", 1);
    let position = format!("position {}", opening.position_args(&line));
    (engine.send(&position).is_ok() && engine.send(&go).is_ok()).then_some(guess)
}

/// The engine's answer to one `go`.
enum Turn<M> {
    /// The move (text and parsed), the time it took in ms, the last score reported, and the
    /// reply the engine expects (`ponder`).
    Move(String, M, u64, Option<i32>, Option<String>),
    Declare,
    Resign,
}

#[allow(clippy::too_many_arguments)]
fn engine_turn<P: Game>(
    pos: &P,
    side: Color,
    engines: &mut [&mut Engine; 2],
    opening: &Opening,
    moves: &[String],
    clocks: &mut [i64; 2],
    tcs: &[TimeControl; 2],
    settings: &GameSettings,
    pondering: &mut Option<String>,
    stop: &AtomicBool,
) -> Result<Turn<P::Move>, Fault> {
    let tc = tcs[side.index()];
    let e = &mut engines[side.index()];
    let fault = |reason, detail: String| Fault {
        loser: side,
        reason,
        detail,
    };
    let (go, limit_ms) = go_command(tcs, clocks, side, settings.nodes_timeout_ms);
    let grace_ms = if tc.nodes.is_some() {
        0
    } else {
        settings.grace_ms
    };
    let position = format!("position {}", opening.position_args(moves));
    // After pondering: `ponderhit` when the opponent played the expected reply, else the ponder
    // search is stopped (its move thrown away) and the engine searches the real position.
    let mut hit = false;
    if let Some(guess) = pondering.take() {
        hit = moves.last() == Some(&guess);
        if hit {
            hit = e.send("ponderhit").is_ok();
        } else {
            let settle = Instant::now() + Duration::from_millis(grace_ms.max(1000));
            let stopped = e
                .send("stop")
                .map_err(|_| WaitError::Eof)
                .and_then(|_| e.wait_for(settle, stop, |l| l.starts_with("bestmove")));
            if let Err(err) = stopped {
                let (_, reason, detail) = wait_fault(err, side, "stop after pondering", e);
                return Err(fault(reason, detail));
            }
        }
    }
    if !hit && (e.send(&position).is_err() || e.send(&go).is_err()) {
        e.mark_broken();
        return Err(fault(
            Reason::Crash,
            format!("{} stopped reading its input", color_name(side)),
        ));
    }
    let sent = Instant::now();
    let deadline = sent + Duration::from_millis(limit_ms + grace_ms);
    let mut score = None;
    let answer = e.wait_for(deadline, stop, |line| {
        if let Some(s) = parse_score(line) {
            score = Some(s);
        }
        line.split_whitespace().next() == Some("bestmove")
    });
    let (arrived, line) = match answer {
        Ok(x) => x,
        Err(WaitError::Stopped) => {
            return Err(fault(Reason::Interrupted, String::new()));
        }
        Err(WaitError::Eof) => {
            e.mark_broken();
            return Err(fault(
                Reason::Crash,
                format!("{} exited while thinking", color_name(side)),
            ));
        }
        Err(WaitError::Timeout) => {
            // Ask for the move anyway; an engine that still says nothing is replaced.
            let _ = e.send("stop");
            let settle = Instant::now() + Duration::from_millis(grace_ms.max(1000));
            if e.wait_for(settle, stop, |l| l.starts_with("bestmove"))
                .is_err()
            {
                e.mark_broken();
            }
            let reason = if tc.nodes.is_some() {
                Reason::Unresponsive
            } else {
                Reason::TimeForfeit
            };
            return Err(fault(
                reason,
                format!(
                    "{} gave no move within {} ms (limit {limit_ms} + grace {grace_ms})",
                    color_name(side),
                    limit_ms + grace_ms
                ),
            ));
        }
    };
    let elapsed = arrived.saturating_duration_since(sent).as_millis() as u64;
    if tc.nodes.is_none() && elapsed > limit_ms + grace_ms {
        return Err(fault(
            Reason::TimeForfeit,
            format!(
                "{} used {elapsed} ms (limit {limit_ms} + grace {grace_ms})",
                color_name(side)
            ),
        ));
    }
    clocks[side.index()] = clock_after_move(&tc, clocks[side.index()], elapsed);
    let words: Vec<&str> = line.split_whitespace().collect();
    let text = words.get(1).copied().unwrap_or("").to_string();
    let guess = match words.get(2..4) {
        Some(["ponder", reply]) => Some(reply.to_string()),
        _ => None,
    };
    match text.as_str() {
        "win" => Ok(Turn::Declare),
        "resign" => Ok(Turn::Resign),
        _ => match pos.parse_move(&text) {
            Ok(mv) => Ok(Turn::Move(text, mv, elapsed, score, guess)),
            Err(err) => Err(fault(
                Reason::IllegalMove,
                format!("{} played '{text}': {err}", color_name(side)),
            )),
        },
    }
}

/// The `go` command for the side to move, under Black's and White's time controls `tcs`, and the
/// time it may take (ms, grace not included): main time plus this move's increment plus byoyomi,
/// the fixed move time, or under a node limit `nodes_timeout_ms`. The byoyomi sent is the side to
/// move's; the increments are each side's.
pub fn go_command(
    tcs: &[TimeControl; 2],
    clocks: &[i64; 2],
    side: Color,
    nodes_timeout_ms: u64,
) -> (String, u64) {
    let tc = &tcs[side.index()];
    let (binc, winc) = (tcs[0].inc_ms, tcs[1].inc_ms);
    if let Some(n) = tc.nodes {
        (format!("go nodes {n}"), nodes_timeout_ms)
    } else if let Some(m) = tc.movetime_ms {
        (format!("go movetime {m}"), m)
    } else {
        let b = clocks[0].max(0);
        let w = clocks[1].max(0);
        let mut go = format!("go btime {b} wtime {w}");
        if tc.byoyomi_ms > 0 || tc.inc_ms == 0 {
            let _ = write!(go, " byoyomi {}", tc.byoyomi_ms);
        }
        if binc > 0 || winc > 0 {
            let _ = write!(go, " binc {binc} winc {winc}");
        }
        let limit = clocks[side.index()].max(0) as u64 + tc.inc_ms + tc.byoyomi_ms;
        (go, limit)
    }
}

/// The main time left after a move that took `elapsed` ms: the increment is added, the time
/// used taken off, and what exceeds the main time came out of the byoyomi.
pub fn clock_after_move(tc: &TimeControl, remaining: i64, elapsed: u64) -> i64 {
    if tc.nodes.is_some() || tc.movetime_ms.is_some() {
        return remaining;
    }
    (remaining + tc.inc_ms as i64 - elapsed as i64).max(0)
}

fn adjudicate_scores(
    adj: &Adjudication,
    scores: &[Option<i32>],
    ply: usize,
) -> Option<(GameResult, Reason, String)> {
    let last = |n: usize| -> Option<Vec<i32>> {
        if n == 0 || scores.len() < 2 * n {
            return None;
        }
        scores[scores.len() - 2 * n..].iter().copied().collect()
    };
    if let Some((cp, n)) = adj.resign
        && let Some(s) = last(n)
    {
        if s.iter().all(|&x| x >= cp) {
            return Some((
                GameResult::Win(Color::Black),
                Reason::AdjudicatedWin,
                format!("both engines scored Black at least {cp} cp for {n} moves each"),
            ));
        }
        if s.iter().all(|&x| x <= -cp) {
            return Some((
                GameResult::Win(Color::White),
                Reason::AdjudicatedWin,
                format!("both engines scored White at least {cp} cp for {n} moves each"),
            ));
        }
    }
    if let Some((cp, n, after)) = adj.draw
        && ply >= after
        && let Some(s) = last(n)
        && s.iter().all(|&x| x.abs() <= cp)
    {
        return Some((
            GameResult::Draw,
            Reason::AdjudicatedDraw,
            format!("both engines scored within {cp} cp for {n} moves each"),
        ));
    }
    None
}

/// The CSA v2.2 record of a game, for games CSA can record.
#[allow(clippy::too_many_arguments)]
fn csa_record<P: Game>(
    root: &P,
    opening: &Opening,
    moves: &[String],
    times_ms: &[u64],
    result: GameResult,
    reason: Reason,
    detail: &str,
    final_side: Color,
    header: &CsaHeader,
) -> Option<String> {
    let start = root.csa_position()?;
    let mut out = String::new();
    out.push_str("V2.2\n");
    let _ = writeln!(out, "N+{}", header.names[0]);
    let _ = writeln!(out, "N-{}", header.names[1]);
    let _ = writeln!(out, "$EVENT:{}", header.event);
    let _ = writeln!(out, "$START_TIME:{}", header.start_time);
    let tc = header.tc[0];
    if header.tc[0] == header.tc[1]
        && tc.nodes.is_none()
        && tc.movetime_ms.is_none()
        && tc.inc_ms == 0
        && tc.base_ms.is_multiple_of(1000)
        && tc.byoyomi_ms.is_multiple_of(1000)
    {
        let mins = tc.base_ms / 60_000;
        let _ = writeln!(
            out,
            "$TIME_LIMIT:{:02}:{:02}+{:02}",
            mins / 60,
            mins % 60,
            tc.byoyomi_ms / 1000
        );
    }
    if header.tc[0] == header.tc[1] {
        let _ = writeln!(out, "'time control: {}", tc.describe());
    } else {
        let _ = writeln!(
            out,
            "'time control: Black {}, White {}",
            header.tc[0].describe(),
            header.tc[1].describe()
        );
    }
    out.push_str(&start);
    let mut pos = root.clone();
    let all = opening.moves.iter().map(|m| (m, None)).chain(
        moves
            .iter()
            .zip(times_ms.iter())
            .map(|(m, &t)| (m, Some(t))),
    );
    for (text, time) in all {
        let mv = pos.parse_move(text).ok()?;
        out.push_str(&pos.csa_move(mv)?);
        out.push('\n');
        let _ = writeln!(out, "T{}", time.unwrap_or(0) / 1000);
        pos.play(mv);
    }
    let mover = match final_side {
        Color::Black => '+',
        Color::White => '-',
    };
    let end = match reason {
        Reason::Checkmate => "%TSUMI".to_string(),
        Reason::NoLegalMove | Reason::Resignation | Reason::AdjudicatedWin => "%TORYO".into(),
        Reason::Repetition => "%SENNICHITE".into(),
        Reason::PerpetualCheck => "%OUTE_SENNICHITE".into(),
        // The games' own endings are jishogi (minishogi's), as CSA records them.
        Reason::Special(_) | Reason::Impasse24 => "%JISHOGI".into(),
        Reason::MaxPlies | Reason::AdjudicatedDraw => "%HIKIWAKE".into(),
        Reason::Declaration => "%KACHI".into(),
        Reason::WrongDeclaration => format!("%{mover}ILLEGAL_ACTION"),
        Reason::IllegalMove => "%ILLEGAL_MOVE".into(),
        Reason::TimeForfeit | Reason::Unresponsive => "%TIME_UP".into(),
        Reason::Crash | Reason::Interrupted => "%CHUDAN".into(),
    };
    out.push_str(&end);
    out.push('\n');
    let _ = writeln!(
        out,
        "'result: {} ({})",
        result.text(Color::Black),
        reason.text()
    );
    if !detail.is_empty() {
        let _ = writeln!(out, "'{detail}");
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores() {
        assert_eq!(parse_score("info depth 3 score cp 120 pv 7g7f"), Some(120));
        assert_eq!(parse_score("info depth 3 score cp -5 lowerbound"), Some(-5));
        assert_eq!(parse_score("info score mate 3 pv a"), Some(29_997));
        assert_eq!(parse_score("info score mate -2 pv a"), Some(-29_998));
        assert_eq!(parse_score("info score mate +"), Some(29_000));
        assert_eq!(parse_score("info string score cp 5"), None);
        assert_eq!(parse_score("bestmove 7g7f"), None);
        assert_eq!(parse_score("info depth 1 nodes 5"), None);
    }

    #[test]
    fn score_adjudication() {
        let adj = Adjudication {
            resign: Some((500, 2)),
            draw: Some((10, 2, 20)),
            impasse_24: false,
        };
        let s = [Some(600), Some(700), Some(501), Some(900)];
        assert_eq!(
            adjudicate_scores(&adj, &s, 10).unwrap().0,
            GameResult::Win(Color::Black)
        );
        let s = [Some(600), Some(-700), Some(-501), Some(-900), Some(-800)];
        assert_eq!(
            adjudicate_scores(&adj, &s, 10).unwrap().0,
            GameResult::Win(Color::White)
        );
        let s = [Some(600), Some(0), Some(-501), Some(-900)];
        assert!(adjudicate_scores(&adj, &s, 10).is_none());
        let s = [None, Some(-700), Some(-501), Some(-900)];
        assert!(adjudicate_scores(&adj, &s[..3], 10).is_none());
        let s = [Some(5), Some(-7), Some(0), Some(10)];
        assert!(adjudicate_scores(&adj, &s, 19).is_none());
        assert_eq!(adjudicate_scores(&adj, &s, 20).unwrap().0, GameResult::Draw);
    }

    #[test]
    fn each_side_may_have_its_own_clock() {
        let tc = TimeControl {
            base_ms: 0,
            byoyomi_ms: 200,
            ..TimeControl::default()
        };
        let odds = ClockOdds {
            byoyomi_ms: Some(600),
            ..ClockOdds::default()
        };
        let tcs = [tc, tc.with(&odds)];
        // White has 600 ms a move, Black 200: each is told its own byoyomi.
        assert_eq!(
            go_command(&tcs, &[0, 0], Color::White, 0),
            ("go btime 0 wtime 0 byoyomi 600".to_string(), 600)
        );
        assert_eq!(
            go_command(&tcs, &[0, 0], Color::Black, 0),
            ("go btime 0 wtime 0 byoyomi 200".to_string(), 200)
        );
        // Increments are each side's.
        let fischer = TimeControl {
            base_ms: 1000,
            inc_ms: 100,
            ..TimeControl::default()
        };
        let more = fischer.with(&ClockOdds {
            time_ms: Some(3000),
            inc_ms: Some(300),
            ..ClockOdds::default()
        });
        let (go, limit) = go_command(&[fischer, more], &[1000, 3000], Color::White, 0);
        assert_eq!(go, "go btime 1000 wtime 3000 binc 100 winc 300");
        assert_eq!(limit, 3300);
        assert_eq!(more.describe(), "3s +0.3s/move");
    }

    #[test]
    fn clocks() {
        // 10 s + byoyomi 1 s: the engine may use all of its main time and the byoyomi.
        let tc = TimeControl {
            base_ms: 10_000,
            byoyomi_ms: 1000,
            ..Default::default()
        };
        let (go, limit) = go_command(&[tc, tc], &[10_000, 7_500], Color::White, 0);
        assert_eq!(go, "go btime 10000 wtime 7500 byoyomi 1000");
        assert_eq!(limit, 8_500);
        assert_eq!(clock_after_move(&tc, 7_500, 3_000), 4_500);
        // Past the main time the rest comes out of the byoyomi; the clock stays at 0.
        assert_eq!(clock_after_move(&tc, 4_500, 5_200), 0);
        let (_, limit) = go_command(&[tc, tc], &[0, 0], Color::Black, 0);
        assert_eq!(limit, 1000);
        // Fischer: the increment of this move is usable and is added after it.
        let tc = TimeControl {
            base_ms: 5_000,
            inc_ms: 2_000,
            ..Default::default()
        };
        let (go, limit) = go_command(&[tc, tc], &[5_000, 5_000], Color::Black, 0);
        assert_eq!(go, "go btime 5000 wtime 5000 binc 2000 winc 2000");
        assert_eq!(limit, 7_000);
        assert_eq!(clock_after_move(&tc, 5_000, 1_000), 6_000);
        assert_eq!(clock_after_move(&tc, 5_000, 6_900), 100);
        // Sudden death still sends byoyomi 0.
        let tc = TimeControl {
            base_ms: 60_000,
            ..Default::default()
        };
        let (go, limit) = go_command(&[tc, tc], &[60_000, 59_000], Color::White, 0);
        assert_eq!(go, "go btime 60000 wtime 59000 byoyomi 0");
        assert_eq!(limit, 59_000);
        // Fixed time and nodes: no clock.
        let tc = TimeControl {
            movetime_ms: Some(100),
            ..Default::default()
        };
        assert_eq!(
            go_command(&[tc, tc], &[0, 0], Color::Black, 9),
            ("go movetime 100".into(), 100)
        );
        assert_eq!(clock_after_move(&tc, 0, 150), 0);
        let tc = TimeControl {
            nodes: Some(5000),
            ..Default::default()
        };
        assert_eq!(
            go_command(&[tc, tc], &[0, 0], Color::Black, 9),
            ("go nodes 5000".into(), 9)
        );
    }

    #[test]
    fn time_control_text() {
        let tc = TimeControl {
            base_ms: 10_000,
            byoyomi_ms: 100,
            ..Default::default()
        };
        assert_eq!(tc.describe(), "10s byoyomi 0.1s");
        let tc = TimeControl {
            movetime_ms: Some(100),
            ..Default::default()
        };
        assert_eq!(tc.describe(), "0.1s/move");
    }
}

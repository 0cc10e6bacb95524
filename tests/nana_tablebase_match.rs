//! A match of the table-playing engine against the search-only engine, in process, from random
//! openings: the table side must never lose a position that the table says it wins or draws.
//!
//! Run by hand (minutes): `TSUBAME_NANA_TB=nanashogi.tb cargo test --release --test
//! nana_tablebase_match -- --ignored --nocapture`; without the variable the table is built first.
//! `TSUBAME_MATCH_GAMES` (200) and `TSUBAME_MATCH_DEPTH` (search depth of the other side, 6) tune it.

use rayon::prelude::*;

use tsubame::core::color::Color;
use tsubame::core::game::Position;
use tsubame::core::moves::{Move, MoveList};
use tsubame::core::repetition::HistoryEntry;
use tsubame::core::rules::RuleOptions;
use tsubame::games::nana::tablebase::{Tablebase, TbValue, build};
use tsubame::games::nana::{Nana, repetition_draw};
use tsubame::rng::Rng;
use tsubame::search::tt::TranspositionTable;
use tsubame::search::{self, Limits, SearchGame, SearchSetup, Shared};

/// Longest game before it is called a draw.
const MAX_PLIES: usize = 400;

fn env_or(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// A random opening: the two king drops and a few random moves, still undecided by the rules.
fn opening(seed: u64) -> Nana {
    let mut rng = Rng::new(seed);
    loop {
        let mut p = Nana::startpos();
        let plies = 2 + rng.below(7);
        let mut ok = true;
        for _ in 0..plies {
            let mut list = MoveList::<Move>::new();
            p.legal_moves(&mut list);
            if list.is_empty() {
                ok = false;
                break;
            }
            p.play(list[rng.below(list.len())]);
        }
        if ok && p.count_legal_moves() > 0 {
            return p;
        }
    }
}

fn entry(p: &Nana) -> HistoryEntry {
    HistoryEntry {
        key: p.key(),
        in_check: p.in_check(),
    }
}

/// The search-only engine's move.
fn search_move(pos: &Nana, history: &[HistoryEntry], tt: &TranspositionTable, depth: i32) -> Move {
    let shared = Shared::default();
    let setup = SearchSetup {
        history,
        rules: RuleOptions::default(),
        limits: Limits {
            depth: Some(depth),
            nodes: None,
            searchmoves: Vec::new(),
            multipv: 1,
        },
        threads: 1,
        pruning: true,
        tt,
        shared: &shared,
        report: &|_: &search::Report| {},
        nnue: None,
        histories: None,
        params: Nana::default_params(),
        skill: None,
    };
    search::with_search_stack(|| search::run(pos, &setup))
        .best
        .expect("a legal move exists")
}

/// The result for the table side: 1 win, 0 draw, −1 loss.
fn play_game(tb: &Tablebase, start: Nana, table_side: Color, depth: i32) -> (i32, usize) {
    let tt = TranspositionTable::new(16);
    let mut pos = start;
    let mut history = vec![entry(&pos)];
    for ply in 0..MAX_PLIES {
        if pos.count_legal_moves() == 0 {
            return (
                if pos.side_to_move() == table_side {
                    -1
                } else {
                    1
                },
                ply,
            );
        }
        if repetition_draw(&history) {
            return (0, ply);
        }
        let mv = if pos.side_to_move() == table_side {
            tb.best_move(&pos)
                .expect("the table holds every position")
                .0
        } else {
            search_move(&pos, &history, &tt, depth)
        };
        pos.play(mv);
        history.push(entry(&pos));
    }
    (0, MAX_PLIES)
}

#[test]
#[ignore = "minutes: plays a 200-game match (needs the full table)"]
fn table_never_loses_a_won_or_drawn_position() {
    let tb = match std::env::var("TSUBAME_NANA_TB") {
        Ok(path) => Tablebase::load(std::path::Path::new(&path)).expect("the table file loads"),
        Err(_) => build(None, false),
    };
    let games = env_or("TSUBAME_MATCH_GAMES", 200);
    let depth = env_or("TSUBAME_MATCH_DEPTH", 6) as i32;
    let results: Vec<(TbValue, i32, usize)> = (0..games)
        .into_par_iter()
        .map(|g| {
            let start = opening(1000 + g as u64 / 2);
            // Each opening is played twice, the table taking either side.
            let table_side = if g % 2 == 0 {
                start.side_to_move()
            } else {
                !start.side_to_move()
            };
            let v = tb.probe(&start).expect("in the table");
            let v = if table_side == start.side_to_move() {
                v
            } else {
                match v {
                    TbValue::Win(d) => TbValue::Loss(d),
                    TbValue::Loss(d) => TbValue::Win(d),
                    TbValue::Draw => TbValue::Draw,
                }
            };
            let (r, plies) = play_game(&tb, start, table_side, depth);
            (v, r, plies)
        })
        .collect();
    let mut table = [[0usize; 3]; 3]; // [start value: win, draw, loss][result: win, draw, loss]
    for &(v, r, _) in &results {
        let row = match v {
            TbValue::Win(_) => 0,
            TbValue::Draw => 1,
            TbValue::Loss(_) => 2,
        };
        table[row][(1 - r) as usize] += 1;
    }
    let (w, d, l) = (
        results.iter().filter(|r| r.1 == 1).count(),
        results.iter().filter(|r| r.1 == 0).count(),
        results.iter().filter(|r| r.1 == -1).count(),
    );
    println!(
        "table vs search (depth {depth}), {games} games: +{w} ={d} -{l}, score {:.1}/{games}",
        w as f64 + d as f64 / 2.0
    );
    for (name, row) in ["won", "drawn", "lost"].iter().zip(table) {
        println!(
            "  table side starting {name}: {} games: +{} ={} -{}",
            row.iter().sum::<usize>(),
            row[0],
            row[1],
            row[2]
        );
    }
    let longest = results.iter().map(|r| r.2).max().unwrap_or(0);
    println!("  longest game: {longest} plies");
    assert_eq!(
        table[0][2] + table[1][2],
        0,
        "a won or drawn position was lost"
    );
    assert_eq!(table[0][1], 0, "a won position was only drawn");
}

//! The tablebase's perfect index: rank and unrank are inverse over the whole index, every position
//! met in random play is indexed, the colour flip plays the same game, and the single-move legality
//! test the unmoves rely on agrees with the move generator.

use rayon::prelude::*;

use tsubame::core::color::Color;
use tsubame::core::game::Position;
use tsubame::core::moves::{Move, MoveList};
use tsubame::core::square::Square;
use tsubame::games::nana::Nana;
use tsubame::games::nana::tablebase::index::{INDEXER, flip, oriented};
use tsubame::rng::Rng;

/// The SFEN without its move number.
fn board_sfen(p: &Nana) -> String {
    let s = p.to_sfen();
    s.rsplit_once(' ').map(|(a, _)| a.to_string()).unwrap()
}

/// Positions from random games from the start (both kings on the board).
fn random_positions(seed: u64, games: usize) -> Vec<Nana> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut p = Nana::startpos();
        for _ in 0..60 {
            let mut list = MoveList::<Move>::new();
            p.legal_moves(&mut list);
            if list.is_empty() {
                break;
            }
            p.play(list[rng.below(list.len())]);
            if p.king(Color::Black).is_some() && p.king(Color::White).is_some() {
                out.push(p.clone());
            }
        }
    }
    out
}

#[test]
fn index_size_is_as_designed() {
    // 32 ordered pairs of non-adjacent king squares × 1,225,092 cube placements.
    assert_eq!(INDEXER.per_king_pair, 1_225_092);
    assert_eq!(INDEXER.size, 32 * 1_225_092);
}

#[test]
fn rank_inverts_unrank_over_the_whole_index() {
    let bad = (0..INDEXER.size)
        .into_par_iter()
        .filter(|&i| INDEXER.rank(&INDEXER.unrank(i)) != i)
        .count();
    assert_eq!(bad, 0);
}

#[test]
fn unranked_positions_are_well_formed() {
    let mut rng = Rng::new(7);
    for _ in 0..200_000 {
        let i = rng.below(INDEXER.size as usize) as u32;
        let p = INDEXER.unrank(i);
        assert_eq!(p.side_to_move(), Color::Black);
        // The SFEN parser accepts every position whose side to move cannot take the king.
        match Nana::from_sfen(&p.to_sfen()) {
            Ok(q) => {
                assert!(p.enemy_king_safe());
                assert_eq!(INDEXER.rank(&q), i);
                assert_eq!(q.key(), p.key());
            }
            Err(_) => assert!(!p.enemy_king_safe(), "{}", p.to_sfen()),
        }
    }
}

#[test]
fn positions_from_play_are_indexed_and_restored() {
    for p in random_positions(11, 400) {
        let o = oriented(&p);
        let back = INDEXER.unrank(INDEXER.rank(&o));
        assert_eq!(board_sfen(&back), board_sfen(&o), "{}", p.to_sfen());
    }
}

#[test]
fn flip_plays_the_same_game() {
    for p in random_positions(13, 200) {
        let f = flip(&p);
        assert_eq!(board_sfen(&flip(&f)), board_sfen(&p));
        assert_eq!(f.side_to_move(), !p.side_to_move());
        assert_eq!(f.in_check(), p.in_check());
        let (mut a, mut b) = (MoveList::<Move>::new(), MoveList::<Move>::new());
        p.legal_moves(&mut a);
        f.legal_moves(&mut b);
        assert_eq!(a.len(), b.len(), "{}", p.to_sfen());
    }
}

/// Every move a position could name: board moves between any two squares and every drop.
fn all_candidates() -> Vec<Move> {
    let mut v = Vec::new();
    for from in 0..9u8 {
        for to in 0..9u8 {
            if from != to {
                v.push(Move::normal(Square(from), Square(to), false));
            }
        }
    }
    for piece in 0..9u8 {
        for to in 0..9u8 {
            v.push(Move::drop(piece, Square(to)));
        }
    }
    v
}

fn check_single_move_legality(p: &Nana, candidates: &[Move]) {
    let mut list = MoveList::<Move>::new();
    p.legal_moves(&mut list);
    for &mv in candidates {
        assert_eq!(
            p.is_legal_move(mv),
            list.contains(&mv),
            "{} in {}",
            p.move_to_usi(mv),
            p.to_sfen()
        );
    }
}

#[test]
fn single_move_legality_agrees_with_the_generator() {
    let candidates = all_candidates();
    for p in random_positions(17, 300) {
        check_single_move_legality(&p, &candidates);
    }
    // Index positions cover set-ups play rarely reaches (cubes out of the game, odd hands).
    let mut rng = Rng::new(19);
    let mut checked = 0;
    while checked < 50_000 {
        let p = INDEXER.unrank(rng.below(INDEXER.size as usize) as u32);
        if p.enemy_king_safe() {
            check_single_move_legality(&p, &candidates);
            checked += 1;
        }
    }
    // The opening, kings in hand.
    let start = Nana::startpos();
    check_single_move_legality(&start, &candidates);
    let mut list = MoveList::<Move>::new();
    start.legal_moves(&mut list);
    for &mv in &list {
        let mut q = start.clone();
        q.play(mv);
        check_single_move_legality(&q, &candidates);
    }
}

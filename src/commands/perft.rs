//! `tsubame perft`: the leaves of the legal move tree of a position, per root move, then the
//! total.

use std::time::Instant;

use crate::core::game::Position;
use crate::engine::{PerftEnd, check_perft_depth, perft};

/// Counts the leaves below `sfen` (`startpos`, an SFEN, either followed by `moves …`; `None`: the
/// start) to `depth`, printing a line per root move, the total, and the time on standard error.
pub fn run<P: Position>(sfen: Option<&str>, depth: u32) -> Result<(), String> {
    let (mut pos, moves) = super::analyse::position_arg::<P>(sfen)?;
    for m in &moves {
        let mv = pos.parse_move(m).map_err(|e| e.to_string())?;
        pos.play(mv);
    }
    check_perft_depth(depth)?;
    let start = Instant::now();
    let never = std::sync::atomic::AtomicBool::new(false);
    match perft(&pos, depth, &never, &mut |mv, count| {
        println!("{mv}: {count}")
    }) {
        PerftEnd::Done(total) => println!("Nodes searched: {total}"),
        PerftEnd::Stopped { .. } => unreachable!("nothing stops this perft"),
    }
    eprintln!("time: {:.3} s", start.elapsed().as_secs_f64());
    Ok(())
}

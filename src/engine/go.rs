//! What a search is asked to do: the limits of a `go`, typed.

use crate::core::color::Color;
use crate::search::time::Clock;

/// The limits of a search (the arguments of USI's `go`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoParams {
    /// Black's and White's main time.
    pub time: [Option<u64>; 2],
    /// Black's and White's increment.
    pub inc: [u64; 2],
    /// Byoyomi period.
    pub byoyomi: u64,
    /// Fixed time for this move.
    pub movetime: Option<u64>,
    /// Moves until the next time control.
    pub movestogo: Option<u64>,
    /// Depth limit.
    pub depth: Option<i32>,
    /// Node limit.
    pub nodes: Option<u64>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Ponder until `ponderhit` or `stop`.
    pub ponder: bool,
    /// Root moves to consider (as text, checked later).
    pub searchmoves: Vec<String>,
    /// `go mate <ms|infinite>`: the time limit (`None` for infinite).
    pub mate: Option<Option<u64>>,
    /// `go perft <depth>`.
    pub perft: Option<u32>,
    /// True when any of `btime`, `wtime`, `byoyomi`, `binc`, `winc` was given: the game is
    /// played on a clock, and a side whose main time is missing has none left.
    pub clock_given: bool,
}

impl GoParams {
    /// The clock of `side`, to move after `ply` plies of the game. When the command gives a
    /// clock but not `side`'s main time (say only the opponent's), `side` has none left (0),
    /// rather than no limit.
    pub fn clock(&self, side: Color, ply: u32) -> Clock {
        Clock {
            time: self.time[side.index()].or(self.clock_given.then_some(0)),
            increment: self.inc[side.index()],
            byoyomi: self.byoyomi,
            movetime: self.movetime,
            moves_to_go: self.movestogo,
            ply,
        }
    }

    /// True when the command gives the clock (times, byoyomi or movetime).
    pub fn has_clock(&self) -> bool {
        self.time.iter().any(Option::is_some) || self.movetime.is_some() || self.byoyomi > 0
    }

    /// True when the command has no limit of its own, so that only `stop` ends it: `go mate
    /// infinite`, or a search without depth, nodes or clock (`go`, `go infinite`). A perft ends at
    /// its depth.
    pub fn is_open_ended(&self) -> bool {
        match (self.perft, self.mate) {
            (Some(_), _) => false,
            (None, Some(limit)) => limit.is_none(),
            (None, None) => {
                self.depth.is_none()
                    && self.nodes.is_none()
                    && !self.has_clock()
                    && !self.clock_given
            }
        }
    }
}

//! Give and Take's evaluation: a weighted sum of a few counts (material, kings, advance,
//! mobility, men about to crown, and the tempo), each taken as the side to move's count minus
//! the opponent's. The capture obligation is not a count here: the search treats it like a check
//! (a position where a capture is obliged is never evaluated as quiet, so self-play data has no
//! such position to fit a weight to). The weights are fitted to self-play games by `tsubame-train --variant
//! giveandtake` (docs/rules.md §6 gives the commands); [`Features`] is what both the engine and
//! the trainer compute, so the two can never disagree on a count.

use super::movegen::{DIRS, far_rank, step};
use super::position::{GiveAndTake, bit};
use crate::core::color::Color;
use crate::core::search_params::{EVAL_PARAMS, SearchParams};
use crate::games::info::ParamOption;

/// Number of evaluation features.
pub const FEATURES: usize = 7;

/// The features' names, in the order of [`Features`] and [`WEIGHTS`] (for the trainer's report).
pub const FEATURE_NAMES: [&str; FEATURES] = [
    "man",
    "king",
    "advance",
    "king_mobility",
    "man_mobility",
    "near_crown",
    "tempo",
];

/// Index of the man count in [`Features`] (its weight is the value of a man).
pub const MAN: usize = 0;
/// Index of the king count in [`Features`] (its weight is the value of a king).
pub const KING: usize = 1;

/// Weights of the features in centipawns, in the order of [`FEATURE_NAMES`]:
/// - `man`, `king`: each piece;
/// - `advance`: each rank a man stands beyond its start (ranks 2–3 for White);
/// - `king_mobility`: each empty square a king can slide to;
/// - `man_mobility`: each empty square a man can step to;
/// - `near_crown`: each man one step from the far rank;
/// - `tempo`: having the move.
pub const WEIGHTS: [i32; FEATURES] = [68, 315, 16, 4, 0, 49, 10];

const _: () = assert!(
    FEATURES <= EVAL_PARAMS,
    "the weights fit the evaluation's slots"
);

/// The weights of the evaluation in `params`: Give and Take keeps them in the first [`FEATURES`]
/// slots of [`SearchParams::eval`] ([`WEIGHTS`] in its default, changed by the USI option
/// `GiveAndTakeWeights` for tuning matches).
#[inline]
pub fn weights_of(params: &SearchParams) -> [i32; FEATURES] {
    std::array::from_fn(|i| params.eval[i])
}

/// `params` with the evaluation's weights `w`.
pub fn with_weights(params: SearchParams, w: [i32; FEATURES]) -> SearchParams {
    let mut p = params;
    p.eval[..FEATURES].copy_from_slice(&w);
    p
}

/// Reads weights written as [`FEATURES`] integers separated by commas (the form of the option
/// `GiveAndTakeWeights`), each within ±[`WEIGHT_LIMIT`].
pub fn parse_weights(text: &str) -> Result<[i32; FEATURES], String> {
    let parts: Vec<&str> = text.split(',').map(str::trim).collect();
    if parts.len() != FEATURES {
        return Err(format!(
            "{} values, {FEATURES} expected ({})",
            parts.len(),
            FEATURE_NAMES.join(", ")
        ));
    }
    let mut w = [0; FEATURES];
    for (i, p) in parts.iter().enumerate() {
        w[i] = p
            .parse::<i32>()
            .ok()
            .filter(|v| v.abs() <= WEIGHT_LIMIT)
            .ok_or_else(|| {
                format!(
                    "{} '{p}' is not a whole number within -{WEIGHT_LIMIT}..{WEIGHT_LIMIT}",
                    FEATURE_NAMES[i]
                )
            })?;
    }
    Ok(w)
}

/// The largest weight magnitude accepted: the evaluation stays far from the mate scores.
pub const WEIGHT_LIMIT: i32 = 2000;

/// The engine option `GiveAndTakeWeights`: the evaluation's weights, for tuning matches.
pub const WEIGHTS_OPTION: ParamOption = ParamOption {
    name: "GiveAndTakeWeights",
    declaration: || {
        format!(
            "option name GiveAndTakeWeights type string default {}",
            format_weights(&WEIGHTS)
        )
    },
    apply: |text, params| Ok(with_weights(params, parse_weights(text)?)),
};

/// The weights written as the option `GiveAndTakeWeights` takes them.
pub fn format_weights(w: &[i32; FEATURES]) -> String {
    w.map(|v| v.to_string()).join(",")
}

/// The counts the evaluation weighs, the side to move's minus the opponent's (the tempo is 1).
pub type Features = [i32; FEATURES];

/// Files a..g (a step to the right stays on the board).
const NOT_FILE_H: u64 = 0x7f7f_7f7f_7f7f_7f7f;
/// Files b..h (a step to the left stays on the board).
const NOT_FILE_A: u64 = 0xfefe_fefe_fefe_fefe;

impl GiveAndTake {
    /// The counts of `color`'s pieces: man, king, advance, king mobility, man mobility and
    /// near-crown (the first six features).
    fn side_counts(&self, color: Color, out: &mut Features, sign: i32) {
        let occ = self.occupied();
        let empty = !occ;
        let men = self.pieces(color) & !self.kings();
        let kings = self.pieces(color) & self.kings();
        out[MAN] += sign * men.count_ones() as i32;
        out[KING] += sign * kings.count_ones() as i32;
        let (forward, start_rank) = match color {
            Color::White => ((men << 8) & empty, 2),
            Color::Black => ((men >> 8) & empty, 5),
        };
        let mut advance = 0;
        let mut m = men;
        while m != 0 {
            let rank = (m.trailing_zeros() / 8) as i32;
            m &= m - 1;
            advance += match color {
                Color::White => rank - start_rank,
                Color::Black => start_rank - rank,
            }
            .max(0);
        }
        out[2] += sign * advance;
        let mut king_mobility = 0;
        let mut k = kings;
        while k != 0 {
            let sq = k.trailing_zeros() as u8;
            k &= k - 1;
            for d in DIRS {
                let mut s = step(sq, d);
                while let Some(x) = s.filter(|&x| occ & bit(x) == 0) {
                    king_mobility += 1;
                    s = step(x, d);
                }
            }
        }
        out[3] += sign * king_mobility;
        let sideways = ((men & NOT_FILE_H) << 1) & empty;
        let sideways_left = ((men & NOT_FILE_A) >> 1) & empty;
        out[4] += sign
            * (forward.count_ones() + sideways.count_ones() + sideways_left.count_ones()) as i32;
        let crown_rank = far_rank(color);
        let near = match color {
            Color::White => crown_rank - 1,
            Color::Black => crown_rank + 1,
        };
        out[5] += sign * (men & (0xffu64 << (8 * near))).count_ones() as i32;
    }

    /// The evaluation features of the position, seen from the side to move.
    pub fn features(&self) -> Features {
        let mut f = [0; FEATURES];
        self.side_counts(self.side_to_move(), &mut f, 1);
        self.side_counts(!self.side_to_move(), &mut f, -1);
        f[6] = 1;
        f
    }

    /// The evaluation in centipawns for the side to move: the features weighed by `weights`.
    pub fn weighed(&self, weights: &[i32; FEATURES]) -> i32 {
        self.features()
            .iter()
            .zip(weights)
            .map(|(&f, w)| f * w)
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_are_read_back_as_written_and_bad_ones_are_refused() {
        assert_eq!(parse_weights(&format_weights(&WEIGHTS)), Ok(WEIGHTS));
        assert_eq!(
            parse_weights(" 1, -2,3,4 ,5,6,7"),
            Ok([1, -2, 3, 4, 5, 6, 7])
        );
        for bad in [
            "1,2,3",
            "1,2,3,4,5,6,7,8",
            "1,2,x,4,5,6,7",
            "1,2,3,4,5,6,2001",
            "",
        ] {
            assert!(parse_weights(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn features_count_each_side_from_the_side_to_move() {
        // White: men on c3 and e7 (one step from crowning), a king on d5; Black: men on c6
        // and h8.
        let pos = GiveAndTake::from_fen("7m/4M3/2m5/3K4/8/2M5/8/8 w - 5").unwrap();
        let f = pos.features();
        assert_eq!(f[MAN], 0, "two men each");
        assert_eq!(f[KING], 1);
        // White men: c3 on rank index 2 → 0, e7 on rank index 6 → 4. Black: c6 on rank index 5
        // → 0, h8 → 0 (behind its start).
        assert_eq!(f[2], 4);
        // King on d5: up d6 d7 d8, down d4 d3 d2 d1, right e5 f5 g5 h5, left c5 b5 a5.
        assert_eq!(f[3], 3 + 4 + 4 + 3);
        // White men: c3 → c4, b3, d3 (3); e7 → e8, d7, f7 (3). Black: c6 → c5, b6, d6 (3);
        // h8 → h7, g8 (2).
        assert_eq!(f[4], 6 - 5);
        assert_eq!(f[5], 1, "e7 is one step from White's far rank");
        assert_eq!(f[6], 1);
        let mirrored = GiveAndTake::from_fen("7m/4M3/2m5/3K4/8/2M5/8/8 b - 5").unwrap();
        let g = mirrored.features();
        for i in 0..6 {
            assert_eq!(g[i], -f[i], "feature {}", FEATURE_NAMES[i]);
        }
    }
}

//! `tsubame-match`: plays USI engines against each other in shogi, minishogi (and the other games
//! tsubame knows), refereed by tsubame's own rules, and reports results with Elo, LOS and SPRT.

pub mod engine;
pub mod games;
pub mod openings;
pub mod referee;
pub mod runner;
pub mod stats;

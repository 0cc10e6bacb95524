//! The games tsubame plays, each on the shared core.

pub mod giveandtake;
pub mod minishogi;
pub mod nana;
pub mod shogi;

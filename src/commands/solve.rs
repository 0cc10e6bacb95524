//! `tsubame solve`: a game with an exact table solved by retrograde analysis, its table written
//! to a file.

use crate::games::GameId;

/// Builds, verifies and writes `game`'s exact table to `out` (the game's file name when `None`),
/// printing the report; progress on standard error.
pub fn run(game: GameId, out: Option<std::path::PathBuf>) -> Result<(), String> {
    let Some(exact) = game.info().exact else {
        return Err(format!(
            "cannot solve '{game}' (only {})",
            GameId::names_where(|g| g.info().exact.is_some(), ", ")
        ));
    };
    let out = out.unwrap_or_else(|| exact.default_file.into());
    check_writable(&out).map_err(|e| format!("{e}; nothing computed"))?;
    // Progress on standard error: bars on a terminal, else a line per phase and minute.
    for line in (exact.solve)(Some(&out), true)? {
        println!("{line}");
    }
    Ok(())
}

/// Checks that `path` can be written, before a long computation whose result goes there; leaves
/// an existing file as it is.
pub fn check_writable(path: &std::path::Path) -> Result<(), String> {
    let existed = path.exists();
    std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    if !existed {
        let _ = std::fs::remove_file(path);
    }
    Ok(())
}

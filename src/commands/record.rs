//! `tsubame record`: a game written in a record format a game declares, or a record read back
//! into its USI `position` line.

use crate::games::GameId;

/// `tsubame record`: writes the game in `format`, or reads the record file `read` and prints
/// its `position` line.
pub fn run(
    format: Option<&str>,
    sfen: &str,
    moves: &[String],
    read: Option<&str>,
) -> Result<(), String> {
    match (read, format) {
        (Some(path), _) => {
            let text = if path == "-" {
                std::io::read_to_string(std::io::stdin())
            } else {
                std::fs::read_to_string(path)
            }
            .map_err(|e| format!("cannot read {path}: {e}"))?;
            let format = GameId::ALL
                .iter()
                .flat_map(|g| g.info().records)
                .find(|f| (f.detect)(&text))
                .ok_or("no game reads records")?;
            let crate::games::info::GameRecord { sfen, moves, .. } = (format.read)(&text)?;
            let mut line = format!("position sfen {sfen}");
            if !moves.is_empty() {
                line.push_str(" moves ");
                line.push_str(&moves.join(" "));
            }
            println!("{line}");
        }
        (None, Some(name)) => {
            let (_, format) =
                GameId::record_format(name).ok_or_else(|| format!("unknown format '{name}'"))?;
            print!(
                "{}",
                (format.write)(&crate::games::info::RecordWrite {
                    sfen,
                    moves,
                    variations: &[],
                    ending: "",
                })?
            );
        }
        (None, None) => return Err("give --format or --read".into()),
    }
    Ok(())
}

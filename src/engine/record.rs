//! The USI record: a game written as the arguments of USI's `position` command (`startpos` or
//! `sfen <SFEN>`, then `moves …`), the one record format every game has. The USI loop reads its
//! commands with it and the page writes and reads its records with it.

use super::session::Start;
use crate::core::text::excerpt;

/// Reads the arguments of USI's `position`: `startpos|sfen <SFEN> [moves …]` (or a bare SFEN,
/// without the word `sfen`), words separated by any ASCII whitespace, `moves` a word of its own. The error says what is wrong (the engine then
/// keeps its position).
pub fn position_args(args: &str) -> Result<(Start, Vec<String>), String> {
    let words: Vec<&str> = args.split_ascii_whitespace().collect();
    let (setup, rest) = match words.iter().position(|&w| w == "moves") {
        Some(i) => (&words[..i], &words[i + 1..]),
        None => (&words[..], &[][..]),
    };
    let start = match setup {
        ["startpos"] => Start::StartPos,
        ["startpos", extra, ..] => {
            return Err(format!(
                "unexpected '{}' after 'startpos' (only 'moves ...' may follow); position kept",
                excerpt(extra, 40)
            ));
        }
        ["sfen", fields @ ..] => Start::Sfen(fields.join(" ")),
        // A bare SFEN, as YaneuraOu reads it (cshogi's `position(sfen=…)` sends that): a board
        // of several ranks, then the other fields.
        [board, ..] if board.contains('/') => Start::Sfen(setup.join(" ")),
        _ => {
            return Err(format!(
                "position needs 'startpos' or 'sfen <SFEN>' (or a bare SFEN), got '{}'; position kept",
                excerpt(&setup.join(" "), 100)
            ));
        }
    };
    Ok((start, rest.iter().map(|m| m.to_string()).collect()))
}

/// The arguments of USI's `position` command for `start` (an SFEN, or `startpos`) and `moves`.
pub fn position_text(start: &str, moves: &[String]) -> String {
    let mut text = if start.trim() == "startpos" {
        "startpos".to_string()
    } else {
        format!("sfen {}", start.trim())
    };
    if !moves.is_empty() {
        text.push_str(" moves ");
        text.push_str(&moves.join(" "));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_must_be_a_word_of_its_own() {
        let (start, moves) = position_args("startpos moves 7g7f").unwrap();
        assert_eq!((start, moves), (Start::StartPos, vec!["7g7f".to_string()]));
        let e = position_args("startpos moves1g1f").unwrap_err();
        assert!(e.contains("'moves1g1f'"), "{e}");
        assert!(position_args("startposmoves 7g7f").is_err());
        let sfen = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
        // The glued word stays in the SFEN, which the game then refuses.
        let (start, moves) = position_args(&format!("sfen {sfen} moves7g7f")).unwrap();
        assert_eq!(start, Start::Sfen(format!("{sfen} moves7g7f")));
        assert!(moves.is_empty());
    }

    #[test]
    fn tabs_separate_words_as_spaces_do() {
        let sfen = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL\tb - 1";
        let (start, moves) = position_args(&format!("sfen\t{sfen}\tmoves\t7g7f \t3c3d")).unwrap();
        assert_eq!(moves.len(), 2);
        assert_eq!(
            start,
            Start::Sfen("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1".into())
        );
        assert_eq!(position_args("startpos\tmoves\t2g2f").unwrap().1.len(), 1);
    }

    #[test]
    fn a_bare_sfen_is_read_as_after_the_word_sfen() {
        let sfen = "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1";
        assert_eq!(
            position_args(&format!("{sfen} moves G*5b")).unwrap(),
            position_args(&format!("sfen {sfen} moves G*5b")).unwrap()
        );
        let e = position_args("bogus b - 1").unwrap_err();
        assert!(
            e.contains("position needs 'startpos' or 'sfen <SFEN>'"),
            "{e}"
        );
    }

    #[test]
    fn written_lines_read_back() {
        let moves = vec!["7g7f".to_string(), "3c3d".to_string()];
        let text = position_text("startpos", &moves);
        assert_eq!(text, "startpos moves 7g7f 3c3d");
        assert_eq!(position_args(&text).unwrap(), (Start::StartPos, moves));
        let text = position_text("3/3/3 b KRBkrb 1", &[]);
        assert_eq!(
            position_args(&text).unwrap(),
            (Start::Sfen("3/3/3 b KRBkrb 1".into()), vec![])
        );
    }
}

//! `tsubame datagen`: the data file's games do not depend on threads, a restarted run appends
//! only the missing games after cutting a damaged end, damage is found, and the records are what
//! the issue asks for (quiet positions, legal moves, one result per game), in shogi, minishogi
//! and Give and Take.

use std::collections::HashMap;
use std::path::PathBuf;
use std::process::Command;

use tsubame::commands::datagen::format::{self, GameResult};
use tsubame::commands::datagen::{Config, run};
use tsubame::core::moves::{GameMove, ListStore, MoveList};
use tsubame::core::pack::Packable;
use tsubame::core::search_game::SearchGame;
use tsubame::games::giveandtake::GiveAndTake;
use tsubame::games::minishogi::Minishogi;
use tsubame::games::shogi::Shogi;

fn temp(name: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("tsubame-datagen-{}-{name}", std::process::id()));
    let _ = std::fs::remove_file(&p);
    p
}

fn config(games: u64, threads: usize) -> Config {
    Config {
        games,
        nodes: Some(400),
        depth: None,
        threads,
        random_plies: 4,
        seed: 7,
        max_plies: 200,
        hash_mib: 4,
        network: None,
    }
}

/// The records' bytes of each game of the file, by game number.
fn games_of<G: Packable>(path: &PathBuf) -> HashMap<u64, Vec<u8>> {
    let bytes = std::fs::read(path).unwrap();
    let scan = format::scan::<G>(&bytes).unwrap();
    assert_eq!(scan.skipped, 0, "{:?}", scan.skip_reason);
    let len = format::record_len::<G>();
    scan.frames
        .iter()
        .map(|f| (f.game, bytes[f.offset..f.offset + f.count * len].to_vec()))
        .collect()
}

#[test]
fn games_do_not_depend_on_the_number_of_threads() {
    let (one, two) = (temp("one"), temp("two"));
    let s1 = run::<Minishogi>(&config(8, 1), &one, false).unwrap();
    let s2 = run::<Minishogi>(&config(8, 2), &two, false).unwrap();
    assert_eq!((s1.games_played, s2.games_played), (8, 8));
    assert!(s1.positions > 8, "{} positions", s1.positions);
    assert_eq!(s1.positions, s2.positions);
    let (a, b) = (games_of::<Minishogi>(&one), games_of::<Minishogi>(&two));
    assert_eq!(a.len(), 8);
    assert_eq!(a, b);
    // Another seed plays other games.
    let other = temp("other");
    let cfg = Config {
        seed: 8,
        ..config(8, 2)
    };
    run::<Minishogi>(&cfg, &other, false).unwrap();
    assert_ne!(games_of::<Minishogi>(&other), a);
    for p in [one, two, other] {
        let _ = std::fs::remove_file(p);
    }
}

#[test]
fn a_restarted_run_cuts_the_damaged_end_and_plays_only_missing_games() {
    let (fresh, killed) = (temp("fresh"), temp("killed"));
    run::<Minishogi>(&config(6, 2), &fresh, false).unwrap();
    // A run killed in the middle of writing its fourth game.
    run::<Minishogi>(&config(4, 1), &killed, false).unwrap();
    let bytes = std::fs::read(&killed).unwrap();
    let scan = format::scan::<Minishogi>(&bytes).unwrap();
    let last = scan.frames[3];
    let cut = last.offset + last.count * format::record_len::<Minishogi>() / 2;
    std::fs::write(&killed, &bytes[..cut]).unwrap();
    let damaged = format::scan::<Minishogi>(&bytes[..cut]).unwrap();
    assert_eq!(damaged.frames.len(), 3);
    assert!(damaged.skipped > 0);
    assert!(damaged.skip_reason.unwrap().contains("cut short"));

    let s = run::<Minishogi>(&config(6, 2), &killed, false).unwrap();
    assert_eq!(s.tail_cut, damaged.skipped);
    assert_eq!((s.games_present, s.games_played), (3, 3));
    assert_eq!(
        games_of::<Minishogi>(&killed),
        games_of::<Minishogi>(&fresh)
    );
    // Once complete, a further run plays nothing.
    let again = run::<Minishogi>(&config(6, 2), &killed, false).unwrap();
    assert_eq!((again.games_present, again.games_played), (6, 0));
    let _ = std::fs::remove_file(fresh);
    let _ = std::fs::remove_file(killed);
}

#[test]
fn a_damaged_game_and_a_file_of_another_game_are_found() {
    let path = temp("damaged");
    run::<Minishogi>(&config(3, 2), &path, false).unwrap();
    let mut bytes = std::fs::read(&path).unwrap();
    let scan = format::scan::<Minishogi>(&bytes).unwrap();
    let second = scan.frames[1];
    bytes[second.offset + 3] ^= 0x40;
    let damaged = format::scan::<Minishogi>(&bytes).unwrap();
    assert_eq!(damaged.frames, scan.frames[..1]);
    assert!(damaged.skip_reason.unwrap().contains("checksum"));
    assert_eq!(
        damaged.valid_len,
        scan.frames[1].offset - format::FRAME_HEADER_LEN
    );
    let err = format::scan::<Shogi>(&bytes).unwrap_err();
    assert!(err.contains("minishogi"), "{err}");
    assert!(format::scan::<Minishogi>(b"not a data file at all, no sir").is_err());
    let _ = std::fs::remove_file(path);
}

/// Every record: a position not in check, a legal move that neither captures nor promotes, a
/// score that is no mate; within a game, one result seen from both sides.
fn check_records<G: SearchGame + Packable>(path: &PathBuf) -> usize {
    let bytes = std::fs::read(path).unwrap();
    let (records, scan) = format::read_all::<G>(&bytes).unwrap();
    let mut at = 0;
    for f in &scan.frames {
        let game = &records[at..at + f.count];
        at += f.count;
        let mut by_side = HashMap::new();
        for r in game {
            assert!(!r.pos.in_check(), "{}", r.pos.to_sfen());
            let mv = r.pos.move_from_code(r.mv);
            let mut list = MoveList::<G::Move>::new();
            r.pos.legal_moves(&mut list);
            assert!(
                mv.code() == r.mv && list.contains(&mv),
                "{} {}",
                r.pos.to_sfen(),
                r.mv
            );
            assert!(!r.pos.is_capture(mv) && !mv.is_promotion());
            assert!(r.score.abs() < 30000);
            let seen = *by_side.entry(r.pos.side_to_move()).or_insert(r.result);
            assert_eq!(seen, r.result, "one result per side within a game");
        }
        let results: Vec<GameResult> = by_side.values().copied().collect();
        if results.len() == 2 {
            let mut t: Vec<f32> = results.iter().map(|r| r.target()).collect();
            t.sort_by(f32::total_cmp);
            assert!(t == [0.0, 1.0] || t == [0.5, 0.5], "{results:?}");
        }
    }
    records.len()
}

#[test]
fn records_are_quiet_positions_with_the_games_result() {
    let mini = temp("mini-records");
    run::<Minishogi>(&config(6, 2), &mini, false).unwrap();
    assert!(check_records::<Minishogi>(&mini) > 6);
    let shogi = temp("shogi-records");
    let cfg = Config {
        max_plies: 80,
        ..config(2, 2)
    };
    run::<Shogi>(&cfg, &shogi, false).unwrap();
    assert!(check_records::<Shogi>(&shogi) > 20);
    let gt = temp("giveandtake-records");
    run::<GiveAndTake>(&config(4, 2), &gt, false).unwrap();
    assert!(check_records::<GiveAndTake>(&gt) > 20);
    let _ = std::fs::remove_file(mini);
    let _ = std::fs::remove_file(shogi);
    let _ = std::fs::remove_file(gt);
}

#[test]
fn the_command_line_appends_and_reports() {
    let path = temp("cli");
    let datagen = |games: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_tsubame"))
            .args(["datagen", "--variant", "minishogi", "--games", games])
            .args(["--nodes", "300", "--random-plies", "4", "--out"])
            .arg(&path)
            .output()
            .unwrap();
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(out.status.success(), "{err}");
        (String::from_utf8(out.stdout).unwrap(), err)
    };
    let (out, err) = datagen("2");
    assert!(out.starts_with("2 games played, 0 already in the file"));
    // Not a terminal: progress as lines on standard error, not a bar.
    assert!(err.contains("datagen: started, 2 games\n"), "{err}");
    assert!(err.contains("datagen: done, 2 in "), "{err}");
    assert!(!err.contains('\r'), "{err}");
    let (out, _) = datagen("3");
    assert!(out.starts_with("1 games played, 2 already in the file"));
    let out = Command::new(env!("CARGO_BIN_EXE_tsubame"))
        .args(["datainfo", "--variant", "minishogi", "--show", "1"])
        .arg(&path)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains(": 3 games (seeds [1])"), "{text}");
    assert_eq!(text.lines().count(), 2, "{text}");
    let _ = std::fs::remove_file(path);
}

/// The numbers of the games in a data file, checking that it reads to its end with no damage.
fn game_numbers(path: &PathBuf) -> Vec<u64> {
    let mut games: Vec<u64> = games_of::<Minishogi>(path).into_keys().collect();
    games.sort_unstable();
    games
}

fn datagen_command(path: &PathBuf, games: u64) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_tsubame"));
    c.args([
        "datagen",
        "--variant",
        "minishogi",
        "--games",
        &games.to_string(),
    ])
    .args([
        "--nodes",
        "300",
        "--random-plies",
        "4",
        "--threads",
        "1",
        "--out",
    ])
    .arg(path);
    c
}

/// `tsubame datagen` killed with SIGKILL while it writes: the file it leaves reads without
/// damage, or with only its unfinished last frame to cut, and the same command run again plays
/// exactly the games it lacks, giving the same games as a run never killed.
#[cfg(unix)]
#[test]
fn datagen_killed_mid_write_goes_on_from_its_file() {
    let (killed, fresh) = (temp("sigkill"), temp("sigkill-fresh"));
    let games = 40;
    let mut child = datagen_command(&killed, games)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while std::fs::metadata(&killed).map_or(0, |m| m.len()) < 2000 {
        assert!(start.elapsed().as_secs() < 60);
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let bytes = std::fs::read(&killed).unwrap();
    let scan = format::scan::<Minishogi>(&bytes).unwrap();
    assert!(!scan.frames.is_empty());
    assert!((scan.frames.len() as u64) < games, "killed before the end");
    let out = datagen_command(&killed, games).output().unwrap();
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    let expected = format!(
        "{} games played, {} already in the file",
        games - scan.frames.len() as u64,
        scan.frames.len()
    );
    assert!(text.starts_with(&expected), "{text}");
    assert_eq!(game_numbers(&killed), (0..games).collect::<Vec<_>>());
    assert!(datagen_command(&fresh, games).status().unwrap().success());
    assert_eq!(
        games_of::<Minishogi>(&killed),
        games_of::<Minishogi>(&fresh)
    );
    let _ = (std::fs::remove_file(killed), std::fs::remove_file(fresh));
}

/// A disk that fills up under `tsubame datagen` (the largest file size it may write, `ulimit -f`,
/// with SIGXFSZ ignored so that the write fails as on a full disk): it stops with an error that
/// names the file and the cause, the file keeps only whole games, and the same command goes on
/// once there is room.
#[cfg(unix)]
#[test]
fn datagen_on_a_full_disk_stops_with_a_whole_file_and_goes_on_later() {
    let path = temp("full-disk");
    let games = 30;
    let script = format!(
        "trap '' XFSZ; ulimit -f 8; exec '{}' datagen --variant minishogi --games {games} \
         --nodes 300 --random-plies 4 --threads 1 --out '{}'",
        env!("CARGO_BIN_EXE_tsubame"),
        path.display()
    );
    let out = Command::new("sh").arg("-c").arg(&script).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{err}");
    assert!(err.contains("File too large"), "{err}");
    assert!(err.contains("goes on from them"), "{err}");
    assert!(std::fs::metadata(&path).unwrap().len() <= 8 * 512);
    let kept = game_numbers(&path).len();
    assert!(kept > 0 && kept < games as usize, "{kept} games kept");
    assert!(datagen_command(&path, games).status().unwrap().success());
    assert_eq!(game_numbers(&path), (0..games).collect::<Vec<_>>());
    let _ = std::fs::remove_file(path);
}

/// A device that is always full (`/dev/full`): the error names it and the cause, and the device
/// is left alone (a data file whose header could not be written is removed, a device never).
#[cfg(target_os = "linux")]
#[test]
fn datagen_into_dev_full_says_the_disk_is_full_and_leaves_the_device() {
    let full = std::path::Path::new("/dev/full");
    if !full.exists() {
        return; // a machine without it has nothing to check here
    }
    let out = datagen_command(&full.to_path_buf(), 2).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(err.contains("/dev/full: No space left on device"), "{err}");
    assert!(full.exists(), "the device is still there");
}

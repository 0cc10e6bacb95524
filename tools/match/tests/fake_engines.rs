//! Drives the runner with the fake engines of `engine-tests/fake-engines` and checks that each
//! misbehaviour is adjudicated as docs/rules.md says.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// One line of results.tsv.
#[derive(Debug)]
struct Row {
    black: String,
    white: String,
    result: String,
    reason: String,
    detail: String,
    position: String,
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn fake(name: &str) -> String {
    root()
        .join("engine-tests/fake-engines")
        .join(format!("{name}.py"))
        .to_string_lossy()
        .into_owned()
}

/// The output directory of a test's match.
fn dir_of(test: &str) -> PathBuf {
    std::env::temp_dir().join(format!("tsubame-match-test-{}-{test}", std::process::id()))
}

/// The same, emptied.
fn out_dir(test: &str) -> PathBuf {
    let d = dir_of(test);
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn runner(out: &Path, args: &[String]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_tsubame-match"));
    c.arg("--out")
        .arg(out)
        .arg("--concurrency")
        .arg("1")
        .args(args);
    c
}

fn rows(out: &Path) -> Vec<Row> {
    let text = std::fs::read_to_string(out.join("results.tsv")).expect("results.tsv");
    let mut rows: Vec<(u64, Row)> = text
        .lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(f.len(), 9, "{l}");
            (
                f[0].parse().unwrap(),
                Row {
                    black: f[2].into(),
                    white: f[3].into(),
                    result: f[4].into(),
                    reason: f[5].into(),
                    detail: f[7].into(),
                    position: f[8].into(),
                },
            )
        })
        .collect();
    rows.sort_by_key(|(n, _)| *n);
    rows.into_iter().map(|(_, r)| r).collect()
}

/// Runs a match and returns its games (in game order) and its output.
fn play(test: &str, args: &[&str]) -> (Vec<Row>, Output) {
    let out = out_dir(test);
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    let output = runner(&out, &args).output().expect("runs");
    assert!(
        output.status.success(),
        "{test}: {}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    (rows(&out), output)
}

fn engine(name: &str) -> String {
    format!("cmd={}", fake(name))
}

/// The `go` commands the protocol log `text` shows sent to the engine tagged `tag` (`e1.`, `e2.`).
fn go_lines(text: &str, tag: &str) -> Vec<String> {
    text.lines()
        .filter(|l| l.contains(tag) && l.contains("> go "))
        .map(str::to_string)
        .collect()
}

/// Runs a match on `args` that the runner must refuse; returns its standard error.
fn refused(test: &str, args: &[&str]) -> String {
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    let output = runner(&out_dir(test), &args).output().unwrap();
    assert!(!output.status.success());
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// `name` lost both games of the pair, for `reason`.
fn assert_loses(rows: &[Row], name: &str, reason: &str) {
    assert!(!rows.is_empty());
    for r in rows {
        let expected = if r.black == name { "0-1" } else { "1-0" };
        assert!(r.black == name || r.white == name, "{r:?}");
        assert_eq!(r.result, expected, "{r:?}");
        assert_eq!(r.reason, reason, "{r:?}");
    }
}

#[test]
fn illegal_move_loses() {
    for game in ["minishogi", "shogi"] {
        let (rows, _) = play(
            &format!("illegal-{game}"),
            &[
                "--game",
                game,
                "--engine",
                &engine("illegal-move"),
                "--engine",
                &engine("repeater"),
                "--random-plies",
                "0",
                "--games",
                "2",
                "--byoyomi",
                "2000",
            ],
        );
        assert_eq!(rows.len(), 2);
        assert_loses(&rows, "illegal-move", "illegal move");
        assert!(rows[0].detail.contains("'1e2e'") || rows[0].detail.contains("'1i2i'"));
    }
}

#[test]
fn time_forfeit_loses_and_the_engine_is_replaced() {
    let (rows, _) = play(
        "slow",
        &[
            "--game",
            "minishogi",
            "--engine",
            &engine("slow"),
            "--engine",
            &engine("repeater"),
            "--random-plies",
            "0",
            "--games",
            "4",
            "--byoyomi",
            "300",
            "--grace",
            "200",
        ],
    );
    assert_eq!(rows.len(), 4);
    assert_loses(&rows, "slow", "time forfeit");
    // The slow engine played its two normal moves in every game: it was restarted each time.
    for r in &rows {
        assert!(r.detail.contains("limit 300 + grace 200"), "{r:?}");
    }
}

#[test]
fn sudden_death_and_fischer_clocks_are_kept() {
    // 400 ms for the game with no byoyomi: the slow engine (sleeping 1 s) loses on time.
    let (rows, _) = play(
        "sudden",
        &[
            "--game",
            "minishogi",
            "--engine",
            &engine("slow"),
            "arg=--sleep",
            "arg=1",
            "--engine",
            &engine("repeater"),
            "--random-plies",
            "0",
            "--games",
            "2",
            "--time",
            "400",
            "--grace",
            "100",
        ],
    );
    assert_loses(&rows, "slow", "time forfeit");
    // With a Fischer increment large enough, the same sleeper is in time and the game goes on
    // to the repetition (Black, to move at the fourth occurrence, loses).
    let (rows, _) = play(
        "fischer",
        &[
            "--game",
            "minishogi",
            "--engine",
            &engine("slow"),
            "arg=--sleep",
            "arg=0.3",
            "--engine",
            &engine("repeater"),
            "--random-plies",
            "0",
            "--games",
            "2",
            "--time",
            "100",
            "--inc",
            "600",
            "--grace",
            "300",
        ],
    );
    for r in &rows {
        assert_eq!(
            (r.result.as_str(), r.reason.as_str()),
            ("0-1", "repetition"),
            "{r:?}"
        );
    }
}

#[test]
fn silence_under_a_node_limit_loses() {
    let (rows, _) = play(
        "silent",
        &[
            "--game",
            "shogi",
            "--engine",
            &engine("slow"),
            "--engine",
            &engine("repeater"),
            "--random-plies",
            "0",
            "--games",
            "2",
            "--nodes",
            "1000",
            "--nodes-timeout",
            "400",
        ],
    );
    assert_loses(&rows, "slow", "unresponsive");
}

#[test]
fn crash_loses_and_the_match_goes_on() {
    let (rows, output) = play(
        "crash",
        &[
            "--game",
            "minishogi",
            "--engine",
            &engine("crash-mid-game"),
            "--engine",
            &engine("repeater"),
            "--random-plies",
            "0",
            "--games",
            "6",
            "--byoyomi",
            "2000",
        ],
    );
    assert_eq!(rows.len(), 6);
    assert_loses(&rows, "crash-mid-game", "crash");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("6 games finished"), "{stdout}");
    assert!(
        stdout.contains("Score of crash-mid-game vs repeater: 0 - 6 - 0"),
        "{stdout}"
    );
}

#[test]
fn wrong_declaration_loses() {
    for game in ["minishogi", "shogi"] {
        let (rows, _) = play(
            &format!("wrong-win-{game}"),
            &[
                "--game",
                game,
                "--engine",
                &engine("wrong-win"),
                "--engine",
                &engine("repeater"),
                "--random-plies",
                "0",
                "--games",
                "2",
                "--byoyomi",
                "2000",
            ],
        );
        assert_loses(&rows, "wrong-win", "wrong declaration");
    }
}

/// Black to move may declare under CSARule27 (28 points, 10 pieces in camp) but not under
/// CSARule24 (31 points); from the rules test data.
const DECLARABLE: &str =
    "sfen 2GK1+L3/2+P+S+R1G+N1/3+B1GG2/9/+r8/1+bs6/+p+p3+n3/2+n2k3/6+p2 b 2SN7P3l7p 375";

#[test]
fn declaration_is_judged_by_the_entering_king_rule() {
    let dir = out_dir("declare-openings");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("openings.txt");
    std::fs::write(&file, format!("# a declarable position\n{DECLARABLE}\n")).unwrap();
    let f = file.to_string_lossy().into_owned();
    let declarer = engine("wrong-win");
    let (rows, _) = play(
        "declare-27",
        &[
            "--engine",
            &declarer,
            "arg=--after",
            "arg=0",
            "name=declarer",
            "--engine",
            &engine("repeater"),
            "--openings",
            &f,
            "--games",
            "2",
            "--byoyomi",
            "2000",
        ],
    );
    assert_eq!(rows[0].black, "declarer");
    assert_eq!(
        (rows[0].result.as_str(), rows[0].reason.as_str()),
        ("1-0", "declaration")
    );
    let csa = std::fs::read_to_string(dir_of("declare-27").join("csa/game-00001.csa")).unwrap();
    assert!(csa.contains("%KACHI"), "{csa}");
    assert!(csa.contains("P1 *  * +KI+OU *"), "{csa}");
    let (rows, _) = play(
        "declare-24",
        &[
            "--engine",
            &declarer,
            "arg=--after",
            "arg=0",
            "name=declarer",
            "--engine",
            &engine("repeater"),
            "--openings",
            &f,
            "--games",
            "2",
            "--byoyomi",
            "2000",
            "--rule",
            "EnteringKingRule=CSARule24",
        ],
    );
    assert_eq!(
        (rows[0].result.as_str(), rows[0].reason.as_str()),
        ("0-1", "wrong declaration")
    );
}

#[test]
fn repetition_follows_each_games_rules() {
    // Minishogi, rule `initiator`: at the fourth occurrence (the start, Black to move) Black loses.
    let (rows, _) = play(
        "rep-mini",
        &[
            "--game",
            "minishogi",
            "--engine",
            &engine("repeater"),
            "--engine",
            &engine("repeater"),
            "--random-plies",
            "0",
            "--games",
            "2",
            "--byoyomi",
            "2000",
        ],
    );
    for r in &rows {
        assert_eq!(
            (r.result.as_str(), r.reason.as_str()),
            ("0-1", "repetition"),
            "{r:?}"
        );
        assert_eq!(r.position.split_whitespace().count(), 3 + 12, "{r:?}");
    }
    // `first-mover-loses` names the same player here; `sente-loses` too.
    for rule in ["sente-loses", "first-mover-loses"] {
        let (rows, _) = play(
            &format!("rep-mini-{rule}"),
            &[
                "--game",
                "minishogi",
                "--engine",
                &engine("repeater"),
                "--engine",
                &engine("repeater"),
                "--random-plies",
                "0",
                "--games",
                "2",
                "--byoyomi",
                "2000",
                "--rule",
                &format!("MinishogiRepetition={rule}"),
            ],
        );
        assert!(
            rows.iter()
                .all(|r| r.result == "0-1" && r.reason == "repetition")
        );
    }
    // Shogi: a draw, recorded as SENNICHITE.
    let (rows, _) = play(
        "rep-shogi",
        &[
            "--game",
            "shogi",
            "--engine",
            &engine("repeater"),
            "--engine",
            &engine("repeater"),
            "--random-plies",
            "0",
            "--games",
            "2",
            "--byoyomi",
            "2000",
        ],
    );
    for r in &rows {
        assert_eq!(
            (r.result.as_str(), r.reason.as_str()),
            ("1/2-1/2", "repetition")
        );
    }
    let csa = std::fs::read_to_string(dir_of("rep-shogi").join("csa/game-00001.csa")).unwrap();
    assert!(
        csa.starts_with("V2.2\nN+repeater-1\nN-repeater-2\n"),
        "{csa}"
    );
    assert!(csa.contains("PI\n+\n+5948OU\nT0\n-5162OU\n"), "{csa}");
    assert!(csa.contains("%SENNICHITE"), "{csa}");
}

#[test]
fn resignation_max_plies_and_score_adjudication() {
    let (rows, _) = play(
        "resign",
        &[
            "--game",
            "minishogi",
            "--engine",
            &engine("resigner"),
            "--engine",
            &engine("repeater"),
            "--random-plies",
            "0",
            "--games",
            "2",
            "--byoyomi",
            "2000",
        ],
    );
    assert_loses(&rows, "resigner", "resignation");
    let (rows, _) = play(
        "max-plies",
        &[
            "--game",
            "shogi",
            "--engine",
            &engine("repeater"),
            "--engine",
            &engine("repeater"),
            "--random-plies",
            "0",
            "--games",
            "2",
            "--byoyomi",
            "2000",
            "--max-plies",
            "6",
        ],
    );
    for r in &rows {
        assert_eq!(
            (r.result.as_str(), r.reason.as_str()),
            ("1/2-1/2", "max plies")
        );
        assert_eq!(r.position.split_whitespace().count(), 3 + 6, "{r:?}");
    }
    // Both engines say Black leads by 600: with --resign-score 500 over 2 moves each, Black
    // wins once four scored moves agree.
    let (rows, _) = play(
        "adjudicate",
        &[
            "--game",
            "shogi",
            "--engine",
            &engine("repeater"),
            "arg=--black-score",
            "arg=600",
            "--engine",
            &engine("repeater"),
            "arg=--black-score",
            "arg=600",
            "--random-plies",
            "0",
            "--games",
            "2",
            "--byoyomi",
            "2000",
            "--resign-score",
            "500",
            "--resign-moves",
            "2",
        ],
    );
    for r in &rows {
        assert_eq!(
            (r.result.as_str(), r.reason.as_str()),
            ("1-0", "adjudication (score)")
        );
        assert_eq!(r.position.split_whitespace().count(), 3 + 4, "{r:?}");
    }
}

#[test]
fn three_engines_play_a_round_robin() {
    let (rows, output) = play(
        "round-robin",
        &[
            "--game",
            "minishogi",
            "--engine",
            &engine("repeater"),
            "--engine",
            &engine("resigner"),
            "--engine",
            &engine("illegal-move"),
            "--random-plies",
            "0",
            "--games",
            "6",
            "--byoyomi",
            "2000",
        ],
    );
    assert_eq!(rows.len(), 6);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("Score of repeater vs resigner: 2 - 0 - 0"),
        "{stdout}"
    );
    assert!(
        stdout.contains("Score of repeater vs illegal-move: 2 - 0 - 0"),
        "{stdout}"
    );
    // Resigner and illegal-move: whoever misbehaves first loses; both of its moves come on the
    // third own move, so Black (moving first) does.
    assert!(
        stdout.contains("Score of resigner vs illegal-move: 1 - 1 - 0"),
        "{stdout}"
    );
}

#[test]
fn a_broken_engine_command_is_refused_before_the_match() {
    let out = out_dir("no-engine");
    let output = runner(
        &out,
        &[
            "--engine".into(),
            "cmd=/nonexistent/engine".into(),
            "--engine".into(),
            engine("repeater"),
        ],
    )
    .output()
    .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("cannot start"));
}

#[test]
fn ctrl_c_records_unfinished_games_and_prints_the_results() {
    let out = out_dir("interrupt");
    let child = runner(
        &out,
        &[
            "--game".into(),
            "minishogi".into(),
            "--engine".into(),
            engine("slow"),
            "arg=--after".into(),
            "arg=1".into(),
            "--engine".into(),
            engine("repeater"),
            "--random-plies".into(),
            "0".into(),
            "--games".into(),
            "10".into(),
            "--byoyomi".into(),
            "30000".into(),
            "--log".into(),
            dir_of("interrupt-log.txt").to_string_lossy().into_owned(),
        ],
    )
    .stdout(Stdio::piped())
    .stderr(Stdio::piped())
    .spawn()
    .unwrap();
    // Wait until the slow engine has been asked for its second move (the third `go` of the
    // game), on which it sleeps.
    let log = dir_of("interrupt-log.txt");
    let waiting = Instant::now();
    loop {
        let text = std::fs::read_to_string(&log).unwrap_or_default();
        if text.matches("> go ").count() >= 3 {
            break;
        }
        assert!(
            waiting.elapsed() < Duration::from_secs(30),
            "the game did not start"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(200));
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let start = Instant::now();
    let output = child.wait_with_output().unwrap();
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "shutdown took too long"
    );
    assert_eq!(output.status.code(), Some(130));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("1 unfinished (interrupted)"), "{stdout}");
    let rows = rows(&out);
    assert_eq!(rows.len(), 1);
    assert_eq!(
        (rows[0].result.as_str(), rows[0].reason.as_str()),
        ("*", "interrupted")
    );
}

#[test]
fn sprt_stops_the_match() {
    // The repeater wins every game: with the half-pair prior in every pentanomial bucket, the
    // LLR passes the upper bound (elo0 0, elo1 5) at the 26th pair.
    let (rows, output) = play(
        "sprt",
        &[
            "--game",
            "minishogi",
            "--engine",
            &engine("repeater"),
            "--engine",
            &engine("resigner"),
            "--random-plies",
            "0",
            "--sprt",
            "--byoyomi",
            "2000",
            "--games",
            "400",
        ],
    );
    // The test decides after 26 pairs. Pairs the workers began before the verdict reached
    // them are finished too (a pair is never left half played): a few on a quiet machine,
    // more on a loaded one, but the match stops far short of its 200 pairs.
    let pairs = rows.len() / 2;
    assert!(
        rows.len() % 2 == 0 && (26..100).contains(&pairs),
        "{} rows",
        rows.len()
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains(&format!("[0, 0, 0, 0, {pairs}], {pairs} pairs")),
        "{stdout}"
    );
    assert!(stdout.contains("H1 accepted"), "{stdout}");
}

#[test]
fn a_refused_setting_stops_the_match_before_it_starts() {
    let out = out_dir("refused-option");
    let output = runner(
        &out,
        &[
            "--engine".into(),
            engine("repeater"),
            "--engine".into(),
            engine("resigner"),
            "option.Threads=0".into(),
        ],
    )
    .output()
    .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("resigner refused its settings"), "{stderr}");
    assert!(stderr.contains("Threads=0"), "{stderr}");
    assert!(
        stderr.contains("Threads 0 is out of range 1..8"),
        "{stderr}"
    );
    assert!(!out.join("results.tsv").exists() || rows(&out).is_empty());
    // An accepted value plays as usual.
    let (rows, _) = play(
        "accepted-option",
        &[
            "--engine",
            &engine("repeater"),
            "option.Threads=2",
            "--engine",
            &engine("resigner"),
            "--games",
            "2",
        ],
    );
    assert_eq!(rows.len(), 2);
}

/// Two games of `game` between two repeating engines named `names`, the second with the
/// engine setting `odds`, under the match's `limit` options: the output directory, the
/// runner's standard output and the `go` commands each engine was sent (from the protocol log).
fn odds_match(
    test: &str,
    game: &str,
    names: [&str; 2],
    odds: &str,
    limit: &[&str],
) -> (PathBuf, String, [Vec<String>; 2]) {
    let out = out_dir(test);
    let log = dir_of(&format!("{test}-log.txt"));
    let _ = std::fs::remove_file(&log);
    let (e, first, second) = (
        engine("repeater"),
        format!("name={}", names[0]),
        format!("name={}", names[1]),
    );
    let mut args = vec![
        "--game", game, "--engine", &e, &first, "--engine", &e, &second,
    ];
    args.extend([odds, "--random-plies", "0", "--games", "2"]);
    args.extend(limit);
    args.extend(["--log", log.to_str().unwrap()]);
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    let output = runner(&out, &args).output().expect("runs");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(output.status.success(), "{stdout}");
    // The log tags each line with the engine's number.
    let text = std::fs::read_to_string(&log).unwrap();
    let gos = [go_lines(&text, "e1."), go_lines(&text, "e2.")];
    assert!(gos.iter().all(|g| !g.is_empty()), "{text}");
    (out, stdout, gos)
}

#[test]
fn time_odds_give_each_engine_its_own_clock() {
    // Shogi (recorded in CSA), the second engine with 600 ms a move.
    let (out, stdout, [first, second]) = odds_match(
        "time-odds",
        "shogi",
        ["quick", "slow"],
        "byoyomi=600",
        &["--byoyomi", "200"],
    );
    assert!(stdout.contains("clock of quick: byoyomi 0.2s"), "{stdout}");
    assert!(stdout.contains("clock of slow: byoyomi 0.6s"), "{stdout}");
    // Each engine was told its own byoyomi.
    assert!(
        first.iter().all(|l| l.ends_with("byoyomi 200")),
        "{first:?}"
    );
    assert!(
        second.iter().all(|l| l.ends_with("byoyomi 600")),
        "{second:?}"
    );
    // The CSA records say both clocks.
    let csa = std::fs::read_dir(out.join("csa"))
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
        .collect::<Vec<_>>();
    assert_eq!(csa.len(), 2);
    assert!(
        csa.iter()
            .any(|r| r.contains("'time control: Black byoyomi 0.2s, White byoyomi 0.6s")),
        "{csa:?}"
    );
    // Odds need a clock.
    let (e, stderr) = (engine("repeater"), "needs a clock for the match");
    let args = [
        "--engine",
        &e,
        "byoyomi=600",
        "--engine",
        &e,
        "--nodes",
        "100",
    ];
    assert!(refused("time-odds-nodes", &args).contains(stderr));
}

#[test]
fn node_odds_give_each_engine_its_own_node_limit() {
    let (_, stdout, [first, second]) = odds_match(
        "node-odds",
        "minishogi",
        ["full", "odds"],
        "nodes=250",
        &["--nodes", "100"],
    );
    assert!(stdout.contains("clock of full: 100 nodes/move"), "{stdout}");
    assert!(stdout.contains("clock of odds: 250 nodes/move"), "{stdout}");
    assert!(
        first.iter().all(|l| l.ends_with("go nodes 100")),
        "{first:?}"
    );
    assert!(
        second.iter().all(|l| l.ends_with("go nodes 250")),
        "{second:?}"
    );
    // Node odds need a match at fixed nodes.
    let (e, stderr) = (engine("repeater"), "needs a match at --nodes");
    let args = [
        "--engine",
        &e,
        "nodes=250",
        "--engine",
        &e,
        "--byoyomi",
        "100",
    ];
    assert!(refused("node-odds-clock", &args).contains(stderr));
}

/// A disk that fills up while the records are written (here: the largest file size the runner
/// may write, `ulimit -f`, with SIGXFSZ ignored so that the write fails as on a full disk): the
/// runner says which file it could not write and why, starts no new game, keeps every row of
/// results.tsv whole, prints the results so far and exits with status 1.
#[cfg(unix)]
#[test]
fn a_full_disk_stops_the_match_and_leaves_whole_records() {
    let out = out_dir("full-disk");
    std::fs::create_dir_all(&out).unwrap();
    let runner = env!("CARGO_BIN_EXE_tsubame-match");
    let repeater = fake("repeater");
    // 2 blocks of 512 bytes: the header and a few rows fit, then a row does not.
    let script = format!(
        "trap '' XFSZ; ulimit -f 2; exec '{runner}' --out '{}' --concurrency 1 --game minishogi \
         --engine cmd='{repeater}' --engine cmd='{repeater}' --random-plies 0 --games 40 \
         --byoyomi 2000 --quiet",
        out.display()
    );
    let output = Command::new("sh").arg("-c").arg(&script).output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stdout}\n{stderr}");
    assert!(stderr.contains("cannot write"), "{stderr}");
    assert!(stderr.contains("results.tsv"), "{stderr}");
    assert!(stdout.contains("Stopped early"), "{stdout}");
    let text = std::fs::read(out.join("results.tsv")).unwrap();
    assert!(text.len() <= 1024);
    assert!(text.ends_with(b"\n"), "the last row is whole");
    let recorded = rows(&out);
    assert!(!recorded.is_empty() && recorded.len() < 40, "{recorded:?}");
    assert!(
        stdout.contains(&format!("{} games are in the records", recorded.len())),
        "{stdout}"
    );
}

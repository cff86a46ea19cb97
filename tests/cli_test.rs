//! `ludus test`: a game's tests/*.toml run headless and checked, one line per test and a
//! closing count; a failure names the expectation, the expected and the seen value, and leaves
//! a recording that `ludus replay` runs again; `--bless` writes the observed tick and hash;
//! malformed test files are diagnosed at their line and column; the exit codes.

mod support;

use std::path::{Path, PathBuf};
use support::Scratch;
use support::cli::{ludus, text};

/// A new game (`ludus new`, with its first test) in a fresh scratch folder: (folder, game).
/// The folder is removed when its guard drops.
fn new_game(name: &str) -> (Scratch, PathBuf) {
    let dir = support::cli::scratch(&format!("test-{name}"));
    let game = dir.join("g");
    let o = ludus().arg("new").arg(&game).output().unwrap();
    assert!(o.status.success(), "ludus new: {:?}", text(&o));
    (dir, game)
}

/// `ludus test ARGS...` run in `cwd`: (stdout, stderr, exit code).
fn test_in(cwd: &Path, args: &[&str]) -> (String, String, i32) {
    let o = ludus()
        .arg("test")
        .args(args)
        .current_dir(cwd)
        .output()
        .unwrap();
    let (out, err) = text(&o);
    (out, err, o.status.code().unwrap_or(-1))
}

/// The state hash `ludus sim` gives the template game after its first test's input.
fn sim_hash(cwd: &Path) -> String {
    let o = ludus()
        .args(["sim", "g", "--ticks", "600", "--input", "g/tests/gem.jsonl"])
        .current_dir(cwd)
        .output()
        .unwrap();
    support::cli::summary(&o)["hash"]
        .as_str()
        .unwrap()
        .to_string()
}

#[test]
fn a_passing_test_prints_ok_and_the_count() {
    let (dir, _) = new_game("pass");
    let (out, err, code) = test_in(&dir, &["g"]);
    assert_eq!(out, "ok   g/tests/gem.toml\n1 passed, 0 failed\n", "{err}");
    assert_eq!(code, 0, "{err}");
}

/// Wrong message, wrong variable, wrong score range, wrong count, wrong hash: each named with
/// its place, what was expected and what was seen; the recording of the run replays with every
/// state hash matching, so it is the run that failed (its hash is `ludus sim`'s).
#[test]
fn a_failing_test_names_each_expectation_and_its_recording_replays() {
    let (dir, game) = new_game("fail");
    let wrong = "input = \"tests/gem.jsonl\"\nticks = 600\n\n[expect]\n\
                 game_over = \"YOU WIN\"\nscore = { min = 2 }\nvars.lives = 3\n\
                 count.gem = 0\nhash = \"0123456789abcdef\"\n";
    std::fs::write(game.join("tests/wrong.toml"), wrong).unwrap();
    let (out, err, code) = test_in(&dir, &["g"]);
    let hash = sim_hash(&dir);
    let expected = format!(
        "ok   g/tests/gem.toml\n\
         FAIL g/tests/wrong.toml\n  \
         g/tests/wrong.toml:5:13: expect.game_over: expected \"YOU WIN\", seen no game over\n  \
         g/tests/wrong.toml:6:9: expect.score: expected at least 2, seen 1\n  \
         g/tests/wrong.toml:7:14: expect.vars.lives: expected 3, seen not set\n  \
         g/tests/wrong.toml:8:7: expect.count.gem: expected 0, seen 5\n  \
         g/tests/wrong.toml:9:8: expect.hash: expected 0123456789abcdef, seen {hash}\n  \
         recording: g/tests/wrong.failed.ludusrec (`ludus replay` runs it again)\n\
         1 passed, 1 failed\n"
    );
    assert_eq!(out, expected, "{err}");
    assert_eq!(code, 1, "a failure exits 1");
    let o = ludus()
        .args(["replay", "g/tests/wrong.failed.ludusrec"])
        .current_dir(&dir)
        .output()
        .unwrap();
    let out = text(&o).0;
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{:?}", text(&o));
    assert_eq!(
        lines[0],
        "replayed 600 ticks of g: every state hash matches"
    );
    // How long the game's start took, apart from the ticks...
    let started = lines[1]
        .strip_prefix("the game started in ")
        .and_then(|l| l.strip_suffix(" ms (its first level built, its scripts started)"))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(started.parse::<f64>().unwrap() > 0.0, "{out}");
    // and how fast they ran: "re-simulated 600 ticks in S s: N ticks per second".
    let speed = lines[2].strip_prefix("re-simulated 600 ticks in ").unwrap();
    let (seconds, rate) = speed.split_once(" s: ").unwrap();
    let rate = rate.strip_suffix(" ticks per second").unwrap();
    let (seconds, rate): (f64, f64) = (seconds.parse().unwrap(), rate.parse().unwrap());
    assert!(seconds > 0.0 && rate > 0.0, "{out}");
    // Fixed, the test passes and its stale recording goes.
    std::fs::write(
        game.join("tests/wrong.toml"),
        wrong
            .replace("\"YOU WIN\"", "false")
            .replace("{ min = 2 }", "{ min = 1, max = 1 }")
            .replace("vars.lives = 3\n", "")
            .replace("count.gem = 0", "count.gem = 5")
            .replace("0123456789abcdef", &hash),
    )
    .unwrap();
    let (out, err, code) = test_in(&dir, &["g"]);
    assert_eq!(
        out, "ok   g/tests/gem.toml\nok   g/tests/wrong.toml\n2 passed, 0 failed\n",
        "{err}"
    );
    assert_eq!(code, 0);
    assert!(!game.join("tests/wrong.failed.ludusrec").exists());
}

/// A fault: expected by its text, or a failure that shows it.
#[test]
fn faults_are_failures_unless_expected() {
    let (dir, game) = new_game("fault");
    let script = game.join("scripts/main.lua");
    let lua = std::fs::read_to_string(&script).unwrap();
    std::fs::write(
        &script,
        format!("{lua}\nfunction on_tick(t)\n  if t.tick == 30 then error(\"boom\") end\nend\n"),
    )
    .unwrap();
    let (out, _, code) = test_in(&dir, &["g"]);
    assert!(
        out.contains("\n  g/tests/gem.toml: expect.faulted: expected no fault, seen \"scripts/main.lua:21: boom (tick 30, Gameplay)\"\n"),
        "{out}"
    );
    assert_eq!(code, 1);
    std::fs::write(
        game.join("tests/gem.toml"),
        "ticks = 600\n[expect]\nfaulted = \"boom\"\ntick = 29\n",
    )
    .unwrap();
    let (out, err, code) = test_in(&dir, &["g"]);
    assert_eq!(out, "ok   g/tests/gem.toml\n1 passed, 0 failed\n", "{err}");
    assert_eq!(code, 0);
}

/// `--bless` writes the run's tick and hash into `[expect]`, keeping comments and the other
/// keys; the blessed file then passes without it; a test that fails another expectation is
/// not blessed.
#[test]
fn bless_writes_tick_and_hash_and_keeps_the_rest() {
    let (dir, game) = new_game("bless");
    let file = game.join("tests/gem.toml");
    let before = std::fs::read_to_string(&file).unwrap();
    let with_old = before.replace(
        "count.player = 1\n",
        "count.player = 1\ntick = 1     # stale\nhash = \"ffffffffffffffff\"\n",
    );
    std::fs::write(&file, &with_old).unwrap();
    let (out, _, code) = test_in(&dir, &["g"]);
    assert!(out.contains("expect.tick: expected 1, seen 600"), "{out}");
    assert_eq!(code, 1);
    let hash = sim_hash(&dir);
    let (out, err, code) = test_in(&dir, &["--bless", "g"]);
    assert_eq!(
        out,
        format!("ok   g/tests/gem.toml (blessed: tick 600, hash {hash})\n1 passed, 0 failed\n"),
        "{err}"
    );
    assert_eq!(code, 0);
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        with_old
            .replace("tick = 1 ", "tick = 600 ")
            .replace("ffffffffffffffff", &hash),
        "only the values changed"
    );
    let (out, _, code) = test_in(&dir, &["g"]);
    assert_eq!(
        (out.as_str(), code),
        ("ok   g/tests/gem.toml\n1 passed, 0 failed\n", 0)
    );
    // Blessing again changes nothing; a failing test is not blessed.
    let (out, _, _) = test_in(&dir, &["--bless", "g"]);
    assert_eq!(out, "ok   g/tests/gem.toml\n1 passed, 0 failed\n");
    let failing = std::fs::read_to_string(&file)
        .unwrap()
        .replace("score = 1 ", "score = 2 ")
        .replace(&hash, "ffffffffffffffff");
    std::fs::write(&file, &failing).unwrap();
    let (out, _, code) = test_in(&dir, &["--bless", "g"]);
    assert!(out.contains("expect.score: expected 2, seen 1"), "{out}");
    assert_eq!(code, 1);
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        failing,
        "not blessed"
    );
}

/// Malformed test files: every problem at its line and column, as content's are, with the
/// closest name for an unknown key.
#[test]
fn malformed_test_files_are_diagnosed_at_line_and_column() {
    let (dir, game) = new_game("bad");
    std::fs::remove_file(game.join("tests/gem.toml")).unwrap();
    std::fs::write(
        game.join("tests/bad.toml"),
        "inptu = \"tests/gem.jsonl\"\nticks = 0\nsave = \"../x.json\"\n\n[expect]\n\
         game_ovr = \"X\"\nscore = \"ten\"\nvars.lives = { min = 3, mx = 2 }\n\
         count.gem = -1\nhash = \"xyz\"\nfaulted = 3\n",
    )
    .unwrap();
    std::fs::write(game.join("tests/syntax.toml"), "ticks = 10\n[expect\n").unwrap();
    std::fs::write(game.join("tests/empty.toml"), "").unwrap();
    let (out, _, code) = test_in(&dir, &["g"]);
    let lines: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("FAIL") || l.contains(": error: ") || l.contains("help:"))
        .collect();
    let expected = [
        "FAIL g/tests/bad.toml",
        "  g/tests/bad.toml:1:1: error: unknown key `inptu` at the top level of g/tests/bad.toml",
        "     = help: did you mean `input`?",
        "  g/tests/bad.toml:2:9: error: `ticks` must be an integer from 1 to 1000000000, found `0`",
        "     = help: `ticks` (in ticks): The most ticks the run takes (it stops sooner at a game over).",
        "  g/tests/bad.toml:3:8: error: `save`: `../x.json` is not allowed: the path leaves the game folder through `..`",
        "     = help: content may only use files inside the game folder",
        "  g/tests/bad.toml:6:1: error: unknown key `game_ovr` in `[expect]`",
        "     = help: did you mean `game_over`?",
        "  g/tests/bad.toml:7:9: error: `expect.score` must be a number or `{ min = .., max = .. }`, found the string `\"ten\"`",
        "  g/tests/bad.toml:8:25: error: unknown key `mx` in `[expect.vars.lives]`",
        "     = help: did you mean `max`?",
        "  g/tests/bad.toml:9:13: error: `expect.count.gem` must be an integer of at least 0, found `-1`",
        "     = help: `count`: How many entities carry each tag at the end.",
        "  g/tests/bad.toml:10:8: error: `expect.hash` must be a state hash of 16 hex digits, found the string `\"xyz\"`",
        "      = help: write the hash `ludus sim` prints, e.g. `hash = \"9b2c0e5d4f1a7c33\"`, or let `ludus test --bless` write it",
        "  g/tests/bad.toml:11:11: error: `expect.faulted` must be a string, `true` or `false`, found `3`",
        "      = help: e.g. `faulted = \"attempt to index a nil value\"`",
        "FAIL g/tests/empty.toml",
        "  g/tests/empty.toml:1:1: error: missing required key `ticks` at the top level of g/tests/empty.toml",
        "     = help: add e.g. `ticks = 20000`",
        "FAIL g/tests/syntax.toml",
        "  g/tests/syntax.toml:2:8: error: invalid TOML: unclosed table, expected `]`",
    ];
    assert_eq!(lines, expected, "{out}");
    assert!(out.ends_with("0 passed, 3 failed\n"), "{out}");
    assert_eq!(code, 1);
}

/// What a test names that cannot be there is found before it runs, at its place: a missing
/// file, a tag the game does not declare (with the closest it does); a score that is not a
/// whole number is a diagnostic (it could never be seen).
#[test]
fn names_a_test_cannot_meet_are_reported_at_their_place() {
    let (dir, game) = new_game("names");
    std::fs::write(
        game.join("tests/gem.toml"),
        "input = \"tests/gem.jsonl\"\nticks = 10\nframes = \"tests/nope.jsonl\"\n\
         [expect]\ncount.plyer = 1\ncount.zzzz = 0\n",
    )
    .unwrap();
    std::fs::write(
        game.join("tests/score.toml"),
        "ticks = 10\n[expect]\nscore = 2.5\n",
    )
    .unwrap();
    std::fs::write(
        game.join("tests/big.toml"),
        "ticks = 10\n[expect]\nscore = 1e20\n",
    )
    .unwrap();
    let (out, _, code) = test_in(&dir, &["g"]);
    let want = [
        "FAIL g/tests/big.toml",
        "  g/tests/big.toml:3:9: error: `expect.score` must be a whole number, found `1e20`",
        "   3 | score = 1e20",
        "     |         ^^^^",
        "     = help: the score is a whole number; for a range write `{ min = .., max = .. }`",
        "",
        "  1 error found",
        "FAIL g/tests/gem.toml",
        "  g/tests/gem.toml:3:10: frames: no file g/tests/nope.jsonl",
        "  g/tests/gem.toml:5:7: expect.count.plyer: the game has no tag `plyer` (did you mean `player`?)",
        "  g/tests/gem.toml:6:7: expect.count.zzzz: the game has no tag `zzzz`",
        "FAIL g/tests/score.toml",
        "  g/tests/score.toml:3:9: error: `expect.score` must be a whole number, found `2.5`",
        "   3 | score = 2.5",
        "     |         ^^^",
        "     = help: the score is a whole number; for a range write `{ min = .., max = .. }`",
        "",
        "  1 error found",
        "0 passed, 3 failed",
    ];
    let out: Vec<&str> = out.lines().collect();
    assert_eq!(out, want);
    assert_eq!(code, 1);
}

/// Exit codes and what is not a test: a path that is not a game folder is skipped, a missing
/// one fails, no test at all exits 1, a bad option is a usage error (2), a missing input file
/// fails its test.
#[test]
fn exit_codes_and_skipped_paths() {
    let (dir, game) = new_game("codes");
    std::fs::create_dir_all(dir.join("notagame")).unwrap();
    let (out, err, code) = test_in(&dir, &["notagame"]);
    assert_eq!(
        (out.as_str(), err.as_str(), code),
        (
            "skip notagame: not a game folder (no game.toml)\n0 passed, 0 failed\n",
            "ludus: no tests found (a test is a tests/*.toml file of a game folder)\n",
            1
        )
    );
    let (out, _, code) = test_in(&dir, &["g", "missing"]);
    assert_eq!(
        (out.as_str(), code),
        (
            "ok   g/tests/gem.toml\nFAIL missing: no such file or folder\n1 passed, 1 failed\n",
            1
        )
    );
    let (_, _, code) = test_in(&dir, &["--nope"]);
    assert_eq!(code, 2, "a usage error");
    std::fs::remove_file(game.join("tests/gem.jsonl")).unwrap();
    let (out, _, code) = test_in(&dir, &["g"]);
    assert_eq!(
        out,
        "FAIL g/tests/gem.toml\n  g/tests/gem.toml:4:9: input: no file g/tests/gem.jsonl\n\
         0 passed, 1 failed\n"
    );
    assert_eq!(code, 1);
}

/// `frames`, `seed` and `save` are `ludus sim`'s `--frames`, `--seed` and `--save`: the test
/// sees the hash `ludus sim` prints with them, and the save file is only read.
#[test]
fn frames_seed_and_save_run_as_sim_runs_them() {
    let (dir, game) = new_game("sim");
    let frames: String = std::iter::once("{\"dt_ms\":0}\n".to_string())
        .chain((0..120).map(|i| match i {
            3 => "{\"dt_ms\":16.667,\"axis\":{\"move_x\":1,\"move_y\":-0.5}}\n".to_string(),
            _ => "{\"dt_ms\":16.667}\n".to_string(),
        }))
        .collect();
    std::fs::write(game.join("tests/walk.jsonl"), frames).unwrap();
    std::fs::write(game.join("tests/save.json"), "{\"best\":3}").unwrap();
    let o = ludus()
        .args(["sim", "g", "--ticks", "100", "--seed", "9", "--frames"])
        .args(["g/tests/walk.jsonl", "--save", "g/tests/save.json"])
        .current_dir(&dir)
        .output()
        .unwrap();
    let s = support::cli::summary(&o);
    let hash = s["hash"].as_str().unwrap();
    assert_eq!(s["ticks"], 100, "{s}");
    let test = format!(
        "frames = \"tests/walk.jsonl\"\nticks = 100\nseed = 9\nsave = \"tests/save.json\"\n\
         [expect]\ntick = 100\nhash = \"{hash}\"\n"
    );
    std::fs::write(game.join("tests/gem.toml"), &test).unwrap();
    let (out, err, code) = test_in(&dir, &["g"]);
    assert_eq!(out, "ok   g/tests/gem.toml\n1 passed, 0 failed\n", "{err}");
    assert_eq!(code, 0);
    // Another seed is another run.
    std::fs::write(
        game.join("tests/gem.toml"),
        test.replace("seed = 9", "seed = 10"),
    )
    .unwrap();
    let (out, _, code) = test_in(&dir, &["g"]);
    assert!(out.contains("expect.hash: expected"), "{out}");
    assert_eq!(code, 1);
    assert_eq!(
        std::fs::read_to_string(game.join("tests/save.json")).unwrap(),
        "{\"best\":3}",
        "the save file is only read"
    );
}

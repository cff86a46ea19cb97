//! `ludus sim --agent-stdio`: one observation at the start, exactly one answer per line;
//! snapshots restore exactly (equal hashes, and the same input after gives the same hashes)
//! at 1k and 50k entities; a hostile client gets errors and the session goes on, in bounded
//! memory; the input written reproduces the session's last branch; the Python client in
//! examples/agents plays Flappy with snapshots.

mod support;

use serde_json::Value;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use support::cli::{ludus, scratch, summary, text};

/// Runs a session of `ludus sim GAME --agent-stdio ARGS`, sending `input` (from another
/// thread, so neither side waits on the other), within `secs` seconds and, on Linux, `mib`
/// MiB of address space. Returns the answers, standard error and exit code.
fn session(game: &str, args: &[&str], input: Vec<u8>, mib: u64) -> (Vec<Value>, String, i32) {
    let (out, err, code) = session_text(game, args, input, mib);
    let answers = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}\n{err}")))
        .collect();
    (answers, err, code)
}

/// [`session`]'s answers as text.
fn session_text(game: &str, args: &[&str], input: Vec<u8>, mib: u64) -> (String, String, i32) {
    let mut sh = Command::new("sh");
    let limit = if cfg!(target_os = "linux") {
        format!("ulimit -v {}; ", mib * 1024)
    } else {
        String::new()
    };
    let cmd = ludus();
    sh.arg("-c")
        .arg(format!("{limit}exec \"$0\" \"$@\""))
        .arg(cmd.get_program())
        .args(["sim", "--agent-stdio"])
        .arg(support::example(game))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = sh.spawn().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let id = child.id();
    let (done, wait) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = done.send(child.wait_with_output());
    });
    let o = match wait.recv_timeout(std::time::Duration::from_secs(180)) {
        Ok(o) => o.unwrap(),
        Err(_) => {
            let _ = Command::new("kill").arg("-9").arg(id.to_string()).status();
            panic!("the session did not end within 180 s");
        }
    };
    writer.join().unwrap();
    let (out, err) = text(&o);
    (out, err, o.status.code().unwrap_or(-1))
}

fn lines(lines: &[&str]) -> Vec<u8> {
    let mut out = lines.join("\n").into_bytes();
    out.push(b'\n');
    out
}

/// The protocol on Breakout: the first observation, input lines with `ticks`, snapshot and
/// restore, the observed entities, and the summary on standard error at quit.
#[test]
fn a_session_runs_ticks_snapshots_and_restores() {
    let (answers, err, code) = session(
        "breakout",
        &["--observe", "paddle"],
        lines(&[
            r#"{"ticks": 5}"#,
            r#"{"snapshot": "start"}"#,
            r#"{"axis": {"move_x": 1}, "ticks": 30}"#,
            r#"{"restore": "start"}"#,
            r#"{"axis": {"move_x": 1}, "ticks": 30}"#,
            r#"{"quit": true}"#,
            r#"{"ticks": 5}"#,
        ]),
        2048,
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        answers.len(),
        6,
        "one observation, then one answer per line until quit"
    );
    let first = &answers[0];
    assert_eq!(first["tick"], 0);
    assert_eq!(first["game_over"], Value::Null);
    assert_eq!(first["vars"]["lives"], 3);
    assert_eq!(
        first["entities"],
        serde_json::json!([{"id": 4, "kind": "paddle", "x": 0, "y": 230, "vx": 0, "vy": 0}])
    );
    assert_eq!(answers[1]["tick"], 5);
    let snap = &answers[2];
    assert_eq!(
        (&snap["ok"], &snap["name"], &snap["tick"], &snap["hash"]),
        (
            &"snapshot".into(),
            &"start".into(),
            &5.into(),
            &answers[1]["hash"]
        )
    );
    assert_eq!(answers[3]["tick"], 35);
    assert!(answers[3]["entities"][0]["x"].as_f64().unwrap() > 100.0);
    assert_eq!(answers[4]["ok"], "restore");
    assert_eq!(answers[4]["hash"], snap["hash"]);
    assert_eq!(
        answers[5], answers[3],
        "the same input after a restore: the same world"
    );
    let summary: Value = serde_json::from_str(err.lines().last().unwrap()).unwrap();
    assert_eq!(summary["ticks"], 35);
    assert_eq!(summary["hash"], answers[5]["hash"]);
}

/// Restore is exact with many entities: after a restore, the hash is the snapshot's, and the
/// same input gives the same hashes tick by tick as the first time.
#[test]
fn restore_is_exact_at_1k_and_50k_entities() {
    for entities in ["1000", "50000"] {
        let mut script = vec![r#"{"axis": {"move_x": 1}, "press": ["fire"], "ticks": 3}"#];
        script.push(r#"{"snapshot": "a"}"#);
        let after = [
            r#"{"axis": {"move_y": -1}}"#,
            r#"{"release": ["fire"]}"#,
            r#"{"axis": {"move_x": -0.5}, "ticks": 2}"#,
        ];
        script.extend(after);
        script.push(r#"{"restore": "a"}"#);
        script.extend(after);
        let (answers, err, code) =
            session("swarm", &["--entities", entities], lines(&script), 8192);
        assert_eq!(code, 0, "{err}");
        let snap = &answers[2];
        assert_eq!(snap["hash"], answers[1]["hash"], "{entities}");
        let first: Vec<&Value> = answers[3..6].iter().map(|a| &a["hash"]).collect();
        assert_eq!(
            answers[6]["hash"], snap["hash"],
            "{entities}: restored exactly"
        );
        let again: Vec<&Value> = answers[7..10].iter().map(|a| &a["hash"]).collect();
        assert_eq!(
            first, again,
            "{entities}: the same input after it, the same hashes"
        );
        assert_eq!(answers[9]["tick"], 7);
    }
}

/// Whatever a client sends, each line gets one answer: an error that says what is wrong, and
/// the session goes on (the last observation is of the ticks the good lines ran).
#[test]
fn a_hostile_client_gets_errors_and_the_session_goes_on() {
    let huge = format!("{{\"ticks\": 1, \"pad\": \"{}\"}}", "x".repeat(200_000));
    #[rustfmt::skip]
    let cases: &[(&[u8], &str)] = &[
        (b"garbage", "not valid JSON"),
        (b"", "an empty line"),
        (b"[1, 2]", "each line must be a JSON object"),
        (b"\xff\xfe", "not UTF-8"),
        (huge.as_bytes(), "the line is longer than 64 KiB"),
        (br#"{"jump": true}"#, "unknown key `jump`"),
        (br#"{"tick": 3}"#, "unknown key `tick`"),
        (br#"{"press": ["move_x"]}"#, "action `move_x` is axis, not button"),
        (br#"{"press": ["fly"]}"#, "unknown action `fly`"),
        (br#"{"axis": {"move_x": 7}}"#, "axis `move_x` must be a number in [-1, 1]"),
        (br#"{"ticks": 0}"#, "`ticks` must be a whole number from 1 to 1000000"),
        (br#"{"ticks": 99999999999}"#, "`ticks` must be a whole number from 1 to 1000000"),
        (br#"{"restore": "nothing"}"#, "no snapshot named `nothing` (none kept)"),
        (br#"{"snapshot": ""}"#, "`snapshot` takes a name"),
        (br#"{"snapshot": 5}"#, "`snapshot` takes a name"),
        (br#"{"snapshot": "a", "ticks": 3}"#, "`snapshot` goes alone on its line"),
        (br#"{"quit": "please"}"#, "`quit` takes true"),
        (br#"{"pointer": [1e300, 0]}"#, "`pointer` must be [x, y]"),
        (br#"{"signal": "pause"}"#, "unknown key `signal`"),
    ];
    let mut input = Vec::new();
    for (line, _) in cases {
        input.extend_from_slice(line);
        input.push(b'\n');
        input.extend_from_slice(b"{\"ticks\": 2}\n");
    }
    input.extend_from_slice(b"{\"quit\": true}\n");
    let (answers, err, code) = session("breakout", &[], input, 2048);
    assert_eq!(code, 0, "{err}");
    assert_eq!(answers.len(), 1 + 2 * cases.len(), "{err}");
    for (i, (line, message)) in cases.iter().enumerate() {
        let answer = &answers[1 + 2 * i];
        let shown = String::from_utf8_lossy(&line[..line.len().min(60)]);
        let e = answer["error"]
            .as_str()
            .unwrap_or_else(|| panic!("{shown}: {answer}"));
        assert!(e.contains(message), "{shown}: {e}");
        assert_eq!(
            answers[2 + 2 * i]["tick"],
            2 * (i + 1),
            "{shown}: the session went on"
        );
    }
}

/// A million snapshots: past the bound each is refused with the reason, and memory stays
/// bounded (the run is limited to 1 GiB of address space); a restore then still works.
#[test]
fn a_million_snapshots_are_bounded() {
    let mut input = String::from("{\"ticks\": 3}\n");
    for i in 0..1_000_000 {
        input.push_str(&format!("{{\"snapshot\":\"s{i}\"}}\n"));
    }
    input.push_str("{\"restore\":\"s7\"}\n{\"quit\":true}\n");
    let (out, err, code) = session_text("breakout", &[], input.into_bytes(), 1024);
    assert_eq!(code, 0, "{err}");
    let answers: Vec<&str> = out.lines().collect();
    assert_eq!(answers.len(), 1_000_003);
    let kept = answers
        .iter()
        .filter(|a| a.starts_with("{\"ok\":\"snapshot\""))
        .count();
    assert_eq!(kept, 256);
    let refused = "{\"error\":\"cannot keep more than 256 snapshots: reuse a name\"}";
    assert_eq!(
        answers.iter().filter(|a| **a == refused).count(),
        1_000_000 - 256
    );
    let restored: Value = serde_json::from_str(answers[1_000_002]).unwrap();
    assert_eq!(
        (&restored["ok"], &restored["tick"]),
        (&"restore".into(), &3.into())
    );
}

/// The bundled Python client (standard library only) plays Flappy to 30 points without losing
/// a life, searching with snapshots; the input it leaves plays back to its hash.
#[test]
fn the_python_client_plays_flappy_with_snapshots() {
    if Command::new("python3").arg("--version").output().is_err() {
        assert!(
            std::env::var_os("LUDUS_REQUIRE_PYTHON").is_none(),
            "python3 is required here"
        );
        eprintln!("skipped: no python3");
        return;
    }
    let dir = scratch("agent-python");
    let input = dir.join("flappy.jsonl");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let o = support::cli::within(
        Command::new("python3")
            .arg(root.join("examples/agents/flappy_client.py"))
            .arg("--ludus")
            .arg(env!("CARGO_BIN_EXE_ludus"))
            .arg("--game")
            .arg(support::example("flappy"))
            .args(["--points", "30", "--write-input"])
            .arg(&input),
        300,
        None,
    );
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    let result: Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
    assert_eq!(result["score"], 30, "{out}");
    assert_eq!(result["lives"], 3, "{out}");
    let ticks = result["tick"].as_u64().unwrap().to_string();
    let again = summary(
        &ludus()
            .args(["sim", "--ticks", &ticks, "--input"])
            .arg(&input)
            .arg(support::example("flappy"))
            .output()
            .unwrap(),
    );
    assert_eq!(again["hash"], result["hash"]);
    assert_eq!(again["score"], 30);
}

/// After the game ends or faults, input is refused with the reason until a restore; a restore
/// brings the run back to play.
#[test]
fn the_end_and_a_fault_wait_for_a_restore() {
    let (answers, err, code) = session(
        "breakout",
        &[],
        lines(&[
            r#"{"snapshot": "s"}"#,
            r#"{"ticks": 5000}"#,
            r#"{}"#,
            r#"{"restore": "s"}"#,
            r#"{}"#,
        ]),
        2048,
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(answers[2]["game_over"]["message"], "GAME OVER");
    let tick = &answers[2]["tick"];
    assert_eq!(
        answers[2]["game_over"]["tick"], *tick,
        "the ticks stop at the end"
    );
    assert_eq!(
        answers[3]["error"],
        format!("the game is over (tick {tick}): restore a snapshot, or quit")
    );
    assert_eq!(
        (&answers[4]["tick"], &answers[5]["tick"]),
        (&0.into(), &1.into())
    );

    let dir = scratch("agent-fault");
    let game = dir.join("g");
    assert!(ludus().arg("new").arg(&game).status().unwrap().success());
    let script = game.join("scripts/main.lua");
    let mut source = std::fs::read_to_string(&script).unwrap();
    source.push_str("\nfunction on_tick(t)\n  if t.tick == 4 then error('broken') end\nend\n");
    std::fs::write(&script, source).unwrap();
    let mut sh = Command::new(env!("CARGO_BIN_EXE_ludus"));
    sh.args(["sim", "--agent-stdio"]).arg(&game);
    let input = lines(&[
        r#"{"ticks": 2}"#,
        r#"{"snapshot": "two"}"#,
        r#"{"ticks": 9}"#,
        "{}",
        r#"{"restore": "two"}"#,
        "{}",
    ]);
    let o = {
        use std::io::Write as _;
        let mut child = sh
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(&input).unwrap();
        child.wait_with_output().unwrap()
    };
    let (out, err) = text(&o);
    let answers: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(answers[3]["tick"], 3, "{out}{err}");
    assert_eq!(answers[3]["fault"]["message"], "broken");
    assert_eq!(answers[3]["fault"]["tick"], 4);
    assert!(
        answers[3]["fault"]["location"]
            .as_str()
            .unwrap()
            .starts_with("scripts/main.lua:"),
        "{out}"
    );
    assert!(
        answers[4]["error"]
            .as_str()
            .unwrap()
            .starts_with("the run faulted at tick 4 (broken)")
    );
    assert_eq!(answers[5]["ok"], "restore");
    assert_eq!(
        (&answers[6]["tick"], &answers[6]["fault"]),
        (&3.into(), &Value::Null)
    );
}

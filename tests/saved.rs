//! Saved data between runs, headless (`ludus sim --save FILE`): the bundled Breakout keeps
//! its best score across runs, a save file that cannot be used is a warning and no saved
//! data, and a run's recording holds the saved data it began with, so replays and rewinds
//! are exact.

mod support;

use ludus_core::{Recording, SaveStore};
use std::path::{Path, PathBuf};
use std::process::Output;
use support::{example, ludus, scratch};

/// `ludus sim GAME ARGS...`: its summary, standard error and exit code.
fn sim(game: &Path, args: &[&std::ffi::OsStr]) -> (serde_json::Value, String, Option<i32>) {
    let o: Output = ludus().arg("sim").arg(game).args(args).output().unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    let summary = serde_json::from_str(out.trim()).unwrap_or(serde_json::Value::Null);
    (summary, err, o.status.code())
}

fn input(name: &str) -> PathBuf {
    example("breakout").join("tests").join(name)
}

#[test]
fn breakout_keeps_its_best_score_across_runs() {
    let dir = scratch("saved", "best");
    let save = dir.join("save.json");
    let breakout = example("breakout");
    let play = |file: &str, save: Option<&Path>| {
        let mut args = vec!["--ticks".as_ref(), "20000".as_ref(), "--input".as_ref()];
        let input = input(file);
        args.push(input.as_os_str());
        if let Some(save) = save {
            args.extend(["--save".as_ref(), save.as_os_str()]);
        }
        let (s, err, code) = sim(&breakout, &args);
        assert_eq!(code, Some(0), "{file}: {s} {err}");
        (s["score"].clone(), s["vars"]["best"].clone())
    };
    // (input, score, best shown at the end, the file after the run)
    let runs = [
        ("win.jsonl", 160, 160, r#"{"best":160}"#),
        ("lose.jsonl", 16, 160, r#"{"best":160}"#),
    ];
    for (file, score, best, kept) in runs {
        assert_eq!(
            play(file, Some(&save)),
            (score.into(), best.into()),
            "{file}"
        );
        assert_eq!(
            std::fs::read_to_string(&save).unwrap(),
            kept,
            "after {file}"
        );
    }
    // Without --save a run starts with no saved data and writes none.
    assert_eq!(play("lose.jsonl", None), (16.into(), 16.into()));
    assert_eq!(std::fs::read_to_string(&save).unwrap(), r#"{"best":160}"#);
}

#[test]
fn a_save_file_that_cannot_be_used_is_a_warning_and_no_saved_data() {
    let dir = scratch("saved", "damaged");
    let breakout = example("breakout");
    let save = dir.join("save.json");
    // Breakout's [limits] save_bytes is the default, 65536; a file may take 4096 more.
    let big_text = format!(r#"{{"best":"{}"}}"#, "x".repeat(65_600));
    let shown = save.display().to_string();
    // (case, the file's bytes, the warning)
    let cases: [(&str, Vec<u8>, String); 5] = [
        (
            "not JSON",
            b"best = 12".to_vec(),
            format!("{shown}: line 1, column 1: expected `{{`"),
        ),
        (
            "a value of the wrong kind",
            b"{\n  \"best\": [12]\n}".to_vec(),
            format!("{shown}: line 2, column 11: expected a number or a string"),
        ),
        (
            "not UTF-8",
            b"{\"best\":\xff}".to_vec(),
            format!("{shown} is not UTF-8 text"),
        ),
        (
            "a store past save_bytes",
            big_text.into_bytes(),
            format!("{shown}: line 1, column 2: the store would take 65612 bytes, more than 65536"),
        ),
        (
            "a file past save_bytes and the slack",
            vec![b' '; 65_536 + 4096 + 1],
            format!("{shown} is larger than the game's saved data may be (69632 bytes at most)"),
        ),
    ];
    for (case, bytes, warning) in cases {
        std::fs::write(&save, &bytes).unwrap();
        let (s, err, code) = sim(
            &breakout,
            &[
                "--ticks".as_ref(),
                "2".as_ref(),
                "--save".as_ref(),
                save.as_os_str(),
            ],
        );
        assert_eq!(code, Some(0), "{case}: the run goes on: {s} {err}");
        let want = format!(
            "ludus: warning: the saved data is ignored, the game starts without it: {warning} \
             (it is kept as {shown}.damaged)"
        );
        assert!(err.contains(&want), "{case}: {err}");
        assert_eq!(s["vars"]["best"], 0, "{case}: no saved data: {s}");
        assert_eq!(
            std::fs::read_to_string(&save).unwrap(),
            "{}",
            "{case}: the store as it ended"
        );
        let kept = std::fs::read(dir.join("save.json.damaged")).unwrap();
        assert!(
            kept == bytes,
            "{case}: what could not be used is kept as it was"
        );
    }
    // A folder where the file should be: unreadable, and the end cannot write it either.
    std::fs::remove_file(&save).unwrap();
    std::fs::create_dir_all(&save).unwrap();
    let (s, err, code) = sim(
        &breakout,
        &[
            "--ticks".as_ref(),
            "2".as_ref(),
            "--save".as_ref(),
            save.as_os_str(),
        ],
    );
    assert!(err.contains(&format!("ludus: warning: the saved data is ignored, the game starts without it: cannot read {shown}")), "{err}");
    assert!(
        err.contains(&format!("ludus: cannot write {shown}")),
        "{err}"
    );
    assert_eq!(
        (code, s),
        (Some(1), serde_json::Value::Null),
        "the run says it could not keep its data"
    );
}

#[test]
fn a_recording_holds_the_saved_data_it_began_with_and_replays_exactly() {
    let dir = scratch("saved", "recording");
    let (save, rec) = (dir.join("save.json"), dir.join("run.ludusrec"));
    std::fs::write(&save, r#"{"best":150}"#).unwrap();
    let lose = input("lose.jsonl");
    let args = [
        "--ticks".as_ref(),
        "20000".as_ref(),
        "--input".as_ref(),
        lose.as_os_str(),
        "--save".as_ref(),
        save.as_os_str(),
        "--record".as_ref(),
        rec.as_os_str(),
    ];
    let (s, err, code) = sim(&example("breakout"), &args);
    assert_eq!(
        (code, &s["vars"]["best"]),
        (Some(0), &150.into()),
        "{s} {err}"
    );
    let o = ludus().arg("replay").arg(&rec).output().unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("replayed 1749 ticks of Breakout: every state hash matches"),
        "{out}"
    );

    // The same input without the saved data is another game from its first tick.
    let mut recording = Recording::from_bytes(&std::fs::read(&rec).unwrap()).unwrap();
    let kept: Vec<_> = recording
        .saved
        .iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect();
    assert_eq!(kept, [("best".to_string(), ludus_core::Var::Num(150.0))]);
    recording.saved = SaveStore::default();
    std::fs::write(&rec, recording.to_bytes()).unwrap();
    let o = ludus().arg("replay").arg(&rec).output().unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("tick 1"), "the first tick differs: {out}");
}

/// A game that saves its tick number at tick 50, and shows what it reads each tick.
const COUNTER: &str = "name = \"Counter\"\n[scripts]\nfiles = [\"main.lua\"]\n[levels.main]\n";
const COUNTER_LUA: &str = "function on_tick(t)\n  if t.tick == 50 then ludus.save('tick', 50) end\n  \
                           ludus.set('was', ludus.saved('tick') or 0)\nend\n";

#[test]
fn a_rewind_returns_the_saved_data_to_the_tick_it_returns_to() {
    let dir = scratch("saved", "rewind");
    let game = dir.join("counter");
    std::fs::create_dir_all(&game).unwrap();
    std::fs::write(game.join("game.toml"), COUNTER).unwrap();
    std::fs::write(game.join("main.lua"), COUNTER_LUA).unwrap();
    let (save, frames) = (dir.join("save.json"), dir.join("frames.jsonl"));
    let with_save = |args: &[&std::ffi::OsStr]| {
        let mut args = args.to_vec();
        args.extend(["--save".as_ref(), save.as_os_str()]);
        let (s, err, code) = sim(&game, &args);
        assert_eq!(code, Some(0), "{s} {err}");
        (s["world_tick"].clone(), s["vars"]["was"].clone())
    };
    std::fs::write(&save, r#"{"tick":1000}"#).unwrap();
    let sixty = with_save(&["--ticks".as_ref(), "60".as_ref()]);
    assert_eq!(
        sixty,
        (60.into(), 50.into()),
        "tick 60 reads what tick 50 saved"
    );
    assert_eq!(std::fs::read_to_string(&save).unwrap(), r#"{"tick":50}"#);
    // 60 ticks, back 25 (before tick 50 saved), then 10 more: the run ends at tick 45.
    std::fs::write(&save, r#"{"tick":1000}"#).unwrap();
    let mut lines = vec![r#"{"dt_ms":0}"#.to_string()];
    lines.extend((0..60).map(|_| r#"{"dt_ns":16666667}"#.to_string()));
    lines.push(r#"{"dt_ms":0,"signal":"rewind","ticks":25}"#.into());
    lines.extend((0..10).map(|_| r#"{"dt_ns":16666667}"#.to_string()));
    std::fs::write(&frames, lines.join("\n")).unwrap();
    let rewound = with_save(&["--frames".as_ref(), frames.as_os_str()]);
    assert_eq!(
        rewound,
        (45.into(), 1000.into()),
        "the saved data as at tick 45"
    );
    assert_eq!(std::fs::read_to_string(&save).unwrap(), r#"{"tick":1000}"#);
}

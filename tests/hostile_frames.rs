//! `ludus sim --frames` and `--input` files written to make a run work without end: a rewind
//! on every line (quadratic re-simulation), a restart on every line, JSON nested thousands
//! deep, lines crowded with actions, tick numbers near the top of the range. Each run ends
//! within a generous bound as a run or an error naming the line.

mod support;

use std::path::{Path, PathBuf};
use support::cli::{example, ludus, raw_controls, scratch, summary, text, within};

/// A game of two small levels without scripts.
fn tiny(dir: &Path) -> PathBuf {
    let game = dir.join("tiny");
    std::fs::create_dir_all(&game).unwrap();
    std::fs::write(
        game.join("game.toml"),
        "name = \"Tiny\"\n[archetypes.dot]\nsprite = { shape = \"circle\", size = 8 }\n\
         [levels.a]\nplace = [{ archetype = \"dot\", at = [0, 0] }]\n",
    )
    .unwrap();
    game
}

/// `ludus sim GAME --frames FILE` (the file holding `frames`) with `extra` arguments, within
/// a minute and 2 GiB.
fn sim_frames(dir: &Path, game: &Path, frames: &str, extra: &[&str]) -> std::process::Output {
    let path = dir.join("frames.jsonl");
    std::fs::write(&path, frames).unwrap();
    within(
        ludus()
            .arg("sim")
            .arg(game)
            .arg("--frames")
            .arg(&path)
            .args(extra),
        60,
        Some(2048),
    )
}

/// The line number in `dir/frames.jsonl:N: ...`.
fn line_of(err: &str) -> usize {
    err.split("frames.jsonl:")
        .nth(1)
        .and_then(|r| r.split(':').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no line in {err}"))
}

#[test]
fn a_rewind_on_every_line_is_refused_at_a_line_before_the_work_grows_quadratic() {
    let dir = scratch("frames-rewinds");
    // 300 frames forward, then 300 rewinds of a tick: re-simulating the run from its start
    // once per line would be 90,000 ticks; the bound allows 2 x 300 + 16 x 600.
    let mut frames = String::from("{\"dt_ms\":0}\n");
    frames.push_str(&"{\"dt_ms\":16.667}\n".repeat(300));
    frames.push_str(&"{\"dt_ms\":16.667,\"signal\":\"rewind\",\"ticks\":1}\n".repeat(300));
    let o = sim_frames(&dir, &example(), &frames, &[]);
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}{err}");
    let line = line_of(&err);
    assert!((302..=601).contains(&line), "a rewind line: {err}");
    assert!(
        err.contains("past what rewinds may re-simulate in this run: 2 times the"),
        "{err}"
    );
    assert!(err.contains("plus 16 ticks per line read"), "{err}");
    // A few rewinds in a long run are fine.
    let mut frames = String::from("{\"dt_ms\":0}\n");
    for _ in 0..4 {
        frames.push_str(&"{\"dt_ms\":16.667}\n".repeat(100));
        frames.push_str("{\"dt_ms\":16.667,\"signal\":\"rewind\",\"ticks\":30}\n");
    }
    let o = sim_frames(&dir, &example(), &frames, &[]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}{err}");
    assert_eq!(summary(&o)["ticks"], 4 * 101 - 4 * 30, "{out}");
}

#[test]
fn a_restart_on_every_line_is_refused_past_the_level_activations_a_run_may_make() {
    let dir = scratch("frames-restarts");
    let game = tiny(&dir);
    // (frames before the restarts, restarts, refused at line)
    let cases: [(usize, usize, Option<usize>); 3] = [
        (0, 255, None),
        (0, 100_000, Some(257)),
        // 160 ticks forward earn ten more.
        (160, 300, Some(160 + 2 + 265)),
    ];
    for (forward, restarts, refused) in cases {
        let mut frames = String::from("{\"dt_ms\":0}\n");
        frames.push_str(&"{\"dt_ms\":16.667}\n".repeat(forward));
        frames.push_str(&"{\"dt_ms\":0,\"signal\":\"restart\"}\n".repeat(restarts));
        let o = sim_frames(&dir, &game, &frames, &[]);
        let (out, err) = text(&o);
        match refused {
            None => assert!(o.status.success(), "{restarts} restarts: {out}{err}"),
            Some(line) => {
                assert_eq!(o.status.code(), Some(1), "{out}{err}");
                assert_eq!(line_of(&err), line, "{err}");
                assert!(
                    err.contains(
                        "a run starts a level at most 256 times plus once per 16 ticks run"
                    ),
                    "{err}"
                );
            }
        }
    }
}

#[test]
fn nested_crowded_and_huge_lines_are_errors_naming_the_line_or_bounded_runs() {
    let dir = scratch("frames-lines");
    let fire = std::iter::repeat_n("\"fire\"", 4000)
        .collect::<Vec<_>>()
        .join(",");
    // (frames file, error at, what the error or the summary says)
    let cases: Vec<(String, Option<&str>, &str)> = vec![
        (format!("{}\n", "[".repeat(20_000)), Some("frames.jsonl:1:128:"), "recursion limit exceeded"),
        (
            format!("{}1{}\n", "{\"a\":".repeat(5000), "}".repeat(5000)),
            Some("frames.jsonl:1:"),
            "recursion limit exceeded",
        ),
        (
            format!("{{\"dt_ms\":0}}\n{{\"dt_ms\":16.667,\"press\":[{fire}],\"release\":[{fire}]}}\n"),
            None,
            "\"frames\":2",
        ),
        (
            "{\"dt_ms\":0}\n{\"dt_ms\":3600000}\n{\"dt_ms\":16.667,\"signal\":\"rewind\",\"ticks\":1000000000}\n{\"dt_ms\":16.667}\n".into(),
            None,
            "\"frames\":4",
        ),
        (
            "{\"dt_ms\":0}\n{\"dt_ms\":16.667,\"\\u001b[2J\u{202e}\":1}\n".into(),
            Some("frames.jsonl:2: unknown key `\\u{1b}[2J\\u{202e}`"),
            "",
        ),
    ];
    for (frames, error, says) in cases {
        let o = sim_frames(&dir, &example(), &frames, &[]);
        let (out, err) = text(&o);
        assert_eq!(raw_controls(&err), Vec::<char>::new(), "{err:?}");
        match error {
            Some(at) => {
                assert_eq!(o.status.code(), Some(1), "{out}{err}");
                assert!(err.contains(at) && err.contains(says), "{at} {says}: {err}");
            }
            None => {
                assert!(o.status.success(), "{out}{err}");
                assert!(out.contains(says), "{says}: {out}");
            }
        }
    }
    // `--input` ticks at the top of the range: the run's steps stay those `--ticks` asks.
    let input = dir.join("input.jsonl");
    std::fs::write(
        &input,
        "{\"tick\":1,\"press\":[\"fire\"]}\n{\"tick\":18446744073709551614,\"release\":[\"fire\"]}\n{\"tick\":18446744073709551615}\n",
    )
    .unwrap();
    let o = within(
        ludus()
            .args(["sim", "--ticks", "50", "--input"])
            .arg(&input)
            .arg(example()),
        60,
        None,
    );
    assert!(o.status.success(), "{:?}", text(&o));
    assert_eq!(summary(&o)["ticks"], 50);
}

//! `ludus sim --frames`, end to end: the same hashes at any frame rate, the frame loop's
//! figures in traces, and a scripted rewind.

mod support;

use support::cli::{example, input_lines, ludus, scratch, summary, text};

use std::path::Path;

/// Frame timestamps for `seconds` at `fps`, exact to the nanosecond without drift.
fn frames_at(fps: u64, seconds: u64, signal_at: Option<(u64, &str)>) -> String {
    let mut out = String::from("{\"dt_ns\":0}\n");
    let mut last = 0u64;
    for k in 1..=fps * seconds {
        let t = k * 1_000_000_000 / fps;
        match signal_at {
            Some((at, s)) if k == at * fps => {
                out.push_str(&format!("{{\"dt_ns\":{},\"signal\":\"{s}\"}}\n", t - last))
            }
            _ => out.push_str(&format!("{{\"dt_ns\":{}}}\n", t - last)),
        }
        last = t;
    }
    out
}

fn tick_hashes(trace: &Path) -> Vec<String> {
    std::fs::read_to_string(trace)
        .unwrap()
        .lines()
        .filter(|l| l.starts_with("{\"tick\""))
        .map(str::to_string)
        .collect()
}

#[test]
fn the_same_per_tick_input_at_30_60_and_144_fps_gives_the_same_hashes() {
    let dir = scratch("fps");
    let input = dir.join("input.jsonl");
    std::fs::write(&input, input_lines(600)).unwrap();
    let mut runs = Vec::new();
    for fps in [30u64, 60, 144] {
        let frames = dir.join(format!("frames{fps}.jsonl"));
        let trace = dir.join(format!("trace{fps}.jsonl"));
        std::fs::write(&frames, frames_at(fps, 10, None)).unwrap();
        let o = ludus()
            .args(["sim", "--frames"])
            .arg(&frames)
            .arg("--input")
            .arg(&input)
            .arg("--trace")
            .arg(&trace)
            .arg(example())
            .output()
            .unwrap();
        let s = summary(&o);
        assert_eq!(s["ticks"], 600, "{fps} fps: ten seconds at 60 Hz");
        runs.push(tick_hashes(&trace));
    }
    assert_eq!(runs[0].len(), 600);
    assert_eq!(runs[0], runs[1], "30 and 60 fps");
    assert_eq!(runs[1], runs[2], "60 and 144 fps");
}

#[test]
fn traces_carry_the_frame_loops_own_figures() {
    let dir = scratch("trace");
    let frames = dir.join("frames.jsonl");
    let trace = dir.join("trace.jsonl");
    std::fs::write(
        &frames,
        "{\"dt_ms\":0}\n{\"dt_ms\":100}\n{\"dt_ms\":1000}\n{\"dt_ms\":16,\"signal\":\"pause\"}\n{\"dt_ms\":500,\"signal\":\"step\"}\n{\"dt_ms\":16,\"signal\":\"resume\"}\n{\"dt_ms\":17}\n",
    )
    .unwrap();
    let o = ludus()
        .args(["sim", "--frames"])
        .arg(&frames)
        .arg("--trace")
        .arg(&trace)
        .arg(example())
        .output()
        .unwrap();
    let s = summary(&o);
    let frames: Vec<serde_json::Value> = std::fs::read_to_string(&trace)
        .unwrap()
        .lines()
        .filter(|l| l.starts_with("{\"frame\""))
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let f = |i: usize, k: &str| frames[i][k].clone();
    assert_eq!(
        (f(1, "ticks"), f(1, "discarded")),
        (4.into(), 2.into()),
        "100 ms at 60 Hz: 4 run, 2 discarded"
    );
    assert_eq!(
        (f(2, "accepted_ns"), f(2, "clamped_ns")),
        (250_000_000u64.into(), 750_000_000u64.into())
    );
    assert_eq!((f(2, "ticks"), f(2, "discarded")), (4.into(), 11.into()));
    assert_eq!(f(3, "mode"), "paused");
    assert_eq!(
        (f(4, "ticks"), f(4, "excluded_ns")),
        (1.into(), 500_000_000u64.into()),
        "a step, no wall time"
    );
    assert_eq!(f(5, "mode"), "playing");
    assert_eq!(f(6, "ticks"), 1);
    assert_eq!(s["ticks"], 10);
    assert_eq!(s["discarded_ticks"], 13);
}

#[test]
fn a_scripted_rewind_returns_to_the_recorded_state_and_goes_on_like_a_fresh_run() {
    let dir = scratch("rewind");
    let input = dir.join("input.jsonl");
    std::fs::write(
        &input,
        "{\"tick\":1,\"press\":[\"fire\"],\"axis\":{\"move_x\":1}}\n{\"tick\":90,\"axis\":{\"move_x\":0,\"move_y\":1}}\n{\"tick\":200,\"axis\":{\"move_y\":-1}}\n{\"tick\":320,\"release\":[\"fire\"],\"axis\":{\"move_x\":-1}}\n",
    )
    .unwrap();
    // 400 frames at 60 Hz; at frame 250, back 80 ticks.
    let frames: String = (0..400)
        .map(|i| {
            if i == 250 {
                "{\"dt_ms\":16.6667,\"signal\":\"rewind\",\"ticks\":80}\n".to_string()
            } else {
                "{\"dt_ms\":16.6667}\n".to_string()
            }
        })
        .collect();
    let frames_file = dir.join("frames.jsonl");
    std::fs::write(&frames_file, frames).unwrap();
    let trace = dir.join("trace.jsonl");
    let o = ludus()
        .arg("sim")
        .arg(example())
        .arg("--frames")
        .arg(&frames_file)
        .arg("--input")
        .arg(&input)
        .arg("--trace")
        .arg(&trace)
        .output()
        .unwrap();
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}{err}");
    let lines: Vec<serde_json::Value> = std::fs::read_to_string(&trace)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let rewound = lines.iter().find(|l| l.get("rewound").is_some()).unwrap();
    let at = rewound["tick"].as_u64().unwrap();
    let before = lines
        .iter()
        .find(|l| l.get("entities").is_some() && l["tick"].as_u64() == Some(at))
        .unwrap();
    assert_eq!(
        rewound["hash"], before["hash"],
        "back at tick {at}, in that tick's state"
    );
    // Going on from there equals a fresh run of the input for as many ticks.
    let summary: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    let ticks = summary["ticks"].as_u64().unwrap();
    let fresh = ludus()
        .arg("sim")
        .arg(example())
        .arg("--input")
        .arg(&input)
        .args(["--ticks", &ticks.to_string()])
        .output()
        .unwrap();
    let fresh: serde_json::Value = serde_json::from_str(text(&fresh).0.trim()).unwrap();
    assert_eq!(summary["hash"], fresh["hash"]);
    assert_eq!(summary["world_tick"], fresh["world_tick"]);
    // `ticks` only goes with a rewind.
    std::fs::write(&frames_file, "{\"dt_ms\":16,\"ticks\":3}\n").unwrap();
    let o = ludus()
        .arg("sim")
        .arg(example())
        .arg("--frames")
        .arg(&frames_file)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o).1.contains("`ticks` goes with"), "{}", text(&o).1);
}

/// A `step` line's tap is the stepped tick's press; a press gathered while paused and never
/// stepped does not reach play after the resume.
#[test]
fn a_step_line_steps_with_its_own_input() {
    let dir = scratch("step-input");
    let game = dir.join("game");
    std::fs::create_dir_all(&game).unwrap();
    std::fs::write(
        game.join("game.toml"),
        "name = \"Step\"\n[scripts]\nfiles = [\"main.lua\"]\n[input.actions.jump]\nkind = \"button\"\nkeys = [\"space\"]\n[levels.main]\n",
    )
    .unwrap();
    std::fs::write(
        game.join("main.lua"),
        "function on_tick(t)\n  if ludus.pressed('jump') then ludus.set('pressed_at', t.tick) end\n  \
         if ludus.held('jump') then ludus.set('held_at', t.tick) end\nend\n",
    )
    .unwrap();
    let frames = dir.join("frames.jsonl");
    std::fs::write(
        &frames,
        [
            r#"{"dt_ms":0}"#,
            r#"{"dt_ms":17}"#,
            r#"{"dt_ms":17,"signal":"pause"}"#,
            r#"{"dt_ms":17,"signal":"step","tap":["jump"]}"#,
            r#"{"dt_ms":17,"press":["jump"]}"#,
            r#"{"dt_ms":17,"signal":"resume"}"#,
            r#"{"dt_ms":17}"#,
            r#"{"dt_ms":17}"#,
        ]
        .join("\n"),
    )
    .unwrap();
    let o = ludus()
        .args(["sim", "--frames"])
        .arg(&frames)
        .arg(&game)
        .output()
        .unwrap();
    let s = summary(&o);
    assert_eq!(
        (s["ticks"].clone(), s["vars"].clone()),
        (4.into(), serde_json::json!({ "pressed_at": 2 })),
        "tick 2 (the step) saw the tap; nothing gathered after it reached ticks 3 and 4: {s}"
    );
}

//! `ludus bench`, end to end: the simulation workloads next to the same work by hand, and the
//! render bench off screen and in a window under Xvfb.

mod support;

use support::cli::{ludus, scratch, text};

/// The rows of a `ludus bench` table: its cells, without the header.
fn bench_rows(out: &str) -> Vec<Vec<String>> {
    out.lines()
        .filter(|l| l.starts_with("| ") && l.as_bytes().get(2).is_some_and(u8::is_ascii_digit))
        .map(|l| l.split('|').map(|c| c.trim().to_string()).collect())
        .collect()
}

/// `ludus bench ARGS` writing its CSV and SVG files as `dir/b.csv` and `dir/b.svg`.
fn bench_in(dir: &std::path::Path, args: &[&str]) -> std::process::Output {
    ludus()
        .arg("bench")
        .args(args)
        .arg("--csv")
        .arg(dir.join("b.csv"))
        .arg("--svg")
        .arg(dir.join("b.svg"))
        .output()
        .unwrap()
}

#[test]
fn bench_measures_each_workload_next_to_the_same_work_by_hand() {
    let dir = scratch("bench");
    let bench = |extra: &[&str]| {
        let mut args = vec!["--from", "500", "--to", "1000", "--ticks", "3"];
        args.extend_from_slice(&["--warmup", "1"]);
        args.extend_from_slice(extra);
        let o = bench_in(&dir, &args);
        let (out, err) = text(&o);
        assert!(o.status.success(), "{args:?}: {out}\n{err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        let svg = std::fs::read_to_string(dir.join("b.svg")).unwrap();
        (bench_rows(&out), svg)
    };
    // The example's drones and the pushing crowd each have their reference: a time and a
    // ratio in every row, and the reference's line on the plot.
    for extra in [&[][..], &["--workload", "crowd"], &["--serial"]] {
        let (rows, svg) = bench(extra);
        assert_eq!(rows.len(), 2, "{extra:?}: a row per count");
        for r in &rows {
            let by_hand: f64 = r[8].parse().unwrap_or_else(|_| panic!("{extra:?}: {r:?}"));
            assert!(by_hand > 0.0, "{extra:?}: {r:?}");
            assert!(r[9].ends_with('x'), "{extra:?}: {r:?}");
        }
        assert!(svg.contains("the same work by hand"), "{extra:?}");
    }
    // A game no reference models: the columns say so, and nothing panics.
    let game = dir.join("game");
    let o = ludus().arg("new").arg(&game).output().unwrap();
    assert!(o.status.success(), "{}", text(&o).1);
    let toml = std::fs::read_to_string(game.join("game.toml")).unwrap();
    std::fs::write(
        game.join("game.toml"),
        toml + "\n[stress]\narchetype = \"gem\"\n",
    )
    .unwrap();
    let (rows, svg) = bench(&[game.to_str().unwrap()]);
    assert_eq!(rows.len(), 2);
    assert!(rows.iter().all(|r| r[8] == "-" && r[9] == "-"), "{rows:?}");
    assert!(!svg.contains("the same work by hand"));
}

/// The bench runs counts past the game's `[limits] entities` (it raises the limit for its own
/// drones), reports the heap each side holds per entity, and times the drones by hand on two
/// threads where the tick splits its passes.
#[test]
fn bench_raises_the_entity_limit_and_reports_memory_and_the_two_thread_reference() {
    let dir = scratch("bench-limits");
    let game = dir.join("swarm");
    support::copy_dir(&support::example("swarm"), &game);
    let toml = std::fs::read_to_string(game.join("game.toml")).unwrap();
    assert!(!toml.contains("[limits]"), "the example sets no limits");
    std::fs::write(
        game.join("game.toml"),
        toml + "\n[limits]\nentities = 100\n",
    )
    .unwrap();
    let game_dir = game.to_str().unwrap();
    let o = bench_in(
        &dir,
        &[
            game_dir, "--from", "9000", "--to", "9000", "--ticks", "2", "--warmup", "1",
        ],
    );
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    let rows = bench_rows(&out);
    assert_eq!(rows.len(), 1, "{out}");
    let r = &rows[0];
    // The level's entities and 9000 drones, less those the player's shots have taken.
    let entities: u32 = r[1].parse().unwrap();
    assert!((9000..=9013).contains(&entities), "{r:?}");
    // Two threads by hand (9000 drones split where there are two cores), then heap bytes per
    // entity: the game's columns, buffers and VM, and the reference's eleven columns of 4 and
    // 8 bytes.
    if std::thread::available_parallelism().is_ok_and(|n| n.get() > 1) {
        assert!(r[12].parse::<f64>().unwrap() > 0.0, "{r:?}");
        assert!(r[13].ends_with('x'), "{r:?}");
    }
    let (game_bytes, by_hand): (f64, f64) = (r[14].parse().unwrap(), r[15].parse().unwrap());
    assert!((55.0..=57.0).contains(&by_hand), "{r:?}");
    assert!(game_bytes > by_hand, "{r:?}");
    let written = std::fs::read_to_string(dir.join("b.csv")).unwrap();
    assert!(
        written.lines().next().unwrap().ends_with(
            ",split_by_hand_median_ms,split_by_hand_ratio,bytes_per_entity,by_hand_bytes_per_entity,mean_ms,measured_ticks"
        ),
        "{written}"
    );
    // A limit the bench does not raise stops the ladder: the fault names it, and a ladder
    // with no rung measured is an error.
    let toml = std::fs::read_to_string(game.join("game.toml")).unwrap();
    std::fs::write(
        game.join("game.toml"),
        toml.replace("entities = 100", "contacts = 1"),
    )
    .unwrap();
    // 20000 drones in the arena: several start on the player.
    let o = bench_in(
        &dir,
        &[
            game_dir, "--from", "20000", "--to", "20000", "--ticks", "2", "--warmup", "1",
        ],
    );
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}\n{err}");
    assert!(err.contains("raise [limits] contacts"), "{err}");
    assert!(err.contains("no count of the ladder was measured"), "{err}");
    std::fs::write(game.join("game.toml"), toml).unwrap();
    // One core: no split reference.
    let o = bench_in(
        &dir,
        &[
            game_dir, "--from", "9000", "--to", "9000", "--ticks", "2", "--warmup", "1", "--serial",
        ],
    );
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    let rows = bench_rows(&out);
    assert_eq!(
        (rows[0][12].as_str(), rows[0][13].as_str()),
        ("-", "-"),
        "{out}"
    );
}

/// A game that ends during a rung is measured up to its end, not on past it (an ended game is
/// not played), with its references timed over as many ticks; one that ends within the
/// warm-up measures nothing, and says so.
#[test]
fn bench_measures_a_game_up_to_its_end() {
    let dir = scratch("bench-ended");
    let game = dir.join("swarm");
    support::copy_dir(&support::example("swarm"), &game);
    let toml = std::fs::read_to_string(game.join("game.toml")).unwrap();
    let frail = "health = { max = 1, invulnerable = 50 }";
    std::fs::write(
        game.join("game.toml"),
        toml.replace("health = { max = 6, invulnerable = 50 }", frail),
    )
    .unwrap();
    let game_dir = game.to_str().unwrap();
    // 9000 drones: several start on the player, whose one point of health goes in tick 1.
    let ladder = ["--from", "9000", "--to", "9000", "--ticks", "50"];
    let o = bench_in(
        &dir,
        &[&[game_dir][..], &ladder, &["--warmup", "0"]].concat(),
    );
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    assert_eq!(bench_rows(&out).len(), 1, "{out}");
    assert!(
        out.contains("the game ended (\"Game over\") at tick 1 in 1 of the 1 rungs"),
        "{out}"
    );
    let written = std::fs::read_to_string(dir.join("b.csv")).unwrap();
    let last = written.lines().nth(1).unwrap().rsplit(',').next().unwrap();
    assert_eq!(last, "1", "one measured tick: {written}");
    // Ended within the warm-up: no rung, and why.
    let o = bench_in(
        &dir,
        &[&[game_dir][..], &ladder, &["--warmup", "40"]].concat(),
    );
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}\n{err}");
    assert!(
        err.contains("the game ended at tick 1 (\"Game over\"), within the 40 warm-up ticks"),
        "{err}"
    );
    assert!(err.contains("no count of the ladder was measured"), "{err}");
}

#[test]
fn bench_render_measures_extracting_and_batching_every_sprite() {
    let dir = scratch("bench-render");
    let csv = dir.join("r.csv");
    let o = ludus()
        .args([
            "bench", "--render", "--from", "300", "--to", "600", "--ticks", "2",
        ])
        .args(["--warmup", "0", "--csv"])
        .arg(&csv)
        .output()
        .unwrap();
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    // sprites, extract ms, batch ms, total ms, ns/sprite, draw calls: one sheet, one call.
    let rows: Vec<Vec<&str>> = out
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .filter(|w| w.len() == 6 && w[0].parse::<u32>().is_ok())
        .collect();
    let counts: Vec<(&str, &str)> = rows.iter().map(|r| (r[0], r[5])).collect();
    assert_eq!(counts, [("300", "1"), ("600", "1")], "{out}");
    for r in &rows {
        for t in &r[1..4] {
            assert!(t.parse::<f64>().unwrap() > 0.0, "{r:?}");
        }
    }
    let written = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(written.lines().count(), 3, "{written}");
    assert!(written.starts_with("sprites,extract_ms,batch_ms,total_ms,draw_calls\n"));
}

#[test]
fn bench_render_in_a_window_draws_every_rung_through_the_renderer() {
    if !support::xvfb_available() {
        return;
    }
    let dir = scratch("bench-render-window");
    let csv = dir.join("r.csv");
    let o = support::xvfb("1280x720", &dir)
        .arg(env!("CARGO_BIN_EXE_ludus"))
        .args([
            "bench", "--render", "--window", "--from", "300", "--to", "600",
        ])
        .args(["--ticks", "3", "--warmup", "1", "--csv"])
        .arg(&csv)
        .output()
        .unwrap();
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    assert!(out.contains("in a window (1280 x 720"), "{out}");
    // sprites, submit ms, frame ms, draw calls: the window's table.
    let rows: Vec<Vec<&str>> = out
        .lines()
        .skip_while(|l| !l.starts_with("in a window"))
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .filter(|w| w.len() == 4 && w[0].parse::<u32>().is_ok())
        .collect();
    let counts: Vec<(&str, &str)> = rows.iter().map(|r| (r[0], r[3])).collect();
    assert_eq!(counts, [("300", "1"), ("600", "1")], "{out}");
    for r in &rows {
        let (submit, frame) = (r[1].parse::<f64>().unwrap(), r[2].parse::<f64>().unwrap());
        assert!(submit > 0.0 && frame >= submit, "{r:?}");
    }
    let written = std::fs::read_to_string(&csv).unwrap();
    let lines: Vec<&str> = written.lines().collect();
    assert_eq!(
        lines[0],
        "sprites,extract_ms,batch_ms,total_ms,draw_calls,window_submit_ms,window_frame_ms"
    );
    assert!(
        lines[1..].iter().all(|l| l.split(',').count() == 7),
        "{written}"
    );
    assert_eq!(lines.len(), 3, "{written}");
}

/// A game without `[stress]` cannot fill a ladder or `--entities`: both say which lines of
/// game.toml would let them, naming one of the game's own archetypes.
#[test]
fn a_game_without_stress_is_told_what_to_declare() {
    let dir = scratch("bench-no-stress");
    let pong = support::example("pong");
    for args in [
        vec!["bench", "--from", "10", "--to", "10"],
        vec!["sim", "--entities", "5"],
    ] {
        let out = ludus()
            .args(&args[..1])
            .arg(&pong)
            .args(&args[1..])
            .current_dir(&dir)
            .output()
            .unwrap();
        assert!(!out.status.success(), "{args:?}");
        let (_, err) = text(&out);
        assert!(
            err.contains("declares no [stress] archetype")
                && err.contains("add `[stress]` with `archetype = \"ball\"`"),
            "{args:?}: {err}"
        );
    }
    assert!(!dir.join("bench.csv").exists(), "no ladder, no table");
}

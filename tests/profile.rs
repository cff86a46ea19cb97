//! The profiler: `ludus sim --profile` prints the table of every phase, native system and Lua
//! handler (count, total, mean, p99, share) and changes no result; `--trace-events` writes
//! Chrome trace JSON whose events nest tick > phase > system > handler under the names the
//! phases declare; the window's profiler page draws under Xvfb.

mod support;

use serde_json::Value;
use support::{ludus, scratch, xvfb_available};

fn swarm() -> std::path::PathBuf {
    support::example("swarm")
}

/// A 1,000-tick run of the swarm: the trace parses, every event is a complete event, each
/// tick holds the six phases in order, each phase its systems as declared, and each handler
/// call lies inside a gameplay stage.
#[test]
fn a_trace_of_the_swarm_nests_ticks_phases_systems_and_handlers() {
    let dir = scratch("profile", "trace");
    let trace = dir.join("swarm.trace.json");
    let o = ludus()
        .args(["sim", "--ticks", "1000", "--trace-events"])
        .arg(&trace)
        .arg(swarm())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let summary: Value = serde_json::from_slice(&o.stdout).unwrap();
    let ticks = summary["ticks"].as_u64().unwrap();
    let doc: Value = serde_json::from_slice(&std::fs::read(&trace).unwrap()).unwrap();
    let events = doc["traceEvents"].as_array().unwrap();
    let get = |e: &Value, k: &str| e[k].as_f64().unwrap();
    let of = |cat: &str| -> Vec<&Value> { events.iter().filter(|e| e["cat"] == cat).collect() };
    for e in events {
        assert_eq!(e["ph"], "X", "{e}");
        assert!(get(e, "dur") >= 0.0 && get(e, "ts") >= 0.0, "{e}");
    }
    let ticks_seen = of("tick");
    assert_eq!(ticks_seen.len() as u64, ticks);
    let phases = of("phase");
    assert_eq!(phases.len() as u64, 6 * ticks);
    let inside = |inner: &Value, outer: &Value| {
        let eps = 0.002;
        get(inner, "ts") + eps >= get(outer, "ts")
            && get(inner, "ts") + get(inner, "dur") <= get(outer, "ts") + get(outer, "dur") + eps
    };
    let schedule = ludus_core::native_systems();
    for t in &ticks_seen {
        let tick = &t["args"]["tick"];
        let mine: Vec<&&Value> = phases
            .iter()
            .filter(|p| p["args"]["tick"] == *tick)
            .collect();
        let names: Vec<&str> = mine.iter().map(|p| p["name"].as_str().unwrap()).collect();
        let expected: Vec<&str> = ludus_core::Phase::ALL.iter().map(|p| p.name()).collect();
        assert_eq!(names, expected, "tick {tick}");
        for p in &mine {
            assert!(inside(p, t), "{p} in {t}");
        }
        if tick.as_u64() == Some(2) {
            for (phase, p) in ludus_core::Phase::ALL.iter().zip(&mine) {
                let systems: Vec<&Value> = of("system")
                    .into_iter()
                    .filter(|s| s["args"]["tick"] == *tick && s["args"]["phase"] == phase.name())
                    .collect();
                let names: Vec<&str> = systems
                    .iter()
                    .map(|s| s["name"].as_str().unwrap())
                    .collect();
                let declared: Vec<&str> = schedule
                    .order(*phase)
                    .into_iter()
                    .map(|s| s.name())
                    .collect();
                assert_eq!(names, declared, "{}", phase.name());
                for s in systems {
                    assert!(inside(s, p), "{s} in {p}");
                }
            }
        }
    }
    let handlers = of("handler");
    assert!(!handlers.is_empty());
    let stages: Vec<&Value> = of("system")
        .into_iter()
        .filter(|s| s["name"] == "stage_one" || s["name"] == "stage_two")
        .collect();
    for h in &handlers {
        let name = h["name"].as_str().unwrap();
        assert!(
            name.starts_with("scripts/") && name.contains(".lua:on_"),
            "{name}"
        );
        assert!(
            stages
                .iter()
                .any(|s| s["args"]["tick"] == h["args"]["tick"] && inside(h, s)),
            "{h}"
        );
    }
}

/// `--profile` prints the table on standard error and leaves the run's results as they were.
#[test]
fn the_profile_table_lists_every_item_and_changes_nothing() {
    let plain = ludus()
        .args(["sim", "--ticks", "300"])
        .arg(swarm())
        .output()
        .unwrap();
    let profiled = ludus()
        .args(["sim", "--ticks", "300", "--profile"])
        .arg(swarm())
        .output()
        .unwrap();
    assert!(!plain.stdout.is_empty());
    let a: Value = serde_json::from_slice(&plain.stdout).unwrap();
    let b: Value = serde_json::from_slice(&profiled.stdout).unwrap();
    assert_eq!((&a["hash"], &a["ticks"]), (&b["hash"], &b["ticks"]));
    let err = String::from_utf8_lossy(&profiled.stderr);
    let lines: Vec<&str> = err.lines().collect();
    let head = lines
        .iter()
        .position(|l| l.starts_with("kind "))
        .expect("a table");
    for word in ["name", "count", "total ms", "mean µs", "p99 µs", "share"] {
        assert!(lines[head].contains(word), "{}", lines[head]);
    }
    let row = |kind: &str, name: &str| {
        lines.iter().any(|l| {
            let mut f = l.split_whitespace();
            f.next() == Some(kind) && l.contains(name)
        })
    };
    assert!(row("tick", "tick"));
    for p in ludus_core::Phase::ALL {
        assert!(row("phase", p.name()), "{}", p.name());
    }
    for s in ["collide", "hash", "stage_one", "commit", "integrate"] {
        assert!(row("system", s), "{s}");
    }
    assert!(row("handler", "scripts/waves.lua:on_timer"), "{err}");
    assert!(lines.last().unwrap().starts_with("300 ticks, "), "{err}");
}

/// The profiler page under Xvfb: a dark panel at the top right with the items' rows and bars,
/// which the plain window does not have.
#[test]
fn the_window_draws_the_profiler_page() {
    if !xvfb_available() {
        return;
    }
    let dir = scratch("profile", "window");
    let shot = |name: &str, extra: &[&str]| -> Vec<u8> {
        let path = dir.join(name);
        let o = support::xvfb("1024x768", &dir)
            .arg(env!("CARGO_BIN_EXE_ludus"))
            .arg("run")
            .arg(support::example("breakout"))
            // At most 60 frames a second, so 150 frames take 2.5 s: well past the 60 ticks
            // the profiler measures before it shows its rows (240, the default cap, took 0.6 s).
            .args([
                "--frames-max",
                "150",
                "--fps-cap",
                "60",
                "--no-watch",
                "--screenshot",
            ])
            .arg(&path)
            .args(extra)
            .env("LUDUS_NO_AUDIO", "1")
            .env("XDG_DATA_HOME", &dir)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let decoder = png::Decoder::new(std::io::Cursor::new(std::fs::read(&path).unwrap()));
        let mut reader = decoder.read_info().unwrap();
        let mut px = vec![0; reader.output_buffer_size()];
        let info = reader.next_frame(&mut px).unwrap();
        px.truncate(info.buffer_size());
        px
    };
    let green = [170, 255, 170];
    let plain = support::count(&shot("plain.png", &[]), green, 40);
    let page = support::count(&shot("page.png", &["--profiler"]), green, 40);
    assert!(
        page > plain + 2000,
        "profiler text pixels: {page} (plain: {plain})"
    );
}

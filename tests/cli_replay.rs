//! `ludus sim --record` and `ludus replay`, end to end: identical replays, divergences named by
//! tick and entity, recorded faults, changed rules, and damaged or mismatched recordings.

mod support;

use support::cli::{example, input_lines, ludus, scratch, summary, text};

use std::path::{Path, PathBuf};

#[test]
fn a_recording_replays_identically_in_a_fresh_process() {
    let dir = scratch("replay");
    let input = dir.join("input.jsonl");
    let rec = dir.join("run.rec");
    std::fs::write(&input, input_lines(10_000)).unwrap();
    let o = ludus()
        .args(["sim", "--ticks", "10000", "--input"])
        .arg(&input)
        .arg("--record")
        .arg(&rec)
        .arg(example())
        .output()
        .unwrap();
    assert!(o.status.success(), "{:?}", text(&o));
    let o_sim = o;
    let o = ludus().arg("replay").arg(&rec).output().unwrap();
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}{err}");
    let played = summary(&o_sim)["ticks"].as_u64().unwrap();
    assert!(out.contains(&format!("replayed {played} ticks")), "{out}");

    // A value perturbed just before tick 1234 is reported as a divergence at tick 1234.
    let o = ludus()
        .arg("replay")
        .arg(&rec)
        .args(["--perturb-tick", "1234"])
        .output()
        .unwrap();
    let (out, _) = text(&o);
    assert_eq!(o.status.code(), Some(1));
    assert!(out.contains("diverged at tick 1234"), "{out}");
    assert!(out.contains("globals"), "names the differing part: {out}");
}

#[test]
fn detailed_recordings_name_the_entity_that_diverged() {
    let dir = scratch("detail");
    let rec = dir.join("run.rec");
    let o = ludus()
        .args(["sim", "--ticks", "300", "--record-detail", "--record"])
        .arg(&rec)
        .arg(example())
        .output()
        .unwrap();
    assert!(o.status.success(), "{:?}", text(&o));
    let o = ludus()
        .arg("replay")
        .arg(&rec)
        .args(["--perturb-tick", "200"])
        .output()
        .unwrap();
    let (out, _) = text(&o);
    assert!(out.contains("diverged at tick 200"), "{out}");
}

#[test]
fn damaged_and_mismatched_recordings_are_refused_cleanly() {
    let dir = scratch("damaged");
    let rec = dir.join("run.rec");
    let o = ludus()
        .args(["sim", "--ticks", "200", "--record"])
        .arg(&rec)
        .arg(example())
        .output()
        .unwrap();
    assert!(o.status.success());
    let bytes = std::fs::read(&rec).unwrap();
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("truncated", bytes[..bytes.len() / 2].to_vec(), "truncated"),
        (
            "flipped",
            {
                let mut b = bytes.clone();
                let i = b.len() / 2;
                b[i] ^= 0x5a;
                b
            },
            "corrupt",
        ),
        (
            "not a recording",
            b"hello".to_vec(),
            "not a Ludus recording",
        ),
        ("empty", Vec::new(), "not a Ludus recording"),
        (
            "future version",
            {
                let mut b = bytes.clone();
                b[8] = 99;
                b
            },
            "version",
        ),
    ];
    for (name, content, expect) in cases {
        let path = dir.join(format!("{}.rec", name.replace(' ', "_")));
        std::fs::write(&path, content).unwrap();
        let o = ludus().arg("replay").arg(&path).output().unwrap();
        let (out, err) = text(&o);
        assert_eq!(o.status.code(), Some(1), "{name}: {out}{err}");
        assert!(err.contains(expect), "{name}: {err}");
        assert!(
            !err.contains("panicked") && !err.contains("internal error"),
            "{name}: {err}"
        );
    }
    // The same recording's input cannot run on a game without its level.
    let tmp = scratch("other");
    let other = tmp.join("g");
    assert!(
        ludus()
            .arg("new")
            .arg(&other)
            .output()
            .unwrap()
            .status
            .success()
    );
    let o = ludus()
        .arg("replay")
        .arg(&rec)
        .arg("--game")
        .arg(&other)
        .output()
        .unwrap();
    let (_, err) = text(&o);
    assert_eq!(o.status.code(), Some(1));
    assert!(err.contains("different content"), "{err}");
}

/// A game whose script faults at its thirtieth tick.
const FAULTY: &str = "name = \"Faulty\"\n[scripts]\nfiles = [\"main.lua\"]\n[archetypes.dot]\nsprite = { shape = \"circle\", size = 8 }\n[levels.main]\nplace = [{ archetype = \"dot\", at = [0, 0] }]\n";

#[test]
fn a_faulting_run_records_its_fault_and_replays_to_the_same_fault() {
    let dir = scratch("faulty");
    std::fs::write(dir.join("game.toml"), FAULTY).unwrap();
    let script = "local n = 0\nfunction on_tick()\n  n = n + 1\n  if n == 30 then error(\"the thirtieth tick\") end\nend\n";
    std::fs::write(dir.join("main.lua"), script).unwrap();
    let rec = dir.join("run.ludusrec");
    let o = ludus()
        .args(["sim", "--ticks", "100", "--record"])
        .arg(&rec)
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1), "the run faults");
    let o = ludus().arg("replay").arg(&rec).output().unwrap();
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}{err}");
    assert!(
        out.contains("replayed 29 ticks of Faulty: every state hash matches, and tick 30 faults as recorded: the thirtieth tick"),
        "{out}"
    );
    // Fixed, the same recording no longer faults there: a divergence at tick 30.
    std::fs::write(dir.join("main.lua"), "function on_tick() end\n").unwrap();
    let o = ludus()
        .arg("replay")
        .arg(&rec)
        .arg("--game")
        .arg(&dir)
        .output()
        .unwrap();
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}{err}");
    assert!(
        out.contains("the content differs from the recording's"),
        "{out}"
    );
    assert!(
        out.contains("the state equals the recording's at every tick rerun (29 of 29)"),
        "{out}"
    );
}

#[test]
fn replay_reruns_a_recording_on_changed_rules_and_names_the_first_difference() {
    let dir = scratch("rules");
    let rec = dir.join("run.ludusrec");
    let o = ludus()
        .args(["sim", "--ticks", "600", "--record"])
        .arg(&rec)
        .arg(example())
        .output()
        .unwrap();
    assert!(o.status.success());
    // A copy of the game with faster enemies.
    let copy = dir.join("swarm");
    let src = example();
    for entry in walk(&src) {
        let to = copy.join(entry.strip_prefix(&src).unwrap());
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(&entry, &to).unwrap();
    }
    let enemies = copy.join("enemies.toml");
    let text_of = std::fs::read_to_string(&enemies).unwrap();
    std::fs::write(&enemies, text_of.replacen("speed = 115", "speed = 300", 1)).unwrap();
    let o = ludus()
        .arg("replay")
        .arg(&rec)
        .arg("--game")
        .arg(&copy)
        .output()
        .unwrap();
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}{err}");
    let summary: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    assert!(summary["ticks"].as_u64().unwrap() > 0, "{summary}");
    let first = out
        .lines()
        .find_map(|l| l.strip_prefix("the state first differs from the recording at tick "))
        .unwrap_or_else(|| panic!("{out}"));
    let tick: u64 = first.split(' ').next().unwrap().parse().unwrap();
    assert!((1..600).contains(&tick), "{out}");
    // Its last line says how fast the rerun went.
    let last = out.lines().last().unwrap();
    let rate = last
        .strip_prefix(&format!("re-simulated {} ticks in ", summary["ticks"]))
        .and_then(|l| l.strip_suffix(" ticks per second"))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(
        rate.split(": ").nth(1).unwrap().parse::<f64>().unwrap() > 0.0,
        "{out}"
    );
    // The same content replays strictly, as before.
    let o = ludus().arg("replay").arg(&rec).output().unwrap();
    assert!(text(&o).0.contains("every state hash matches"));
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let p = entry.path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}

#[test]
fn a_recording_whose_game_folder_is_not_here_asks_for_it() {
    // Recorded with the game folder as a relative path, from the repository's root.
    let dir = scratch("elsewhere");
    let rec = dir.join("run.rec");
    std::fs::write(dir.join("input.jsonl"), input_lines(30)).unwrap();
    let o = ludus()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["sim", "--ticks", "30", "--input"])
        .arg(dir.join("input.jsonl"))
        .arg("--record")
        .arg(&rec)
        .arg("examples/swarm")
        .output()
        .unwrap();
    assert!(o.status.success(), "{:?}", text(&o));
    // Replayed from elsewhere, the relative folder is not there: the error says how to give it.
    let o = ludus()
        .current_dir(&*dir)
        .arg("replay")
        .arg(&rec)
        .output()
        .unwrap();
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}{err}");
    assert!(
        err.contains("the recording names its game folder examples/swarm")
            && err.contains("--game DIR"),
        "{err}"
    );
    // Given with --game, it replays.
    let o = ludus()
        .current_dir(&*dir)
        .arg("replay")
        .arg(&rec)
        .arg("--game")
        .arg(example())
        .output()
        .unwrap();
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}{err}");
    assert!(out.contains("every state hash matches"), "{out}");
}

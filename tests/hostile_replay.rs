//! `ludus replay` and `ludus sim` against recordings and scripts written to hurt: a recording of
//! a hundred thousand level activations, recordings naming levels, actions and archetypes the
//! game lacks, fault messages full of terminal control characters, and a 10 MB fault message.
//! Each run ends within a generous bound as a clean result or error, never raw control
//! characters on the terminal.

mod support;

use ludus_core::*;
use std::path::Path;
use support::Scratch;
use support::cli::{example, ludus, raw_controls, scratch, summary, text, within};

/// A recording of `ticks` ticks of the swarm example, written to `dir`.
fn swarm_recording(dir: &Path, ticks: u32) -> Recording {
    let rec = dir.join("swarm.ludusrec");
    let o = ludus()
        .args(["sim", "--ticks", &ticks.to_string(), "--record"])
        .arg(&rec)
        .arg(example())
        .output()
        .unwrap();
    assert!(o.status.success(), "{:?}", text(&o));
    Recording::from_bytes(&std::fs::read(&rec).unwrap()).unwrap()
}

/// `ludus replay` of `rec` (written to `dir/name`), within a minute.
fn replay(dir: &Path, name: &str, rec: &Recording) -> (Option<i32>, String, String) {
    let path = dir.join(name);
    std::fs::write(&path, rec.to_bytes()).unwrap();
    let o = within(ludus().arg("replay").arg(&path), 60, Some(2048));
    let (out, err) = text(&o);
    (o.status.code(), out, err)
}

#[test]
fn a_recording_of_a_hundred_thousand_level_activations_is_refused_at_once() {
    let dir = scratch("segments");
    let rec = swarm_recording(&dir, 2);
    let level = rec.segments[0].level.clone();
    let empty = Segment {
        level: level.clone(),
        switched: false,
        ticks: Vec::new(),
    };
    let one_tick = Segment {
        ticks: rec.segments[0].ticks[..1].to_vec(),
        ..empty.clone()
    };
    // (name, segments after the recorded one, refused with)
    let cases: [(&str, Vec<Segment>, Option<&str>); 4] = [
        (
            "100k empty",
            vec![empty.clone(); 99_999],
            Some("100000 segments (level activations); segment 257 begins after 2 ticks"),
        ),
        (
            "10k of one tick",
            vec![one_tick.clone(); 9_999],
            Some("10000 segments (level activations); segment 274 begins after 274 ticks"),
        ),
        (
            "257 empty",
            vec![empty.clone(); 256],
            Some(
                "257 segments (level activations); segment 257 begins after 2 ticks, and a recording begins at most 256 plus one per 16 ticks recorded before them (here 256)",
            ),
        ),
        ("100 empty", vec![empty.clone(); 99], None),
    ];
    for (name, more, refused) in cases {
        let mut r = rec.clone();
        r.segments.extend(more);
        let (code, out, err) = replay(&dir, &format!("{}.ludusrec", name.replace(' ', "_")), &r);
        match refused {
            Some(expect) => {
                assert_eq!(code, Some(1), "{name}: {out}{err}");
                assert!(err.contains(expect), "{name}: {err}");
                assert!(
                    err.contains("each costs a replay a level build"),
                    "{name}: {err}"
                );
            }
            None => {
                assert_eq!(code, Some(0), "{name}: {out}{err}");
                assert!(
                    out.contains("replayed 2 ticks of Swarm: every state hash matches"),
                    "{name}: {out}"
                );
            }
        }
    }
}

#[test]
fn a_recording_naming_what_the_game_lacks_is_refused_with_what_it_names() {
    let dir = scratch("names");
    let rec = swarm_recording(&dir, 5);
    type Damage = fn(&mut Recording);
    let cases: [(&str, Damage, &str); 5] = [
        (
            "first level",
            |r| r.segments[0].level = "nowhere".into(),
            "segment 1 is level `nowhere`, which the game does not declare (its levels: arena)",
        ),
        (
            "a later level",
            |r| {
                let mut s = r.segments[0].clone();
                s.level = "attic".into();
                r.segments.push(s);
            },
            "segment 2 is level `attic`, which the game does not declare",
        ),
        (
            "an action",
            |r| r.segments[0].ticks[2].input.held = 1 << 40,
            "segment 1, tick 3: the input uses action number 41, but the game declares",
        ),
        (
            "an archetype",
            |r| {
                r.segments[0].ticks[1].detail = Some(vec![EntityValues {
                    seq: 1,
                    archetype: 999,
                    pos: [0.0, 0.0],
                    vel: [0.0, 0.0],
                    health: None,
                }])
            },
            "segment 1, tick 2: entity #1 has archetype number 999, but the game declares",
        ),
        (
            "a level named with an escape",
            |r| r.segments[0].level = "arena\u{1b}[2J".into(),
            "segment 1: the level name contains control characters",
        ),
    ];
    for (name, damage, expect) in cases {
        let mut r = rec.clone();
        damage(&mut r);
        let (code, out, err) = replay(&dir, "named.ludusrec", &r);
        assert_eq!(code, Some(1), "{name}: {out}{err}");
        assert!(err.contains(expect), "{name}: {err}");
        assert_eq!(raw_controls(&err), Vec::<char>::new(), "{name}: {err:?}");
    }
}

/// A game whose script, at its thirtieth tick, prints and raises `message` (a Lua expression),
/// in a scratch folder removed when the guard drops.
fn faulting_game(name: &str, message: &str) -> Scratch {
    let dir = scratch(name);
    std::fs::write(
        dir.join("game.toml"),
        "name = \"Faulty\"\n[scripts]\nfiles = [\"main.lua\"]\nbudget = 100000000\n[archetypes.dot]\n\
         sprite = { shape = \"circle\", size = 8 }\n[levels.main]\n\
         place = [{ archetype = \"dot\", at = [0, 0] }]\n",
    )
    .unwrap();
    let script = format!(
        "local n = 0\nfunction on_tick()\n  n = n + 1\n  if n == 30 then\n    local m = {message}\n    \
         print(m)\n    error(m)\n  end\nend\n"
    );
    std::fs::write(dir.join("main.lua"), script).unwrap();
    dir
}

/// Control characters a hostile message carries, as a Lua string.
const NASTY: &str = "\"\\27]0;pwned\\7\\27[2J\\r\\226\\128\\174evil\\194\\155x\"";

#[test]
fn fault_messages_with_control_characters_reach_the_terminal_escaped() {
    let game = faulting_game("controls", NASTY);
    let rec = game.join("run.ludusrec");
    let o = within(
        ludus()
            .args(["sim", "--ticks", "100", "--record"])
            .arg(&rec)
            .arg(&game),
        60,
        None,
    );
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(1), "the run faults: {out}{err}");
    let s = summary(&o);
    let message = s["fault"]["message"].as_str().unwrap();
    assert!(
        message.contains("\u{1b}]0;pwned\u{7}"),
        "JSON keeps the text, escaped: {out}"
    );
    assert_eq!(
        raw_controls(&out),
        Vec::<char>::new(),
        "sim's output: {out:?}"
    );
    assert_eq!(
        raw_controls(&err),
        Vec::<char>::new(),
        "what the script printed: {err:?}"
    );
    assert!(
        err.contains("\\u{1b}]0;pwned\\u{7}\\u{1b}[2J\\u{d}\\u{202e}evil\\u{9b}x"),
        "{err}"
    );

    // Replayed: the same fault, its message escaped.
    let o = within(ludus().arg("replay").arg(&rec), 60, None);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}{err}");
    assert!(out.contains("tick 30 faults as recorded: "), "{out}");
    assert!(
        out.contains("\\u{1b}]0;pwned\\u{7}\\u{1b}[2J\\u{d}\\u{202e}evil\\u{9b}x"),
        "{out}"
    );
    assert_eq!(raw_controls(&out), Vec::<char>::new(), "{out:?}");

    // A recording whose fault message was written to hurt: a divergence, escaped.
    let mut r = Recording::from_bytes(&std::fs::read(&rec).unwrap()).unwrap();
    r.fault.as_mut().unwrap().message = "\u{1b}[31mnot this\u{7}\u{2066}".into();
    let (code, out, err) = replay(&game, "forged.ludusrec", &r);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(
        out.contains("the recording faulted with \"\\u{1b}[31mnot this\\u{7}\\u{2066}\""),
        "{out}"
    );
    assert_eq!(raw_controls(&out), Vec::<char>::new(), "{out:?}");

    // A script that fails as the game starts: its error is escaped too.
    std::fs::write(game.join("main.lua"), format!("error({NASTY})\n")).unwrap();
    let o = within(ludus().arg("sim").arg(&game), 60, None);
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}{err}");
    assert!(err.contains("the game could not start"), "{err}");
    assert_eq!(raw_controls(&err), Vec::<char>::new(), "{err:?}");
}

#[test]
fn a_ten_megabyte_fault_message_is_cut_when_made_and_refused_when_recorded() {
    let game = faulting_game("huge", "string.rep(\"x\", 10 * 1024 * 1024)");
    let rec = game.join("run.ludusrec");
    let o = within(
        ludus()
            .args(["sim", "--ticks", "100", "--record"])
            .arg(&rec)
            .arg(&game),
        60,
        Some(2048),
    );
    assert_eq!(o.status.code(), Some(1), "the run faults, no abort");
    let s = summary(&o);
    let message = s["fault"]["message"].as_str().unwrap();
    assert!(
        message.len() <= MAX_FAULT_MESSAGE_BYTES,
        "{} bytes",
        message.len()
    );
    assert!(message.starts_with("xxxxxxxx"), "{}", &message[..80]);
    let end = &message[message.len() - 60..];
    assert!(end.contains("x… [cut from 1048"), "{end}");
    assert!(
        o.stdout.len() < 16 * 1024,
        "{} bytes of summary",
        o.stdout.len()
    );

    // The recording keeps the cut message and replays to it.
    let o = within(ludus().arg("replay").arg(&rec), 60, Some(2048));
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    assert!(out.contains("tick 30 faults as recorded: "), "{out}");
    assert!(out.len() < 16 * 1024, "{} bytes of output", out.len());

    // A recording that holds 10 MB of message is refused, naming the bound.
    let mut r = Recording::from_bytes(&std::fs::read(&rec).unwrap()).unwrap();
    r.fault.as_mut().unwrap().message = "x".repeat(10 << 20);
    let (code, out, err) = replay(&game, "huge-message.ludusrec", &r);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(
        err.contains(
            "the fault at tick 30: a message of 10485760 bytes (a fault message has at most 4096)"
        ),
        "{err}"
    );
}

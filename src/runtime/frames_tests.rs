//! `touches` in `--frames` and `--input` lines: what is accepted, what each tick sees, and the
//! same touches whether a line is pumped into a session or applied per tick.

use super::frames::{Format, parse};
use ludus_core::*;

fn def() -> GameDef {
    let mut def = GameDef::default();
    def.actions.add("fire", ActionKind::Button).unwrap();
    def
}

fn t(id: u32, x: f32, y: f32) -> Touch {
    Touch::new(id, [x, y])
}

#[test]
fn touches_are_checked_as_a_line_is_read() {
    let eleven: Vec<String> = (0..11)
        .map(|i| format!("{{\"id\":{i},\"x\":0,\"y\":0}}"))
        .collect();
    let eleven = format!("{{\"tick\":1,\"touches\":[{}]}}", eleven.join(","));
    // (line, the touches it gives or the error)
    type Case<'a> = (&'a str, Result<Option<Vec<Touch>>, &'a str>);
    let cases: Vec<Case> = vec![
        (r#"{"tick":1}"#, Ok(None)),
        (r#"{"tick":1,"touches":[]}"#, Ok(Some(vec![]))),
        (
            r#"{"tick":1,"touches":[{"id":2,"x":10,"y":-20.5},{"id":0,"x":1e9,"y":-1e9}]}"#,
            Ok(Some(vec![t(2, 10.0, -20.5), t(0, 1e9, -1e9)])),
        ),
        (
            r#"{"tick":1,"touches":[{"id":4294967295,"x":0,"y":0}]}"#,
            Ok(Some(vec![t(u32::MAX, 0.0, 0.0)])),
        ),
        (
            r#"{"tick":1,"touches":{"id":1,"x":0,"y":0}}"#,
            Err(
                "t:1: `touches` must be an array of {\"id\": n, \"x\": x, \"y\": y} in world units ([] when no finger is down)",
            ),
        ),
        (
            r#"{"tick":1,"touches":[[1,0,0]]}"#,
            Err(
                "t:1: `touches` must be an array of {\"id\": n, \"x\": x, \"y\": y} in world units ([] when no finger is down)",
            ),
        ),
        (
            &eleven,
            Err("t:1: `touches` lists 11 fingers; at most 10 are down at once"),
        ),
        (
            r#"{"tick":1,"touches":[{"id":1,"x":0,"y":0,"z":1}]}"#,
            Err("t:1: unknown key `z` in touch 1 (a touch is {\"id\", \"x\", \"y\"})"),
        ),
        (
            r#"{"tick":1,"touches":[{"id":-1,"x":0,"y":0}]}"#,
            Err("t:1: touch 1: `id` must be a whole number from 0 to 4294967295"),
        ),
        (
            r#"{"tick":1,"touches":[{"id":4294967296,"x":0,"y":0}]}"#,
            Err("t:1: touch 1: `id` must be a whole number from 0 to 4294967295"),
        ),
        (
            r#"{"tick":1,"touches":[{"id":1.5,"x":0,"y":0}]}"#,
            Err("t:1: touch 1: `id` must be a whole number from 0 to 4294967295"),
        ),
        (
            r#"{"tick":1,"touches":[{"id":1,"x":0,"y":0},{"id":2,"y":0}]}"#,
            Err("t:1: touch 2: `x` must be a number in world units within ±1e9"),
        ),
        (
            r#"{"tick":1,"touches":[{"id":1,"x":0,"y":2e9}]}"#,
            Err("t:1: touch 1: `y` must be a number in world units within ±1e9"),
        ),
        (
            r#"{"tick":1,"touches":[{"id":1,"x":"0","y":0}]}"#,
            Err("t:1: touch 1: `x` must be a number in world units within ±1e9"),
        ),
        (
            r#"{"tick":1,"touches":[{"id":3,"x":0,"y":0},{"id":3,"x":1,"y":1}]}"#,
            Err("t:1: touch 2: id 3 is down twice (each finger has its own id)"),
        ),
    ];
    for (text, want) in cases {
        let got = parse("t", text, Format::Input, &def()).map(|l| l[0].touches.clone());
        assert_eq!(got, want.map_err(str::to_string), "{text}");
    }
}

/// Each tick's touches and pointer, from a `--input` file, per tick and through a session.
#[test]
fn touches_persist_until_a_line_changes_them_and_the_first_is_the_pointer() {
    let text = r#"{"tick":2,"touches":[{"id":1,"x":10,"y":20}]}
{"tick":3,"touches":[{"id":5,"x":-1,"y":-2},{"id":1,"x":11,"y":21}]}
{"tick":5,"touches":[{"id":5,"x":-3,"y":-4}]}
{"tick":6,"touches":[{"id":5,"x":-3,"y":-4}],"pointer":[100,100]}
{"tick":7,"touches":[{"id":2,"x":7,"y":7},{"id":5,"x":-3,"y":-4}]}
{"tick":8,"touches":[]}
{"tick":9,"pointer":null}"#;
    let lines = parse("t", text, Format::Input, &def()).unwrap();
    // (tick, touches, pointer)
    let want: Vec<(u64, Vec<Touch>, Option<[f32; 2]>)> = vec![
        (1, vec![], None),
        (2, vec![t(1, 10.0, 20.0)], Some([10.0, 20.0])),
        (
            3,
            vec![t(1, 11.0, 21.0), t(5, -1.0, -2.0)],
            Some([11.0, 21.0]),
        ),
        (
            4,
            vec![t(1, 11.0, 21.0), t(5, -1.0, -2.0)],
            Some([11.0, 21.0]),
        ),
        (5, vec![t(5, -3.0, -4.0)], Some([-3.0, -4.0])),
        (6, vec![t(5, -3.0, -4.0)], Some([100.0, 100.0])),
        (
            7,
            vec![t(5, -3.0, -4.0), t(2, 7.0, 7.0)],
            Some([-3.0, -4.0]),
        ),
        // All lift at once: the pointer stays where the first finger was.
        (8, vec![], Some([-3.0, -4.0])),
        (9, vec![], None),
        (10, vec![], None),
    ];
    let mut per_tick = crate::runtime::headless::PerTick::new(lines.clone());
    let mut session = Session::new(TickPolicy::default(), 1, Mode::Playing).unwrap();
    for (tick, touches, pointer) in &want {
        let input = per_tick.input(*tick);
        assert_eq!(
            (&input.touches, input.pointer),
            (touches, *pointer),
            "tick {tick}: per tick"
        );
        // The same line pumped into a session, as a `--frames` file or the window pumps it.
        if let Some(line) = lines.iter().find(|l| l.tick == Some(*tick)) {
            line.pump(&mut session);
        }
        let pumped = session.bridge_mut().take_tick_input();
        assert_eq!(
            (&pumped.touches, pumped.pointer),
            (touches, *pointer),
            "tick {tick}: pumped"
        );
    }
}

/// An unknown key is named with the keys of its own file's format, and the closest of them.
#[test]
fn an_unknown_key_lists_the_keys_of_its_format() {
    let cases: &[(&str, Format, &str)] = &[
        (
            r#"{"tick":1,"pres":["fire"]}"#,
            Format::Input,
            "t:1: unknown key `pres` (did you mean `press`? expected one of: tick, press, release, \
             tap, cancel, axis, pointer, touches, ui)",
        ),
        (
            r#"{"dt_ms":16,"dtms":1}"#,
            Format::Frames,
            "t:1: unknown key `dtms` (did you mean `dt_ms`? expected one of: dt_ms, dt_ns, press, \
             release, tap, cancel, axis, pointer, touches, ui, signal, ticks)",
        ),
        (
            r#"{"jump":true}"#,
            Format::Script,
            "t:1: unknown key `jump` (expected one of: press, release, tap, cancel, axis, \
             pointer, touches, ui, signal, ticks, inspect)",
        ),
        // A key of another format says where it belongs.
        (
            r#"{"tick":1,"dt_ms":16}"#,
            Format::Input,
            "t:1: `dt_ms`/`dt_ns` only belong in --frames files",
        ),
    ];
    for (text, format, want) in cases {
        let got = parse("t", text, *format, &def()).map(|_| ());
        assert_eq!(got, Err(want.to_string()), "{text}");
    }
}

//! Gamepads end to end without a gamepad: pad events through [`Pads`] and the runner reach
//! the game as its actions (buttons, axes with their scale and the game's deadzone, a pad's
//! axis holding a button, the game's own pause), a pad that leaves cancels what it held, and
//! the history of the play replays to the same hashes; and the platformer's winning play,
//! made with a pad alone, wins with `ludus sim`'s hash at every tick.

use super::*;
use crate::platform::PadEvent;
use crate::runtime::pads::Pads;
use crate::runtime::verify::{self, Outcome};
use ludus_content::PadControl;
use std::cell::Cell;
use std::collections::BTreeMap;

thread_local! {
    /// Frame time, advanced by each test on its own thread.
    static NOW: Cell<u64> = const { Cell::new(1) };
}

fn clock() -> u64 {
    NOW.get()
}

const GAME: &str = r#"
name = "Pads"

[input]
deadzone = 0.5

[input.actions.jump]
kind = "button"
keys = ["space", "pad_a"]

[input.actions.run]
kind = "axis"
keys = { left = -1, right = 1, pad_lx = 1, pad_left = -1 }

[input.actions.p2_fire]
kind = "button"
keys = ["pad2_rtrigger"]

[input.actions.pause]
kind = "button"
keys = ["pad_start"]

[flow]
pause = "pause"

[archetypes.runner]
speed = 100
control = { move_x = "run" }
sprite = { size = 8 }

[levels.main]
[[levels.main.place]]
archetype = "runner"
at = [0, 0]
"#;

fn project() -> Project {
    let files = BTreeMap::from([("game.toml".to_string(), GAME.as_bytes().to_vec())]);
    Project::from_files("pads", files).unwrap()
}

fn connect(pad: u64, uuid: u8) -> PadEvent {
    PadEvent::Connected {
        pad,
        uuid: [uuid; 16],
    }
}

fn button(pad: u64, control: PadControl, down: bool) -> PadEvent {
    PadEvent::Button { pad, control, down }
}

fn axis(pad: u64, control: PadControl, value: f32) -> PadEvent {
    PadEvent::Axis {
        pad,
        control,
        value,
    }
}

/// What a tick sees of the test game's actions: jump (held, pressed, cancelled), run, p2_fire
/// held.
type Seen = (bool, bool, bool, f32, bool);

fn seen(input: &TickInput) -> Seen {
    let (jump, run, fire) = (ActionId(0), ActionId(1), ActionId(2));
    (
        input.held(jump),
        input.pressed(jump),
        input.cancelled(jump),
        input.axis(run),
        input.held(fire),
    )
}

#[test]
fn pad_events_drive_the_games_actions_through_the_key_map_and_replay() {
    use PadControl::{A, Lx, RTrigger, Start};
    let project = project();
    let mut runner = Runner::new(project.clone(), 0, clock).unwrap();
    let mut pads = Pads::default();
    let playing = Mode::Playing;
    // The first frame starts the clock; each one after it runs one tick.
    runner.frame(NOW.get(), 0.0);
    // (pad events, keyboard keys going down, then what the next tick sees and the mode).
    #[rustfmt::skip]
    let rows: Vec<(Vec<PadEvent>, Vec<Key>, Seen, Mode)> = vec![
        (vec![connect(1, 1), button(1, A, true)], vec![], (true, true, false, 0.0, false), playing),
        // Past the deadzone of 0.5, rescaled: 0.75 is half way.
        (vec![axis(1, Lx, 0.75)], vec![], (true, false, false, 0.5, false), playing),
        // Pad 2's trigger holds a button action while off rest.
        (vec![connect(2, 2), axis(2, RTrigger, 0.75)], vec![], (true, false, false, 0.5, true), playing),
        (vec![], vec![Key::Right], (true, false, false, 1.0, true), playing),
        // Any pad's stick is the one farthest from rest: pad 2's.
        (vec![axis(2, Lx, -1.0)], vec![], (true, false, false, 0.0, true), playing),
        // Pad 1 leaves: its A was the only one down, so jump is cancelled, not released.
        (vec![PadEvent::Disconnected { pad: 1 }], vec![], (false, false, true, 0.0, true), playing),
        // Pad 2 leaves: the stick goes; the right key is still down; fire is cancelled.
        (vec![PadEvent::Disconnected { pad: 2 }], vec![], (false, false, false, 1.0, false), playing),
        // Pad 1 comes back with its number; Start is the game's pause.
        (vec![connect(1, 1), button(1, A, true)], vec![], (true, true, false, 1.0, false), playing),
        // Pausing cancels what is held, and resuming waits for it to be let go, as with keys.
        (vec![button(1, Start, true)], vec![], (false, false, true, 0.0, false), Mode::Paused),
        (vec![button(1, Start, false), button(1, Start, true)], vec![], (false, false, true, 0.0, false), playing),
    ];
    for (i, (events, keys, want, mode)) in rows.into_iter().enumerate() {
        pads.drive(&events, &mut runner);
        keys.into_iter().for_each(|k| runner.key_down(k));
        let next = runner.play().session().bridge().peek();
        assert_eq!(seen(&next), want, "row {i}: {events:?}");
        assert_eq!(runner.play().session().mode(), mode, "row {i}: the mode");
        let now = NOW.get() + 16_666_667;
        NOW.set(now);
        runner.frame(now, 1.0 / 60.0);
    }
    let fire = runner.play().timed.history.recording().unwrap().segments[0]
        .ticks
        .iter()
        .filter(|t| t.input.held(ActionId(2)))
        .count();
    assert_eq!(fire, 4, "the recording holds the pad's ticks of fire");
    let rec = runner.play().timed.history.recording().unwrap();
    let replayed = verify::replay(rec, &project, None).unwrap();
    assert!(
        matches!(replayed, Outcome::Identical { ticks } if ticks == rec.total_ticks()),
        "{replayed:?}"
    );
}

/// The platformer's winning play (examples/platformer/tests/win.jsonl) as a pad plays it: the
/// run axis on the left stick (let go and pushed again where a line sets it, as a player
/// does after a level change), jump on A.
fn pad_events(line: &crate::runtime::frames::Line, def: &GameDef) -> Vec<PadEvent> {
    let (run, jump) = (def.actions.find("run"), def.actions.find("jump"));
    let mut out = Vec::new();
    for (action, value) in &line.axis {
        assert_eq!(Some(*action), run, "only run is an axis");
        out.push(axis(1, PadControl::Lx, 0.0));
        out.push(axis(1, PadControl::Lx, *value));
    }
    for (actions, down) in [(&line.press, true), (&line.release, false)] {
        for action in actions {
            assert_eq!(Some(*action), jump, "only jump is pressed");
            out.push(button(1, PadControl::A, down));
        }
    }
    assert!(line.tap.is_empty() && line.cancel.is_empty(), "{line:?}");
    out
}

#[test]
fn the_platformer_is_won_with_a_pad_alone_as_sim_wins_it() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/platformer");
    let project = Project::from_folder(&dir).unwrap();
    let path = dir.join("tests/win.jsonl");
    let text = std::fs::read_to_string(&path).unwrap();
    let lines = crate::runtime::frames::parse(
        "win.jsonl",
        &text,
        crate::runtime::frames::Format::Input,
        &project.def,
    )
    .unwrap();
    let ticks = 1300;
    let mut sim = crate::runtime::headless::headless_run(&project, 0).unwrap();
    sim.start_recording(crate::runtime::headless::header(&project, None, 0), false);
    assert!(sim.run_input(lines.clone(), ticks).is_none(), "sim plays");
    let hashes = |rec: &Recording| -> Vec<(u64, StateHash)> {
        let ticks = rec.segments.iter().flat_map(|s| &s.ticks);
        ticks.map(|t| (t.tick, t.hash)).collect()
    };
    let expected = hashes(sim.recording().unwrap());

    let mut runner = Runner::new(project.clone(), 0, clock).unwrap();
    let mut pads = Pads::default();
    runner.frame(NOW.get(), 0.0);
    pads.drive(&[connect(1, 1)], &mut runner);
    for tick in 1..=ticks {
        // A frame without a tick first: a level the last tick asked for begins there, and
        // the player then sees it and pushes the stick again.
        runner.frame(NOW.get(), 0.0);
        for line in lines.iter().filter(|l| l.tick == Some(tick)) {
            pads.drive(&pad_events(line, &project.def), &mut runner);
        }
        let now = NOW.get() + 16_666_667;
        NOW.set(now);
        runner.frame(now, 1.0 / 60.0);
    }
    let world = runner.play().timed.game.world();
    assert_eq!(
        world.game_over().map(|(_, m)| m),
        Some("YOU WIN with 15 of 15 coins"),
        "won with the pad"
    );
    let got = hashes(runner.play().timed.history.recording().unwrap());
    assert_eq!(got.len(), expected.len(), "as many ticks as sim's");
    let first = got.iter().zip(&expected).position(|(g, e)| g != e);
    assert_eq!(first, None, "every tick's hash is sim's");
}

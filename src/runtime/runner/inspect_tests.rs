//! The entity inspector in a runner, as the window drives it: F6, clicks, and the selection
//! through pause, step, rewind and the entity's end (the game: `inspect/tests.rs`'s).

use super::*;
use crate::runtime::inspect::{screen_at, tests::game};
use std::cell::Cell;

thread_local! {
    static NOW: Cell<u64> = const { Cell::new(1) };
}

fn clock() -> u64 {
    NOW.get()
}

/// Plays `frames` frames at 60 Hz (a tick each while playing).
fn play(r: &mut Runner, frames: u64) {
    for _ in 0..frames {
        let now = NOW.get() + 16_666_667;
        NOW.set(now);
        r.frame(now, 1.0 / 60.0);
    }
}

/// The entity panel's lines after its title.
fn entity(r: &Runner) -> Vec<String> {
    r.inspector_lines()
        .map_or(Vec::new(), |(e, _)| e[1..].to_vec())
}

fn runner(release: bool) -> Runner {
    let mut project = game();
    project.release = release;
    let mut r = Runner::new(project, 0, clock).unwrap();
    play(&mut r, 1);
    r
}

/// The pixel of a 800 x 600 window where entity `seq` is drawn.
fn pixel_of(r: &Runner, seq: u64) -> (f32, f32) {
    let frame = r.play().drawn();
    let d = frame.draws.iter().find(|d| d.seq == seq).unwrap();
    let (x, y, _) = screen_at(&frame.camera, d.pos, (800.0, 600.0));
    (x, y)
}

#[test]
fn f6_shows_the_inspector_and_a_click_selects_what_is_under_it() {
    let mut r = runner(false);
    let hero = pixel_of(&r, 1);
    assert!(
        !r.inspect_click(hero, (800.0, 600.0)),
        "hidden: the click is the game's"
    );
    assert_eq!(r.inspector_lines(), None);
    r.key_down(Key::F6);
    assert!(r.inspector_lines().is_some(), "shown");
    let (title, game) = r.inspector_lines().unwrap();
    assert_eq!(
        title,
        [
            "entity inspector (F6 to close)",
            "click an entity to inspect it"
        ]
    );
    assert_eq!(game[0], "game");
    // (pixel clicked) -> the panel's first line.
    let cases = [
        (hero, "#1 hero"),
        (pixel_of(&r, 3), "#3 pet"),
        ((1.0, 1.0), "click an entity to inspect it"),
        (pixel_of(&r, 4), "#4 spark"),
    ];
    for (at, first) in cases {
        assert!(
            r.inspect_click(at, (800.0, 600.0)),
            "{at:?} is the inspector's"
        );
        assert_eq!(entity(&r)[0], first, "{at:?}");
    }
    r.key_down(Key::F6);
    assert_eq!(r.inspector_lines(), None);
    assert!(
        r.inspected_extent().is_none(),
        "hiding it lets go of the entity"
    );
    r.key_down(Key::F6);
    assert_eq!(entity(&r), ["click an entity to inspect it"]);
}

#[test]
fn the_selection_follows_the_entity_through_pause_step_and_rewind_until_it_is_gone() {
    let mut r = runner(false);
    r.inspect_at(ludus_core::Vec2::new(0.0, 0.0));
    play(&mut r, 20);
    let tick = |r: &Runner| r.play().timed.game.world().tick();
    assert_eq!(tick(&r), 20);
    let at = |r: &Runner| entity(r)[2].clone();
    assert_eq!(entity(&r)[0], "#1 hero");
    assert_eq!(at(&r), "at 20.0, 0.0  velocity 60.0, 0.0  angle 0.00");
    r.key_down(Key::P);
    play(&mut r, 3);
    assert_eq!(
        (tick(&r), at(&r).as_str()),
        (20, "at 20.0, 0.0  velocity 60.0, 0.0  angle 0.00")
    );
    let (_, game) = r.inspector_lines().unwrap();
    assert_eq!(game[0], "game PAUSED: P to resume, N to step one tick");
    assert_eq!(
        r.banner(),
        None,
        "the game panel says it instead of the banner"
    );
    r.key_down(Key::N);
    play(&mut r, 2);
    assert_eq!(
        (tick(&r), at(&r).as_str()),
        (21, "at 21.0, 0.0  velocity 60.0, 0.0  angle 0.00")
    );
    r.rewind(11);
    play(&mut r, 1);
    assert_eq!(tick(&r), 10, "rewound");
    assert_eq!(entity(&r)[0], "#1 hero", "still selected");
    assert_eq!(at(&r), "at 10.0, 0.0  velocity 60.0, 0.0  angle 0.00");
    let last = entity(&r);
    assert_eq!(
        &last[last.len() - 3..],
        [
            "last events:",
            "  2 damage amount=2 health=3 max=5 source=#3",
            "  1 spawn"
        ],
        "no event after tick 10"
    );
    // The spark lives until tick 15.
    r.inspect_at(ludus_core::Vec2::new(-40.0, -40.0));
    assert_eq!(entity(&r)[0], "#4 spark");
    play(&mut r, 10);
    assert_eq!(
        entity(&r)[..4],
        [
            "#4 spark gone at tick 15",
            "click an entity to inspect it",
            "last events:",
            "  15 expire reason=lifetime"
        ]
    );
    assert!(r.inspected_extent().is_none());
    r.rewind(6);
    play(&mut r, 1);
    assert_eq!(tick(&r), 14);
    assert_eq!(entity(&r)[0], "#4 spark", "back before its end");
}

#[test]
fn release_mode_has_no_inspector() {
    let mut r = runner(true);
    r.key_down(Key::F6);
    r.inspect_at(ludus_core::Vec2::new(0.0, 0.0));
    assert!(r.inspector_lines().is_none(), "not shown");
    assert_eq!(r.inspector_lines(), None);
    assert!(!r.inspect_click(pixel_of(&r, 1), (800.0, 600.0)));
}

//! The time the host says scripts took in a tick (`last_tick_ns`, the `in scripts` share of
//! `ludus bench` and the play overlay): the clock is read around the stages that call a
//! handler and nowhere else, so a tick whose stages call none reads no clock and counts
//! nothing, and the native systems between the stages are not counted as the scripts'.

mod support;

use ludus_core::*;
use std::cell::Cell;
use std::rc::Rc;
use std::sync::Arc;
use support::*;

/// A clock that moves 1,000 ns at each reading, and how many readings it gave.
fn counting() -> (Box<dyn Fn() -> u64>, Rc<Cell<u64>>) {
    let readings = Rc::new(Cell::new(0u64));
    let seen = readings.clone();
    let clock = move || {
        seen.set(seen.get() + 1);
        seen.get() * 1_000
    };
    (Box::new(clock), readings)
}

/// The test game (the player and an enemy touching from tick 1) with `src` and the clock.
fn timed(src: &str, clock: Box<dyn Fn() -> u64>) -> Game {
    let def = Arc::new(def());
    let host = host_with(&def, &[("scripts/main.lua", src)], &[])
        .unwrap()
        .with_clock(clock);
    Game::new(def, Box::new(host)).unwrap()
}

/// Tick by tick: the clock's readings in the tick, and the nanoseconds the host says its
/// scripts took.
fn per_tick(g: &mut Game, readings: &Cell<u64>, ticks: usize) -> Vec<(u64, u64)> {
    (0..ticks)
        .map(|_| {
            let before = readings.get();
            g.step(&TickInput::neutral()).unwrap();
            let ns = g.consequences().last_tick_ns().unwrap();
            (readings.get() - before, ns)
        })
        .collect()
}

/// Tick by tick, the clock's readings and the time counted, for scripts on the test game.
#[test]
fn only_stages_that_call_handlers_are_timed() {
    const HURT: &str = r#"
        function on_collision_enter(events)
          for _, e in ipairs(events) do ludus.damage(e.b, 1, e.a) end
        end
        "#;
    const TOLD: &str = r#"function on_damage(events) ludus.set("hurt", #events) end"#;
    // Tick 1: the contact's enter event calls `on_collision_enter` in stage one, whose damage
    // calls `on_damage` in stage two where there is one: two readings a stage that calls a
    // handler, its 1,000 ns counted, and nothing for the native systems after stage one (the
    // damage applied). Ticks 2 and 3: the contact stays (no enter event), nothing is called
    // and no clock is read.
    let cases = [
        (
            "both stages",
            format!("{HURT}\n{TOLD}"),
            [(4, 2_000), (0, 0), (0, 0)],
        ),
        (
            "stage one alone",
            HURT.to_string(),
            [(2, 1_000), (0, 0), (0, 0)],
        ),
    ];
    for (name, src, want) in cases {
        let (clock, readings) = counting();
        let mut g = timed(&src, clock);
        assert_eq!(per_tick(&mut g, &readings, 3), want, "{name}");
    }
}

#[test]
fn without_a_clock_nothing_is_measured() {
    let mut g = game("function on_collision_enter(events) ludus.set('seen', #events) end").unwrap();
    g.step(&TickInput::neutral()).unwrap();
    assert_eq!(g.consequences().last_tick_ns(), None);
    assert_eq!(var(&g, "seen"), Some(1.0));
}

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

#[test]
fn only_stages_that_call_handlers_are_timed() {
    // Tick 1: the contact's enter event calls a handler in stage one, whose damage calls
    // `on_damage` in stage two: two stages timed, two readings each. Tick 2 and 3: the
    // contact stays (no enter event), nothing is called, no clock is read.
    let (clock, readings) = counting();
    let mut g = timed(
        r#"
        function on_collision_enter(events)
          for _, e in ipairs(events) do ludus.damage(e.b, 1, e.a) end
        end
        function on_damage(events) ludus.set("hurt", #events) end
        "#,
        clock,
    );
    let ticks = per_tick(&mut g, &readings, 3);
    assert_eq!(ticks, [(4, 2_000), (0, 0), (0, 0)]);
    assert_eq!(var(&g, "hurt"), Some(1.0), "both handlers ran");
}

#[test]
fn a_tick_of_one_stage_counts_that_stage_alone() {
    // Only stage one calls a handler: its two readings are the tick's time, whatever the
    // native systems after it took (the damage applied, stage two with no handler).
    let (clock, readings) = counting();
    let mut g = timed(
        r#"
        function on_collision_enter(events)
          for _, e in ipairs(events) do ludus.damage(e.b, 1, e.a) end
        end
        "#,
        clock,
    );
    assert_eq!(per_tick(&mut g, &readings, 2), [(2, 1_000), (0, 0)]);
}

#[test]
fn without_a_clock_nothing_is_measured() {
    let mut g = game("function on_collision_enter(events) ludus.set('seen', #events) end").unwrap();
    g.step(&TickInput::neutral()).unwrap();
    assert_eq!(g.consequences().last_tick_ns(), None);
    assert_eq!(var(&g, "seen"), Some(1.0));
}

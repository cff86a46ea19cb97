//! Looks refused: `set_look` values and the spawn options `size`, `scale` and `angle` out of
//! range are refused when sent, each with its message; values in range are taken.

mod support;

use ludus_core::*;
use std::cell::RefCell;
use std::rc::Rc;
use support::*;

/// Sequence of the pickup of [`pickup_and_wall`].
const PICKUP_SEQ: u64 = 1;

fn look(target: u64, look: Look) -> Command {
    Command::SetLook { target, look }
}

#[test]
fn set_look_values_out_of_range_are_refused() {
    let none = Look::default();
    let cases: [(Look, Option<&str>); 9] = [
        (none, None),
        (
            Look {
                scale: Some(Vec2::new(0.5, 3.0)),
                alpha: Some(0.0),
                ..none
            },
            None,
        ),
        (
            Look {
                scale: Some(Vec2::new(0.0, 1.0)),
                ..none
            },
            Some("a scale must be above 0 and at most 10000, got (0, 1)"),
        ),
        (
            Look {
                scale: Some(Vec2::new(1.0, -2.0)),
                ..none
            },
            Some("a scale must be above 0 and at most 10000, got (1, -2)"),
        ),
        (
            Look {
                scale: Some(Vec2::new(f32::NAN, 1.0)),
                ..none
            },
            Some("a scale must be above 0 and at most 10000, got (NaN, 1)"),
        ),
        (
            Look {
                scale: Some(Vec2::new(1.0, 20_000.0)),
                ..none
            },
            Some("a scale must be above 0 and at most 10000, got (1, 20000)"),
        ),
        (
            Look {
                alpha: Some(1.5),
                ..none
            },
            Some("an alpha must be from 0 to 1, got 1.5"),
        ),
        (
            Look {
                alpha: Some(-0.1),
                ..none
            },
            Some("an alpha must be from 0 to 1, got -0.1"),
        ),
        (
            Look {
                alpha: Some(f32::NAN),
                ..none
            },
            Some("an alpha must be from 0 to 1, got NaN"),
        ),
    ];
    let got = Rc::new(RefCell::new(Vec::new()));
    let seen = got.clone();
    let mut g = game(
        pickup_and_wall(),
        rules(move |stage, g| {
            if stage == Stage::One && g.tick() == 1 {
                for (l, _) in cases {
                    let r = g.send(look(PICKUP_SEQ, l)).err().map(|e| e.message);
                    seen.borrow_mut().push(r);
                }
            }
            Ok(())
        }),
    );
    run(&mut g, 1);
    for (i, ((l, expected), got)) in cases.iter().zip(got.borrow().iter()).enumerate() {
        assert_eq!(got.as_deref(), *expected, "case {i}: {l:?}");
    }
}

#[test]
fn spawn_options_out_of_range_are_refused() {
    let spawn = |overrides: Overrides| Command::Spawn {
        archetype: WALL,
        pos: Vec2::ZERO,
        overrides: overrides.into(),
    };
    let cases: [(Overrides, Option<&str>); 6] = [
        (
            Overrides {
                size: Some(Vec2::new(10.0, 2.0)),
                scale: Some(Vec2::new(2.0, 2.0)),
                angle: Some(-7.0),
                ..Overrides::default()
            },
            None,
        ),
        (
            Overrides {
                size: Some(Vec2::new(0.0, 2.0)),
                ..Overrides::default()
            },
            Some("a size must be above 0 and at most 1000000, got (0, 2)"),
        ),
        (
            Overrides {
                size: Some(Vec2::new(2.0, 2e7)),
                ..Overrides::default()
            },
            Some("a size must be above 0 and at most 1000000, got (2, 20000000)"),
        ),
        (
            Overrides {
                size: Some(Vec2::new(f32::INFINITY, 2.0)),
                ..Overrides::default()
            },
            Some("a size must be above 0 and at most 1000000, got (inf, 2)"),
        ),
        (
            Overrides {
                scale: Some(Vec2::new(-1.0, -1.0)),
                ..Overrides::default()
            },
            Some("a scale must be above 0 and at most 10000, got (-1, -1)"),
        ),
        (
            Overrides {
                angle: Some(f32::NAN),
                ..Overrides::default()
            },
            Some("a spawn angle must be a finite number, got NaN"),
        ),
    ];
    let got = Rc::new(RefCell::new(Vec::new()));
    let seen = got.clone();
    let list = cases.clone();
    let mut g = game(
        pickup_and_wall(),
        rules(move |stage, g| {
            if stage == Stage::One && g.tick() == 1 {
                for (o, _) in list.iter().cloned() {
                    let r = g.send(spawn(o)).err().map(|e| e.message);
                    seen.borrow_mut().push(r);
                }
            }
            Ok(())
        }),
    );
    run(&mut g, 1);
    for (i, ((o, expected), got)) in cases.iter().zip(got.borrow().iter()).enumerate() {
        assert_eq!(got.as_deref(), *expected, "case {i}: {o:?}");
    }
}

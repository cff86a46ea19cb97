//! Systems inside a phase: the native order as declared, schedule errors that name the systems,
//! warnings for orders that hold only by registration, and a system added by an embedding
//! program.

mod support;

use ludus_core::*;
use support::*;

#[test]
fn native_systems_run_in_their_declared_order() {
    let schedule = native_systems();
    let table: Vec<(Phase, Vec<&str>)> =
        Phase::ALL.iter().map(|&p| (p, schedule.order(p))).collect();
    assert_eq!(
        table,
        vec![
            (
                Phase::BeginTick,
                vec!["clear", "completions", "carried", "due_timers", "previous"]
            ),
            (
                Phase::Intent,
                vec![
                    "expirations",
                    "spawners",
                    "control",
                    "navigation",
                    "behaviours"
                ]
            ),
            (
                Phase::Motion,
                vec!["integrate", "rotate", "bounds", "collide"]
            ),
            (
                Phase::Gameplay,
                vec![
                    "deliverable_timers",
                    "stage_one",
                    "apply_one",
                    "stage_two",
                    "apply_two"
                ]
            ),
            (Phase::Commit, vec!["commit"]),
            (Phase::EndTick, vec!["invariants", "hash", "publish"]),
        ]
    );
    assert_eq!(schedule.warnings(), &[], "every native order is declared");
}

fn noop(_: &mut TickState<'_>) -> Result<(), Fault> {
    Ok(())
}

#[test]
fn schedule_errors_name_the_systems() {
    let mut s = native_systems();
    assert_eq!(
        s.add(System::new("wind", Phase::Motion, noop).after("integrat")),
        Err(ScheduleError::Unknown {
            system: "wind".into(),
            missing: "integrat".into(),
            closest: Some("integrate".into()),
        })
    );
    assert_eq!(
        s.add(System::new("early", Phase::Intent, noop).after("collide")),
        Err(ScheduleError::AcrossPhases {
            system: "early".into(),
            other: "collide".into(),
        })
    );
    assert_eq!(
        s.add(System::new("bounds", Phase::Motion, noop)),
        Err(ScheduleError::Duplicate("bounds".into()))
    );
    let cycle = ScheduleError::Cycle(vec!["a".into(), "b".into()]);
    s.add(System::new("a", Phase::Motion, noop)).unwrap();
    assert_eq!(
        s.add(System::new("b", Phase::Motion, noop).after("a").before("a")),
        Err(cycle.clone())
    );
    assert_eq!(
        cycle.to_string(),
        "systems `a`, `b` must each run after another: a cycle"
    );
    // A refused system leaves the schedule as it was.
    assert_eq!(
        s.order(Phase::Motion),
        vec!["integrate", "rotate", "bounds", "collide", "a"]
    );
}

#[test]
fn ties_go_to_the_system_registered_first() {
    // Kahn's algorithm: of the systems whose predecessors have run, the one registered first.
    let mut s = native_systems();
    s.add(System::new("late", Phase::Motion, noop)).unwrap();
    assert_eq!(
        s.order(Phase::Motion),
        vec!["integrate", "rotate", "bounds", "collide", "late"]
    );
    s.add(System::new("first", Phase::Motion, noop).before("integrate"))
        .unwrap();
    // `integrate` now waits for `first`, so `late` (registered before `first`) is the first
    // system ready.
    assert_eq!(
        s.order(Phase::Motion),
        vec!["late", "first", "integrate", "rotate", "bounds", "collide"]
    );
}

#[test]
fn an_undeclared_order_is_a_warning() {
    let mut s = native_systems();
    s.add(
        System::new("drag", Phase::Motion, noop)
            .reads(&[Resource::PrevPosition])
            .writes(&[Resource::PrevPosition]),
    )
    .unwrap();
    s.add(System::new("gust", Phase::Motion, noop).reads(&[Resource::PrevPosition]))
        .unwrap();
    let warnings: Vec<String> = s.warnings().iter().map(|w| w.to_string()).collect();
    assert_eq!(
        warnings,
        vec![
            "in Motion and collision, system `drag` reads PrevPosition, which `bounds` writes \
             before it, without declaring `after(\"bounds\")`",
            "in Motion and collision, system `gust` reads PrevPosition, which `bounds` writes \
             before it, without declaring `after(\"bounds\")`",
            "in Motion and collision, system `gust` reads PrevPosition, which `drag` writes before \
             it, without declaring `after(\"drag\")`"
        ]
    );
    let mut s = native_systems();
    s.add(
        System::new("drag", Phase::Motion, noop)
            .reads(&[Resource::PrevPosition])
            .writes(&[Resource::PrevPosition])
            .after("collide"),
    )
    .unwrap();
    s.add(
        System::new("gust", Phase::Motion, noop)
            .reads(&[Resource::PrevPosition])
            .after("drag"),
    )
    .unwrap();
    assert_eq!(s.warnings(), &[], "declared through `after`");
}

#[test]
fn a_system_of_the_embedding_program_runs_every_tick() {
    let mut def = game_def();
    def.archetypes[ENEMY.0 as usize].behaviour = None;
    place(&mut def, ENEMY, 0.0, 0.0);
    let mut g = game(def, Box::new(NoConsequences));
    let warnings = g
        .add_system(
            System::new("wind", Phase::Motion, |t: &mut TickState<'_>| {
                let push = 60.0 * t.dt();
                for (tags, v) in t.query_mut::<(&Tags, &mut Velocity)>() {
                    if tags.0 & T_ENEMY != 0 {
                        v.0.x += push;
                    }
                }
                Ok(())
            })
            .writes(&[Resource::Velocity])
            .before("integrate"),
        )
        .unwrap();
    assert_eq!(warnings, Vec::<String>::new());
    run(&mut g, 60);
    let x = pos_of(&g, 1).unwrap().cur.x;
    // v grows by 1 unit/s each tick; x after 60 ticks = sum(i/60 for i in 1..=60) / 60 * 60.
    let expected: f32 = (1..=60).map(|i| i as f32 / 60.0).sum();
    assert!((x - expected).abs() < 1e-3, "x = {x}, expected {expected}");
}

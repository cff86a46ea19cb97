//! Systems inside a phase: the native order as declared, schedule errors that name the systems,
//! warnings for orders that hold only by registration, and a system added by an embedding
//! program.

mod support;

use ludus_core::*;
use support::*;

#[test]
fn every_native_order_is_declared() {
    // The order itself is docs/architecture.md's tick table, checked by
    // `core/tests/architecture.rs`.
    assert_eq!(
        native_systems().warnings(),
        &[],
        "orders that hold only by registration"
    );
}

fn names(s: &Schedule, phase: Phase) -> Vec<&'static str> {
    s.order(phase).iter().map(|s| s.name()).collect()
}

fn noop(_: &mut TickState<'_>) -> Result<(), Fault> {
    Ok(())
}

#[test]
fn schedule_errors_name_the_systems() {
    let mut s = native_systems();
    let wind = System::new("wind", Phase::Motion, noop);
    assert_eq!(
        s.add(System::new("gust", Phase::Motion, noop).after(wind.id())),
        Err(ScheduleError::Unknown {
            system: "gust".into(),
            missing: "wind".into(),
        }),
        "a handle of a system the schedule does not hold"
    );
    assert_eq!(
        s.add(System::new("early", Phase::Intent, noop).after(systems::COLLIDE)),
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
    let a = System::new("a", Phase::Motion, noop);
    let a_id = a.id();
    s.add(a).unwrap();
    assert_eq!(
        s.add(
            System::new("b", Phase::Motion, noop)
                .after(a_id)
                .before(a_id)
        ),
        Err(cycle.clone())
    );
    assert_eq!(
        cycle.to_string(),
        "systems `a`, `b` must each run after another: a cycle"
    );
    // A refused system leaves the schedule as it was.
    assert_eq!(
        names(&s, Phase::Motion),
        vec![
            "integrate",
            "rotate",
            "bounds",
            "attach",
            "collide",
            "offscreen",
            "a"
        ]
    );
}

#[test]
fn ties_go_to_the_system_registered_first() {
    // Kahn's algorithm: of the systems whose predecessors have run, the one registered first.
    let mut s = native_systems();
    s.add(System::new("late", Phase::Motion, noop)).unwrap();
    assert_eq!(
        names(&s, Phase::Motion),
        vec![
            "integrate",
            "rotate",
            "bounds",
            "attach",
            "collide",
            "offscreen",
            "late"
        ]
    );
    s.add(System::new("first", Phase::Motion, noop).before(systems::INTEGRATE))
        .unwrap();
    // `integrate` now waits for `first`, so `late` (registered before `first`) is the first
    // system ready.
    assert_eq!(
        names(&s, Phase::Motion),
        vec![
            "late",
            "first",
            "integrate",
            "rotate",
            "bounds",
            "attach",
            "collide",
            "offscreen"
        ]
    );
}

#[test]
fn a_chain_runs_in_its_order_whatever_the_registration() {
    let mut s = native_systems();
    let chain = System::chain([
        System::new("a", Phase::Gameplay, noop),
        System::new("b", Phase::Gameplay, noop),
        System::new("c", Phase::Gameplay, noop).before(systems::DELIVERABLE_TIMERS),
    ]);
    s.add_all(chain.into_iter().rev()).unwrap();
    assert_eq!(
        names(&s, Phase::Gameplay),
        vec![
            "a",
            "b",
            "c",
            "deliverable_timers",
            "stage_one",
            "apply_one",
            "stage_two",
            "apply_two"
        ]
    );
    assert_eq!(s.warnings(), &[]);
}

#[test]
fn an_undeclared_order_is_a_warning() {
    let mut s = native_systems();
    let drag = System::new("drag", Phase::Motion, noop)
        .reads(&[Resource::PrevPosition])
        .writes(&[Resource::PrevPosition]);
    let drag_id = drag.id();
    s.add(drag).unwrap();
    s.add(System::new("gust", Phase::Motion, noop).reads(&[Resource::PrevPosition]))
        .unwrap();
    let warnings: Vec<String> = s.warnings().iter().map(|w| w.to_string()).collect();
    assert_eq!(
        warnings,
        vec![
            "in Motion and collision, system `drag` reads PrevPosition, which `integrate` \
             writes before it, without being ordered after it",
            "in Motion and collision, system `gust` reads PrevPosition, which `integrate` \
             writes before it, without being ordered after it",
            "in Motion and collision, system `drag` reads PrevPosition, which `bounds` writes \
             before it, without being ordered after it",
            "in Motion and collision, system `gust` reads PrevPosition, which `bounds` writes \
             before it, without being ordered after it",
            "in Motion and collision, system `drag` reads PrevPosition, which `attach` writes \
             before it, without being ordered after it",
            "in Motion and collision, system `gust` reads PrevPosition, which `attach` writes \
             before it, without being ordered after it",
            "in Motion and collision, system `gust` reads PrevPosition, which `drag` writes before \
             it, without being ordered after it"
        ]
    );
    let mut s = native_systems();
    s.add(
        System::new("drag", Phase::Motion, noop)
            .reads(&[Resource::PrevPosition])
            .writes(&[Resource::PrevPosition])
            .after(systems::COLLIDE),
    )
    .unwrap();
    s.add(
        System::new("gust", Phase::Motion, noop)
            .reads(&[Resource::PrevPosition])
            .after(drag_id),
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
                let (push, def) = (60.0 * t.dt(), t.def());
                for (id, v) in t.query_mut::<(&Identity, &mut Velocity)>() {
                    if def.tags_of(id.archetype) & T_ENEMY != 0 {
                        v.0.x += push;
                    }
                }
                Ok(())
            })
            .writes(&[Resource::Velocity])
            .before(systems::INTEGRATE),
        )
        .unwrap();
    assert_eq!(warnings, Vec::<String>::new());
    run(&mut g, 60);
    let x = pos_of(&g, 1).unwrap().cur.x;
    // v grows by 1 unit/s each tick; x after 60 ticks = sum(i/60 for i in 1..=60) / 60 * 60.
    let expected: f32 = (1..=60).map(|i| i as f32 / 60.0).sum();
    assert!((x - expected).abs() < 1e-3, "x = {x}, expected {expected}");
}

#[test]
fn begin_tick_empties_every_tick_local_resource() {
    // `check_order` lets a phase read a tick-local resource a later phase writes, because
    // every tick starts it empty: BeginTick's first system must empty it.
    let s = native_systems();
    let clear = s.order(Phase::BeginTick)[0];
    assert_eq!(clear.id(), systems::CLEAR);
    let local: Vec<Resource> = Resource::ALL
        .into_iter()
        .filter(|r| r.tick_local())
        .collect();
    assert_eq!(local, [Resource::StructuralCommands, Resource::Commands]);
    for r in local {
        assert!(clear.access().writes.contains(&r), "`clear` empties {r:?}");
    }
}

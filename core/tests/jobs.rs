//! Background work: admission, slots, stale results, cancellation, shutdown, and the flow
//! field the jobs compute, with the serial executor and the thread pool.

mod support;

use ludus_core::*;
use std::sync::Arc;
use support::*;

/// A level with a wall between the enemy and the player, and a navigation grid.
fn nav_def() -> GameDef {
    let mut def = game_def();
    def.levels[0].bounds = Rect::centered(Vec2::new(640.0, 480.0));
    def.levels[0].nav = Some(NavDef {
        cell: 32.0,
        blocking: L_WALL,
        goal: T_PLAYER,
    });
    def.archetypes[1].behaviour.as_mut().unwrap().navigate = true;
    def.archetypes[1].behaviour.as_mut().unwrap().cadence = Some(1);
    place(&mut def, PLAYER, 200.0, 0.0);
    // A wall from y = -144 to 144 at x = 0 (nine 32-unit boxes).
    for i in -4..=4 {
        place(&mut def, WALL, 0.0, i as f32 * 32.0);
    }
    place(&mut def, ENEMY, -200.0, 0.0);
    def
}

fn flow_input(goal: (u32, u32)) -> FlowInput {
    let mut input = FlowInput::grid(Rect::centered(Vec2::new(640.0, 480.0)), 32.0, Vec2::ZERO);
    input.block(Vec2::ZERO, Vec2::new(16.0, 160.0));
    input.goal = goal;
    input
}

#[test]
fn the_flow_field_routes_chasers_around_walls() {
    let mut g = game(nav_def(), Box::new(NoConsequences));
    run(&mut g, 2);
    assert!(
        g.world().nav().field.is_some(),
        "the field arrived through the completion queue"
    );
    assert_eq!(g.completions().stats().applied, 1);
    let enemy = g.world().entity(11).unwrap();
    let intent = g.world().ecs().get::<&Brain>(enemy).unwrap().intent;
    assert!(
        intent.y.abs() > 0.5,
        "heads around the wall, not straight into it: {intent:?}"
    );
    run(&mut g, 400);
    let pos = pos_of(&g, 11).unwrap().cur;
    assert!(pos.x > 0.0, "got past the wall: {pos:?}");
}

#[test]
fn moving_the_goal_requests_a_new_field() {
    let mut def = nav_def();
    def.archetypes[0].speed = 300.0;
    let mut g = game(def, Box::new(NoConsequences));
    run(&mut g, 3);
    let mut up = TickInput::neutral();
    up.set_axis(ActionId(1), -1.0);
    for _ in 0..30 {
        g.step(&up).unwrap();
    }
    let s = g.completions().stats();
    assert!(
        s.admitted >= 2,
        "a new request when the goal changed cell: {s:?}"
    );
    assert!(g.world().nav().revision >= 2);
    run(&mut g, 2);
    assert_eq!(g.completions().in_use(), 0, "every slot was reclaimed");
}

#[test]
fn results_for_a_destroyed_target_are_discarded() {
    let mut g = game(
        nav_def(),
        rules(|stage, g| {
            if stage == Stage::One && g.tick() == 1 {
                g.send(Command::Destroy(11)).unwrap();
            }
            Ok(())
        }),
    );
    let world = g.world().id();
    run(&mut g, 1);
    g.completions()
        .submit(world, Some(11), 1, JobInput::FlowField(flow_input((1, 1))));
    run(&mut g, 1);
    assert_eq!(g.completions().stats().stale_target, 1);
    assert_eq!(g.completions().in_use(), 0);
}

#[test]
fn results_for_an_old_revision_are_discarded() {
    let mut g = game(nav_def(), Box::new(NoConsequences));
    run(&mut g, 2);
    let revision = g.world().nav().revision;
    let world = g.world().id();
    let id = g
        .completions()
        .submit(
            world,
            Some(1),
            revision - 1,
            JobInput::FlowField(flow_input((0, 0))),
        )
        .unwrap();
    assert!(g.completions().is_outstanding(id));
    let before = g.world().nav().field.clone();
    run(&mut g, 1);
    assert_eq!(g.completions().stats().stale_revision, 1);
    assert_eq!(
        g.world().nav().field,
        before,
        "the stale field was not installed"
    );
    assert!(!g.completions().is_outstanding(id));
}

#[test]
fn results_for_a_replaced_world_are_discarded() {
    let mut g = game(nav_def(), Box::new(NoConsequences));
    run(&mut g, 2);
    let old = g.world().id();
    g.completions()
        .submit(old, None, 99, JobInput::FlowField(flow_input((0, 0))));
    assert!(matches!(
        g.load(&LoadRequest::Restart),
        LoadStatus::Ready(_)
    ));
    assert_ne!(g.world().id(), old);
    run(&mut g, 1);
    assert_eq!(g.completions().stats().stale_world, 1);
    assert_eq!(
        g.completions().in_use(),
        1,
        "only the new world's own request is in flight"
    );
    run(&mut g, 1);
    assert_eq!(g.completions().in_use(), 0);
}

#[test]
fn cancelled_requests_are_not_applied_and_free_their_slot() {
    let mut g = game(nav_def(), Box::new(NoConsequences));
    run(&mut g, 2);
    let world = g.world().id();
    let revision = g.world().nav().revision;
    let before = g.world().nav().field.clone();
    let id = g
        .completions()
        .submit(
            world,
            Some(1),
            revision,
            JobInput::FlowField(flow_input((0, 0))),
        )
        .unwrap();
    g.completions().cancel(id);
    run(&mut g, 1);
    assert_eq!(g.completions().stats().cancelled, 1);
    assert_eq!(g.world().nav().field, before);
    assert_eq!(g.completions().in_use(), 0);
}

#[test]
fn saturation_refuses_admission_explicitly_and_slots_come_back() {
    let mut def = nav_def();
    def.limits.jobs = 2;
    let mut g = game(def, Box::new(NoConsequences));
    run(&mut g, 2);
    let world = g.world().id();
    let a = g
        .completions()
        .submit(world, None, 0, JobInput::FlowField(flow_input((0, 0))));
    let b = g
        .completions()
        .submit(world, None, 0, JobInput::FlowField(flow_input((1, 0))));
    let c = g
        .completions()
        .submit(world, None, 0, JobInput::FlowField(flow_input((2, 0))));
    assert!(a.is_some() && b.is_some());
    assert!(
        c.is_none(),
        "the third request is refused while both slots are reserved"
    );
    assert_eq!(g.completions().stats().refused, 1);
    assert_eq!(g.completions().in_use(), 2);
    run(&mut g, 1);
    assert_eq!(
        g.completions().in_use(),
        0,
        "consumed results free their slots"
    );
    assert!(
        g.completions()
            .submit(world, None, 0, JobInput::FlowField(flow_input((0, 0))))
            .is_some()
    );
}

#[test]
fn shutdown_drains_and_reclaims_every_slot() {
    for threaded in [false, true] {
        let mut c = if threaded {
            Completions::with_executor(8, Box::new(ThreadPool::new(2)))
        } else {
            Completions::new(8)
        };
        for i in 0..8 {
            assert!(
                c.submit(WorldId(1), None, 0, JobInput::FlowField(flow_input((i, 0))))
                    .is_some()
            );
        }
        assert_eq!(c.in_use(), 8);
        c.shutdown();
        assert_eq!(c.in_use(), 0, "threaded={threaded}");
        assert_eq!(c.stats().reclaimed_at_shutdown, 8);
        assert!(
            c.submit(WorldId(1), None, 0, JobInput::FlowField(flow_input((0, 0))))
                .is_none(),
            "closed after shutdown"
        );
    }
}

#[test]
fn serial_and_threaded_executors_compute_the_same_results() {
    let inputs: Vec<FlowInput> = (0..12)
        .map(|i| flow_input((i % 20, (i * 7) % 15)))
        .collect();
    let run_with = |executor: Box<dyn Executor>| {
        let mut ex = executor;
        for (i, input) in inputs.iter().enumerate() {
            ex.submit(Request {
                id: RequestId(i as u64 + 1),
                world: WorldId(1),
                target: None,
                revision: 0,
                input: JobInput::FlowField(input.clone()),
            });
        }
        let mut out = Vec::new();
        ex.shutdown(&mut out);
        out.sort_by_key(|c| c.id);
        out
    };
    let serial = run_with(Box::<SerialExecutor>::default());
    let threaded = run_with(Box::new(ThreadPool::new(3)));
    assert_eq!(serial.len(), 12);
    assert_eq!(serial, threaded);
}

#[test]
fn threaded_games_replay_from_their_recorded_completions() {
    // Run with a thread pool, recording what BeginTick applied; replay with recorded batches
    // only: identical hashes, although worker timing is not reproducible.
    let def = Arc::new(nav_def());
    let mut g = Game::new(def.clone(), Box::new(NoConsequences)).unwrap();
    g.options_mut().hash = true;
    g.set_completions(Completions::with_executor(
        def.limits.jobs,
        Box::new(ThreadPool::new(2)),
    ));
    let mut up = TickInput::neutral();
    up.set_axis(ActionId(1), -1.0);
    let mut recorded = Vec::new();
    for t in 1..=120u64 {
        let input = if t > 10 {
            up.clone()
        } else {
            TickInput::neutral()
        };
        let r = g.step(&input).unwrap();
        recorded.push((
            input,
            g.completions().last_batch().to_vec(),
            r.hash.unwrap(),
        ));
        std::thread::sleep(std::time::Duration::from_micros(200));
    }
    let mut replay = Game::new(def.clone(), Box::new(NoConsequences)).unwrap();
    replay.options_mut().hash = true;
    let batches = recorded
        .iter()
        .enumerate()
        .filter(|(_, r)| !r.1.is_empty())
        .map(|(i, r)| (i as u64 + 1, r.1.clone()))
        .collect();
    replay.set_completions(Completions::replaying(def.limits.jobs, batches));
    for (i, (input, _, hash)) in recorded.iter().enumerate() {
        let r = replay.step(input).unwrap();
        assert_eq!(r.hash.unwrap(), *hash, "tick {}", i + 1);
    }
    assert!(replay.completions().stats().applied >= 1);
}

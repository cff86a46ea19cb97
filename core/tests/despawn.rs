//! Despawn regions: a bounds rule applies to the level's bounds grown by the archetype's
//! margin (negative: shrunk), exactly as the plain rule does at margin 0; `offscreen =
//! "destroy"` destroys only what has been in the camera's view; a spawn outside its own
//! bounds follows its rule and is counted, with one warning per archetype.

mod support;

use ludus_core::*;
use std::cell::RefCell;
use std::rc::Rc;
use support::*;

/// A mover: a 10-unit sprite and no collider, with a bounds rule and margin.
fn mover(name: &str, bounds: BoundsPolicy, margin: f32, offscreen: bool) -> ArchetypeDef {
    ArchetypeDef {
        name: name.into(),
        sprite: Some(sprite(10.0, 1)),
        bounds,
        bounds_margin: margin,
        offscreen_destroy: offscreen,
        ..ArchetypeDef::default()
    }
}

/// The fixture with `movers` added (from archetype 5) and nothing placed: the level's bounds
/// are x and y from -400 to 400, the camera's view 200 x 200 about the origin.
fn with(movers: Vec<ArchetypeDef>) -> GameDef {
    let mut def = game_def();
    def.archetypes.extend(movers);
    def.levels[0].bounds = Rect::centered(Vec2::new(800.0, 800.0));
    def.levels[0].camera.view = Vec2::new(200.0, 200.0);
    def
}

/// Every `expired` event of `ticks` ticks: `(tick, sequence, reason)`.
fn expirations(def: GameDef, ticks: u64) -> (Game, Vec<(u64, u64, ExpireReason)>) {
    let seen = Rc::new(RefCell::new(Vec::new()));
    let out = seen.clone();
    let mut g = game(
        def,
        rules(move |stage, g| {
            if stage == Stage::One {
                let events = g.events().expired.iter();
                out.borrow_mut()
                    .extend(events.map(|e| (e.tick, e.entity.seq, e.reason)));
            }
            Ok(())
        }),
    );
    run(&mut g, ticks);
    let got = seen.borrow().clone();
    (g, got)
}

#[test]
fn margins_move_where_each_archetypes_bounds_rule_destroys_it() {
    // Moving right at 10 units a tick from x = 5: past the bounds' edge at x = 400 + margin
    // (the centre leaves: 405 > 400 at tick 40).
    let margins = [0.0, 40.0, -40.0, 0.5, 394.0];
    let movers = margins
        .iter()
        .enumerate()
        .map(|(i, m)| mover(&format!("m{i}"), BoundsPolicy::Destroy, *m, false))
        .collect();
    let mut def = with(movers);
    for i in 0..margins.len() {
        place_moving(&mut def, ArchetypeId(5 + i as u16), 5.0, 0.0, 600.0, 0.0);
    }
    let (g, got) = expirations(def, 100);
    let bounds = ExpireReason::Bounds;
    assert_eq!(
        got,
        [
            (36, 3, bounds),
            (40, 1, bounds),
            (40, 4, bounds),
            (44, 2, bounds),
            (79, 5, bounds),
        ],
        "(tick, sequence) of each destruction: margins {margins:?}"
    );
    assert_eq!(g.world().entity_count(), 0);
    assert_eq!(g.world().counters().spawned_outside, 0);
}

#[test]
fn shots_of_one_archetype_are_destroyed_past_its_margin_in_row_order() {
    // Shots of one archetype (its rows alone in their columns), margin 40: six leave when
    // their centres pass x = ±440 (from x = 5 at 20, 10, 5 and -10 units a tick), three of
    // them at tick 44 in their rows' order. With 140 more standing still, the world is large
    // enough for Motion's one pass over columns, and the first shot's row goes to the last
    // still one at tick 22; without them, to the sixth shot.
    let bounds = ExpireReason::Bounds;
    let at_44 = |order: [u64; 3]| order.map(|seq| (44, seq, bounds));
    for (still, order) in [(140, [2, 5, 6]), (0, [6, 2, 5])] {
        let mut def = with(vec![mover("shot", BoundsPolicy::Destroy, 40.0, false)]);
        let shot = ArchetypeId(5);
        for vx in [1200.0, 600.0, 300.0, -600.0, 600.0, 600.0] {
            place_moving(&mut def, shot, 5.0, 0.0, vx, 0.0);
        }
        for i in 0..still {
            place(&mut def, shot, i as f32 - 70.0, 100.0);
        }
        let (g, got) = expirations(def, 100);
        let mut want = vec![(22, 1, bounds)];
        want.extend(at_44(order));
        want.extend([(45, 4, bounds), (88, 3, bounds)]);
        assert_eq!(
            got, want,
            "(tick, sequence) of each destruction, {still} still"
        );
        assert_eq!(g.world().entity_count(), still as usize);
    }
}

#[test]
fn lifetimes_end_in_row_order_however_many_rows_share_their_columns() {
    // 70 long-lived rows, then 70 of an archetype with the same columns living 30 ticks (so
    // in later chunks of the rows), and 20 more living 50 ticks after those, whose rows the
    // first ends filled from the last (so they end last first).
    let lived = |name: &str, ticks| ArchetypeDef {
        lifetime: Some(ticks),
        ..mover(name, BoundsPolicy::Ignore, 0.0, false)
    };
    let mut def = with(vec![
        lived("long", 1000),
        lived("short", 30),
        lived("later", 50),
    ]);
    let counts = [
        (ArchetypeId(5), 70),
        (ArchetypeId(6), 70),
        (ArchetypeId(7), 20),
    ];
    for (a, n) in counts {
        for i in 0..n {
            place(&mut def, a, i as f32, 0.0);
        }
    }
    let (g, got) = expirations(def, 60);
    let lifetime = ExpireReason::Lifetime;
    let want: Vec<(u64, u64, ExpireReason)> = (71..141)
        .map(|seq| (30, seq, lifetime))
        .chain((141..161).rev().map(|seq| (50, seq, lifetime)))
        .collect();
    assert_eq!(got, want, "(tick, sequence) of each end");
    assert_eq!(g.world().entity_count(), 70);
}

#[test]
fn a_margin_moves_the_walls_of_confine_and_wrap_too() {
    let mut def = with(vec![
        mover("confined", BoundsPolicy::Confine, 40.0, false),
        mover("tight", BoundsPolicy::Confine, -40.0, false),
        mover("wrapped", BoundsPolicy::Wrap, 40.0, false),
    ]);
    for a in 5..8 {
        place_moving(&mut def, ArchetypeId(a), 5.0, 0.0, 600.0, 0.0);
    }
    let mut g = game(def, Box::new(NoConsequences));
    run(&mut g, 44);
    // Without a collider its box is a point: confined at x = 400 + margin exactly. Wrapped
    // at tick 44 (x = 445 > 440) to the left edge, -440 + 5.
    let at = |seq| state(&g, seq).0.x;
    assert_eq!((at(1), at(2)), (440.0, 360.0));
    assert!((at(3) + 435.0).abs() < 1e-3, "wrapped: {}", at(3));
}

#[test]
fn offscreen_destroys_only_what_has_been_in_view() {
    let mut def = with(vec![
        mover("shot", BoundsPolicy::Ignore, 0.0, true),
        mover("kept", BoundsPolicy::Ignore, 0.0, false),
    ]);
    let shot = ArchetypeId(5);
    // 1: enters the view (x from -100 to 100) from the left, crosses it and leaves it: seen
    // at tick 19 (x = -103, its box reaching -98), destroyed at tick 41 (x = 117, more than
    // its size, 10, past the view's edge). 2: moves away from the view, never seen. 3: waits
    // out of view. 4: in view and still, and 5 (not destroyed off screen) flying off.
    place_moving(&mut def, shot, -293.0, 0.0, 600.0, 0.0);
    place_moving(&mut def, shot, -293.0, 0.0, -600.0, 0.0);
    place(&mut def, shot, 0.0, -250.0);
    place(&mut def, shot, 30.0, 30.0);
    place_moving(&mut def, ArchetypeId(6), 0.0, 0.0, 600.0, 0.0);
    let (g, got) = expirations(def, 120);
    assert_eq!(got, [(41, 1, ExpireReason::Offscreen)]);
    assert_eq!(g.world().sequences(), [2, 3, 4, 5]);
}

#[test]
fn the_camera_that_decides_follows_its_target() {
    // The player (the camera's target) runs right at 2 units a tick; a still shot in view
    // falls behind: the view's left edge passes x = 5 + 10 (its box's edge and its size) when
    // the player passes x = 115, at tick 58.
    let mut def = with(vec![mover("shot", BoundsPolicy::Ignore, 0.0, true)]);
    def.archetypes[PLAYER.0 as usize].velocity = Vec2::new(120.0, 0.0);
    def.archetypes[PLAYER.0 as usize].control = None;
    place(&mut def, PLAYER, 0.0, 0.0);
    place(&mut def, ArchetypeId(5), 0.0, 50.0);
    let (_, got) = expirations(def, 60);
    assert_eq!(got, [(58, 2, ExpireReason::Offscreen)]);
}

#[test]
fn a_spawn_outside_its_bounds_follows_its_rule_and_is_reported_once_per_archetype() {
    let mut def = with(vec![
        mover("pipe", BoundsPolicy::Destroy, 0.0, false),
        mover("box", BoundsPolicy::Confine, 0.0, false),
        mover("far", BoundsPolicy::Destroy, 200.0, false),
        mover("free", BoundsPolicy::Ignore, 0.0, false),
    ]);
    let (pipe, boxed, far, free) = (
        ArchetypeId(5),
        ArchetypeId(6),
        ArchetypeId(7),
        ArchetypeId(8),
    );
    // Outside: two pipes and a box; inside their own bounds: the far one (its margin reaches
    // it), one on the bounds' edge and one that ignores them.
    place(&mut def, pipe, 500.0, 0.0);
    place(&mut def, pipe, 0.0, -450.0);
    place(&mut def, boxed, 0.0, 900.0);
    place(&mut def, far, 550.0, 0.0);
    place(&mut def, pipe, 400.0, 400.0);
    place(&mut def, free, 5000.0, 0.0);
    let mut g = game(
        def,
        rules(move |stage, g| {
            if stage == Stage::One && g.tick() == 2 {
                // One more pipe outside, after the warning.
                g.send(Command::Spawn {
                    archetype: pipe,
                    pos: Vec2::new(-401.0, 0.0),
                    overrides: Default::default(),
                })
                .map_err(|e| Fault::new(e.kind, e.message))?;
            }
            Ok(())
        }),
    );
    assert_eq!(g.world().counters().spawned_outside, 3);
    assert_eq!(
        g.take_warnings(),
        [
            "warning: `pipe` spawned at (500, 0), outside its bounds (the level's bounds grown by its margin, 0): its `bounds` rule destroys it on its first tick; give it a margin that reaches where it spawns, or use `offscreen = \"destroy\"`",
            "warning: `box` spawned at (0, 900), outside its bounds (the level's bounds grown by its margin, 0): its `bounds` rule moves it inside on its first tick; give it a margin that reaches where it spawns, or use `offscreen = \"destroy\"`",
        ]
    );
    run(&mut g, 3);
    assert_eq!(g.world().counters().spawned_outside, 4);
    assert!(g.take_warnings().is_empty(), "one warning per archetype");
    // The pipes outside went on their first tick (the one spawned in tick 2, in tick 3); the
    // box was moved in.
    assert_eq!(g.world().sequences(), [3, 4, 5, 6]);
    assert_eq!(state(&g, 3).0, Vec2::new(0.0, 400.0));
}

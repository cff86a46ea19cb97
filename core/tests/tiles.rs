//! Tiles at run time: `set_tile` changes a cell at Commit, and the solid rectangles holding it
//! are merged again around it, so the next tick's Motion collides with the new tiles; reads see
//! the tiles as the stage began; a changed tile is hashed, an unchanged map hashes as before.

mod support;

use ludus_core::*;
use std::cell::RefCell;
use std::rc::Rc;
use support::*;

/// The fixture with gravity, a static `earth` sized only by tiles (5) and a dynamic `crate`
/// (6) pushed out of it.
fn tiled_def() -> GameDef {
    let mut def = game_def();
    def.physics.gravity = Vec2::new(0.0, 600.0);
    def.archetypes.push(ArchetypeDef {
        name: "earth".into(),
        collider: Some(ColliderDef {
            body: BodyKind::Static,
            ..ColliderDef::new(Shape::Box { half: Vec2::ZERO }, L_WALL, 0, 0)
        }),
        ..ArchetypeDef::default()
    });
    def.archetypes.push(ArchetypeDef {
        name: "crate".into(),
        collider: Some(ColliderDef::new(
            Shape::Box {
                half: Vec2::new(4.0, 4.0),
            },
            L_ENEMY,
            0,
            L_WALL,
        )),
        ..ArchetypeDef::default()
    });
    def
}

const EARTH: ArchetypeId = ArchetypeId(5);
const CRATE: ArchetypeId = ArchetypeId(6);

/// `#` solid earth (frame 0), `.` a floor drawn with frame 1, not solid.
fn legend() -> [TileKey; 2] {
    [tile('#', 1, Some(EARTH)), tile('.', 2, None)]
}

/// A crate (sequence 1) and a map of 16-unit tiles whose top row's top is y = 0, from x = -40.
fn crate_on(rows: &[&str], crate_y: f32) -> GameDef {
    let mut def = tiled_def();
    place(&mut def, CRATE, 0.0, crate_y);
    tile_map(&mut def, Vec2::new(-40.0, 0.0), 16.0, rows, &legend());
    def
}

/// Consequences that send `set_tile` commands in stage 1 of the ticks they name.
fn setting(changes: &'static [(u64, (f32, f32), char)]) -> Box<dyn Consequences> {
    rules(move |stage, g| {
        if stage == Stage::One {
            let now = g.tick();
            for &(_, (x, y), tile) in changes.iter().filter(|c| c.0 == now) {
                let pos = Vec2::new(x, y);
                g.send(Command::SetTile { pos, tile })
                    .map_err(|e| Fault::new(e.kind, e.message))?;
            }
        }
        Ok(())
    })
}

/// The solid rectangles: `(sequence, centre, collider shape)`, by sequence.
fn solids(g: &Game) -> Vec<(u64, Vec2, Shape)> {
    let mut out: Vec<(u64, Vec2, Shape)> = g
        .world()
        .ecs()
        .query::<(&Identity, &Position, &Collider)>()
        .iter()
        .filter(|(id, ..)| id.archetype == EARTH)
        .map(|(id, p, c)| (id.seq(), p.0, c.shape()))
        .collect();
    out.sort_by_key(|r| r.0);
    out
}

/// The solid rectangles: `(sequence, centre x, width)`, by sequence.
fn rects(g: &Game) -> Vec<(u64, f32, f32)> {
    (solids(g).into_iter())
        .map(|(seq, p, s)| (seq, p.x, s.half_extents().x * 2.0))
        .collect()
}

#[test]
fn a_body_falls_through_a_removed_floor_tile_from_the_next_tick() {
    // The middle tile goes in tick 5 (stage 1), comes back in tick 30 (the crate far below),
    // and the leftmost goes in tick 32.
    let mut g = game(
        crate_on(&["#####"], -4.0),
        setting(&[
            (5, (0.0, 8.0), ' '),
            (30, (0.0, 8.0), '#'),
            (32, (-35.0, 1.0), ' '),
        ]),
    );
    let dt = g.def().tick.tick_seconds();
    let fall = 600.0 * (0.5 * dt * dt);
    let mut ys = Vec::new();
    let mut shapes = Vec::new();
    for _ in 0..32 {
        g.step(&TickInput::neutral()).expect("tick runs");
        let (p, v) = state(&g, 1);
        ys.push((p.y, v.y));
        shapes.push(rects(&g));
    }
    // Resting on the floor through tick 5: the removal happens at tick 5's Commit.
    for (t, &(y, vy)) in ys[..5].iter().enumerate() {
        assert!(
            (y + 4.0).abs() < 1e-3 && vy == 0.0,
            "tick {}: held up by the floor: {y} {vy}",
            t + 1
        );
    }
    let rest = ys[4].0;
    // Tick 6's Motion finds no floor under it: it falls by gravity from rest.
    assert_eq!(ys[5], (rest + fall, 600.0 * dt), "tick 6 falls");
    assert!(ys[6].0 > ys[5].0 && ys[28].0 > 20.0, "and goes on falling");
    let whole = vec![(2, 0.0, 80.0)];
    let split = vec![(3, -24.0, 32.0), (4, 24.0, 32.0)];
    // The middle tile back: the two halves stay, the new tile is a rectangle of its own.
    let mended = vec![(3, -24.0, 32.0), (4, 24.0, 32.0), (5, 0.0, 16.0)];
    // The leftmost tile gone: only its rectangle is merged again.
    let nibbled = vec![(4, 24.0, 32.0), (5, 0.0, 16.0), (6, -16.0, 16.0)];
    for (t, got) in shapes.iter().enumerate() {
        let want = match t + 1 {
            ..5 => &whole,
            5..30 => &split,
            30..32 => &mended,
            _ => &nibbled,
        };
        assert_eq!(got, want, "solid rectangles after tick {}", t + 1);
    }
}

#[test]
fn a_tile_added_under_a_falling_body_holds_it_up() {
    // The crate falls from y = -40 above the gap; a tile fills the gap in tick 1.
    let landing = |changes: &'static [(u64, (f32, f32), char)]| {
        let mut g = game(crate_on(&["## ##"], -40.0), setting(changes));
        run(&mut g, 60);
        state(&g, 1)
    };
    let (p, v) = landing(&[(1, (0.0, 8.0), '#')]);
    assert!(
        (p.y + 4.0).abs() < 1e-3 && v.y == 0.0,
        "on the new tile: {p:?} {v:?}"
    );
    let (p, _) = landing(&[]);
    assert!(p.y > 100.0, "through the gap without it: {p:?}");
}

/// What a stage read: its tick, the stage, the tile at each point.
type Reads = (u64, Stage, Vec<Option<char>>);

#[test]
fn reads_see_the_tiles_as_the_stage_began() {
    let mut def = tiled_def();
    tile_map(
        &mut def,
        Vec2::new(-40.0, 0.0),
        16.0,
        &["#.#", "# #"],
        &legend(),
    );
    let seen: Rc<RefCell<Vec<Reads>>> = Rc::default();
    let out = seen.clone();
    let points = [
        (-39.0, 1.0),
        (-20.0, 15.9),
        (-20.0, 16.0),
        (-8.0, 31.9),
        (8.0, 0.0),
        (-41.0, 0.0),
        (-40.0, 32.0),
    ];
    let mut g = game(
        def,
        rules(move |stage, g| {
            let read = points
                .iter()
                .map(|&(x, y)| g.tile(Vec2::new(x, y)))
                .collect();
            out.borrow_mut().push((g.tick(), stage, read));
            if (g.tick(), stage) == (1, Stage::One) {
                for (x, tile) in [(-20.0, '#'), (-40.0, ' ')] {
                    let pos = Vec2::new(x, 20.0);
                    g.send(Command::SetTile { pos, tile }).unwrap();
                }
            }
            Ok(())
        }),
    );
    run(&mut g, 2);
    let before = vec![Some('#'), Some('.'), None, Some('#'), None, None, None];
    let after = vec![Some('#'), Some('.'), Some('#'), Some('#'), None, None, None];
    assert_eq!(
        *seen.borrow(),
        [
            (1, Stage::One, before.clone()),
            (1, Stage::Two, before),
            (2, Stage::One, after.clone()),
            (2, Stage::Two, after),
        ]
    );
}

/// A level, a point, a character, and the refusal (`None`: accepted).
type Case<'a> = (&'a GameDef, (f32, f32), char, Option<&'a str>);

#[test]
fn set_tile_refuses_points_off_the_map_and_characters_that_are_no_tile() {
    let mut def = tiled_def();
    let mut keys = legend().to_vec();
    keys.push(TileKey {
        ch: 'E',
        frame: 0,
        solid: None,
        spawn: Some(ENEMY),
    });
    tile_map(&mut def, Vec2::new(-40.0, 0.0), 16.0, &["#.#"], &keys);
    let mut bare = tiled_def();
    bare.levels[0].name = "bare".into();
    let cases: [Case; 7] = [
        (&def, (-40.0, 0.0), ' ', None),
        (&def, (7.9, 15.9), '.', None),
        (
            &def,
            (8.0, 0.0),
            '#',
            Some("(8, 0) is outside the tile map, which covers x from -40 to 8 and y from 0 to 16"),
        ),
        (
            &def,
            (0.0, f32::NAN),
            '#',
            Some("a tile position must be finite numbers, got (0, NaN)"),
        ),
        (
            &def,
            (0.0, 0.0),
            'x',
            Some(
                "`x` is not in the tile map's legend: its tiles are `#`, `.`, and \" \" for no tile",
            ),
        ),
        (
            &def,
            (0.0, 0.0),
            'E',
            Some(
                "`E` places an archetype when the level starts; it is not a tile: its tiles are `#`, `.`, and \" \" for no tile",
            ),
        ),
        (
            &bare,
            (0.0, 0.0),
            '#',
            Some("this level has no tile map to set a tile in"),
        ),
    ];
    for (def, (x, y), tile, expected) in cases {
        let got: Rc<RefCell<Option<Result<(), String>>>> = Rc::default();
        let out = got.clone();
        let mut g = game(
            def.clone(),
            rules(move |stage, g| {
                if stage == Stage::One && g.tick() == 1 {
                    let pos = Vec2::new(x, y);
                    let sent = g.send(Command::SetTile { pos, tile });
                    *out.borrow_mut() = Some(sent.map(|_| ()).map_err(|e| e.message));
                }
                Ok(())
            }),
        );
        run(&mut g, 1);
        let got = got.borrow().clone().expect("sent");
        assert_eq!(
            got,
            expected.map_or(Ok(()), |m| Err(m.to_string())),
            "({x}, {y}) `{tile}`"
        );
    }
}

/// Each tick's state hash over `ticks` ticks of `def` with `changes`.
fn hashes(def: &GameDef, changes: &'static [(u64, (f32, f32), char)], ticks: u64) -> Vec<u64> {
    let mut g = game(def.clone(), setting(changes));
    (0..ticks)
        .map(|_| {
            g.step(&TickInput::neutral()).expect("tick runs");
            g.last_report().and_then(|r| r.hash).expect("hashed").total
        })
        .collect()
}

#[test]
fn a_changed_tile_is_hashed_and_a_map_never_changed_hashes_as_before() {
    let mut def = tiled_def();
    tile_map(&mut def, Vec2::new(-40.0, 0.0), 16.0, &["#.#"], &legend());
    let untouched = hashes(&def, &[], 6);
    // Setting a tile to what it is changes nothing.
    assert_eq!(hashes(&def, &[(3, (0.0, 0.0), '#')], 6), untouched);
    // A floor tile (not solid: no entity changes) removed in tick 3 changes the hash from
    // tick 3, and the same run gives the same hashes.
    let removed = hashes(&def, &[(3, (-20.0, 0.0), ' ')], 6);
    assert_eq!(removed[..2], untouched[..2], "the same until the change");
    for t in 2..6 {
        assert_ne!(
            removed[t],
            untouched[t],
            "tick {}: the change is hashed",
            t + 1
        );
    }
    assert_eq!(hashes(&def, &[(3, (-20.0, 0.0), ' ')], 6), removed);
    // Put back in tick 5: still a map that was changed, hashed as such.
    let back = hashes(&def, &[(3, (-20.0, 0.0), ' '), (5, (-20.0, 0.0), '.')], 6);
    assert_eq!(back[..4], removed[..4]);
    assert_ne!(back[4], removed[4]);
}

#[test]
fn rectangles_past_the_entity_limit_fault_at_commit() {
    let mut def = tiled_def();
    tile_map(
        &mut def,
        Vec2::ZERO,
        16.0,
        &["###", "###", "###"],
        &legend(),
    );
    def.limits.max_entities = 3;
    // The middle of a 3 x 3 block out: four rectangles round it, one more than the limit.
    let mut g = game(def, setting(&[(1, (24.0, 24.0), ' ')]));
    let f = g.step(&TickInput::neutral()).expect_err("over the limit");
    assert_eq!(
        (f.kind, f.phase),
        (FaultKind::Capacity, Some(Phase::Commit)),
        "{f}"
    );
    assert_eq!(
        f.message,
        "the tiles changed this tick make 4 solid rectangles, which would make 4 entities, more than 3 (raise [limits] entities)"
    );
}

/// A solid tile's archetype whose collider is a circle (or has no shape written, which is a
/// circle) still collides as the tiles' rectangle: every rectangle is a box of its size, at
/// the level's build and where a tile is made solid at run time.
#[test]
fn solid_tiles_are_boxes_whatever_their_archetypes_shape() {
    let mut def = crate_on(&["####.", "#...#"], -100.0);
    def.archetypes[usize::from(EARTH.0)].collider = Some(ColliderDef {
        body: BodyKind::Static,
        ..ColliderDef::new(Shape::Circle { radius: 0.0 }, L_WALL, 0, 0)
    });
    let mut g = game(def, setting(&[(2, (-40.0 + 72.0, 8.0), '#')]));
    let boxes = |g: &Game| -> Vec<(Vec2, Shape)> {
        solids(g).into_iter().map(|(_, p, s)| (p, s)).collect()
    };
    let b = |x: f32, y: f32, w: f32, h: f32| {
        (
            Vec2::new(x, y),
            Shape::Box {
                half: Vec2::new(w / 2.0, h / 2.0),
            },
        )
    };
    g.step(&TickInput::neutral()).unwrap();
    // The top row's four tiles, and the two single tiles of the second row.
    assert_eq!(
        boxes(&g),
        [
            b(-8.0, 8.0, 64.0, 16.0),
            b(-32.0, 24.0, 16.0, 16.0),
            b(32.0, 24.0, 16.0, 16.0)
        ]
    );
    g.step(&TickInput::neutral()).unwrap();
    // The fifth tile of the top row made solid: a box of its own.
    assert!(
        boxes(&g).contains(&b(32.0, 8.0, 16.0, 16.0)),
        "{:?}",
        boxes(&g)
    );
}

//! What the world shows: sprite-sheet animations advanced by ticks and switched by commands,
//! and the camera's zoom and shake, each as presentation extracts it.

mod support;

use ludus_core::*;
use support::*;

const HERO: ArchetypeId = ArchetypeId(0);

/// A hero drawn from a 4 x 2 sheet, animated `spin` (3, 2, 1, 0 at 15 fps, looping) and
/// `fall` (4 to 7 at 30 fps, once), at 60 ticks per second.
fn sheet_game() -> GameDef {
    let mut sheet = ImageDef::whole("hero", "hero.png", 64, 32);
    sheet.frame = (16, 16);
    let anim = |name: &str, frames: &[u16], fps: f32, looping: bool| AnimationDef {
        name: name.into(),
        frames: frames.to_vec(),
        fps,
        looping,
    };
    let hero = ArchetypeDef {
        name: "hero".into(),
        sprite: Some(SpriteDef {
            shape: SpriteShape::Image(AssetId(0)),
            frame: 6,
            ..sprite(16.0, 0)
        }),
        animations: vec![
            anim("spin", &[3, 2, 1, 0], 15.0, true),
            anim("fall", &[4, 5, 6, 7], 30.0, false),
        ],
        ..ArchetypeDef::default()
    };
    let still = ArchetypeDef {
        name: "still".into(),
        sprite: Some(SpriteDef {
            shape: SpriteShape::Image(AssetId(0)),
            frame: 6,
            flip_x: true,
            ..sprite(16.0, 0)
        }),
        ..ArchetypeDef::default()
    };
    let mut def = GameDef {
        images: vec![sheet],
        archetypes: vec![hero, still],
        levels: vec![LevelDef::default()],
        ..GameDef::default()
    };
    place(&mut def, HERO, 0.0, 0.0);
    place(&mut def, ArchetypeId(1), 50.0, 0.0);
    def
}

fn drawn(g: &Game, interpolation: Interpolation) -> RenderFrame {
    let mut frame = RenderFrame::with_capacity(16);
    frame.extract(g.world(), g.def(), interpolation);
    frame
}

/// The frame seq 1 is drawn with, exactly at the last tick.
fn frame_of_hero(g: &Game) -> u16 {
    drawn(g, Interpolation::Exact).draws[0].frame
}

#[test]
fn the_first_animation_plays_from_spawn_by_ticks() {
    let mut g = game(sheet_game(), Box::new(NoConsequences));
    // 15 fps at 60 Hz: a new frame every 4 ticks, round and round.
    let expected = [
        (0, 3),
        (3, 3),
        (4, 2),
        (8, 1),
        (12, 0),
        (15, 0),
        (16, 3),
        (21, 2),
    ];
    let mut at = 0;
    for (tick, frame) in expected {
        run(&mut g, tick - at);
        at = tick;
        assert_eq!(frame_of_hero(&g), frame, "tick {tick}");
    }
    // Between ticks the animation is where positions are: half a tick before tick 24 is
    // still tick 23's frame; exactly at 24 the next one.
    run(&mut g, 24 - at);
    let half = drawn(&g, Interpolation::Alpha(0.5)).draws[0].frame;
    assert_eq!((half, frame_of_hero(&g)), (2, 1));
    // Without an animation: the sprite's own frame, mirrored as declared.
    let still = drawn(&g, Interpolation::Exact).draws[1];
    assert_eq!((still.frame, still.flip_x), (6, true));
}

#[test]
fn animate_switches_once_and_an_unknown_name_is_refused() {
    let refused = std::rc::Rc::new(std::cell::RefCell::new(None));
    let seen = refused.clone();
    let mut g = game(
        sheet_game(),
        rules(move |stage, g| {
            if stage != Stage::One {
                return Ok(());
            }
            // Asked every tick from 10: only the first switch restarts it.
            if g.tick() >= 10 {
                let slot = g
                    .animation_slot(1, "fall")
                    .map_err(CommandError::into_fault)?;
                g.send(Command::Animate {
                    target: 1,
                    slot: slot.expect("the hero lives"),
                })
                .map_err(CommandError::into_fault)?;
            }
            if g.tick() == 12 {
                *seen.borrow_mut() = Some(g.animation_slot(2, "fall").unwrap_err().message);
            }
            Ok(())
        }),
    );
    // `fall` at 30 fps from tick 10: frames 4, 5, 6, 7 two ticks each, then stays on 7.
    let expected = [(9, 1), (10, 4), (11, 4), (12, 5), (15, 6), (16, 7), (40, 7)];
    let mut at = 0;
    for (tick, frame) in expected {
        run(&mut g, tick - at);
        at = tick;
        assert_eq!(frame_of_hero(&g), frame, "tick {tick}");
    }
    assert_eq!(
        refused.borrow().as_deref(),
        Some("archetype `still` declares no animation `fall` (it declares none)")
    );
}

#[test]
fn the_animation_playing_is_part_of_the_state_hash() {
    let run_with = |switch: bool| {
        let mut g = game(
            sheet_game(),
            rules(move |stage, g| {
                if switch && stage == Stage::One && g.tick() == 5 {
                    g.send(Command::Animate { target: 1, slot: 1 })
                        .map_err(CommandError::into_fault)?;
                }
                Ok(())
            }),
        );
        let mut parts = Vec::new();
        for _ in 0..8 {
            let report = g.step(&TickInput::neutral()).unwrap();
            parts.push(report.hash.unwrap());
        }
        parts
    };
    let (plain, switched) = (run_with(false), run_with(true));
    // Ticks count from 1: the fifth step is tick 5.
    assert_eq!(plain[..4], switched[..4], "the same until the switch");
    assert_ne!(plain[4].total, switched[4].total);
    assert_eq!(
        plain[4].differing_parts(&switched[4]),
        [HashPart::Deadlines]
    );
}

#[test]
fn zoom_and_shake_move_the_view_and_end() {
    let mut def = sheet_game();
    def.levels[0].camera.view = Vec2::new(800.0, 600.0);
    def.levels[0].camera.zoom = 2.0;
    let mut g = game(
        def,
        rules(|stage, g| {
            if stage == Stage::One && g.tick() == 3 {
                g.send(Command::CameraZoom(4.0))
                    .map_err(CommandError::into_fault)?;
                g.send(Command::CameraShake {
                    strength: 10.0,
                    ticks: 5,
                })
                .map_err(CommandError::into_fault)?;
                let bad = g.send(Command::CameraZoom(0.0)).unwrap_err();
                assert_eq!(bad.message, "a zoom must be from 0.01 to 100, got 0");
                let bad = g
                    .send(Command::CameraShake {
                        strength: -1.0,
                        ticks: 5,
                    })
                    .unwrap_err();
                assert!(bad.message.contains("not negative"), "{}", bad.message);
            }
            Ok(())
        }),
    );
    run(&mut g, 2);
    let before = drawn(&g, Interpolation::Exact).camera;
    assert_eq!(
        before.view,
        Vec2::new(400.0, 300.0),
        "the level's zoom of 2"
    );
    assert_eq!(before.center, Vec2::ZERO);
    run(&mut g, 1);
    let shaken = drawn(&g, Interpolation::Exact).camera;
    assert_eq!(
        shaken.view,
        Vec2::new(100.0, 75.0),
        "the script's 4 times the level's 2"
    );
    let off = shaken.center.length();
    assert!(off > 0.0 && off <= 10.0 * std::f32::consts::SQRT_2, "{off}");
    // Fading: never further than the strength left; gone after 5 ticks.
    for age in 1..5 {
        run(&mut g, 1);
        let c = drawn(&g, Interpolation::Exact).camera.center;
        let left = 10.0 * (1.0 - age as f32 / 5.0);
        assert!(
            c.length() <= left * std::f32::consts::SQRT_2 + 1e-4,
            "{age}: {c:?}"
        );
    }
    run(&mut g, 1);
    assert_eq!(drawn(&g, Interpolation::Exact).camera.center, Vec2::ZERO);
}

#[test]
fn a_dead_zone_moves_the_view_only_as_far_as_it_must() {
    let mut def = sheet_game();
    def.archetypes[0].camera_target = true;
    def.archetypes[0].velocity = Vec2::new(60.0, 0.0);
    def.levels[0].camera.dead_zone = Some(Vec2::new(20.0, 10.0));
    let mut g = game(def, Box::new(NoConsequences));
    let mut frame = RenderFrame::with_capacity(16);
    let mut centers = Vec::new();
    for _ in 0..20 {
        run(&mut g, 1);
        frame.extract(g.world(), g.def(), Interpolation::Exact);
        centers.push(frame.camera.center.x);
    }
    // The hero moves 1 unit a tick from 0. The first view centres on it (at 1); then the view
    // stays put until it is 10 units out, and trails it by 10.
    let expected: Vec<f32> = (1..=20).map(|t| (t as f32 - 10.0).max(1.0)).collect();
    assert_eq!(centers, expected);
}

#[test]
fn labels_follow_their_entity_and_text_entities_carry_their_own_words() {
    let mut def = sheet_game();
    def.archetypes[0].velocity = Vec2::new(60.0, 0.0);
    def.archetypes[0].label = Some(LabelDef {
        text: "hero".into(),
        size: 10.0,
        color: Color::WHITE,
        offset: Vec2::new(0.0, -20.0),
        font: None,
    });
    def.archetypes.push(LabelDef::text_archetype());
    let text = ArchetypeId(def.archetypes.len() as u16 - 1);
    let mut g = game(
        def,
        rules(move |stage, g| {
            if stage == Stage::One && g.tick() == 2 {
                g.send(Command::Spawn {
                    archetype: text,
                    pos: Vec2::new(5.0, 5.0),
                    overrides: Overrides {
                        text: Some("+5".into()),
                        color: Some(Color::rgb(1, 2, 3)),
                        ..Overrides::default()
                    }
                    .into(),
                })
                .map_err(CommandError::into_fault)?;
                let long = "x".repeat(MAX_TEXT_BYTES + 1);
                let refused = g
                    .send(Command::Spawn {
                        archetype: text,
                        pos: Vec2::ZERO,
                        overrides: Overrides {
                            text: Some(long),
                            ..Overrides::default()
                        }
                        .into(),
                    })
                    .unwrap_err();
                assert!(
                    refused.message.contains("at most 4096 bytes"),
                    "{}",
                    refused.message
                );
            }
            Ok(())
        }),
    );
    run(&mut g, 3);
    let f = drawn(&g, Interpolation::Alpha(0.5));
    let texts: Vec<(&str, Vec2, f32, Color)> = f
        .texts
        .iter()
        .map(|t| (&*t.text, t.pos, t.size, t.color))
        .collect();
    // The hero moved 1 unit a tick: half-way from 2 to 3, 20 units up. The text entity, made
    // at the end of tick 2, has not moved.
    assert_eq!(
        texts,
        [
            ("hero", Vec2::new(2.5, -20.0), 10.0, Color::WHITE),
            ("+5", Vec2::new(5.0, 5.0), 16.0, Color::rgb(1, 2, 3)),
        ]
    );
    // The built-in text lasts 60 ticks: made at the end of tick 2, gone at tick 62.
    run(&mut g, 58);
    assert_eq!(drawn(&g, Interpolation::Exact).texts.len(), 2);
    run(&mut g, 1);
    assert_eq!(drawn(&g, Interpolation::Exact).texts.len(), 1);
}

#[test]
fn a_million_tile_map_draws_only_what_the_camera_sees() {
    let mut def = sheet_game();
    // 1000 x 1000 tiles of 16 units; a 320 x 240 view at the map's middle.
    let (cols, rows) = (1000u32, 1000u32);
    def.levels[0].camera.view = Vec2::new(320.0, 240.0);
    def.levels[0].bounds = Rect::new(Vec2::ZERO, Vec2::new(16_000.0, 16_000.0));
    def.levels[0].tilemap = Some(TileMapDef {
        image: AssetId(0),
        tile: Vec2::new(16.0, 16.0),
        origin: Vec2::ZERO,
        columns: cols,
        rows,
        cells: (0..cols * rows).map(|i| (i % 7) as u16 + 1).collect(),
        layer: -1,
        legend: Vec::new(),
        keys: vec![TileMapDef::FRAME_CELL; (cols * rows) as usize],
        solids: Vec::new(),
        first_solid: 0,
    });
    let mut g = game(def, Box::new(NoConsequences));
    run(&mut g, 1);
    let mut f = RenderFrame::with_capacity(4096);
    f.extract(g.world(), g.def(), Interpolation::Exact);
    assert_eq!(f.overflow, 0);
    let tiles: Vec<&Draw> = f.draws.iter().filter(|d| d.layer == -1).collect();
    // The view (7840..8160 x 7880..8120) and a margin of a tile: columns 489..511 and rows
    // 491..509 of the million.
    assert_eq!(tiles.len(), 22 * 18, "{}", tiles.len());
    assert!(tiles.iter().all(|d| {
        (d.pos.x - 8000.0).abs() <= 160.0 + 32.0 && (d.pos.y - 8000.0).abs() <= 120.0 + 32.0
    }));
    // Tiles come first: they are on a lower layer than the sprites.
    assert_eq!(f.draws[0].layer, -1);
    assert_eq!(f.draws.len(), tiles.len() + 2);
}

#[test]
fn music_requests_reach_presentation_once_in_order() {
    let mut def = sheet_game();
    let track = SoundDef {
        name: "theme".into(),
        file: Some("theme.ogg".into()),
        wave: Wave::Sine,
        freq: 0.0,
        freq_end: 0.0,
        duration: 0.0,
        volume: 0.5,
    };
    def.music = vec![track];
    let mut g = game(
        def,
        rules(|stage, g| {
            let theme = g.def().music_id("theme");
            match (stage, g.tick()) {
                (Stage::One, 2) => {
                    g.send(Command::Music(theme))
                        .map_err(CommandError::into_fault)?;
                    let bad = g.send(Command::Music(Some(MusicId(7)))).unwrap_err();
                    assert_eq!(bad.message, "unknown music id 7");
                }
                (Stage::One, 4) => {
                    g.send(Command::Music(None))
                        .map_err(CommandError::into_fault)?;
                }
                _ => {}
            }
            Ok(())
        }),
    );
    run(&mut g, 5);
    let music: Vec<(u64, Presentation)> = g
        .outbox()
        .drain()
        .map(|r| (r.tick, r.what))
        .filter(|(_, w)| matches!(w, Presentation::Music(_)))
        .collect();
    assert_eq!(
        music,
        [
            (2, Presentation::Music(Some(MusicId(0)))),
            (4, Presentation::Music(None))
        ]
    );
    assert!(g.outbox().drain().next().is_none(), "delivered once");
}

/// Every one of many moving, turning, animated sprites (enough that extraction splits them
/// between threads where there are two) is drawn once, at its own interpolated place, angle
/// and frame, in sequence order; and a frame's capacity keeps the first sprites.
#[test]
fn many_sprites_are_each_drawn_as_their_entity_says() {
    let n = 3 * par::SPLIT_MIN as u32;
    let mut def = sheet_game();
    def.levels[0].placements.clear();
    def.levels[0].bounds = Rect::centered(Vec2::new(4000.0, 4000.0));
    let hero = &mut def.archetypes[0];
    hero.velocity = Vec2::new(30.0, -20.0);
    hero.rotation = Some(RotationDef {
        spin: 2.0,
        ..RotationDef::default()
    });
    def.stress = Some(StressDef {
        archetype: HERO,
        area: None,
    });
    let mut g = Game::with_entities(std::sync::Arc::new(def), Box::new(NoConsequences), n).unwrap();
    for _ in 0..7 {
        g.step(&TickInput::neutral()).unwrap();
    }
    let mut frame = RenderFrame::with_capacity(n as usize + 16);
    frame.extract(g.world(), g.def(), Interpolation::Alpha(0.25));
    assert_eq!((frame.draws.len(), frame.overflow), (n as usize, 0));
    let spin = &g.def().archetypes[0].animations[0];
    // At alpha 0.25 the frame's time is 6.25 ticks after the spawn at tick 0.
    let shown = spin.frame_after(6.25 / 60.0);
    let mut expected: Vec<(u64, Vec2, f32)> = g
        .world()
        .ecs()
        .query::<(&Identity, &Position, &PrevPosition, &Rotation)>()
        .iter()
        .map(|(id, p, prev, r)| {
            (
                id.seq(),
                prev.0.lerp(p.0, 0.25),
                r.prev + (r.angle - r.prev) * 0.25,
            )
        })
        .collect();
    expected.sort_by_key(|e| e.0);
    let got: Vec<(u64, Vec2, f32)> = frame
        .draws
        .iter()
        .map(|d| (d.seq, d.pos, d.angle))
        .collect();
    assert!(got == expected, "every sprite where its entity is");
    assert!(frame.draws.iter().all(|d| d.frame == shown));
    // A smaller frame keeps as many as it holds and counts the rest.
    let mut small = RenderFrame::with_capacity(20_000);
    small.extract(g.world(), g.def(), Interpolation::Exact);
    assert_eq!(
        (small.draws.len(), small.overflow),
        (20_000, u64::from(n) - 20_000)
    );
}

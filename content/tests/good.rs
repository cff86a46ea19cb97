//! The complete game in `tests/good/` loads without diagnostics, and every table lands in the
//! `GameDef` where it should: ids resolved, defaults applied, bindings, rects, collider
//! defaults, and a content hash that follows the bytes.

use ludus_content::{DirSource, FileSource, LoadedGame, MemorySource, load_dir, load_game};
use ludus_core::{
    ActionId, ActionKind, Anchor, ArchetypeId, AssetId, BehaviourKind, BodyKind, BoundsPolicy,
    Color, Constant, ControlKind, HudItem, HudLine, Mode, MotionDef, PlatformerDef, Rect,
    RotateMode, RotationDef, Shape, SpriteShape, ThrustDef, TriggerOn, Var, Vec2, Wave,
};
use std::path::{Path, PathBuf};

fn good_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/good")
}

fn load_good() -> LoadedGame {
    match load_game(&DirSource::new(good_dir())) {
        Ok(game) => game,
        Err(d) => panic!("the good game must load:\n{}", d.render()),
    }
}

/// The good game copied into memory, file by file.
fn good_in_memory() -> MemorySource {
    let disk = DirSource::new(good_dir());
    let mut mem = MemorySource::new();
    for path in load_good().files {
        let bytes = disk.read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        mem.insert(path, bytes);
    }
    mem
}

fn hash_of(source: &MemorySource) -> u64 {
    match load_game(source) {
        Ok(g) => g.def.content_hash,
        Err(d) => panic!("{}", d.render()),
    }
}

#[test]
fn settings_tables_are_converted() {
    let def = load_good().def;
    assert_eq!(def.name, "Complete");
    assert_eq!(def.seed, 1234);
    assert_eq!(
        def.hud,
        [
            HudItem::Text(HudLine::plain("score {score}")),
            HudItem::Text(HudLine {
                text: "lives {lives}".into(),
                at: Anchor::TopRight,
                size: 24.0,
                color: Color::rgb(255, 0, 0),
                font: None,
            })
        ]
    );
    assert_eq!(def.tick.rate_hz, 50, "tick.rate");
    assert_eq!(
        def.tick.max_frame_delta_ns, 100_000_000,
        "max_frame_delta is milliseconds"
    );
    assert_eq!(def.tick.max_catch_up_ticks, 3);
    assert_eq!(def.ai.default_cadence, 6);
    assert_eq!(def.limits.max_entities, 5000);
    assert_eq!(def.limits.events_per_tick, 1000);
    assert_eq!(def.limits.commands_per_tick, 2000);
    assert_eq!(def.limits.outbox, 64);
    assert_eq!(def.limits.timers, 128);
    assert_eq!(def.limits.draws, 6000);
    assert_eq!(def.limits.jobs, 4);
    assert_eq!(def.limits.contacts_per_tick, 9000);
    assert_eq!(def.limits.variables, 32);
    assert_eq!(def.limits.state_keys, 8);
    assert_eq!(
        def.window.title, "Complete",
        "the title defaults to the name"
    );
    assert_eq!((def.window.width, def.window.height), (1280, 720));
    assert_eq!(def.scripts.files, ["scripts/main.lua", "scripts/util.lua"]);
    assert_eq!(def.scripts.instruction_budget, 500_000);
    assert_eq!(def.scripts.memory_limit, 16 * 1024 * 1024, "memory is MiB");
    assert_eq!(def.physics.cell_size, Some(64.0));
    assert_eq!(def.constants.get("lives"), Some(&Constant::Int(3)));
    assert_eq!(def.constants.get("gravity"), Some(&Constant::Float(9.5)));
    assert_eq!(def.constants.get("hard"), Some(&Constant::Bool(false)));
    assert_eq!(
        def.constants.get("greeting"),
        Some(&Constant::Text("hello".into()))
    );
    assert_eq!(def.tags, ["player", "enemy", "shot", "wall"]);
    assert_eq!(def.layers, ["ships", "shots", "walls"]);
    let vars: Vec<(&str, Var)> = def
        .variables
        .iter()
        .map(|(k, v)| (k.as_str(), v.clone()))
        .collect();
    assert_eq!(
        vars,
        [
            ("banner", Var::Text("GET READY".into())),
            ("money", Var::Num(100.0)),
            ("ratio", Var::Num(0.5)),
        ]
    );
}

#[test]
fn actions_and_bindings_keep_declaration_order() {
    let def = load_good().def;
    let names: Vec<(&str, ActionKind)> = def
        .actions
        .iter()
        .map(|(_, a)| (a.name.as_str(), a.kind))
        .collect();
    assert_eq!(
        names,
        [
            ("move_x", ActionKind::Axis),
            ("move_y", ActionKind::Axis),
            ("fire", ActionKind::Button),
            ("pause", ActionKind::Button),
        ]
    );
    let bindings: Vec<(&str, u8, f32)> = def
        .bindings
        .iter()
        .map(|b| (b.key.as_str(), b.action.0, b.scale))
        .collect();
    assert_eq!(
        bindings,
        [
            ("a", 0, -1.0),
            ("d", 0, 1.0),
            ("left", 0, -1.0),
            ("right", 0, 1.0),
            ("w", 1, -1.0),
            ("s", 1, 1.0),
            ("space", 2, 1.0),
            ("mouse_left", 2, 1.0),
        ],
        "axis keys in table order, button keys with scale 1"
    );
}

#[test]
fn effects_and_sounds_take_defaults() {
    let def = load_good().def;
    let spark = &def.effects[0];
    assert_eq!(spark.name, "spark");
    assert_eq!(spark.color, Color::rgb(0xff, 0xd1, 0x66));
    assert_eq!(
        (spark.particles, spark.speed, spark.duration, spark.size),
        (12, 120.0, 0.4, 3.0)
    );
    let boom = &def.effects[1];
    assert_eq!(
        (boom.particles, boom.speed, boom.duration, boom.size),
        (40, 300.0, 0.8, 5.0)
    );
    let shoot = &def.sounds[0];
    assert_eq!(shoot.wave, Wave::Square);
    assert_eq!(
        (shoot.freq, shoot.freq_end),
        (880.0, 880.0),
        "freq_end defaults to freq"
    );
    assert_eq!((shoot.duration, shoot.volume), (0.1, 0.5));
    let hit = &def.sounds[1];
    assert_eq!(hit.wave, Wave::Noise);
    assert_eq!(
        (hit.freq, hit.freq_end, hit.duration, hit.volume),
        (200.0, 50.0, 0.3, 0.8)
    );
    assert_eq!(def.effect_id("boom").map(|e| e.0), Some(1));
}

#[test]
fn archetypes_resolve_across_files() {
    let def = load_good().def;
    let names: Vec<&str> = def.archetypes.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "player", "drone", "shot", "wall", "ghost", "rock", "ship", "runner", "text"
        ],
        "game.toml first, then files, then the built-in `text`"
    );
    let files: Vec<&str> = def.images.iter().map(|i| i.file.as_str()).collect();
    assert_eq!(files, ["images/ship.png"]);
    assert_eq!((def.images[0].width, def.images[0].height), (1, 1));

    let stress = def.stress.expect("stress");
    assert_eq!(stress.archetype, ArchetypeId(1));
    assert_eq!(stress.area, Some(Rect::centered(Vec2::new(400.0, 300.0))));
}

#[test]
fn the_player_archetype_reads_each_component() {
    let def = load_good().def;
    let player = &def.archetypes[0];
    assert_eq!(player.tags, 0b0001);
    assert_eq!(player.speed, 200.0);
    assert!(player.camera_target);
    assert_eq!(player.bounds, BoundsPolicy::Confine);
    let cds: Vec<(&str, u32)> = player
        .cooldowns
        .iter()
        .map(|c| (c.name.as_str(), c.ticks))
        .collect();
    assert_eq!(cds, [("shoot", 8), ("dash", 30)]);
    let sprite = player.sprite.as_ref().expect("player sprite");
    assert_eq!(sprite.shape, SpriteShape::Image(AssetId(0)));
    assert_eq!(sprite.size, Vec2::new(24.0, 32.0));
    assert_eq!(sprite.color, Color::rgba(255, 255, 255, 128));
    assert_eq!((sprite.layer, sprite.depth), (2, 0.5));
    let collider = player.collider.expect("player collider");
    assert_eq!(
        collider.shape,
        Shape::Circle { radius: 16.0 },
        "half the sprite's larger side"
    );
    assert_eq!(
        (collider.layer, collider.mask, collider.push),
        (0b001, 0b011, 0b100)
    );
    assert!(!collider.trigger && !collider.stay);
    let health = player.health.expect("player health");
    assert_eq!((health.max, health.invulnerable_ticks), (5, 45));
    let control = player.control.as_ref().expect("player control");
    assert_eq!(
        (control.move_x, control.move_y),
        (Some(ActionId(0)), Some(ActionId(1)))
    );
    assert_eq!(control.triggers.len(), 2);
    assert_eq!(control.triggers[0].action, ActionId(2));
    assert_eq!(control.triggers[0].on, TriggerOn::Hold);
    assert_eq!(control.triggers[0].cooldown, Some(0));
    assert_eq!(control.triggers[1].action, ActionId(3));
    assert_eq!(control.triggers[1].on, TriggerOn::Release);
    assert_eq!(control.triggers[1].cooldown, None);
}

#[test]
fn drones_shots_walls_and_ghosts_read_their_components() {
    let def = load_good().def;
    let drone = &def.archetypes[1];
    assert_eq!(drone.tags, 0b0010);
    let brain = drone.behaviour.expect("drone behaviour");
    assert_eq!(brain.kind, BehaviourKind::Chase);
    assert_eq!(
        (brain.target, brain.cadence, brain.navigate),
        (0b0001, Some(4), true)
    );
    let collider = drone.collider.expect("drone collider");
    assert_eq!(collider.shape, Shape::Circle { radius: 6.0 });
    assert!(collider.stay);
    assert_eq!(
        drone.sprite.as_ref().map(|s| s.color),
        Some(Color::rgb(230, 57, 70))
    );

    let shot = &def.archetypes[2];
    assert_eq!(shot.velocity, Vec2::new(0.0, -400.0));
    assert_eq!(shot.lifetime, Some(60));
    assert_eq!(shot.bounds, BoundsPolicy::Destroy);
    let collider = shot.collider.expect("shot collider");
    assert_eq!(
        collider.shape,
        Shape::Box {
            half: Vec2::new(2.0, 5.0)
        },
        "half the sprite size"
    );
    assert!(collider.trigger);
    assert_eq!(
        shot.sprite.as_ref().map(|s| s.color),
        Some(Color::WHITE),
        "colour default"
    );

    let wall = &def.archetypes[3];
    assert_eq!(
        wall.collider.map(|c| c.shape),
        Some(Shape::Box {
            half: Vec2::new(32.0, 8.0)
        })
    );
    assert!(wall.sprite.is_none());

    let ghost = &def.archetypes[4];
    let brain = ghost.behaviour.expect("ghost behaviour");
    assert_eq!(
        (brain.kind, brain.target, brain.cadence, brain.navigate),
        (BehaviourKind::Wander, 0, None, false)
    );
    assert!(ghost.collider.is_none() && ghost.health.is_none());
}

#[test]
fn archetypes_read_the_motion_vocabulary() {
    let def = load_good().def;
    assert_eq!(def.physics.gravity, Vec2::new(0.0, 900.0));
    let find = |name: &str| def.archetypes.iter().find(|a| a.name == name).unwrap();
    let rock = find("rock");
    assert_eq!(rock.bounds, BoundsPolicy::Wrap);
    assert_eq!(
        rock.motion,
        Some(MotionDef {
            gravity_scale: Some(0.5),
            drag: 0.25,
            max_speed: Some(300.0),
        })
    );
    assert_eq!(
        rock.rotation,
        Some(RotationDef {
            angle: 1.5,
            spin: -2.0,
            rotate: RotateMode::Velocity,
        })
    );
    let c = rock.collider.unwrap();
    assert_eq!(
        (c.body, c.mass, c.bounce, c.friction),
        (BodyKind::Kinematic, 3.0, Some(0.8), 0.2)
    );
    let player = find("player");
    assert_eq!((player.motion, player.rotation), (None, None));
    let collider = find("shot").collider.unwrap();
    assert_eq!(
        (
            collider.body,
            collider.mass,
            collider.bounce,
            collider.friction
        ),
        (BodyKind::Dynamic, 1.0, None, 0.0),
        "the defaults"
    );
    let ship = find("ship");
    assert_eq!(ship.bounds, BoundsPolicy::Bounce);
    assert_eq!(ship.collider.unwrap().body, BodyKind::Static);
    assert_eq!(
        ship.control.as_ref().unwrap().kind,
        ControlKind::Thrust(ThrustDef {
            turn: Some(ActionId(0)),
            thrust: Some(ActionId(2)),
            turn_speed: 4.0,
            accel: 250.0,
        })
    );
    assert_eq!(
        find("runner").control.as_ref().unwrap().kind,
        ControlKind::Platformer(PlatformerDef {
            run: Some(ActionId(0)),
            jump: Some(ActionId(2)),
            accel: 900.0,
            jump_speed: 480.0,
            coyote: 5,
            buffer: 3,
            cut: 0.4,
        })
    );
    assert_eq!(player.control.as_ref().unwrap().kind, ControlKind::TopDown);
}

#[test]
fn levels_convert_rects_and_apply_defaults() {
    let def = load_good().def;
    let names: Vec<&str> = def.levels.iter().map(|l| l.name.as_str()).collect();
    assert_eq!(names, ["menu", "arena"]);
    assert_eq!(def.entry_level, 1, "entry names arena");

    let menu = &def.levels[0];
    assert_eq!(menu.entry_mode, Mode::Paused);
    assert_eq!(menu.background, Color::BLACK);
    assert_eq!(
        menu.bounds,
        Rect::centered(Vec2::new(800.0, 600.0)),
        "default bounds"
    );
    assert_eq!(menu.camera.view, Vec2::new(800.0, 600.0));
    assert!(menu.placements.is_empty() && menu.nav.is_none());

    let arena = &def.levels[1];
    assert_eq!(arena.entry_mode, Mode::Playing);
    let bounds = Rect::new(Vec2::new(-500.0, -400.0), Vec2::new(500.0, 400.0));
    assert_eq!(arena.bounds, bounds);
    assert_eq!(arena.background, Color::rgb(0x10, 0x10, 0x18));
    assert_eq!(arena.camera.view, Vec2::new(960.0, 540.0));
    assert_eq!(
        arena.camera.bounds,
        Some(Rect::new(
            Vec2::new(-400.0, -300.0),
            Vec2::new(400.0, 300.0)
        ))
    );
    let nav = arena.nav.as_ref().expect("nav");
    assert_eq!((nav.cell, nav.blocking, nav.goal), (16.0, 0b100, 0b0001));

    assert_eq!(arena.placements.len(), 3);
    let p = &arena.placements[1];
    assert_eq!(p.archetype, ArchetypeId(1));
    assert_eq!(p.pos, Vec2::new(-100.5, -50.0));
    assert_eq!(p.overrides.velocity, Some(Vec2::new(10.0, 0.0)));
    assert_eq!(p.overrides.speed, Some(90.0));
    assert_eq!(p.overrides.health, Some(7));
    assert_eq!(p.overrides.color, Some(Color::rgb(0, 255, 0)));
    assert_eq!(p.overrides.lifetime, Some(600));
    assert_eq!(arena.placements[0].overrides, Default::default());

    let s = &arena.spawners[0];
    assert_eq!(
        (s.archetype, s.period, s.count, s.start, s.bursts),
        (ArchetypeId(1), 120, 1, 120, None)
    );
    assert_eq!(s.area, bounds, "area defaults to the level bounds");
    let s = &arena.spawners[1];
    assert_eq!(
        (s.archetype, s.period, s.count, s.start, s.bursts),
        (ArchetypeId(4), 30, 4, 0, Some(10))
    );
    assert_eq!(
        s.area,
        Rect::new(Vec2::new(-400.0, -300.0), Vec2::new(400.0, -250.0))
    );
}

#[test]
fn files_and_scripts_are_listed_in_reading_order() {
    let game = load_good();
    assert_eq!(
        game.files,
        [
            "game.toml",
            "images/ship.png",
            "archetypes/enemies.toml",
            "levels/arena.toml",
            "scripts/main.lua",
            "scripts/util.lua",
        ]
    );
    let scripts: Vec<&str> = game.scripts.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(scripts, ["scripts/main.lua", "scripts/util.lua"]);
    assert!(game.scripts[0].1.contains("on_collision_enter"));
}

#[test]
fn content_hash_is_stable_and_follows_every_byte() {
    let mem = good_in_memory();
    let first = hash_of(&mem);
    assert_ne!(first, 0);
    assert_eq!(first, hash_of(&mem), "same content, same hash");
    assert_eq!(first, load_good().def.content_hash, "disk and memory agree");
    for path in [
        "game.toml",
        "levels/arena.toml",
        "scripts/util.lua",
        "images/ship.png",
    ] {
        let mut changed = mem.clone();
        let mut bytes = changed.get(path).map(<[u8]>::to_vec).unwrap_or_default();
        let last = bytes.len() - 1;
        // Flip a byte that keeps the file valid: a comment or trailing newline becomes a space,
        // or the last byte of the PNG's end marker changes.
        bytes[last] = if bytes[last] == b'\n' {
            b' '
        } else {
            bytes[last] ^ 1
        };
        changed.insert(path, bytes);
        assert_ne!(
            first,
            hash_of(&changed),
            "changing {path} must change the hash"
        );
    }
}

#[test]
fn load_dir_shows_paths_as_given() {
    // Tests run in the package folder, so this path is relative to the current directory.
    let Err(d) = load_dir(Path::new("tests/bad/rate_zero")) else {
        panic!("rate_zero must be refused");
    };
    assert_eq!(d.0[0].file, "tests/bad/rate_zero/game.toml");
    assert!(
        d.render()
            .starts_with("tests/bad/rate_zero/game.toml:4:8: error: ")
    );
    let Err(d) = load_dir(Path::new("tests/bad/duplicate_tag")) else {
        panic!("duplicate_tag must be refused");
    };
    assert_eq!(
        d.0[0].help.as_deref(),
        Some("first listed at tests/bad/duplicate_tag/game.toml:2:9")
    );
}

#[test]
fn bounds_take_a_margin_and_offscreen_a_rule_of_its_own() {
    let game = r#"name = "Edges"
[archetypes.plain]
bounds = "destroy"
[archetypes.wide]
bounds = { rule = "destroy", margin = 64 }
[archetypes.narrow]
bounds = { rule = "confine", margin = -8.5 }
[archetypes.round]
bounds = { rule = "wrap" }
[archetypes.seen]
offscreen = "destroy"
[archetypes.none]
[levels.main]
"#;
    let mut source = MemorySource::new();
    source.insert("game.toml", game.as_bytes().to_vec());
    let def = match load_game(&source) {
        Ok(g) => g.def,
        Err(d) => panic!("{}", d.render()),
    };
    let got: Vec<(&str, BoundsPolicy, f32, bool)> = (def.archetypes.iter())
        .filter(|a| a.name != "text")
        .map(|a| {
            (
                a.name.as_str(),
                a.bounds,
                a.bounds_margin,
                a.offscreen_destroy,
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            ("plain", BoundsPolicy::Destroy, 0.0, false),
            ("wide", BoundsPolicy::Destroy, 64.0, false),
            ("narrow", BoundsPolicy::Confine, -8.5, false),
            ("round", BoundsPolicy::Wrap, 0.0, false),
            ("seen", BoundsPolicy::Ignore, 0.0, true),
            ("none", BoundsPolicy::Ignore, 0.0, false),
        ]
    );
}

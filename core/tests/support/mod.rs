//! Shared fixtures: a small game built in Rust, consequences written as closures, and a
//! simulation double for the frame loop.
#![allow(dead_code)]

use ludus_core::*;
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

pub const PLAYER: ArchetypeId = ArchetypeId(0);
pub const ENEMY: ArchetypeId = ArchetypeId(1);
pub const BULLET: ArchetypeId = ArchetypeId(2);
pub const PICKUP: ArchetypeId = ArchetypeId(3);
pub const WALL: ArchetypeId = ArchetypeId(4);

pub const L_PLAYER: u32 = 1;
pub const L_ENEMY: u32 = 2;
pub const L_BULLET: u32 = 4;
pub const L_PICKUP: u32 = 8;
pub const L_WALL: u32 = 16;

pub const T_PLAYER: u64 = 1;
pub const T_ENEMY: u64 = 2;

pub fn circle(radius: f32, layer: u32, mask: u32) -> ColliderDef {
    ColliderDef {
        shape: Shape::Circle { radius },
        layer,
        mask,
        push: 0,
        trigger: false,
        stay: false,
        body: BodyKind::Dynamic,
        mass: 1.0,
        bounce: None,
        friction: 0.0,
    }
}

pub fn sprite(size: f32, layer: i16) -> SpriteDef {
    SpriteDef {
        shape: SpriteShape::Circle,
        size: Vec2::new(size, size),
        color: Color::WHITE,
        layer,
        depth: 0.0,
        frame: 0,
        flip_x: false,
        flip_y: false,
        alpha: 1.0,
    }
}

/// A small arena game: player, enemy (chases the player), bullet, pickup (trigger), wall.
pub fn game_def() -> GameDef {
    let mut actions = ActionSet::new();
    let move_x = actions.add("move_x", ActionKind::Axis).unwrap();
    let move_y = actions.add("move_y", ActionKind::Axis).unwrap();
    let fire = actions.add("fire", ActionKind::Button).unwrap();
    let archetypes = vec![
        player(move_x, move_y, fire),
        ArchetypeDef {
            name: "enemy".into(),
            sprite: Some(sprite(12.0, 1)),
            collider: Some(circle(6.0, L_ENEMY, L_PLAYER | L_BULLET)),
            health: Some(HealthDef {
                max: 3,
                invulnerable_ticks: 0,
            }),
            speed: 60.0,
            behaviour: Some(BehaviourDef {
                kind: BehaviourKind::Chase,
                target: T_PLAYER,
                cadence: Some(10),
                navigate: false,
                range: None,
                idle: Idle::Stop,
            }),
            tags: T_ENEMY,
            ..ArchetypeDef::default()
        },
        ArchetypeDef {
            name: "bullet".into(),
            sprite: Some(sprite(4.0, 3)),
            collider: Some(circle(2.0, L_BULLET, L_ENEMY)),
            lifetime: Some(60),
            ..ArchetypeDef::default()
        },
        ArchetypeDef {
            name: "pickup".into(),
            sprite: Some(sprite(8.0, 0)),
            collider: Some(ColliderDef {
                trigger: true,
                ..circle(6.0, L_PICKUP, L_PLAYER)
            }),
            ..ArchetypeDef::default()
        },
        ArchetypeDef {
            name: "wall".into(),
            sprite: Some(SpriteDef {
                shape: SpriteShape::Rect,
                ..sprite(32.0, 0)
            }),
            collider: Some(ColliderDef {
                shape: Shape::Box {
                    half: Vec2::new(16.0, 16.0),
                },
                ..circle(0.0, L_WALL, 0)
            }),
            ..ArchetypeDef::default()
        },
    ];
    GameDef {
        name: "fixture".into(),
        actions,
        tags: vec!["player".into(), "enemy".into()],
        layers: vec![
            "player".into(),
            "enemy".into(),
            "bullet".into(),
            "pickup".into(),
            "wall".into(),
        ],
        archetypes,
        effects: vec![EffectDef {
            name: "boom".into(),
            color: Color::WHITE,
            particles: 8,
            speed: 50.0,
            duration: 0.3,
            size: 2.0,
        }],
        sounds: vec![SoundDef {
            name: "beep".into(),
            file: None,
            wave: Wave::Square,
            freq: 440.0,
            freq_end: 440.0,
            duration: 0.1,
            volume: 0.5,
        }],
        levels: vec![LevelDef::default()],
        stress: Some(StressDef {
            archetype: ENEMY,
            area: None,
        }),
        ..GameDef::default()
    }
}

/// The fixture's player: moved by two axes, firing while a button is held.
fn player(move_x: ActionId, move_y: ActionId, fire: ActionId) -> ArchetypeDef {
    ArchetypeDef {
        name: "player".into(),
        sprite: Some(sprite(16.0, 2)),
        collider: Some(circle(8.0, L_PLAYER, L_ENEMY | L_PICKUP)),
        health: Some(HealthDef {
            max: 5,
            invulnerable_ticks: 30,
        }),
        speed: 120.0,
        control: Some(ControlDef {
            kind: ControlKind::TopDown,
            move_x: Some(move_x),
            accel: None,
            move_y: Some(move_y),
            triggers: vec![TriggerDef {
                action: fire,
                on: TriggerOn::Hold,
                cooldown: Some(0),
                aim: 0,
            }],
        }),
        cooldowns: vec![CooldownDef {
            name: "fire".into(),
            ticks: 10,
        }],
        tags: T_PLAYER,
        camera_target: true,
        ..ArchetypeDef::default()
    }
}

pub fn place(def: &mut GameDef, archetype: ArchetypeId, x: f32, y: f32) {
    def.levels[0].placements.push(Placement {
        archetype,
        pos: Vec2::new(x, y),
        overrides: Overrides::default(),
    });
}

pub fn place_moving(def: &mut GameDef, archetype: ArchetypeId, x: f32, y: f32, vx: f32, vy: f32) {
    def.levels[0].placements.push(Placement {
        archetype,
        pos: Vec2::new(x, y),
        overrides: Overrides {
            velocity: Some(Vec2::new(vx, vy)),
            ..Overrides::default()
        },
    });
}

type StageFn = dyn FnMut(Stage, &mut Gameplay<'_>) -> Result<(), Fault>;

/// Consequences from a closure.
pub struct Rules(pub Box<StageFn>);

impl Consequences for Rules {
    fn stage(&mut self, stage: Stage, g: &mut Gameplay<'_>) -> Result<(), Fault> {
        (self.0)(stage, g)
    }
}

pub fn rules(
    f: impl FnMut(Stage, &mut Gameplay<'_>) -> Result<(), Fault> + 'static,
) -> Box<dyn Consequences> {
    Box::new(Rules(Box::new(f)))
}

pub fn game(def: GameDef, consequences: Box<dyn Consequences>) -> Game {
    let mut g = Game::new(Arc::new(def), consequences).expect("fixture builds");
    g.options_mut().check_invariants = true;
    g.options_mut().hash = true;
    g
}

pub fn run(g: &mut Game, ticks: u64) {
    for _ in 0..ticks {
        g.step(&TickInput::neutral()).expect("tick runs");
    }
}

/// An entity's position history: where it was at the start of the tick and where it is now.
#[derive(Clone, Copy, Debug)]
pub struct Track {
    pub prev: Vec2,
    pub cur: Vec2,
}

pub fn pos_of(g: &Game, seq: u64) -> Option<Track> {
    let e = g.world().entity(seq)?;
    let ecs = g.world().ecs();
    let cur = ecs.get::<&Position>(e).ok()?.0;
    let prev = ecs.get::<&PrevPosition>(e).ok()?.0;
    Some(Track { prev, cur })
}

pub fn health_of(g: &Game, seq: u64) -> Option<i32> {
    let e = g.world().entity(seq)?;
    g.world().ecs().get::<&Health>(e).ok().map(|h| h.current)
}

/// The fixture's first player and first enemy, by sequence number.
pub const PLAYER_SEQ: u64 = 1;
pub const ENEMY_SEQ: u64 = 2;

/// The fixture with a pickup placed at the origin (sequence 1: a circle of radius 6 drawn 8
/// wide, layer 0) and a wall at (100, 0) (sequence 2: a 32 x 32 box).
pub fn pickup_and_wall() -> GameDef {
    let mut def = game_def();
    place(&mut def, PICKUP, 0.0, 0.0);
    place(&mut def, WALL, 100.0, 0.0);
    def
}

/// A log that consequences write lines into and the test reads back.
pub type Log = Rc<RefCell<Vec<String>>>;

pub fn log() -> Log {
    Rc::new(RefCell::new(Vec::new()))
}

/// A one-shot timer without a target.
pub fn timer(name: &str, delay: u64) -> TimerSpec {
    TimerSpec {
        name: name.into(),
        delay,
        period: None,
        target: None,
        data: 0.0,
    }
}

/// An entity's position and velocity.
pub fn state(g: &Game, seq: u64) -> (Vec2, Vec2) {
    let e = g.world().entity(seq).unwrap();
    let ecs = g.world().ecs();
    (
        ecs.get::<&Position>(e).unwrap().0,
        ecs.get::<&Velocity>(e).unwrap().0,
    )
}

/// A game without consequences.
pub fn plain(def: GameDef) -> Game {
    game(def, Box::new(NoConsequences))
}

/// A millisecond in nanoseconds.
pub const MS: u64 = 1_000_000;

/// A simulation double that records every tick and every load.
#[derive(Default)]
pub struct Recorder {
    pub ticks: Vec<(u64, TickInput)>,
    pub fail_at: Option<u64>,
    pub loads: Vec<LoadRequest>,
    pub load_answer: Option<LoadStatus>,
    /// What the tick of that number asks of the session (default: go on).
    pub flow: std::collections::BTreeMap<u64, Flow>,
}

impl Simulation for Recorder {
    fn tick(&mut self, tick: u64, input: &TickInput) -> Result<Flow, Fault> {
        if self.fail_at == Some(tick) {
            return Err(Fault::new(FaultKind::Script, "boom").at(tick, Phase::Gameplay));
        }
        self.ticks.push((tick, input.clone()));
        Ok(self.flow.remove(&tick).unwrap_or_default())
    }

    fn load(&mut self, request: &LoadRequest) -> LoadStatus {
        self.loads.push(request.clone());
        self.load_answer
            .clone()
            .unwrap_or(LoadStatus::Ready(Mode::Playing))
    }
}

/// A session with four actions that starts in the playing mode.
pub fn session(policy: TickPolicy) -> Session {
    Session::new(policy, 4, Mode::Playing).expect("valid policy")
}

pub const FIRE: ActionId = ActionId(0);
pub const JUMP: ActionId = ActionId(1);
pub const MOVE_X: ActionId = ActionId(2);

/// A tile map from rows of characters on level 0 (a space, or a character not in `legend`,
/// is no tile), each `legend` entry `(char, frame plus one, solid archetype)`: its solid tiles
/// merged and placed after the level's placements so far, as content places them.
pub fn tile_map(def: &mut GameDef, origin: Vec2, tile: f32, rows: &[&str], legend: &[TileKey]) {
    let columns = rows.iter().map(|r| r.chars().count()).max().unwrap_or(0);
    let mut keys = vec![0u8; columns * rows.len()];
    let mut cells = vec![0u16; columns * rows.len()];
    for (y, row) in rows.iter().enumerate() {
        for (x, ch) in row.chars().enumerate() {
            if let Some(i) = legend.iter().position(|k| k.ch == ch) {
                keys[y * columns + x] = i as u8 + 1;
                cells[y * columns + x] = legend[i].frame;
            }
        }
    }
    let map = TileMapDef {
        image: AssetId(0),
        tile: Vec2::new(tile, tile),
        origin,
        columns: columns as u32,
        rows: rows.len() as u32,
        cells,
        layer: -1,
        legend: legend.to_vec(),
        keys,
        solids: Vec::new(),
        first_solid: 0,
    };
    assert!(def.levels[0].add_tilemap(map, usize::MAX), "no limit");
}

/// A legend entry: a tile drawing `frame` (plus one), solid as `solid` is.
pub fn tile(ch: char, frame: u16, solid: Option<ArchetypeId>) -> TileKey {
    TileKey {
        ch,
        frame,
        solid,
        spawn: None,
    }
}

//! Fixtures shared by the host tests: a small game definition with a player and two enemies,
//! modules from memory, and games built around scripts.
#![allow(dead_code)]

pub mod hostile;

use ludus_core::*;
use ludus_script::{ModuleSource, Script, ScriptHost};
use std::collections::BTreeMap;
use std::rc::Rc;
use std::sync::Arc;

pub const PLAYER: ArchetypeId = ArchetypeId(0);
pub const ENEMY: ArchetypeId = ArchetypeId(1);

pub fn def() -> GameDef {
    let circle = |layer, mask| ColliderDef {
        shape: Shape::Circle { radius: 8.0 },
        layer,
        mask,
        push: 0,
        trigger: false,
        stay: false,
        body: BodyKind::Dynamic,
        mass: 1.0,
        bounce: None,
        friction: 0.0,
    };
    let mut actions = ActionSet::new();
    actions.add("fire", ActionKind::Button).unwrap();
    let mut constants = BTreeMap::new();
    constants.insert("bonus".to_string(), Constant::Int(7));
    constants.insert("title".to_string(), Constant::Text("Swarm".into()));
    let mut def = GameDef {
        actions,
        tags: vec!["player".into(), "enemy".into()],
        layers: vec!["player".into(), "enemy".into()],
        archetypes: vec![
            ArchetypeDef {
                name: "player".into(),
                collider: Some(circle(1, 2)),
                health: Some(HealthDef {
                    max: 10,
                    invulnerable_ticks: 0,
                }),
                tags: 1,
                control: Some(ControlDef {
                    kind: ControlKind::TopDown,
                    move_x: None,
                    accel: None,
                    move_y: None,
                    triggers: vec![TriggerDef {
                        action: ActionId(0),
                        on: TriggerOn::Press,
                        cooldown: None,
                        aim: 0,
                    }],
                }),
                ..ArchetypeDef::default()
            },
            ArchetypeDef {
                name: "enemy".into(),
                collider: Some(circle(2, 1)),
                health: Some(HealthDef {
                    max: 3,
                    invulnerable_ticks: 0,
                }),
                tags: 2,
                ..ArchetypeDef::default()
            },
        ],
        effects: vec![EffectDef {
            name: "spark".into(),
            color: Color::WHITE,
            particles: 4,
            speed: 10.0,
            duration: 0.2,
            size: 2.0,
        }],
        sounds: vec![SoundDef {
            name: "hit".into(),
            file: None,
            wave: Wave::Square,
            freq: 440.0,
            freq_end: 220.0,
            duration: 0.1,
            volume: 0.5,
        }],
        levels: vec![LevelDef::default()],
        constants,
        seed: 42,
        ..GameDef::default()
    };
    def.scripts.instruction_budget = 200_000;
    def.scripts.memory_limit = 8 * 1024 * 1024;
    def.levels[0].placements = vec![
        Placement {
            archetype: PLAYER,
            pos: Vec2::new(0.0, 0.0),
            overrides: Overrides::default(),
        },
        Placement {
            archetype: ENEMY,
            pos: Vec2::new(5.0, 0.0),
            overrides: Overrides::default(),
        },
        Placement {
            archetype: ENEMY,
            pos: Vec2::new(300.0, 0.0),
            overrides: Overrides::default(),
        },
    ];
    def
}

pub struct Modules(pub BTreeMap<String, String>);

impl ModuleSource for Modules {
    fn read(&self, path: &str) -> Result<String, String> {
        self.0
            .get(path)
            .cloned()
            .ok_or_else(|| format!("no {path}"))
    }
}

pub fn host_with(
    def: &Arc<GameDef>,
    files: &[(&str, &str)],
    modules: &[(&str, &str)],
) -> Result<ScriptHost, Fault> {
    let scripts = files
        .iter()
        .map(|(p, t)| Script {
            path: p.to_string(),
            text: t.to_string(),
        })
        .collect();
    let modules: Rc<dyn ModuleSource> = Rc::new(Modules(
        modules
            .iter()
            .map(|(p, t)| (p.to_string(), t.to_string()))
            .collect(),
    ));
    ScriptHost::new(def.clone(), scripts, Some(modules))
}

pub fn game(src: &str) -> Result<Game, Fault> {
    game_with(def(), &[("scripts/main.lua", src)], &[])
}

pub fn game_with(
    def: GameDef,
    files: &[(&str, &str)],
    modules: &[(&str, &str)],
) -> Result<Game, Fault> {
    let def = Arc::new(def);
    let host = host_with(&def, files, modules)?;
    let mut g = Game::new(def, Box::new(host))?;
    g.options_mut().hash = true;
    g.options_mut().check_invariants = true;
    Ok(g)
}

/// The fault of the test game with `src` as its script: as it loads, or in its first three
/// ticks.
pub fn script_fault(src: &str) -> Fault {
    match game(src) {
        Err(f) => f,
        Ok(mut g) => run(&mut g, 3).expect_err("expected a fault"),
    }
}

pub fn run(g: &mut Game, ticks: u64) -> Result<(), Fault> {
    for _ in 0..ticks {
        g.step(&TickInput::neutral())?;
    }
    Ok(())
}

pub fn var(g: &Game, name: &str) -> Option<f64> {
    g.world().vars().get(name).and_then(Var::num)
}

/// What scripts printed, without the `[tick N] file:LINE: ` prefix.
pub fn said(g: &mut Game) -> Vec<String> {
    g.consequences_mut()
        .drain_log()
        .into_iter()
        .map(|l| match l.split_once(".lua:") {
            Some((_, rest)) => rest.split_once(": ").map_or(rest, |(_, m)| m).to_string(),
            None => l,
        })
        .collect()
}

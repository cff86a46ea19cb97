//! The swarm example's rules (examples/swarm/scripts/*.lua) written in Rust: the same commands,
//! in the same order, with the same random draws, so a game driven by these rules is the same
//! game as one driven by the Lua scripts. Benchmarks use it to show the cost of scripting.

use ludus_core::*;

pub struct SwarmRules {
    wave: i64,
    constants: Constants,
}

struct Constants {
    first_wave: u64,
    wave_every: u64,
    wave_size: i64,
    wave_growth: i64,
    brute_from: i64,
    bullet_speed: f64,
    gem_chance: f64,
    gem_score: i64,
}

fn number(def: &GameDef, name: &str) -> f64 {
    match def.constants.get(name) {
        Some(Constant::Int(i)) => *i as f64,
        Some(Constant::Float(f)) => *f,
        _ => panic!("the swarm example declares the constant {name}"),
    }
}

const HALF_W: i64 = 880;
const HALF_H: i64 = 580;

impl SwarmRules {
    pub fn new(def: &GameDef) -> SwarmRules {
        SwarmRules {
            wave: 0,
            constants: Constants {
                first_wave: number(def, "first_wave") as u64,
                wave_every: number(def, "wave_every") as u64,
                wave_size: number(def, "wave_size") as i64,
                wave_growth: number(def, "wave_growth") as i64,
                brute_from: number(def, "brute_from") as i64,
                bullet_speed: number(def, "bullet_speed"),
                gem_chance: number(def, "gem_chance"),
                gem_score: number(def, "gem_score") as i64,
            },
        }
    }
}

fn send(g: &mut Gameplay<'_>, c: Command) -> Result<(), Fault> {
    g.send(c).map(drop).map_err(CommandError::into_fault)
}

fn id(def: &GameDef, kind: &str) -> ArchetypeId {
    def.archetype_id(kind).expect("declared archetype")
}

fn effect(g: &mut Gameplay<'_>, name: &str, x: f32, y: f32) -> Result<(), Fault> {
    let effect = g.def().effect_id(name).expect("declared effect");
    send(
        g,
        Command::Effect {
            effect,
            pos: Vec2::new(x, y),
            color: None,
        },
    )
}

fn sound(g: &mut Gameplay<'_>, name: &str, volume: f32, pitch: f32) -> Result<(), Fault> {
    let sound = g.def().sound_id(name).expect("declared sound");
    send(
        g,
        Command::Sound {
            sound,
            volume,
            pitch,
        },
    )
}

fn spawn(
    g: &mut Gameplay<'_>,
    kind: &str,
    x: f32,
    y: f32,
    velocity: Option<Vec2>,
) -> Result<(), Fault> {
    let archetype = id(g.def(), kind);
    let overrides = Overrides {
        velocity,
        ..Overrides::default()
    };
    send(
        g,
        Command::Spawn {
            archetype,
            pos: Vec2::new(x, y),
            overrides: overrides.into(),
        },
    )
}

fn edge_point(g: &mut Gameplay<'_>) -> (f32, f32) {
    let side = g.rng().i64(1..=4);
    let (x, y) = match side {
        1 => (-HALF_W, g.rng().i64(-HALF_H..=HALF_H)),
        2 => (HALF_W, g.rng().i64(-HALF_H..=HALF_H)),
        3 => (g.rng().i64(-HALF_W..=HALF_W), -HALF_H),
        _ => (g.rng().i64(-HALF_W..=HALF_W), HALF_H),
    };
    (x as f32, y as f32)
}

impl Consequences for SwarmRules {
    fn begin_world(&mut self, _def: &GameDef, _world: &SimWorld) -> Result<(), Fault> {
        self.wave = 0;
        Ok(())
    }

    fn stage(&mut self, stage: Stage, g: &mut Gameplay<'_>) -> Result<(), Fault> {
        if stage == Stage::Two {
            return self.damaged(g);
        }
        self.started(g)?;
        self.shoot(g)?;
        touched(g)?;
        self.triggered(g)?;
        self.waves(g)
    }
}

impl SwarmRules {
    /// combat.lua's `on_damage` (the player hurt, or an enemy only hit), then its `on_death`
    /// (the game over, or an enemy killed: score, and sometimes a gem).
    fn damaged(&self, g: &mut Gameplay<'_>) -> Result<(), Fault> {
        let c = &self.constants;
        let events = g.events().damage.clone();
        let player = id(g.def(), "player");
        let brute = id(g.def(), "brute");
        for d in events {
            let (x, y) = (d.target.pos.x, d.target.pos.y);
            if d.target.archetype == player {
                send(
                    g,
                    Command::SetVar("hp".into(), Var::Num(f64::from(d.health.max(0)))),
                )?;
                effect(g, "hurt", x, y)?;
                sound(g, "hurt", 1.0, 1.0)?;
                send(
                    g,
                    Command::CameraShake {
                        strength: 8.0,
                        ticks: 18,
                    },
                )?;
            } else if !d.killed {
                sound(g, "hit", 1.0, 1.0)?;
            }
        }
        let deaths = g.events().deaths.clone();
        for d in deaths {
            let (x, y) = (d.target.pos.x, d.target.pos.y);
            send(g, Command::Destroy(d.target.seq))?;
            effect(g, "death", x, y)?;
            if d.target.archetype == player {
                send(g, Command::GameOver("Game over".into()))?;
                send(g, Command::CameraZoom(1.5))?;
            } else {
                send(
                    g,
                    Command::Score(if d.target.archetype == brute { 5 } else { 1 }),
                )?;
                let pitch = 0.9 + g.rng().f64() * 0.2;
                sound(g, "death", 0.8, pitch as f32)?;
                if g.rng().f64() < c.gem_chance {
                    spawn(g, "gem", x, y, None)?;
                }
            }
        }
        Ok(())
    }

    /// waves.lua's, then combat.lua's `on_start`: the wave timer, the health and the
    /// music.
    fn started(&self, g: &mut Gameplay<'_>) -> Result<(), Fault> {
        let c = &self.constants;
        if g.events().level_started() {
            // waves.lua, then combat.lua
            send(g, Command::SetVar("wave".into(), Var::Num(0.0)))?;
            g.schedule_timer(TimerSpec {
                name: "wave".into(),
                delay: c.first_wave,
                period: Some(c.wave_every),
                target: None,
                data: 0.0,
            })
            .map_err(CommandError::into_fault)?;
            send(g, Command::SetVar("hp".into(), Var::Num(6.0)))?;
            let theme = g.def().music_id("theme").expect("the swarm has a theme");
            send(g, Command::Music(Some(theme)))?;
        }
        Ok(())
    }

    /// combat.lua's `on_action`: a bullet where the player aims, and its sound.
    fn shoot(&self, g: &mut Gameplay<'_>) -> Result<(), Fault> {
        let c = &self.constants;
        let actions = g.events().actions.clone();
        for e in actions {
            // Lua computes in doubles; so do we, converting at the same point.
            let (fx, fy) = (f64::from(e.aim.x), f64::from(e.aim.y));
            let x = (f64::from(e.entity.pos.x) + fx * 18.0) as f32;
            let y = (f64::from(e.entity.pos.y) + fy * 18.0) as f32;
            let v = c.bullet_speed;
            let velocity = Vec2::new((fx * v) as f32, (fy * v) as f32);
            spawn(g, "bullet", x, y, Some(velocity))?;
            sound(g, "shoot", 1.0, 1.0)?;
        }
        Ok(())
    }

    /// combat.lua's `on_trigger_enter`: a bullet spent on what it hit (damaging an enemy), a gem
    /// picked up by the player (its score floating up).
    fn triggered(&self, g: &mut Gameplay<'_>) -> Result<(), Fault> {
        let c = &self.constants;
        let player = id(g.def(), "player");
        let bullet = id(g.def(), "bullet");
        let gem = id(g.def(), "gem");
        let enemy = g.def().tag_bit("enemy").expect("declared tag");
        let triggers = g.events().trigger_enter.clone();
        let mut spent = std::collections::HashSet::new();
        for e in triggers {
            if e.a.archetype == bullet && spent.insert(e.a.seq) {
                send(g, Command::Destroy(e.a.seq))?;
                effect(g, "hit", e.a.pos.x, e.a.pos.y)?;
                if e.b.tags & enemy != 0 {
                    send(
                        g,
                        Command::Damage {
                            target: e.b.seq,
                            amount: 1,
                            source: Some(e.a.seq),
                        },
                    )?;
                }
            } else if e.a.archetype == gem && e.b.archetype == player && g.alive(e.a.seq) {
                send(g, Command::Destroy(e.a.seq))?;
                send(g, Command::Score(c.gem_score))?;
                effect(g, "gem", e.a.pos.x, e.a.pos.y)?;
                sound(g, "gem", 1.0, 1.0)?;
                // The score it gave, floating up from where it was.
                let overrides = Overrides {
                    velocity: Some(Vec2::new(0.0, -40.0)),
                    text: Some(format!("+{}", c.gem_score)),
                    ..Overrides::default()
                };
                send(
                    g,
                    Command::Spawn {
                        archetype: id(g.def(), "text"),
                        pos: Vec2::new(e.a.pos.x, e.a.pos.y - 12.0),
                        overrides: overrides.into(),
                    },
                )?;
            }
        }
        Ok(())
    }

    /// waves.lua's `on_timer`: the next wave, larger each time, brutes among it from a wave on.
    fn waves(&mut self, g: &mut Gameplay<'_>) -> Result<(), Fault> {
        let c = &self.constants;
        let timers = g.events().timers.clone();
        for t in timers {
            if !g.timer_live(t.id) || &*t.name != "wave" {
                continue;
            }
            self.wave += 1;
            send(
                g,
                Command::SetVar("wave".into(), Var::Num(self.wave as f64)),
            )?;
            sound(g, "wave", 1.0, 1.0)?;
            for _ in 0..c.wave_size + (self.wave - 1) * c.wave_growth {
                let mut kind = "grunt";
                if self.wave >= c.brute_from && g.rng().f64() < 0.2 {
                    kind = "brute";
                }
                let (x, y) = edge_point(g);
                spawn(g, kind, x, y, None)?;
            }
        }
        Ok(())
    }
}

/// combat.lua's `on_collision_enter` and `on_collision_stay`: whatever touches the player hurts it.
fn touched(g: &mut Gameplay<'_>) -> Result<(), Fault> {
    let player = id(g.def(), "player");
    let mut touches = g.events().collision_enter.clone();
    touches.extend(g.events().collision_stay.iter().copied());
    for e in touches {
        if e.a.archetype == player {
            send(
                g,
                Command::Damage {
                    target: e.a.seq,
                    amount: 1,
                    source: Some(e.b.seq),
                },
            )?;
        } else if e.b.archetype == player {
            send(
                g,
                Command::Damage {
                    target: e.b.seq,
                    amount: 1,
                    source: Some(e.a.seq),
                },
            )?;
        }
    }
    Ok(())
}

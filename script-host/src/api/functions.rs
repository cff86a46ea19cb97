//! The Rust functions of the `ludus` API (see [`super::spec::API`] for what each does).

use super::args::*;
use super::{Bad, charge, malformed, outside};
use crate::shared::Shared;
use ludus_core::{Color, Command, TimerId};
use mlua::{Lua, Table, Value};
use std::rc::Rc;

/// Creates the API's Rust functions into `raw`, under their [`super::spec::API`] names, plus
/// `__log` (the sink of the prelude's `ludus.log`). Long because it is the list of the API's
/// functions, each a few lines, in the order of the API list.
pub fn install(lua: &Lua, raw: &Table, shared: &Rc<Shared>) -> mlua::Result<()> {
    let s = shared.clone();
    let log = lua.create_function(move |lua, line: Value| {
        charge(lua, &s, &[&line])?;
        if let Value::String(line) = &line {
            s.log.borrow_mut().push(&line.as_bytes());
        }
        Ok(())
    })?;
    raw.raw_set("__log", log)?;

    // A function that needs the running stage: `|lua, g, args: T| -> R { ... }`, the body
    // returning `Result<R, Bad>`.
    macro_rules! def {
        ($name:literal, |$l:ident, $g:ident, $a:ident: $ty:ty| -> $ret:ty $body:block) => {{
            let s = shared.clone();
            let f = lua.create_function(move |$l, $a: $ty| -> mlua::Result<$ret> {
                charge($l, &s, &[])?;
                let result = s.stage.with(|$g| -> Result<$ret, Bad> { $body });
                match result {
                    None => Err(outside($name)),
                    Some(Ok(v)) => Ok(v),
                    Some(Err(bad)) => Err(malformed($l, &s, $name, bad)),
                }
            })?;
            raw.raw_set($name, f)?;
        }};
    }
    // A command: the body returns the `Command`, sent to the stage (which validates it).
    macro_rules! command {
        ($name:literal, |$l:ident, $g:ident, $a:ident: $ty:ty| $body:block) => {
            def!($name, |$l, $g, $a: $ty| -> Value {
                let command: Command = $body;
                $g.send(command)?;
                Ok(Value::Nil)
            })
        };
    }

    command!("damage", |lua, g, args: (Value, Value, Value)| {
        Command::Damage {
            target: entity(&args.0, "target")?,
            amount: amount(&args.1, "amount")?,
            source: match &args.2 {
                Value::Nil => None,
                v => Some(entity(v, "source")?),
            },
        }
    });
    command!("heal", |lua, g, args: (Value, Value)| {
        Command::Heal {
            target: entity(&args.0, "target")?,
            amount: amount(&args.1, "amount")?,
        }
    });
    command!("add_score", |lua, g, args: Value| {
        Command::Score(int(&args, "score")?)
    });
    command!("set", |lua, g, args: (Value, Value)| {
        Command::SetVar(text(&args.0, "variable name")?, num(&args.1, "value")?)
    });
    command!("set_state", |lua, g, args: (Value, Value, Value)| {
        Command::SetState {
            target: entity(&args.0, "entity")?,
            key: text(&args.1, "key")?,
            value: num(&args.2, "value")?,
        }
    });
    command!("spawn", |lua, g, args: (Value, Value, Value, Value)| {
        let kind = text(&args.0, "archetype")?;
        let def = g.def();
        let Some(archetype) = def.archetype_id(&kind) else {
            let names = def.archetypes.iter().map(|a| a.name.as_str());
            return Err(unknown("archetype", &kind, names).into());
        };
        Command::Spawn {
            archetype,
            pos: vec2(&args.1, &args.2, ("x", "y"))?,
            overrides: spawn_overrides(&args.3)?,
        }
    });
    command!("destroy", |lua, g, args: Value| {
        Command::Destroy(entity(&args, "entity")?)
    });
    command!("teleport", |lua, g, args: (Value, Value, Value)| {
        Command::Teleport {
            target: entity(&args.0, "entity")?,
            pos: vec2(&args.1, &args.2, ("x", "y"))?,
        }
    });
    command!("velocity", |lua, g, args: (Value, Value, Value)| {
        Command::SetVelocity {
            target: entity(&args.0, "entity")?,
            velocity: vec2(&args.1, &args.2, ("vx", "vy"))?,
        }
    });
    command!("effect", |lua, g, args: (Value, Value, Value, Value)| {
        let name = text(&args.0, "effect")?;
        let def = g.def();
        let Some(effect) = def.effect_id(&name) else {
            let names = def.effects.iter().map(|e| e.name.as_str());
            return Err(unknown("effect", &name, names).into());
        };
        let color = match &args.3 {
            Value::Nil => None,
            v => {
                let c = text(v, "color")?;
                Some(Color::parse(&c).ok_or_else(|| {
                    format!("color `{c}` is not #rgb, #rrggbb, #rrggbbaa or a colour name")
                })?)
            }
        };
        Command::Effect {
            effect,
            pos: vec2(&args.1, &args.2, ("x", "y"))?,
            color,
        }
    });
    command!("sound", |lua, g, args: (Value, Value, Value)| {
        let name = text(&args.0, "sound")?;
        let def = g.def();
        let Some(sound) = def.sound_id(&name) else {
            let names = def.sounds.iter().map(|s| s.name.as_str());
            return Err(unknown("sound", &name, names).into());
        };
        let volume = opt_num(&args.1, "volume")?.unwrap_or(1.0) as f32;
        let pitch = opt_num(&args.2, "pitch")?.unwrap_or(1.0) as f32;
        if !(0.0..=4.0).contains(&volume) || !(0.05..=20.0).contains(&pitch) {
            return Err(format!(
                "volume must be in 0..4 and pitch in 0.05..20, got {volume} and {pitch}"
            )
            .into());
        }
        Command::Sound {
            sound,
            volume,
            pitch,
        }
    });
    command!("game_over", |lua, g, args: Value| {
        Command::GameOver(match &args {
            Value::Nil => "Game over".to_string(),
            v => text_max(v, "message", TEXT_MAX)?,
        })
    });
    def!("after", |lua, g, args: (Value, Value, Value)| -> Value {
        let spec = timer_spec(&args.0, &args.1, &args.2, false)?;
        Ok(Value::Integer(g.schedule_timer(spec)?.to_bits() as i64))
    });
    def!("every", |lua, g, args: (Value, Value, Value)| -> Value {
        let spec = timer_spec(&args.0, &args.1, &args.2, true)?;
        Ok(Value::Integer(g.schedule_timer(spec)?.to_bits() as i64))
    });
    def!("cancel", |lua, g, args: Value| -> bool {
        let id = int(&args, "timer id")?;
        Ok(g.cancel_timer(TimerId::from_bits(id as u64)))
    });
    def!("__timer_live", |lua, g, args: Value| -> bool {
        let id = int(&args, "timer id")?;
        Ok(g.timer_live(TimerId::from_bits(id as u64)))
    });
    def!("tick", |lua, g, _args: ()| -> i64 { Ok(g.tick() as i64) });
    def!("score", |lua, g, _args: ()| -> i64 { Ok(g.score()) });
    def!("get", |lua, g, args: Value| -> Option<f64> {
        Ok(g.var(&text(&args, "variable name")?))
    });
    def!("state", |lua, g, args: (Value, Value)| -> Option<f64> {
        let target = entity(&args.0, "entity")?;
        Ok(g.state(target, &text(&args.1, "key")?))
    });
    def!("alive", |lua, g, args: Value| -> bool {
        Ok(g.alive(entity(&args, "entity")?))
    });
    def!("health", |lua,
                    g,
                    args: Value|
     -> (Option<i64>, Option<i64>) {
        let target = entity(&args, "entity")?;
        Ok(match g.health(target) {
            Some((cur, max)) => (Some(i64::from(cur)), Some(i64::from(max))),
            None => (None, None),
        })
    });
    def!("random", |lua, g, args: (Value, Value)| -> Value {
        let rng = g.rng();
        match (&args.0, &args.1) {
            (Value::Nil, Value::Nil) => Ok(Value::Number(rng.f64())),
            (m, Value::Nil) => {
                let m = int(m, "upper bound")?;
                if m < 1 {
                    return Err(format!("random(m) needs m >= 1, got {m}").into());
                }
                Ok(Value::Integer(rng.i64(1..=m)))
            }
            (m, n) => {
                let m = int(m, "lower bound")?;
                let n = int(n, "upper bound")?;
                if m > n {
                    return Err(format!("random(m, n) needs m <= n, got {m} > {n}").into());
                }
                Ok(Value::Integer(rng.i64(m..=n)))
            }
        }
    });
    Ok(())
}

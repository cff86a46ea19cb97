//! The `ludus` API's Rust half.
//!
//! - Commands (`damage`, `spawn`, `effect`...) are permanent functions: they validate their
//!   arguments against the game definition and append to the stage's command buffer, which the
//!   host hands to `Gameplay` in order when the stage's Lua call returns. Random draws use the
//!   world generator, lent to the host for the stage. This is the hot path, so it has no Lua
//!   wrapper and borrows nothing.
//! - Reads of the world and timer operations (`alive`, `health`, `state`, `get`, `after`,
//!   `cancel`) need the stage's [`Gameplay`]; they live in the context table only while a stage
//!   runs (created in a `Lua::scope`, so they borrow it safely) and the `ludus` table forwards
//!   to them.
//!
//! A malformed command (wrong type, unknown name, non-finite number) raises a Lua error *and*
//! is recorded, so the stage faults with the script's file and line even if the script
//! catches the error.

use crate::budget::Cause;
use crate::host::Shared;
use ludus_core::{
    Color, Command, EffectId, Fault, FaultKind, Gameplay, Overrides, SoundId, TimerId, TimerSpec,
    Vec2,
};
use mlua::{Lua, Scope, Table, Value};
use std::cell::RefCell;
use std::rc::Rc;

/// Stage functions in the context table (see the module documentation).
const STAGE_FUNCTIONS: &[&str] = &[
    "get",
    "state",
    "alive",
    "health",
    "after",
    "cancel",
    "timer_live",
];

/// Removes the stage functions (they are invalid once the scope ends anyway).
pub(crate) fn clear_stage(ctx: &Table) -> mlua::Result<()> {
    for name in STAGE_FUNCTIONS {
        ctx.raw_set(*name, Value::Nil)?;
    }
    Ok(())
}

/// `file:line` of the innermost script frame calling into the API.
fn caller(lua: &Lua) -> Option<String> {
    for level in 1..64 {
        let frame = lua.inspect_stack(level, |d| {
            let src = d.source();
            (
                src.what,
                src.short_src.as_deref().map(str::to_string),
                d.current_line(),
            )
        })?;
        match frame {
            ("C", _, _) => continue,
            (_, Some(src), _) if src == "ludus" => continue,
            (_, Some(src), Some(line)) => return Some(format!("{src}:{line}")),
            _ => continue,
        }
    }
    None
}

/// Records a malformed command and returns the Lua error that interrupts the script. The
/// stage ends at the script's next instruction (even if it catches the error): the fault is
/// the malformed command's.
fn malformed(lua: &Lua, shared: &Shared, kind: FaultKind, message: String) -> mlua::Error {
    let location = caller(lua);
    let mut fault = Fault::new(kind, message.clone());
    if let Some(l) = &location {
        fault = fault.with_location(l.clone());
    }
    {
        let mut slot = shared.malformed.borrow_mut();
        if slot.is_none() {
            *slot = Some(fault);
        }
    }
    shared.budget.spend(lua, Cause::Host, || location.clone());
    match location {
        Some(l) => mlua::Error::runtime(format!("{l}: {message}")),
        None => mlua::Error::runtime(message),
    }
}

/// Budget units for an API call with these arguments: one, plus one per 16 bytes of string.
fn call_cost(args: &[&Value]) -> u64 {
    1 + args
        .iter()
        .map(|v| match v {
            Value::String(s) => s.as_bytes().len() as u64 / 16,
            _ => 0,
        })
        .sum::<u64>()
}

/// Charges an API call to the budget (see [`call_cost`]).
fn charge(lua: &Lua, shared: &Shared, args: &[&Value]) -> mlua::Result<()> {
    shared.budget.charge(lua, call_cost(args), || caller(lua))
}

fn type_name(v: &Value) -> &'static str {
    v.type_name()
}

/// A number as a person reads it: plain when short, in exponent form when it would print
/// hundreds of digits.
pub(crate) fn show(n: f64) -> String {
    if n.is_finite() && n != 0.0 && !(1e-4..1e15).contains(&n.abs()) {
        format!("{n:e}")
    } else {
        format!("{n}")
    }
}

/// The longest name a script can pass (archetypes, effects, sounds, variables, keys...).
const NAME_MAX: usize = 64;
/// The longest text a script can pass (a game-over message).
const TEXT_MAX: usize = 4096;

fn int(v: &Value, what: &str) -> Result<i64, String> {
    match v {
        Value::Integer(i) => Ok(*i),
        // Every float with a whole value in i64's range (2^63 itself is just outside).
        Value::Number(n)
            if n.fract() == 0.0
                && *n >= -9.223_372_036_854_776e18
                && *n < 9.223_372_036_854_776e18 =>
        {
            Ok(*n as i64)
        }
        Value::Number(n) if n.is_finite() && n.fract() == 0.0 => Err(format!(
            "{what} is too large for a whole number, got {}",
            show(*n)
        )),
        Value::Number(n) => Err(format!("{what} must be a whole number, got {}", show(*n))),
        other => Err(format!("{what} must be a number, got {}", type_name(other))),
    }
}

fn num(v: &Value, what: &str) -> Result<f64, String> {
    match v {
        Value::Integer(i) => Ok(*i as f64),
        Value::Number(n) if n.is_finite() => Ok(*n),
        Value::Number(n) => Err(format!("{what} must be a finite number, got {n}")),
        other => Err(format!("{what} must be a number, got {}", type_name(other))),
    }
}

/// A number stored as `f32` in the world: finite there too.
fn num32(v: &Value, what: &str) -> Result<f32, String> {
    let n = num(v, what)?;
    if n.abs() > f64::from(f32::MAX) {
        return Err(format!(
            "{what} must be within ±3.4e38 (a 32-bit number), got {}",
            show(n)
        ));
    }
    Ok(n as f32)
}

fn opt_num(v: &Value, what: &str) -> Result<Option<f64>, String> {
    match v {
        Value::Nil => Ok(None),
        v => num(v, what).map(Some),
    }
}

/// Two numeric arguments as a vector (`x`, `y` name them in errors).
fn vec2(x: &Value, y: &Value, names: (&str, &str)) -> Result<Vec2, String> {
    Ok(Vec2::new(num32(x, names.0)?, num32(y, names.1)?))
}

fn entity(v: &Value, what: &str) -> Result<u64, String> {
    let i = int(v, what)?;
    u64::try_from(i)
        .ok()
        .filter(|i| *i >= 1)
        .ok_or_else(|| format!("{what} must be an entity id (>= 1), got {i}"))
}

/// A string argument of at most `max` bytes, read without copying a longer one.
fn text_max(v: &Value, what: &str, max: usize) -> Result<String, String> {
    match v {
        Value::String(s) => {
            let bytes = s.as_bytes();
            if bytes.len() > max {
                return Err(format!(
                    "{what} is too long ({} bytes; at most {max})",
                    bytes.len()
                ));
            }
            std::str::from_utf8(&bytes)
                .map(str::to_string)
                .map_err(|_| format!("{what} must be UTF-8 text"))
        }
        other => Err(format!("{what} must be a string, got {}", type_name(other))),
    }
}

/// A name (archetype, effect, variable, key...): at most [`NAME_MAX`] bytes.
fn text(v: &Value, what: &str) -> Result<String, String> {
    text_max(v, what, NAME_MAX)
}

fn amount(v: &Value, what: &str) -> Result<i32, String> {
    let i = int(v, what)?;
    if i < 0 {
        return Err(format!("{what} must not be negative, got {i}"));
    }
    i32::try_from(i).map_err(|_| format!("{what} is too large: {i}"))
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != *cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

/// "unknown X `name`" plus the closest known name.
fn unknown<'a>(what: &str, name: &str, known: impl Iterator<Item = &'a str>) -> String {
    let best = known
        .map(|k| (edit_distance(name, k), k))
        .filter(|(d, k)| *d <= 2.max(k.len() / 3))
        .min();
    match best {
        Some((_, k)) => format!("unknown {what} `{name}` (did you mean `{k}`?)"),
        None => format!("unknown {what} `{name}`"),
    }
}

fn spawn_overrides(opts: &Value) -> Result<Overrides, String> {
    let mut o = Overrides::default();
    let t = match opts {
        Value::Nil => return Ok(o),
        Value::Table(t) => t,
        other => {
            return Err(format!(
                "spawn options must be a table, got {}",
                type_name(other)
            ));
        }
    };
    let (mut vx, mut vy) = (None, None);
    for pair in t.clone().pairs::<Value, Value>() {
        let (k, v) = pair.map_err(|e| e.to_string())?;
        let key = match &k {
            Value::String(_) => text(&k, "a spawn option name")?,
            other => {
                return Err(format!(
                    "spawn option keys are names, got {}",
                    type_name(other)
                ));
            }
        };
        match key.as_str() {
            "vx" => vx = Some(num32(&v, "vx")?),
            "vy" => vy = Some(num32(&v, "vy")?),
            "speed" => o.speed = Some(num32(&v, "speed")?),
            "health" => {
                let h = amount(&v, "health")?;
                if h == 0 {
                    return Err("health must be at least 1".into());
                }
                o.health = Some(h);
            }
            "lifetime" => {
                let l = int(&v, "lifetime")?;
                o.lifetime =
                    Some(u32::try_from(l).ok().filter(|l| *l >= 1).ok_or_else(|| {
                        format!("lifetime must be a number of ticks >= 1, got {l}")
                    })?);
            }
            "color" => {
                let c = text(&v, "color")?;
                o.color = Some(Color::parse(&c).ok_or_else(|| {
                    format!("color `{c}` is not #rgb, #rrggbb, #rrggbbaa or a colour name")
                })?);
            }
            other => {
                return Err(unknown(
                    "spawn option",
                    other,
                    ["vx", "vy", "speed", "health", "lifetime", "color"].into_iter(),
                ));
            }
        }
    }
    if vx.is_some() || vy.is_some() {
        o.velocity = Some(Vec2::new(vx.unwrap_or(0.0), vy.unwrap_or(0.0)));
    }
    Ok(o)
}

/// Creates the permanent command functions and the log sink into `raw` (the prelude installs
/// them as `ludus.*`).
pub(crate) fn install_permanent(lua: &Lua, raw: &Table, shared: &Rc<Shared>) -> mlua::Result<()> {
    let s = shared.clone();
    let log = lua.create_function(move |lua, line: Value| {
        charge(lua, &s, &[&line])?;
        if let Value::String(line) = &line {
            s.log.borrow_mut().push(&line.as_bytes());
        }
        Ok(())
    })?;
    raw.raw_set("log", log)?;

    macro_rules! command {
        ($name:literal, |$lua:ident, $s:ident, $args:ident: $ty:ty| $body:block) => {{
            let $s = shared.clone();
            let f = lua.create_function(move |$lua, $args: $ty| {
                charge($lua, &$s, &[])?;
                if !$s.active.get() {
                    return Err(mlua::Error::runtime(concat!(
                        "ludus.",
                        $name,
                        " can only be used inside event handlers"
                    )));
                }
                #[allow(clippy::redundant_closure_call)]
                let result: Result<Value, String> = (|| $body)();
                result.map_err(|m| {
                    malformed(
                        $lua,
                        &$s,
                        FaultKind::Script,
                        format!("ludus.{}: {m}", $name),
                    )
                })
            })?;
            raw.raw_set($name, f)?;
        }};
    }

    command!("damage", |lua, s, args: (Value, Value, Value)| {
        let target = entity(&args.0, "target")?;
        let amount = amount(&args.1, "amount")?;
        let source = match &args.2 {
            Value::Nil => None,
            v => Some(entity(v, "source")?),
        };
        s.push(Command::Damage {
            target,
            amount,
            source,
        })
    });
    command!("heal", |lua, s, args: (Value, Value)| {
        let target = entity(&args.0, "target")?;
        let amount = amount(&args.1, "amount")?;
        s.push(Command::Heal { target, amount })
    });
    command!("add_score", |lua, s, args: Value| {
        let delta = int(&args, "score")?;
        s.push(Command::Score(delta))
    });
    command!("set", |lua, s, args: (Value, Value)| {
        let name = text(&args.0, "variable name")?;
        if name.is_empty() || name.len() > 64 {
            return Err("a variable name must have 1 to 64 characters".into());
        }
        let value = num(&args.1, "value")?;
        s.push(Command::SetVar(name, value))
    });
    command!("set_state", |lua, s, args: (Value, Value, Value)| {
        let target = entity(&args.0, "entity")?;
        let key = text(&args.1, "key")?;
        if key.is_empty() || key.len() > 64 {
            return Err("a state key must have 1 to 64 characters".into());
        }
        let value = num(&args.2, "value")?;
        s.push(Command::SetState { target, key, value })
    });
    command!("spawn", |lua, s, args: (Value, Value, Value, Value)| {
        let kind = text(&args.0, "archetype")?;
        let Some(archetype) = s.def.archetype_id(&kind) else {
            let names = s.def.archetypes.iter().map(|a| a.name.as_str());
            return Err(unknown("archetype", &kind, names));
        };
        let pos = vec2(&args.1, &args.2, ("x", "y"))?;
        let overrides = spawn_overrides(&args.3)?;
        s.push(Command::Spawn {
            archetype,
            pos,
            overrides,
        })
    });
    command!("destroy", |lua, s, args: Value| {
        let target = entity(&args, "entity")?;
        s.destroyed.borrow_mut().insert(target);
        s.push(Command::Destroy(target))
    });
    command!("teleport", |lua, s, args: (Value, Value, Value)| {
        let target = entity(&args.0, "entity")?;
        let pos = vec2(&args.1, &args.2, ("x", "y"))?;
        s.push(Command::Teleport { target, pos })
    });
    command!("velocity", |lua, s, args: (Value, Value, Value)| {
        let target = entity(&args.0, "entity")?;
        let velocity = vec2(&args.1, &args.2, ("vx", "vy"))?;
        s.push(Command::SetVelocity { target, velocity })
    });
    command!("effect", |lua, s, args: (Value, Value, Value, Value)| {
        let name = text(&args.0, "effect")?;
        let Some(effect) = s.def.effect_id(&name) else {
            let names = s.def.effects.iter().map(|e| e.name.as_str());
            return Err(unknown("effect", &name, names));
        };
        let pos = vec2(&args.1, &args.2, ("x", "y"))?;
        let color = match &args.3 {
            Value::Nil => None,
            v => {
                let c = text(v, "color")?;
                Some(Color::parse(&c).ok_or_else(|| format!("color `{c}` does not parse"))?)
            }
        };
        let effect: EffectId = effect;
        s.push(Command::Effect { effect, pos, color })
    });
    command!("sound", |lua, s, args: (Value, Value, Value)| {
        let name = text(&args.0, "sound")?;
        let Some(sound) = s.def.sound_id(&name) else {
            let names = s.def.sounds.iter().map(|s| s.name.as_str());
            return Err(unknown("sound", &name, names));
        };
        let volume = opt_num(&args.1, "volume")?.unwrap_or(1.0) as f32;
        let pitch = opt_num(&args.2, "pitch")?.unwrap_or(1.0) as f32;
        if !(0.0..=4.0).contains(&volume) || !(0.05..=20.0).contains(&pitch) {
            return Err(format!(
                "volume must be in 0..4 and pitch in 0.05..20, got {volume} and {pitch}"
            ));
        }
        let sound: SoundId = sound;
        s.push(Command::Sound {
            sound,
            volume,
            pitch,
        })
    });
    command!("game_over", |lua, s, args: Value| {
        let message = match &args {
            Value::Nil => "Game over".to_string(),
            v => text_max(v, "message", TEXT_MAX)?,
        };
        s.push(Command::GameOver(message))
    });
    command!("tick", |lua, s, _args: ()| {
        Ok(Value::Integer(s.tick.get() as i64))
    });
    command!("score", |lua, s, _args: ()| {
        Ok(Value::Integer(s.score.get()))
    });
    command!("random", |lua, s, args: (Value, Value)| {
        let mut rng = s.rng.borrow_mut();
        match (&args.0, &args.1) {
            (Value::Nil, Value::Nil) => Ok(Value::Number(rng.f64())),
            (m, Value::Nil) => {
                let m = int(m, "upper bound")?;
                if m < 1 {
                    return Err(format!("random(m) needs m >= 1, got {m}"));
                }
                Ok(Value::Integer(rng.i64(1..=m)))
            }
            (m, n) => {
                let m = int(m, "lower bound")?;
                let n = int(n, "upper bound")?;
                if m > n {
                    return Err(format!("random(m, n) needs m <= n, got {m} > {n}"));
                }
                Ok(Value::Integer(rng.i64(m..=n)))
            }
        }
    });
    Ok(())
}

type Cell<'g, 'a> = RefCell<&'g mut Gameplay<'a>>;

/// Installs the stage functions (world reads, timers) for the duration of `scope`.
pub(crate) fn install_stage<'scope, 'env: 'scope, 'g: 'env, 'a: 'g>(
    scope: &'scope Scope<'scope, 'env>,
    ctx: &Table,
    cell: &'env Cell<'g, 'a>,
    shared: &'env Rc<Shared>,
) -> mlua::Result<()> {
    macro_rules! stage_fn {
        ($name:literal, |$lua:ident, $g:ident, $args:ident: $ty:ty| $body:block) => {{
            let f = scope.create_function(move |$lua, $args: $ty| {
                charge($lua, shared, &[])?;
                #[allow(clippy::redundant_closure_call)]
                let result: Result<Value, (FaultKind, String)> = (|| {
                    let mut guard = cell.borrow_mut();
                    let $g: &mut Gameplay<'_> = &mut guard;
                    $body
                })();
                result.map_err(|(kind, m)| {
                    malformed($lua, shared, kind, format!("ludus.{}: {m}", $name))
                })
            })?;
            ctx.raw_set($name, f)?;
        }};
    }
    fn bad(m: String) -> (FaultKind, String) {
        (FaultKind::Script, m)
    }

    stage_fn!("after", |lua, g, args: (Value, Value, Value, bool)| {
        let (delay, name, opts, recurring) = args;
        let delay = int(&delay, if recurring { "period" } else { "delay" }).map_err(bad)?;
        let delay = u64::try_from(delay)
            .map_err(|_| bad(format!("a timer delay must not be negative, got {delay}")))?;
        if recurring && delay == 0 {
            return Err(bad("a timer period must be at least 1 tick".into()));
        }
        let name = text(&name, "timer name").map_err(bad)?;
        if name.is_empty() || name.len() > 64 {
            return Err(bad("a timer name must have 1 to 64 characters".into()));
        }
        let mut spec = TimerSpec {
            name: name.as_str().into(),
            delay,
            period: recurring.then_some(delay),
            target: None,
            data: 0.0,
        };
        match &opts {
            Value::Nil => {}
            Value::Table(t) => {
                for pair in t.clone().pairs::<Value, Value>() {
                    let (k, v) = pair.map_err(|e| bad(e.to_string()))?;
                    let k = text(&k, "a timer option name").map_err(bad)?;
                    match k.as_str() {
                        "target" => spec.target = Some(entity(&v, "target").map_err(bad)?),
                        "data" => spec.data = num(&v, "data").map_err(bad)?,
                        "delay" if recurring => {
                            let d = int(&v, "delay").map_err(bad)?;
                            spec.delay = u64::try_from(d)
                                .map_err(|_| bad(format!("delay must not be negative, got {d}")))?;
                        }
                        other => {
                            let known: &[&str] = if recurring {
                                &["target", "data", "delay"]
                            } else {
                                &["target", "data"]
                            };
                            return Err(bad(unknown("timer option", other, known.iter().copied())));
                        }
                    }
                }
            }
            other => {
                return Err(bad(format!(
                    "timer options must be a table, got {}",
                    type_name(other)
                )));
            }
        }
        let id = g.schedule_timer(spec).map_err(|e| (e.kind, e.message))?;
        Ok(Value::Integer(id.to_bits() as i64))
    });
    stage_fn!("cancel", |lua, g, args: Value| {
        let id = int(&args, "timer id").map_err(bad)?;
        Ok(Value::Boolean(
            g.cancel_timer(TimerId::from_bits(id as u64)),
        ))
    });
    stage_fn!("timer_live", |lua, g, args: Value| {
        let id = int(&args, "timer id").map_err(bad)?;
        Ok(Value::Boolean(g.timer_live(TimerId::from_bits(id as u64))))
    });
    stage_fn!("get", |lua, g, args: Value| {
        let name = text(&args, "variable name").map_err(bad)?;
        Ok(g.var(&name).map_or(Value::Nil, Value::Number))
    });
    stage_fn!("state", |lua, g, args: (Value, Value)| {
        let target = entity(&args.0, "entity").map_err(bad)?;
        let key = text(&args.1, "key").map_err(bad)?;
        Ok(g.state(target, &key).map_or(Value::Nil, Value::Number))
    });
    stage_fn!("alive", |lua, g, args: Value| {
        let target = entity(&args, "entity").map_err(bad)?;
        let destroyed = shared.destroyed.borrow().contains(&target);
        Ok(Value::Boolean(!destroyed && g.alive(target)))
    });
    // `health` returns two values; it is registered separately.
    let health = scope.create_function(move |lua, args: Value| {
        charge(lua, shared, &[])?;
        let target = entity(&args, "entity")
            .map_err(|m| malformed(lua, shared, FaultKind::Script, format!("ludus.health: {m}")))?;
        let g = cell.borrow();
        Ok(match g.health(target) {
            Some((cur, max)) => (
                Value::Integer(i64::from(cur)),
                Value::Integer(i64::from(max)),
            ),
            None => (Value::Nil, Value::Nil),
        })
    })?;
    ctx.raw_set("health", health)?;
    Ok(())
}

//! The `ludus` API, declared once: every function with its call, section and description,
//! and the Rust that converts its arguments. The `api!` list below generates [`API`] (which the
//! docs tables and misspelt-name errors come from) and [`install`] (which registers the Rust
//! functions; the prelude builds the `ludus` table from them). Functions written in Lua (in the
//! prelude) are listed with `lua`.
//!
//! Entry forms, each after its `///` description:
//! - `command NAME: "CALL", |lua, g, args: T| { ... }`: the body gives a `Command`, which is
//!   sent to the stage (core validates it).
//! - `fast command NAME: "CALL", |g, args: T| { ... }`: the same, for a hot command; calls
//!   whose arguments are plain values (nil, booleans, numbers, strings; at most four, one of
//!   them at most a table of up to eight named plain values) take the fast entry (`fast.rs`),
//!   past mlua. The body reads its arguments only through the helpers
//!   of `args.rs` (generic over [`Arg`]), so one body serves both entries.
//! - `call NAME: SECTION, "CALL", |lua, g, args: T| -> R { ... }`: the body gives `Result<R, Bad>`.
//! - `fast call NAME: SECTION, "CALL", |g, args: T| -> R { ... }`: the same, for a read whose
//!   values are plain (`R`: [`Returns`]); calls whose arguments are plain values take the fast
//!   entry. `fast grid NAME: ...`: the same, for a read of the spatial grid; `fast census
//!   NAME: ...`, for a read of the tick's census of tags (see `fast::Needs`). Any may end
//!   its arguments with `, at` (`|g, args: T, at|`): `at()` gives the calling script's
//!   `file:line` (as `spawn` does for a spawn that may fill the world).
//! - `lua NAME: SECTION, "CALL"` (and `, args: (T, ...)` when an argument names something):
//!   defined by the prelude.
//!
//! `CALL` is the call with each argument's type and what it returns (`name: type`, `[` before
//! optional ones, ` -> type, ...` after; the types of `api/types.rs`): the docs and editors'
//! stubs read the arguments and types from it.
//!
//! `T` types the arguments: a tuple of `Value`s (converted in the body), with a
//! [`Name`] for an argument that names something the game declares (an archetype, a tag...):
//! [`NAME_ARGS`](super::list::NAME_ARGS), which `ludus check` reads, comes from those.

use super::args::*;
use super::call::{Bad, caller, charge, malformed, outside, spawned};
use super::fast::{Fast, FastArgs, IdList, Needs, Returns, VarRead};
use super::names::{
    Action, Animation, Archetype, Cooldown, Effect, Level, Name, Signature, Sound, Tag,
};
use super::spec::{ApiFunction, Section};
use crate::shared::Shared;
use ludus_core::{ActionKind, Command, TimerId, Vec2};
use ludus_lua::Results;
use mlua::{Lua, Table, Value};
use std::rc::Rc;

/// A vector as two Lua values, or two nils.
fn split(v: Option<Vec2>) -> (Option<f32>, Option<f32>) {
    match v {
        Some(v) => (Some(v.x), Some(v.y)),
        None => (None, None),
    }
}

/// `__log`: the sink of the prelude's `ludus.log`, usable anywhere.
fn install_log(lua: &Lua, raw: &Table, shared: &Rc<Shared>) -> mlua::Result<()> {
    let s = shared.clone();
    let log = lua.create_function(move |lua, line: Value| {
        charge(lua, &s, &[&line])?;
        if let Value::String(line) = &line {
            let tick = s.stage.with(|g| g.tick());
            let location = caller(lua);
            s.log
                .borrow_mut()
                .push(tick, location.as_deref(), &line.as_bytes());
        }
        Ok(())
    })?;
    raw.raw_set("__log", log)
}

api! {
    /// lower health by a whole `amount >= 0` (blocked while the target is invulnerable, and once its health has reached 0); produces an `on_damage` event, and the blow that takes health to 0 also the entity's one `on_death`
    fast command damage: "damage(id: id, amount: integer [, source: id])", |g, args: (Value, Value, Value)| {
        Command::Damage {
            target: entity(&args.0, "target")?,
            amount: amount(&args.1, "amount")?,
            source: opt(&args.2, |v| entity(v, "source"))?,
        }
    }
    /// raise health, up to its maximum (not of an entity whose health reached 0: it is dead)
    fast command heal: "heal(id: id, amount: integer)", |g, args: (Value, Value)| {
        Command::Heal {
            target: entity(&args.0, "target")?,
            amount: amount(&args.1, "amount")?,
        }
    }
    /// add a whole number to the score (at the end of the stage: `ludus.score()` shows it from the next stage)
    fast command add_score: "add_score(n: integer)", |g, args: Value| {
        Command::Score(int(&args, "score")?)
    }
    /// set a game variable to a number or a text (shown by `{name}` in HUD lines)
    fast command set: "set(name: variable, value: number|string)", |g, args: (Value, Value)| {
        Command::SetVar(text(&args.0, "variable name")?, var_value(&args.1, "value")?)
    }
    /// save a number or a string under `key` (1 to 64 bytes) in the game's saved data, which outlives the run (nil deletes it); `[limits] save_bytes` bounds it
    command save: "save(key: string, value: number|string|nil)", |lua, g, args: (Value, Value)| {
        let key = save_key(&args.0)?;
        let value = match &args.1 {
            Value::Nil => None,
            v => Some(save_value(v, &key, g.def().limits.save_bytes)?),
        };
        Command::Save { key, value }
    }
    /// bind keys to action `name` in place of its keys, from the next frame: a button takes a key name or a list of them (`{"space", "pad_a"}`), an axis a table of key = scale (`{ a = -1, d = 1 }`); nil restores the keys game.toml declares. Carried across levels, not a restart: to keep a player's choice, `ludus.save` it and bind again in `on_start`
    command bind: "bind(name: action, keys: string|string[]|table|nil)", |lua, g, args: (Name<Action>, Value)| {
        let action = args.0.resolve(g.def())?;
        let kind = g.def().actions.get(action).map(|a| a.kind);
        Command::Bind { action, keys: bound_keys(&args.1, kind)? }
    }
    /// the keys action `name` has now (those bound by `ludus.bind`, or game.toml's): a list of key names for a button, a table of key = scale for an axis
    call bindings: Read, "bindings(name: action) -> string[]|table", |lua, g, args: Name<Action>| -> Table {
        let action = args.resolve(g.def())?;
        let axis = g.def().actions.get(action).map(|a| a.kind) == Some(ActionKind::Axis);
        let t = lua.create_table().map_err(|e| Bad::from(e.to_string()))?;
        for (i, (key, scale)) in g.bindings_of(action).into_iter().enumerate() {
            // A whole scale reads as an integer, as content writes it.
            let scale = if scale.fract() == 0.0 {
                Value::Integer(scale as i64)
            } else {
                Value::Number(f64::from(scale))
            };
            let set = if axis { t.raw_set(key, scale) } else { t.raw_set(i + 1, key) };
            set.map_err(|e| Bad::from(e.to_string()))?;
        }
        Ok(t)
    }
    /// set a number in an entity's own state
    fast command set_state: "set_state(id: id, key: string, value: number)", |g, args: (Value, Value, Value)| {
        Command::SetState {
            target: entity(&args.0, "entity")?,
            key: text(&args.1, "key")?,
            value: num(&args.2, "value")?,
        }
    }
    /// create an entity at the end of the tick and return its id at once; commands sent later may name it (they apply right after it is created), reads see it from the next tick. `opts`: `vx`, `vy`, `speed`, `health`, `color`, `lifetime`, `size` (a number or `{w, h}`: the sprite's size and the collider's, a circle's radius half the larger side), `scale` (drawn only, as `set_look`'s), `angle` (radians). It appears in the next tick's `on_spawn`
    fast call spawn: Command, "spawn(kind: archetype, x: number, y: number [, opts: spawn_opts]) -> id", |g, args: (Name<Archetype>, Value, Value, Value), at| -> i64 {
        let archetype = args.0.resolve(g.def())?;
        let command = Command::Spawn {
            archetype,
            pos: vec2(&args.1, &args.2, ("x", "y"))?,
            overrides: spawn_overrides(&args.3)?.into(),
        };
        spawned(g, command, at)
    }
    /// short-lived text in the world: an entity of archetype `text` at (x, y) whose label reads `text` (the built-in `text` is white, 16 units high and lasts 60 ticks; declare `[archetypes.text]` with a `label` to change that); returns its id. `opts` as for `spawn`, e.g. `vy` to float it up, `color`, `lifetime`
    call text: Command, "text(x: number, y: number, text: string [, opts: spawn_opts]) -> id", |lua, g, args: (Value, Value, Value, Value)| -> i64 {
        let def = g.def();
        let Some(archetype) = def.archetype_id("text") else {
            return Err("the game has no `text` archetype".to_string().into());
        };
        if def.archetype(archetype).is_some_and(|a| a.label.is_none()) {
            return Err("archetype `text` has no `label` to show the text with".to_string().into());
        }
        let mut overrides = spawn_overrides(&args.3)?;
        overrides.text = Some(text(&args.2, "text")?);
        let command = Command::Spawn {
            archetype,
            pos: vec2(&args.0, &args.1, ("x", "y"))?,
            overrides: overrides.into(),
        };
        spawned(g, command, &|| caller(lua))
    }
    /// destroy at the end of the tick; later commands naming it this tick are discarded
    fast command destroy: "destroy(id: id)", |g, args: Value| {
        Command::Destroy(entity(&args, "entity")?)
    }
    /// move at the end of the tick, without interpolating across the jump
    fast command teleport: "teleport(id: id, x: number, y: number)", |g, args: (Value, Value, Value)| {
        Command::Teleport {
            target: entity(&args.0, "entity")?,
            pos: vec2(&args.1, &args.2, ("x", "y"))?,
        }
    }
    /// replace the velocity (units per second)
    fast command velocity: "velocity(id: id, vx: number, vy: number)", |g, args: (Value, Value, Value)| {
        Command::SetVelocity {
            target: entity(&args.0, "entity")?,
            velocity: vec2(&args.1, &args.2, ("vx", "vy"))?,
        }
    }
    /// add `(ix, iy) / mass` to the velocity (static and kinematic bodies ignore it; an entity without a collider has mass 1)
    fast command impulse: "impulse(id: id, ix: number, iy: number)", |g, args: (Value, Value, Value)| {
        Command::Impulse {
            target: entity(&args.0, "entity")?,
            impulse: vec2(&args.1, &args.2, ("ix", "iy"))?,
        }
    }
    /// set the angle in radians (0 faces +x; positive turns toward +y, down the screen); drawn turning there from the tick's start the shorter way round, as movement is drawn (an entity spawned this tick is drawn at it at once)
    fast command set_angle: "set_angle(id: id, angle: number)", |g, args: (Value, Value)| {
        Command::SetAngle {
            target: entity(&args.0, "entity")?,
            angle: num32(&args.1, "angle")?,
        }
    }
    /// set the spin in radians per second
    fast command set_spin: "set_spin(id: id, spin: number)", |g, args: (Value, Value)| {
        Command::SetSpin {
            target: entity(&args.0, "entity")?,
            spin: num32(&args.1, "spin")?,
        }
    }
    /// a particle effect declared in `[effects.NAME]`
    fast command effect: "effect(name: effect, x: number, y: number [, color: color])", |g, args: (Name<Effect>, Value, Value, Value)| {
        let effect = args.0.resolve(g.def())?;
        let color = opt(&args.3, color)?;
        Command::Effect {
            effect,
            pos: vec2(&args.1, &args.2, ("x", "y"))?,
            color,
        }
    }
    /// a sound declared in `[sounds.NAME]`; `volume` in 0..4, `pitch` in 0.05..20
    fast command sound: "sound(name: sound [, volume: number [, pitch: number]])", |g, args: (Name<Sound>, Value, Value)| {
        let sound = args.0.resolve(g.def())?;
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
    }
    /// loop the track `name` (declared in `[music.NAME]`) from its start in place of the one playing, after this tick; `nil` stops the music
    fast command music: "music(name: music|nil)", |g, args: Value| {
        if args.is_nil() {
            Command::Music(None)
        } else {
            let name = text(&args, "track")?;
            let def = g.def();
            let Some(track) = def.music_id(&name) else {
                let names = def.music.iter().map(|s| s.name.as_str());
                return Err(unknown("track", &name, names).into());
            };
            Command::Music(Some(track))
        }
    }
    /// end the game; the app shows the message and offers a restart
    fast command game_over: "game_over([message: string])", |g, args: Value| {
        Command::GameOver(
            opt(&args, |v| text_max(v, "message", TEXT_MAX))?.unwrap_or_else(|| "Game over".into()),
        )
    }
    /// restart the entity's cooldown `name` (declared by its archetype in `cooldowns`)
    fast command use_cooldown: "use_cooldown(id: id, name: cooldown)", |g, args: (Value, Name<Cooldown>)| {
        let target = entity(&args.0, "entity")?;
        let name = args.1.text()?;
        match g.cooldown_slot(target, &name)? {
            Some(slot) => Command::UseCooldown { target, slot },
            // Gone: counted as a stale command, like any other.
            None => Command::UseCooldown { target, slot: 0 },
        }
    }
    /// play the animation `name` (declared by its archetype in `animations`) from this tick; the one already playing keeps its place
    fast command animate: "animate(id: id, name: animation)", |g, args: (Value, Name<Animation>)| {
        let target = entity(&args.0, "entity")?;
        let name = args.1.text()?;
        match g.animation_slot(target, &name)? {
            Some(slot) => Command::Animate { target, slot },
            // Gone: counted as a stale command, like any other.
            None => Command::Animate { target, slot: 0 },
        }
    }
    /// shake the view by up to `strength` world units, fading out over `ticks` ticks (a new shake replaces the last)
    fast command camera_shake: "camera_shake(strength: number, ticks: integer)", |g, args: (Value, Value)| {
        let ticks = int(&args.1, "ticks")?;
        Command::CameraShake {
            strength: num32(&args.0, "strength")?,
            ticks: u32::try_from(ticks)
                .map_err(|_| format!("ticks must be from 0 to {}, got {ticks}", u32::MAX))?,
        }
    }
    /// zoom the camera: 1 shows the level's view, 2 half as much twice as large (relative to the level's `zoom`)
    fast command camera_zoom: "camera_zoom(z: number)", |g, args: Value| {
        Command::CameraZoom(num32(&args, "zoom")?)
    }
    /// switch to the level `name` after this tick: the score, game variables and scripts' state are kept; `on_start` runs for it
    fast command load_level: "load_level(name: level)", |g, args: Name<Level>| {
        Command::LoadLevel(args.resolve(g.def())?)
    }
    /// start the game again after this tick, as the restart key does: the level the game began in, everything afresh
    fast command restart: "restart()", |g, _args: ()| { Command::Restart }
    /// pause the window after this tick; the game's pause action (`[flow] pause`) or a click resumes. Headless runs go on
    fast command pause: "pause()", |g, _args: ()| { Command::Pause }
    /// a one-shot timer; returns its id. `opts`: `target` (an entity id: no delivery if it is gone), `data` (a number). A delay of 0 fires next tick
    call after: Command, "after(ticks: integer, name: string [, opts: timer_opts]) -> timer_id", |lua, g, args: (Value, Value, Value)| -> Value {
        let spec = timer_spec(&args.0, &args.1, &args.2, false)?;
        Ok(Value::Integer(g.schedule_timer(spec)?.to_bits() as i64))
    }
    /// a repeating timer (first firing after `ticks`, or `opts.delay`); returns its id. `opts`: `target` (an entity id: the timer ends, with no delivery, once it is gone), `data`, `delay`
    call every: Command, "every(ticks: integer, name: string [, opts: timer_opts]) -> timer_id", |lua, g, args: (Value, Value, Value)| -> Value {
        let spec = timer_spec(&args.0, &args.1, &args.2, true)?;
        Ok(Value::Integer(g.schedule_timer(spec)?.to_bits() as i64))
    }
    /// cancel; returns whether it was pending. A timer due this tick that an earlier handler cancels is not delivered
    fast call cancel: Command, "cancel(timer_id: timer_id) -> boolean", |g, args: Value| -> bool {
        let id = int(&args, "timer id")?;
        Ok(g.cancel_timer(TimerId::from_bits(id as u64))?)
    }
    /// make the tile-map cell at (`x`, `y`) the legend's tile `ch` (`" "`: no tile) at the end of the tick; its collision changes with it (solid rectangles are merged again around it), so the next tick's motion meets it, and `tile` reads it from the next tick. A point outside the map, or a character that is no tile of the legend, is a fault
    fast command set_tile: "set_tile(x: number, y: number, ch: string)", |g, args: (Value, Value, Value)| {
        Command::SetTile {
            pos: vec2(&args.0, &args.1, ("x", "y"))?,
            tile: tile_char(&args.2)?,
        }
    }
    /// Internal: whether a timer is still pending (the prelude filters cancelled timers).
    call __timer_live: Internal, "", |lua, g, args: Value| -> bool {
        let id = int(&args, "timer id")?;
        Ok(g.timer_live(TimerId::from_bits(id as u64)))
    }
    /// change how the entity is drawn, from now until changed again: any of `scale` (a number or `{x, y}`, above 0: the sprite's size and its label's, drawn only: the collider keeps its size), `color` (replaces the sprite's and label's), `alpha` (0 to 1, replaces the sprite's `alpha`), `visible` (false: neither drawn), `flip_x`, `flip_y` (mirror the image), `layer` (a sprite layer); the rest is kept. Once used on an entity its look is part of the state hash
    command set_look: "set_look(id: id, look: look)", |lua, g, args: (Value, Value)| {
        Command::SetLook {
            target: entity(&args.0, "entity")?,
            look: super::looks::look(&args.1)?,
        }
    }
    /// set the speed (world units per second, not negative) its behaviour or control moves it at, from the next tick
    fast command set_speed: "set_speed(id: id, speed: number)", |g, args: (Value, Value)| {
        Command::SetSpeed { target: entity(&args.0, "entity")?, speed: num32(&args.1, "speed")? }
    }
    /// give it a behaviour in place of its own, from the next tick: `kind` and `opts` (`target`: a tag or a list of tags, `cadence`, `navigate`, `range`, `idle`) as an archetype's `behaviour` table takes them, with the same rules; `nil` removes its behaviour (its velocity stays as it is)
    command set_behaviour: "set_behaviour(id: id, kind: behaviour|nil [, opts: behaviour_opts])", |lua, g, args: (Value, Value, Value)| {
        let behaviour = super::behave::behaviour(g.def(), &args.1, &args.2)?;
        Command::SetBehaviour { target: entity(&args.0, "entity")?, behaviour }
    }
    /// attach `child` to `parent` at the end of this tick (either may be spawned this tick): it is put at the parent's position plus (`dx`, `dy`) then and after the parent moves each tick, and destroyed with it. `opts`: `angle = true` turns the offset with the parent's angle and sets the child's angle to it. Attaching a parent to its own child (through any chain) is an error
    command attach: "attach(child: id, parent: id, dx: number, dy: number [, opts: attach_opts])", |lua, g, args: (Value, Value, Value, Value, Value)| {
        Command::Attach {
            child: entity(&args.0, "child")?,
            parent: entity(&args.1, "parent")?,
            offset: vec2(&args.2, &args.3, ("dx", "dy"))?,
            angle: super::behave::attach_angle(&args.4)?,
        }
    }
    /// end the child's attachment at the end of this tick: it stays where it is, keeps its parent's velocity, and no longer dies with it
    fast command detach: "detach(child: id)", |g, args: Value| { Command::Detach(entity(&args, "child")?) }
    /// the tick being run (the first tick of a level is 1)
    fast call tick: Read, "tick() -> integer", |g, _args: ()| -> i64 { Ok(g.tick() as i64) }
    /// the score at the start of this stage: an `add_score` earlier in the same stage is not in it yet (keep a running total in a local)
    fast call score: Read, "score() -> integer", |g, _args: ()| -> i64 { Ok(g.score()) }
    /// a game variable (a number or a text) at the start of this stage, or nil; a whole number comes back as an integer
    fast call get: Read, "get(name: variable) -> number|string|nil", |g, args: Value| -> VarRead {
        Ok(VarRead(with_text(&args, "variable name", NAME_MAX, |name| g.var(name).cloned())?))
    }
    /// a value of the game's saved data (a number or a string) at the start of this stage, or nil
    call saved: Read, "saved(key: string) -> number|string|nil", |lua, g, args: Value| -> VarRead {
        Ok(VarRead(g.saved(&save_key(&args)?).cloned()))
    }
    /// `x, y` of an entity, or nil (also for one spawned this tick: it exists from the next)
    fast call pos: Read, "pos(id: id) -> number?, number?", |g, args: Value| -> (Option<f32>, Option<f32>) {
        Ok(split(g.pos(entity(&args, "entity")?)))
    }
    /// `vx, vy` of an entity in units per second, or nil
    fast call vel: Read, "vel(id: id) -> number?, number?", |g, args: Value| -> (Option<f32>, Option<f32>) {
        Ok(split(g.vel(entity(&args, "entity")?)))
    }
    /// the entity's angle in radians (0 for one that never turned), or nil
    fast call angle: Read, "angle(id: id) -> number?", |g, args: Value| -> Option<f32> {
        Ok(g.angle(entity(&args, "entity")?))
    }
    /// the entity's archetype name, or nil
    call kind: Read, "kind(id: id) -> archetype?", |lua, g, args: Value| -> Option<String> {
        Ok(g.kind(entity(&args, "entity")?).map(|a| a.name.clone()))
    }
    /// the entity's tag set (test it with `ludus.has`), or nil
    fast call tags: Read, "tags(id: id) -> tags?", |g, args: Value| -> Option<i64> {
        Ok(g.tags(entity(&args, "entity")?).map(|t| t as i64))
    }
    /// an array of the ids carrying `tag`, in creation order (entities being destroyed this tick are left out, as in the other collections)
    fast census find: Read, "find(tag: tag) -> id[]", |g, args: Name<Tag>| -> IdList {
        let bits = args.resolve(g.def())?;
        Ok(IdList(g.find(bits)))
    }
    /// how many entities carry `tag`
    fast census count: Read, "count(tag: tag) -> integer", |g, args: Name<Tag>| -> i64 {
        let bits = args.resolve(g.def())?;
        Ok(g.count(bits) as i64)
    }
    /// the id of the entity carrying `tag` nearest (`x`, `y`), within `radius` if given, or nil; ties go to the lower id. Uses the spatial grid; its work is charged to the budget
    fast grid nearest: Read, "nearest(x: number, y: number, tag: tag [, radius: number]) -> id?", |g, args: (Value, Value, Name<Tag>, Value)| -> Option<i64> {
        let at = vec2(&args.0, &args.1, ("x", "y"))?;
        let bits = args.2.resolve(g.def())?;
        let r = opt(&args.3, radius)?;
        Ok(g.nearest(at, r, bits).map(|i| i as i64))
    }
    /// an array of the ids within `radius` of (`x`, `y`) (carrying `tag`, if given), nearest first, ties by id. Uses the spatial grid; its work is charged to the budget
    call within: Read, "within(x: number, y: number, radius: number [, tag: tag]) -> id[]", |lua, g, args: (Value, Value, Value, Name<Tag>)| -> IdList {
        let at = vec2(&args.0, &args.1, ("x", "y"))?;
        let r = radius(&args.2)?;
        let bits = if args.3.is_nil() {
            0
        } else {
            args.3.resolve(g.def())?
        };
        Ok(IdList(g.within(at, r, bits)))
    }
    /// ticks until the entity's cooldown `name` is ready (0: ready), or nil
    fast call cooldown: Read, "cooldown(id: id, name: cooldown) -> integer?", |g, args: (Value, Name<Cooldown>)| -> Option<i64> {
        let target = entity(&args.0, "entity")?;
        let name = args.1.text()?;
        Ok(g.cooldown(target, &name)?.map(|t| t.min(i64::MAX as u64) as i64))
    }
    /// the value of action `name` this tick: an axis in -1..1, a button 1 while held, else 0
    fast call axis: Read, "axis(name: action) -> number", |g, args: Name<Action>| -> f64 {
        let a = args.resolve(g.def())?;
        let input = g.input();
        Ok(match g.def().actions.get(a).map(|d| d.kind) {
            Some(ActionKind::Axis) => f64::from(input.axis(a)),
            _ => f64::from(u8::from(input.held(a))),
        })
    }
    /// whether button `name` is held this tick (an axis: away from 0)
    fast call held: Read, "held(name: action) -> boolean", |g, args: Name<Action>| -> bool {
        let a = args.resolve(g.def())?;
        Ok(g.input().held(a) || g.input().axis(a) != 0.0)
    }
    /// whether button `name` went down since the last tick
    fast call pressed: Read, "pressed(name: action) -> boolean", |g, args: Name<Action>| -> bool {
        let a = args.resolve(g.def())?;
        Ok(g.input().pressed(a))
    }
    /// whether button `name` went up since the last tick
    fast call released: Read, "released(name: action) -> boolean", |g, args: Name<Action>| -> bool {
        let a = args.resolve(g.def())?;
        Ok(g.input().released(a))
    }
    /// `x, y` of the pointer in world units, or nil when it is not over the game
    fast call pointer: Read, "pointer() -> number?, number?", |g, _args: ()| -> (Option<f32>, Option<f32>) {
        Ok(split(g.input().pointer.map(|[x, y]| Vec2::new(x, y))))
    }
    /// an array of the fingers down on the game's view this tick, each `{ id = n, x = x, y = y }` in world units, in the order they went down (the first is also the pointer); empty without a touch screen
    call touches: Read, "touches()", |lua, g, _args: ()| -> Table {
        let list = lua.create_table().map_err(|e| Bad::from(e.to_string()))?;
        for (i, t) in g.input().touches.iter().enumerate() {
            let touch = lua.create_table().map_err(|e| Bad::from(e.to_string()))?;
            for (key, value) in [("x", f64::from(t.x)), ("y", f64::from(t.y))] {
                touch.raw_set(key, value).map_err(|e| Bad::from(e.to_string()))?;
            }
            touch.raw_set("id", i64::from(t.id)).map_err(|e| Bad::from(e.to_string()))?;
            list.raw_set(i + 1, touch).map_err(|e| Bad::from(e.to_string()))?;
        }
        Ok(list)
    }
    /// a value of an entity's state, or nil
    fast call state: Read, "state(id: id, key: string) -> number?", |g, args: (Value, Value)| -> Option<f64> {
        let target = entity(&args.0, "entity")?;
        Ok(g.state(target, &text(&args.1, "key")?))
    }
    /// whether the entity exists and is not being destroyed this tick (a `destroy` sent earlier in this stage counts); false for an id `ludus.spawn` returned this tick, which exists from the end of the tick (commands may still name it)
    fast call alive: Read, "alive(id: id) -> boolean", |g, args: Value| -> bool {
        Ok(g.alive(entity(&args, "entity")?))
    }
    /// `current, max`, or nil
    fast call health: Read, "health(id: id) -> integer?, integer?", |g, args: Value| -> (Option<i64>, Option<i64>) {
        let target = entity(&args, "entity")?;
        Ok(match g.health(target) {
            Some((cur, max)) => (Some(i64::from(cur)), Some(i64::from(max))),
            None => (None, None),
        })
    }
    /// like `math.random` (which is the same function): a float in [0, 1), a whole number in [1, m] or [m, n], or with m = 0 an integer of all random bits, from the world's seeded generator
    fast call random: Read, "random([m: integer [, n: integer]]) -> number", |g, args: (Value, Value)| -> Value {
        let rng = g.rng();
        match (&args.0, &args.1) {
            (m, n) if m.is_nil() && n.is_nil() => Ok(Value::Number(rng.f64())),
            (m, n) if n.is_nil() => {
                let m = int(m, "upper bound")?;
                if m == 0 {
                    return Ok(Value::Integer(rng.i64(..)));
                }
                if m < 1 {
                    return Err(format!("random(m) needs m >= 1 (or 0: any integer), got {m}").into());
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
    }
    /// the legend character of the tile-map cell at (`x`, `y`) as the stage began, or nil (outside the map, no tile, or a CSV map's frame number); a spawn entry's cell reads as its `tile`
    call tile: Read, "tile(x: number, y: number) -> string?", |lua, g, args: (Value, Value)| -> Option<String> {
        Ok(g.tile(vec2(&args.0, &args.1, ("x", "y"))?).map(String::from))
    }

    /// `fx, fy`: the entity's facing, a unit vector: its control's (the last direction it was steered in, `1, 0` at first), or else its velocity's direction (`0, 0` while still), or nil
    fast call facing: Read, "facing(id: id) -> number?, number?", |g, args: Value| -> (Option<f32>, Option<f32>) {
        Ok(split(g.facing(entity(&args, "entity")?)))
    }

    /// whether a tag set (an event's `tags`, `a_tags`...) contains a tag
    lua has: Helper, "has(tags: tags, name: tag) -> boolean", args: (Value, Name<Tag>)
    /// a constant from `[constants]` in game.toml (read-only)
    lua const: Helper, "const.NAME"
    /// a line in the app's log, its values separated by tabs (`print` is the same function)
    lua log: Helper, "log(...: any)"
}

/// `bind`'s keys: nil (the declared ones), a key name or a list of them for a button, a table
/// of key = scale for an axis; read only up to one past the most an action takes.
fn bound_keys(v: &Value, kind: Option<ActionKind>) -> Result<Option<Vec<(String, f32)>>, String> {
    let most = ludus_core::MAX_BOUND_KEYS;
    let t = match v {
        Value::Nil => return Ok(None),
        Value::String(_) if kind == Some(ActionKind::Button) => {
            return Ok(Some(vec![(text(v, "a key")?, 1.0)]));
        }
        Value::Table(t) => t,
        _ if kind == Some(ActionKind::Axis) => {
            return Err("an axis's keys are a table of key = scale, e.g. { a = -1, d = 1 }".into());
        }
        _ => return Err("a button's keys are a key name or a list of them".into()),
    };
    let mut out = Vec::new();
    for pair in t.clone().pairs::<Value, Value>() {
        let (k, v) = pair.map_err(|e| e.to_string())?;
        if out.len() > most {
            return Err(format!("an action takes at most {most} keys"));
        }
        match (kind, &k) {
            (Some(ActionKind::Axis), Value::String(_)) => {
                out.push((text(&k, "a key")?, num(&v, "a key's scale")? as f32));
            }
            (Some(ActionKind::Button), Value::Integer(_)) => out.push((text(&v, "a key")?, 1.0)),
            (Some(ActionKind::Axis), _) => {
                return Err(
                    "an axis's keys are a table of key = scale, e.g. { a = -1, d = 1 }".into(),
                );
            }
            _ => {
                return Err(
                    "a button's keys are a list of key names, e.g. { \"space\", \"w\" }".into(),
                );
            }
        }
    }
    if kind == Some(ActionKind::Axis) {
        // A table's order is not the script's: the negative end first, as content lists them.
        out.sort_by(|a, b| a.1.total_cmp(&b.1).then_with(|| a.0.cmp(&b.0)));
    }
    Ok(Some(out))
}

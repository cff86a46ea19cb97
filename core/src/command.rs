//! Commands: what gameplay consequences ask the simulation to do.
//!
//! Consequences never touch the world. They read the stage's events and a few read-only values
//! through [`Gameplay`](crate::Gameplay), and send [`Command`]s, which Rust validates and applies after the stage
//! in the order they were sent. Structural commands (spawn, destroy, teleport) are recorded for
//! Commit. Timers are scheduled and cancelled at once, so a cancellation suppresses a timer that
//! is due later in the same stage.

use crate::def::{
    ArchetypeId, BehaviourDef, EffectId, GameDef, Look, MusicId, SoundId, SpawnOverrides,
};
use crate::fault::{Fault, FaultKind};
use crate::math::{Color, Vec2};
use crate::saved::{check_key, check_value};
use crate::var::Var;
use std::fmt;

/// A request from gameplay consequences. Entities are named by creation sequence.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Lower health by `amount` (>= 0); Rust produces a damage event for the next stage.
    Damage {
        target: u64,
        amount: i32,
        source: Option<u64>,
    },
    /// Raise health by `amount` (>= 0), up to the maximum.
    Heal { target: u64, amount: i32 },
    /// Add to the score.
    Score(i64),
    /// Set a named game variable (shown in the HUD, readable by scripts, hashed).
    SetVar(String, Var),
    /// Set a value in an entity's script state.
    SetState {
        target: u64,
        key: String,
        value: f64,
    },
    /// Forget an entity's whole script state.
    ClearState(u64),
    /// Create an entity at Commit; it is visible to events from the next tick.
    Spawn {
        archetype: ArchetypeId,
        pos: Vec2,
        /// Held boxed, and only where given (the largest payload of any command, 104 bytes,
        /// would make every command as large: 120 bytes rather than 48, queued by the
        /// thousand a tick; a plain spawn allocates nothing).
        overrides: SpawnOverrides,
    },
    /// Destroy an entity at Commit. Later commands naming it this tick are discarded.
    Destroy(u64),
    /// Move an entity at Commit without interpolating across the jump.
    Teleport { target: u64, pos: Vec2 },
    /// Replace an entity's velocity.
    SetVelocity { target: u64, velocity: Vec2 },
    /// Stage a visual effect at a position.
    Effect {
        effect: EffectId,
        pos: Vec2,
        color: Option<Color>,
    },
    /// Stage a sound.
    Sound {
        sound: SoundId,
        volume: f32,
        pitch: f32,
    },
    /// End the game with a message: no gameplay tick runs after this one.
    GameOver(String),
    /// Restart the entity's cooldown `slot` (an index into its archetype's cooldowns).
    UseCooldown { target: u64, slot: u8 },
    /// Add `impulse / mass` to the velocity (nothing for static and kinematic bodies).
    Impulse { target: u64, impulse: Vec2 },
    /// Set the angle (radians), without interpolating across the jump.
    SetAngle { target: u64, angle: f32 },
    /// Set the spin (radians per second).
    SetSpin { target: u64, spin: f32 },
    /// Play animation `slot` of the entity's archetype from this tick (no change when it
    /// already plays).
    Animate { target: u64, slot: u8 },
    /// Shake the view by up to `strength` world units, fading over `ticks` ticks.
    CameraShake { strength: f32, ticks: u32 },
    /// Set the camera's zoom (1: the level's view).
    CameraZoom(f32),
    /// Loop a music track in place of the one playing (`None`: stop the music).
    Music(Option<MusicId>),
    /// Switch to level `n` (an index into the game's levels) after this tick; the score, the
    /// game variables and the scripts' state are kept.
    LoadLevel(usize),
    /// Start the game again after this tick, as the restart key does (a script's `restart`).
    Restart,
    /// Pause the window after this tick (a script's `pause`; headless runs go on).
    Pause,
    /// Save `value` under `key` in the game's saved data (`None`: delete it).
    Save { key: String, value: Option<Var> },
    /// Bind `keys` (key name, scale) to `action` in place of its keys (`None`: back to the
    /// keys the game declares), from the next frame.
    Bind {
        action: crate::frame::input::ActionId,
        keys: Option<Vec<(String, f32)>>,
    },
    /// Change the parts of the entity's look that `look` sets ([`Look::merge`]), from now on.
    SetLook { target: u64, look: Look },
    /// Set the speed (world units per second, >= 0) brains and control move the entity at,
    /// from the next tick.
    SetSpeed { target: u64, speed: f32 },
    /// Replace the entity's behaviour (`None`: none; its velocity stays as it is), deciding
    /// afresh from the next tick.
    SetBehaviour {
        target: u64,
        behaviour: Option<BehaviourDef>,
    },
    /// Attach `child` to `parent` at `offset` (see [`Attached`]), at Commit after the spawns
    /// (either may be spawned this tick). One that would make a cycle is refused.
    ///
    /// [`Attached`]: crate::world::components::Attached
    Attach {
        child: u64,
        parent: u64,
        offset: Vec2,
        angle: bool,
    },
    /// End `child`'s attachment at Commit, after the spawns: it stays where it is.
    Detach(u64),
    /// Make the tile-map cell at `pos` the legend's tile `tile` (`' '`: no tile) at Commit;
    /// its collision changes with it. Sending one checks the level has a tile map covering
    /// `pos` and that `tile` is one of its legend's tiles.
    SetTile { pos: Vec2, tile: char },
}

// Commands are queued by the thousand a tick: a large payload is boxed (see `Spawn`).
const _: () = assert!(std::mem::size_of::<Command>() <= 48);

/// Why a command was refused when it was sent. The script host adds the script location.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommandError {
    pub kind: FaultKind,
    pub message: String,
}

impl CommandError {
    pub(crate) fn malformed(message: impl Into<String>) -> Self {
        CommandError {
            kind: FaultKind::Script,
            message: message.into(),
        }
    }

    pub fn into_fault(self) -> Fault {
        Fault::new(self.kind, self.message)
    }
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for CommandError {}

impl Command {
    /// The entity the command acts on, if it acts on one.
    pub fn target(&self) -> Option<u64> {
        match self {
            Command::Damage { target, .. }
            | Command::Heal { target, .. }
            | Command::SetState { target, .. }
            | Command::Teleport { target, .. }
            | Command::SetVelocity { target, .. }
            | Command::UseCooldown { target, .. }
            | Command::Impulse { target, .. }
            | Command::SetAngle { target, .. }
            | Command::SetSpin { target, .. }
            | Command::Animate { target, .. }
            | Command::SetLook { target, .. }
            | Command::SetSpeed { target, .. }
            | Command::SetBehaviour { target, .. }
            | Command::ClearState(target)
            | Command::Destroy(target) => Some(*target),
            Command::Score(_)
            | Command::SetVar(..)
            | Command::Spawn { .. }
            | Command::Effect { .. }
            | Command::Sound { .. }
            | Command::GameOver(_)
            | Command::CameraShake { .. }
            | Command::CameraZoom(_)
            | Command::Music(_)
            | Command::LoadLevel(_)
            | Command::Restart
            | Command::Pause
            | Command::Save { .. }
            | Command::Bind { .. }
            | Command::SetTile { .. } => None,
            // Applied at Commit, after the spawns, where both of an attachment's ids resolve.
            Command::Attach { .. } | Command::Detach(_) => None,
        }
    }

    /// Checks a command against the game definition: ids that exist, finite numbers, names of
    /// allowed length, amounts that are not negative. Gameplay runs it on every command sent.
    ///
    /// Long because it is one `match` with an arm per kind of command that takes values to
    /// check, which reads best in one place beside the commands it checks.
    pub(crate) fn check(&self, def: &GameDef) -> Result<(), CommandError> {
        match self {
            Command::Damage { amount, .. } | Command::Heal { amount, .. } if *amount < 0 => {
                return Err(CommandError::malformed(format!(
                    "a damage or heal amount must not be negative, got {amount}"
                )));
            }
            Command::SetVar(_, Var::Num(v)) | Command::SetState { value: v, .. }
                if !v.is_finite() =>
            {
                return Err(CommandError::malformed(
                    "a variable must be a finite number",
                ));
            }
            Command::SetVar(name, value) => {
                name_length(name, "a variable name")?;
                if let Var::Text(t) = value
                    && t.len() > MAX_TEXT_BYTES
                {
                    return Err(CommandError::malformed(format!(
                        "a variable's text must have at most {MAX_TEXT_BYTES} bytes, got {}",
                        t.len()
                    )));
                }
            }
            Command::GameOver(message) if message.len() > MAX_TEXT_BYTES => {
                return Err(CommandError::malformed(format!(
                    "a game-over message must have at most {MAX_TEXT_BYTES} bytes, got {}",
                    message.len()
                )));
            }
            Command::LoadLevel(n) if *n >= def.levels.len() => {
                return Err(CommandError::malformed(format!("unknown level number {n}")));
            }
            Command::SetState { key, .. } => name_length(key, "a state key")?,
            Command::Save { key, value } => {
                check_key(key.as_bytes()).map_err(CommandError::malformed)?;
                if let Some(v) = value {
                    check_value(v).map_err(CommandError::malformed)?;
                }
            }
            Command::Bind { action, keys } => check_bind(def, *action, keys.as_deref())?,
            Command::Spawn {
                archetype,
                pos,
                overrides,
            } => {
                let Some(a) = def.archetype(*archetype) else {
                    return Err(CommandError::malformed(format!(
                        "unknown archetype id {}",
                        archetype.0
                    )));
                };
                if a.sized_by_tiles() && overrides.size.is_none() {
                    return Err(CommandError::malformed(format!(
                        "archetype `{}`'s collider has no size of its own (a tile map's solid \
                         tiles give it theirs): give the spawn a `size`",
                        a.name
                    )));
                }
                finite(*pos, "a spawn position")?;
                if let Some(t) = &overrides.text
                    && t.len() > MAX_TEXT_BYTES
                {
                    return Err(CommandError::malformed(format!(
                        "a label's text must have at most {MAX_TEXT_BYTES} bytes, got {}",
                        t.len()
                    )));
                }
                overrides.check().map_err(CommandError::malformed)?;
                if let Some(need) = overrides.unmet(a).next() {
                    return Err(CommandError::malformed(format!(
                        "{} ({})",
                        need.message(a),
                        need.help(a, "from the spawn options")
                    )));
                }
            }
            Command::SetLook { look, .. } => look.check().map_err(CommandError::malformed)?,
            Command::Teleport { pos, .. } => finite(*pos, "a teleport position")?,
            Command::SetTile { pos, .. } => finite(*pos, "a tile position")?,
            Command::Impulse { impulse, .. } => finite(*impulse, "an impulse")?,
            Command::SetAngle { angle: v, .. } | Command::SetSpin { spin: v, .. }
                if !v.is_finite() =>
            {
                return Err(CommandError::malformed(
                    "an angle or a spin must be a finite number",
                ));
            }
            Command::SetVelocity { velocity, .. } => finite(*velocity, "a velocity")?,
            Command::SetSpeed { speed, .. } if !(speed.is_finite() && *speed >= 0.0) => {
                return Err(CommandError::malformed(format!(
                    "a speed must be a finite number, not negative, got {speed}"
                )));
            }
            Command::SetBehaviour {
                behaviour: Some(b), ..
            } => b
                .check_values(def.tags.len())
                .map_err(CommandError::malformed)?,
            Command::Attach {
                child,
                parent,
                offset,
                ..
            } => {
                if child == parent {
                    return Err(CommandError::malformed(format!(
                        "entity {child} cannot be attached to itself"
                    )));
                }
                finite(*offset, "an attachment's offset")?;
            }
            Command::CameraShake { strength, .. }
                if !(strength.is_finite() && *strength >= 0.0) =>
            {
                return Err(CommandError::malformed(format!(
                    "a shake's strength must be a finite number, not negative, got {strength}"
                )));
            }
            Command::Music(Some(m)) if def.music.get(m.0 as usize).is_none() => {
                return Err(CommandError::malformed(format!("unknown music id {}", m.0)));
            }
            Command::CameraZoom(z) => {
                let (lo, hi) = crate::world::camera::CameraState::ZOOM;
                if !(lo..=hi).contains(z) {
                    return Err(CommandError::malformed(format!(
                        "a zoom must be from {lo} to {hi}, got {z}"
                    )));
                }
            }
            Command::Effect { effect, pos, .. } => {
                if def.effects.get(effect.0 as usize).is_none() {
                    return Err(CommandError::malformed(format!(
                        "unknown effect id {}",
                        effect.0
                    )));
                }
                finite(*pos, "an effect position")?;
            }
            Command::Sound {
                sound,
                volume,
                pitch,
            } => {
                if def.sounds.get(sound.0 as usize).is_none() {
                    return Err(CommandError::malformed(format!(
                        "unknown sound id {}",
                        sound.0
                    )));
                }
                if !volume.is_finite() || !pitch.is_finite() || *pitch <= 0.0 {
                    return Err(CommandError::malformed(
                        "sound volume must be finite and pitch a positive number",
                    ));
                }
            }
            _ => {}
        }
        Ok(())
    }
}

fn finite(v: Vec2, what: &str) -> Result<(), CommandError> {
    if v.is_finite() {
        Ok(())
    } else {
        Err(CommandError::malformed(format!(
            "{what} must be finite numbers, got ({}, {})",
            v.x, v.y
        )))
    }
}

/// The longest text a game variable or a game-over message may hold, in bytes.
pub const MAX_TEXT_BYTES: usize = 4096;

/// The longest game variable name, script-state key or timer name, in bytes.
pub const MAX_NAME_BYTES: usize = 64;

pub(crate) fn name_length(name: &str, what: &str) -> Result<(), CommandError> {
    if name.is_empty() || name.len() > MAX_NAME_BYTES {
        Err(CommandError::malformed(format!(
            "{what} must have 1 to {MAX_NAME_BYTES} bytes, got {}",
            name.len()
        )))
    } else {
        Ok(())
    }
}

/// The most keys one `bind` may give an action.
pub const MAX_BOUND_KEYS: usize = 16;

/// A bind's keys: known keys, each once, at most [`MAX_BOUND_KEYS`], scales in -1..1 for an
/// axis (a button's are 1).
fn check_bind(
    def: &GameDef,
    action: crate::frame::input::ActionId,
    keys: Option<&[(String, f32)]>,
) -> Result<(), CommandError> {
    let Some(a) = def.actions.get(action) else {
        return Err(CommandError::malformed(format!(
            "unknown action id {}",
            action.0
        )));
    };
    let Some(keys) = keys else {
        return Ok(());
    };
    if keys.len() > MAX_BOUND_KEYS {
        return Err(CommandError::malformed(format!(
            "bind gives `{}` {} keys; an action takes at most {MAX_BOUND_KEYS}",
            a.name,
            keys.len()
        )));
    }
    for (i, (key, scale)) in keys.iter().enumerate() {
        if !def.bindable_keys.iter().any(|k| k == key) {
            let shown: String = key.chars().take(40).collect();
            let hint = crate::suggest::closest(key, def.bindable_keys.iter().map(String::as_str))
                .map(|k| format!(" (did you mean `{k}`?)"))
                .unwrap_or_else(|| " (the keys are listed in docs/content.md)".into());
            return Err(CommandError::malformed(format!(
                "bind: `{shown}` is not a key a game can bind{hint}"
            )));
        }
        if keys[..i].iter().any(|(k, _)| k == key) {
            return Err(CommandError::malformed(format!(
                "bind: key `{key}` is given twice"
            )));
        }
        if !scale.is_finite() || !(-1.0..=1.0).contains(scale) {
            return Err(CommandError::malformed(format!(
                "bind: the scale of `{key}` must be a number from -1 to 1, got {scale}"
            )));
        }
    }
    Ok(())
}

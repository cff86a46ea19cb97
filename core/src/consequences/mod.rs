//! Consequences: what runs in the Gameplay phase's two stages, and what a stage sees.
//!
//! Consequences never touch the world. They read the stage's events and a few read-only values
//! through [`Gameplay`], and send [`Command`]s, which Rust validates and applies after the stage
//! in the order they were sent. Structural commands (spawn, destroy, teleport) are recorded for
//! Commit. Timers are scheduled and cancelled at once, so a cancellation suppresses a timer that
//! is due later in the same stage.
//!
//! A spawn's id is known when it is sent ([`Gameplay::send`] returns it): creation sequences
//! are handed out in the order spawns are applied at Commit, so the id is the world's next
//! sequence plus the spawns already queued this tick. Later commands may name it; Rust applies
//! them at Commit, right after the spawns, in the order sent.

mod reads;
mod sent;

pub(crate) use sent::Sent;

use crate::command::{Command, CommandError, name_length};
use crate::def::{ArchetypeId, GameDef, SpawnOverrides};
use crate::event::Events;
use crate::fault::Fault;
use crate::frame::input::TickInput;
use crate::ids::SeqSet;
use crate::limits::{Limit, push_within};
use crate::math::Vec2;
use crate::phase::Stage;
use crate::saved::{SaveStore, entry_bytes, past_bound};
use crate::spatial::SpatialIndex;
use crate::timer::{TimerId, TimerQueue, TimerSpec};
use crate::var::Var;
use crate::world::SimWorld;
use crate::world::components::{Attached, STATE_ENTRY_BYTES, state_entry_bytes};
use crate::world::ecs::Ecs;
use std::collections::BTreeMap;

/// What a gameplay stage sees and how it sends commands.
pub struct Gameplay<'a> {
    pub(crate) tick: u64,
    pub(crate) stage: Stage,
    pub(crate) def: &'a GameDef,
    pub(crate) events: &'a Events,
    pub(crate) ecs: &'a Ecs,
    pub(crate) index: &'a crate::world::index::SeqIndex,
    /// Every live entity's maximum health.
    pub(crate) max_health: &'a crate::world::health::MaxHealth,
    pub(crate) pending: &'a SeqSet,
    pub(crate) destroyed_now: &'a mut SeqSet,
    pub(crate) score: i64,
    pub(crate) vars: &'a BTreeMap<String, Var>,
    pub(crate) saved: &'a SaveStore,
    /// The keys scripts bound to actions, as the stage began.
    pub(crate) bindings: &'a crate::world::Bindings,
    pub(crate) input: &'a TickInput,
    /// The world's next creation sequence: ids from here on are this tick's spawns.
    pub(crate) next_seq: u64,
    /// Spawns queued by earlier stages of this tick (applied at Commit).
    pub(crate) queued: &'a [(ArchetypeId, Vec2, SpawnOverrides)],
    /// Spawns sent in this stage so far.
    pub(crate) spawned_now: u64,
    pub(crate) spatial: &'a mut SpatialIndex,
    /// The live entities by archetype (what `count` and `find` answer from, and the spatial
    /// reads' first charge counts), kept for the world of `instance`.
    pub(crate) census: &'a mut crate::world::census::Census,
    pub(crate) instance: u64,
    /// Work done by reads since the last [`Gameplay::take_work`] (entities and cells visited).
    pub(crate) work: u64,
    pub(crate) rng: &'a mut fastrand::Rng,
    pub(crate) timers: &'a mut TimerQueue,
    pub(crate) commands: &'a mut Vec<Command>,
    /// What this tick's commands add to bounded tables (checked as they are sent).
    pub(crate) sent: &'a mut Sent,
    /// Bytes of script state the world holds (see [`state_entry_bytes`]).
    pub(crate) state_bytes: usize,
    /// The level's tile map and its tiles as the stage began, if it has one.
    pub(crate) tiles: Option<(&'a crate::def::TileMapDef, &'a crate::world::tiles::Tiles)>,
    /// A reader between ticks ([`Game::observe`](crate::Game::observe)): every read works,
    /// every change (a command, a timer) is refused.
    pub(crate) observer: bool,
}

/// What an observer's attempt to change the game is answered.
const OBSERVER_REFUSED: &str = "an agent only reads the game: `decide` returns the tick's input, it cannot send commands or timers";

impl<'a> Gameplay<'a> {
    pub fn tick(&self) -> u64 {
        self.tick
    }

    pub fn stage(&self) -> Stage {
        self.stage
    }

    pub fn def(&self) -> &GameDef {
        self.def
    }

    pub fn events(&self) -> &Events {
        self.events
    }

    /// The score at the start of the stage.
    pub fn score(&self) -> i64 {
        self.score
    }

    /// A game variable as of the start of the stage.
    pub fn var(&self, name: &str) -> Option<&Var> {
        self.vars.get(name)
    }

    /// A value of the game's saved data as of the start of the stage.
    pub fn saved(&self, key: &str) -> Option<&Var> {
        self.saved.get(key)
    }

    /// The keys `action` has as the stage began: those a script bound, or the declared ones.
    pub fn bindings_of(&self, action: crate::frame::input::ActionId) -> Vec<(String, f32)> {
        self.bindings.of(action, &self.def.bindings)
    }

    /// The tick's input (what a recording stores).
    pub fn input(&self) -> &TickInput {
        self.input
    }

    /// Whether the entity lives and is not marked for destruction (including by a destroy sent
    /// earlier in this stage).
    pub fn alive(&self, seq: u64) -> bool {
        self.index.contains_key(&seq)
            && !self.pending.contains(&seq)
            && !self.destroyed_now.contains(&seq)
    }

    /// A value of the entity's script state.
    pub fn state(&self, seq: u64, key: &str) -> Option<f64> {
        let e = self.index.get(&seq, self.ecs.raw())?;
        self.ecs
            .get::<&crate::world::components::ScriptState>(e)
            .ok()?
            .get(key)
    }

    /// Health of a live entity: `(current, max)`.
    pub fn health(&self, seq: u64) -> Option<(i32, i32)> {
        let e = self.index.get(&seq, self.ecs.raw())?;
        let h = self.ecs.get::<&crate::world::components::Health>(e).ok()?;
        let id = self
            .ecs
            .get::<&crate::world::components::Identity>(e)
            .ok()?;
        Some((h.current, self.max_health.of(&id)))
    }

    /// The world's seeded random generator. Every draw is part of the deterministic state.
    pub fn rng(&mut self) -> &mut fastrand::Rng {
        self.rng
    }

    /// Whether a timer is still pending; a due timer cancelled earlier in the stage is not.
    pub fn timer_live(&self, id: TimerId) -> bool {
        self.timers.is_live(id)
    }

    /// Schedules a timer; due no earlier than the next tick.
    pub fn schedule_timer(&mut self, spec: TimerSpec) -> Result<TimerId, CommandError> {
        self.not_observer()?;
        if !spec.data.is_finite() {
            return Err(CommandError::malformed(
                "timer data must be a finite number",
            ));
        }
        name_length(&spec.name, "a timer name")?;
        self.timers
            .schedule(self.tick, spec)
            .map_err(|f| CommandError {
                kind: f.kind,
                message: f.message,
            })
    }

    /// Cancels a timer; returns whether it was pending.
    pub fn cancel_timer(&mut self, id: TimerId) -> Result<bool, CommandError> {
        self.not_observer()?;
        Ok(self.timers.cancel(id))
    }

    /// Refuses a change from an observer.
    fn not_observer(&self) -> Result<(), CommandError> {
        if self.observer {
            return Err(CommandError::malformed(OBSERVER_REFUSED));
        }
        Ok(())
    }

    /// Commands sent (and accepted) so far in this stage.
    pub fn commands_sent(&self) -> usize {
        self.commands.len()
    }

    /// The id a spawn sent now would get.
    fn next_spawn_id(&self) -> u64 {
        self.next_seq + self.queued.len() as u64 + self.spawned_now
    }

    /// Whether `seq` names an entity spawned earlier this tick that does not exist yet.
    pub fn is_spawning(&self, seq: u64) -> bool {
        seq >= self.next_seq && seq < self.next_spawn_id()
    }

    /// Validates and records a command; for a spawn, returns the id the entity will have.
    pub fn send(&mut self, command: Command) -> Result<Option<u64>, CommandError> {
        self.not_observer()?;
        let cap = self.def.limits.commands_per_tick;
        if self.commands.len() >= cap as usize {
            let f = Limit::Commands.exceeded(cap, "commands in one gameplay stage");
            return Err(CommandError {
                kind: f.kind,
                message: f.message,
            });
        }
        command.check(self.def)?;
        if let Command::SetTile { pos, tile } = &command {
            self.tile_cell(*pos, *tile)?;
        }
        self.within_limits(&command)?;
        let id = match &command {
            Command::Destroy(seq) => {
                self.destroyed_now.insert(*seq);
                None
            }
            Command::Spawn { .. } => {
                let id = self.next_spawn_id();
                self.spawned_now += 1;
                Some(id)
            }
            _ => None,
        };
        // The length was checked above: the push cannot fail.
        let pushed = push_within(self.commands, command, cap as usize);
        debug_assert!(pushed);
        Ok(id)
    }

    /// Whether the command just sent asked for the script's location ([`Gameplay::locate`]):
    /// a spawn that may leave the world over `[limits] entities` at Commit, whose fault then
    /// names where it was sent.
    pub fn wants_location(&self) -> bool {
        self.sent.wants_location
    }

    /// The location (`file:line`) of the command just sent, when it asked for one.
    pub fn locate(&mut self, location: Option<String>) {
        if std::mem::take(&mut self.sent.wants_location) && self.sent.spawn_over.is_none() {
            self.sent.spawn_over = location;
        }
    }

    /// Refuses a command that would take a bounded table past its limit (see [`sent`]), and
    /// counts what an accepted one adds.
    fn within_limits(&mut self, command: &Command) -> Result<(), CommandError> {
        let refuse = |f: Fault| CommandError {
            kind: f.kind,
            message: f.message,
        };
        match command {
            Command::Spawn { .. } => {
                let l = &self.def.limits;
                let spawns = self.queued.len() as u64 + self.spawned_now;
                if spawns >= u64::from(l.max_entities) {
                    return Err(refuse(
                        Limit::Entities.exceeded(l.max_entities, "spawns in one tick"),
                    ));
                }
                if spawns >= u64::from(l.events_per_tick) {
                    return Err(refuse(Limit::Events.exceeded(
                        l.events_per_tick,
                        "spawn events (one per spawn) in one tick",
                    )));
                }
                let after = (self.index.len() - self.pending.len()) as u64 + spawns + 1;
                self.sent.wants_location =
                    after > u64::from(l.max_entities) && self.sent.spawn_over.is_none();
            }
            Command::SetVar(name, _)
                if !self.vars.contains_key(name) && !self.sent.vars.contains(name) =>
            {
                let bound = self.def.limits.variables;
                if self.vars.len() + self.sent.vars.len() >= bound as usize {
                    return Err(refuse(Limit::Variables.exceeded(
                        bound,
                        format_args!("game variables: `{name}` would be one more"),
                    )));
                }
                self.sent.vars.insert(name.clone());
            }
            Command::SetState { target, key, .. } => self.add_state_key(*target, key)?,
            Command::Save { key, value } => {
                let bound = self.def.limits.save_bytes;
                let (now, sent) = (self.saved.bytes(), &mut self.sent);
                let old = match sent.saves.get(key) {
                    Some(cost) => *cost,
                    None => self.saved.cost_of(key),
                };
                let new = value.as_ref().map_or(0, |v| entry_bytes(key, v));
                let after = (now + sent.save_added + new).saturating_sub(sent.save_removed + old);
                if new > old && after > bound as usize {
                    return Err(refuse(past_bound(bound, key, after)));
                }
                sent.save_added += new;
                sent.save_removed += old;
                sent.saves.insert(key.clone(), new);
            }
            Command::Attach { child, parent, .. } => {
                if self.may_have_children(*child) {
                    self.no_cycle(*child, *parent)?;
                }
                self.sent.attach.insert(*child, Some(*parent));
                self.sent.parents.insert(*parent);
            }
            Command::Detach(child) => {
                self.sent.attach.insert(*child, None);
            }
            Command::ClearState(target) if self.takes_state(*target) => {
                let keys = self.keys_sent(*target);
                keys.cleared = true;
                keys.added.clear();
            }
            _ => {}
        }
        Ok(())
    }

    /// Whether anything may hang from `seq` once this tick's commands are applied (see
    /// [`Sent::parents`](sent::Sent::parents)).
    fn may_have_children(&mut self, seq: u64) -> bool {
        if !self.sent.parents_gathered {
            let mut q = self.ecs.query::<&Attached>();
            self.sent.parents.extend(q.iter().map(|a| a.parent));
            self.sent.parents_gathered = true;
        }
        self.sent.parents.contains(&seq)
    }

    /// Refuses to attach `child` to `parent` when `parent` hangs from `child` (through the
    /// attachments the world has and this tick's commands make), naming the chain.
    fn no_cycle(&self, child: u64, parent: u64) -> Result<(), CommandError> {
        let mut chain = vec![parent];
        let mut at = parent;
        // A chain visits each entity at most once (no attachment makes a cycle).
        let bound = self.index.len() + self.sent.attach.len();
        while let Some(up) = self.parent_after(at) {
            chain.push(up);
            if up == child {
                let links: Vec<String> = chain
                    .windows(2)
                    .enumerate()
                    .map(|(i, w)| match i {
                        0 => format!("{} is attached to {}", w[0], w[1]),
                        _ => format!("{} to {}", w[0], w[1]),
                    })
                    .collect();
                return Err(CommandError::malformed(format!(
                    "attaching entity {child} to entity {parent} would make a cycle ({}); \
                     detach one first",
                    links.join(", ")
                )));
            }
            at = up;
            if chain.len() > bound {
                break;
            }
        }
        Ok(())
    }

    /// Whether commands to `seq`'s script state will be applied (it lives, or is spawned this
    /// tick, and no destroy for it was sent).
    fn takes_state(&self, seq: u64) -> bool {
        let gone = self.pending.contains(&seq) || self.destroyed_now.contains(&seq);
        !gone && (self.index.contains_key(&seq) || self.is_spawning(seq))
    }

    /// What this stage (a live entity) or tick (one spawned this tick) adds to `seq`'s state.
    fn keys_sent(&mut self, seq: u64) -> &mut sent::KeysSent {
        let map = if self.index.contains_key(&seq) {
            &mut self.sent.keys
        } else {
            &mut self.sent.spawn_keys
        };
        map.entry(seq).or_default()
    }

    /// Counts a state key sent to `seq`, refusing one past `[limits] state_keys` on that
    /// entity or past `[scripts] memory` for all entities' state together. `O(log n)`.
    fn add_state_key(&mut self, seq: u64, key: &str) -> Result<(), CommandError> {
        if !self.takes_state(seq) {
            return Ok(());
        }
        let spawning = !self.index.contains_key(&seq);
        let sent = if spawning {
            self.sent.spawn_keys.get(&seq)
        } else {
            self.sent.keys.get(&seq)
        };
        let cleared = sent.is_some_and(|k| k.cleared);
        let held = self.index.get(&seq, self.ecs.raw()).and_then(|e| {
            self.ecs
                .get::<&crate::world::components::ScriptState>(e)
                .ok()
                .filter(|_| !cleared)
        });
        if held.as_ref().is_some_and(|s| s.get(key).is_some())
            || sent.is_some_and(|k| k.added.contains(key))
        {
            return Ok(());
        }
        let count = held.as_ref().map_or(0, |s| s.len()) + sent.map_or(0, |k| k.added.len());
        drop(held);
        let bound = self.def.limits.state_keys;
        if count >= bound as usize {
            return Err(CommandError {
                kind: crate::fault::FaultKind::Capacity,
                message: Limit::StateKeys
                    .exceeded(
                        bound,
                        format_args!(
                            "script-state keys on entity {seq}: `{key}` would be one more"
                        ),
                    )
                    .message,
            });
        }
        let bytes = state_entry_bytes(key);
        let total = self.state_bytes + self.sent.stage_bytes + self.sent.deferred_bytes + bytes;
        let memory = self.def.scripts.memory_limit;
        if total > memory {
            return Err(CommandError {
                kind: crate::fault::FaultKind::Capacity,
                message: format!(
                    "the script state of all entities would take more than {memory} bytes \
                     (`{key}` on entity {seq}; each entry costs its key's length plus \
                     {STATE_ENTRY_BYTES}; raise [scripts] memory, or clear state that is \
                     done with)"
                ),
            });
        }
        if spawning {
            self.sent.deferred_bytes += bytes;
        } else {
            self.sent.stage_bytes += bytes;
        }
        self.keys_sent(seq).added.insert(key.to_string());
        Ok(())
    }
}

/// Gameplay consequences: the script host implements this; tests and benchmarks use Rust.
pub trait Consequences {
    /// A new world begins (level activation or restart): forget per-world state.
    fn begin_world(&mut self, _def: &GameDef, _world: &SimWorld) -> Result<(), Fault> {
        Ok(())
    }

    /// A script switched level (`load_level`): a new world begins, but the consequences keep
    /// their state (the score and game variables are carried by the world).
    fn switch_world(&mut self, _def: &GameDef, _world: &SimWorld) -> Result<(), Fault> {
        Ok(())
    }

    /// Runs one gameplay stage: read `gameplay.events()`, send commands.
    fn stage(&mut self, stage: Stage, gameplay: &mut Gameplay<'_>) -> Result<(), Fault>;

    /// Profiling: from now on time each handler call with `clock` (`None`: stop).
    fn set_profiling(&mut self, _clock: Option<crate::profile::Clock>) {}

    /// Moves the handler spans measured since the last call into `out`
    /// ([`SpanKind::Handler`](crate::profile::SpanKind::Handler)).
    fn take_spans(&mut self, _out: &mut Vec<crate::profile::Span>) {}

    /// Time spent in consequences during the last tick, in nanoseconds, if measured.
    fn last_tick_ns(&self) -> Option<u64> {
        None
    }

    /// Lines the consequences logged since the last call (script `print`).
    fn drain_log(&mut self) -> Vec<String> {
        Vec::new()
    }
}

/// Consequences that do nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoConsequences;

impl Consequences for NoConsequences {
    fn stage(&mut self, _: Stage, _: &mut Gameplay<'_>) -> Result<(), Fault> {
        Ok(())
    }
}

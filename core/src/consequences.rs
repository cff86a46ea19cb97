//! Consequences: what runs in the Gameplay phase's two stages, and what a stage sees.
//!
//! Consequences never touch the world. They read the stage's events and a few read-only values
//! through [`Gameplay`], and send [`Command`]s, which Rust validates and applies after the stage
//! in the order they were sent. Structural commands (spawn, destroy, teleport) are recorded for
//! Commit. Timers are scheduled and cancelled at once, so a cancellation suppresses a timer that
//! is due later in the same stage.

use crate::command::{Command, CommandError, Stage, name_length};
use crate::def::GameDef;
use crate::event::Events;
use crate::fault::Fault;
use crate::limits::{Limit, push_within};
use crate::timer::{TimerId, TimerQueue, TimerSpec};
use crate::world::SimWorld;
use crate::world::ids::{SeqMap, SeqSet};
use std::collections::BTreeMap;

/// What a gameplay stage sees and how it sends commands.
pub struct Gameplay<'a> {
    pub(crate) tick: u64,
    pub(crate) stage: Stage,
    pub(crate) def: &'a GameDef,
    pub(crate) events: &'a Events,
    pub(crate) ecs: &'a hecs::World,
    pub(crate) index: &'a SeqMap<hecs::Entity>,
    pub(crate) pending: &'a SeqSet,
    pub(crate) destroyed_now: &'a mut SeqSet,
    pub(crate) score: i64,
    pub(crate) vars: &'a BTreeMap<String, f64>,
    pub(crate) rng: &'a mut fastrand::Rng,
    pub(crate) timers: &'a mut TimerQueue,
    pub(crate) commands: &'a mut Vec<Command>,
}

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
    pub fn var(&self, name: &str) -> Option<f64> {
        self.vars.get(name).copied()
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
        let e = self.index.get(&seq)?;
        self.ecs
            .get::<&crate::world::components::ScriptState>(*e)
            .ok()?
            .get(key)
    }

    /// Health of a live entity: `(current, max)`.
    pub fn health(&self, seq: u64) -> Option<(i32, i32)> {
        let e = self.index.get(&seq)?;
        let h = self.ecs.get::<&crate::world::components::Health>(*e).ok()?;
        Some((h.current, h.max))
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
    pub fn cancel_timer(&mut self, id: TimerId) -> bool {
        self.timers.cancel(id)
    }

    /// Commands sent (and accepted) so far in this stage.
    pub fn commands_sent(&self) -> usize {
        self.commands.len()
    }

    /// Validates and records a command.
    pub fn send(&mut self, command: Command) -> Result<(), CommandError> {
        let cap = self.def.limits.commands_per_tick;
        if self.commands.len() >= cap as usize {
            let f = Limit::Commands.exceeded(cap, "commands in one gameplay stage");
            return Err(CommandError {
                kind: f.kind,
                message: f.message,
            });
        }
        command.check(self.def)?;
        if let Command::Destroy(seq) = &command {
            self.destroyed_now.insert(*seq);
        }
        // The length was checked above: the push cannot fail.
        let pushed = push_within(self.commands, command, cap as usize);
        debug_assert!(pushed);
        Ok(())
    }
}

/// Gameplay consequences: the script host implements this; tests and benchmarks use Rust.
pub trait Consequences {
    /// A new world begins (level activation or restart): forget per-world state.
    fn begin_world(&mut self, _def: &GameDef, _world: &SimWorld) -> Result<(), Fault> {
        Ok(())
    }

    /// Runs one gameplay stage: read `gameplay.events()`, send commands.
    fn stage(&mut self, stage: Stage, gameplay: &mut Gameplay<'_>) -> Result<(), Fault>;

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

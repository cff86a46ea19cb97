//! Timing a game's tick with extra entities of its `[stress]` archetype: what `ludus bench`
//! and the page's bench ladder (`?bench=N`, `ludus.bench`) both measure, the same way.

use crate::runtime::project::Project;
use ludus_core::{Fault, Flow, Game, TickInput};

/// The ticks of one rung: each measured tick's time, sorted, and how many entities were left.
pub struct TickTimes {
    /// Measured ticks' times in milliseconds, ascending.
    pub sorted_ms: Vec<f64>,
    /// Their sum, in milliseconds (the mean is taken from it, which a coarse clock, as a
    /// browser's, still measures well over many ticks).
    pub total_ms: f64,
    /// Script time over the measured ticks, in nanoseconds, where the host measures it.
    pub script_ns: u64,
    /// Live entities after the last tick.
    pub entities: usize,
    /// Where the game ended (a script's `game_over`), when it did within the ticks asked for:
    /// the tick and the message. No tick after it is run (a game that has ended is not
    /// played), so `sorted_ms` may hold fewer ticks than asked for.
    pub ended: Option<(u64, String)>,
}

impl TickTimes {
    /// The value at fraction `p` of the measured ticks (0: the fastest, 1: the slowest).
    pub fn percentile(&self, p: f64) -> f64 {
        let s = &self.sorted_ms;
        if s.is_empty() {
            return 0.0;
        }
        let i = ((s.len() - 1) as f64 * p).round() as usize;
        s[i.min(s.len() - 1)]
    }

    pub fn median_ms(&self) -> f64 {
        self.percentile(0.5)
    }

    pub fn mean_ms(&self) -> f64 {
        self.total_ms / self.sorted_ms.len().max(1) as f64
    }

    /// Why no tick was measured: the game ended during the warm-up (`None` when some were).
    pub fn none_measured(&self, warmup: u32) -> Option<String> {
        if !self.sorted_ms.is_empty() {
            return None;
        }
        let (tick, message) = self.ended.as_ref()?;
        Some(format!(
            "the game ended at tick {tick} (\"{message}\"), within the {warmup} warm-up ticks: \
             no tick was measured (warm up for fewer ticks)"
        ))
    }
}

/// `project` with room for `extra` more entities than its `[limits] entities` declares: a
/// bench's own entities are not the game's to budget for (nothing else changes, so the game
/// plays as it would with that limit).
pub fn with_room(project: &Project, extra: u32) -> Project {
    let mut def = (*project.def).clone();
    def.limits.max_entities = def.limits.max_entities.saturating_add(extra);
    Project {
        def: std::sync::Arc::new(def),
        ..project.clone()
    }
}

/// Runs `warmup` unmeasured then `ticks` measured ticks of `game` with neutral input, timing
/// each with `clock` (nanoseconds), up to the tick in which the game ends, if it does: a game
/// that has ended is not played, so the ticks after it would measure a world no player sees
/// (in the swarm, drones standing still where the player died).
pub fn time_ticks(
    game: &mut Game,
    (ticks, warmup): (u32, u32),
    clock: fn() -> u64,
) -> Result<TickTimes, Fault> {
    let mut sorted_ms = Vec::with_capacity(ticks as usize);
    let mut script_ns = 0u64;
    let mut total_ns = 0u64;
    let mut ended = None;
    for i in 0..warmup + ticks {
        let start = clock();
        game.step(&TickInput::neutral())?;
        let ns = clock().saturating_sub(start);
        if i >= warmup {
            sorted_ms.push(ns as f64 / 1e6);
            total_ns += ns;
            script_ns += game.consequences().last_tick_ns().unwrap_or(0);
        }
        if game.flow() == Flow::Over {
            ended = game.world().game_over().map(|(t, m)| (t, m.to_string()));
            break;
        }
    }
    sorted_ms.sort_by(f64::total_cmp);
    Ok(TickTimes {
        sorted_ms,
        total_ms: total_ns as f64 / 1e6,
        script_ns,
        entities: game.world().entity_count(),
        ended,
    })
}

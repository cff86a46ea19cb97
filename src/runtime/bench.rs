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
    let mut timing = Timing::new(game, clock, ticks);
    timing.run(warmup, false)?;
    timing.run(ticks, true)?;
    Ok(timing.finish())
}

/// [`time_ticks`] a stretch at a time, so that a bench can run other work (the loops by hand
/// it compares with) between stretches of the game's ticks, each side under the same
/// conditions of a shared machine.
pub struct Timing<'a> {
    game: &'a mut Game,
    clock: fn() -> u64,
    times: TickTimes,
    total_ns: u64,
    /// The game has ended: no more ticks run.
    over: bool,
}

impl<'a> Timing<'a> {
    /// Timing `game`'s ticks with `clock`, with room for `ticks` measured ones.
    pub fn new(game: &'a mut Game, clock: fn() -> u64, ticks: u32) -> Timing<'a> {
        Timing {
            game,
            clock,
            times: TickTimes {
                sorted_ms: Vec::with_capacity(ticks as usize),
                total_ms: 0.0,
                script_ns: 0,
                entities: 0,
                ended: None,
            },
            total_ns: 0,
            over: false,
        }
    }

    /// Runs up to `n` more ticks with neutral input (`measured`: timed, else a warm-up) and
    /// says how many ran: fewer once the game has ended (none after it).
    pub fn run(&mut self, n: u32, measured: bool) -> Result<u32, Fault> {
        let mut ran = 0;
        while ran < n && !self.over {
            let start = (self.clock)();
            self.game.step(&TickInput::neutral())?;
            let ns = (self.clock)().saturating_sub(start);
            ran += 1;
            if measured {
                self.times.sorted_ms.push(ns as f64 / 1e6);
                self.total_ns += ns;
                self.times.script_ns += self.game.consequences().last_tick_ns().unwrap_or(0);
            }
            if self.game.flow() == Flow::Over {
                self.over = true;
                let over = self.game.world().game_over();
                self.times.ended = over.map(|(t, m)| (t, m.to_string()));
            }
        }
        Ok(ran)
    }

    /// The measured ticks' times, sorted.
    pub fn finish(mut self) -> TickTimes {
        self.times.sorted_ms.sort_by(f64::total_cmp);
        self.times.total_ms = self.total_ns as f64 / 1e6;
        self.times.entities = self.game.world().entity_count();
        self.times
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ludus_core::reference::{Bumps, crowd_def};
    use std::sync::Arc;

    /// A clock that advances a millisecond at each reading: every tick, read twice, takes
    /// exactly 1 ms.
    fn ticking() -> u64 {
        use std::cell::Cell;
        thread_local!(static NOW: Cell<u64> = const { Cell::new(0) });
        NOW.with(|n| {
            n.set(n.get() + 1_000_000);
            n.get()
        })
    }

    /// Stretches of ticks add up to the same ticks as one run: warm-ups untimed, every
    /// measured tick timed once, in the game's own order of ticks.
    #[test]
    fn a_rung_timed_in_stretches_is_the_rung_timed_at_once() {
        let crowd = || Game::with_entities(Arc::new(crowd_def(200, true)), Box::new(Bumps), 200);
        let (mut a, mut b) = (crowd().unwrap(), crowd().unwrap());
        let at_once = time_ticks(&mut a, (7, 3), ticking).unwrap();
        let mut timing = Timing::new(&mut b, ticking, 7);
        let ran: Vec<u32> = [(2, false), (1, false), (3, true), (0, true), (4, true)]
            .iter()
            .map(|&(n, measured)| timing.run(n, measured).unwrap())
            .collect();
        assert_eq!(ran, [2, 1, 3, 0, 4]);
        let stretched = timing.finish();
        assert_eq!(stretched.sorted_ms.len(), at_once.sorted_ms.len());
        assert_eq!(
            stretched.sorted_ms,
            vec![1.0; 7],
            "each tick read the clock twice"
        );
        assert_eq!(stretched.total_ms, 7.0);
        assert_eq!(stretched.entities, at_once.entities);
        assert_eq!((a.world().tick(), b.world().tick()), (10, 10));
        assert_eq!(
            ludus_core::StateHash::of(a.world()),
            ludus_core::StateHash::of(b.world())
        );
        assert!(stretched.ended.is_none());
    }
}

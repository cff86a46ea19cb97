//! The work a headless run does, and the bound on what a `--frames` file may ask of it.
//!
//! A `--frames` line runs at most the game's catch-up budget of ticks (`[tick] catch_up`, at
//! most 64) and at most one level build, so the forward work of a file is proportional to its
//! length. Two kinds of line could ask for more, and are bounded here by what the file has
//! read and run so far (the check comes before the work):
//!
//! - A rewind re-simulates the run's recording from its first tick, less the ticks rewound
//!   (`rerun.rs`): it costs the ticks it reruns plus [`TICKS_PER_SEGMENT`] per level build.
//!   Together, a run's rewinds cost at most [`RESIM_PER_TICK`] times the ticks run forward
//!   plus [`RESIM_PER_LINE`] per line read: always room for one rewind of the whole run,
//!   never for re-simulating a long run once per line (the quadratic case).
//! - A restart rebuilds the level: a run restarts at most as often as a recording may hold
//!   segments for the ticks run ([`Recording::most_segments`]).
//!
//! So whatever the file says, a `--frames` run simulates at most
//! `(1 + RESIM_PER_TICK) * 64 + RESIM_PER_LINE` ticks' worth of work per line (a level build
//! counted as [`TICKS_PER_SEGMENT`] ticks), or stops with an error naming the line.

use ludus_core::{Recording, TICKS_PER_SEGMENT};

/// Rewinds may re-simulate this many times the ticks run forward...
pub const RESIM_PER_TICK: u64 = 2;
/// ...plus this many ticks per line of the `--frames` file read so far.
pub const RESIM_PER_LINE: u64 = 16;

/// What a run has simulated: every tick run and every level built after the first, the
/// re-simulations of rewinds included.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Work {
    pub ticks: u64,
    pub builds: u64,
}

impl Work {
    /// The work in ticks, a level build counted as [`TICKS_PER_SEGMENT`] ticks.
    pub fn in_ticks(&self) -> u64 {
        self.ticks
            .saturating_add(self.builds.saturating_mul(TICKS_PER_SEGMENT as u64))
    }

    pub fn add(&mut self, other: Work) {
        self.ticks = self.ticks.saturating_add(other.ticks);
        self.builds = self.builds.saturating_add(other.builds);
    }
}

/// `n` and the noun, singular or plural.
fn count(n: u64, noun: &str) -> String {
    format!("{n} {noun}{}", if n == 1 { "" } else { "s" })
}

/// A `--frames` file's account: what it has read and run, and what its rewinds and restarts
/// have cost (see the module documentation).
#[derive(Debug, Default)]
pub struct FramesWork {
    lines: u64,
    forward: u64,
    resim: u64,
    restarts: u64,
}

impl FramesWork {
    /// Another line was read.
    pub fn line(&mut self) {
        self.lines += 1;
    }

    /// The session ran `ticks` ticks forward.
    pub fn ran(&mut self, ticks: u64) {
        self.forward = self.forward.saturating_add(ticks);
    }

    /// What rewinds may still cost, in ticks.
    fn resim_left(&self) -> u64 {
        let budget = RESIM_PER_TICK
            .saturating_mul(self.forward)
            .saturating_add(RESIM_PER_LINE.saturating_mul(self.lines));
        budget.saturating_sub(self.resim)
    }

    /// A rewind that reruns `ticks` ticks and `builds` level builds: taken from the budget,
    /// or refused with why.
    pub fn rewind(&mut self, ticks: u64, builds: u64) -> Result<(), String> {
        let cost = Work { ticks, builds }.in_ticks();
        if cost > self.resim_left() {
            return Err(format!(
                "this rewind would re-simulate {} and {} from the run's start, past what \
                 rewinds may re-simulate in this run: {RESIM_PER_TICK} times the {} run forward \
                 plus {RESIM_PER_LINE} ticks per line read ({}), a level build counting as \
                 {TICKS_PER_SEGMENT} ticks, of which {} are spent; rewind less often, or split \
                 the run into shorter files",
                count(ticks, "tick"),
                count(builds, "level build"),
                count(self.forward, "tick"),
                count(self.lines, "line"),
                count(self.resim, "tick")
            ));
        }
        self.resim += cost;
        Ok(())
    }

    /// A restart: allowed while the run's level activations (its start and restarts) stay
    /// within the segments a recording of its ticks may hold, or refused with why.
    pub fn restart(&mut self) -> Result<(), String> {
        let most = Recording::most_segments(self.forward) as u64;
        if self.restarts + 1 >= most {
            return Err(format!(
                "the run has started its level {} times in {} ticks; a run starts a level at \
                 most {} times plus once per {TICKS_PER_SEGMENT} ticks run (here {most}), each \
                 start being a level build",
                self.restarts + 1,
                self.forward,
                ludus_core::FREE_SEGMENTS
            ));
        }
        self.restarts += 1;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rewinds_spend_a_budget_of_the_ticks_run_and_the_lines_read() {
        let mut w = FramesWork::default();
        for _ in 0..10 {
            w.line();
        }
        w.ran(100);
        // Budget: 2 * 100 + 16 * 10 = 360.
        // (ticks, builds, accepted, spent after)
        let cases = [
            (100, 0, true, 100),
            (100, 2, true, 232),
            (129, 0, false, 232),
            (128, 0, true, 360),
            (0, 0, true, 360),
            (1, 0, false, 360),
        ];
        for (ticks, builds, ok, spent) in cases {
            assert_eq!(
                w.rewind(ticks, builds).is_ok(),
                ok,
                "{ticks} ticks {builds} builds"
            );
            assert_eq!(w.resim, spent, "spent after {ticks} ticks {builds} builds");
        }
        w.line();
        assert!(w.rewind(16, 0).is_ok(), "a line adds 16 ticks of budget");
        let why = w.rewind(1, 0).unwrap_err();
        assert!(
            why.contains("re-simulate 1 tick and 0 level builds from the run's start"),
            "{why}"
        );
        assert!(
            why.contains(
                "2 times the 100 ticks run forward plus 16 ticks per line read (11 lines)"
            ),
            "{why}"
        );
    }

    #[test]
    fn restarts_are_bounded_like_a_recordings_segments() {
        let mut w = FramesWork::default();
        for _ in 1..ludus_core::FREE_SEGMENTS {
            assert!(w.restart().is_ok());
        }
        let why = w.restart().unwrap_err();
        assert!(
            why.contains("started its level 256 times in 0 ticks"),
            "{why}"
        );
        w.ran(32);
        assert!(w.restart().is_ok(), "32 ticks earn two restarts");
        assert!(w.restart().is_ok());
        assert!(w.restart().is_err());
    }
}

//! The frame clock: how presentation callbacks turn into fixed simulation ticks.

use serde::{Deserialize, Serialize};
use std::fmt;

/// The phase one tick costs. Every frame adds `accepted_ns * rate_hz` phase units, so one second
/// of accepted time at `rate_hz` is exactly `rate_hz` ticks, with no rounding anywhere.
pub const TICK_PHASE: u64 = 1_000_000_000;

/// The largest `f32` below one: render alpha never reaches 1.0 even where `f32` rounding would.
const ALPHA_BELOW_ONE: f32 = 1.0 - f32::EPSILON / 2.0;

/// How wall time becomes ticks. A game policy, recorded with replays; not a performance promise.
///
/// - `rate_hz`: simulation ticks per second of accepted time.
/// - `max_frame_delta_ns`: the one clamp. A callback that arrives later than this after the
///   previous one contributes only this much; the rest is reported as clamped time.
/// - `max_catch_up_ticks`: the most ticks one callback may run. Whole ticks beyond it are
///   discarded (and reported), so sustained overload slows the simulation down instead of
///   spiralling; tick numbers are never skipped and no tick runs with a larger step.
/// - `mode`: what makes a tick run: wall time ([`TickMode::Realtime`]) or the player
///   ([`TickMode::Turns`]). Every tick still integrates `1 / rate_hz` seconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TickPolicy {
    pub rate_hz: u32,
    pub max_frame_delta_ns: u64,
    pub max_catch_up_ticks: u32,
    pub mode: TickMode,
}

impl Default for TickPolicy {
    fn default() -> Self {
        TickPolicy::DEFAULT
    }
}

/// What makes a tick run (the tick source). A game that says nothing runs in real time
/// ([`TickPolicy::DEFAULT`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TickMode {
    /// Accepted wall time becomes ticks at `rate_hz`.
    Realtime,
    /// A turn-based game: the first tick of a level runs at once, with no input, then one tick
    /// per frame in which a button was pressed; time between does not count.
    Turns,
}

impl Default for TickMode {
    fn default() -> Self {
        TickPolicy::DEFAULT.mode
    }
}

impl TickMode {
    /// The name `[tick] mode` uses.
    pub const fn name(self) -> &'static str {
        match self {
            TickMode::Realtime => "realtime",
            TickMode::Turns => "turns",
        }
    }
}

/// Why a [`TickPolicy`] was refused. Each variant names the field at fault.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PolicyError {
    /// `rate_hz` is zero: no time would ever become a tick.
    ZeroRate,
    /// `max_catch_up_ticks` is zero: no tick could ever run.
    ZeroCatchUp,
    /// `max_frame_delta_ns` is zero: every frame's time would be clamped away.
    ZeroFrameDelta,
    /// `max_frame_delta_ns * rate_hz` plus a carried remainder does not fit in a u64.
    Overflow {
        rate_hz: u32,
        max_frame_delta_ns: u64,
    },
}

impl fmt::Display for PolicyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PolicyError::ZeroRate => write!(f, "rate_hz must be at least 1 tick per second"),
            PolicyError::ZeroCatchUp => {
                write!(
                    f,
                    "max_catch_up_ticks must be at least 1 (0 would never run a tick)"
                )
            }
            PolicyError::ZeroFrameDelta => {
                write!(
                    f,
                    "max_frame_delta must be greater than zero (0 would clamp all time away)"
                )
            }
            PolicyError::Overflow {
                rate_hz,
                max_frame_delta_ns,
            } => write!(
                f,
                "max_frame_delta ({max_frame_delta_ns} ns) times rate_hz ({rate_hz}) overflows the \
                 64-bit tick accumulator; lower one of them"
            ),
        }
    }
}

impl std::error::Error for PolicyError {}

impl TickPolicy {
    /// The policy of a game that sets none (the `[tick]` defaults): 60 Hz in real time, a
    /// 250 ms frame clamp, at most 4 ticks per callback.
    pub const DEFAULT: TickPolicy = TickPolicy {
        rate_hz: 60,
        max_frame_delta_ns: 250_000_000,
        max_catch_up_ticks: 4,
        mode: TickMode::Realtime,
    };

    /// Checks the policy. The largest phase a frame can hold is the carried remainder
    /// (`< TICK_PHASE`) plus one clamped frame (`max_frame_delta_ns * rate_hz`); it must fit a u64.
    pub fn validate(&self) -> Result<(), PolicyError> {
        if self.rate_hz == 0 {
            return Err(PolicyError::ZeroRate);
        }
        if self.max_catch_up_ticks == 0 {
            return Err(PolicyError::ZeroCatchUp);
        }
        if self.max_frame_delta_ns == 0 {
            return Err(PolicyError::ZeroFrameDelta);
        }
        self.max_frame_delta_ns
            .checked_mul(u64::from(self.rate_hz))
            .and_then(|largest| largest.checked_add(TICK_PHASE - 1))
            .map(|_| ())
            .ok_or(PolicyError::Overflow {
                rate_hz: self.rate_hz,
                max_frame_delta_ns: self.max_frame_delta_ns,
            })
    }

    /// One tick's duration in seconds, the step every tick integrates with.
    pub fn tick_seconds(&self) -> f32 {
        1.0 / self.rate_hz as f32
    }

    /// One tick's duration in nanoseconds, rounded down (for display and pacing only; tick
    /// accounting never uses it).
    pub fn tick_ns(&self) -> u64 {
        TICK_PHASE / u64::from(self.rate_hz.max(1))
    }
}

/// How one callback's elapsed wall time was split. Always
/// `raw_ns == accepted_ns + clamped_ns + excluded_ns`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FrameTime {
    /// Monotonic time since the previous callback (0 for the first callback).
    pub raw_ns: u64,
    /// The part that became simulation debt.
    pub accepted_ns: u64,
    /// The part cut off by the max-frame-delta clamp.
    pub clamped_ns: u64,
    /// The part dropped by lifecycle: a reset baseline (pause, resume, hidden, level activation,
    /// fault) or a mode that does not accumulate.
    pub excluded_ns: u64,
}

/// The fixed-step accumulator.
///
/// Invariants:
/// - One monotonic timestamp is read per presentation callback and passed to [`sample`]; the
///   very first callback only sets the baseline, so start-up time is never simulated.
/// - The max-frame-delta clamp is the only clamp. Time between a [`reset`] and the next callback
///   is excluded, never simulated: pausing, hiding or activating a level does not build debt.
/// - Debt is an integer phase: each accepted nanosecond adds `rate_hz` units and one tick costs
///   exactly [`TICK_PHASE`], so the number of ticks due never depends on how the same accepted
///   time was split into frames.
/// - Between callbacks the phase is below one tick: whole ticks the catch-up budget did not run
///   are removed by [`discard_excess`] and reported; only the fraction is carried, and render
///   alpha is that fraction over one tick, in `[0, 1)`.
///
/// [`sample`]: FrameClock::sample
/// [`reset`]: FrameClock::reset
/// [`discard_excess`]: FrameClock::discard_excess
#[derive(Clone, Debug)]
pub struct FrameClock {
    policy: TickPolicy,
    last_ns: Option<u64>,
    baseline_valid: bool,
    phase: u64,
    regressions: u64,
}

impl FrameClock {
    /// A clock for a validated policy.
    pub fn new(policy: TickPolicy) -> Result<Self, PolicyError> {
        policy.validate()?;
        Ok(FrameClock {
            policy,
            last_ns: None,
            baseline_valid: false,
            phase: 0,
            regressions: 0,
        })
    }

    pub fn policy(&self) -> &TickPolicy {
        &self.policy
    }

    /// Reads one callback's timestamp. With `accumulate` false (paused, hidden, faulted) the
    /// elapsed time is excluded; otherwise it is clamped and added to the debt.
    ///
    /// A timestamp earlier than the previous one (a clock that went backwards) counts as zero
    /// elapsed time and is counted in [`regressions`](FrameClock::regressions).
    pub fn sample(&mut self, now_ns: u64, accumulate: bool) -> FrameTime {
        let raw_ns = match self.last_ns {
            None => 0,
            Some(last) if now_ns < last => {
                self.regressions += 1;
                0
            }
            Some(last) => now_ns - last,
        };
        self.last_ns = Some(now_ns);
        if !self.baseline_valid || !accumulate {
            self.baseline_valid = true;
            return FrameTime {
                raw_ns,
                excluded_ns: raw_ns,
                ..FrameTime::default()
            };
        }
        let accepted_ns = raw_ns.min(self.policy.max_frame_delta_ns);
        // Cannot overflow: validate() proved `max_frame_delta_ns * rate_hz + TICK_PHASE - 1` fits,
        // and the phase is below TICK_PHASE between callbacks. Saturate rather than wrap anyway.
        let added = accepted_ns.saturating_mul(u64::from(self.policy.rate_hz));
        debug_assert!(self.phase < TICK_PHASE);
        self.phase = self.phase.saturating_add(added);
        FrameTime {
            raw_ns,
            accepted_ns,
            clamped_ns: raw_ns - accepted_ns,
            excluded_ns: 0,
        }
    }

    /// Whole ticks currently due.
    pub fn due_ticks(&self) -> u64 {
        self.phase / TICK_PHASE
    }

    /// Pays for one tick that ran successfully.
    pub fn consume_tick(&mut self) {
        debug_assert!(self.phase >= TICK_PHASE, "consume_tick without a due tick");
        self.phase = self.phase.saturating_sub(TICK_PHASE);
    }

    /// Drops the whole ticks the catch-up budget did not run; returns how many.
    pub fn discard_excess(&mut self) -> u64 {
        let discarded = self.phase / TICK_PHASE;
        self.phase %= TICK_PHASE;
        discarded
    }

    /// The carried fraction of a tick, in `[0, 1)`.
    pub fn alpha(&self) -> f32 {
        ((self.phase % TICK_PHASE) as f64 / TICK_PHASE as f64).min(ALPHA_BELOW_ONE as f64) as f32
    }

    /// The raw phase carried, in units of `1 / TICK_PHASE` ticks.
    pub fn phase(&self) -> u64 {
        self.phase
    }

    /// Drops all debt and the baseline: the next callback only re-establishes the baseline and
    /// its elapsed time is reported as excluded.
    pub fn reset(&mut self) {
        self.phase = 0;
        self.baseline_valid = false;
    }

    /// Timestamps that went backwards so far.
    pub fn regressions(&self) -> u64 {
        self.regressions
    }
}

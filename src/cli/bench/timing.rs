//! Timing a step: the median of its measured calls.

use crate::cli::common::clock;

/// The median of `warmup + ticks` calls of `step` (the first `warmup` unmeasured), in ms.
pub(super) fn median_of(ticks: u32, warmup: u32, step: impl FnMut()) -> f64 {
    let mut steps = Steps::new(warmup, ticks, step);
    steps.run(ticks);
    steps.median()
}

/// A step timed a stretch at a time (see [`crate::runtime::bench::Timing`]): the loops by hand
/// run their ticks between the game's.
pub(super) struct Steps<F> {
    step: F,
    ms: Vec<f64>,
}

impl<F: FnMut()> Steps<F> {
    /// `step`, after `warmup` unmeasured calls, with room for `ticks` measured ones.
    pub fn new(warmup: u32, ticks: u32, mut step: F) -> Steps<F> {
        for _ in 0..warmup {
            step();
        }
        Steps {
            step,
            ms: Vec::with_capacity(ticks as usize),
        }
    }

    /// `n` more measured calls.
    pub fn run(&mut self, n: u32) {
        for _ in 0..n {
            let start = clock();
            (self.step)();
            self.ms.push(clock().saturating_sub(start) as f64 / 1e6);
        }
    }

    /// The median of the measured calls, in ms.
    pub fn median(mut self) -> f64 {
        self.ms.sort_by(f64::total_cmp);
        self.ms.get(self.ms.len() / 2).copied().unwrap_or(0.0)
    }
}

#[cfg(test)]
mod tests {
    use super::Steps;
    use std::cell::Cell;

    /// The warm-up calls come first and are not timed; each stretch adds its calls.
    #[test]
    fn steps_time_only_the_calls_after_the_warm_up() {
        let calls = Cell::new(0);
        let mut steps = Steps::new(3, 7, || calls.set(calls.get() + 1));
        assert_eq!(calls.get(), 3);
        steps.run(2);
        steps.run(0);
        steps.run(5);
        assert_eq!((calls.get(), steps.ms.len()), (10, 7));
        assert!(steps.ms.iter().all(|t| *t >= 0.0));
        assert!(steps.median() >= 0.0);
    }
}

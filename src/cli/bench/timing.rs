//! Timing a step: the median of its measured calls.

use crate::cli::common::clock;

/// The median of `warmup + ticks` calls of `step` (the first `warmup` unmeasured), in ms.
pub(super) fn median_of(ticks: u32, warmup: u32, mut step: impl FnMut()) -> f64 {
    let mut times = Vec::with_capacity(ticks as usize);
    for i in 0..warmup + ticks {
        let start = clock();
        step();
        if i >= warmup {
            times.push(clock().saturating_sub(start) as f64 / 1e6);
        }
    }
    times.sort_by(f64::total_cmp);
    times.get(times.len() / 2).copied().unwrap_or(0.0)
}

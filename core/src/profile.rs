//! Where a tick's time goes: when profiling is on ([`Game::set_profiling`]), each tick records
//! one [`Span`] per phase, per native system (by the name its phase declares) and per Lua
//! handler call (by script file and function, measured by the consequences), and a
//! [`ProfileTable`] adds them up (count, total, mean, p99, share). Off, nothing is measured:
//! the tick checks one `Option` per system.
//!
//! The core reads no clock: the caller hands one in.
//!
//! [`Game::set_profiling`]: crate::Game::set_profiling

use crate::phase::Phase;
use std::collections::BTreeMap;
use std::sync::Arc;

/// A monotonic clock in nanoseconds.
pub type Clock = fn() -> u64;

/// What a span measures. Spans nest: a tick's phases hold their systems, and the gameplay
/// stage systems hold their handlers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SpanKind {
    /// A whole tick (its name is `tick`).
    Tick,
    Phase,
    System,
    Handler,
    /// Work outside the tick that a caller measures (the window's render extraction).
    Frame,
}

impl SpanKind {
    pub fn name(self) -> &'static str {
        match self {
            SpanKind::Tick => "tick",
            SpanKind::Phase => "phase",
            SpanKind::System => "system",
            SpanKind::Handler => "handler",
            SpanKind::Frame => "frame",
        }
    }
}

/// A span's name: a system's or phase's static name, or a handler's `file:function`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SpanName {
    Static(&'static str),
    Shared(Arc<str>),
}

impl SpanName {
    pub fn as_str(&self) -> &str {
        match self {
            SpanName::Static(s) => s,
            SpanName::Shared(s) => s,
        }
    }
}

/// One measured piece of a tick: start and duration in the clock's nanoseconds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Span {
    pub kind: SpanKind,
    pub name: SpanName,
    /// The phase it ran in (`None` for [`SpanKind::Frame`]).
    pub phase: Option<Phase>,
    pub start_ns: u64,
    pub dur_ns: u64,
}

/// The most spans a profiler holds before they are taken; later ones are counted, not kept.
pub const MAX_SPANS: usize = 1 << 20;

/// The profiler of a running game: the clock, and the spans measured since they were last
/// taken ([`Game::take_spans`](crate::Game::take_spans)), at most [`MAX_SPANS`].
#[derive(Debug)]
pub struct Profiler {
    pub clock: Clock,
    spans: Vec<Span>,
    /// Spans not kept for want of room.
    pub dropped: u64,
}

impl Profiler {
    pub fn new(clock: Clock) -> Self {
        Profiler {
            clock,
            spans: Vec::new(),
            dropped: 0,
        }
    }

    pub(crate) fn now(&self) -> u64 {
        (self.clock)()
    }

    /// Keeps a span that began at `start` and ends now.
    pub(crate) fn push(
        &mut self,
        kind: SpanKind,
        name: SpanName,
        phase: Option<Phase>,
        start: u64,
    ) {
        let end = self.now();
        self.keep(Span {
            kind,
            name,
            phase,
            start_ns: start,
            dur_ns: end.saturating_sub(start),
        });
    }

    pub(crate) fn keep(&mut self, span: Span) {
        if self.spans.len() < MAX_SPANS {
            self.spans.push(span);
        } else {
            self.dropped += 1;
        }
    }

    /// The spans kept so far.
    pub fn spans(&self) -> &[Span] {
        &self.spans
    }

    /// Moves the spans kept so far into `out`.
    pub fn take(&mut self, out: &mut Vec<Span>) {
        out.append(&mut self.spans);
    }
}

/// Log-spaced buckets per power of two: p99 within about 9% of the true value.
const SUB_BUCKETS: u32 = 8;
const BUCKETS: usize = 64 * SUB_BUCKETS as usize;

fn bucket(ns: u64) -> usize {
    if ns < u64::from(SUB_BUCKETS) {
        return ns as usize;
    }
    let top = 63 - ns.leading_zeros();
    let shift = top - SUB_BUCKETS.trailing_zeros();
    let sub = (ns >> shift) as u32 & (SUB_BUCKETS - 1);
    (top * SUB_BUCKETS + sub) as usize
}

/// The largest duration a bucket holds.
fn bucket_top(b: usize) -> u64 {
    let b = b as u32;
    let (top, sub) = (b / SUB_BUCKETS, b % SUB_BUCKETS);
    if top < SUB_BUCKETS.trailing_zeros() {
        return u64::from(b);
    }
    let shift = top - SUB_BUCKETS.trailing_zeros();
    let base = (u64::from(SUB_BUCKETS) + u64::from(sub)) << shift;
    base.saturating_add((1u64 << shift) - 1)
}

/// The figures of one item over many ticks.
#[derive(Clone, Debug)]
pub struct Row {
    pub count: u64,
    pub total_ns: u64,
    pub max_ns: u64,
    histogram: Box<[u64; BUCKETS]>,
}

impl Default for Row {
    fn default() -> Self {
        Row {
            count: 0,
            total_ns: 0,
            max_ns: 0,
            histogram: Box::new([0; BUCKETS]),
        }
    }
}

impl Row {
    pub fn add(&mut self, ns: u64) {
        self.count += 1;
        self.total_ns = self.total_ns.saturating_add(ns);
        self.max_ns = self.max_ns.max(ns);
        self.histogram[bucket(ns)] += 1;
    }

    pub fn mean_ns(&self) -> f64 {
        if self.count == 0 {
            0.0
        } else {
            self.total_ns as f64 / self.count as f64
        }
    }

    /// The duration 99% of the measurements are at most (to the histogram's resolution).
    pub fn p99_ns(&self) -> u64 {
        let want = self.count - self.count / 100;
        let mut seen = 0;
        for (b, n) in self.histogram.iter().enumerate() {
            seen += n;
            if seen >= want && *n > 0 {
                return bucket_top(b).min(self.max_ns);
            }
        }
        self.max_ns
    }
}

/// Spans added up by (kind, name), with the ticks they came from: the table `ludus sim
/// --profile` prints and the window's profiler page draws.
#[derive(Clone, Debug, Default)]
pub struct ProfileTable {
    pub ticks: u64,
    /// The time of whole ticks (their phases together).
    pub tick_ns: u64,
    pub rows: BTreeMap<(SpanKind, SpanName), Row>,
}

impl ProfileTable {
    /// Adds spans: a tick span counts a tick and its time.
    pub fn add_all(&mut self, spans: &[Span]) {
        for s in spans {
            self.add(s);
        }
    }

    /// Adds one span.
    pub fn add(&mut self, s: &Span) {
        if s.kind == SpanKind::Tick {
            self.ticks += 1;
            self.tick_ns = self.tick_ns.saturating_add(s.dur_ns);
        }
        self.rows
            .entry((s.kind, s.name.clone()))
            .or_default()
            .add(s.dur_ns);
    }

    /// The rows, most total time first within each kind, kinds in [`SpanKind`] order.
    pub fn sorted(&self) -> Vec<(&(SpanKind, SpanName), &Row)> {
        let mut rows: Vec<_> = self.rows.iter().collect();
        rows.sort_by(|a, b| {
            (a.0.0, std::cmp::Reverse(a.1.total_ns), &a.0.1).cmp(&(
                b.0.0,
                std::cmp::Reverse(b.1.total_ns),
                &b.0.1,
            ))
        });
        rows
    }

    /// The table as text: one line per item with count, total, mean, p99 and its share of the
    /// ticks' time.
    pub fn render(&self) -> String {
        let mut out = format!(
            "{:<9} {:<40} {:>8} {:>11} {:>10} {:>10} {:>7}\n",
            "kind", "name", "count", "total ms", "mean µs", "p99 µs", "share"
        );
        for ((kind, name), row) in self.sorted() {
            let share = if self.tick_ns == 0 {
                0.0
            } else {
                row.total_ns as f64 * 100.0 / self.tick_ns as f64
            };
            let shown: String = name.as_str().chars().take(40).collect();
            out.push_str(&format!(
                "{:<9} {:<40} {:>8} {:>11.3} {:>10.2} {:>10.2} {:>6.1}%\n",
                kind.name(),
                shown,
                row.count,
                row.total_ns as f64 / 1e6,
                row.mean_ns() / 1e3,
                row.p99_ns() as f64 / 1e3,
                share
            ));
        }
        out.push_str(&format!(
            "{} ticks, {:.3} ms in ticks, {:.2} µs per tick\n",
            self.ticks,
            self.tick_ns as f64 / 1e6,
            if self.ticks == 0 {
                0.0
            } else {
                self.tick_ns as f64 / self.ticks as f64 / 1e3
            }
        ));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_hold_their_values_and_grow_with_them() {
        let mut last = 0;
        for ns in [
            0u64,
            1,
            7,
            8,
            9,
            15,
            16,
            100,
            1_000,
            65_535,
            1 << 40,
            u64::MAX >> 2,
        ] {
            let b = bucket(ns);
            assert!(b >= last, "{ns}");
            assert!(
                bucket_top(b) >= ns,
                "{ns}: bucket {b} tops at {}",
                bucket_top(b)
            );
            assert!(bucket_top(b) - ns <= ns / 8 + 1, "{ns}: {}", bucket_top(b));
            last = b;
        }
    }

    #[test]
    fn p99_of_a_hundred_values_is_near_the_99th() {
        let mut row = Row::default();
        for ns in 1..=100u64 {
            row.add(ns * 1000);
        }
        let p = row.p99_ns();
        assert!((99_000..=100_000).contains(&p), "{p}");
        assert_eq!(row.count, 100);
        assert_eq!(row.total_ns, 5_050_000);
    }
}

//! The window's profiler page (F3 pressed a second time): while it is shown the game measures
//! every phase, native system and Lua handler call of each tick (see
//! [`ludus_core::profile`]), the runner measures render extraction, and the page shows each
//! item's mean per tick over the last second of ticks, with a bar for its share. Hidden, the
//! game measures nothing.

use crate::runtime::runner::{PlayState, Runner};
use ludus_core::profile::{Span, SpanKind, SpanName};

/// Ticks added up before the page shows a new table (a second at 60 Hz).
const TICKS_SHOWN: u64 = 60;

/// The most items the page lists.
const ROWS: usize = 24;

/// One line of the page: its text, and its share of the ticks' time (0 to 1) for the bar.
pub struct ProfileRow {
    pub text: String,
    pub share: f32,
}

impl PlayState {
    /// Turns the page's measuring on or off.
    pub(super) fn set_profiling(&mut self, on: bool) {
        let clock = self.timed.clock();
        if on {
            self.profile.get_or_insert_with(Default::default);
            self.timed.game.set_profiling(Some(clock));
        } else {
            self.profile = None;
            self.timed.game.set_profiling(None);
        }
    }

    /// After a frame: what its ticks measured, and its extraction (`extract_ns`, from `start`).
    pub(super) fn profiled(&mut self, start: u64, extract_ns: u64) {
        let Some(p) = &mut self.profile else {
            return;
        };
        // A game made afresh (a rewind, a reload) measures nothing until told again.
        if !self.timed.game.profiling() {
            self.timed.game.set_profiling(Some(self.timed.clock()));
        }
        p.spans.clear();
        self.timed.game.take_spans(&mut p.spans);
        p.filling.add_all(&p.spans);
        p.filling.add(&Span {
            kind: SpanKind::Frame,
            name: SpanName::Static("render extraction"),
            phase: None,
            start_ns: start,
            dur_ns: extract_ns,
        });
        if p.filling.ticks >= TICKS_SHOWN {
            p.shown = Some(std::mem::take(&mut p.filling));
        }
    }
}

impl Runner {
    /// The profiler page's lines: a heading, then the items with the most time, each its mean
    /// per tick (µs), its p99 and its share of the ticks' time.
    pub fn profiler_rows(&self) -> Vec<ProfileRow> {
        let Some(p) = &self.play.profile else {
            return Vec::new();
        };
        let Some(t) = p.shown.as_ref() else {
            return vec![ProfileRow {
                text: format!("profiler (F3 closes): measuring the first {TICKS_SHOWN} ticks..."),
                share: 0.0,
            }];
        };
        let per_tick = |ns: u64| ns as f64 / t.ticks.max(1) as f64 / 1e3;
        let mut rows = vec![
            ProfileRow {
                text: format!(
                    "profiler (F3 closes): {} ticks, {:.1} µs a tick",
                    t.ticks,
                    per_tick(t.tick_ns)
                ),
                share: 0.0,
            },
            ProfileRow {
                text: format!(
                    "{:<7} {:<40} {:>8} {:>8} {:>6}",
                    "kind", "name (per tick)", "mean µs", "p99 µs", "share"
                ),
                share: 0.0,
            },
        ];
        let mut items: Vec<_> = t
            .rows
            .iter()
            .filter(|((kind, _), _)| *kind != SpanKind::Tick)
            .collect();
        items.sort_by(|a, b| b.1.total_ns.cmp(&a.1.total_ns).then(a.0.cmp(b.0)));
        for ((kind, name), row) in items.into_iter().take(ROWS) {
            let share = row.total_ns as f64 / t.tick_ns.max(1) as f64;
            let shown: String = name.as_str().chars().take(40).collect();
            rows.push(ProfileRow {
                text: format!(
                    "{:<7} {shown:<40} {:>8.1} {:>8.1} {:>5.1}%",
                    kind.name(),
                    per_tick(row.total_ns),
                    row.p99_ns() as f64 / 1e3,
                    share * 100.0
                ),
                share: share.clamp(0.0, 1.0) as f32,
            });
        }
        rows
    }
}

//! What the profiler measured, added up and written out: the table (`ludus sim --profile`, the
//! window's profiler page) and the Chrome trace event file (`--trace-events FILE`), which
//! Perfetto and chrome://tracing open: one complete event (`"ph": "X"`) per tick, phase, system
//! and handler call, nested by time on one thread.

use ludus_core::Game;
use ludus_core::profile::{ProfileTable, Span, SpanKind};
use std::io::Write;

/// The largest trace event file, in bytes (512 MiB): past it, events are no longer written and
/// the run says so.
pub const MAX_TRACE_EVENTS_BYTES: u64 = 512 << 20;

/// A profiled run's consumer of spans (see the module documentation).
pub struct Profiling {
    pub table: ProfileTable,
    events: Option<TraceEvents>,
    spans: Vec<Span>,
}

#[cfg_attr(
    target_arch = "wasm32",
    allow(dead_code, reason = "`ludus sim --profile` profiles")
)]
impl Profiling {
    /// Adds up spans; `events`: also writes them as trace events.
    pub fn new(events: Option<TraceEvents>) -> Profiling {
        Profiling {
            table: ProfileTable::default(),
            events,
            spans: Vec::new(),
        }
    }

    /// Takes what `game` measured since the last call (its ticks); `tick`: the world's tick,
    /// for the events' arguments. An error once the trace file cannot be written.
    pub fn take(&mut self, game: &mut Game, tick: u64) -> Result<(), String> {
        self.spans.clear();
        game.take_spans(&mut self.spans);
        self.table.add_all(&self.spans);
        match &mut self.events {
            Some(e) => e.write(&self.spans, tick),
            None => Ok(()),
        }
    }

    /// Ends the trace file (its closing bracket) and flushes it.
    pub fn finish(&mut self) -> Result<(), String> {
        match self.events.take() {
            Some(e) => e.finish(),
            None => Ok(()),
        }
    }
}

/// A Chrome trace event file being written: `{"traceEvents":[...]}`.
pub struct TraceEvents {
    out: Box<dyn Write>,
    path: String,
    /// The clock reading at time 0 of the file (the first span's start).
    origin: Option<u64>,
    bytes: u64,
    first: bool,
    full: bool,
}

#[cfg_attr(
    target_arch = "wasm32",
    allow(dead_code, reason = "`ludus sim --trace-events` writes them")
)]
impl TraceEvents {
    pub fn new(mut out: Box<dyn Write>, path: String) -> Result<TraceEvents, String> {
        let head = "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n";
        out.write_all(head.as_bytes())
            .map_err(|e| format!("cannot write {path}: {e}"))?;
        Ok(TraceEvents {
            out,
            path,
            origin: None,
            bytes: head.len() as u64,
            first: true,
            full: false,
        })
    }

    fn write(&mut self, spans: &[Span], tick: u64) -> Result<(), String> {
        if self.origin.is_none() {
            // A tick's own span ends last and starts first: the earliest start is time 0.
            self.origin = spans.iter().map(|s| s.start_ns).min();
        }
        for s in spans {
            let origin = self.origin.unwrap_or(s.start_ns);
            let ts = s.start_ns.saturating_sub(origin) as f64 / 1e3;
            let phase = s.phase.map_or("null".into(), |p| json_string(p.name()));
            let name = match s.kind {
                SpanKind::Tick => format!("tick {tick}"),
                _ => s.name.as_str().to_string(),
            };
            let line = format!(
                "{}{{\"name\":{},\"cat\":\"{}\",\"ph\":\"X\",\"ts\":{ts:.3},\"dur\":{:.3},\"pid\":1,\"tid\":1,\"args\":{{\"tick\":{tick},\"phase\":{phase}}}}}",
                if self.first { "" } else { ",\n" },
                json_string(&name),
                s.kind.name(),
                s.dur_ns as f64 / 1e3,
            );
            if self.bytes + line.len() as u64 + 3 > MAX_TRACE_EVENTS_BYTES {
                self.full = true;
                return Ok(());
            }
            self.out
                .write_all(line.as_bytes())
                .map_err(|e| format!("cannot write {}: {e}", self.path))?;
            self.bytes += line.len() as u64;
            self.first = false;
        }
        Ok(())
    }

    fn finish(mut self) -> Result<(), String> {
        self.out
            .write_all(b"\n]}\n")
            .and_then(|()| self.out.flush())
            .map_err(|e| format!("cannot write {}: {e}", self.path))?;
        if self.full {
            return Err(format!(
                "{}: the trace reached {} MiB; the ticks after were not written (trace fewer ticks)",
                self.path,
                MAX_TRACE_EVENTS_BYTES >> 20
            ));
        }
        Ok(())
    }
}

fn json_string(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
}

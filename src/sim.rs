//! `ludus sim`: run a game headless, optionally driven by scripted frames or per-tick input,
//! recording and tracing; print one JSON summary.

use crate::cli::{clock, load, read_text};
use crate::frames::{Format, Line};
use crate::project::Project;
use ludus_core::*;
use std::io::Write;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct SimArgs {
    /// The game folder; the bundled example when omitted.
    pub game_dir: Option<PathBuf>,
    /// Stop after this many ticks (default 600 without --frames; all frames with --frames).
    #[arg(long)]
    pub ticks: Option<u64>,
    /// Override the game's world seed.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Add this many entities of the game's [stress] archetype.
    #[arg(long, default_value_t = 0)]
    pub entities: u32,
    /// Per-tick input, JSON Lines keyed by "tick" (see docs/headless.md). With --frames, it
    /// replaces the input the frames pump, so the same ticks see the same input at any frame
    /// rate.
    #[arg(long)]
    pub input: Option<PathBuf>,
    /// Presentation callbacks with their time deltas, JSON Lines (drives the real frame clock).
    #[arg(long)]
    pub frames: Option<PathBuf>,
    /// Write a recording for `ludus replay`.
    #[arg(long)]
    pub record: Option<PathBuf>,
    /// Store every entity's values per tick in the recording, so a replay can name the entity
    /// and value that first differ (large for big games).
    #[arg(long, requires = "record")]
    pub record_detail: bool,
    /// Write a JSON Lines trace: one line per frame (with --frames) and per completed tick.
    #[arg(long)]
    pub trace: Option<PathBuf>,
    /// Run background work on this many worker threads (default: serially, deterministic).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Check the world's invariants after every tick.
    #[arg(long)]
    pub check_invariants: bool,
}

/// Turns `--input` lines into each tick's `TickInput`: a line applies at its tick; held
/// buttons and axis values persist until a later line changes them.
#[derive(Debug, Default)]
pub struct PerTick {
    lines: Vec<Line>,
    next: usize,
    held: TickInput,
}

impl PerTick {
    pub fn new(lines: Vec<Line>) -> PerTick {
        PerTick {
            lines,
            next: 0,
            held: TickInput::neutral(),
        }
    }

    /// The input of `tick` (ticks must be asked in increasing order).
    pub fn input(&mut self, tick: u64) -> TickInput {
        while self.next < self.lines.len() && self.lines[self.next].tick.is_some_and(|t| t < tick) {
            self.next += 1;
        }
        match self.lines.get(self.next) {
            Some(l) if l.tick == Some(tick) => {
                self.next += 1;
                l.apply_to(&mut self.held)
            }
            _ => TickInput {
                held: self.held.held,
                axes: self.held.axes.clone(),
                ..TickInput::default()
            },
        }
    }
}

/// Records ticks into segments and writes trace lines; the session drives it.
pub struct Driver {
    /// Replaces the session's input when set (`--input` with `--frames`).
    pub per_tick: Option<PerTick>,
    pub game: Game,
    pub recording: Option<Recording>,
    detail: bool,
    pub trace: Option<Box<dyn Write>>,
    pub ticks: u64,
    pub last_hash: Option<StateHash>,
    pub error: Option<String>,
}

impl Driver {
    fn record(&mut self, tick: u64, input: &TickInput, report: &TickReport) {
        let hash = report.hash.unwrap_or_default();
        self.last_hash = Some(hash);
        self.ticks += 1;
        if let Some(rec) = &mut self.recording {
            let completions = self.game.completions().last_batch().to_vec();
            let detail = self.detail.then(|| entity_values(self.game.world()));
            if let Some(seg) = rec.segments.last_mut() {
                seg.ticks.push(TickRecord {
                    tick,
                    input: input.clone(),
                    completions,
                    hash,
                    detail,
                });
            }
        }
        if let Some(t) = &mut self.trace {
            let line = format!(
                "{{\"tick\":{tick},\"hash\":\"{}\",\"entities\":{}}}\n",
                hash.hex(),
                report.entities
            );
            if t.write_all(line.as_bytes()).is_err() {
                self.error = Some("cannot write the trace file".into());
            }
        }
    }

    fn new_segment(&mut self) {
        let level = self
            .game
            .world()
            .level_def(self.game.def())
            .map(|l| l.name.clone())
            .unwrap_or_default();
        if let Some(rec) = &mut self.recording {
            rec.segments.push(Segment {
                level,
                ticks: Vec::new(),
            });
        }
    }

    /// Runs one tick directly (without a session) and records it.
    pub fn step(&mut self, input: &TickInput) -> Result<(), Fault> {
        let tick = self.game.world().tick() + 1;
        let report = self.game.step(input)?;
        self.record(tick, input, &report);
        Ok(())
    }
}

impl Simulation for Driver {
    fn tick(&mut self, tick: u64, input: &TickInput) -> Result<(), Fault> {
        let input = match &mut self.per_tick {
            Some(p) => p.input(tick),
            None => input.clone(),
        };
        let report = self.game.step(&input)?;
        self.record(tick, &input, &report);
        Ok(())
    }

    fn load(&mut self, request: &LoadRequest) -> LoadStatus {
        let status = self.game.load(request);
        if matches!(status, LoadStatus::Ready(_)) {
            self.new_segment();
        }
        status
    }
}

fn header(project: &Project, dir: Option<&std::path::Path>, entities: u32) -> RecordingHeader {
    let def = &project.def;
    RecordingHeader {
        build: format!("ludus {}", env!("CARGO_PKG_VERSION")),
        game: def.name.clone(),
        game_dir: dir.map(|d| d.display().to_string()),
        content_hash: def.content_hash,
        tick: def.tick,
        ai: def.ai,
        seed: def.seed,
        limits: def.limits,
        entities,
    }
}

/// Builds a driver for a project (shared with tests and `ludus bench`).
pub fn driver(project: &Project, entities: u32, threads: Option<usize>) -> Result<Driver, Fault> {
    let mut game = project.start(entities)?;
    game.options_mut().hash = true;
    if let Some(n) = threads {
        let cap = project.def.limits.jobs;
        game.set_completions(Completions::with_executor(
            cap,
            Box::new(ThreadPool::new(n.max(1))),
        ));
    }
    Ok(Driver {
        per_tick: None,
        game,
        recording: None,
        detail: false,
        trace: None,
        ticks: 0,
        last_hash: None,
        error: None,
    })
}

fn json_string(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
}

pub fn main(args: SimArgs) -> i32 {
    let mut project = match load(args.game_dir.as_deref()) {
        Ok(p) => p,
        Err(code) => return code,
    };
    if let Some(seed) = args.seed {
        project = project.with_seed(seed);
    }
    let parse = |path: &PathBuf, format| -> Result<Vec<Line>, String> {
        let text = read_text(path)?;
        crate::frames::parse(&path.display().to_string(), &text, format, &project.def)
    };
    let input = match args
        .input
        .as_ref()
        .map(|p| parse(p, Format::Input))
        .transpose()
    {
        Ok(v) => v,
        Err(e) => {
            eprintln!("ludus: {e}");
            return 1;
        }
    };
    let frames = match args
        .frames
        .as_ref()
        .map(|p| parse(p, Format::Frames))
        .transpose()
    {
        Ok(v) => v,
        Err(e) => {
            eprintln!("ludus: {e}");
            return 1;
        }
    };
    let mut d = match driver(&project, args.entities, args.threads) {
        Ok(d) => d,
        Err(f) => {
            eprintln!("ludus: the game could not start: {f}");
            return 1;
        }
    };
    d.game.options_mut().check_invariants = args.check_invariants;
    if args.record.is_some() {
        d.recording = Some(Recording {
            header: header(&project, args.game_dir.as_deref(), args.entities),
            segments: Vec::new(),
        });
        d.detail = args.record_detail;
        d.new_segment();
    }
    if let Some(path) = &args.trace {
        match std::fs::File::create(path) {
            Ok(f) => d.trace = Some(Box::new(std::io::BufWriter::new(f))),
            Err(e) => {
                eprintln!("ludus: cannot create {}: {e}", path.display());
                return 1;
            }
        }
    }

    let start = clock();
    let mut fault: Option<Fault> = None;
    let mut discarded = 0u64;
    let mut frames_run = 0usize;
    match &frames {
        None => {
            let ticks = args.ticks.unwrap_or(600);
            let mut per_tick = PerTick::new(input.unwrap_or_default());
            for tick in 1..=ticks {
                let tick_input = per_tick.input(tick);
                if let Err(f) = d.step(&tick_input) {
                    fault = Some(f);
                    break;
                }
            }
        }
        Some(lines) => {
            d.per_tick = input.map(PerTick::new);
            let def = &project.def;
            let entry = def
                .levels
                .get(def.entry_level)
                .map_or(Mode::Playing, |l| l.entry_mode);
            let mut session = match Session::new(def.tick, def.actions.len(), entry) {
                Ok(s) => s,
                Err(e) => {
                    eprintln!("ludus: tick policy: {e}");
                    return 1;
                }
            };
            let mut now = 0u64;
            for (i, line) in lines.iter().enumerate() {
                if args.ticks.is_some_and(|t| d.ticks >= t) {
                    break;
                }
                now = now.saturating_add(line.dt_ns.unwrap_or(0));
                line.pump(&mut session);
                let r = session.frame(now, &mut d);
                frames_run += 1;
                discarded += r.ticks_discarded;
                if let Some(t) = &mut d.trace {
                    let text = format!(
                        "{{\"frame\":{i},\"raw_ns\":{},\"accepted_ns\":{},\"clamped_ns\":{},\"excluded_ns\":{},\"ticks\":{},\"discarded\":{},\"tick\":{},\"alpha\":{},\"mode\":\"{}\"}}\n",
                        r.time.raw_ns,
                        r.time.accepted_ns,
                        r.time.clamped_ns,
                        r.time.excluded_ns,
                        r.ticks_run,
                        r.ticks_discarded,
                        r.tick,
                        r.alpha,
                        r.mode.name()
                    );
                    if t.write_all(text.as_bytes()).is_err() {
                        d.error = Some("cannot write the trace file".into());
                    }
                }
            }
            fault = session.fault().cloned();
        }
    }
    let elapsed_ns = clock().saturating_sub(start).max(1);
    if let Some(t) = &mut d.trace
        && t.flush().is_err()
    {
        d.error = Some("cannot write the trace file".into());
    }
    if let (Some(path), Some(rec)) = (&args.record, &d.recording)
        && let Err(e) = std::fs::write(path, rec.to_bytes())
    {
        d.error = Some(format!("cannot write {}: {e}", path.display()));
    }
    if let Some(e) = &d.error {
        eprintln!("ludus: {e}");
        return 1;
    }
    let world = d.game.world();
    let hash = d
        .last_hash
        .map(|h| h.hex())
        .unwrap_or_else(|| StateHash::of(world).hex());
    let fault_json = match &fault {
        None => "null".to_string(),
        Some(f) => format!(
            "{{\"message\":{},\"location\":{},\"tick\":{},\"phase\":{}}}",
            json_string(&f.message),
            f.location.as_deref().map_or("null".into(), json_string),
            f.tick,
            f.phase.map_or("null".into(), |p| json_string(p.name()))
        ),
    };
    let c = world.counters();
    let tps = d.ticks as f64 / (elapsed_ns as f64 / 1e9);
    println!(
        "{{\"ticks\":{},\"hash\":\"{hash}\",\"entities\":{},\"faulted\":{},\"fault\":{fault_json},\"discarded_ticks\":{discarded},\"frames\":{frames_run},\"score\":{},\"world_tick\":{},\"stale_commands\":{},\"elapsed_ms\":{:.3},\"ticks_per_second\":{:.0}}}",
        d.ticks,
        world.entity_count(),
        fault.is_some(),
        world.score(),
        world.tick(),
        c.stale_commands,
        elapsed_ns as f64 / 1e6,
        tps
    );
    if fault.is_some() { 1 } else { 0 }
}

//! The options of `ludus bench`.

use std::path::PathBuf;

/// What `ludus bench` measures.
// Doc comments here are the command's help text: `[stress]` names the TOML table, no link.
#[allow(rustdoc::broken_intra_doc_links)]
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Workload {
    /// The game folder's level plus N of its [stress] archetype, with its scripts. For the
    /// bundled example: drones chasing the player, next to the drones' rules by hand.
    Game,
    /// N wandering circles that push each other apart and lose health on every new contact
    /// (Rust rules, no scripts), next to the same rules by hand.
    Crowd,
}

// Doc comments here are the command's help text: `[stress]` names the TOML table, no link.
#[allow(rustdoc::broken_intra_doc_links)]
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// The game folder (it must declare a [stress] archetype); the bundled example by default.
    /// Only for `--workload game`.
    pub game_dir: Option<PathBuf>,
    /// What to measure.
    #[arg(long, value_enum, default_value_t = Workload::Game)]
    pub workload: Workload,
    /// Measure a frame's presentation instead of the tick: extracting and batching N
    /// animated, spinning, textured sprites, headless (`--workload` and the game are unused).
    #[arg(long)]
    pub render: bool,
    /// With `--render`: also draw the sprites in a real window through the renderer (under
    /// Xvfb where there is no display), timing the upload and draw calls and the whole frame.
    #[arg(long, requires = "render")]
    pub window: bool,
    /// Run every pass of the tick on one thread (by default, passes over large archetypes
    /// split between two threads where the machine has them; the results are the same).
    #[arg(long)]
    pub serial: bool,
    /// Smallest entity count of the ladder (1 to 1000000).
    #[arg(long, default_value_t = 1_000, value_parser = ladder())]
    pub from: u32,
    /// Largest entity count (1 to 1000000); the ladder doubles from `--from` up to it.
    #[arg(long, default_value_t = 256_000, value_parser = ladder())]
    pub to: u32,
    /// Measured ticks per step of the ladder (1 to 100000).
    #[arg(long, default_value_t = 120, value_parser = clap::value_parser!(u32).range(1..=MAX_BENCH_TICKS))]
    pub ticks: u32,
    /// Unmeasured ticks before measuring (0 to 100000).
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(0..=MAX_BENCH_TICKS))]
    pub warmup: u32,
    /// The tick budget in milliseconds the report checks against (half a 60 Hz frame), more
    /// than 0 and at most 60000.
    #[arg(long, default_value_t = 8.0, value_parser = budget_ms)]
    pub budget_ms: f64,
    /// Where to write the CSV table.
    #[arg(long, default_value = "bench.csv")]
    pub csv: PathBuf,
    /// Where to write the SVG plot.
    #[arg(long, default_value = "bench.svg")]
    pub svg: PathBuf,
}

/// The most measured (or warm-up) ticks per rung.
const MAX_BENCH_TICKS: i64 = 100_000;

/// The parser of `--from` and `--to`: 1 to [`crate::cli::common::MAX_ENTITIES`].
fn ladder() -> impl clap::builder::TypedValueParser<Value = u32> {
    clap::value_parser!(u32).range(1..=i64::from(crate::cli::common::MAX_ENTITIES))
}

/// The parser of `--budget-ms`: a number of milliseconds in (0, 60000].
fn budget_ms(text: &str) -> Result<f64, String> {
    let v: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("`{text}` is not a number of milliseconds"))?;
    if !(v.is_finite() && v > 0.0 && v <= 60_000.0) {
        return Err(format!(
            "{text} is not in the accepted range: more than 0 and at most 60000 (ms)"
        ));
    }
    Ok(v)
}

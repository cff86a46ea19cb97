//! What the subcommands share: loading a game folder, the clock, option ranges.

use crate::runtime::project::Project;
use std::path::Path;

/// The most ticks one headless run may ask for (`--ticks`).
pub const MAX_TICKS: u64 = 1_000_000_000;

/// The most stress entities `--entities` may add (the game's `limits.entities` may be lower).
pub const MAX_ENTITIES: u32 = 1_000_000;

/// The parser of `--entities`: 0 to [`MAX_ENTITIES`].
pub fn entities() -> impl clap::builder::TypedValueParser<Value = u32> {
    clap::value_parser!(u32).range(0..=i64::from(MAX_ENTITIES))
}

/// Loads a game folder (or, without one, the game this executable carries, else the bundled
/// example), printing diagnostics on failure.
pub fn load(dir: Option<&Path>) -> Result<Project, i32> {
    let loaded = match dir {
        Some(d) => {
            if !d.is_dir() {
                eprintln!(
                    "ludus: {} is not a folder (a game is a folder with a game.toml)",
                    d.display()
                );
                return Err(1);
            }
            Project::from_folder(d)
        }
        None => match crate::cli::carried::embedded() {
            Some(Ok(bundle)) => Project::from_bundle(bundle),
            Some(Err(e)) => Err(format!("ludus: {e}")),
            None => crate::runtime::bundled::project(),
        },
    };
    loaded.map_err(|diagnostics| {
        eprint!("{diagnostics}");
        if !diagnostics.ends_with('\n') {
            eprintln!();
        }
        1
    })
}

/// Monotonic nanoseconds for measurements.
pub use crate::platform::clock_ns as clock;

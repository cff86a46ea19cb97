//! `ludus replay`: feed a recording's inputs and background completions into the same tick
//! function and compare the state hash after every tick; report the first divergence.

use crate::cli::load;
use crate::project::Project;
use ludus_core::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

#[derive(clap::Args, Debug)]
pub struct ReplayArgs {
    /// The recording written by `ludus sim --record`.
    pub recording: PathBuf,
    /// The game folder (default: the folder named in the recording, or the bundled example).
    #[arg(long)]
    pub game: Option<PathBuf>,
    /// Debugging aid: change the score just before this tick, to see a divergence reported.
    #[arg(long, hide = true)]
    pub perturb_tick: Option<u64>,
}

/// The outcome of a replay.
#[derive(Debug, PartialEq)]
pub enum Outcome {
    Identical {
        ticks: usize,
    },
    Diverged {
        segment: usize,
        tick: u64,
        report: String,
    },
}

/// Why a recording does not belong to a game.
pub fn mismatch(header: &RecordingHeader, project: &Project) -> Option<String> {
    let def = &project.def;
    if header.content_hash != def.content_hash {
        return Some(format!(
            "the recording was made with different content (content hash {:016x}; this game's is {:016x}): \
             replay it with the game files it was recorded with",
            header.content_hash, def.content_hash
        ));
    }
    if header.tick != def.tick {
        return Some(format!(
            "the recording's tick policy {:?} differs from the game's {:?}",
            header.tick, def.tick
        ));
    }
    if header.ai != def.ai {
        return Some("the recording's AI cadence differs from the game's".into());
    }
    if header.limits != def.limits {
        return Some("the recording's limits differ from the game's".into());
    }
    None
}

/// Replays `rec` against `project` (whose seed is set from the recording).
pub fn replay(rec: &Recording, project: &Project, perturb: Option<u64>) -> Result<Outcome, String> {
    let project = project.clone().with_seed(rec.header.seed);
    let mut game = project
        .start(rec.header.entities)
        .map_err(|f| format!("the game could not start: {f}"))?;
    game.options_mut().hash = true;
    game.set_completions(Completions::replaying(
        project.def.limits.jobs,
        BTreeMap::new(),
    ));
    let mut total = 0;
    for (si, segment) in rec.segments.iter().enumerate() {
        if si > 0 {
            match game.load(&LoadRequest::Level(segment.level.clone())) {
                LoadStatus::Ready(_) => {}
                LoadStatus::Failed(f) => return Err(format!("segment {}: {f}", si + 1)),
                LoadStatus::Pending => return Err("a level did not load".into()),
            }
        }
        let batches: BTreeMap<u64, Vec<Completion>> = segment
            .ticks
            .iter()
            .filter(|t| !t.completions.is_empty())
            .map(|t| (t.tick, t.completions.clone()))
            .collect();
        game.completions().set_recorded(batches);
        for record in &segment.ticks {
            if perturb == Some(record.tick) {
                game.nudge_score(1);
            }
            let report = match game.step(&record.input) {
                Ok(r) => r,
                Err(f) => {
                    return Ok(Outcome::Diverged {
                        segment: si + 1,
                        tick: record.tick,
                        report: format!("the replay faulted where the recording did not: {f}"),
                    });
                }
            };
            total += 1;
            let hash = report.hash.unwrap_or_default();
            if hash != record.hash || report.tick != record.tick {
                let parts: Vec<&str> = hash
                    .differing_parts(&record.hash)
                    .iter()
                    .map(|p| p.name())
                    .collect();
                let mut text = format!(
                    "state hash {} but the recording has {}; differing: {}",
                    hash.hex(),
                    record.hash.hex(),
                    if parts.is_empty() {
                        "tick number".into()
                    } else {
                        parts.join(", ")
                    }
                );
                if let Some(expected) = &record.detail {
                    let found = entity_values(game.world());
                    if let Some(d) = describe_difference(expected, &found) {
                        text.push_str(&format!("; first difference: {d}"));
                    }
                }
                return Ok(Outcome::Diverged {
                    segment: si + 1,
                    tick: record.tick,
                    report: text,
                });
            }
        }
    }
    Ok(Outcome::Identical { ticks: total })
}

fn read(path: &Path) -> Result<Recording, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    Recording::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))
}

pub fn main(args: ReplayArgs) -> i32 {
    let rec = match read(&args.recording) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("ludus: {e}");
            return 1;
        }
    };
    let dir = args
        .game
        .clone()
        .or_else(|| rec.header.game_dir.as_ref().map(PathBuf::from));
    let project = match load(dir.as_deref()) {
        Ok(p) => p,
        Err(code) => return code,
    };
    if let Some(why) = mismatch(&rec.header, &project) {
        eprintln!(
            "ludus: refusing to replay {}: {why}",
            args.recording.display()
        );
        return 1;
    }
    match replay(&rec, &project, args.perturb_tick) {
        Ok(Outcome::Identical { ticks }) => {
            println!(
                "replayed {ticks} ticks of {}: every state hash matches",
                rec.header.game
            );
            0
        }
        Ok(Outcome::Diverged {
            segment,
            tick,
            report,
        }) => {
            println!("diverged at tick {tick} (segment {segment}): {report}");
            1
        }
        Err(e) => {
            eprintln!("ludus: {e}");
            1
        }
    }
}

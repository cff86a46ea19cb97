//! `ludus replay`: feed a recording's inputs and background completions into the same tick
//! function and compare the state hash after every tick; report the first divergence.

use crate::cli::common::load;
use std::path::PathBuf;

pub use crate::runtime::verify::{Outcome, mismatch, replay};

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

pub fn main(args: ReplayArgs) -> i32 {
    let rec = match crate::cli::files::read_recording(&args.recording) {
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
    if let Some(why) = mismatch(&rec, &project) {
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

//! Named snapshots of a driven run, and restoring one exactly.
//!
//! A snapshot is what it takes to make the state again, not a copy of the state: the run's
//! recording so far (its seed, saved data, levels and every tick's input), what the input left
//! held, and the input file so far. Restoring runs the recording again on a fresh game (as
//! rewind does), so the world, the Lua VMs' own state and the generator are those the ticks
//! made, and the state hash must equal the snapshot's: one that does not is an error, never
//! a silently different world.

use crate::cli::agent::drive::{Driven, InputLog};
use crate::runtime::headless::PerTick;
use crate::runtime::project::Project;
use crate::runtime::rerun::{Checks, Rerun};
use ludus_core::*;
use std::collections::BTreeMap;

/// The most snapshots kept at once.
pub const MAX_SNAPSHOTS: usize = 256;

/// The most memory all snapshots may take together (an estimate per snapshot that bounds its
/// recording and input file from above).
pub const MAX_SNAPSHOT_BYTES: u64 = 512 << 20;

/// The longest snapshot name, in bytes.
pub const MAX_NAME_BYTES: usize = 128;

struct Snapshot {
    recording: Recording,
    held: PerTick,
    steps: u64,
    input: Option<InputLog>,
    tick: u64,
    hash: StateHash,
    bytes: u64,
}

/// The snapshots of one session (see the module documentation). Invariant: at most
/// [`MAX_SNAPSHOTS`] are kept, and their `bytes` add up to at most [`MAX_SNAPSHOT_BYTES`].
#[derive(Default)]
pub struct Snapshots {
    kept: BTreeMap<String, Snapshot>,
    bytes: u64,
}

/// What a snapshot or restore answers: (tick, hash).
pub type Answer = (u64, StateHash);

impl Snapshots {
    /// Keeps the state of `d` as `name` (replacing a snapshot of that name).
    pub fn take(&mut self, name: &str, d: &Driven) -> Result<Answer, String> {
        let Some(recorder) = &d.run.recorder else {
            return Err(format!(
                "cannot snapshot: the run's recording stopped ({})",
                d.run.error.as_deref().unwrap_or("no recording")
            ));
        };
        if d.fault.is_some() {
            return Err("cannot snapshot a faulted run: restore a snapshot, or quit".into());
        }
        let ticks = recorder.recording.total_ticks() as u64;
        let input = d.input.as_ref().map_or(0, |i| i.text.len() as u64);
        let bytes =
            recorder.bytes() + ticks * std::mem::size_of::<TickRecord>() as u64 + input + 1024;
        let replaced = self.kept.get(name).map_or(0, |s| s.bytes);
        if replaced == 0 && self.kept.len() >= MAX_SNAPSHOTS {
            return Err(format!(
                "cannot keep more than {MAX_SNAPSHOTS} snapshots: reuse a name"
            ));
        }
        if self.bytes - replaced + bytes > MAX_SNAPSHOT_BYTES {
            return Err(format!(
                "the snapshots would take more than {} MiB: reuse names, or snapshot shorter runs",
                MAX_SNAPSHOT_BYTES >> 20
            ));
        }
        let world = d.run.game.world();
        let tick = world.tick();
        let hash = d.run.last_hash.unwrap_or_else(|| StateHash::of(world));
        self.bytes = self.bytes - replaced + bytes;
        self.kept.insert(
            name.to_string(),
            Snapshot {
                recording: recorder.recording.clone(),
                held: d.held.clone(),
                steps: d.steps,
                input: d.input.clone(),
                tick,
                hash,
                bytes,
            },
        );
        Ok((tick, hash))
    }

    /// Makes `d` the state of snapshot `name` again, exactly.
    pub fn restore(
        &self,
        name: &str,
        d: &mut Driven,
        project: &Project,
        dir: Option<&str>,
    ) -> Result<Answer, String> {
        let Some(s) = self.kept.get(name) else {
            let known = self.kept.keys().map(String::as_str);
            return Err(match closest(name, known) {
                Some(k) => format!("no snapshot named `{name}` (did you mean `{k}`?)"),
                None if self.kept.is_empty() => format!("no snapshot named `{name}` (none kept)"),
                None => format!("no snapshot named `{name}`"),
            });
        };
        let mut rerun = Rerun::new(s.recording.clone(), project, dir)?.checking(Checks::Same);
        while !rerun.advance(u64::MAX)? {}
        if let Some(f) = &rerun.fault {
            return Err(format!("the snapshot's ticks faulted when run again: {f}"));
        }
        let mut run = rerun.run;
        let world = run.game.world();
        let hash = run.last_hash.unwrap_or_else(|| StateHash::of(world));
        if hash != s.hash || world.tick() != s.tick || rerun.first_difference.is_some() {
            return Err(format!(
                "the snapshot did not run again to the same state (tick {} hash {}, not tick {} \
                 hash {}): the game is not deterministic",
                world.tick(),
                hash.hex(),
                s.tick,
                s.hash.hex()
            ));
        }
        run.log = d.run.log.take();
        run.trace = d.run.trace.take();
        d.run = run;
        d.held = s.held.clone();
        d.steps = s.steps;
        d.input = s.input.clone();
        d.fault = None;
        Ok((s.tick, s.hash))
    }
}

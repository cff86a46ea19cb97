//! Replay verification, shared by `ludus replay` and the browser build's test API: feed a
//! recording's inputs and background completions into the same tick function and compare the
//! state hash after every tick; report the first divergence.

use crate::runtime::builds::{build_size, level_name, too_many_built};
use crate::runtime::project::Project;
use crate::runtime::work::Work;
use ludus_core::*;
use std::collections::BTreeMap;

/// The outcome of a replay.
#[derive(Debug, PartialEq)]
pub enum Outcome {
    Identical {
        ticks: usize,
    },
    /// Every tick matched, and the tick the recording faulted in faulted again, alike.
    Faulted {
        ticks: usize,
        tick: u64,
        message: String,
    },
    Diverged {
        segment: usize,
        tick: u64,
        report: String,
    },
}

/// Why a recording does not belong to a game: different content or policies, or inputs naming
/// actions the game does not declare.
pub fn mismatch(rec: &Recording, project: &Project) -> Option<String> {
    let header = &rec.header;
    let def = &project.def;
    if header.content_hash != def.content_hash {
        return Some(format!(
            "the recording was made with different content (content hash {:016x}; this game's is {:016x}): \
             replay it with the game files it was recorded with",
            header.content_hash, def.content_hash
        ));
    }
    policies(rec, project)
}

/// Why a recording's input cannot run on a game even as a rerun (see `rerun.rs`): inputs
/// naming actions the game does not declare, or more level builds than a replay allows.
pub fn unfit(rec: &Recording, project: &Project) -> Option<String> {
    if rec.header.entities > project.def.limits.max_entities {
        return Some(format!(
            "the recording adds {} stress entities, more than the game's limit of {} entities",
            rec.header.entities, project.def.limits.max_entities
        ));
    }
    inputs_and_builds(rec, project)
}

/// The policies a replay must share with the recording (see [`mismatch`]).
fn policies(rec: &Recording, project: &Project) -> Option<String> {
    let header = &rec.header;
    let def = &project.def;
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
    if header.entities > def.limits.max_entities {
        return Some(format!(
            "the recording adds {} stress entities, more than the game's limit of {} entities",
            header.entities, def.limits.max_entities
        ));
    }
    inputs_and_builds(rec, project)
}

/// Level builds within bounds, and only names the game declares: levels, actions (inputs) and
/// archetypes (the per-entity detail).
fn inputs_and_builds(rec: &Recording, project: &Project) -> Option<String> {
    let header = &rec.header;
    let def = &project.def;
    // Each segment rebuilds a level: its placements and the stress entities.
    let mut built = 0u64;
    for (si, segment) in rec.segments.iter().enumerate() {
        if def.level_index(&segment.level).is_none() {
            let names: Vec<&str> = def.levels.iter().map(|l| l.name.as_str()).collect();
            return Some(format!(
                "segment {} is level `{}`, which the game does not declare (its levels: {})",
                si + 1,
                segment.level,
                names.join(", ")
            ));
        }
        let size = build_size(def, &segment.level, header.entities);
        if let Some(why) = too_many_built(built, size, rec.segments.len()) {
            return Some(why);
        }
        built += size;
    }
    let actions = def.actions.len();
    let declared = if actions >= 64 {
        u64::MAX
    } else {
        (1u64 << actions) - 1
    };
    let archetypes = def.archetypes.len();
    for (si, segment) in rec.segments.iter().enumerate() {
        for t in &segment.ticks {
            let at = |m: String| format!("segment {}, tick {}: {m}", si + 1, t.tick);
            let i = &t.input;
            let buttons = i.held | i.pressed | i.released | i.cancelled;
            if buttons & !declared != 0 || i.axes.len() > actions {
                let used = (64 - (buttons & !declared).leading_zeros() as usize).max(i.axes.len());
                return Some(at(format!(
                    "the input uses action number {used}, but the game declares {actions} action{}",
                    if actions == 1 { "" } else { "s" }
                )));
            }
            let detail = t.detail.iter().flatten();
            if let Some(e) = detail
                .into_iter()
                .find(|e| usize::from(e.archetype) >= archetypes)
            {
                return Some(at(format!(
                    "entity #{} has archetype number {}, but the game declares {archetypes} archetype{}",
                    e.seq,
                    e.archetype,
                    if archetypes == 1 { "" } else { "s" }
                )));
            }
        }
    }
    None
}

/// Replays `rec` against `project` (whose seed is set from the recording).
pub fn replay(rec: &Recording, project: &Project, perturb: Option<u64>) -> Result<Outcome, String> {
    replay_counting(rec, project, perturb, &mut Work::default())
}

/// [`replay`], adding the ticks it runs and the levels it builds (its start included) to
/// `work`: at most one tick per recorded tick (and the recorded fault's), one build per
/// segment and one more where the first segment is not the entry level.
pub fn replay_counting(
    rec: &Recording,
    project: &Project,
    perturb: Option<u64>,
    work: &mut Work,
) -> Result<Outcome, String> {
    replay_timed(rec, project, perturb, work).map(|(outcome, _)| outcome)
}

/// [`replay_counting`], timed: the outcome, and how long the game's start took (its first
/// level built and its scripts started, in nanoseconds), apart from the re-simulation that
/// follows (which `ludus replay` reports in ticks per second).
pub fn replay_timed(
    rec: &Recording,
    project: &Project,
    perturb: Option<u64>,
    work: &mut Work,
) -> Result<(Outcome, u64), String> {
    let project = project.clone().with_seed(rec.header.seed);
    let begun = crate::platform::clock_ns();
    let game = start(rec, &project, work)?;
    let started_ns = crate::platform::clock_ns().saturating_sub(begun);
    Ok((replay_from(game, rec, &project, perturb, work)?, started_ns))
}

/// Replays `rec`'s segments and recorded fault on `game`, started at its first segment (see
/// [`start`]).
fn replay_from(
    mut game: Game,
    rec: &Recording,
    project: &Project,
    perturb: Option<u64>,
    work: &mut Work,
) -> Result<Outcome, String> {
    let mut total = 0;
    for (si, segment) in rec.segments.iter().enumerate() {
        if si > 0
            && let Some(diverged) = load_segment(&mut game, project, si, segment, work)?
        {
            return Ok(diverged);
        }
        if let Some(diverged) = replay_ticks(&mut game, si, segment, perturb, work, &mut total) {
            return Ok(diverged);
        }
    }
    let Some(fault) = &rec.fault else {
        return Ok(Outcome::Identical { ticks: total });
    };
    Ok(replay_fault(
        &mut game,
        fault,
        rec.segments.len(),
        total,
        work,
    ))
}

/// The game a replay of `rec` starts from, at its first segment's level.
fn start(rec: &Recording, project: &Project, work: &mut Work) -> Result<Game, String> {
    work.builds += 1;
    let mut game = project
        .start(rec.header.entities)
        .map_err(|f| format!("the game could not start: {f}"))?;
    // Nothing draws a replay's world: it keeps no interpolation state.
    let options = game.options_mut();
    options.hash = true;
    options.interpolate = false;
    game.set_saved(rec.saved.clone())
        .map_err(|f| format!("the recording's saved data: {f}"))?;
    game.set_completions(Completions::replaying(
        project.def.limits.jobs,
        BTreeMap::new(),
    ));
    // A history that began at a level loaded by name begins there (as a rerun does).
    if let Some(first) = rec.segments.first()
        && first.level != level_name(&game)
    {
        work.builds += 1;
        match game.load(&LoadRequest::Level(first.level.clone())) {
            LoadStatus::Ready(_) => {}
            LoadStatus::Failed(f) => return Err(format!("segment 1: {f}")),
            LoadStatus::Pending => return Err("a level did not load".into()),
        }
    }
    Ok(game)
}

/// Builds the level of segment `si` (after the first): a fresh start, or the switch a
/// script asked for, which the replay's last tick must have asked for too (the divergence
/// where it did not).
fn load_segment(
    game: &mut Game,
    project: &Project,
    si: usize,
    segment: &Segment,
    work: &mut Work,
) -> Result<Option<Outcome>, String> {
    let request = if segment.switched {
        // A script's `load_level`: the replay's last tick must have asked for it too.
        let Some(level) = project.def.level_index(&segment.level) else {
            return Err(format!(
                "segment {}: there is no level named `{}`",
                si + 1,
                segment.level
            ));
        };
        if game.world().next_level() != Some(level) {
            return Ok(Some(Outcome::Diverged {
                segment: si + 1,
                tick: 0,
                report: format!(
                    "the recording switched to level `{}` here, the replay did not",
                    segment.level
                ),
            }));
        }
        LoadRequest::Switch(level)
    } else {
        LoadRequest::Level(segment.level.clone())
    };
    work.builds += 1;
    match game.load(&request) {
        LoadStatus::Ready(_) => Ok(None),
        LoadStatus::Failed(f) => Err(format!("segment {}: {f}", si + 1)),
        LoadStatus::Pending => Err("a level did not load".into()),
    }
}

/// The background results each of `segment`'s ticks applied, by tick (what a replay feeds
/// back).
pub fn recorded_batches(segment: &Segment) -> BTreeMap<u64, Vec<Completion>> {
    segment
        .ticks
        .iter()
        .filter(|t| !t.completions.is_empty())
        .map(|t| (t.tick, t.completions.clone()))
        .collect()
}

/// Runs segment `si`'s recorded ticks, counting in `total` those that matched: the first
/// divergence, if any.
fn replay_ticks(
    game: &mut Game,
    si: usize,
    segment: &Segment,
    perturb: Option<u64>,
    work: &mut Work,
    total: &mut usize,
) -> Option<Outcome> {
    game.completions().set_recorded(recorded_batches(segment));
    for record in &segment.ticks {
        if perturb == Some(record.tick) {
            game.nudge_score(1);
        }
        work.ticks += 1;
        let report = match game.step(&record.input) {
            Ok(r) => r,
            Err(f) => {
                return Some(Outcome::Diverged {
                    segment: si + 1,
                    tick: record.tick,
                    report: format!("the replay faulted where the recording did not: {f}"),
                });
            }
        };
        *total += 1;
        let hash = report.hash.unwrap_or_default();
        // A recording may leave a tick's hash out (all zero: the window does in large
        // worlds, see runtime/history.rs); its tick number is still checked.
        let unrecorded = record.hash == StateHash::default();
        if (hash != record.hash && !unrecorded) || report.tick != record.tick {
            return Some(Outcome::Diverged {
                segment: si + 1,
                tick: record.tick,
                report: difference(game, hash, record),
            });
        }
    }
    None
}

/// What differs between the replay's tick (its state `hash`) and the recorded one: the
/// hash's parts, and the first entity value where the recording holds them.
fn difference(game: &Game, hash: StateHash, record: &TickRecord) -> String {
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
    text
}

/// Runs the tick the recording faulted in (after `total` matching ticks, in its last
/// segment): alike when it faults again with the same message.
fn replay_fault(
    game: &mut Game,
    fault: &RecordedFault,
    segment: usize,
    total: usize,
    work: &mut Work,
) -> Outcome {
    if game.world().tick() + 1 != fault.tick {
        return Outcome::Diverged {
            segment,
            tick: fault.tick,
            report: format!(
                "the recording faulted at tick {}, but the replay's next tick is {}",
                fault.tick,
                game.world().tick() + 1
            ),
        };
    }
    let mut batch = BTreeMap::new();
    if !fault.completions.is_empty() {
        batch.insert(fault.tick, fault.completions.clone());
    }
    game.completions().set_recorded(batch);
    work.ticks += 1;
    match game.step(&fault.input) {
        Err(f) if f.message.starts_with(&fault.message) => Outcome::Faulted {
            ticks: total,
            tick: fault.tick,
            message: fault.message.clone(),
        },
        Err(f) => Outcome::Diverged {
            segment,
            tick: fault.tick,
            report: format!(
                "the recording faulted with \"{}\", the replay with \"{}\"",
                fault.message, f.message
            ),
        },
        Ok(_) => Outcome::Diverged {
            segment,
            tick: fault.tick,
            report: format!(
                "the recording faulted here (\"{}\"), the replay did not",
                fault.message
            ),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::headless::{header, headless_run};

    #[test]
    fn a_history_that_began_at_another_level_replays_from_that_level() {
        // The window's history after a level loaded by name begins there, not at the entry.
        let project = crate::runtime::fuzz::tiny();
        let mut d = headless_run(&project, 0).unwrap();
        d.build(&LoadRequest::Level("b".into())).unwrap();
        d.start_recording(header(&project, None, 0), false);
        assert!(d.run_input(Vec::new(), 5).is_none());
        let rec = d.recording().unwrap().clone();
        assert_eq!(rec.segments[0].level, "b");
        assert_eq!(mismatch(&rec, &project), None);
        let mut work = Work::default();
        assert_eq!(
            replay_counting(&rec, &project, None, &mut work),
            Ok(Outcome::Identical { ticks: 5 })
        );
        assert_eq!(
            work,
            Work {
                ticks: 5,
                builds: 2
            },
            "the start, then level b"
        );
        // Where the recording names a level the game lacks, it is refused before it runs.
        let mut nowhere = rec.clone();
        nowhere.segments[0].level = "nowhere".into();
        assert_eq!(
            mismatch(&nowhere, &project).as_deref(),
            Some(
                "segment 1 is level `nowhere`, which the game does not declare (its levels: a, b)"
            )
        );
    }
}

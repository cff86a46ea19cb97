//! What a run builds: the level a game is at and the entities its build made, and the bound
//! on what a replay may build (a recording's few bytes per segment cannot ask for minutes of
//! building), which recording, replaying, rerunning and rewinding all count against.

use ludus_core::*;

/// The most entities a replay builds over all its level activations (placements and stress
/// entities, per segment), so that a few bytes per segment cannot ask for minutes of building.
/// `ludus sim --record` stops recording before a run passes it.
pub const MAX_REPLAY_BUILT: u64 = 10_000_000;

/// The entities a build of level `level` of `def` makes: its placements and `stress` entities.
pub fn build_size(def: &GameDef, level: &str, stress: u32) -> u64 {
    let placed = def
        .level_index(level)
        .and_then(|i| def.levels.get(i))
        .map_or(0, |l| l.placements.len() as u64);
    placed + u64::from(stress)
}

/// Why a build of `more` entities cannot join `built` already built (see [`MAX_REPLAY_BUILT`]).
pub fn too_many_built(built: u64, more: u64, activations: usize) -> Option<String> {
    let total = built.saturating_add(more);
    (total > MAX_REPLAY_BUILT).then(|| {
        format!(
            "its {activations} level activation{} would build {total} entities; a replay builds at most {MAX_REPLAY_BUILT}",
            if activations == 1 { "" } else { "s" }
        )
    })
}

/// The name of `game`'s current level (empty for none).
pub fn level_name(game: &Game) -> String {
    game.world()
        .level_def(game.def())
        .map(|l| l.name.clone())
        .unwrap_or_default()
}

/// The name of `game`'s current level and the entities its build made (as a replay counts
/// them: placements and stress entities).
pub fn level_build(game: &Game) -> (String, u64) {
    let level = level_name(game);
    let built = build_size(game.def(), &level, game.extra_entities());
    (level, built)
}

/// What rerunning `without_last(rec, n)` costs at most: the ticks it keeps, and its level
/// builds: the rerun's start, one per segment after the first, and one for the first where it
/// is not the entry level (counted whatever it is).
pub fn rewind_cost(rec: &Recording, n: u64) -> (u64, u64) {
    let total = rec.total_ticks() as u64;
    let mut left = n.min(total);
    let mut segments = rec.segments.len() as u64;
    for s in rec.segments.iter().rev() {
        let len = s.ticks.len() as u64;
        if left == 0 || left < len || segments <= 1 {
            break;
        }
        left -= len;
        segments -= 1;
    }
    (total - n.min(total), segments.max(1) + 1)
}

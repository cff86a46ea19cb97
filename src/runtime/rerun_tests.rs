//! A re-simulation keeps no interpolation state before its last tick, and ends on the world a
//! window draws after playing every tick: the same hashes on every tick, and the same current
//! and previous transforms at the end.

use crate::runtime::frames::{Format, parse};
use crate::runtime::headless::{HeadlessRun, header, headless_run};
use crate::runtime::project::Project;
use crate::runtime::rerun::Rerun;
use ludus_core::*;
use std::path::Path;

/// Every entity's sequence, position, previous position, and angle and previous angle, as bits.
type Transform = (u64, [u32; 4], Option<[u32; 2]>);

fn transforms(world: &SimWorld) -> Vec<Transform> {
    let mut all: Vec<Transform> = world
        .ecs()
        .query::<(&Identity, &Position, &PrevPosition, Option<&Rotation>)>()
        .iter()
        .map(|(id, p, q, r)| {
            let place = [p.0.x, p.0.y, q.0.x, q.0.y].map(f32::to_bits);
            (
                id.seq(),
                place,
                r.map(|r| [r.angle, r.prev].map(f32::to_bits)),
            )
        })
        .collect();
    all.sort_by_key(|t| t.0);
    all
}

/// The bundled `game`'s test input `case`, played for `ticks` steps with a recording.
fn played(game: &str, case: &str, ticks: u64) -> (Project, HeadlessRun) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples")
        .join(game);
    let project = Project::from_folder(&dir).unwrap();
    let path = dir.join("tests").join(format!("{case}.jsonl"));
    let text = std::fs::read_to_string(&path).unwrap();
    let lines = parse(&path.to_string_lossy(), &text, Format::Input, &project.def).unwrap();
    let mut run = headless_run(&project, 0).unwrap();
    run.start_recording(header(&project, None, 0), false);
    assert!(run.run_input(lines, ticks).is_none(), "{game} plays");
    (project, run)
}

#[test]
fn a_rerun_ends_on_the_played_worlds_transforms_and_keeps_none_before() {
    // Wrapping and turning ships, attached weapons, bouncing balls, a running player.
    for (game, case) in [
        ("asteroids", "win"),
        ("dungeon", "clear"),
        ("breakout", "win"),
        ("platformer", "win"),
    ] {
        let (project, run) = played(game, case, 240);
        let rec = run.recording().unwrap().clone();
        assert!(rec.total_ticks() > 200, "{game}: {}", rec.total_ticks());
        let mut rerun = Rerun::new(rec, &project, None).unwrap();
        assert!(!rerun.advance(100).unwrap());
        assert!(
            !rerun.run.game.options_mut().interpolate,
            "{game}: no interpolation state mid-way"
        );
        assert!(rerun.advance(u64::MAX).unwrap());
        assert_eq!(rerun.first_difference, None, "{game}: every tick's hash");
        assert!(rerun.fault.is_none(), "{game}");
        assert!(rerun.run.game.options_mut().interpolate, "{game}: on again");
        let (want, got) = (
            transforms(run.game.world()),
            transforms(rerun.run.game.world()),
        );
        assert!(
            want.iter().any(|(_, p, _)| p[..2] != p[2..]),
            "{game}: something moved in the last tick"
        );
        assert_eq!(got, want, "{game}: the transforms a window draws");
    }
}

#[test]
fn a_world_settled_is_at_rest() {
    let (_, mut run) = played("asteroids", "win", 120);
    run.game.settle_previous();
    let all = transforms(run.game.world());
    assert!(!all.is_empty());
    for (seq, p, r) in all {
        assert_eq!(p[..2], p[2..], "#{seq}");
        if let Some(r) = r {
            assert_eq!(r[0], r[1], "#{seq}");
        }
    }
}

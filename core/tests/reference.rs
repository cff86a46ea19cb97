//! The hand-written references against the tick: started from a game's built world, each must
//! give the same contact counts and the same bits of every body's position and velocity as the
//! game, tick after tick. A run with one body nudged shows the comparison catches a difference
//! at the tick it happens.

use ludus_core::reference::{Bumps, Counts, Crowd, Drones, crowd_def, drones_def, hash_bodies};
use ludus_core::*;
use std::sync::Arc;

const TICKS: u64 = 120;

/// A reference as the comparison drives it.
trait Reference {
    fn step(&mut self) -> Counts;
    fn hash(&self) -> u64;
    fn seqs(&self) -> &[u64];
    /// Per body health, where the reference keeps it.
    fn health(&self) -> Option<&[i32]> {
        None
    }
}

impl Reference for Drones {
    fn step(&mut self) -> Counts {
        Drones::step(self)
    }
    fn hash(&self) -> u64 {
        Drones::hash(self)
    }
    fn seqs(&self) -> &[u64] {
        Drones::seqs(self)
    }
}

impl Reference for Crowd {
    fn step(&mut self) -> Counts {
        Crowd::step(self)
    }
    fn hash(&self) -> u64 {
        Crowd::hash(self)
    }
    fn seqs(&self) -> &[u64] {
        Crowd::seqs(self)
    }
    fn health(&self) -> Option<&[i32]> {
        Some(Crowd::health(self))
    }
}

/// Other consequences, plus a teleport of `seq` by one unit at tick `at`.
struct Nudge {
    inner: Box<dyn Consequences>,
    at: u64,
    seq: u64,
}

impl Consequences for Nudge {
    fn stage(&mut self, stage: Stage, g: &mut Gameplay<'_>) -> Result<(), Fault> {
        self.inner.stage(stage, g)?;
        if stage == Stage::One && g.tick() == self.at {
            let pos = g.pos(self.seq).expect("the nudged body lives") + Vec2::new(1.0, 0.0);
            g.send(Command::Teleport {
                target: self.seq,
                pos,
            })
            .map_err(CommandError::into_fault)?;
        }
        Ok(())
    }
}

/// The health of bodies `seqs` (ascending), from one pass over the world.
fn health_of(world: &SimWorld, seqs: &[u64]) -> Vec<i32> {
    let mut q = world.ecs().query::<(&Identity, &Health)>();
    let mut all: Vec<(u64, i32)> = q.iter().map(|(id, h)| (id.seq(), h.current)).collect();
    all.sort_unstable();
    let mut all = all.into_iter().peekable();
    seqs.iter()
        .map(|&s| {
            while all.next_if(|b| b.0 < s).is_some() {}
            all.next_if(|b| b.0 == s)
                .map(|b| b.1)
                .unwrap_or_else(|| panic!("body {s} lives and has health"))
        })
        .collect()
}

/// Steps the game and the reference side by side; the first tick where they differ and how.
/// Returns the contact counts summed over the run.
fn compare(game: &mut Game, r: &mut dyn Reference, ticks: u64) -> Result<Counts, (u64, String)> {
    let start = game.world().tick();
    let same = |game: &Game, r: &dyn Reference, counts: Option<(Counts, Counts)>| {
        if let Some((ludus, by_hand)) = counts
            && ludus != by_hand
        {
            return Err(format!("counts: tick {ludus:?}, reference {by_hand:?}"));
        }
        if hash_bodies(game.world(), r.seqs()) != r.hash() {
            return Err("positions or velocities differ".to_string());
        }
        if let Some(h) = r.health()
            && health_of(game.world(), r.seqs()) != h
        {
            return Err("health differs".to_string());
        }
        Ok(())
    };
    same(game, r, None).map_err(|e| (start, e))?;
    let mut total = Counts::default();
    for t in start + 1..=start + ticks {
        game.step(&TickInput::neutral())
            .map_err(|f| (t, format!("the tick faulted: {f}")))?;
        let ludus = Counts::of(game.events());
        let by_hand = r.step();
        same(game, r, Some((ludus, by_hand))).map_err(|e| (t, e))?;
        total.enter += ludus.enter;
        total.stay += ludus.stay;
        total.exit += ludus.exit;
    }
    Ok(total)
}

fn drones(n: u32, consequences: Box<dyn Consequences>) -> (Game, Drones) {
    let game = Game::with_entities(Arc::new(drones_def()), consequences, n).expect("a game");
    let drones = Drones::from_world(game.world(), game.def());
    assert_eq!(drones.len(), n as usize, "every stress entity is a drone");
    (game, drones)
}

fn crowd(n: u32, push: bool, consequences: Box<dyn Consequences>) -> (Game, Crowd) {
    let game = Game::with_entities(Arc::new(crowd_def(n, push)), consequences, n).expect("a game");
    let crowd = Crowd::from_world(game.world(), game.def());
    assert_eq!(crowd.len(), n as usize, "every stress entity is a body");
    (game, crowd)
}

fn drones_match(n: u32) {
    let (mut game, mut r) = drones(n, Box::new(NoConsequences));
    let total = compare(&mut game, &mut r, TICKS)
        .unwrap_or_else(|(t, e)| panic!("{n} drones differ at tick {t}: {e}"));
    assert!(
        total.enter > 0 && total.stay > 0 && total.exit > 0,
        "{n} drones touch the player, stay and leave: {total:?}"
    );
}

fn crowd_matches(n: u32, push: bool) {
    let (mut game, mut r) = crowd(n, push, Box::new(Bumps));
    let total = compare(&mut game, &mut r, TICKS)
        .unwrap_or_else(|(t, e)| panic!("crowd of {n} (push {push}) differs at tick {t}: {e}"));
    assert!(
        total.enter > 0 && total.exit > 0,
        "bodies of a crowd of {n} meet and part: {total:?}"
    );
}

#[test]
fn drones_match_the_tick_at_1k() {
    drones_match(1_000);
}

#[test]
fn drones_match_the_tick_at_16k() {
    drones_match(16_000);
}

#[test]
fn crowd_matches_the_tick_at_1k() {
    crowd_matches(1_000, false);
}

#[test]
fn crowd_matches_the_tick_at_16k() {
    crowd_matches(16_000, false);
}

#[test]
fn pushing_crowd_matches_the_tick_at_1k() {
    crowd_matches(1_000, true);
}

#[test]
fn pushing_crowd_matches_the_tick_at_16k() {
    crowd_matches(16_000, true);
}

#[test]
fn the_pushing_crowd_is_pushed_apart() {
    let (_, mut plain) = crowd(1_000, false, Box::new(NoConsequences));
    let (_, mut pushing) = crowd(1_000, true, Box::new(NoConsequences));
    assert_eq!(
        plain.hash(),
        pushing.hash(),
        "both start from the same places"
    );
    for _ in 0..TICKS {
        plain.step();
        pushing.step();
    }
    assert_ne!(plain.hash(), pushing.hash(), "pushes move bodies");
}

#[test]
fn drones_match_the_tick_with_two_players_to_chase() {
    let mut def = drones_def();
    let player = def.levels[0].placements[0].clone();
    def.levels[0].placements.push(Placement {
        pos: Vec2::new(300.0, -200.0),
        ..player
    });
    let mut game =
        Game::with_entities(Arc::new(def), Box::new(NoConsequences), 4_000).expect("a game");
    let mut r = Drones::from_world(game.world(), game.def());
    let total = compare(&mut game, &mut r, TICKS)
        .unwrap_or_else(|(t, e)| panic!("drones of two players differ at tick {t}: {e}"));
    assert!(total.enter > 0, "drones touch the players: {total:?}");
}

#[test]
fn a_nudged_drone_is_reported_at_the_tick_it_moved() {
    let nudge = Nudge {
        inner: Box::new(NoConsequences),
        at: 40,
        seq: 7,
    };
    let (mut game, mut r) = drones(1_000, Box::new(nudge));
    let (tick, what) = compare(&mut game, &mut r, 60).expect_err("a nudged run differs");
    assert_eq!(
        (tick, what.as_str()),
        (40, "positions or velocities differ")
    );
}

#[test]
fn a_nudged_body_in_a_pushing_crowd_is_reported_at_the_tick_it_moved() {
    let nudge = Nudge {
        inner: Box::new(Bumps),
        at: 25,
        seq: 300,
    };
    let (mut game, mut r) = crowd(1_000, true, Box::new(nudge));
    let (tick, what) = compare(&mut game, &mut r, 60).expect_err("a nudged run differs");
    assert_eq!(
        (tick, what.as_str()),
        (25, "positions or velocities differ")
    );
}

/// Median milliseconds per tick of the game and of the reference, each timed in a run of its
/// own (as a benchmark would, so neither finds its data evicted by the other).
fn time(game: &mut Game, step: &mut dyn FnMut() -> Counts, ticks: usize) -> (f64, f64) {
    let median = |f: &mut dyn FnMut()| {
        let mut times: Vec<f64> = (0..ticks)
            .map(|_| {
                let clock = std::time::Instant::now();
                f();
                clock.elapsed().as_secs_f64() * 1e3
            })
            .collect();
        times.sort_by(f64::total_cmp);
        times[ticks / 2]
    };
    let ludus = median(&mut || {
        game.step(&TickInput::neutral()).expect("a tick");
    });
    let by_hand = median(&mut || {
        std::hint::black_box(step());
    });
    (ludus, by_hand)
}

/// Timings at scale, to read rather than to check:
/// `cargo test -p ludus-core --release --test reference -- --ignored --nocapture`.
#[test]
#[ignore = "a measurement; run it in release"]
fn timings_at_scale() {
    let report = |name: &str, (ludus, by_hand): (f64, f64)| {
        println!(
            "{name}: tick {ludus:.3} ms, by hand {by_hand:.3} ms, ratio {:.1}",
            ludus / by_hand
        );
    };
    let (mut game, mut r) = drones(256_000, Box::new(NoConsequences));
    report("256k drones", time(&mut game, &mut || r.step(), 60));
    for push in [false, true] {
        let (mut game, mut r) = crowd(100_000, push, Box::new(Bumps));
        report(
            &format!("100k crowd, push {push}"),
            time(&mut game, &mut || r.step(), 60),
        );
    }
}

/// The bench's crowd raises the limits it fills with its count: at 256k bodies the first
/// tick's new contacts ask for more damage commands than the default `[limits] commands`, and
/// the tick still runs, and matches the reference.
#[test]
fn the_crowd_raises_the_limits_its_count_fills() {
    let n = 256_000;
    let (mut game, mut r) = crowd(n, true, Box::new(Bumps));
    let total = compare(&mut game, &mut r, 1)
        .unwrap_or_else(|(t, e)| panic!("crowd of {n} differs at tick {t}: {e}"));
    assert!(
        total.enter * 2 > Limits::DEFAULT.commands_per_tick as usize,
        "the first tick's contacts exceed the default commands: {total:?}"
    );
    assert!(game.def().limits.commands_per_tick >= 2 * n);
}

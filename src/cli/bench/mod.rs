//! `ludus bench`: tick cost of a workload at a ladder of entity counts, next to the same work
//! written by hand ([`ludus_core::reference`]) and a raw hecs loop of bare motion, in the same
//! process, as a table, a CSV file and an SVG plot (see `report`).

mod args;
mod memory;
mod render;
mod report;
pub mod scene;
mod timing;

pub use args::{BenchArgs, Workload};

use crate::cli::common::{clock, load};
use crate::runtime::bench::Timing;
use crate::runtime::project::Project;
use ludus_core::reference::{Bumps, Counts, Crowd, Drones, crowd_def};
use ludus_core::*;
use report::{Row, csv, svg, table};
use std::sync::Arc;
use timing::{Steps, median_of};

#[derive(Clone, Copy)]
struct Pos(Vec2);
#[derive(Clone, Copy)]
struct Vel(Vec2);

/// The reference: a hand-written hecs loop integrating the same number of bodies.
fn raw_hecs(n: u32, ticks: u32, warmup: u32, dt: f32) -> f64 {
    let mut world = hecs::World::new();
    let mut rng = fastrand::Rng::with_seed(7);
    world.spawn_batch((0..n).map(|_| {
        (
            Pos(Vec2::new(rng.f32() * 1000.0, rng.f32() * 1000.0)),
            Vel(Vec2::new(rng.f32() - 0.5, rng.f32() - 0.5) * 60.0),
        )
    }));
    median_of(ticks, warmup, || {
        world
            .query_mut::<(&mut Pos, &Vel)>()
            .into_iter()
            .for_each(|(p, v)| p.0 += v.0 * dt);
    })
}

/// A hand-written reference of a workload (see [`ludus_core::reference`]).
enum Reference {
    Drones(Box<Drones>),
    Crowd(Box<Crowd>),
}

impl Reference {
    fn step(&mut self) -> Counts {
        match self {
            Reference::Drones(r) => r.step(),
            Reference::Crowd(r) => r.step(),
        }
    }

    /// The same reference splitting its passes between two threads as the tick does, where
    /// one is written that way (the drones).
    fn split(&self) -> Option<Reference> {
        match self {
            Reference::Drones(r) => {
                Some(Reference::Drones(Box::new((**r).clone().with_split(true))))
            }
            Reference::Crowd(_) => None,
        }
    }
}

/// The game of one rung, and its reference when one models it with the heap bytes it holds.
fn setup(
    workload: Workload,
    project: Option<&Project>,
    n: u32,
) -> Result<(Game, Option<(Reference, usize)>), Fault> {
    let (game, reference) = build(workload, project, n)?;
    let mark = memory::live();
    let reference = reference(&game).map(|r| (r, memory::live().saturating_sub(mark)));
    Ok((game, reference))
}

/// The game of one rung, and how to build its reference beside it.
#[allow(clippy::type_complexity)]
fn build(
    workload: Workload,
    project: Option<&Project>,
    n: u32,
) -> Result<(Game, fn(&Game) -> Option<Reference>), Fault> {
    match (workload, project) {
        (Workload::Crowd, _) => {
            let game = Game::with_entities(Arc::new(crowd_def(n, true)), Box::new(Bumps), n)?;
            Ok((game, |game| {
                let crowd = Crowd::from_world(game.world(), game.def());
                Some(Reference::Crowd(Box::new(crowd)))
            }))
        }
        (Workload::Game, Some(project)) => {
            let project = &crate::runtime::bench::with_room(project, n);
            let host = project.host()?.with_clock(Box::new(clock));
            let game = Game::with_entities(project.def.clone(), Box::new(host), n)?;
            Ok((game, |game| {
                let drones = quietly(|| Drones::beside(game.world(), game.def()));
                drones.map(|d| Reference::Drones(Box::new(d)))
            }))
        }
        (Workload::Game, None) => Err(Fault::new(FaultKind::Load, "no game folder")),
    }
}

/// `f()`, or `None` where it panics (a reference refuses a world it does not model), without
/// printing the panic.
fn quietly<T>(f: impl FnOnce() -> T) -> Option<T> {
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let out = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).ok();
    std::panic::set_hook(hook);
    out
}

/// Ticks each side runs before the other takes its turn. The game's ticks and the loops' by
/// hand alternate in stretches of this many, so that a shared machine's load, which drifts
/// over seconds, weighs on both alike: run one after the other, the two medians of one rung
/// could differ by half with no change in either. A stretch's first tick finds the caches as
/// the other side left them; the median of the stretches' ticks does not see it.
const STRETCH: u32 = 10;

/// Measures one rung: the game's ticks and its reference's as many (on one thread, then split
/// as the tick splits where the tick may), alternating in stretches ([`STRETCH`]), then raw
/// hecs motion. Memory is the live heap the game holds after its ticks, and the reference's,
/// over the game's entities. `Err`: what stopped the rung (a fault, or a game that ended
/// before any measured tick).
pub fn measure(
    workload: Workload,
    project: Option<&Project>,
    n: u32,
    (ticks, warmup): (u32, u32),
    serial: bool,
) -> Result<Row, String> {
    let faulted = |f: Fault| format!("the game faulted at {n} entities: {f}");
    let before = memory::live();
    let (mut game, reference) = setup(workload, project, n).map_err(faulted)?;
    let (reference, reference_bytes) = reference.unzip();
    game.options_mut().serial = serial;
    let dt = game.def().tick.tick_seconds();
    // The heap the game holds: what its setup left, and what its ticks add (counted around
    // them, the references running in between).
    let mut game_bytes =
        memory::live().saturating_sub(before) as i64 - reference_bytes.unwrap_or(0) as i64;
    let split = reference
        .as_ref()
        .filter(|_| !serial)
        .and_then(Reference::split);
    let mut timing = Timing::new(&mut game, clock, ticks);
    let mut run = |timing: &mut Timing<'_>, k: u32, measured: bool| {
        let mark = memory::live() as i64;
        let ran = timing.run(k, measured).map_err(faulted);
        game_bytes += memory::live() as i64 - mark;
        ran
    };
    run(&mut timing, warmup, false)?;
    // The references, in order: on one thread, then split.
    let mut references: Vec<_> = [reference, split]
        .into_iter()
        .flatten()
        .map(|mut r| {
            Steps::new(warmup, ticks, move || {
                std::hint::black_box(r.step());
            })
        })
        .collect();
    let mut measured = 0;
    while measured < ticks {
        let stretch = STRETCH.min(ticks - measured);
        // The references run as many ticks as the game could be measured for.
        let ran = run(&mut timing, stretch, true)?;
        for r in &mut references {
            r.run(ran);
        }
        measured += ran;
        if ran < stretch {
            break;
        }
    }
    let times = timing.finish();
    if let Some(why) = times.none_measured(warmup) {
        return Err(why);
    }
    let mut medians = references.into_iter().map(Steps::median);
    let (reference_ms, split_ms) = (medians.next(), medians.next());
    let median = times.median_ms();
    let entities = times.entities.max(1);
    drop(game);
    let raw = raw_hecs(entities as u32, times.sorted_ms.len() as u32, warmup, dt);
    let per = |bytes: usize| bytes as f64 / entities as f64;
    Ok(Row {
        entities: entities as u32,
        median_ms: median,
        mean_ms: times.mean_ms(),
        p99_ms: times.percentile(0.99),
        ticks_per_second: 1000.0 / median.max(1e-9),
        ns_per_entity: median * 1e6 / entities as f64,
        frame_share: median / (1000.0 / 60.0),
        script_share: times.script_ns as f64 / (times.total_ms * 1e6).max(1.0),
        reference_ms,
        split_reference_ms: split_ms,
        raw_median_ms: raw,
        bytes_per_entity: per(game_bytes.max(0) as usize),
        reference_bytes_per_entity: reference_bytes.map(per),
        measured_ticks: times.sorted_ms.len(),
        ended: times.ended.clone(),
    })
}

pub fn main(args: BenchArgs) -> i32 {
    if args.to < args.from {
        eprintln!(
            "ludus: the ladder needs --from ({}) <= --to ({})",
            args.from, args.to
        );
        return 2;
    }
    let mut ladder = Vec::new();
    let mut n = args.from;
    while n <= args.to {
        ladder.push(n);
        match n.checked_mul(2) {
            Some(next) => n = next,
            None => break,
        }
    }
    if args.render {
        return render::main(&args, &ladder);
    }
    let project = match args.workload {
        Workload::Crowd => None,
        Workload::Game => match load(args.game_dir.as_deref()) {
            Ok(p) => Some(p),
            Err(code) => return code,
        },
    };
    if let Some(project) = &project
        && project.def.stress.is_none()
    {
        eprintln!(
            "ludus: {}: {}",
            project.label,
            project.def.no_stress("the bench")
        );
        return 1;
    }

    let mut rows = Vec::new();
    for (i, n) in ladder.iter().enumerate() {
        let done = i * 30 / ladder.len();
        eprint!(
            "\r[{}{}] {}/{}  {} entities ",
            "#".repeat(done),
            " ".repeat(30 - done),
            i,
            ladder.len(),
            n
        );
        let counts = (args.ticks, args.warmup);
        match measure(args.workload, project.as_ref(), *n, counts, args.serial) {
            Ok(r) => rows.push(r),
            Err(f) => {
                eprintln!("\nludus: {f}");
                break;
            }
        }
    }
    eprintln!(
        "\r[{}] {}/{} done{}",
        "#".repeat(30),
        rows.len(),
        ladder.len(),
        " ".repeat(20)
    );
    if rows.is_empty() {
        // The line above names what stopped the first rung (a limit to raise, a script, a
        // game that ended during the warm-up).
        eprintln!("ludus: no count of the ladder was measured");
        return 1;
    }
    print!("{}", table(&rows));
    let fits = rows
        .iter()
        .filter(|r| r.median_ms <= args.budget_ms)
        .map(|r| r.entities)
        .max();
    match fits {
        Some(n) => println!(
            "largest count whose median tick fits {} ms: {n}",
            args.budget_ms
        ),
        None => println!("no count's median tick fits {} ms", args.budget_ms),
    }
    let name = project
        .as_ref()
        .map_or("Pushing crowd", |p| p.def.name.as_str());
    let title = format!("{name}: tick time against entity count");
    for (path, text) in [
        (&args.csv, csv(&rows)),
        (&args.svg, svg(&rows, args.budget_ms, &title)),
    ] {
        if let Err(e) = std::fs::write(path, text) {
            eprintln!("ludus: cannot write {}: {e}", path.display());
            return 1;
        }
    }
    println!("wrote {} and {}", args.csv.display(), args.svg.display());
    0
}

//! `ludus bench`: tick cost of a workload at a ladder of entity counts, next to the same work
//! written by hand ([`ludus_core::reference`]) and a raw hecs loop of bare motion, in the same
//! process, as a table, a CSV file and an SVG plot (see `report`).

mod args;
mod render;
mod report;
pub mod scene;
mod timing;

pub use args::{BenchArgs, Workload};

use crate::cli::common::{clock, load};
use crate::runtime::project::Project;
use ludus_core::reference::{Bumps, Counts, Crowd, Drones, crowd_def};
use ludus_core::*;
use report::{Row, csv, svg, table};
use std::sync::Arc;
use timing::{median_of, percentile};

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
}

/// The game of one rung, and its reference when one models it.
fn setup(
    workload: Workload,
    project: Option<&Project>,
    n: u32,
) -> Result<(Game, Option<Reference>), Fault> {
    match (workload, project) {
        (Workload::Crowd, _) => {
            let game = Game::with_entities(Arc::new(crowd_def(n, true)), Box::new(Bumps), n)?;
            let crowd = Crowd::from_world(game.world(), game.def());
            Ok((game, Some(Reference::Crowd(Box::new(crowd)))))
        }
        (Workload::Game, Some(project)) => {
            let host = project.host()?.with_clock(Box::new(clock));
            let game = Game::with_entities(project.def.clone(), Box::new(host), n)?;
            let drones = quietly(|| Drones::beside(game.world(), game.def()));
            Ok((game, drones.map(|d| Reference::Drones(Box::new(d)))))
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

/// Measures one rung: the game's ticks, then its reference's as many, then raw hecs motion.
pub fn measure(
    workload: Workload,
    project: Option<&Project>,
    n: u32,
    (ticks, warmup): (u32, u32),
    serial: bool,
) -> Result<Row, Fault> {
    let (mut game, mut reference) = setup(workload, project, n)?;
    game.options_mut().serial = serial;
    let mut times = Vec::with_capacity(ticks as usize);
    let mut script_ns = 0u64;
    let mut total_ns = 0u64;
    for i in 0..warmup + ticks {
        let start = clock();
        game.step(&TickInput::neutral())?;
        let ns = clock().saturating_sub(start);
        if i >= warmup {
            times.push(ns as f64 / 1e6);
            total_ns += ns;
            script_ns += game.consequences().last_tick_ns().unwrap_or(0);
        }
    }
    times.sort_by(f64::total_cmp);
    let median = percentile(&times, 0.5);
    let entities = game.world().entity_count().max(1);
    let dt = game.def().tick.tick_seconds();
    drop(game);
    let reference_ms = reference.as_mut().map(|r| {
        median_of(ticks, warmup, || {
            std::hint::black_box(r.step());
        })
    });
    let raw = raw_hecs(entities as u32, ticks, warmup, dt);
    Ok(Row {
        entities: entities as u32,
        median_ms: median,
        p99_ms: percentile(&times, 0.99),
        ticks_per_second: 1000.0 / median.max(1e-9),
        ns_per_entity: median * 1e6 / entities as f64,
        frame_share: median / (1000.0 / 60.0),
        script_share: script_ns as f64 / total_ns.max(1) as f64,
        reference_ms,
        raw_median_ms: raw,
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
            "ludus: {} declares no [stress] archetype to fill the ladder with",
            project.label
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
                eprintln!("\nludus: the game faulted at {n} entities: {f}");
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

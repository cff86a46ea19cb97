//! `ludus bench`: tick cost of a game at a ladder of entity counts, next to a raw hecs loop of
//! the same motion in the same process, as a table, a CSV file and an SVG plot.

use crate::cli::common::{clock, load};
use crate::runtime::project::Project;
use ludus_core::*;
use std::fmt::Write as _;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// The game folder (it must declare a [stress] archetype); the bundled example by default.
    pub game_dir: Option<PathBuf>,
    /// Smallest entity count of the ladder (1 to 1000000).
    #[arg(long, default_value_t = 1_000, value_parser = ladder())]
    pub from: u32,
    /// Largest entity count (1 to 1000000); the ladder doubles from `--from` up to it.
    #[arg(long, default_value_t = 256_000, value_parser = ladder())]
    pub to: u32,
    /// Measured ticks per step of the ladder (1 to 100000).
    #[arg(long, default_value_t = 120, value_parser = clap::value_parser!(u32).range(1..=MAX_BENCH_TICKS))]
    pub ticks: u32,
    /// Unmeasured ticks before measuring (0 to 100000).
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(0..=MAX_BENCH_TICKS))]
    pub warmup: u32,
    /// The tick budget in milliseconds the report checks against (half a 60 Hz frame), more
    /// than 0 and at most 60000.
    #[arg(long, default_value_t = 8.0, value_parser = budget_ms)]
    pub budget_ms: f64,
    /// Where to write the CSV table.
    #[arg(long, default_value = "bench.csv")]
    pub csv: PathBuf,
    /// Where to write the SVG plot.
    #[arg(long, default_value = "bench.svg")]
    pub svg: PathBuf,
}

/// The most measured (or warm-up) ticks per rung.
const MAX_BENCH_TICKS: i64 = 100_000;

/// The parser of `--from` and `--to`: 1 to [`crate::cli::common::MAX_ENTITIES`].
fn ladder() -> impl clap::builder::TypedValueParser<Value = u32> {
    clap::value_parser!(u32).range(1..=i64::from(crate::cli::common::MAX_ENTITIES))
}

/// The parser of `--budget-ms`: a number of milliseconds in (0, 60000].
fn budget_ms(text: &str) -> Result<f64, String> {
    let v: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("`{text}` is not a number of milliseconds"))?;
    if !(v.is_finite() && v > 0.0 && v <= 60_000.0) {
        return Err(format!(
            "{text} is not in the accepted range: more than 0 and at most 60000 (ms)"
        ));
    }
    Ok(v)
}

/// One rung of the ladder.
#[derive(Clone, Debug)]
pub struct Row {
    pub entities: u32,
    pub median_ms: f64,
    pub p99_ms: f64,
    pub ticks_per_second: f64,
    pub ns_per_entity: f64,
    pub frame_share: f64,
    pub script_share: f64,
    pub raw_median_ms: f64,
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

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
    let mut times = Vec::with_capacity(ticks as usize);
    for i in 0..warmup + ticks {
        let start = clock();
        world
            .query_mut::<(&mut Pos, &Vel)>()
            .into_iter()
            .for_each(|(p, v)| p.0 += v.0 * dt);
        if i >= warmup {
            times.push(clock().saturating_sub(start) as f64 / 1e6);
        }
    }
    times.sort_by(f64::total_cmp);
    percentile(&times, 0.5)
}

/// Measures one rung.
pub fn measure(project: &Project, n: u32, ticks: u32, warmup: u32) -> Result<Row, Fault> {
    let host = project.host()?.with_clock(Box::new(clock));
    let mut game = Game::with_entities(project.def.clone(), Box::new(host), n)?;
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
    let raw = raw_hecs(
        entities as u32,
        ticks,
        warmup,
        project.def.tick.tick_seconds(),
    );
    Ok(Row {
        entities: entities as u32,
        median_ms: median,
        p99_ms: percentile(&times, 0.99),
        ticks_per_second: 1000.0 / median.max(1e-9),
        ns_per_entity: median * 1e6 / entities as f64,
        frame_share: median / (1000.0 / 60.0),
        script_share: script_ns as f64 / total_ns.max(1) as f64,
        raw_median_ms: raw,
    })
}

pub fn table(rows: &[Row]) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "| entities | median tick ms | p99 ms | ticks/s | ns/entity | of a 16.7 ms frame | in scripts | raw hecs ms | ratio |"
    );
    let _ = writeln!(
        s,
        "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
    );
    for r in rows {
        let _ = writeln!(
            s,
            "| {} | {:.3} | {:.3} | {:.0} | {:.1} | {:.1}% | {:.1}% | {:.4} | {:.0}x |",
            r.entities,
            r.median_ms,
            r.p99_ms,
            r.ticks_per_second,
            r.ns_per_entity,
            r.frame_share * 100.0,
            r.script_share * 100.0,
            r.raw_median_ms,
            r.median_ms / r.raw_median_ms.max(1e-9)
        );
    }
    s
}

pub fn csv(rows: &[Row]) -> String {
    let mut s = String::from(
        "entities,median_ms,p99_ms,ticks_per_second,ns_per_entity,frame_share,script_share,raw_hecs_median_ms,ratio\n",
    );
    for r in rows {
        let _ = writeln!(
            s,
            "{},{:.6},{:.6},{:.1},{:.3},{:.5},{:.5},{:.6},{:.2}",
            r.entities,
            r.median_ms,
            r.p99_ms,
            r.ticks_per_second,
            r.ns_per_entity,
            r.frame_share,
            r.script_share,
            r.raw_median_ms,
            r.median_ms / r.raw_median_ms.max(1e-9)
        );
    }
    s
}

/// A log-log plot of tick time against entity count with the 60 Hz and budget lines. One
/// function: it draws one chart top to bottom (frame, axes, lines, points, labels).
pub fn svg(rows: &[Row], budget_ms: f64, title: &str) -> String {
    let (w, h, left, right, top, bottom) = (780.0, 440.0, 84.0, 20.0, 40.0, 50.0);
    let pw = w - left - right;
    let ph = h - top - bottom;
    let xs: Vec<f64> = rows
        .iter()
        .map(|r| (r.entities as f64).max(1.0).log2())
        .collect();
    let (x0, x1) = (
        xs.iter().cloned().fold(f64::INFINITY, f64::min).floor(),
        xs.iter()
            .cloned()
            .fold(f64::NEG_INFINITY, f64::max)
            .ceil()
            .max(1.0),
    );
    let all: Vec<f64> = rows
        .iter()
        .flat_map(|r| [r.median_ms, r.raw_median_ms, r.p99_ms])
        .chain([budget_ms, 1000.0 / 60.0])
        .filter(|v| *v > 0.0)
        .collect();
    let y0 = all
        .iter()
        .cloned()
        .fold(f64::INFINITY, f64::min)
        .log10()
        .floor();
    let y1 = all
        .iter()
        .cloned()
        .fold(f64::NEG_INFINITY, f64::max)
        .log10()
        .ceil();
    // Decades drawn: at most 24 (1 ns to 10^15 ms), whatever the values.
    let y0 = if y0.is_finite() {
        y0.clamp(-6.0, 15.0)
    } else {
        -6.0
    };
    let y1 = if y1.is_finite() {
        y1.clamp(y0, y0 + 24.0)
    } else {
        y0 + 1.0
    };
    let px = |x: f64| left + (x - x0) / (x1 - x0).max(1e-9) * pw;
    let py = |ms: f64| top + ph - (ms.max(1e-9).log10() - y0) / (y1 - y0).max(1e-9) * ph;
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        s,
        r#"<text x="{}" y="22" font-size="15">{}</text>"#,
        left,
        xml(title)
    );
    for (r, x) in rows.iter().zip(&xs) {
        let x = px(*x);
        let _ = writeln!(
            s,
            r##"<line x1="{x}" y1="{top}" x2="{x}" y2="{}" stroke="#eee"/>"##,
            top + ph
        );
        let _ = writeln!(
            s,
            r#"<text x="{x}" y="{}" text-anchor="middle">{}</text>"#,
            top + ph + 18.0,
            human(r.entities as f64)
        );
    }
    for e in (y0 as i64)..=(y1 as i64) {
        let y = py(10f64.powi(e as i32));
        let _ = writeln!(
            s,
            r##"<line x1="{left}" y1="{y}" x2="{}" y2="{y}" stroke="#eee"/>"##,
            left + pw
        );
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}" text-anchor="end">{} ms</text>"#,
            left - 6.0,
            y + 4.0,
            10f64.powi(e as i32)
        );
    }
    let _ = writeln!(
        s,
        r#"<text x="{}" y="{}" text-anchor="middle">entities</text>"#,
        left + pw / 2.0,
        h - 8.0
    );
    for (ms, label, color) in [
        (1000.0 / 60.0, "60 Hz frame", "#d62828"),
        (budget_ms, "budget", "#f77f00"),
    ] {
        let y = py(ms);
        let _ = writeln!(
            s,
            r#"<line x1="{left}" y1="{y}" x2="{}" y2="{y}" stroke="{color}" stroke-dasharray="6 4"/>"#,
            left + pw
        );
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}" fill="{color}">{label} {ms:.1} ms</text>"#,
            left + 6.0,
            y - 5.0
        );
    }
    for (series, color, name) in [
        (0, "#1d3557", "ludus median tick"),
        (1, "#2a9d8f", "raw hecs motion"),
    ] {
        let pts: Vec<String> = rows
            .iter()
            .zip(&xs)
            .map(|(r, x)| {
                let ms = if series == 0 {
                    r.median_ms
                } else {
                    r.raw_median_ms
                };
                format!("{:.1},{:.1}", px(*x), py(ms))
            })
            .collect();
        let _ = writeln!(
            s,
            r#"<polyline fill="none" stroke="{color}" stroke-width="2" points="{}"/>"#,
            pts.join(" ")
        );
        for p in &pts {
            let (x, y) = p.split_once(',').unwrap_or(("0", "0"));
            let _ = writeln!(s, r#"<circle cx="{x}" cy="{y}" r="3" fill="{color}"/>"#);
        }
        let ly = top + 16.0 + series as f64 * 16.0;
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{ly}" fill="{color}">{name}</text>"#,
            left + pw - 170.0
        );
    }
    s.push_str("</svg>\n");
    s
}

fn human(n: f64) -> String {
    if n >= 1e6 {
        format!("{:.1}M", n / 1e6)
    } else if n >= 1e3 {
        format!("{:.0}k", n / 1e3)
    } else {
        format!("{n}")
    }
}

fn xml(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

pub fn main(args: BenchArgs) -> i32 {
    if args.to < args.from {
        eprintln!(
            "ludus: the ladder needs --from ({}) <= --to ({})",
            args.from, args.to
        );
        return 2;
    }
    let project = match load(args.game_dir.as_deref()) {
        Ok(p) => p,
        Err(code) => return code,
    };
    if project.def.stress.is_none() {
        eprintln!(
            "ludus: {} declares no [stress] archetype to fill the ladder with",
            project.label
        );
        return 1;
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
        match measure(&project, *n, args.ticks, args.warmup) {
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
    let title = format!("{}: tick time against entity count", project.def.name);
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

//! `ludus bench`'s report: the table, the CSV file and the SVG plot.

use std::fmt::Write as _;

/// One rung of the ladder.
#[derive(Clone, Debug)]
pub struct Row {
    pub entities: u32,
    pub median_ms: f64,
    /// The mean of the measured ticks (what the page's bench, with a coarse clock, compares).
    pub mean_ms: f64,
    pub p99_ms: f64,
    pub ticks_per_second: f64,
    pub ns_per_entity: f64,
    pub frame_share: f64,
    pub script_share: f64,
    /// The same work written by hand, where a reference models the workload.
    pub reference_ms: Option<f64>,
    /// The same work by hand with its passes split between two threads as the tick splits
    /// them, where that reference is written and the tick may split (not `--serial`).
    pub split_reference_ms: Option<f64>,
    pub raw_median_ms: f64,
    /// Live heap bytes the game holds after its ticks, over its entities.
    pub bytes_per_entity: f64,
    /// Live heap bytes the hand-written reference holds, over the game's entities.
    pub reference_bytes_per_entity: Option<f64>,
    /// The ticks measured: those asked for, or fewer where the game ended first (and the
    /// references ran as many).
    pub measured_ticks: usize,
    /// Where the game ended during the rung (its tick and message), if it did.
    pub ended: Option<(u64, String)>,
}

impl Row {
    /// The tick's time over the hand-written reference's.
    pub fn reference_ratio(&self) -> Option<f64> {
        self.reference_ms.map(|r| self.median_ms / r.max(1e-9))
    }

    /// The tick's time over the two-thread hand-written reference's.
    pub fn split_ratio(&self) -> Option<f64> {
        self.split_reference_ms
            .map(|r| self.median_ms / r.max(1e-9))
    }

    /// The tick's time over bare motion's.
    pub fn raw_ratio(&self) -> f64 {
        self.median_ms / self.raw_median_ms.max(1e-9)
    }
}

pub fn table(rows: &[Row]) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "| entities | median tick ms | p99 ms | ticks/s | ns/entity | of a 16.7 ms frame | in scripts | by hand ms | x by hand | raw hecs ms | x raw | by hand, 2 threads ms | x by hand, 2 threads | bytes/entity | by hand bytes/entity |"
    );
    let _ = writeln!(
        s,
        "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
    );
    for r in rows {
        let (by_hand, ratio) = match (r.reference_ms, r.reference_ratio()) {
            (Some(ms), Some(x)) => (format!("{ms:.3}"), format!("{x:.1}x")),
            _ => ("-".to_string(), "-".to_string()),
        };
        let (split, split_ratio) = match (r.split_reference_ms, r.split_ratio()) {
            (Some(ms), Some(x)) => (format!("{ms:.3}"), format!("{x:.1}x")),
            _ => ("-".to_string(), "-".to_string()),
        };
        let ref_bytes = r
            .reference_bytes_per_entity
            .map_or("-".to_string(), |b| format!("{b:.0}"));
        let _ = writeln!(
            s,
            "| {} | {:.3} | {:.3} | {:.0} | {:.1} | {:.1}% | {:.1}% | {by_hand} | {ratio} | {:.4} | {:.0}x | {split} | {split_ratio} | {:.0} | {ref_bytes} |",
            r.entities,
            r.median_ms,
            r.p99_ms,
            r.ticks_per_second,
            r.ns_per_entity,
            r.frame_share * 100.0,
            r.script_share * 100.0,
            r.raw_median_ms,
            r.raw_ratio(),
            r.bytes_per_entity,
        );
    }
    let _ = write!(s, "{}", ended(rows));
    s
}

/// A line on the rungs whose game ended before their last tick (none: empty): how many, where
/// and how many ticks each measured.
fn ended(rows: &[Row]) -> String {
    let ended: Vec<(&Row, u64, &str)> = rows
        .iter()
        .filter_map(|r| r.ended.as_ref().map(|(t, m)| (r, *t, m.as_str())))
        .collect();
    let Some(&(_, _, message)) = ended.first() else {
        return String::new();
    };
    let span = |v: Vec<u64>| match (v.iter().min(), v.iter().max()) {
        (Some(lo), Some(hi)) if lo != hi => format!("{lo} to {hi}"),
        (Some(lo), _) => lo.to_string(),
        _ => String::new(),
    };
    let ticks = span(ended.iter().map(|(_, t, _)| *t).collect());
    let measured = span(
        ended
            .iter()
            .map(|(r, _, _)| r.measured_ticks as u64)
            .collect(),
    );
    format!(
        "the game ended (\"{message}\") at tick {ticks} in {} of the {} rungs: each measured the \
         ticks up to its end ({measured}), and the hand-written loops as many (an ended game is \
         not played on)\n",
        ended.len(),
        rows.len()
    )
}

pub fn csv(rows: &[Row]) -> String {
    let mut s = String::from(
        "entities,median_ms,p99_ms,ticks_per_second,ns_per_entity,frame_share,script_share,by_hand_median_ms,by_hand_ratio,raw_hecs_median_ms,raw_ratio,split_by_hand_median_ms,split_by_hand_ratio,bytes_per_entity,by_hand_bytes_per_entity,mean_ms,measured_ticks\n",
    );
    for r in rows {
        let opt =
            |v: Option<f64>, digits: usize| v.map_or(String::new(), |v| format!("{v:.digits$}"));
        let _ = writeln!(
            s,
            "{},{:.6},{:.6},{:.1},{:.3},{:.5},{:.5},{},{},{:.6},{:.2},{},{},{:.1},{},{:.6},{}",
            r.entities,
            r.median_ms,
            r.p99_ms,
            r.ticks_per_second,
            r.ns_per_entity,
            r.frame_share,
            r.script_share,
            opt(r.reference_ms, 6),
            opt(r.reference_ratio(), 2),
            r.raw_median_ms,
            r.raw_ratio(),
            opt(r.split_reference_ms, 6),
            opt(r.split_ratio(), 2),
            r.bytes_per_entity,
            opt(r.reference_bytes_per_entity, 1),
            r.mean_ms,
            r.measured_ticks,
        );
    }
    s
}

/// A log-log plot of tick time against entity count with the 60 Hz and budget lines.
pub fn svg(rows: &[Row], budget_ms: f64, title: &str) -> String {
    let xs: Vec<f64> = rows
        .iter()
        .map(|r| (r.entities as f64).max(1.0).log2())
        .collect();
    let f = Frame::new(rows, &xs, budget_ms);
    let mut s = String::new();
    let (w, h) = (f.w, f.h);
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        s,
        r#"<text x="{}" y="22" font-size="15">{}</text>"#,
        f.left,
        xml(title)
    );
    axes(&mut s, &f, rows, &xs);
    marks(&mut s, &f, budget_ms);
    series(&mut s, &f, rows, &xs);
    s.push_str("</svg>\n");
    s
}

/// The plot's geometry: the picture's size, the plotting area inside its margins, and the
/// ranges its axes show (log2 of the entity count; decades of milliseconds).
struct Frame {
    w: f64,
    h: f64,
    left: f64,
    top: f64,
    pw: f64,
    ph: f64,
    x0: f64,
    x1: f64,
    y0: f64,
    y1: f64,
}

impl Frame {
    /// The frame that holds every row's times (`xs`: each row's log2 entity count) and the
    /// two marked lines.
    fn new(rows: &[Row], xs: &[f64], budget_ms: f64) -> Frame {
        let (w, h, left, right, top, bottom) = (780.0, 440.0, 84.0, 20.0, 40.0, 50.0);
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
            .flat_map(|r| {
                [
                    r.median_ms,
                    r.raw_median_ms,
                    r.p99_ms,
                    r.reference_ms.unwrap_or(0.0),
                ]
            })
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
        Frame {
            w,
            h,
            left,
            top,
            pw: w - left - right,
            ph: h - top - bottom,
            x0,
            x1,
            y0,
            y1,
        }
    }

    /// The horizontal position of a log2 entity count.
    fn px(&self, x: f64) -> f64 {
        self.left + (x - self.x0) / (self.x1 - self.x0).max(1e-9) * self.pw
    }

    /// The vertical position of a time in milliseconds.
    fn py(&self, ms: f64) -> f64 {
        self.top + self.ph
            - (ms.max(1e-9).log10() - self.y0) / (self.y1 - self.y0).max(1e-9) * self.ph
    }
}

/// The grid and labels: a line per row's entity count, a line per decade of milliseconds.
fn axes(s: &mut String, f: &Frame, rows: &[Row], xs: &[f64]) {
    let Frame {
        h,
        left,
        top,
        pw,
        ph,
        ..
    } = *f;
    for (r, x) in rows.iter().zip(xs) {
        let x = f.px(*x);
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
    for e in (f.y0 as i64)..=(f.y1 as i64) {
        let y = f.py(10f64.powi(e as i32));
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
}

/// The dashed lines of a 60 Hz frame and of the budget.
fn marks(s: &mut String, f: &Frame, budget_ms: f64) {
    let (left, pw) = (f.left, f.pw);
    for (ms, label, color) in [
        (1000.0 / 60.0, "60 Hz frame", "#d62828"),
        (budget_ms, "budget", "#f77f00"),
    ] {
        let y = f.py(ms);
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
}

/// The measured series, each a line through its points with its name: the median tick, the
/// hand-written reference (where there is one) and bare motion.
fn series(s: &mut String, f: &Frame, rows: &[Row], xs: &[f64]) {
    let mut legend = Vec::new();
    for (series, color, name) in [
        (0, "#1d3557", "ludus median tick"),
        (1, "#e76f51", "the same work by hand"),
        (2, "#2a9d8f", "raw hecs motion"),
    ] {
        let pts: Vec<String> = rows
            .iter()
            .zip(xs)
            .filter_map(|(r, x)| {
                let ms = match series {
                    0 => Some(r.median_ms),
                    1 => r.reference_ms,
                    _ => Some(r.raw_median_ms),
                }?;
                Some(format!("{:.1},{:.1}", f.px(*x), f.py(ms)))
            })
            .collect();
        if pts.is_empty() {
            continue;
        }
        let _ = writeln!(
            s,
            r#"<polyline fill="none" stroke="{color}" stroke-width="2" points="{}"/>"#,
            pts.join(" ")
        );
        for p in &pts {
            let (x, y) = p.split_once(',').unwrap_or(("0", "0"));
            let _ = writeln!(s, r#"<circle cx="{x}" cy="{y}" r="3" fill="{color}"/>"#);
        }
        legend.push((color, name));
    }
    // The legend last, on white, so no line or mark runs through its names.
    let (lx, ly) = (f.left + f.pw - 176.0, f.top + 4.0);
    if !legend.is_empty() {
        let _ = writeln!(
            s,
            r#"<rect x="{lx}" y="{ly}" width="172" height="{}" fill="white" fill-opacity="0.9"/>"#,
            legend.len() as f64 * 16.0 + 8.0
        );
    }
    for (i, (color, name)) in legend.into_iter().enumerate() {
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}" fill="{color}">{name}</text>"#,
            lx + 6.0,
            ly + 16.0 + i as f64 * 16.0
        );
    }
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

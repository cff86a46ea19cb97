//! Scripted frames and per-tick input: the JSON Lines formats of `ludus sim --frames`,
//! `ludus sim --input` (and `ludus run --input`) and `ludus run --script`. See
//! docs/headless.md.

/// The largest `--input`, `--frames` or `--script` file, in bytes (64 MiB).
pub const MAX_INPUT_BYTES: u64 = 64 * 1024 * 1024;

use ludus_core::{
    ActionId, ActionKind, GameDef, InputEvent, MAX_TOUCHES, Session, Signal, TickInput, Touch,
};
use serde_json::{Map, Value};
use std::io::{BufRead, Read};

/// One line: a presentation callback (`--frames`) or one tick's input (`--input`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Line {
    /// 1-based line number in its file, for messages.
    pub line: usize,
    /// Time since the previous callback (`--frames`).
    pub dt_ns: Option<u64>,
    /// The tick this input belongs to (`--input`).
    pub tick: Option<u64>,
    pub press: Vec<ActionId>,
    pub release: Vec<ActionId>,
    pub tap: Vec<ActionId>,
    pub cancel: Vec<ActionId>,
    pub axis: Vec<(ActionId, f32)>,
    /// `pointer`: `[x, y]` in world units, or `null` when it left the view; absent: unchanged.
    pub pointer: Option<Option<[f32; 2]>>,
    /// `touches`: the fingers down from this line on, in world units (`[]`: none); absent:
    /// unchanged. Checked as `ludus_core::check_touches` checks them.
    pub touches: Option<Vec<Touch>>,
    pub ui: Vec<ActionId>,
    pub signal: Option<Signal>,
    /// `{"signal": "rewind", "ticks": N}`: run time back `N` ticks (see `runtime/runner/resim.rs`).
    pub rewind: Option<u64>,
    /// `inspect`: `[x, y]` in world units: the inspector opens and selects what is there, as
    /// F6 and a click there would (`ludus run --script` only).
    pub inspect: Option<[f32; 2]>,
}

/// Which of the two formats a file is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(target_arch = "wasm32", allow(dead_code))] // the page reads `--input` only
pub enum Format {
    /// `--frames`: every line needs `dt_ms` or `dt_ns`.
    Frames,
    /// `--input`: every line needs `tick`, increasing.
    Input,
    /// `ludus run --script`: per frame, no timing keys needed.
    Script,
    /// `ludus sim --agent-stdio`: a command line's input for the ticks it runs.
    Agent,
}

impl Format {
    const ALL: [Format; 4] = [Format::Frames, Format::Input, Format::Script, Format::Agent];

    /// The keys a line of this format may hold (a key of another format's is refused with
    /// where it belongs).
    fn keys(self) -> &'static [&'static str] {
        match self {
            Format::Frames => &[
                "dt_ms", "dt_ns", "press", "release", "tap", "cancel", "axis", "pointer",
                "touches", "ui", "signal", "ticks",
            ],
            Format::Input => &[
                "tick", "press", "release", "tap", "cancel", "axis", "pointer", "touches", "ui",
            ],
            Format::Script => &[
                "press", "release", "tap", "cancel", "axis", "pointer", "touches", "ui", "signal",
                "ticks", "inspect",
            ],
            Format::Agent => &[
                "press", "release", "tap", "cancel", "axis", "pointer", "touches", "ui",
            ],
        }
    }
}

const SIGNALS: &[&str] = &[
    "pause",
    "resume",
    "step",
    "hide",
    "show",
    "focus_lost",
    "focus_gained",
    "restart",
    "rewind",
];

/// The longest line of a `--frames`, `--input` or `--script` file, in bytes (64 KiB).
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// The most lines such a file may hold (a million: over four hours of frames at 60 Hz).
pub const MAX_LINES: usize = 1_000_000;

/// Parses a whole file held in memory; errors are `path:line: message` (the page's test API).
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub fn parse(path: &str, text: &str, format: Format, def: &GameDef) -> Result<Vec<Line>, String> {
    parse_reader(path, text.as_bytes(), format, def)
}

/// Parses a file line by line as it is read: no line longer than [`MAX_LINE_BYTES`] and no more
/// than [`MAX_LINES`] lines are ever held, and a read error (such as the reader's size limit)
/// ends parsing with its message. Errors are `path:line: message` (`path:line:col:` where a
/// position inside the line is known), one line whose control characters are escaped (a
/// message may quote the file: `unknown key "\u{1b}[2J"`).
pub fn parse_reader(
    path: &str,
    reader: impl BufRead,
    format: Format,
    def: &GameDef,
) -> Result<Vec<Line>, String> {
    parse_lines(path, reader, format, def).map_err(|e| ludus_core::printable_line(&e).into_owned())
}

fn parse_lines(
    path: &str,
    mut reader: impl BufRead,
    format: Format,
    def: &GameDef,
) -> Result<Vec<Line>, String> {
    let mut out = Vec::new();
    let mut last_tick = 0u64;
    let mut buf = Vec::new();
    let mut n = 0usize;
    loop {
        buf.clear();
        let read = (&mut reader)
            .take(MAX_LINE_BYTES as u64 + 1)
            .read_until(b'\n', &mut buf)
            .map_err(|e| {
                let limit = match e.kind() {
                    std::io::ErrorKind::FileTooLarge => MAX_INPUT_BYTES,
                    _ => 0,
                };
                format!(
                    "cannot read {path}: {}",
                    ludus_content::ReadError::from_io(&e, limit)
                )
            })?;
        if read == 0 {
            break;
        }
        n += 1;
        let body = buf.strip_suffix(b"\n").unwrap_or(&buf);
        if body.len() > MAX_LINE_BYTES {
            return Err(format!(
                "{path}:{n}: the line is longer than {} KiB (each line is one JSON object)",
                MAX_LINE_BYTES / 1024
            ));
        }
        let raw = std::str::from_utf8(body).map_err(|e| {
            format!(
                "{path}:{n}:{}: not UTF-8 text",
                String::from_utf8_lossy(&body[..e.valid_up_to()])
                    .chars()
                    .count()
                    + 1
            )
        })?;
        let trimmed = raw.trim();
        if trimmed.is_empty() || trimmed.starts_with("//") {
            continue;
        }
        if out.len() >= MAX_LINES {
            return Err(format!(
                "{path}:{n}: more than {MAX_LINES} lines; split the run into shorter files"
            ));
        }
        let at = |m: String| format!("{path}:{n}: {m}");
        let value = crate::runtime::strict_json::parse(trimmed).map_err(|e| {
            let indent = raw.chars().count() - raw.trim_start().chars().count();
            let col = e.column() + indent;
            let text = e.to_string();
            let text = text
                .strip_suffix(&format!(" at line {} column {}", e.line(), e.column()))
                .unwrap_or(&text)
                .to_string();
            if e.classify() == serde_json::error::Category::Data {
                format!("{path}:{n}:{col}: {text}")
            } else {
                format!("{path}:{n}:{col}: not valid JSON ({text})")
            }
        })?;
        let mut line = parse_line(&value, format, def).map_err(at)?;
        line.line = n;
        if format == Format::Input {
            let t = line.tick.unwrap_or(0);
            if t <= last_tick {
                return Err(at(format!(
                    "ticks must increase from line to line (got {t} after {last_tick})"
                )));
            }
            last_tick = t;
        }
        out.push(line);
    }
    Ok(out)
}

/// A number from a file, for a message: exponent notation where plain digits would run long
/// (`1e308`, not 309 digits).
fn short_number(v: f64) -> String {
    if v != 0.0 && !(1e-6..1e15).contains(&v.abs()) {
        format!("{v:e}")
    } else {
        format!("{v}")
    }
}

/// One line's object, checked key by key in a fixed order (so a line with several mistakes
/// is reported the same way each time).
pub(crate) fn parse_line(v: &Value, format: Format, def: &GameDef) -> Result<Line, String> {
    let obj = v.as_object().ok_or("each line must be a JSON object")?;
    for k in obj.keys() {
        // A key of another format is refused below, with where it belongs.
        if !Format::ALL.iter().any(|f| f.keys().contains(&k.as_str())) {
            let keys = format.keys();
            let hint = ludus_core::closest(k, keys.iter().copied())
                .map(|c| format!("did you mean `{c}`? "))
                .unwrap_or_default();
            return Err(format!(
                "unknown key `{k}` ({hint}expected one of: {})",
                keys.join(", ")
            ));
        }
    }
    let mut line = Line::default();
    (line.dt_ns, line.tick) = timing(obj, format)?;
    line.press = actions(obj.get("press"), "press", def, Some(ActionKind::Button))?;
    line.release = actions(obj.get("release"), "release", def, Some(ActionKind::Button))?;
    line.tap = actions(obj.get("tap"), "tap", def, Some(ActionKind::Button))?;
    line.cancel = actions(obj.get("cancel"), "cancel", def, Some(ActionKind::Button))?;
    line.ui = actions(obj.get("ui"), "ui", def, None)?;
    if let Some(axis) = obj.get("axis") {
        let map = axis
            .as_object()
            .ok_or("`axis` must be an object of action: value")?;
        for (name, v) in map {
            let id = action(name, def, Some(ActionKind::Axis))?;
            let value = v
                .as_f64()
                .filter(|f| f.is_finite() && (-1.0..=1.0).contains(f))
                .ok_or_else(|| format!("axis `{name}` must be a number in [-1, 1]"))?;
            line.axis.push((id, value as f32));
        }
    }
    if let Some(p) = obj.get("pointer") {
        line.pointer = Some(if p.is_null() {
            None
        } else {
            Some(point(p).ok_or("`pointer` must be [x, y] in world units (within ±1e9), or null")?)
        });
    }
    if let Some(p) = obj.get("inspect") {
        if format != Format::Script {
            return Err(
                "`inspect` belongs in `ludus run --script` files (it opens the window's inspector)"
                    .into(),
            );
        }
        line.inspect =
            Some(point(p).ok_or("`inspect` must be [x, y] in world units (within ±1e9)")?);
    }
    if let Some(t) = obj.get("touches") {
        line.touches = Some(touches(t)?);
    }
    signal(obj, format, &mut line)?;
    Ok(line)
}

/// `[x, y]` in world units, within ±1e9.
fn point(v: &Value) -> Option<[f32; 2]> {
    let xy = v
        .as_array()
        .filter(|a| a.len() == 2)
        .and_then(|a| Some([a[0].as_f64()?, a[1].as_f64()?]))
        .filter(|[x, y]| x.abs() <= 1e9 && y.abs() <= 1e9)?;
    Some([xy[0] as f32, xy[1] as f32])
}

/// A line's `touches`: at most [`MAX_TOUCHES`] objects `{"id", "x", "y"}`, ids whole numbers
/// from 0 to 4294967295 and distinct, coordinates in world units within ±1e9.
fn touches(v: &Value) -> Result<Vec<Touch>, String> {
    let form = "`touches` must be an array of {\"id\": n, \"x\": x, \"y\": y} in world units ([] when no finger is down)";
    let list = v.as_array().ok_or(form)?;
    if list.len() > MAX_TOUCHES {
        return Err(format!(
            "`touches` lists {} fingers; at most {MAX_TOUCHES} are down at once",
            list.len()
        ));
    }
    let mut out: Vec<Touch> = Vec::with_capacity(list.len());
    for (i, item) in list.iter().enumerate() {
        let n = i + 1;
        let obj = item.as_object().ok_or(form)?;
        if let Some(k) = obj.keys().find(|k| !["id", "x", "y"].contains(&k.as_str())) {
            return Err(format!(
                "unknown key `{k}` in touch {n} (a touch is {{\"id\", \"x\", \"y\"}})"
            ));
        }
        let id = obj
            .get("id")
            .and_then(Value::as_u64)
            .and_then(|id| u32::try_from(id).ok())
            .ok_or_else(|| {
                format!(
                    "touch {n}: `id` must be a whole number from 0 to {}",
                    u32::MAX
                )
            })?;
        let coord = |key: &str| {
            obj.get(key)
                .and_then(Value::as_f64)
                .filter(|v| v.abs() <= f64::from(ludus_core::MAX_TOUCH_COORD))
                .map(|v| v as f32)
                .ok_or_else(|| {
                    format!("touch {n}: `{key}` must be a number in world units within ±1e9")
                })
        };
        let (x, y) = (coord("x")?, coord("y")?);
        if out.iter().any(|t| t.id == id) {
            return Err(format!(
                "touch {n}: id {id} is down twice (each finger has its own id)"
            ));
        }
        out.push(Touch { id, x, y });
    }
    Ok(out)
}

/// A line's `dt_ms` or `dt_ns` (as nanoseconds) and its `tick`, each where its format wants it.
fn timing(obj: &Map<String, Value>, format: Format) -> Result<(Option<u64>, Option<u64>), String> {
    let number = |key: &str| -> Result<Option<f64>, String> {
        match obj.get(key) {
            None => Ok(None),
            Some(v) => v
                .as_f64()
                .filter(|f| f.is_finite() && *f >= 0.0)
                .map(Some)
                .ok_or_else(|| format!("`{key}` must be a non-negative number")),
        }
    };
    let dt_ms = number("dt_ms")?;
    let dt_ns = match obj.get("dt_ns") {
        None => None,
        Some(v) => Some(v.as_u64().ok_or("`dt_ns` must be a whole number >= 0")?),
    };
    let dt_ns = match (dt_ms, dt_ns) {
        (Some(_), Some(_)) => return Err("give `dt_ms` or `dt_ns`, not both".into()),
        (Some(ms), None) => {
            if ms > 3.6e6 {
                return Err(format!("`dt_ms` {} is more than an hour", short_number(ms)));
            }
            Some((ms * 1e6).round() as u64)
        }
        (None, ns) => ns,
    };
    let tick = match obj.get("tick") {
        None => None,
        Some(v) => Some(
            v.as_u64()
                .filter(|t| *t >= 1)
                .ok_or("`tick` must be a whole number >= 1")?,
        ),
    };
    match format {
        Format::Frames if dt_ns.is_none() => {
            return Err("every frame needs `dt_ms` or `dt_ns`".into());
        }
        Format::Input if tick.is_none() => return Err("every line needs `tick`".into()),
        Format::Input | Format::Script | Format::Agent if dt_ns.is_some() => {
            return Err("`dt_ms`/`dt_ns` only belong in --frames files".into());
        }
        Format::Agent if tick.is_some() => {
            return Err(
                "a line runs the next ticks: give how many with `ticks` (default 1), not `tick`"
                    .into(),
            );
        }
        Format::Frames | Format::Script if tick.is_some() => {
            return Err("`tick` only belongs in --input files".into());
        }
        _ => {}
    }
    Ok((dt_ns, tick))
}

/// A line's `signal` (with `ticks` for a rewind), which only `--frames` files hold.
fn signal(obj: &Map<String, Value>, format: Format, line: &mut Line) -> Result<(), String> {
    if let Some(s) = obj.get("signal") {
        let s = s.as_str().ok_or("`signal` must be a string")?;
        if s == "rewind" {
            let ticks = obj
                .get("ticks")
                .and_then(Value::as_u64)
                .filter(|t| (1..=1_000_000_000).contains(t))
                .ok_or("`rewind` needs `ticks`: how many ticks to go back (1 to 1000000000)")?;
            line.rewind = Some(ticks);
            if matches!(format, Format::Input | Format::Agent) {
                return Err("signals belong in --frames files; --input is per tick".into());
            }
            return Ok(());
        }
        line.signal = Some(match s {
            "pause" => Signal::Pause,
            "resume" => Signal::Resume,
            "step" => Signal::StepGathered,
            "hide" => Signal::Hide,
            "show" => Signal::Show,
            "focus_lost" => Signal::FocusLost,
            "focus_gained" => Signal::FocusGained,
            "restart" => Signal::Restart,
            other => {
                return Err(format!(
                    "unknown signal `{other}` (expected one of: {})",
                    SIGNALS.join(", ")
                ));
            }
        });
        if matches!(format, Format::Input | Format::Agent) {
            return Err("signals belong in --frames files; --input is per tick".into());
        }
    }
    if obj.contains_key("ticks") {
        return Err("`ticks` goes with `\"signal\": \"rewind\"`".into());
    }
    Ok(())
}

fn action(name: &str, def: &GameDef, kind: Option<ActionKind>) -> Result<ActionId, String> {
    let id = def.actions.find(name).ok_or_else(|| {
        let names: Vec<&str> = def.actions.iter().map(|(_, a)| a.name.as_str()).collect();
        format!(
            "unknown action `{name}` (the game declares: {})",
            names.join(", ")
        )
    })?;
    if let (Some(k), Some(a)) = (kind, def.actions.get(id))
        && a.kind != k
    {
        return Err(format!("action `{name}` is {:?}, not {k:?}", a.kind).to_lowercase());
    }
    Ok(id)
}

fn actions(
    v: Option<&Value>,
    key: &str,
    def: &GameDef,
    kind: Option<ActionKind>,
) -> Result<Vec<ActionId>, String> {
    let Some(v) = v else {
        return Ok(Vec::new());
    };
    let list = v
        .as_array()
        .ok_or_else(|| format!("`{key}` must be an array of action names"))?;
    list.iter()
        .map(|item| {
            let name = item
                .as_str()
                .ok_or_else(|| format!("`{key}` must list action names as strings"))?;
            action(name, def, kind)
        })
        .collect()
}

impl Line {
    /// Pumps this line's signal and input into the session, as a platform would before the
    /// frame that sees them.
    pub fn pump(&self, session: &mut Session) {
        if let Some(s) = &self.signal {
            session.signal(s.clone());
        }
        for a in &self.ui {
            session.ui_consumed(InputEvent::Press(*a));
        }
        for a in &self.press {
            session.input(InputEvent::Press(*a));
        }
        for a in &self.release {
            session.input(InputEvent::Release(*a));
        }
        for a in &self.tap {
            session.input(InputEvent::Press(*a));
            session.input(InputEvent::Release(*a));
        }
        for a in &self.cancel {
            session.input(InputEvent::Cancel(*a));
        }
        for (a, v) in &self.axis {
            session.input(InputEvent::Axis(*a, *v));
        }
        if let Some(now) = &self.touches {
            // What `replace_touches` does to the bridge's touches, as the platform reports
            // it: the fingers missing lift, the others move or go down.
            let lifted: Vec<u32> = (session.bridge().touches().iter())
                .filter(|t| !now.iter().any(|n| n.id == t.id))
                .map(|t| t.id)
                .collect();
            for id in lifted {
                session.input(InputEvent::Touch(id, None));
            }
            for t in now {
                session.input(InputEvent::Touch(t.id, Some(t.at())));
            }
        }
        if let Some(at) = self.pointer {
            session.input(InputEvent::Pointer(at));
        }
    }

    /// The `TickInput` this `--input` line describes, applied on top of the held state
    /// carried from earlier lines (`held`, `axes`, the pointer and touches persist until
    /// released or changed).
    pub fn apply_to(&self, held: &mut TickInput) -> TickInput {
        // Touches first: the first finger is the pointer, unless the line puts it elsewhere.
        if let Some(now) = &self.touches {
            ludus_core::replace_touches(&mut held.touches, now);
            if let Some(first) = ludus_core::touch_pointer(&held.touches) {
                held.pointer = Some(first);
            }
        }
        if let Some(at) = self.pointer {
            held.pointer = at;
        }
        let mut input = TickInput {
            held: held.held,
            axes: held.axes.clone(),
            pointer: held.pointer,
            touches: held.touches.clone(),
            ..TickInput::default()
        };
        for a in &self.press {
            if !input.held(*a) {
                input.set_pressed(*a, true);
            }
            input.set_held(*a, true);
        }
        for a in &self.tap {
            input.set_pressed(*a, true);
            input.set_released(*a, true);
        }
        for a in &self.release {
            if input.held(*a) {
                input.set_released(*a, true);
            }
            input.set_held(*a, false);
        }
        for a in &self.cancel {
            if input.held(*a) {
                input.set_cancelled(*a, true);
            }
            input.set_held(*a, false);
        }
        for (a, v) in &self.axis {
            input.set_axis(*a, *v);
        }
        held.held = input.held;
        held.axes = input.axes.clone();
        input
    }
}

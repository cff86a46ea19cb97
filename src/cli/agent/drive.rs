//! The run an agent drives: one step at a time, each with the input the agent chose, kept as
//! an input file's lines (`--write-input`) and as a recording (snapshots, `--record`).

use crate::runtime::frames::{Line, MAX_INPUT_BYTES, MAX_LINES};
use crate::runtime::headless::json_string;
use crate::runtime::headless::{HeadlessRun, PerTick};
use ludus_core::*;
use std::fmt::Write as _;

/// A headless run stepped by an agent. Invariant: `steps` is the number of steps taken (the
/// `tick` an input file gives the next step is `steps + 1`); `held` is what those steps left
/// held; `input`, where kept, holds one line per step that had input.
pub struct Driven {
    pub run: HeadlessRun,
    pub held: PerTick,
    pub steps: u64,
    pub turns: bool,
    /// The fault the run ended in (a tick's, or the agent's own).
    pub fault: Option<Fault>,
    /// The input so far as an input file (`--write-input`), when kept.
    pub input: Option<InputLog>,
}

impl Driven {
    pub fn new(run: HeadlessRun, keep_input: bool) -> Driven {
        let turns = run.game.def().tick.mode == TickMode::Turns;
        Driven {
            run,
            held: PerTick::new(Vec::new()),
            steps: 0,
            turns,
            fault: None,
            input: keep_input.then(InputLog::default),
        }
    }

    /// Whether another step can run: no fault, the game not over, no error.
    pub fn can_step(&self) -> bool {
        self.fault.is_none() && self.run.error.is_none() && self.over().is_none()
    }

    /// The game's end, if it ended: (tick, message).
    pub fn over(&self) -> Option<(u64, &str)> {
        self.run.game.world().game_over()
    }

    /// Takes one step with `line`'s input on top of what is held (`None`: no new input).
    /// Returns whether play goes on.
    pub fn step(&mut self, line: Option<&Line>) -> bool {
        if !self.can_step() {
            return false;
        }
        self.steps += 1;
        if let (Some(log), Some(l)) = (&mut self.input, line)
            && let Err(e) = log.push(self.steps, &news(l, self.held.held()), self.run.game.def())
        {
            self.run.error = Some(e);
            return false;
        }
        let input = self.held.apply(line);
        let level = self.run.game.world().id();
        let result = self.run.input_step(&input, self.turns);
        if self.run.game.world().id() != level {
            self.held.level_changed();
        }
        match result {
            Ok(goes_on) => goes_on && self.run.error.is_none(),
            Err(f) => {
                self.fault = Some(f);
                false
            }
        }
    }
}

/// What of `line` changes the input when `held` is held: a press of a held button, a release
/// or cancel of one not held, an axis at its held value and the pointer where it is are left
/// out (the file then holds a line only where the input changes).
fn news(line: &Line, held: &TickInput) -> Line {
    // Applied in the order `Line::apply_to` applies them, on a copy of what is held.
    let mut bits = held.held;
    let mut keep = |list: &[ActionId], down: bool| -> Vec<ActionId> {
        let mut kept = Vec::new();
        for a in list {
            let bit = 1u64 << a.0;
            if (bits & bit != 0) != down {
                kept.push(*a);
            }
            if down {
                bits |= bit;
            } else {
                bits &= !bit;
            }
        }
        kept
    };
    let press = keep(&line.press, true);
    let release = keep(&line.release, false);
    let cancel = keep(&line.cancel, false);
    let mut axes = held.axes.clone();
    let axis = (line.axis.iter().copied())
        .filter(|(a, v)| match axes.get_mut(a.0 as usize) {
            Some(s) if *s == *v => false,
            Some(s) => {
                *s = *v;
                true
            }
            None => *v != 0.0,
        })
        .collect();
    Line {
        press,
        release,
        cancel,
        tap: line.tap.clone(),
        axis,
        pointer: line.pointer.filter(|p| *p != held.pointer),
        touches: line.touches.clone(),
        ..Line::default()
    }
}

/// An input file being written: its text and line count, within what `--input` reads back
/// ([`MAX_INPUT_BYTES`], [`MAX_LINES`]).
#[derive(Clone, Debug, Default)]
pub struct InputLog {
    pub text: String,
    pub lines: usize,
}

impl InputLog {
    /// Adds `line` as the input of step `step`; an error once the file would pass what
    /// `--input` reads.
    fn push(&mut self, step: u64, line: &Line, def: &GameDef) -> Result<(), String> {
        if *line == Line::default() {
            return Ok(());
        }
        let text = line_json(step, line, def);
        if self.lines >= MAX_LINES || (self.text.len() + text.len() + 1) as u64 > MAX_INPUT_BYTES {
            return Err(format!(
                "the input file would pass what --input reads ({MAX_LINES} lines, {} MiB)",
                MAX_INPUT_BYTES >> 20
            ));
        }
        self.text.push_str(&text);
        self.text.push('\n');
        self.lines += 1;
        Ok(())
    }
}

/// `line` as an `--input` file's line for step `step`; numbers print as the shortest decimal
/// that reads back to the same `f32`, so the file reproduces the run exactly.
pub fn line_json(step: u64, line: &Line, def: &GameDef) -> String {
    let name = |a: &ActionId| def.actions.get(*a).map_or("?", |d| d.name.as_str());
    let mut out = format!("{{\"tick\":{step}");
    for (key, list) in [
        ("press", &line.press),
        ("release", &line.release),
        ("tap", &line.tap),
        ("cancel", &line.cancel),
    ] {
        if !list.is_empty() {
            let names: Vec<String> = list.iter().map(|a| json_string(name(a))).collect();
            let _ = write!(out, ",\"{key}\":[{}]", names.join(","));
        }
    }
    if !line.axis.is_empty() {
        let axes: Vec<String> = line
            .axis
            .iter()
            .map(|(a, v)| format!("{}:{v}", json_string(name(a))))
            .collect();
        let _ = write!(out, ",\"axis\":{{{}}}", axes.join(","));
    }
    match line.pointer {
        None => {}
        Some(None) => out.push_str(",\"pointer\":null"),
        Some(Some([x, y])) => {
            let _ = write!(out, ",\"pointer\":[{x},{y}]");
        }
    }
    if let Some(touches) = &line.touches {
        let list: Vec<String> = touches
            .iter()
            .map(|t| format!("{{\"id\":{},\"x\":{},\"y\":{}}}", t.id, t.x, t.y))
            .collect();
        let _ = write!(out, ",\"touches\":[{}]", list.join(","));
    }
    out.push('}');
    out
}

//! Agents: a Lua bot that plays a game by deciding each tick's input (`ludus sim --agent`).
//!
//! A bot is one script run in a VM of its own, under the same fences as gameplay scripts (the
//! sandbox, an instruction budget per decision, the game's script memory limit). It defines
//! `decide(info)`, which the driver calls before a tick with the world lent read-only (see
//! `Game::observe`): every `ludus.*` read works as in a handler, every command and timer is
//! a fault. What `decide` returns is the tick's input, in the shape of an input file's line:
//! `{ press = {...}, release = {...}, tap = {...}, axis = { name = v }, pointer = { x, y },
//! touches = { { id = 1, x = 10, y = 20 }, ... } }` (`pointer = false`: the pointer left the
//! view; `touches = {}`: every finger lifted), or nil for none.

use crate::budget::Budget;
use crate::host::{ScriptHost, Vm, finish};
use crate::shared::{ScriptLog, Shared};
use crate::source::Script;
use crate::stage::StageSlot;
use ludus_core::{
    ActionId, ActionKind, Fault, FaultKind, GameDef, Gameplay, MAX_TOUCHES, Touch, check_touches,
    closest,
};
use mlua::{Function, Table, Value};
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

/// The keys a decision may hold, in the order they are read.
pub const DECISION_KEYS: &[&str] = &["press", "release", "tap", "axis", "pointer", "touches"];

/// The most names one list (or axis table) of a decision may hold.
const MAX_NAMES: usize = 256;

/// One tick's input as a bot decided it: what an input file's line holds.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Decision {
    pub press: Vec<ActionId>,
    pub release: Vec<ActionId>,
    pub tap: Vec<ActionId>,
    pub axis: Vec<(ActionId, f32)>,
    /// `Some(None)`: the pointer left the view; `None`: unchanged.
    pub pointer: Option<Option<[f32; 2]>>,
    /// The fingers down from this tick on (`Some(vec![])`: all lifted); `None`: unchanged.
    pub touches: Option<Vec<Touch>>,
}

/// A loaded bot (see the module documentation).
pub struct Bot {
    def: Arc<GameDef>,
    shared: Rc<Shared>,
    vm: Vm,
    decide: Function,
    /// `file:line` where `decide` is defined, for faults in what it returns.
    at: String,
}

impl Bot {
    /// Loads the bot `script` for the game `def` (its top level runs under the budget); a bot
    /// without a `decide` function is a fault naming the file.
    pub fn new(def: Arc<GameDef>, script: Script) -> Result<Bot, Fault> {
        let shared = Rc::new(Shared {
            log: RefCell::new(ScriptLog::default()),
            budget: Rc::new(Budget::default()),
            stage: StageSlot::default(),
            malformed: RefCell::new(None),
            profile: RefCell::default(),
        });
        let path = script.path.clone();
        let vm = ScriptHost::boot(&def, &[script], None, &shared)?;
        let env: Table = vm
            .envs
            .raw_get(1)
            .map_err(|e| Fault::new(FaultKind::Load, e.to_string()))?;
        let Ok(Value::Function(decide)) = env.raw_get::<Value>("decide") else {
            return Err(Fault::new(
                FaultKind::Load,
                format!(
                    "{path}: a bot defines `function decide(info)`, returning the tick's input"
                ),
            ));
        };
        let line = decide.info().line_defined.unwrap_or(0);
        Ok(Bot {
            def,
            shared,
            vm,
            decide,
            at: format!("{path}:{line}"),
        })
    }

    /// Lines the bot printed since the last call.
    pub fn take_log(&mut self) -> Vec<String> {
        self.shared.log.borrow_mut().take()
    }

    /// Calls `decide(info)` with `g` lent (`info.tick`: the tick about to run) and returns the
    /// input it decided (`None`: nil, no input). A runaway loop, an error, a command, or a
    /// return value that is not an input is a fault with the bot's file and line.
    pub fn decide(&mut self, g: &mut Gameplay<'_>) -> Result<Option<Decision>, Fault> {
        let budget = &self.shared.budget;
        budget.reset(self.def.scripts.instruction_budget);
        *self.shared.malformed.borrow_mut() = None;
        let lua = &self.vm.lua;
        let io = |e: mlua::Error| Fault::new(FaultKind::Script, e.to_string());
        let info = lua.create_table().map_err(io)?;
        info.raw_set("tick", g.tick()).map_err(io)?;
        let thread = lua.create_thread(self.decide.clone()).map_err(io)?;
        budget.run_on(thread.to_pointer());
        let mut out = Value::Nil;
        let result = self.shared.stage.lend(g, || {
            thread.resume::<Value>(info).map(|v| {
                out = v;
            })
        });
        if let Some(f) = self.shared.malformed.borrow_mut().take() {
            return Err(f);
        }
        finish(
            &thread,
            result,
            budget,
            FaultKind::Script,
            "decide",
            "per decision",
        )?;
        decision(&out, &self.def).map_err(|m| {
            Fault::new(FaultKind::Script, format!("decide returned {m}"))
                .with_location(self.at.clone())
        })
    }
}

/// The input a returned value describes.
fn decision(v: &Value, def: &GameDef) -> Result<Option<Decision>, String> {
    let t = match v {
        Value::Nil => return Ok(None),
        Value::Table(t) => t,
        other => {
            return Err(format!(
                "{}; it returns a table of input (press, release, tap, axis, pointer) or nil",
                a_type(other)
            ));
        }
    };
    for pair in t.clone().pairs::<Value, Value>().take(MAX_NAMES) {
        let (k, _) = pair.map_err(|e| e.to_string())?;
        let known = matches!(&k, Value::String(s) if DECISION_KEYS.iter().any(|d| *s.as_bytes() == *d.as_bytes()));
        if !known {
            return Err(format!(
                "an unknown key {} (expected one of: {})",
                shown(&k),
                DECISION_KEYS.join(", ")
            ));
        }
    }
    let get = |key: &str| t.raw_get::<Value>(key).map_err(|e| e.to_string());
    let mut d = Decision {
        press: names(&get("press")?, "press", def)?,
        release: names(&get("release")?, "release", def)?,
        tap: names(&get("tap")?, "tap", def)?,
        ..Decision::default()
    };
    match get("axis")? {
        Value::Nil => {}
        Value::Table(axes) => {
            for pair in axes.pairs::<Value, Value>() {
                let (k, v) = pair.map_err(|e| e.to_string())?;
                if d.axis.len() >= MAX_NAMES {
                    return Err(format!("more than {MAX_NAMES} axes"));
                }
                let Value::String(name) = &k else {
                    return Err(format!(
                        "`axis` keyed by {} (expected action names)",
                        shown(&k)
                    ));
                };
                let name = name.to_string_lossy();
                let id = action(&name, def, ActionKind::Axis)?;
                let value = match v {
                    Value::Integer(i) => i as f64,
                    Value::Number(n) => n,
                    _ => f64::NAN,
                };
                if !(value.is_finite() && (-1.0..=1.0).contains(&value)) {
                    return Err(format!(
                        "axis `{name}` = {} (expected a number in [-1, 1])",
                        shown(&v)
                    ));
                }
                d.axis.push((id, value as f32));
            }
        }
        other => {
            return Err(format!(
                "`axis` as {} (expected a table of action = value)",
                shown(&other)
            ));
        }
    }
    d.pointer = match get("pointer")? {
        Value::Nil => None,
        Value::Boolean(false) => Some(None),
        Value::Table(p) => {
            let x = number(p.raw_get::<Value>(1).map_err(|e| e.to_string())?);
            let y = number(p.raw_get::<Value>(2).map_err(|e| e.to_string())?);
            match (x, y) {
                (Some(x), Some(y)) if x.abs() <= 1e9 && y.abs() <= 1e9 => {
                    Some(Some([x as f32, y as f32]))
                }
                _ => return Err("`pointer` that is not {x, y} in world units (within ±1e9)".into()),
            }
        }
        other => {
            return Err(format!(
                "`pointer` as {} (expected {{x, y}}, or false when it left the view)",
                shown(&other)
            ));
        }
    };
    d.touches = touches(get("touches")?)?;
    Ok(Some(d))
}

/// A decision's `touches`: a list of at most [`MAX_TOUCHES`] `{ id = n, x = .., y = .. }`,
/// as an input file's line holds them.
fn touches(v: Value) -> Result<Option<Vec<Touch>>, String> {
    let expected = "expected a list of { id = n, x = .., y = .. }";
    let list = match v {
        Value::Nil => return Ok(None),
        Value::Table(t) => t,
        other => return Err(format!("`touches` as {} ({expected})", shown(&other))),
    };
    let n = list.raw_len();
    if n > MAX_TOUCHES {
        return Err(format!(
            "`touches` with {n} fingers (at most {MAX_TOUCHES} are down at once)"
        ));
    }
    let mut out = Vec::with_capacity(n);
    for i in 1..=n {
        let Value::Table(t) = list.raw_get::<Value>(i).map_err(|e| e.to_string())? else {
            return Err(format!(
                "`touches` entry {i} that is not a table ({expected})"
            ));
        };
        let field = |k: &str| t.raw_get::<Value>(k).map_err(|e| e.to_string()).map(number);
        let id =
            field("id")?.filter(|v| v.fract() == 0.0 && (0.0..=f64::from(u32::MAX)).contains(v));
        let Some(id) = id else {
            return Err(format!(
                "`touches` entry {i} without a whole `id` from 0 to {}",
                u32::MAX
            ));
        };
        match (field("x")?, field("y")?) {
            (Some(x), Some(y)) => out.push(Touch::new(id as u32, [x as f32, y as f32])),
            _ => return Err(format!("`touches` entry {i} without numbers `x` and `y`")),
        }
    }
    check_touches(&out).map_err(|e| format!("`touches`: {e}"))?;
    Ok(Some(out))
}

fn number(v: Value) -> Option<f64> {
    match v {
        Value::Integer(i) => Some(i as f64),
        Value::Number(n) if n.is_finite() => Some(n),
        _ => None,
    }
}

/// A list of button action names.
fn names(v: &Value, key: &str, def: &GameDef) -> Result<Vec<ActionId>, String> {
    let list = match v {
        Value::Nil => return Ok(Vec::new()),
        Value::Table(t) => t,
        other => {
            return Err(format!(
                "`{key}` as {} (expected a list of action names)",
                shown(other)
            ));
        }
    };
    let n = list.raw_len();
    if n > MAX_NAMES {
        return Err(format!("`{key}` with {n} names (at most {MAX_NAMES})"));
    }
    (1..=n)
        .map(
            |i| match list.raw_get::<Value>(i).map_err(|e| e.to_string())? {
                Value::String(s) => action(&s.to_string_lossy(), def, ActionKind::Button),
                other => Err(format!(
                    "`{key}` holding {} (expected action names)",
                    shown(&other)
                )),
            },
        )
        .collect()
}

fn action(name: &str, def: &GameDef, kind: ActionKind) -> Result<ActionId, String> {
    let Some(id) = def.actions.find(name) else {
        let known = def.actions.iter().map(|(_, a)| a.name.as_str());
        let hint = closest(name, known)
            .map(|c| format!(" (did you mean `{c}`?)"))
            .unwrap_or_default();
        return Err(format!(
            "an unknown action `{}`{hint}",
            ludus_core::printable_line(name)
        ));
    };
    match def.actions.get(id) {
        Some(a) if a.kind != kind => Err(format!(
            "action `{name}` where it is {} (press, release and tap take buttons; axis takes axes)",
            match a.kind {
                ActionKind::Button => "a button",
                ActionKind::Axis => "an axis",
            }
        )),
        _ => Ok(id),
    }
}

/// A value, for a message: a string quoted and cut, anything else by its type.
fn shown(v: &Value) -> String {
    match v {
        Value::String(s) => {
            let s = s.to_string_lossy();
            let cut: String = s.chars().take(40).collect();
            format!("`{}`", ludus_core::printable_line(&cut))
        }
        Value::Integer(i) => i.to_string(),
        Value::Number(n) => n.to_string(),
        other => a_type(other),
    }
}

/// A value's type with its article: "a table", "an integer".
fn a_type(v: &Value) -> String {
    let name = v.type_name();
    let article = if name.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    };
    format!("{article} {name}")
}

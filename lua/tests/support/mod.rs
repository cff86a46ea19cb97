//! A fenced VM with a meter, and chunks run on it.
#![allow(dead_code)]

use ludus_lua::{Meter, sandboxed};
use mlua::Lua;
use std::rc::Rc;

/// A sandboxed VM whose meter holds an allowance of `units`, with `memory` bytes of script
/// memory (0: no limit). No count hook is set: only the VM's and the fences' charges count.
pub fn vm(units: u64, memory: usize) -> (Lua, Rc<Meter>) {
    let lua = sandboxed().expect("a sandboxed VM");
    let meter = Rc::new(Meter::default());
    Meter::install(&meter, &lua);
    meter.reset(units);
    if memory > 0 {
        lua.set_memory_limit(memory).expect("a memory limit");
    }
    (lua, meter)
}

/// Runs `code` as the chunk `test`; the error's message if it fails.
pub fn run(lua: &Lua, code: &str) -> Result<(), String> {
    lua.load(code)
        .set_name("=test")
        .exec()
        .map_err(|e| match e {
            mlua::Error::RuntimeError(m) | mlua::Error::SyntaxError { message: m, .. } => m,
            mlua::Error::CallbackError { cause, .. } => cause.to_string(),
            other => other.to_string(),
        })
}

/// What `code` (an expression) evaluates to, as a string.
pub fn eval(lua: &Lua, code: &str) -> String {
    lua.load(format!("return {code}"))
        .set_name("=test")
        .eval::<mlua::Value>()
        .map(|v| match v {
            mlua::Value::String(s) => s.to_string_lossy(),
            other => format!("{other:?}"),
        })
        .unwrap_or_else(|e| format!("error: {e}"))
}

//! The Lua host: one sandboxed VM per world, scripts loaded under the same fences as handlers,
//! and [`Consequences`] implemented by dispatching each gameplay stage's events to handlers.

use crate::api;
use crate::budget::{self, Budget};
use crate::encode::Encoder;
use crate::error::{fault_from_lua, script_fault};
use crate::sandbox;
use crate::shared::{ScriptLog, Shared};
use crate::source::{ModuleSource, Script};
use crate::stage::StageSlot;
use ludus_core::{Consequences, EVENT_KINDS, Fault, FaultKind, GameDef, Gameplay, SimWorld, Stage};
use ludus_lua::Cause;
use mlua::thread::ThreadStatus;
use mlua::{Function, Lua, Table, Value};
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

/// Reads a monotonic clock in nanoseconds (injected: the host itself reads no clock).
pub type Clock = Box<dyn Fn() -> u64>;

/// Counters for the overlay and benchmarks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HostStats {
    pub stages_run: u64,
    pub events_delivered: u64,
    pub commands_sent: u64,
    /// Instructions (to hook granularity) used by the last tick.
    pub last_tick_instructions: u64,
    /// Nanoseconds the last tick's stages spent in the scripts' handlers (and the commands
    /// they sent), where a clock is set: only stages that call a handler are timed.
    pub last_tick_ns: u64,
    pub memory_bytes: usize,
}

pub(crate) struct Vm {
    pub(crate) lua: Lua,
    dispatch: Function,
    pub(crate) envs: Table,
    /// The same environments in load order, held on this side, and each event kind's handler
    /// name as a Lua string (made once: a lookup by a Rust `&str` makes the Lua string again
    /// every time), in [`EVENT_KINDS`] order: asking each environment whether it defines a
    /// handler then reads one field, where walking `envs` took each one out first (about
    /// 1,200 instructions a script, asked for every kind with events every stage).
    handlers: ludus_lua::Holders,
    /// The prelude's profiling switch and clock (see [`HandlerProfile`](crate::shared::HandlerProfile)).
    profile: Table,
    /// The dispatch's `counts` argument, one entry per event kind, kept between stages: a
    /// stage sets only the entries that changed (a few), where making the table afresh cost
    /// about 13,000 instructions a stage, a tenth of a 1,000-drone tick.
    counts: Table,
    /// What `counts` holds, by kind.
    counts_held: Vec<usize>,
    /// The dispatch's `present` argument: the kinds (from 1) with events in the stage, in
    /// order, at 1..m (entries past m are stale), so the dispatch visits those alone rather than
    /// every kind. Kept between stages like `counts`, setting only what changed.
    present: Table,
    /// What `present` holds at 1.. (a zero for every kind at first: room in its array part).
    present_held: Vec<usize>,
    /// The blobs that carry each stage's events to the dispatch, reused.
    blobs: ludus_lua::Blobs,
    /// The coroutine the last stage ran in, when it finished (no fault, no yield): the next
    /// stage runs in it again rather than in a new one (a thread and its stack made and
    /// collected every stage).
    spare: Option<mlua::Thread>,
}

/// See the module documentation. Build one with [`ScriptHost::new`]; it implements
/// [`Consequences`].
pub struct ScriptHost {
    def: Arc<GameDef>,
    scripts: Vec<Script>,
    modules: Option<Rc<dyn ModuleSource>>,
    shared: Rc<Shared>,
    vm: Vm,
    encoder: Encoder,
    clock: Option<Clock>,
    stats: HostStats,
    /// The VM was just booted and no world has used it yet.
    fresh: bool,
    /// Handlers' `file:function` names for the profiler, by script and kind.
    names: Vec<Option<std::sync::Arc<str>>>,
}

impl ScriptHost {
    /// Creates the VM and loads every script (its top-level code runs under the budget and
    /// memory limit). A failure is a fault naming the script and line.
    pub fn new(
        def: Arc<GameDef>,
        scripts: Vec<Script>,
        modules: Option<Rc<dyn ModuleSource>>,
    ) -> Result<ScriptHost, Fault> {
        let shared = Rc::new(Shared {
            log: RefCell::new(ScriptLog::default()),
            budget: Rc::new(Budget::default()),
            stage: StageSlot::default(),
            malformed: RefCell::new(None),
            profile: RefCell::default(),
        });
        let vm = Self::boot(&def, &scripts, modules.clone(), &shared)?;
        Ok(ScriptHost {
            def,
            scripts,
            modules,
            shared,
            vm,
            encoder: Encoder::default(),
            clock: None,
            stats: HostStats::default(),
            fresh: true,
            names: Vec::new(),
        })
    }

    /// Measures time spent in scripts with this clock.
    pub fn with_clock(mut self, clock: Clock) -> Self {
        self.clock = Some(clock);
        self
    }

    pub fn stats(&self) -> HostStats {
        self.stats
    }

    pub fn scripts(&self) -> &[Script] {
        &self.scripts
    }

    /// Lines printed by scripts since the last call.
    pub fn take_log(&mut self) -> Vec<String> {
        self.shared.log.borrow_mut().take()
    }

    /// Replaces the scripts (hot reload). On failure the running scripts are kept and the
    /// fault is returned.
    pub fn reload(&mut self, scripts: Vec<Script>) -> Result<(), Fault> {
        let vm = Self::boot(&self.def, &scripts, self.modules.clone(), &self.shared)?;
        self.vm = vm;
        self.scripts = scripts;
        self.names.clear();
        self.fresh = true;
        Ok(())
    }

    pub(crate) fn boot(
        def: &Arc<GameDef>,
        scripts: &[Script],
        modules: Option<Rc<dyn ModuleSource>>,
        shared: &Rc<Shared>,
    ) -> Result<Vm, Fault> {
        let lua_err =
            |e: mlua::Error| Fault::new(FaultKind::Load, format!("cannot start the Lua VM: {e}"));
        let lua = sandbox::new_lua().map_err(lua_err)?;
        let raw = lua.create_table().map_err(lua_err)?;
        api::install(&lua, &raw, shared).map_err(lua_err)?;
        let profile = profile_table(&lua, shared).map_err(lua_err)?;
        let (dispatch, envs) = sandbox::prelude(&lua, def, &raw, &profile).map_err(lua_err)?;
        let budget = shared.budget.clone();
        budget::install(&lua, budget.clone()).map_err(lua_err)?;
        // An allowance for the host's own set-up below (its tables charge the meter as any
        // work does): charged to a meter never reset, it would spend it and arm the main
        // thread's hook to fire at every instruction from then on.
        budget.reset(def.scripts.instruction_budget);
        lua.set_memory_limit(def.scripts.memory_limit)
            .map_err(lua_err)?;
        sandbox::install_require(&lua, modules, budget.clone()).map_err(lua_err)?;
        let handlers = EVENT_KINDS
            .iter()
            .map(|spec| lua.create_string(spec.handler))
            .collect::<mlua::Result<Vec<_>>>()
            .map_err(lua_err)?;
        let handlers = ludus_lua::Holders::new(handlers);
        let counts_held = vec![0; EVENT_KINDS.len()];
        let counts = lua
            .create_sequence_from(counts_held.iter().copied())
            .map_err(lua_err)?;
        // Room for every kind in its array part, so `keep` writes it in place.
        let present = lua
            .create_sequence_from(counts_held.iter().copied())
            .map_err(lua_err)?;
        let blobs = ludus_lua::Blobs::new(&lua).map_err(lua_err)?;
        let mut vm = Vm {
            lua,
            dispatch,
            envs,
            handlers,
            profile,
            counts,
            counts_held,
            present,
            present_held: vec![0; EVENT_KINDS.len()],
            blobs,
            spare: None,
        };
        for (i, script) in scripts.iter().enumerate() {
            let env = Self::load_script(&vm, &budget, def, script, i + 1)?;
            vm.handlers.add(env);
        }
        Ok(vm)
    }

    fn load_script(
        vm: &Vm,
        budget: &Budget,
        def: &GameDef,
        script: &Script,
        index: usize,
    ) -> Result<Table, Fault> {
        let lua = &vm.lua;
        // One allowance for making the script's environment, compiling the file and running
        // its top level.
        budget.reset(def.scripts.instruction_budget);
        let env =
            sandbox::new_env(lua).map_err(|e| script_fault(FaultKind::Load, &e.to_string()))?;
        let chunk = lua
            .load(script.text.as_str())
            .set_name(format!("@{}", script.path))
            .set_mode(mlua::chunk::ChunkMode::Text)
            .set_environment(env.clone())
            .into_function()
            .map_err(|e| fault_from_lua(&e, FaultKind::Load, None))?;
        let thread = lua
            .create_thread(chunk)
            .map_err(|e| fault_from_lua(&e, FaultKind::Load, None))?;
        budget.run_on(thread.to_pointer());
        let result = thread.resume::<()>(());
        let allowance = "for a file's top-level code";
        finish(
            &thread,
            result,
            budget,
            FaultKind::Load,
            &script.path,
            allowance,
        )?;
        vm.envs
            .raw_set(index, &env)
            .map_err(|e| fault_from_lua(&e, FaultKind::Load, None))?;
        Ok(env)
    }

    /// `file:line` where the first handler of the first kind with events in `counts` is
    /// defined.
    fn first_handler(vm: &Vm, counts: &[usize]) -> Option<String> {
        let k = counts.iter().position(|&n| n > 0)?;
        let name = vm.handlers.key(k);
        vm.handlers.tables().find_map(|env| {
            let Ok(Value::Function(h)) = env.raw_get::<Value>(name) else {
                return None;
            };
            let info = h.info();
            let line = info.line_defined.filter(|&l| l > 0)?;
            Some(format!("{}:{line}", info.short_src?))
        })
    }

    /// Whether any script defines a handler of event kind `k` ([`EVENT_KINDS`] order).
    fn handled(vm: &Vm, k: usize) -> bool {
        vm.handlers.any(k)
    }
}

/// The prelude's profiling table: `on` (whether a clock is set), `now()` and
/// `done(script, kind, start)`, which keeps one handler call's time in `shared`.
fn profile_table(lua: &Lua, shared: &Rc<Shared>) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    t.raw_set("on", shared.profile.borrow().clock.is_some())?;
    let s = shared.clone();
    let now = move || s.profile.borrow().clock.map_or(0, |c| c());
    let now2 = now.clone();
    t.raw_set("now", lua.create_function(move |_, ()| Ok(now() as i64))?)?;
    let s = shared.clone();
    let done = lua.create_function(move |_, (i, k, start): (u32, u32, i64)| {
        let end = now2();
        let mut p = s.profile.borrow_mut();
        // A handful per stage at most (one per script and kind): bounded all the same.
        if p.calls.len() < MAX_PROFILED_CALLS {
            p.calls
                .push((i, k, start as u64, end.saturating_sub(start as u64)));
        }
        Ok(())
    })?;
    t.raw_set("done", done)?;
    Ok(t)
}

/// The most handler calls kept between two reads of the profile.
const MAX_PROFILED_CALLS: usize = 65_536;

/// Interprets the end of a resumed host coroutine. Every fault names the script's file and
/// line when any script frame was running: from the budget's meter, the error, or else the
/// failed coroutine's own stack (which an error leaves in place). `allowance` says what the
/// instruction budget was for ("per tick", ...).
pub(crate) fn finish(
    thread: &mlua::Thread,
    result: mlua::Result<()>,
    budget: &Budget,
    kind: FaultKind,
    context: &str,
    allowance: &str,
) -> Result<(), Fault> {
    let fault = match budget.cause() {
        Some(Cause::Budget) => Some(Fault::new(
            kind,
            format!(
                "instruction budget exceeded ({} instructions {allowance}): a runaway loop, or \
                 library calls doing too much work?",
                budget.limit()
            ),
        )),
        Some(Cause::Memory) => Some(Fault::new(
            kind,
            "the script memory limit was exceeded (raise [scripts] memory, or look for a \
             table that grows without bound)",
        )),
        Some(Cause::Host) | None => match result {
            Err(e) => Some(fault_from_lua(&e, kind, Some(budget.limit()))),
            Ok(()) if thread.status() == ThreadStatus::Resumable => Some(Fault::new(
                kind,
                format!("{context}: a script yielded from outside a coroutine it created"),
            )),
            Ok(()) => None,
        },
    };
    match fault {
        None => Ok(()),
        Some(f) if f.location.is_some() => Err(f),
        Some(f) => match budget
            .location()
            .or_else(|| crate::error::stack_location(thread))
            .or_else(|| crate::error::handler_location(thread))
        {
            Some(l) => Err(f.with_location(l)),
            None => Err(f),
        },
    }
}

impl Consequences for ScriptHost {
    fn begin_world(&mut self, _def: &GameDef, _world: &SimWorld) -> Result<(), Fault> {
        // A fresh VM per world: script globals from the old world never leak into the new one,
        // and a VM left full by a memory bomb is gone.
        if !self.fresh {
            self.vm = Self::boot(&self.def, &self.scripts, self.modules.clone(), &self.shared)?;
        }
        self.fresh = false;
        Ok(())
    }

    fn stage(&mut self, stage: Stage, g: &mut Gameplay<'_>) -> Result<(), Fault> {
        if stage == Stage::One {
            self.shared
                .budget
                .reset(self.def.scripts.instruction_budget);
            self.stats.last_tick_ns = 0;
        }
        let vm = &self.vm;
        self.encoder
            .stage(g.events(), stage, |k| Self::handled(vm, k));
        let total: usize = self.encoder.counts.iter().sum();
        let result = if total == 0 {
            Ok(())
        } else {
            self.stats.stages_run += 1;
            self.stats.events_delivered += total as u64;
            // Timed where scripts run: a stage with no handler to call reads no clock (in the
            // browser a reading costs about 0.2 µs), and the native systems between the
            // stages are not counted as the scripts'.
            let started = self.clock.as_ref().map(|c| c());
            let result = self.run_stage(g);
            if let (Some(c), Some(started)) = (&self.clock, started) {
                self.stats.last_tick_ns += c().saturating_sub(started);
            }
            result
        };
        self.stats.last_tick_instructions = self.shared.budget.used();
        self.stats.memory_bytes = self.vm.lua.used_memory();
        result
    }

    fn last_tick_ns(&self) -> Option<u64> {
        self.clock.as_ref().map(|_| self.stats.last_tick_ns)
    }

    fn drain_log(&mut self) -> Vec<String> {
        self.take_log()
    }

    fn set_profiling(&mut self, clock: Option<ludus_core::profile::Clock>) {
        let mut p = self.shared.profile.borrow_mut();
        p.clock = clock;
        p.calls.clear();
        // Only a VM without memory to spare refuses the write; it then times nothing.
        let _ = self.vm.profile.raw_set("on", clock.is_some());
    }

    fn take_spans(&mut self, out: &mut Vec<ludus_core::profile::Span>) {
        use ludus_core::profile::{Span, SpanKind, SpanName};
        let calls = std::mem::take(&mut self.shared.profile.borrow_mut().calls);
        for (i, k, start, dur) in calls {
            out.push(Span {
                kind: SpanKind::Handler,
                name: SpanName::Shared(self.handler_name(i, k)),
                phase: None,
                start_ns: start,
                dur_ns: dur,
            });
        }
    }
}

impl ScriptHost {
    /// `file:function` of script `i`'s handler of event kind `k` (both from 1), made once.
    fn handler_name(&mut self, i: u32, k: u32) -> std::sync::Arc<str> {
        let kinds = EVENT_KINDS.len();
        let at = (i as usize).saturating_sub(1) * kinds + (k as usize).saturating_sub(1);
        if self.names.len() <= at {
            self.names.resize(at + 1, None);
        }
        self.names[at]
            .get_or_insert_with(|| {
                let file = self
                    .scripts
                    .get(i as usize - 1)
                    .map_or("?", |s| s.path.as_str());
                let handler = EVENT_KINDS.get(k as usize - 1).map_or("?", |e| e.handler);
                format!("{file}:{handler}").into()
            })
            .clone()
    }

    fn run_stage(&mut self, g: &mut Gameplay<'_>) -> Result<(), Fault> {
        let spare = self.vm.spare.take();
        let mut present = 0;
        let mut failed = None;
        for (k, &now) in self.encoder.counts.iter().enumerate() {
            let vm = &mut self.vm;
            let mut kept = keep(&vm.counts, &mut vm.counts_held, k, now);
            if now > 0 && kept.is_ok() {
                kept = keep(&vm.present, &mut vm.present_held, present, k + 1);
                present += 1;
            }
            if let Err(e) = kept {
                failed = Some(e);
                break;
            }
        }
        let blob = self.vm.blobs.fill(&self.encoder.blob);
        let vm = &self.vm;
        let lua = &vm.lua;
        let shared = &self.shared;
        let sent_before = g.commands_sent();
        *shared.malformed.borrow_mut() = None;
        // Before any handler runs (the batch does not fit in memory, say): the fault is at the
        // first handler the batch is for.
        let io = |e: mlua::Error| {
            let f = fault_from_lua(&e, FaultKind::Script, None);
            match (&f.location, Self::first_handler(vm, &self.encoder.counts)) {
                (None, Some(l)) => f.with_location(l),
                _ => f,
            }
        };
        if let Some(e) = failed {
            return Err(io(e));
        }
        let counts = vm.counts.clone();
        let kinds = vm.present.clone();
        let blob = blob.map_err(io)?;
        let thread = match spare {
            Some(t) => {
                t.reset(vm.dispatch.clone()).map_err(io)?;
                ludus_lua::rewind_hook(&t);
                t
            }
            None => lua.create_thread(vm.dispatch.clone()).map_err(io)?,
        };
        shared.budget.run_on(thread.to_pointer());
        let result = shared
            .stage
            .lend(g, || thread.resume::<()>((counts, blob, kinds, present)));
        self.stats.commands_sent += (g.commands_sent() - sent_before) as u64;
        if let Some(f) = shared.malformed.borrow_mut().take() {
            return Err(f);
        }
        finish(
            &thread,
            result,
            &shared.budget,
            FaultKind::Script,
            "a handler",
            "per tick",
        )?;
        // A coroutine whose hook was armed (a spent budget, a malformed command) is not
        // reused, even had the stage ended without a fault.
        if thread.status() == ThreadStatus::Finished && shared.budget.cause().is_none() {
            self.vm.spare = Some(thread);
        }
        Ok(())
    }
}

/// Sets entry `at + 1` of `table` to `value` unless `held` (what the table holds, by entry
/// from 1) says it holds it already.
fn keep(table: &Table, held: &mut Vec<usize>, at: usize, value: usize) -> mlua::Result<()> {
    if held.get(at) == Some(&value) {
        return Ok(());
    }
    // In place where the entry lies in the table's array part (every entry of `counts` and
    // `present`, both made with room for every kind).
    if !ludus_lua::set_in_array(table, at + 1, value as i64) {
        table.raw_set(at + 1, value)?;
    }
    if held.len() <= at {
        held.resize(at + 1, 0);
    }
    held[at] = value;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Set-up and loading leave the main thread's count hook at its interval: their charges
    /// fall within an allowance. (Charged to a meter never reset, the first would spend it and
    /// arm the main thread's hook to fire, and charge a whole interval, at every instruction.)
    #[test]
    fn loading_leaves_the_main_thread_unarmed() {
        let script = Script {
            path: "scripts/main.lua".into(),
            text: "local t = {} for i = 1, 100 do t[i] = i end\nfunction on_tick() end".into(),
        };
        let host = ScriptHost::new(Arc::new(GameDef::default()), vec![script], None)
            .expect("the script loads");
        let main = host.vm.lua.state();
        // SAFETY: reads the hook fields of the main thread of a live state no Lua runs in.
        let (mask, count) = unsafe {
            (
                mlua::ffi::lua_gethookmask(main),
                mlua::ffi::lua_gethookcount(main),
            )
        };
        assert_eq!(mask, mlua::ffi::LUA_MASKCOUNT);
        assert_eq!(count, budget::GRANULARITY as i32);
    }
}

//! Hot reload for `ludus run`: watch the game folder, reload what changed.
//!
//! - A script change swaps in a new Lua VM with the new scripts; the world keeps running.
//! - A content change (any TOML file) rebuilds the game and restarts the level.
//! - A reload that fails (bad TOML, a syntax error, a fault in a script's top-level code)
//!   keeps the running version and shows the error until a later reload succeeds.

use crate::project::Project;
use crate::runner::Runner;
use notify::{RecursiveMode, Watcher as _};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, channel};

pub struct Watcher {
    _inner: notify::RecommendedWatcher,
    events: Receiver<notify::Result<notify::Event>>,
}

impl Watcher {
    pub fn new(dir: &Path) -> notify::Result<Watcher> {
        let (tx, events) = channel();
        let mut inner = notify::recommended_watcher(move |e| {
            let _ = tx.send(e);
        })?;
        inner.watch(dir, RecursiveMode::Recursive)?;
        Ok(Watcher {
            _inner: inner,
            events,
        })
    }

    /// Whether a content or script file changed since the last call.
    pub fn changed(&mut self) -> bool {
        let mut changed = false;
        while let Ok(event) = self.events.try_recv() {
            if let Ok(event) = event
                && event.kind.is_modify() | event.kind.is_create() | event.kind.is_remove()
                && event.paths.iter().any(|p| {
                    matches!(
                        p.extension().and_then(|e| e.to_str()),
                        Some("toml" | "lua" | "png")
                    )
                })
            {
                changed = true;
            }
        }
        changed
    }
}

/// Reloads the runner's game folder (see the module documentation).
pub fn reload(runner: &mut Runner) {
    let dir = PathBuf::from(&runner.project.label);
    let fresh = match Project::load(&dir) {
        Ok(p) => p,
        Err(diagnostics) => {
            runner.reload_error = Some(format!(
                "reload failed, still running the previous version:\n{diagnostics}"
            ));
            return;
        }
    };
    let mut old = (*runner.project.def).clone();
    let mut new = (*fresh.def).clone();
    old.content_hash = 0;
    new.content_hash = 0;
    if old == new {
        // Scripts only: a new VM for the running world.
        match fresh.host() {
            Ok(mut host) => {
                use ludus_core::Consequences;
                let game = &mut runner.driven.game;
                if let Err(f) = host.begin_world(&fresh.def, game.world()) {
                    runner.reload_error = Some(format!("reload failed: {f}"));
                    return;
                }
                game.set_consequences(Box::new(host));
                runner.project = fresh;
                runner.reload_error = None;
                runner.log.push("scripts reloaded".into());
            }
            Err(f) => {
                runner.reload_error = Some(format!(
                    "reload failed, still running the previous scripts:\n{f}"
                ))
            }
        }
    } else {
        let entities = runner.stress;
        match Runner::new(fresh, entities, runner.driven.clock()) {
            Ok(mut r) => {
                r.set_stress(entities);
                r.overlay = runner.overlay;
                r.log = std::mem::take(&mut runner.log);
                r.log.push("content reloaded; level restarted".into());
                *runner = r;
            }
            Err(f) => {
                runner.reload_error = Some(format!(
                    "reload failed, still running the previous version:\n{f}"
                ))
            }
        }
    }
}

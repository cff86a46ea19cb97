//! Hot reload for `ludus run`: reload what changed in the game folder.
//!
//! - A script change swaps in a new Lua VM with the new scripts; the world keeps running.
//! - A content change (any TOML file) rebuilds the game and restarts the level.
//! - A reload that fails (bad TOML, a syntax error, a fault in a script's top-level code)
//!   keeps the running version and shows the error until a later reload succeeds.

use crate::runtime::Runner;
use std::path::PathBuf;

impl Runner {
    /// Reloads the game folder (see the module documentation).
    pub fn reload(&mut self) {
        reload(self);
    }
}

fn reload(runner: &mut Runner) {
    let dir = PathBuf::from(&runner.project.label);
    let fresh = match crate::platform::load_folder(&dir) {
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
                let game = &mut runner.timed.game;
                if let Err(f) = host.begin_world(&fresh.def, game.world()) {
                    runner.reload_error = Some(format!("reload failed: {f}"));
                    return;
                }
                game.set_consequences(Box::new(host));
                runner.project = fresh;
                runner.reload_error = None;
                runner
                    .log
                    .push("scripts and files reloaded; the world keeps running".into());
            }
            Err(f) => {
                runner.reload_error = Some(format!(
                    "reload failed, still running the previous scripts:\n{f}"
                ))
            }
        }
    } else {
        let entities = runner.stress;
        match Runner::new(fresh, entities, runner.timed.clock()) {
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

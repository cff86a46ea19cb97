//! Hot reload for `ludus run`: reload what changed in the game folder.
//!
//! - By default the level's kept input is re-simulated on the new content (`resim.rs`).
//! - With `--reload keep` (or when the input was not kept): a script change swaps in a new Lua
//!   VM with the new scripts and the world keeps running; a content change (any TOML file)
//!   rebuilds the game and restarts the level.
//! - A reload that fails (bad TOML, a syntax error, a fault in a script's top-level code)
//!   keeps the running version and shows the error until a later reload succeeds.

use crate::runtime::project::Project;
use crate::runtime::runner::{Reload, Runner};
use std::path::PathBuf;

impl Runner {
    /// Reloads the game folder (see the module documentation).
    pub fn reload(&mut self) {
        reload(self);
    }
}

fn reload(runner: &mut Runner) {
    let dir = PathBuf::from(&runner.play.project.label);
    runner.resim = None;
    let fresh = match Project::from_folder(&dir) {
        Ok(p) => p,
        Err(diagnostics) => {
            runner.ui.reload_error = Some(format!(
                "reload failed, still running the previous version:\n{diagnostics}"
            ));
            return;
        }
    };
    if runner.settings.reload == Reload::Resimulate {
        // A script that does not even start is reported as before, the world untouched.
        if let Err(f) = fresh.host() {
            runner.ui.reload_error = Some(format!(
                "reload failed, still running the previous version:\n{f}"
            ));
            return;
        }
        match runner.start_resim(fresh.clone()) {
            Ok(()) => {
                runner.ui.reload_error = None;
                return;
            }
            Err(why) => runner.ui.log.push(format!(
                "reload cannot re-simulate ({why}); reloading in place instead"
            )),
        }
    }
    let mut old = (*runner.play.project.def).clone();
    let mut new = (*fresh.def).clone();
    old.content_hash = 0;
    new.content_hash = 0;
    if old == new {
        // Scripts only: a new VM for the running world.
        match fresh.host() {
            Ok(mut host) => {
                use ludus_core::Consequences;
                let game = &mut runner.play.timed.game;
                if let Err(f) = host.begin_world(&fresh.def, game.world()) {
                    runner.ui.reload_error = Some(format!("reload failed: {f}"));
                    return;
                }
                game.set_consequences(Box::new(host));
                runner.play.project = fresh;
                runner.ui.reload_error = None;
                runner
                    .ui
                    .log
                    .push("scripts and files reloaded; the world keeps running".into());
            }
            Err(f) => {
                runner.ui.reload_error = Some(format!(
                    "reload failed, still running the previous scripts:\n{f}"
                ))
            }
        }
    } else {
        let entities = runner.settings.stress;
        match Runner::new(fresh, entities, runner.play.timed.clock()) {
            Ok(mut r) => {
                // One store per game: the restarted level keeps it.
                let store = runner.play.timed.game.world().saved().clone();
                let kept = r.play.start_saved(store);
                let settings = runner.settings;
                r.adopt(runner, settings);
                if let Err(f) = kept {
                    // Not written over with less: kept as it was until the next run.
                    r.play.saves = None;
                    r.ui.log
                        .push(format!("{f}; the saved data is not kept in this run"));
                }
                r.ui.log.push("content reloaded; level restarted".into());
                *runner = r;
            }
            Err(f) => {
                runner.ui.reload_error = Some(format!(
                    "reload failed, still running the previous version:\n{f}"
                ))
            }
        }
    }
}

//! The `ludus` API's Rust half.
//!
//! Every function of [`API`] not written in Lua is created once per VM here, into the
//! table the prelude builds `ludus` from. Commands and reads reach the running stage's
//! [`Gameplay`](ludus_core::Gameplay) through the host's [`StageSlot`](crate::stage::StageSlot): a command is
//! converted from Lua values here and handed to `Gameplay::send`, which validates it against
//! the game definition and buffers it (one path, one validation); a read asks the stage. The
//! host keeps no copy of stage state.
//!
//! A malformed call (wrong type, unknown name, non-finite number, or a command core refuses)
//! raises a Lua error *and* is recorded, and the stage ends at the script's next instruction,
//! so it faults with the script's file and line even if the script catches the error. Every
//! call is charged to the budget.

mod args;
#[macro_use]
mod declare;
mod behave;
mod call;
mod fast;
mod functions;
pub mod list;
mod looks;
mod names;
pub mod spec;
pub mod types;

use crate::shared::Shared;
use fast::Needs;
use functions::FAST;
use ludus_core::closest;
use ludus_lua::{Args, FastCall, Results};

pub use functions::{API, install};

/// The error for a `ludus.NAME` that does not exist, naming the closest one.
pub(crate) fn no_such_function(name: &str) -> String {
    let known = API.iter().map(|f| f.name);
    match closest(name, known) {
        Some(k) => format!("ludus.{name} does not exist (did you mean ludus.{k}?)"),
        None => format!("ludus.{name} does not exist (see docs/scripting.md for the API)"),
    }
}

impl FastCall for Shared {
    /// Runs fast command or read `which` with `args`. It takes the call only when
    /// the budget has the unit every API call costs, a stage is running, and the command
    /// builds and sends (the read answers): otherwise it changes nothing and the generic
    /// function handles the call (and reports what is wrong).
    fn call(&self, which: usize, args: &Args<'_>, out: &mut Results<'_>) -> bool {
        let Some(fast) = FAST.get(which) else {
            return false;
        };
        if !self.budget.fits(1) {
            return false;
        }
        let taken = self.stage.with(|g| {
            let ready = match fast.needs {
                Needs::Nothing => true,
                Needs::Grid => g.spatial_ready(),
                Needs::Census => self.budget.fits(1 + g.census_bound()),
            };
            if !ready || (fast.run)(g, args, out).is_err() {
                return false;
            }
            let units = 1 + g.take_work();
            // Only a grid read may be declined here: any other fast call was paid for before
            // it ran (it may have sent a command, drawn a number; a census read had the most
            // it can report in the budget), so it must not be declined now.
            debug_assert!(
                fast.needs == Needs::Grid || self.budget.fits(units),
                "ludus.{} reported more work than it had room for",
                fast.name
            );
            debug_assert!(
                fast.needs != Needs::Nothing || units == 1,
                "ludus.{} reported work",
                fast.name
            );
            let fits = self.budget.fits(units);
            if fits {
                self.budget.take_fitting(units);
            }
            fits
        });
        taken == Some(true)
    }
}

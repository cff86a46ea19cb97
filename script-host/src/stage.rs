//! The running gameplay stage, lent to the API's Rust functions while Lua runs.
//!
//! The `ludus.*` functions are created once per VM (creating them per stage would cost
//! microseconds per function every tick), so they cannot borrow the stage's [`Gameplay`] the
//! usual way. The host *lends* it for exactly the duration of the Lua call that runs the stage;
//! a function called at any other time (a script's top-level code, or after the stage) finds
//! nothing lent and says so.
//!
//! # Safety
//! - The pointer is set by [`StageSlot::lend`] from a `&mut Gameplay` that stays mutably
//!   borrowed for the whole call, and cleared before `lend` returns (also on unwind, by a
//!   guard), so it is valid whenever it is set.
//! - [`StageSlot::with`] hands out the `&mut Gameplay` for the duration of a closure only, and
//!   refuses a second borrow while one is active (a re-entrant call), so no two mutable
//!   references exist at once.
//! - Everything happens on the thread that owns the Lua state (the slot is not `Sync`).

use ludus_core::Gameplay;
use std::cell::Cell;
use std::ptr;

#[derive(Default)]
pub(crate) struct StageSlot {
    /// The lent `Gameplay<'_>`, lifetime erased; null when nothing is lent.
    gameplay: Cell<*mut Gameplay<'static>>,
    borrowed: Cell<bool>,
}

struct Clear<'a>(&'a StageSlot);

impl Drop for Clear<'_> {
    fn drop(&mut self) {
        self.0.gameplay.set(ptr::null_mut());
    }
}

impl StageSlot {
    /// Lends `g` to [`StageSlot::with`] while `f` runs.
    pub fn lend<R>(&self, g: &mut Gameplay<'_>, f: impl FnOnce() -> R) -> R {
        let erased = (g as *mut Gameplay<'_>).cast::<Gameplay<'static>>();
        self.gameplay.set(erased);
        let _clear = Clear(self);
        f()
    }

    /// Runs `f` with the lent stage; `None` when nothing is lent (or it is already borrowed).
    pub fn with<R>(&self, f: impl FnOnce(&mut Gameplay<'_>) -> R) -> Option<R> {
        let g = self.gameplay.get();
        if g.is_null() || self.borrowed.get() {
            return None;
        }
        self.borrowed.set(true);
        struct Release<'a>(&'a Cell<bool>);
        impl Drop for Release<'_> {
            fn drop(&mut self) {
                self.0.set(false);
            }
        }
        let _release = Release(&self.borrowed);
        // SAFETY: see the module documentation: `g` is valid while set, and this is the only
        // live reference to it (the `borrowed` flag). The `'static` is never exposed: `f`
        // receives a reference bounded by this call.
        let g: &mut Gameplay<'_> = unsafe { &mut *g };
        Some(f(g))
    }
}

#[cfg(test)]
mod tests {
    use super::StageSlot;

    #[test]
    fn nothing_is_lent_outside_a_stage() {
        let slot = StageSlot::default();
        assert_eq!(slot.with(|g| g.tick()), None);
    }
}

//! The UI state of a running game: what the developer's view shows over it (the overlay and
//! the script console, the log, a failed reload, where the last recording went). The view's
//! text is made in `view.rs`.

/// The most lines the log keeps (the console shows the last of them).
const LOG_LINES: usize = 200;

/// What the developer's view shows over the game.
///
/// Invariants:
/// - The game never reads it: nothing here reaches a tick, so showing, hiding, logging or
///   clearing changes no state hash and no recording (see [`super::PlayState`]).
/// - `log` holds the last [`LOG_LINES`] lines at most, oldest first; `fresh` holds each line
///   logged since [`UiState::take_fresh_log`] last took them, once.
#[derive(Default)]
pub struct UiState {
    /// The debug overlay (F3) is shown.
    pub(super) overlay: bool,
    /// The overlay shows its second page, the profiler (F3 again).
    pub(super) profiler: bool,
    /// The script console (the last lines scripts printed, F4) is shown.
    pub(super) console: bool,
    /// The entity inspector (F6) is shown; what it follows is the play state's
    /// (`TimedGame::watch`), fed by ticks but never read by them.
    pub(super) inspector: bool,
    pub(super) log: Vec<String>,
    /// Lines logged since [`UiState::take_fresh_log`] was last called.
    pub(super) fresh: Vec<String>,
    /// A reload of content or scripts that failed: shown until the next successful one.
    pub(super) reload_error: Option<String>,
    /// Where the last recording (F8, or a fault's) went, or why it could not be kept.
    pub(super) saved: Option<String>,
    /// The world and its count of unattached spawns last reported (see
    /// [`UiState::unattached`]).
    unattached: (u64, u64),
}

impl UiState {
    /// The view a reload's new runner starts with: `old`'s toggles and log.
    pub(super) fn carried(old: &mut UiState) -> UiState {
        UiState {
            overlay: old.overlay,
            profiler: old.profiler,
            console: old.console,
            inspector: old.inspector,
            log: std::mem::take(&mut old.log),
            ..UiState::default()
        }
    }

    pub fn overlay(&self) -> bool {
        self.overlay
    }

    pub fn set_overlay(&mut self, shown: bool) {
        self.overlay = shown;
        self.profiler = false;
    }

    /// Whether the overlay shows the profiler page.
    pub fn profiler(&self) -> bool {
        self.overlay && self.profiler
    }

    /// Shows the overlay's profiler page.
    pub fn show_profiler(&mut self) {
        (self.overlay, self.profiler) = (true, true);
    }

    /// F3: hidden, then the figures, then the profiler, then hidden again.
    pub(super) fn next_overlay_page(&mut self) {
        (self.overlay, self.profiler) = match (self.overlay, self.profiler) {
            (false, _) => (true, false),
            (true, false) => (true, true),
            (true, true) => (false, false),
        };
    }

    /// Whether the script console is shown (F4).
    pub fn console(&self) -> bool {
        self.console
    }

    /// Lines scripts printed: kept for the console, and fresh for the terminal.
    pub(super) fn scripts_printed(&mut self, lines: Vec<String>) {
        self.fresh.extend(lines.iter().cloned());
        self.log.extend(lines);
        if self.log.len() > LOG_LINES {
            let excess = self.log.len() - LOG_LINES;
            self.log.drain(..excess);
        }
    }

    /// Says in the console (and the terminal) when entities whose archetype declares
    /// `attach` found nothing to attach to since the last call, naming the archetype.
    pub(super) fn unattached(&mut self, world: &ludus_core::SimWorld, def: &ludus_core::GameDef) {
        let c = world.counters();
        let (id, seen) = self.unattached;
        let seen = if id == world.id().0 { seen } else { 0 };
        self.unattached = (world.id().0, c.unattached);
        let Some(a) = c.unattached_archetype.and_then(|a| def.archetype(a)) else {
            return;
        };
        if c.unattached > seen {
            let to = a.attach.map_or(0, |at| at.to);
            let tag = def.tag_names(to).next().unwrap_or("?");
            self.scripts_printed(vec![format!(
                "warning: `{}` was spawned with no entity tagged `{tag}` to attach to, so it is \
                 not attached ({} such spawns in this level so far)",
                a.name, c.unattached
            )]);
        }
    }

    /// The last `n` lines scripts printed, oldest first.
    pub fn recent_log(&self, n: usize) -> Vec<String> {
        self.log[self.log.len().saturating_sub(n)..].to_vec()
    }

    /// Lines logged since the last call (the window also prints them).
    pub fn take_fresh_log(&mut self) -> Vec<String> {
        std::mem::take(&mut self.fresh)
    }

    /// A reload that failed, shown until the next successful one.
    pub fn reload_error(&self) -> Option<&str> {
        self.reload_error.as_deref()
    }
}

//! The UI state of a running game: what the developer's view shows over it (the overlay and
//! the script console, the log, a failed reload, where the last recording went), and the text
//! of that view (help line, banner, overlay).

use crate::runtime::runner::Runner;
use crate::runtime::runner::ui_keys::UI_KEYS;
use ludus_core::Mode;

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
    /// The script console (the last lines scripts printed, F4) is shown.
    pub(super) console: bool,
    pub(super) log: Vec<String>,
    /// Lines logged since [`UiState::take_fresh_log`] was last called.
    pub(super) fresh: Vec<String>,
    /// A reload of content or scripts that failed: shown until the next successful one.
    pub(super) reload_error: Option<String>,
    /// Where the last recording (F8, or a fault's) went, or why it could not be kept.
    pub(super) saved: Option<String>,
}

impl UiState {
    /// The view a reload's new runner starts with: `old`'s toggles and log.
    pub(super) fn carried(old: &mut UiState) -> UiState {
        UiState {
            overlay: old.overlay,
            console: old.console,
            log: std::mem::take(&mut old.log),
            ..UiState::default()
        }
    }

    pub fn overlay(&self) -> bool {
        self.overlay
    }

    pub fn set_overlay(&mut self, shown: bool) {
        self.overlay = shown;
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

impl Runner {
    /// A centred banner: title and lines (re-simulating, fault, game over, pause), if any.
    pub fn banner(&self) -> Option<(String, Vec<String>)> {
        if let Some(lines) = self.resim_banner() {
            return Some(("RE-SIMULATING".into(), lines));
        }
        let play = &self.play;
        if let Some(f) = play.session.fault() {
            let mut lines = vec![f.message.lines().next().unwrap_or("").to_string()];
            if let Some(loc) = &f.location {
                lines.push(format!("at {loc}"));
            }
            if f.tick > 0 {
                lines.push(format!("tick {}", f.tick));
            }
            if let Some(saved) = &self.ui.saved {
                lines.extend(saved.lines().map(str::to_string));
            }
            lines.push("R to restart".into());
            return Some(("FAULT".into(), lines));
        }
        if let Some((_, msg)) = play.timed.game.world().game_over() {
            return Some((msg.to_uppercase(), vec!["R to restart".into()]));
        }
        if play.session.mode() == Mode::Paused {
            return Some((
                "PAUSED".into(),
                vec!["P to resume, N to step one tick".into()],
            ));
        }
        None
    }

    /// The help line: the game's actions with their keys, then the keys the app keeps.
    pub fn help_line(&self) -> String {
        let def = self.play.def();
        let mut parts = Vec::new();
        for (id, action) in def.actions.iter() {
            let keys: Vec<&str> = def
                .bindings
                .iter()
                .filter(|b| b.action == id)
                .map(|b| b.key.as_str())
                .take(4)
                .collect();
            if !keys.is_empty() {
                parts.push(format!("{} {}", keys.join("/"), action.name));
            }
        }
        parts.extend(UI_KEYS.iter().filter_map(|k| k.help.map(str::to_string)));
        parts.join("  ")
    }

    /// The debug overlay's lines: the frame loop's own figures.
    pub fn overlay_lines(&self) -> Vec<String> {
        self.play.figures()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_help_line_lists_the_games_actions_then_the_keys_the_app_keeps() {
        let project = crate::runtime::bundled::project().unwrap();
        let runner = Runner::new(project, 0, crate::platform::clock_ns).unwrap();
        assert_eq!(
            runner.help_line(),
            "a/d/left/right move_x  w/s/up/down move_y  space/j/mouse_left fire  \
             P pause  N step  R restart  F3 overlay  F4 console  F8 record  Backspace rewind"
        );
    }
}

//! The text of the developer's view: the banner, the help line and the debug overlay's lines,
//! from the play state and the UI state.

use crate::runtime::runner::Runner;
use crate::runtime::runner::ui_keys::UI_KEYS;
use ludus_core::Mode;

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

//! The text of the developer's view: the banner, the help line and the debug overlay's lines,
//! from the play state and the UI state.

use crate::runtime::runner::Runner;
use crate::runtime::runner::ui_keys::{UI_KEYS, UiAction};
use ludus_content::Key;
use ludus_core::{ActionId, Mode};

impl Runner {
    /// A centred banner: title and lines (re-simulating, fault, game over, pause), if any.
    /// Release mode adds no developer text; a game with `[flow] banner = false` draws its own
    /// game-over screen.
    pub fn banner(&self) -> Option<(String, Vec<String>)> {
        if let Some(lines) = self.resim_banner() {
            return Some(("RE-SIMULATING".into(), lines));
        }
        let play = &self.play;
        let restart = self.restart_hint();
        if let Some(f) = play.session.fault() {
            let mut lines = vec![f.message.lines().next().unwrap_or("").to_string()];
            if let Some(loc) = &f.location {
                lines.push(format!("at {loc}"));
            }
            if f.tick > 0 {
                lines.push(format!("tick {}", f.tick));
            }
            if let Some(saved) = self.ui.saved.as_ref().filter(|_| !self.release()) {
                lines.extend(saved.lines().map(str::to_string));
            }
            lines.extend(restart);
            return Some(("FAULT".into(), lines));
        }
        if let Some((_, msg)) = play.timed.game.world().game_over() {
            let def = play.def();
            return def
                .flow
                .banner
                .then(|| (msg.to_string(), restart.into_iter().collect()));
        }
        // The inspector's game panel says it instead (see `inspect.rs`).
        match self.pause_line() {
            Some(line) if !self.ui.inspector => Some(("PAUSED".into(), vec![line])),
            _ => None,
        }
    }

    /// While the game is paused, how to resume (the pause banner's line).
    pub(super) fn pause_line(&self) -> Option<String> {
        let play = &self.play;
        // A playback's stop tick pauses it: that is the tick shown, not a pause to say.
        if play.session.mode() != Mode::Paused
            || play.timed.playback.as_ref().is_some_and(|p| p.reached())
        {
            return None;
        }
        let keys = self.keys_of(self.play.def().flow.pause);
        Some(match (self.release(), keys) {
            (false, None) => "P to resume, N to step one tick".to_string(),
            (false, Some(k)) => format!("P or {k} to resume, N to step one tick"),
            (true, None) => "click to resume".to_string(),
            (true, Some(k)) => format!("{k} or a click to resume"),
        })
    }

    /// How to restart, as a banner says it: the keys of the game's restart action (`[flow]
    /// restart`), or R in `ludus run`; in release mode, nothing where the game has none.
    fn restart_hint(&self) -> Option<String> {
        if self.plays_back() {
            return None;
        }
        match (self.keys_of(self.play.def().flow.restart), self.release()) {
            (Some(k), _) => Some(format!("{k} to restart")),
            (None, false) => Some("R to restart".into()),
            (None, true) => None,
        }
    }

    /// The keys bound to `action`, as the help line writes them (`space/enter`, `pad A`: see
    /// [`Key::shown`]).
    fn keys_of(&self, action: Option<ActionId>) -> Option<String> {
        let action = action?;
        let keys: Vec<String> = self
            .play
            .keys
            .bindings()
            .iter()
            .filter(|b| b.action == action)
            .map(|b| Key::from_name(&b.key).map_or_else(|| b.key.clone(), Key::shown))
            .take(4)
            .collect();
        (!keys.is_empty()).then(|| keys.join("/"))
    }

    /// The help line: the game's actions with their keys, then the keys the app keeps (while
    /// input plays back, that it does instead of the game's keys, and no restart); `None`
    /// where it is not shown (release mode, `[window] help = false`).
    pub fn help_line(&self) -> Option<String> {
        let def = self.play.def();
        if self.release() || !def.window.help {
            return None;
        }
        let mut parts = Vec::new();
        let playing = self.plays_back();
        if playing {
            parts.push("input plays back (game keys off)".to_string());
        }
        for (id, action) in def.actions.iter().filter(|_| !playing) {
            if let Some(keys) = self.keys_of(Some(id)) {
                parts.push(format!("{keys} {}", action.name));
            }
        }
        let kept = UI_KEYS
            .iter()
            .filter(|k| !(playing && k.action == UiAction::Restart));
        parts.extend(kept.filter_map(|k| k.help.map(str::to_string)));
        Some(parts.join("  "))
    }

    /// The debug overlay's lines: the frame loop's own figures.
    pub fn overlay_lines(&self) -> Vec<String> {
        self.play.figures()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::project::Project;
    use ludus_core::Signal;

    /// A runner of a small game whose game.toml ends with `extra` and whose script ends the
    /// game on its first tick; `release`: as an exported game.
    fn runner(extra: &str, release: bool) -> Runner {
        let toml = format!(
            "name = \"T\"\n[scripts]\nfiles = [\"main.lua\"]\n[levels.one]\n\
             [input.actions.again]\nkind = \"button\"\nkeys = [\"enter\"]\n\
             [input.actions.hold]\nkind = \"button\"\nkeys = [\"space\"]\n{extra}"
        );
        let script =
            "function on_tick(t) if t.tick == 3 then ludus.game_over('You hit the wall') end end";
        let files = [("game.toml", toml.as_str()), ("main.lua", script)]
            .map(|(p, t)| (p.to_string(), t.as_bytes().to_vec()))
            .into();
        let mut project = Project::from_files("t", files).unwrap();
        project.release = release;
        Runner::new(project, 0, crate::platform::clock_ns).unwrap()
    }

    /// (game.toml's end, release, help line shown, the game-over banner)
    #[test]
    fn release_mode_shows_only_what_the_game_asks_for() {
        let over = |lines: &[&str]| {
            Some((
                "You hit the wall".to_string(),
                lines.iter().map(|l| l.to_string()).collect::<Vec<_>>(),
            ))
        };
        let cases = [
            ("", false, true, over(&["R to restart"])),
            (
                "[window]\nhelp = false",
                false,
                false,
                over(&["R to restart"]),
            ),
            (
                "[flow]\nrestart = \"again\"",
                false,
                true,
                over(&["Enter to restart"]),
            ),
            ("", true, false, over(&[])),
            (
                "[flow]\nrestart = \"again\"",
                true,
                false,
                over(&["Enter to restart"]),
            ),
            ("[flow]\nbanner = false", false, true, None),
            // Keys as a player reads them, not as content names them.
            (
                "[input.actions.menu]\nkind = \"button\"\nkeys = [\"pad_select\", \"q\", \"pad2_start\"]\n\
                 [flow]\nrestart = \"menu\"",
                true,
                false,
                over(&["Pad Select/Q/Pad 2 Start to restart"]),
            ),
        ];
        for (extra, release, help, banner) in cases {
            let mut r = runner(extra, release);
            for ms in [0u64, 100, 200] {
                r.frame(ms * 1_000_000, 0.0);
            }
            assert_eq!(r.help_line().is_some(), help, "{extra:?} release {release}");
            assert_eq!(r.banner(), banner, "{extra:?} release {release}");
        }
    }

    /// (game.toml's end, release, key pressed) -> the mode after it, starting from playing.
    #[test]
    fn release_mode_keeps_p_and_r_only_where_the_game_names_its_own_actions() {
        let (flow, none) = ("[flow]\npause = \"hold\"\nrestart = \"again\"", "");
        let cases = [
            (none, false, Key::P, Mode::Paused, false),
            (none, false, Key::R, Mode::Playing, true),
            (none, true, Key::P, Mode::Playing, false),
            (none, true, Key::R, Mode::Playing, false),
            (none, true, Key::N, Mode::Playing, false),
            (flow, true, Key::P, Mode::Paused, false),
            (flow, true, Key::Space, Mode::Paused, false),
            (flow, true, Key::R, Mode::Playing, true),
            (flow, true, Key::Enter, Mode::Playing, true),
            (flow, false, Key::Space, Mode::Paused, false),
        ];
        for (extra, release, key, mode, restarts) in cases {
            let mut r = runner(extra, release);
            r.key_down(key);
            let session = r.play().session();
            let what = format!("{extra:?} release {release}, {key}");
            assert_eq!(session.mode(), mode, "{what}");
            assert_eq!(session.is_loading(), restarts, "{what}: restarts");
        }
        // A click resumes a paused game, in either mode; the pause action does too.
        for release in [false, true] {
            let mut r = runner(flow, release);
            r.play_mut().session_mut().signal(Signal::Pause);
            r.key_down(Key::MouseLeft);
            assert_eq!(
                r.play().session().mode(),
                Mode::Playing,
                "release {release}"
            );
            r.key_down(Key::Space);
            r.key_up(Key::Space);
            r.key_down(Key::Space);
            assert_eq!(
                r.play().session().mode(),
                Mode::Playing,
                "release {release}"
            );
        }
    }

    #[test]
    fn the_help_line_lists_the_games_actions_then_the_keys_the_app_keeps() {
        let project = crate::runtime::bundled::project().unwrap();
        let runner = Runner::new(project, 0, crate::platform::clock_ns).unwrap();
        assert_eq!(
            runner.help_line().as_deref(),
            Some(
                "A/D/Left/Right move_x  W/S/Up/Down move_y  Space/J/Left click fire  \
                 P pause  N step  R restart  F3 overlay  F4 console  F6 inspect  F8 record  Backspace rewind"
            )
        );
    }
}

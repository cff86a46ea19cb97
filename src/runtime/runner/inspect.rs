//! The entity inspector (F6): while it is shown, a click or a tap selects the entity under the
//! pointer (and does not reach the game); its panel shows the entity's record and the last
//! events it was in, a second panel the game's variables, score and entities per tag (and,
//! while the game is paused, what the pause banner would say: the banner would cover the
//! panels).
//!
//! The entity is followed by id ([`Watch`], in the play state so that every completed tick
//! feeds it its events): it stays selected through pause, step, rewind and reload (a new
//! runner takes the watch over), and the panel says when it is gone. Hiding the inspector
//! lets go of it, so nothing is followed while it is hidden. Release mode has none.

use crate::runtime::inspect::{Extent, Watch, pick, world_at, world_lines};
use crate::runtime::runner::Runner;
use ludus_core::Vec2;

impl Runner {
    /// F6: shows or hides the inspector; hiding it lets go of the entity followed.
    pub(super) fn toggle_inspector(&mut self) {
        self.ui.inspector = !self.ui.inspector;
        if !self.ui.inspector {
            self.play.timed.watch = None;
        }
    }

    /// A click or tap at pixel `at` of a `view` (width, height) in pixels: while the inspector
    /// is shown it selects the entity there (or none) and is the inspector's, not the
    /// game's. Returns whether the inspector took it.
    pub fn inspect_click(&mut self, at: (f32, f32), view: (f32, f32)) -> bool {
        if !self.ui.inspector {
            return false;
        }
        let p = world_at(&self.play.drawn().camera, at, view);
        self.inspect_at(p);
        true
    }

    /// Shows the inspector and selects the entity drawn (or, undrawn, colliding) at world
    /// point `p` in the frame shown; where there is none, nothing is selected. Release mode
    /// has no inspector.
    pub fn inspect_at(&mut self, p: Vec2) {
        if self.release() {
            return;
        }
        self.ui.inspector = true;
        let play = &mut self.play;
        let seq = pick(play.drawn(), &play.timed.game, p);
        play.timed.watch = seq.map(|s| Watch::new(s, &play.timed.game));
    }

    /// The inspector's two panels, where it is shown: the entity's (its record, or how to
    /// select one) and the game's.
    pub fn inspector_lines(&self) -> Option<(Vec<String>, Vec<String>)> {
        if !self.ui.inspector {
            return None;
        }
        let game = &self.play.timed.game;
        let mut entity = vec!["entity inspector (F6 to close)".to_string()];
        match &self.play.timed.watch {
            Some(w) => entity.extend(w.lines(game)),
            None => entity.push("click an entity to inspect it".into()),
        }
        let mut world = vec![match self.pause_line() {
            Some(line) => format!("game PAUSED: {line}"),
            None => "game".to_string(),
        }];
        world.extend(world_lines(game));
        Some((entity, world))
    }

    /// Where the entity followed is in the frame shown, to mark it (`None`: nothing
    /// followed, or it is gone).
    pub fn inspected_extent(&self) -> Option<Extent> {
        let w = self.play.timed.watch.as_ref()?;
        let game = &self.play.timed.game;
        game.world().entity(w.seq)?;
        Extent::of(w.seq, self.play.drawn(), game)
    }
}

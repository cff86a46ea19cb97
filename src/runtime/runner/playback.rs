//! The window playing input by tick (`ludus run --input`, `ludus replay --window`; see
//! `runtime/playback.rs`): installing the playback and a trace, what the player's keys do
//! meanwhile, a turn-based game's steps, and where a stop tick (`--screenshot-at`) stands.

use crate::runtime::playback::Playback;
use crate::runtime::runner::{Runner, UiAction};
use crate::runtime::trace::TickTrace;
use ludus_core::*;

/// Where a playback with a stop tick stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The stop tick is still to come.
    Waiting,
    /// The world is at the stop tick: the frame shows it.
    Reached,
    /// It can never come, and why.
    Missed(String),
}

impl Runner {
    /// Plays `playback` from the game's first tick (called before it): each tick's input is
    /// the playback's, the game's saved data is `saved`, not the player's, and background work
    /// runs serially, as `ludus sim` runs it, or from the recording.
    #[cfg_attr(
        target_arch = "wasm32",
        allow(dead_code, reason = "the page plays no input file")
    )]
    pub fn play_back(&mut self, mut playback: Playback, saved: SaveStore) -> Result<(), String> {
        let timed = &mut self.play.timed;
        timed.game.set_saved(saved).map_err(|f| f.to_string())?;
        playback.start(&mut timed.game)?;
        timed.history.level(&timed.game, false);
        let def = self.play.project.def.clone();
        self.play
            .frame
            .extract(timed.game.world(), &def, Interpolation::Exact);
        // The game's own pauses do not stop a playback (a paused entry mode included).
        self.play.session.signal(Signal::Resume);
        self.play.timed.playback = Some(playback);
        Ok(())
    }

    /// Whether input plays by tick.
    pub fn plays_back(&self) -> bool {
        self.play.timed.playback.is_some()
    }

    /// Writes every completed tick's trace line to `trace`.
    #[cfg_attr(
        target_arch = "wasm32",
        allow(dead_code, reason = "`ludus run` traces")
    )]
    pub fn trace_to(&mut self, trace: TickTrace) {
        self.play.timed.trace = Some(trace);
    }

    /// Why the trace stopped, once (the app quits on it).
    pub fn take_trace_error(&mut self) -> Option<String> {
        let trace = self.play.timed.trace.as_mut()?;
        trace.flush();
        trace.take_error()
    }

    /// Where the playback's stop tick stands (`None` without one).
    pub fn stop(&self) -> Option<Stop> {
        let p = self.play.timed.playback.as_ref()?;
        p.stop_tick()?;
        if p.reached() {
            return Some(Stop::Reached);
        }
        Some(match p.missed(&self.play.session) {
            Some(why) => Stop::Missed(why),
            None => Stop::Waiting,
        })
    }

    /// While input plays back, whether `key` (which the app keeps as `kept`) goes on to do
    /// what it does: the app's keys do, except restarting (the input would not start again
    /// with the level); the game's own pause action does; the game's other keys are
    /// ignored, and the log says so once.
    pub(super) fn playback_passes(
        &mut self,
        key: ludus_content::Key,
        kept: Option<UiAction>,
    ) -> bool {
        let pause = self.def().flow.pause;
        let Some(p) = &mut self.play.timed.playback else {
            return true;
        };
        let passes = match kept {
            Some(UiAction::Restart) => false,
            Some(_) => true,
            None => self
                .play
                .keys
                .actions_of(key.name())
                .any(|a| Some(a) == pause),
        };
        if !passes && !p.said {
            p.said = true;
            self.ui.fresh.push(
                "input plays back: the game's keys and restarting are off (P pauses, N steps, Backspace rewinds)"
                    .into(),
            );
        }
        passes
    }

    /// Before a frame at `now_ns`: a turn-based game's next step, where it is due.
    pub(super) fn pump_playback(&mut self, now_ns: u64) {
        if let Some(p) = &mut self.play.timed.playback {
            p.pump_turn(now_ns, &mut self.play.session);
        }
    }

    /// A rewind of `ticks` asked for: how many ticks it goes back (see
    /// [`Playback::rewind_span`]).
    pub(super) fn playback_rewind_span(&self, ticks: u64) -> u64 {
        match &self.play.timed.playback {
            Some(p) => p.rewind_span(ticks),
            None => ticks,
        }
    }

    /// A rewind of `n` ticks has made this runner: the playback and the trace go back too.
    pub(super) fn playback_rewound(&mut self, n: u64) {
        let timed = &mut self.play.timed;
        if let Some(p) = &mut timed.playback {
            p.rewound(n, &mut timed.game);
        }
        if let Some(t) = &mut timed.trace {
            let world = timed.game.world();
            t.rewound(n, world.tick(), StateHash::of(world));
        }
    }
}

//! Watching the game folder for changed content (`ludus run`'s hot reload).

use notify::{RecursiveMode, Watcher as _};
use std::path::Path;
use std::sync::mpsc::{Receiver, channel};

pub struct Watcher {
    _inner: notify::RecommendedWatcher,
    events: Receiver<notify::Result<notify::Event>>,
}

impl Watcher {
    pub fn new(dir: &Path) -> notify::Result<Watcher> {
        let (tx, events) = channel();
        let mut inner = notify::recommended_watcher(move |e| {
            let _ = tx.send(e);
        })?;
        inner.watch(dir, RecursiveMode::Recursive)?;
        Ok(Watcher {
            _inner: inner,
            events,
        })
    }

    /// Whether a content or script file changed since the last call. What the editor set-up
    /// writes (the `.ludus` folder) is not the game's.
    pub fn changed(&mut self) -> bool {
        let mut changed = false;
        while let Ok(event) = self.events.try_recv() {
            if let Ok(event) = event
                && event.kind.is_modify() | event.kind.is_create() | event.kind.is_remove()
                && event.paths.iter().any(|p| {
                    !p.components().any(|c| c.as_os_str() == ".ludus")
                        && matches!(
                            p.extension().and_then(|e| e.to_str()),
                            Some("toml" | "lua" | "png" | "wav" | "ogg" | "ttf" | "otf")
                        )
                })
            {
                changed = true;
            }
        }
        changed
    }
}

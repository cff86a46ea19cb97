//! A game's saved data between runs: read from where the platform keeps it at the start
//! (what cannot be used is a warning and an empty store, never a failed start), written
//! back whole.

use crate::platform::{Kept, SavePlace};
use ludus_core::SaveStore;

/// What a kept store's text may take beyond `[limits] save_bytes` (white space a person
/// added): past it, the text is not read at all.
pub const SLACK_BYTES: usize = 4096;

/// The store kept at `place` for a game whose `[limits] save_bytes` is `bound`, and a
/// warning when what is there cannot be used: unreadable, larger than the bound (plus
/// [`SLACK_BYTES`]; nothing past that is read), or not a store (the last two are moved aside,
/// [`SavePlace::set_aside`], and the warning says where). Nothing kept: an empty store.
pub fn load(place: &SavePlace, bound: u32) -> (SaveStore, Option<String>) {
    let most = bound as usize + SLACK_BYTES;
    let ignored = |why: String| {
        let warning = format!("the saved data is ignored, the game starts without it: {why}");
        (SaveStore::default(), Some(warning))
    };
    // Data that is there but cannot be used is moved aside first: what the game writes
    // later must not destroy it.
    let damaged = |why: String| match place.set_aside() {
        Ok(to) => ignored(format!("{why} (it is kept as {to})")),
        Err(e) => ignored(format!("{why} ({e})")),
    };
    let bytes = match place.read(most) {
        Ok(Kept::Nothing) => return (SaveStore::default(), None),
        Ok(Kept::Bytes(bytes)) => bytes,
        Ok(Kept::TooLarge) => {
            let why = format!("{place} is larger than the game's saved data may be");
            return damaged(format!("{why} ({most} bytes at most)"));
        }
        Err(why) => return ignored(why),
    };
    let Ok(text) = std::str::from_utf8(&bytes) else {
        return damaged(format!("{place} is not UTF-8 text"));
    };
    match SaveStore::from_json(text, bound as usize) {
        Ok(store) => (store, None),
        Err(why) => damaged(format!("{place}: {why}")),
    }
}

/// Writes `store` at `place`, whole.
pub fn keep(place: &SavePlace, store: &SaveStore) -> Result<(), String> {
    place.write(&store.to_json())
}

/// Keeps a running game's saved data at a place (the window and the page): writes the store
/// again after every frame that changed it.
///
/// Invariant: `written` is the store as last written (or read) at `place`, or as a failed
/// write left it to try again only once it changes again.
pub struct Keeper {
    place: SavePlace,
    written: SaveStore,
}

impl Keeper {
    /// Keeps the store at `place`, which holds `written`.
    pub fn new(place: SavePlace, written: SaveStore) -> Keeper {
        Keeper { place, written }
    }

    /// After a frame: writes `store` if it differs from what was written; why it could not.
    pub fn update(&mut self, store: &SaveStore) -> Option<String> {
        if *store == self.written {
            return None;
        }
        self.written = store.clone();
        keep(&self.place, store)
            .err()
            .map(|e| format!("the saved data could not be kept: {e}"))
    }
}

//! The keys the app keeps for itself, declared once: what each does when pressed
//! ([`Runner::key_down`](super::Runner::key_down)), the help line's entries, and what the
//! loader says when content binds one ([`RESERVED_KEYS`]). In release mode (an exported game,
//! see [`Runner::release`](super::Runner::release)) only Escape is kept, and P and R where the
//! game names its own pause and restart actions (`[flow]`).

use ludus_content::Key;

/// What a key the app keeps does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UiAction {
    Pause,
    Step,
    Restart,
    Overlay,
    Console,
    /// The entity inspector: a click selects what is under the pointer.
    Inspect,
    Record,
    /// Held: time runs back through the kept frames; released: play resumes there.
    Rewind,
    /// The window closes where the platform lets a program quit (`QUIT_ON_ESCAPE`).
    Quit,
}

/// A key the app keeps for itself: it never reaches gameplay, and content may not bind it.
#[derive(Clone, Copy, Debug)]
pub struct UiKey {
    pub key: Key,
    pub action: UiAction,
    /// What it does, as the loader says when content binds it.
    pub does: &'static str,
    /// Its entry in the help line (`None`: not shown there).
    pub help: Option<&'static str>,
}

const fn ui_key(key: Key, action: UiAction, does: &'static str, help: &'static str) -> UiKey {
    UiKey {
        key,
        action,
        does,
        help: Some(help),
    }
}

/// The keys the app keeps, in the order the help line and the loader list them.
pub const UI_KEYS: [UiKey; 9] = [
    ui_key(Key::P, UiAction::Pause, "pause or resume", "P pause"),
    ui_key(Key::N, UiAction::Step, "step one tick", "N step"),
    ui_key(Key::R, UiAction::Restart, "restart", "R restart"),
    ui_key(Key::F3, UiAction::Overlay, "debug overlay", "F3 overlay"),
    ui_key(Key::F4, UiAction::Console, "script console", "F4 console"),
    ui_key(Key::F6, UiAction::Inspect, "entity inspector", "F6 inspect"),
    ui_key(
        Key::F8,
        UiAction::Record,
        "write a recording of the run",
        "F8 record",
    ),
    ui_key(
        Key::Backspace,
        UiAction::Rewind,
        "hold to rewind",
        "Backspace rewind",
    ),
    UiKey {
        key: Key::Escape,
        action: UiAction::Quit,
        does: "quit",
        help: None,
    },
];

/// [`UI_KEYS`] as the loader reserves them: each key with what it does.
pub const RESERVED_KEYS: [(Key, &str); UI_KEYS.len()] = {
    let mut out = [(Key::A, ""); UI_KEYS.len()];
    let mut i = 0;
    while i < UI_KEYS.len() {
        out[i] = (UI_KEYS[i].key, UI_KEYS[i].does);
        i += 1;
    }
    out
};

/// What `key` does if the app keeps it.
pub fn ui_action(key: Key) -> Option<UiAction> {
    UI_KEYS.iter().find(|k| k.key == key).map(|k| k.action)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_binding_a_key_the_app_keeps_is_refused_saying_what_the_key_does() {
        let dir =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/reserved_key");
        let expected = std::fs::read_to_string(dir.join("expected.txt")).unwrap();
        let files = ["game.toml"]
            .map(|f| (f.to_string(), std::fs::read(dir.join(f)).unwrap()))
            .into();
        let refused = crate::runtime::project::Project::from_files("keys", files).err();
        assert_eq!(refused.as_deref(), Some(expected.as_str()));
    }

    #[test]
    fn every_key_the_app_keeps_does_one_thing() {
        for (i, k) in UI_KEYS.iter().enumerate() {
            assert_eq!(ui_action(k.key), Some(k.action), "{}", k.key);
            assert!(
                UI_KEYS[..i]
                    .iter()
                    .all(|o| o.key != k.key && o.action != k.action),
                "{} is kept once",
                k.key
            );
        }
        assert_eq!(ui_action(Key::Space), None);
    }
}

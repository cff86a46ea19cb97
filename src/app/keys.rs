//! The platform's key codes and mouse buttons as the keys games bind ([`Key`], the one list of
//! them): each key says where it comes from, and events are looked up from that. Pads' keys
//! come from pad events instead (`runtime/pads.rs`).

use ludus_content::Key;
use miniquad::{KeyCode, MouseButton};

/// Where a key comes from on the platform.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Source {
    Code(KeyCode),
    Button(MouseButton),
    /// A gamepad (`runtime/pads.rs` numbers pads and names their controls' keys).
    Pad,
}

/// The platform's source of `key`: every key has one (the match is exhaustive).
fn source(key: Key) -> Source {
    use Source::{Button, Code};
    match key {
        Key::A => Code(KeyCode::A),
        Key::B => Code(KeyCode::B),
        Key::C => Code(KeyCode::C),
        Key::D => Code(KeyCode::D),
        Key::E => Code(KeyCode::E),
        Key::F => Code(KeyCode::F),
        Key::G => Code(KeyCode::G),
        Key::H => Code(KeyCode::H),
        Key::I => Code(KeyCode::I),
        Key::J => Code(KeyCode::J),
        Key::K => Code(KeyCode::K),
        Key::L => Code(KeyCode::L),
        Key::M => Code(KeyCode::M),
        Key::N => Code(KeyCode::N),
        Key::O => Code(KeyCode::O),
        Key::P => Code(KeyCode::P),
        Key::Q => Code(KeyCode::Q),
        Key::R => Code(KeyCode::R),
        Key::S => Code(KeyCode::S),
        Key::T => Code(KeyCode::T),
        Key::U => Code(KeyCode::U),
        Key::V => Code(KeyCode::V),
        Key::W => Code(KeyCode::W),
        Key::X => Code(KeyCode::X),
        Key::Y => Code(KeyCode::Y),
        Key::Z => Code(KeyCode::Z),
        Key::Digit0 => Code(KeyCode::Key0),
        Key::Digit1 => Code(KeyCode::Key1),
        Key::Digit2 => Code(KeyCode::Key2),
        Key::Digit3 => Code(KeyCode::Key3),
        Key::Digit4 => Code(KeyCode::Key4),
        Key::Digit5 => Code(KeyCode::Key5),
        Key::Digit6 => Code(KeyCode::Key6),
        Key::Digit7 => Code(KeyCode::Key7),
        Key::Digit8 => Code(KeyCode::Key8),
        Key::Digit9 => Code(KeyCode::Key9),
        Key::Space => Code(KeyCode::Space),
        Key::Enter => Code(KeyCode::Enter),
        Key::Escape => Code(KeyCode::Escape),
        Key::Tab => Code(KeyCode::Tab),
        Key::Backspace => Code(KeyCode::Backspace),
        Key::Left => Code(KeyCode::Left),
        Key::Right => Code(KeyCode::Right),
        Key::Up => Code(KeyCode::Up),
        Key::Down => Code(KeyCode::Down),
        Key::LeftShift => Code(KeyCode::LeftShift),
        Key::RightShift => Code(KeyCode::RightShift),
        Key::LeftControl => Code(KeyCode::LeftControl),
        Key::RightControl => Code(KeyCode::RightControl),
        Key::LeftAlt => Code(KeyCode::LeftAlt),
        Key::RightAlt => Code(KeyCode::RightAlt),
        Key::F1 => Code(KeyCode::F1),
        Key::F2 => Code(KeyCode::F2),
        Key::F3 => Code(KeyCode::F3),
        Key::F4 => Code(KeyCode::F4),
        Key::F5 => Code(KeyCode::F5),
        Key::F6 => Code(KeyCode::F6),
        Key::F7 => Code(KeyCode::F7),
        Key::F8 => Code(KeyCode::F8),
        Key::F9 => Code(KeyCode::F9),
        Key::F10 => Code(KeyCode::F10),
        Key::F11 => Code(KeyCode::F11),
        Key::F12 => Code(KeyCode::F12),
        Key::MouseLeft => Button(MouseButton::Left),
        Key::MouseRight => Button(MouseButton::Right),
        Key::MouseMiddle => Button(MouseButton::Middle),
        Key::Pad(..) => Source::Pad,
    }
}

/// The key whose source is `from`, if games can bind it (a key code or a mouse button).
fn key_from(from: Source) -> Option<Key> {
    Key::board().iter().copied().find(|&k| source(k) == from)
}

/// The key a key code is, if games can bind it.
pub fn key_of(code: KeyCode) -> Option<Key> {
    key_from(Source::Code(code))
}

/// The key a mouse button is, if games can bind it.
pub fn button_of(button: MouseButton) -> Option<Key> {
    key_from(Source::Button(button))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_comes_from_its_own_key_code_or_button() {
        for &key in Key::board() {
            let from = source(key);
            assert_eq!(key_from(from), Some(key), "{key} is what {from:?} gives");
        }
        for &key in &Key::ALL[Key::board().len()..] {
            assert_eq!(source(key), Source::Pad, "{key} comes from a pad");
        }
        // Keys games cannot bind give nothing.
        assert_eq!(key_of(KeyCode::Insert), None);
        assert_eq!(key_of(KeyCode::KpEnter), None);
        assert_eq!(key_of(KeyCode::Unknown), None);
        assert_eq!(button_of(MouseButton::Unknown), None);
        assert_eq!(key_of(KeyCode::Key7), Some(Key::Digit7));
        assert_eq!(button_of(MouseButton::Right), Some(Key::MouseRight));
    }
}

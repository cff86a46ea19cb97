//! Platform key codes to the key names content binds (`ludus_core::KEY_NAMES`).

use miniquad::{KeyCode, MouseButton};

/// The name of a key, if games can bind it.
pub fn key_name(key: KeyCode) -> Option<&'static str> {
    use KeyCode::*;
    Some(match key {
        A => "a",
        B => "b",
        C => "c",
        D => "d",
        E => "e",
        F => "f",
        G => "g",
        H => "h",
        I => "i",
        J => "j",
        K => "k",
        L => "l",
        M => "m",
        N => "n",
        O => "o",
        P => "p",
        Q => "q",
        R => "r",
        S => "s",
        T => "t",
        U => "u",
        V => "v",
        W => "w",
        X => "x",
        Y => "y",
        Z => "z",
        Key0 => "0",
        Key1 => "1",
        Key2 => "2",
        Key3 => "3",
        Key4 => "4",
        Key5 => "5",
        Key6 => "6",
        Key7 => "7",
        Key8 => "8",
        Key9 => "9",
        Space => "space",
        Enter => "enter",
        Escape => "escape",
        Tab => "tab",
        Backspace => "backspace",
        Left => "left",
        Right => "right",
        Up => "up",
        Down => "down",
        LeftShift => "left_shift",
        RightShift => "right_shift",
        LeftControl => "left_control",
        RightControl => "right_control",
        LeftAlt => "left_alt",
        RightAlt => "right_alt",
        F1 => "f1",
        F2 => "f2",
        F3 => "f3",
        F4 => "f4",
        F5 => "f5",
        F6 => "f6",
        F7 => "f7",
        F8 => "f8",
        F9 => "f9",
        F10 => "f10",
        F11 => "f11",
        F12 => "f12",
        _ => return None,
    })
}

pub fn button_name(button: MouseButton) -> Option<&'static str> {
    match button {
        MouseButton::Left => Some("mouse_left"),
        MouseButton::Right => Some("mouse_right"),
        MouseButton::Middle => Some("mouse_middle"),
        MouseButton::Unknown => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_mapped_name_is_a_bindable_key() {
        let keys = [
            KeyCode::A,
            KeyCode::Z,
            KeyCode::Key0,
            KeyCode::Space,
            KeyCode::Left,
            KeyCode::F3,
            KeyCode::LeftShift,
            KeyCode::RightAlt,
            KeyCode::F12,
            KeyCode::Escape,
        ];
        for k in keys {
            let name = key_name(k).unwrap();
            assert!(ludus_core::KEY_NAMES.contains(&name), "{name}");
        }
        for b in [MouseButton::Left, MouseButton::Right, MouseButton::Middle] {
            assert!(ludus_core::KEY_NAMES.contains(&button_name(b).unwrap()));
        }
    }
}

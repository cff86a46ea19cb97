//! The keys and mouse buttons a game can bind, listed once: the loader's check of key names,
//! the reference's list of them (`docs/content.md`) and the app's mapping of each platform's
//! key codes all come from [`Key`].

/// Declares [`Key`] with each key's name: the one list of bindable keys.
macro_rules! keys {
    ($($key:ident = $name:literal,)*) => {
        /// A key or mouse button a game can bind, named in content by [`Key::name`].
        ///
        /// Invariant: names are distinct, lower case and stable (content and recordings name
        /// keys by them); [`Key::ALL`] holds every key once, in the reference's order.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Key {
            $($key,)*
        }

        impl Key {
            /// Every key, in the order the reference lists them.
            pub const ALL: &'static [Key] = &[$(Key::$key,)*];

            /// The key's name in content: `a`, `space`, `f3`, `mouse_left`...
            pub const fn name(self) -> &'static str {
                match self {
                    $(Key::$key => $name,)*
                }
            }
        }
    };
}

keys! {
    A = "a",
    B = "b",
    C = "c",
    D = "d",
    E = "e",
    F = "f",
    G = "g",
    H = "h",
    I = "i",
    J = "j",
    K = "k",
    L = "l",
    M = "m",
    N = "n",
    O = "o",
    P = "p",
    Q = "q",
    R = "r",
    S = "s",
    T = "t",
    U = "u",
    V = "v",
    W = "w",
    X = "x",
    Y = "y",
    Z = "z",
    Digit0 = "0",
    Digit1 = "1",
    Digit2 = "2",
    Digit3 = "3",
    Digit4 = "4",
    Digit5 = "5",
    Digit6 = "6",
    Digit7 = "7",
    Digit8 = "8",
    Digit9 = "9",
    Space = "space",
    Enter = "enter",
    Escape = "escape",
    Tab = "tab",
    Backspace = "backspace",
    Left = "left",
    Right = "right",
    Up = "up",
    Down = "down",
    LeftShift = "left_shift",
    RightShift = "right_shift",
    LeftControl = "left_control",
    RightControl = "right_control",
    LeftAlt = "left_alt",
    RightAlt = "right_alt",
    F1 = "f1",
    F2 = "f2",
    F3 = "f3",
    F4 = "f4",
    F5 = "f5",
    F6 = "f6",
    F7 = "f7",
    F8 = "f8",
    F9 = "f9",
    F10 = "f10",
    F11 = "f11",
    F12 = "f12",
    MouseLeft = "mouse_left",
    MouseRight = "mouse_right",
    MouseMiddle = "mouse_middle",
}

impl Key {
    /// The key named `name` in content, if there is one.
    pub fn from_name(name: &str) -> Option<Key> {
        Key::ALL.iter().copied().find(|k| k.name() == name)
    }

    /// Every key's name, in [`Key::ALL`]'s order.
    pub fn names() -> impl Iterator<Item = &'static str> {
        Key::ALL.iter().map(|k| k.name())
    }
}

impl std::fmt::Display for Key {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

//! The keys, mouse buttons and gamepad controls a game can bind, listed once: the loader's
//! check of key names, the reference's list of them (`docs/content.md`) and the app's mapping
//! of each platform's key codes and pads all come from [`Key`] and [`PadControl`].

/// Declares [`Key`] with each key's name: the one list of bindable keys.
macro_rules! keys {
    ($($key:ident = $name:literal,)*) => {
        /// A key, mouse button or gamepad control a game can bind, named in content by
        /// [`Key::name`].
        ///
        /// Invariant: names are distinct, lower case and stable (content and recordings name
        /// keys by them); [`Key::ALL`] holds every key once, in the reference's order: the
        /// keyboard's and the mouse's, then each pad control for any pad and for pads 1 to 4.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Key {
            $($key,)*
            /// A control of a gamepad: `pad_a` (any pad), `pad2_a` (pad 2)...
            Pad(PadSlot, PadControl),
        }

        impl Key {
            /// The keyboard's keys and the mouse's buttons.
            const BOARD: &'static [Key] = &[$(Key::$key,)*];

            /// The key's name in content: `a`, `space`, `f3`, `mouse_left`, `pad_a`, `pad1_lx`...
            pub const fn name(self) -> &'static str {
                match self {
                    $(Key::$key => $name,)*
                    Key::Pad(slot, control) => control.names()[slot as usize],
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

/// Declares [`PadControl`] with each control's name and kind: the one list of pad controls.
/// Each is bound as `pad_NAME` (any pad) and `pad1_NAME` to `pad4_NAME` (one pad).
macro_rules! pad_controls {
    ($($control:ident = $name:literal $shown:literal $kind:ident,)*) => {
        /// A button, stick axis or trigger of a gamepad, in the standard layout (Xbox names:
        /// A at the bottom of the four, B at the right, X at the left, Y at the top).
        ///
        /// Invariant: a button is down or up (1 or 0); an axis has a value: sticks from -1 to
        /// 1 (right and down positive, as the world's x and y), triggers from 0 to 1.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum PadControl {
            $($control,)*
        }

        impl PadControl {
            /// Every control, buttons then axes, in the order the reference lists them.
            pub const ALL: &'static [PadControl] = &[$(PadControl::$control,)*];

            /// The control's name after `pad_`: `a`, `start`, `lx`...
            pub const fn name(self) -> &'static str {
                match self {
                    $(PadControl::$control => $name,)*
                }
            }

            /// The control as printed on a pad, for players: `A`, `Start`, `left stick x`...
            pub const fn shown(self) -> &'static str {
                match self {
                    $(PadControl::$control => $shown,)*
                }
            }

            /// Whether the control is an axis (a stick or a trigger) rather than a button.
            pub const fn is_axis(self) -> bool {
                match self {
                    $(PadControl::$control => pad_controls!(@axis $kind),)*
                }
            }

            /// The control's key names, by [`PadSlot`]: `pad_a`, `pad1_a`... `pad4_a`.
            const fn names(self) -> [&'static str; PadSlot::ALL.len()] {
                match self {
                    $(PadControl::$control => [
                        concat!("pad_", $name),
                        concat!("pad1_", $name),
                        concat!("pad2_", $name),
                        concat!("pad3_", $name),
                        concat!("pad4_", $name),
                    ],)*
                }
            }
        }
    };
    (@axis button) => { false };
    (@axis axis) => { true };
}

pad_controls! {
    A = "a" "A" button,
    B = "b" "B" button,
    X = "x" "X" button,
    Y = "y" "Y" button,
    Lb = "lb" "LB" button,
    Rb = "rb" "RB" button,
    Lt = "lt" "LT" button,
    Rt = "rt" "RT" button,
    Select = "select" "Select" button,
    Start = "start" "Start" button,
    Up = "up" "up" button,
    Down = "down" "down" button,
    Left = "left" "left" button,
    Right = "right" "right" button,
    LStick = "lstick" "left stick press" button,
    RStick = "rstick" "right stick press" button,
    Lx = "lx" "left stick x" axis,
    Ly = "ly" "left stick y" axis,
    Rx = "rx" "right stick x" axis,
    Ry = "ry" "right stick y" axis,
    LTrigger = "ltrigger" "left trigger" axis,
    RTrigger = "rtrigger" "right trigger" axis,
}

/// Which pad a pad key listens to: any pad (`pad_a`), or the pad of a number (`pad1_a` to
/// `pad4_a`). Pads are numbered in the order they connect; a pad that reconnects keeps its
/// number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PadSlot {
    Any,
    P1,
    P2,
    P3,
    P4,
}

impl PadSlot {
    /// Every slot: any pad, then pads 1 to 4.
    pub const ALL: [PadSlot; 5] = [
        PadSlot::Any,
        PadSlot::P1,
        PadSlot::P2,
        PadSlot::P3,
        PadSlot::P4,
    ];

    /// The most pads with a number.
    pub const NUMBERED: u8 = 4;

    /// Pad number `n` (1 to [`PadSlot::NUMBERED`]).
    pub const fn numbered(n: u8) -> Option<PadSlot> {
        match n {
            1 => Some(PadSlot::P1),
            2 => Some(PadSlot::P2),
            3 => Some(PadSlot::P3),
            4 => Some(PadSlot::P4),
            _ => None,
        }
    }
}

/// How many keys there are: the keyboard's and the mouse's, then every pad key.
const KEY_COUNT: usize = Key::BOARD.len() + PadControl::ALL.len() * PadSlot::ALL.len();

/// [`Key::ALL`], built once at compile time.
const fn all_keys() -> [Key; KEY_COUNT] {
    let mut out = [Key::A; KEY_COUNT];
    let mut i = 0;
    while i < Key::BOARD.len() {
        out[i] = Key::BOARD[i];
        i += 1;
    }
    let mut s = 0;
    while s < PadSlot::ALL.len() {
        let mut c = 0;
        while c < PadControl::ALL.len() {
            out[i] = Key::Pad(PadSlot::ALL[s], PadControl::ALL[c]);
            i += 1;
            c += 1;
        }
        s += 1;
    }
    out
}

impl Key {
    /// Every key, in the order the reference lists them: the keyboard's and the mouse's, then
    /// the pad controls of any pad, then those of pads 1 to 4.
    pub const ALL: &'static [Key] = &all_keys();

    /// The keyboard's keys and the mouse's buttons, without the pads'.
    pub fn board() -> &'static [Key] {
        Key::BOARD
    }

    /// The key named `name` in content, if there is one.
    pub fn from_name(name: &str) -> Option<Key> {
        Key::ALL.iter().copied().find(|k| k.name() == name)
    }

    /// The key as a player reads it on screen (the help line, the banners), as the app writes
    /// its own keys: capitalised, words spaced, mouse buttons as clicks, pad controls as
    /// printed on a pad (`A`, `F3`, `Space`, `Left shift`, `Left click`, `Pad 2 Start`).
    pub fn shown(self) -> String {
        let name = self.name();
        let mut text = match self {
            Key::Pad(PadSlot::Any, c) => format!("pad {}", c.shown()),
            Key::Pad(slot, c) => format!("pad {} {}", slot as usize, c.shown()),
            Key::MouseLeft | Key::MouseRight | Key::MouseMiddle => {
                format!("{} click", &name["mouse_".len()..])
            }
            _ if name.starts_with('f') && name.len() <= 3 => name.to_uppercase(),
            _ => name.replace('_', " "),
        };
        // Every name is lower-case ASCII and not empty (see `Key`).
        text[..1].make_ascii_uppercase();
        text
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

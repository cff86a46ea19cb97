//! The keys a game binds: one list ([`Key`]) names them, checks them and is what a program
//! keeping some keys for itself reserves from.

use ludus_content::{
    Key, LoadOptions, MemorySource, PadControl, PadSlot, load_game, load_game_with,
};

/// A game binding `keys` (TOML) to a button and `axis` (TOML) to an axis.
fn game(keys: &str, axis: &str) -> MemorySource {
    let text = format!(
        "name = \"Keys\"\n\n[input.actions.jump]\nkind = \"button\"\nkeys = {keys}\n\n\
         [input.actions.steer]\nkind = \"axis\"\nkeys = {axis}\n\n[levels.main]\n"
    );
    MemorySource::new().with("game.toml", text.as_bytes())
}

#[test]
fn every_key_has_one_lower_case_name_that_finds_it() {
    assert_eq!(
        Key::ALL.len(),
        66 + 22 * 5,
        "26 letters, 10 digits, 27 keys, 3 buttons; 16 pad buttons and 6 pad axes, for any pad \
         and pads 1 to 4"
    );
    assert_eq!(Key::board().len(), 66, "the keyboard's and the mouse's");
    for (i, key) in Key::ALL.iter().enumerate() {
        let name = key.name();
        assert_eq!(Key::from_name(name), Some(*key), "{name} finds its key");
        assert_eq!(name, name.to_lowercase(), "{name} is lower case");
        assert!(
            Key::ALL[..i].iter().all(|k| k.name() != name),
            "{name} names one key"
        );
    }
    let cases = [
        ("a", Some(Key::A)),
        ("0", Some(Key::Digit0)),
        ("left_shift", Some(Key::LeftShift)),
        ("f12", Some(Key::F12)),
        ("mouse_middle", Some(Key::MouseMiddle)),
        ("pad_a", Some(Key::Pad(PadSlot::Any, PadControl::A))),
        ("pad1_start", Some(Key::Pad(PadSlot::P1, PadControl::Start))),
        (
            "pad4_rtrigger",
            Some(Key::Pad(PadSlot::P4, PadControl::RTrigger)),
        ),
        ("pad_ly", Some(Key::Pad(PadSlot::Any, PadControl::Ly))),
        (
            "pad2_lstick",
            Some(Key::Pad(PadSlot::P2, PadControl::LStick)),
        ),
        ("pad5_a", None),
        ("pad0_a", None),
        ("pad_", None),
        ("pad_home", None),
        ("A", None),
        ("shift", None),
        ("", None),
    ];
    for (name, key) in cases {
        assert_eq!(Key::from_name(name), key, "{name:?}");
    }
}

#[test]
fn a_key_the_program_keeps_is_refused_saying_what_it_does() {
    let source = game("[\"f1\", \"space\"]", "{ a = -1, escape = 1 }");
    let options = LoadOptions {
        reserved_keys: &[(Key::F1, "help"), (Key::Escape, "quit")],
    };
    let Err(d) = load_game_with(&source, &options) else {
        panic!("the game must be refused");
    };
    let help = "   = help: bind another key; the app keeps F1 help, ESCAPE quit\n";
    let expected = [
        "game.toml:5:9: error: key `f1` is the app's own (help): it never reaches the game\n",
        " 5 | keys = [\"f1\", \"space\"]\n",
        "   |         ^^^^\n",
        help,
        "\n",
        "game.toml:9:18: error: key `escape` is the app's own (quit): it never reaches the game\n",
        " 9 | keys = { a = -1, escape = 1 }\n",
        "   |                  ^^^^^^\n",
        help,
        "\n",
        "2 errors found\n",
    ]
    .concat();
    assert_eq!(d.render(), expected);
    // A program that keeps no keys lets the game bind them.
    let loaded = load_game(&source).expect("nothing is reserved");
    let keys: Vec<&str> = loaded.def.bindings.iter().map(|b| b.key.as_str()).collect();
    assert_eq!(keys, ["f1", "space", "a", "escape"]);
}

#[test]
fn pad_controls_are_sixteen_buttons_then_six_axes_named_for_any_pad_and_each_of_four() {
    let buttons: Vec<&str> = PadControl::ALL
        .iter()
        .filter(|c| !c.is_axis())
        .map(|c| c.name())
        .collect();
    let axes: Vec<&str> = PadControl::ALL
        .iter()
        .filter(|c| c.is_axis())
        .map(|c| c.name())
        .collect();
    assert_eq!(
        buttons,
        [
            "a", "b", "x", "y", "lb", "rb", "lt", "rt", "select", "start", "up", "down", "left",
            "right", "lstick", "rstick"
        ],
        "the buttons"
    );
    assert_eq!(
        axes,
        ["lx", "ly", "rx", "ry", "ltrigger", "rtrigger"],
        "the axes"
    );
    let slots: Vec<&str> = PadSlot::ALL
        .iter()
        .map(|s| Key::Pad(*s, PadControl::Lt).name())
        .collect();
    assert_eq!(
        slots,
        ["pad_lt", "pad1_lt", "pad2_lt", "pad3_lt", "pad4_lt"],
        "a control's key for any pad, then for pads 1 to 4"
    );
    let numbered: Vec<Option<PadSlot>> = (0..=5).map(PadSlot::numbered).collect();
    assert_eq!(
        numbered,
        [
            None,
            Some(PadSlot::P1),
            Some(PadSlot::P2),
            Some(PadSlot::P3),
            Some(PadSlot::P4),
            None
        ],
        "pads are numbered 1 to 4"
    );
}

#[test]
fn pad_keys_bind_buttons_and_axes_and_the_deadzone_is_read() {
    let text = "name = \"Pads\"\n\n[input]\ndeadzone = 0.25\n\n[input.actions.jump]\n\
                kind = \"button\"\nkeys = [\"space\", \"pad_a\", \"pad2_rtrigger\"]\n\n\
                [input.actions.steer]\nkind = \"axis\"\nkeys = { pad_lx = 1, pad1_left = -1, pad1_ly = -0.5 }\n\n\
                [levels.main]\n";
    let loaded =
        load_game(&MemorySource::new().with("game.toml", text.as_bytes())).expect("pad keys load");
    let bound: Vec<(&str, u8, f32)> = loaded
        .def
        .bindings
        .iter()
        .map(|b| (b.key.as_str(), b.action.0, b.scale))
        .collect();
    assert_eq!(
        bound,
        [
            ("space", 0, 1.0),
            ("pad_a", 0, 1.0),
            ("pad2_rtrigger", 0, 1.0),
            ("pad_lx", 1, 1.0),
            ("pad1_left", 1, -1.0),
            ("pad1_ly", 1, -0.5)
        ],
        "bindings in the order written"
    );
    assert_eq!(loaded.def.deadzone, 0.25, "[input] deadzone");
    let plain = load_game(&game("[\"space\"]", "{ a = -1 }")).expect("a game without pads");
    assert_eq!(plain.def.deadzone, 0.15, "the default deadzone");
}

/// (key name, how a player reads it on screen)
#[test]
fn a_key_is_shown_to_players_by_the_name_on_the_key_or_the_pad() {
    let cases = [
        ("a", "A"),
        ("7", "7"),
        ("f", "F"),
        ("f3", "F3"),
        ("f12", "F12"),
        ("space", "Space"),
        ("enter", "Enter"),
        ("backspace", "Backspace"),
        ("left_shift", "Left shift"),
        ("right_control", "Right control"),
        ("up", "Up"),
        ("left", "Left"),
        ("mouse_left", "Left click"),
        ("mouse_middle", "Middle click"),
        ("pad_a", "Pad A"),
        ("pad_select", "Pad Select"),
        ("pad2_start", "Pad 2 Start"),
        ("pad_lb", "Pad LB"),
        ("pad_up", "Pad up"),
        ("pad4_lstick", "Pad 4 left stick press"),
        ("pad_lx", "Pad left stick x"),
        ("pad1_rtrigger", "Pad 1 right trigger"),
    ];
    for (name, shown) in cases {
        assert_eq!(Key::from_name(name).unwrap().shown(), shown, "{name}");
    }
    // Every key has a name a player can read: no underscores, none empty.
    for k in Key::ALL {
        let s = k.shown();
        assert!(!s.is_empty() && !s.contains('_'), "{k}: {s}");
    }
}

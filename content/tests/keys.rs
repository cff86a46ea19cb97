//! The keys a game binds: one list ([`Key`]) names them, checks them and is what a program
//! keeping some keys for itself reserves from.

use ludus_content::{Key, LoadOptions, MemorySource, load_game, load_game_with};

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
        66,
        "26 letters, 10 digits, 27 keys, 3 buttons"
    );
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

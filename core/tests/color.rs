//! The one grammar of colours (`Color::parse`), which content's TOML and scripts' colour
//! arguments both read, and `Display`, which writes a colour back in it.

use ludus_core::Color;

#[test]
fn colours_parse_by_one_grammar() {
    let orange = Color::rgb(0xff, 0x88, 0x00);
    let cases: &[(&str, Option<Color>)] = &[
        // Hexadecimal, with or without `#`, in either case.
        ("#f80", Some(orange)),
        ("#ff8800", Some(orange)),
        ("#FF8800", Some(orange)),
        ("#ff880080", Some(Color::rgba(0xff, 0x88, 0x00, 0x80))),
        ("f80", Some(orange)),
        ("ff8800", Some(orange)),
        ("Ff8800", Some(orange)),
        ("ff880080", Some(Color::rgba(0xff, 0x88, 0x00, 0x80))),
        ("#000", Some(Color::BLACK)),
        ("#14161e", Some(Color::rgb(20, 22, 30))),
        // Names, in any case; `grey` is `gray`.
        ("white", Some(Color::WHITE)),
        ("WHITE", Some(Color::WHITE)),
        ("Purple", Some(Color::rgb(155, 93, 229))),
        ("red", Some(Color::rgb(230, 57, 70))),
        ("grey", Some(Color::rgb(128, 128, 128))),
        ("gray", Some(Color::rgb(128, 128, 128))),
        // Anything else.
        ("", None),
        ("#", None),
        ("#ff88", None),
        ("ff88", None),
        ("#ff8800f", None),
        ("#ff00zz", None),
        ("##f80", None),
        ("#red", None),
        ("purpel", None),
        (" white", None),
        ("white ", None),
        ("#f80 ", None),
        ("#ｆ80", None),
        ("+f80", None),
    ];
    for (text, expected) in cases {
        assert_eq!(Color::parse(text), *expected, "{text:?}");
    }
}

#[test]
fn colours_display_in_the_grammar_and_parse_back() {
    let cases = [
        (Color::WHITE, "white"),
        (Color::BLACK, "black"),
        (Color::rgb(128, 128, 128), "gray"),
        (Color::rgb(20, 22, 30), "#14161e"),
        (Color::rgba(255, 136, 0, 128), "#ff880080"),
        (Color::rgba(255, 255, 255, 0), "#ffffff00"),
    ];
    for (colour, text) in cases {
        assert_eq!(colour.to_string(), text, "{colour:?}");
        assert_eq!(Color::parse(text), Some(colour), "{text}");
    }
    for (name, colour) in Color::NAMES {
        assert_eq!(Color::parse(name), Some(colour), "{name}");
        assert_eq!(
            Color::parse(&colour.to_string()),
            Some(colour),
            "{name} written back"
        );
    }
}

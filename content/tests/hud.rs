//! The HUD's items as content declares them: lines, pictures, rows of icons and bars, with
//! their sizes worked out from their images; and the names they read that the content does
//! not declare, kept with their places for `ludus check`.

use ludus_content::{MemorySource, load_game};
use ludus_core::{
    Anchor, AssetId, Color, HudBar, HudIcons, HudImage, HudItem, HudLine, HudNumber, Vec2,
};

/// A PNG header of `w` x `h` pixels (all content reads of an image).
fn png_header(w: u32, h: u32) -> Vec<u8> {
    let mut b = b"\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR".to_vec();
    b.extend_from_slice(&w.to_be_bytes());
    b.extend_from_slice(&h.to_be_bytes());
    b.extend_from_slice(&[8, 6, 0, 0, 0, 0, 0, 0, 0]);
    b
}

const GAME: &str = r##"name = "Hud"
hud = [
  "lives {lives} of {max_lives}",
  { image = "key", at = "top_right" },
  { image = "heart", frame = 1, size = 32 },
  { icons = "lives", image = "heart", empty_frame = 1, max = "max_lives", size = [10, 20] },
  { icons = "coins", image = "heart", max = 5, at = "bottom" },
  { bar = "boss_hp", max = 200, at = "top", color = "#ff0000" },
  { bar = "score", max = "boss_max", size = [300, 10], back = "#102030" },
  { text = "{scroe} and \u0041 {nope}", at = "center" },
]

[variables]
lives = 3

[constants]
max_lives = 5

[images.heart]
file = "heart.png"
frame = [16, 8]

[images.key]
file = "key.png"

[levels.one]
"##;

/// The items [`GAME`] declares: heart is image 0, key image 1.
fn expected() -> Vec<HudItem> {
    let (heart, key) = (AssetId(0), AssetId(1));
    let icons = |value: &str, max, empty_frame, size, at| {
        HudItem::Icons(HudIcons {
            value: value.into(),
            max,
            image: heart,
            frame: 0,
            empty_frame,
            size,
            at,
        })
    };
    vec![
        HudItem::Text(HudLine::plain("lives {lives} of {max_lives}")),
        HudItem::Image(HudImage {
            image: key,
            frame: 0,
            size: Vec2::new(12.0, 20.0),
            at: Anchor::TopRight,
        }),
        HudItem::Image(HudImage {
            image: heart,
            frame: 1,
            size: Vec2::new(64.0, 32.0),
            at: Anchor::TopLeft,
        }),
        icons(
            "lives",
            HudNumber::Named("max_lives".into()),
            Some(1),
            Vec2::new(10.0, 20.0),
            Anchor::TopLeft,
        ),
        icons(
            "coins",
            HudNumber::Fixed(5.0),
            None,
            Vec2::new(16.0, 8.0),
            Anchor::Bottom,
        ),
        HudItem::Bar(HudBar {
            value: "boss_hp".into(),
            max: HudNumber::Fixed(200.0),
            size: HudBar::SIZE,
            color: Color::rgb(255, 0, 0),
            back: HudBar::BACK,
            at: Anchor::Top,
        }),
        HudItem::Bar(HudBar {
            value: "score".into(),
            max: HudNumber::Named("boss_max".into()),
            size: Vec2::new(300.0, 10.0),
            color: HudBar::COLOR,
            back: Color::rgb(0x10, 0x20, 0x30),
            at: Anchor::TopLeft,
        }),
        HudItem::Text(HudLine {
            at: Anchor::Center,
            ..HudLine::plain("{scroe} and A {nope}")
        }),
    ]
}

#[test]
fn hud_items_are_read_with_their_sizes_and_unknown_names_kept_for_the_check() {
    let source = MemorySource::new()
        .with("game.toml", GAME.as_bytes().to_vec())
        .with("heart.png", png_header(32, 8))
        .with("key.png", png_header(12, 20));
    let loaded = load_game(&source).unwrap_or_else(|d| panic!("{}", d.render()));
    let expect = expected();
    assert_eq!(loaded.def.hud.len(), expect.len(), "one item per entry");
    for (i, (got, want)) in loaded.def.hud.iter().zip(&expect).enumerate() {
        assert_eq!(got, want, "item {i}");
    }
    // Declared (variables, constants) and built-in names are not kept; the others are, at the
    // name where the string has no escapes, else at the whole string.
    let names: Vec<(String, String, u32, u32, u32)> = loaded
        .hud_names
        .iter()
        .map(|n| {
            let p = &n.problem;
            (n.name.clone(), p.message.clone(), p.line, p.col, p.span_len)
        })
        .collect();
    let s = |a: &str, b: &str, line, col, len| (a.to_string(), b.to_string(), line, col, len);
    assert_eq!(
        names,
        [
            s("coins", "unknown variable `coins` in `hud.icons`", 7, 13, 7),
            s(
                "boss_hp",
                "unknown variable `boss_hp` in `hud.bar`",
                8,
                11,
                9
            ),
            s(
                "boss_max",
                "unknown variable `boss_max` in `hud.max`",
                9,
                26,
                10
            ),
            s("scroe", "unknown `{scroe}` in a HUD text", 10, 12, 27),
            s("nope", "unknown `{nope}` in a HUD text", 10, 12, 27),
        ]
    );
}

#[test]
fn names_in_a_plain_string_are_found_at_the_name() {
    let game = "name = \"T\"\nhud = [\"score {score}  {scroe}\", 'a {b}']\n[levels.one]\n";
    let loaded = load_game(&MemorySource::new().with("game.toml", game.as_bytes().to_vec()))
        .unwrap_or_else(|d| panic!("{}", d.render()));
    let at: Vec<(String, u32, u32, u32)> = loaded
        .hud_names
        .iter()
        .map(|n| {
            (
                n.name.clone(),
                n.problem.line,
                n.problem.col,
                n.problem.span_len,
            )
        })
        .collect();
    assert_eq!(at, [("scroe".into(), 2, 24, 7), ("b".into(), 2, 37, 3)]);
}

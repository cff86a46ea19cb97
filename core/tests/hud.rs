//! The HUD's values as the app draws them: names in texts replaced (variables, constants, the
//! built-in ones), rows of icons and bars filled from variables, constants or numbers, every
//! count bounded; reading them leaves the state hash as it was.

mod support;

use ludus_core::*;
use support::*;

fn def(hud: Vec<HudItem>) -> GameDef {
    let mut def = GameDef {
        levels: vec![LevelDef::default()],
        hud,
        ..GameDef::default()
    };
    for (name, v) in [("lives", 2.0), ("hp", 30.0), ("huge", 1e9), ("minus", -4.0)] {
        def.variables.insert(name.into(), Var::Num(v));
    }
    def.variables
        .insert("banner".into(), Var::Text("GO".into()));
    def.constants.insert("max_hp".into(), Constant::Int(40));
    def.constants.insert("ratio".into(), Constant::Float(0.5));
    def.constants
        .insert("title".into(), Constant::Text("Dungeon".into()));
    def.constants.insert("hard".into(), Constant::Bool(true));
    // A variable wins over a constant of the same name.
    def.constants.insert("lives".into(), Constant::Int(99));
    def
}

fn icons(value: &str, max: HudNumber) -> HudItem {
    HudItem::Icons(HudIcons {
        value: value.into(),
        max,
        image: AssetId(0),
        frame: 0,
        empty_frame: None,
        size: Vec2::new(8.0, 8.0),
        at: Anchor::TopLeft,
    })
}

fn bar(value: &str, max: HudNumber) -> HudItem {
    HudItem::Bar(HudBar {
        value: value.into(),
        max,
        size: HudBar::SIZE,
        color: HudBar::COLOR,
        back: HudBar::BACK,
        at: Anchor::Top,
    })
}

#[test]
fn texts_show_variables_constants_and_the_built_in_names() {
    // (text, shown)
    let cases = [
        ("lives {lives} of {max_hp}", "lives 2 of 40"),
        ("{title}: {banner}", "Dungeon: GO"),
        ("{ratio} {hard}", "0.50 true"),
        (
            "score {score} tick {tick} entities {entities}",
            "score 0 tick 0 entities 0",
        ),
        ("{scroe} and {", "- and {"),
    ];
    let hud = cases
        .iter()
        .map(|(text, _)| HudItem::Text(HudLine::plain(*text)))
        .collect();
    let def = def(hud);
    let game = plain(def.clone());
    let shown = hud_shown(&def, game.world());
    for ((text, expect), s) in cases.iter().zip(&shown) {
        match s {
            HudShown::Text { text: got, .. } => assert_eq!(got, expect, "{text}"),
            other => panic!("{text}: {other:?}"),
        }
    }
}

#[test]
fn icons_and_bars_are_filled_from_names_or_numbers_within_bounds() {
    use HudNumber::{Fixed, Named};
    let items = vec![
        icons("lives", Fixed(3.0)),
        icons("lives", Named("max_hp".into())),
        icons("huge", Fixed(5.0)),
        icons("huge", Named("huge".into())),
        icons("minus", Fixed(3.0)),
        icons("banner", Fixed(3.0)),
        icons("unset", Fixed(3.0)),
        bar("hp", Named("max_hp".into())),
        bar("hp", Fixed(120.0)),
        bar("huge", Fixed(10.0)),
        bar("minus", Fixed(10.0)),
        bar("hp", Fixed(0.0)),
        bar("ratio", Fixed(2.0)),
    ];
    // (full, slots) of each row, then each bar's fill.
    let rows = [(2, 3), (2, 40), (5, 5), (64, 64), (0, 3), (0, 3), (0, 3)];
    let fills = [0.75, 0.25, 1.0, 0.0, 0.0, 0.25];
    let def = def(items);
    let game = plain(def.clone());
    let before = StateHash::of(game.world());
    let shown = hud_shown(&def, game.world());
    let (got_rows, got_fills): (Vec<_>, Vec<_>) = shown
        .iter()
        .partition(|s| matches!(s, HudShown::Icons { .. }));
    for (i, (s, (full, slots))) in got_rows.iter().zip(rows).enumerate() {
        match s {
            HudShown::Icons {
                full: f, slots: n, ..
            } => {
                assert_eq!((*f, *n), (full, slots), "row {i}")
            }
            other => panic!("{other:?}"),
        }
    }
    for (i, (s, fill)) in got_fills.iter().zip(fills).enumerate() {
        match s {
            HudShown::Bar { fill: f, .. } => assert_eq!(*f, fill, "bar {i}"),
            other => panic!("{other:?}"),
        }
    }
    assert_eq!(StateHash::of(game.world()), before, "the HUD only reads");
}

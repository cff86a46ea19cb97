//! `[touch]`: the on-screen controls a game declares load into its definition, each with the
//! actions it drives.

use ludus_content::{MemorySource, load_game};
use ludus_core::{ActionId, Anchor, TouchControl, TouchControlKind, TouchDef};

/// A game with axes `move_x` (0), `move_y` (1), a button `fire` (2) and `[touch]` as given.
fn load(touch: &str) -> Result<TouchDef, String> {
    let text = format!(
        "name = \"Touch\"\n\n[input.actions.move_x]\nkind = \"axis\"\n\n\
         [input.actions.move_y]\nkind = \"axis\"\n\n[input.actions.fire]\nkind = \"button\"\n\n\
         {touch}\n[levels.main]\n"
    );
    let source = MemorySource::new().with("game.toml", text.as_bytes());
    load_game(&source)
        .map(|g| g.def.touch)
        .map_err(|d| d.render())
}

#[test]
fn controls_load_in_declaration_order_with_their_actions() {
    let stick = |x, y| TouchControlKind::Stick { x, y };
    let cases: &[(&str, Vec<TouchControl>)] = &[
        ("", vec![]),
        ("[touch]\n", vec![]),
        (
            "[[touch.controls]]\nkind = \"stick\"\nx_action = \"move_x\"\ny_action = \"move_y\"\nat = \"bottom_left\"\n\n\
             [[touch.controls]]\nkind = \"button\"\naction = \"fire\"\nat = \"bottom_right\"\nlabel = \"A\"\n",
            vec![
                TouchControl {
                    at: Anchor::BottomLeft,
                    kind: stick(Some(ActionId(0)), Some(ActionId(1))),
                },
                TouchControl {
                    at: Anchor::BottomRight,
                    kind: TouchControlKind::Button {
                        action: ActionId(2),
                        label: Some("A".into()),
                    },
                },
            ],
        ),
        (
            "[[touch.controls]]\nkind = \"stick\"\ny_action = \"move_y\"\nat = \"left\"\n\n\
             [[touch.controls]]\nkind = \"button\"\naction = \"fire\"\nat = \"top\"\n",
            vec![
                TouchControl {
                    at: Anchor::Left,
                    kind: stick(None, Some(ActionId(1))),
                },
                TouchControl {
                    at: Anchor::Top,
                    kind: TouchControlKind::Button {
                        action: ActionId(2),
                        label: None,
                    },
                },
            ],
        ),
    ];
    for (touch, want) in cases {
        let got = load(touch).unwrap_or_else(|e| panic!("{touch}: {e}"));
        assert_eq!(got.controls, *want, "{touch}");
    }
}

#[test]
fn a_control_of_a_kind_without_its_action_is_refused() {
    let cases = [
        (
            "[[touch.controls]]\nkind = \"button\"\nat = \"top\"\n",
            "a button drives no action: it needs `action`",
        ),
        (
            "[[touch.controls]]\nkind = \"stick\"\naction = \"fire\"\nat = \"top\"\n",
            "`action` is only used by a button, and this control is a stick",
        ),
        (
            "[[touch.controls]]\nkind = \"button\"\naction = \"fire\"\n",
            "missing required key `at`",
        ),
    ];
    for (touch, message) in cases {
        let err = load(touch).expect_err(touch);
        assert!(err.contains(message), "{touch}: {err}");
    }
}

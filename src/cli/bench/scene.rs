//! The scene presentation is measured on (`ludus bench --render`, criterion `render`): many
//! sprites of a sprite sheet, each animated and spinning, so every draw takes every step.

use ludus_core::*;

/// `n` spinning, animated sprites of a 4-frame sheet over a 4000 x 4000 field.
pub fn sprites_def(n: u32) -> GameDef {
    let mut sheet = ImageDef::whole("sheet", "sheet.png", 64, 16);
    sheet.frame = (16, 16);
    let sprite = ArchetypeDef {
        name: "sprite".into(),
        velocity: Vec2::new(30.0, -20.0),
        sprite: Some(SpriteDef {
            shape: SpriteShape::Image(AssetId(0)),
            size: Vec2::new(12.0, 12.0),
            color: Color::WHITE,
            layer: 0,
            depth: 0.0,
            frame: 0,
            flip_x: false,
            flip_y: false,
            alpha: 1.0,
        }),
        rotation: Some(RotationDef {
            spin: 2.0,
            ..RotationDef::default()
        }),
        animations: vec![AnimationDef {
            name: "spin".into(),
            frames: vec![0, 1, 2, 3],
            fps: 12.0,
            looping: true,
        }],
        ..ArchetypeDef::default()
    };
    let mut def = GameDef {
        name: "Sprites".into(),
        images: vec![sheet],
        archetypes: vec![sprite],
        levels: vec![LevelDef {
            bounds: Rect::centered(Vec2::new(4000.0, 4000.0)),
            // The whole field in view: in a window every sprite is drawn.
            camera: CameraDef {
                view: Vec2::new(4000.0, 4000.0),
                ..CameraDef::default()
            },
            ..LevelDef::default()
        }],
        stress: Some(StressDef {
            archetype: ArchetypeId(0),
            area: None,
        }),
        ..GameDef::default()
    };
    def.limits.max_entities = def.limits.max_entities.max(n);
    def
}

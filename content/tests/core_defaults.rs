//! Defaults are written once, in ludus-core, and the schema reads them: a game that sets
//! nothing gets exactly core's defaults, including the choices the schema names (`body`,
//! `bounds`, `kind`, `at`, `filter`, `mode`...), which must load to core's default variants.
//! (`schema::defaults` checks each key's documented default against what its absence loads.)

use ludus_content::{MemorySource, load_game};
use ludus_core::{
    AiPolicy, ArchetypeDef, ColliderDef, ControlDef, GameDef, HudItem, HudLine, ImageDef, LabelDef,
    LevelDef, Limits, PhysicsDef, RotationDef, ScriptsDef, Shape, TickPolicy, WindowDef,
};

fn load(game: &str) -> GameDef {
    let mut png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR".to_vec();
    png.extend_from_slice(&[0, 0, 0, 32, 0, 0, 0, 16, 8, 6, 0, 0, 0, 0, 0, 0, 0]);
    let source = MemorySource::new()
        .with("game.toml", game.as_bytes().to_vec())
        .with("i.png", png);
    match load_game(&source) {
        Ok(g) => g.def,
        Err(d) => panic!("{}", d.render()),
    }
}

#[test]
fn an_empty_game_gets_cores_defaults() {
    let def = load("name = \"Empty\"\n[levels.one]\n");
    assert_eq!(def.tick, TickPolicy::DEFAULT, "[tick]");
    assert_eq!(def.ai, AiPolicy::DEFAULT, "[ai]");
    assert_eq!(def.limits, Limits::DEFAULT, "[limits]");
    assert_eq!(def.physics, PhysicsDef::DEFAULT, "[physics]");
    assert_eq!(def.seed, GameDef::SEED, "seed");
    assert_eq!(
        (def.scripts.instruction_budget, def.scripts.memory_limit),
        (ScriptsDef::INSTRUCTION_BUDGET, ScriptsDef::MEMORY_LIMIT),
        "[scripts]"
    );
    assert_eq!(
        (def.window.width, def.window.height),
        (WindowDef::WIDTH, WindowDef::HEIGHT),
        "[window]"
    );
    let one = LevelDef {
        name: "one".into(),
        ..LevelDef::default()
    };
    assert_eq!(def.levels, [one], "a level that sets nothing");
}

#[test]
fn tables_that_set_only_what_they_must_get_cores_defaults() {
    let def = load(
        "name = \"Parts\"\nlayers = [\"l\"]\nhud = [\"a\", { text = \"b\" }]\n\
         [images.i]\nfile = \"i.png\"\n\
         [archetypes.plain]\n\
         [archetypes.body.collider]\nlayer = \"l\"\nradius = 4\n\
         [archetypes.driven.control]\n\
         [archetypes.turning]\nangle = 0\n\
         [archetypes.labelled.label]\n\
         [levels.one]\n",
    );
    assert_eq!(
        def.hud,
        [
            HudItem::Text(HudLine::plain("a")),
            HudItem::Text(HudLine::plain("b"))
        ],
        "HUD lines"
    );
    assert_eq!(
        def.images,
        [ImageDef::whole("i", "i.png", 32, 16)],
        "[images]"
    );
    let archetype = |name: &str| {
        def.archetypes
            .iter()
            .find(|a| a.name == name)
            .unwrap_or_else(|| panic!("archetype {name}"))
    };
    let plain = ArchetypeDef {
        name: "plain".into(),
        ..ArchetypeDef::default()
    };
    assert_eq!(archetype("plain"), &plain, "an archetype that sets nothing");
    assert_eq!(
        archetype("body").collider,
        Some(ColliderDef::new(Shape::Circle { radius: 4.0 }, 1, 0, 0)),
        "a collider that sets only its layer and radius"
    );
    assert_eq!(
        archetype("driven").control,
        Some(ControlDef::default()),
        "a control that sets nothing"
    );
    assert_eq!(
        archetype("turning").rotation,
        Some(RotationDef::DEFAULT),
        "an archetype that only writes `angle = 0`"
    );
    // The built-in `text` archetype's label is core's default label.
    assert_eq!(
        archetype("labelled").label,
        LabelDef::text_archetype().label,
        "a label that sets nothing"
    );
}

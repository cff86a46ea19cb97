//! `ludus.tile` and `ludus.set_tile` from a script: reads as the stage began, changes from
//! the next tick, and a fault with the script's line for a point off the map or a character
//! that is no tile.
//!
//! The fixture's level gets a map of 16-unit tiles from (0, 0): `#` solid (on the enemies'
//! archetype, sized by the tiles), `.` a floor.

mod support;

use ludus_core::*;
use support::*;

fn tiled() -> GameDef {
    let mut def = def();
    let earth = ArchetypeDef {
        name: "earth".into(),
        collider: Some(ColliderDef {
            body: BodyKind::Static,
            ..ColliderDef::new(Shape::Box { half: Vec2::ZERO }, 2, 0, 0)
        }),
        ..ArchetypeDef::default()
    };
    def.archetypes.push(earth);
    let key = |ch, frame, solid| TileKey {
        ch,
        frame,
        solid,
        spawn: None,
    };
    let legend = vec![
        key('#', 1, Some(ArchetypeId(2))),
        key('.', 2, None),
        TileKey {
            spawn: Some(ENEMY),
            ..key('E', 0, None)
        },
    ];
    let map = TileMapDef {
        image: AssetId(0),
        tile: Vec2::new(16.0, 16.0),
        origin: Vec2::ZERO,
        columns: 3,
        rows: 1,
        cells: vec![1, 2, 0],
        layer: -1,
        legend,
        keys: vec![1, 2, 0],
        solids: Vec::new(),
        first_solid: 0,
    };
    assert!(def.levels[0].add_tilemap(map, 100), "it fits");
    def
}

/// What the script printed over `ticks` ticks, without the `[tick N] file:LINE: ` prefix.
fn printed(src: &str, ticks: u64) -> Vec<String> {
    let mut g = game_with(tiled(), &[("scripts/main.lua", src)], &[]).unwrap();
    run(&mut g, ticks).unwrap();
    g.consequences_mut()
        .drain_log()
        .into_iter()
        .map(|l| {
            l.rsplit_once(": ")
                .map_or(l.clone(), |(_, m)| m.to_string())
        })
        .collect()
}

#[test]
fn tile_reads_the_map_and_set_tile_changes_it_from_the_next_tick() {
    let src = r##"
function on_tick(e)
  print(ludus.tile(1, 1), ludus.tile(20, 15.5), ludus.tile(40, 0), ludus.tile(48, 0), ludus.tile(-1, 0))
  if e.tick == 1 then
    ludus.set_tile(20, 0, "#")
    ludus.set_tile(0, 0, " ")
    print(ludus.tile(20, 0))
  end
end
"##;
    assert_eq!(
        printed(src, 2),
        ["#\t.\tnil\tnil\tnil", ".", "nil\t#\tnil\tnil\tnil"]
    );
}

#[test]
fn bad_tiles_fault_at_the_scripts_line() {
    for (call, message) in [
        (
            "ludus.set_tile(48, 0, '#')",
            "ludus.set_tile: (48, 0) is outside the tile map, which covers x from 0 to 48 and y from 0 to 16",
        ),
        (
            "ludus.set_tile(0, 0, 'x')",
            "ludus.set_tile: `x` is not in the tile map's legend: its tiles are `#`, `.`, and \" \" for no tile",
        ),
        (
            "ludus.set_tile(0, 0, 'E')",
            "ludus.set_tile: `E` places an archetype when the level starts; it is not a tile: its tiles are `#`, `.`, and \" \" for no tile",
        ),
        (
            "ludus.set_tile(0, 0, '##')",
            "ludus.set_tile: the tile must be one character of the legend (\" \" for none), got \"##\"",
        ),
        (
            "ludus.set_tile(0, 0)",
            "ludus.set_tile: the tile must be a string, got nil",
        ),
        (
            "ludus.tile(0/0, 0)",
            "ludus.tile: x must be a finite number, got NaN",
        ),
    ] {
        let src = format!("function on_start()\n  {call}\nend");
        let mut g = game_with(tiled(), &[("scripts/main.lua", &src)], &[]).unwrap();
        let f = run(&mut g, 1).expect_err(call);
        assert_eq!(
            (f.location.as_deref(), f.message.as_str()),
            (Some("scripts/main.lua:2"), message),
            "{call}"
        );
    }
}

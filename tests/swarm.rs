//! The swarm example's Lua rules and their Rust translation (benches/swarm_rules.rs) play the
//! same game: identical state hashes tick after tick. This checks the script host end to end
//! (event fields, command order, random draws) and keeps the benchmark's comparison honest.

#[path = "../benches/swarm_rules.rs"]
mod swarm_rules;

use ludus_core::*;
use ludus_script::{Script, ScriptHost};
use std::path::Path;
use std::sync::Arc;

fn input(tick: u64, def: &GameDef) -> TickInput {
    let fire = def.actions.find("fire").unwrap();
    let (mx, my) = (
        def.actions.find("move_x").unwrap(),
        def.actions.find("move_y").unwrap(),
    );
    let mut i = TickInput::neutral();
    i.set_held(fire, true);
    i.set_pressed(fire, tick == 1);
    let phase = (tick / 120) % 4;
    i.set_axis(mx, [1.0, 0.0, -1.0, 0.0][phase as usize]);
    i.set_axis(my, [0.0, 1.0, 0.0, -1.0][phase as usize]);
    i
}

#[test]
fn lua_and_rust_rules_play_the_same_game() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/swarm");
    let loaded = ludus_content::load_dir(&dir).expect("the example loads");
    let def = Arc::new(loaded.def);
    let scripts = loaded
        .scripts
        .into_iter()
        .map(|(path, text)| Script { path, text })
        .collect();
    let host = ScriptHost::new(def.clone(), scripts, None).unwrap();
    let mut lua = Game::with_entities(def.clone(), Box::new(host), 50).unwrap();
    let mut rust = Game::with_entities(
        def.clone(),
        Box::new(swarm_rules::SwarmRules::new(&def)),
        50,
    )
    .unwrap();
    lua.options_mut().hash = true;
    rust.options_mut().hash = true;
    for tick in 1..=2400 {
        let i = input(tick, &def);
        let a = lua.step(&i).unwrap().hash.unwrap();
        let b = rust.step(&i).unwrap().hash.unwrap();
        assert_eq!(a, b, "tick {tick}: {:?}", a.differing_parts(&b));
    }
    assert!(
        lua.world().score() > 0,
        "the game was played: score {}",
        lua.world().score()
    );
    assert!(
        lua.world()
            .vars()
            .get("wave")
            .and_then(Var::num)
            .unwrap_or(0.0)
            >= 3.0
    );
}

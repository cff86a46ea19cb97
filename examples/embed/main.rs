//! Embedding Ludus in a Rust program, with a system of the program's own.
//!
//! Motivation: a game may need a rule that TOML cannot declare and that is too hot for Lua, or
//! a tool may drive the simulation itself (a level editor, a server, a test). Such a program
//! loads a game folder, builds the [`Game`], and adds Rust systems to its tick.
//!
//! Implementation: the `wind` system pushes every entity tagged `kite` to the right. It runs in
//! the Motion phase, declared `before(systems::INTEGRATE)`, so the wind it adds this tick moves the
//! kites this tick; it declares that it writes velocities, so the schedule can check the order
//! of everything else that reads them. The game's own Lua script scores each kite that crosses
//! the finish line.
//!
//! Run: `cargo run --example embed [TICKS]` (headless; prints the score and the kites'
//! positions).

use ludus_core::{
    Fault, Game, Identity, Phase, Position, Resource, System, TickInput, TickState, Velocity,
    systems,
};
use ludus_script::{Script, ScriptHost};
use std::path::Path;
use std::sync::Arc;

/// Wind speed gained per second, in units per second.
const GUST: f32 = 40.0;

/// Loads the kites game and adds the wind.
fn kites() -> Result<Game, String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/embed/game");
    let loaded = ludus_content::load_dir(&dir).map_err(|d| d.to_string())?;
    let kite = loaded
        .def
        .tags
        .iter()
        .position(|t| t == "kite")
        .map(|bit| 1u64 << bit)
        .ok_or("the game declares no `kite` tag")?;
    let def = Arc::new(loaded.def);
    let scripts = loaded
        .scripts
        .into_iter()
        .map(|(path, text)| Script { path, text })
        .collect();
    let host = ScriptHost::new(def.clone(), scripts, None).map_err(|f| f.to_string())?;
    let mut game = Game::new(def, Box::new(host)).map_err(|f| f.to_string())?;
    let wind = System::new(
        "wind",
        Phase::Motion,
        move |t: &mut TickState<'_>| -> Result<(), Fault> {
            let gain = GUST * t.dt();
            let def = t.def();
            for (id, v) in t.query_mut::<(&Identity, &mut Velocity)>() {
                // An entity's tags are its archetype's.
                if def.tags_of(id.archetype) & kite != 0 {
                    v.0.x += gain;
                }
            }
            Ok(())
        },
    )
    .writes(&[Resource::Velocity])
    .before(systems::INTEGRATE);
    let warnings = game.add_system(wind).map_err(|e| e.to_string())?;
    for w in warnings {
        eprintln!("warning: {w}");
    }
    Ok(game)
}

/// Runs `ticks` ticks; returns the score and the kites' x positions.
fn fly(ticks: u64) -> Result<(i64, Vec<f32>), String> {
    let mut game = kites()?;
    for _ in 0..ticks {
        game.step(&TickInput::neutral())
            .map_err(|f| f.to_string())?;
    }
    for line in game.consequences_mut().drain_log() {
        println!("{line}");
    }
    let kite = game.def().archetype_id("kite").ok_or("no kite archetype")?;
    let world = game.world();
    let mut xs: Vec<f32> = world
        .ecs()
        .query::<(&Identity, &Position)>()
        .iter()
        .filter(|(id, _)| id.archetype == kite)
        .map(|(_, p)| p.0.x)
        .collect();
    xs.sort_by(f32::total_cmp);
    Ok((world.score(), xs))
}

fn main() {
    let ticks = std::env::args()
        .nth(1)
        .and_then(|t| t.parse().ok())
        .unwrap_or(360);
    match fly(ticks) {
        Ok((score, xs)) => println!("after {ticks} ticks: score {score}, kites at x = {xs:?}"),
        Err(e) => {
            eprintln!("embed: {e}");
            std::process::exit(1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::fly;

    #[test]
    fn the_wind_carries_every_kite_over_the_line() {
        // Without wind nothing moves; with it, x(t) = x0 + GUST t^2 / 2: the kite starting
        // furthest back (-300) needs sqrt(2 * 600 / 40) = 5.5 s to reach the line at 300.
        let (score, xs) = fly(6 * 60).unwrap();
        assert_eq!(score, 3, "kites at {xs:?}");
        let (score, _) = fly(60).unwrap();
        assert_eq!(score, 0, "after one second no kite has reached the line");
    }
}

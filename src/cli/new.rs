//! `ludus new NAME`: a new game folder from a small template that teaches by its comments.

use std::path::Path;

const GAME: &str = r##"# A Ludus game is a folder: this file declares it, levels place things, scripts react.
# Every key is documented in docs/content.md; `ludus check .` validates the folder.
name = "{name}"
seed = 1                               # the world's random generator starts here
tags = ["player", "gem"]               # labels scripts can test with ludus.has(tags, "gem")
layers = ["body"]                      # collision layers
level_files = ["levels/main.toml"]
hud = ["score {score}"]                # {score}, {tick} and {any_variable} are filled in

[tick]
rate = 60                              # simulation ticks per second

[scripts]
files = ["scripts/main.lua"]

# Input: actions, and the keys that drive them. An axis sums its keys' values.
[input.actions.move_x]
kind = "axis"
keys = { a = -1, d = 1, left = -1, right = 1 }

[input.actions.move_y]
kind = "axis"
keys = { w = -1, s = 1, up = -1, down = 1 }

[effects.sparkle]
color = "#ffd166"
particles = 14

[sounds.ding]
wave = "sine"
freq = 660
freq_end = 990

# An archetype is a kind of entity: the components it starts with.
[archetypes.player]
tags = ["player"]
speed = 200                            # units per second when a move axis is fully on
camera = true                          # the camera follows it
bounds = "confine"                     # stays inside the level
sprite = { shape = "circle", size = 24, color = "#4cc9f0" }
collider = { layer = "body", mask = ["body"] }   # reports contacts with other bodies

[archetypes.player.control]
move_x = "move_x"
move_y = "move_y"

[archetypes.gem]
tags = ["gem"]
sprite = { shape = "rect", size = 14, color = "#ffd166" }
collider = { layer = "body", trigger = true }    # a trigger: overlapping it raises on_trigger_enter
"##;

const LEVEL: &str = r##"# A level: its bounds, what is placed, what spawns.
name = "main"
bounds = { size = [800, 600] }
background = "#141824"

[[place]]
archetype = "player"
at = [0, 0]

[[place]]
archetype = "gem"
at = [150, -80]

[[spawner]]
archetype = "gem"        # a new gem somewhere in the level every two seconds
every = 120
count = 1
"##;

const SCRIPT: &str = r##"-- Scripts react to events with commands; they never touch the world directly.
-- Every handler gets all events of its kind for the tick (see docs/scripting.md).

function on_start(info)
  ludus.log("welcome to " .. info.level)
end

-- A trigger was entered: `a` is the trigger (the gem), `b` what entered it.
function on_trigger_enter(events)
  for _, e in ipairs(events) do
    if e.a_kind == "gem" and e.b_kind == "player" then
      ludus.add_score(1)
      ludus.effect("sparkle", e.ax, e.ay)
      ludus.sound("ding")
      ludus.destroy(e.a)
    end
  end
end
"##;

/// Creates the folder; returns the exit code.
pub fn create(dir: &Path) -> i32 {
    if dir.exists() {
        eprintln!(
            "ludus: {} already exists; choose a new folder name",
            dir.display()
        );
        return 1;
    }
    let name = dir
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_else(|| "game".into());
    let title = name.replace(['"', '\\'], "");
    let files = [
        ("game.toml", GAME.replace("{name}", &title)),
        ("levels/main.toml", LEVEL.to_string()),
        ("scripts/main.lua", SCRIPT.to_string()),
    ];
    for (path, text) in files {
        let full = dir.join(path);
        let made = full
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|_| std::fs::write(&full, text));
        if let Err(e) = made {
            eprintln!("ludus: cannot write {}: {e}", full.display());
            return 1;
        }
    }
    println!(
        "created {}: play it with `ludus run {}`, validate it with `ludus check {}`",
        dir.display(),
        dir.display(),
        dir.display()
    );
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_template_passes_validation_and_runs() {
        let dir = std::env::temp_dir()
            .join(format!("ludus-new-{}", std::process::id()))
            .join("my_game");
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(create(&dir), 0);
        assert_eq!(create(&dir), 1, "an existing folder is refused");
        let project = crate::platform::load_folder(&dir).expect("the template is valid content");
        let mut game = project.start(0).expect("the template's scripts load");
        for _ in 0..600 {
            game.step(&ludus_core::TickInput::neutral())
                .expect("the template runs");
        }
        assert!(game.world().entity_count() >= 2);
        std::fs::remove_dir_all(dir.parent().unwrap()).ok();
    }
}

//! Time travel in the window: every fault leaves a recording in the game folder's
//! `recordings/`, and the fault screen says where; the recording replays to the same fault.
//! (Hot reload by re-simulation is tested on the runner itself: `src/runtime/resim.rs`.)

mod support;

use support::{ludus, scratch, window_frame, xvfb_available};

#[test]
fn a_fault_in_the_window_leaves_a_recording_that_replays_to_it() {
    if !xvfb_available() {
        return;
    }
    let game = scratch("time-travel", "faulty");
    std::fs::write(
        game.join("game.toml"),
        "name = \"Faulty\"\n[scripts]\nfiles = [\"main.lua\"]\n[archetypes.dot]\nsprite = { shape = \"circle\", size = 8 }\n[levels.main]\nplace = [{ archetype = \"dot\", at = [0, 0] }]\n",
    )
    .unwrap();
    std::fs::write(
        game.join("main.lua"),
        "local n = 0\nfunction on_tick()\n  n = n + 1\n  if n == 30 then error(\"the thirtieth tick\") end\nend\n",
    )
    .unwrap();
    let run = scratch("time-travel", "run");
    let frame = window_frame(&game, &run, &"{}\n".repeat(90), Some(30));
    assert!(frame.width > 0);
    let kept: Vec<_> = std::fs::read_dir(game.join("recordings"))
        .expect("a recordings folder beside the game")
        .flatten()
        .map(|e| e.path())
        .collect();
    assert_eq!(kept.len(), 1, "{kept:?}");
    assert!(kept[0].extension().is_some_and(|e| e == "ludusrec"));
    let o = ludus().arg("replay").arg(&kept[0]).output().unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{out}");
    assert!(
        out.contains(
            "every state hash matches, and tick 30 faults as recorded: the thirtieth tick"
        ),
        "{out}"
    );
}

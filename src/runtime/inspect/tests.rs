//! The inspector's records, events and picks on a small game that uses every field: a hero
//! with health, cooldowns, animations, script state and timers walking through a ghost's
//! trigger, a pet attached to it, and sparks that live 15 ticks, one spawned at tick 5.

use super::seen::EVENTS_KEPT;
use super::*;
use crate::runtime::headless::{HeadlessRun, RunFigures, headless_run};
use crate::runtime::project::Project;
use ludus_core::{EVENT_KINDS, Interpolation, RenderFrame, TickInput, Vec2};

const GAME: &str = r#"
name = "Inspect"
tags = ["hero", "good", "ghost", "pet"]
layers = ["body", "spirit"]

[scripts]
files = ["main.lua"]

[images.hero]
file = "hero.png"
frame = [32, 32]

[archetypes.hero]
tags = ["hero", "good"]
velocity = [60, 0]
sprite = { image = "hero", size = [20, 10] }
collider = { shape = "circle", radius = 6, layer = "body", mask = ["spirit"] }
health = { max = 5 }
cooldowns = { swing = 30, dash = 5 }
animations = { walk = { frames = [0, 1], fps = 8 }, idle = { frames = [0], fps = 1 } }

[archetypes.ghost]
tags = ["ghost"]
collider = { shape = "box", size = [8, 8], layer = "spirit", mask = ["body"], trigger = true }

[archetypes.pet]
tags = ["pet", "good"]
sprite = { shape = "circle", size = 4 }
behaviour = { kind = "wander" }

[archetypes.spark]
lifetime = 15
sprite = { shape = "circle", size = 6 }

[levels.one]
place = [
  { archetype = "hero", at = [0, 0] },
  { archetype = "ghost", at = [20, 0] },
  { archetype = "pet", at = [0, 10] },
  { archetype = "spark", at = [-40, -40] },
]
"#;

const SCRIPT: &str = r#"
function on_start()
  ludus.set("lives", 3)
  ludus.set("name", "inspect")
end

function on_tick(t)
  if t.tick == 2 then
    ludus.set_state(1, "mood", 0.5)
    ludus.set_state(1, "hits", 2)
    ludus.after(100, "blink", { target = 1, data = 7 })
    ludus.every(50, "pulse", { target = 1 })
    ludus.after(10, "other", { target = 3 })
    ludus.use_cooldown(1, "swing")
    ludus.animate(1, "idle")
    ludus.damage(1, 2, 3)
    ludus.attach(3, 1, 0, 10)
  end
  if t.tick == 5 then
    ludus.spawn("spark", 50, 50)
  end
end
"#;

/// The game: hero #1, ghost #2, pet #3, spark #4, and a spark #5 spawned at tick 5.
pub(crate) fn game() -> Project {
    let image =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/dungeon/images/hero.png");
    let files = [
        ("game.toml", GAME.as_bytes().to_vec()),
        ("main.lua", SCRIPT.as_bytes().to_vec()),
        ("hero.png", std::fs::read(image).unwrap()),
    ]
    .map(|(p, b)| (p.to_string(), b))
    .into();
    Project::from_files("inspect", files).unwrap()
}

/// A headless run of [`game`] after `ticks` ticks, with a watch on each of `seqs` fed every
/// tick.
fn run(ticks: u64, seqs: &[u64]) -> (HeadlessRun, Vec<Watch>) {
    let mut d = headless_run(&game(), 0).unwrap();
    let mut watches: Vec<Watch> = seqs.iter().map(|s| Watch::new(*s, &d.game)).collect();
    for _ in 0..ticks {
        d.step(&TickInput::neutral()).unwrap();
        watches.iter_mut().for_each(|w| w.after_tick(&d.game));
    }
    (d, watches)
}

/// Each entity's record at tick 20, its events aside (see the next test).
#[test]
fn the_record_holds_what_the_world_has_of_the_entity() {
    let hero = Inspected {
        id: 1,
        kind: "hero".into(),
        tags: vec!["hero".into(), "good".into()],
        x: 20.0,
        y: 0.0,
        vx: 60.0,
        vy: 0.0,
        angle: 0.0,
        health: Some(3),
        max_health: Some(5),
        state: vec![("hits".into(), 2.0), ("mood".into(), 0.5)],
        cooldowns: vec![("swing".into(), 12), ("dash".into(), 0)],
        animation: Some(Playing {
            name: "idle".into(),
            since: 2,
        }),
        behaviour: None,
        parent: None,
        timers: vec![
            TimerShown {
                name: "pulse".into(),
                due: 52,
                period: Some(50),
                data: 0.0,
            },
            TimerShown {
                name: "blink".into(),
                due: 102,
                period: None,
                data: 7.0,
            },
        ],
        events: Vec::new(),
    };
    let ghost = Inspected {
        id: 2,
        kind: "ghost".into(),
        tags: vec!["ghost".into()],
        x: 20.0,
        health: None,
        max_health: None,
        vx: 0.0,
        state: Vec::new(),
        cooldowns: Vec::new(),
        animation: None,
        timers: Vec::new(),
        ..hero.clone()
    };
    let pet = Inspected {
        id: 3,
        kind: "pet".into(),
        tags: vec!["good".into(), "pet".into()],
        y: 10.0,
        // Attached: it moves with the hero.
        vx: 60.0,
        behaviour: Some("wander"),
        parent: Some(1),
        ..ghost.clone()
    };
    let (d, watches) = run(20, &[1, 2, 3, 99]);
    let expected = [Some(hero), Some(ghost), Some(pet), None];
    for (w, expected) in watches.iter().zip(expected) {
        let record = w.record(&d.game).map(|r| Inspected {
            events: Vec::new(),
            ..r
        });
        assert_eq!(record, expected, "entity #{}", w.seq);
    }
}

/// The events each entity was in by tick 20, newest first, as the panel writes them.
#[test]
fn the_events_an_entity_was_in_are_kept_as_they_happened() {
    let (d, watches) = run(20, &[1, 2, 3, 4, 5]);
    let cases: [&[&str]; 5] = [
        &[
            "11 trigger_enter a=#2 a_kind=ghost",
            "2 damage amount=2 health=3 max=5 source=#3",
            "1 spawn",
        ],
        &["11 trigger_enter b=#1 b_kind=hero", "1 spawn"],
        &[
            "12 timer name=other due=12",
            "2 damage id=#1 kind=hero amount=2 health=3 max=5",
            "1 spawn",
        ],
        &["15 expire reason=lifetime", "1 spawn"],
        // Followed from before it was spawned.
        &["20 expire reason=lifetime", "6 spawn"],
    ];
    for (w, expected) in watches.iter().zip(cases) {
        let seen: Vec<String> = w
            .events()
            .rev()
            .map(|s| lines::event_line(w.seq, s))
            .collect();
        assert_eq!(seen, expected, "entity #{}", w.seq);
    }
    assert_eq!(watches[3].gone(), Some(15), "the spark expired at tick 15");
    assert_eq!(watches[0].gone(), None);
    assert_eq!(
        watches[3].record(&d.game),
        None,
        "a gone entity has no record"
    );
}

/// The summary's `inspect`: the record as JSON (names, whole numbers without a fraction, the
/// events with their fields), null for an entity not in the world, absent without a watch.
#[test]
fn the_summary_ends_with_the_record_or_null() {
    let pet = concat!(
        r#"{"id":3,"kind":"pet","tags":["good","pet"],"x":20.0,"y":10.0,"vx":60.0,"vy":0.0,"#,
        r#""angle":0.0,"health":null,"max_health":null,"state":{},"cooldowns":{},"#,
        r#""animation":null,"behaviour":"wander","parent":1,"timers":[],"events":["#,
        r#"{"tick":1,"first_tick":1,"times":1,"handler":"on_spawn","event":{"tick":0,"id":3,"kind":"pet","tags":["good","pet"],"x":0.0,"y":10.0}},"#,
        r#"{"tick":2,"first_tick":2,"times":1,"handler":"on_damage","event":{"tick":2,"id":1,"kind":"hero","tags":["hero","good"],"x":2.0,"y":0.0,"amount":2,"health":3,"max":5,"source":3,"killed":false}},"#,
        r#"{"tick":12,"first_tick":12,"times":1,"handler":"on_timer","event":{"tick":12,"id":2,"name":"other","due":12,"data":0,"target":3,"target_kind":"pet","target_tags":["good","pet"],"x":12.0,"y":10.0}}]}"#,
    );
    let hero_state = r#""state":{"hits":2,"mood":0.5},"cooldowns":{"swing":12,"dash":0},"animation":{"name":"idle","since":2}"#;
    let cases: [(Option<u64>, Option<&str>); 4] = [
        (Some(3), Some(pet)),
        (Some(1), Some(hero_state)),
        (Some(99), Some("null")),
        (None, None),
    ];
    for (seq, expected) in cases {
        // Fed from its start, as `ludus sim --inspect` feeds it.
        let mut d = headless_run(&game(), 0).unwrap();
        d.watch = seq.map(|s| Watch::new(s, &d.game));
        for _ in 0..20 {
            d.step(&TickInput::neutral()).unwrap();
        }
        let summary = d.summary(&RunFigures::default());
        let inspect = summary
            .split_once(",\"inspect\":")
            .map(|(_, r)| r.strip_suffix('}').unwrap());
        match (inspect, expected) {
            (Some(found), Some(want)) => assert!(found.contains(want), "#{seq:?}: {found}"),
            (found, want) => assert_eq!(found, want, "#{seq:?}"),
        }
    }
}

/// A spec's event with `b` as the other party and the tick: what `keep` is given.
fn contact(handler: &str, tick: u64, b: u64) -> Seen {
    let spec = EVENT_KINDS.iter().find(|s| s.handler == handler).unwrap();
    let fields = spec
        .fields
        .iter()
        .map(|f| {
            let v = match f.name {
                "tick" => Value::Int(tick as i64),
                "a" => Value::Id(1),
                "b" => Value::Id(b),
                "ax" | "bx" => Value::Num(tick as f32),
                _ => Value::Null,
            };
            (f, v)
        })
        .collect();
    Seen {
        tick,
        first_tick: tick,
        times: 1,
        handler: spec.handler,
        fields,
    }
}

/// (events kept in order) -> what the watch holds: (tick, first tick, times, other party),
/// oldest first.
#[test]
fn like_events_count_in_one_place_and_at_most_eight_are_kept() {
    type Kept = Vec<(u64, u64, u32, u64)>;
    let stays =
        |from: u64, to: u64, b: u64| (from..=to).map(move |t| contact("on_collision_stay", t, b));
    let cases: Vec<(Vec<Seen>, Kept)> = vec![
        (stays(1, 3, 7).collect(), vec![(3, 1, 3, 7)]),
        (
            stays(1, 2, 7)
                .chain(stays(3, 4, 8))
                .chain(stays(5, 5, 7))
                .collect(),
            vec![(4, 3, 2, 8), (5, 1, 3, 7)],
        ),
        (
            (1..=10)
                .map(|b| contact("on_collision_enter", b, b))
                .collect(),
            (3..=10).map(|b| (b, b, 1, b)).collect(),
        ),
    ];
    let (d, _) = run(0, &[]);
    for (i, (events, expected)) in cases.into_iter().enumerate() {
        let mut w = Watch::new(1, &d.game);
        events.into_iter().for_each(|e| w.keep(e));
        let kept: Kept = w
            .events()
            .map(|s| {
                let b = s
                    .fields
                    .iter()
                    .find(|(f, _)| f.name == "b")
                    .map(|(_, v)| v.clone());
                let Some(Value::Id(b)) = b else {
                    panic!("case {i}: no b")
                };
                (s.tick, s.first_tick, s.times, b)
            })
            .collect();
        assert_eq!(kept, expected, "case {i}");
        assert!(w.events().count() <= EVENTS_KEPT, "case {i}");
    }
}

/// A watch carried to a world at an earlier tick (a rewind) forgets the events after it, and
/// an entity gone after it is back; a new world (a restart) starts its events afresh.
#[test]
fn a_rewind_forgets_the_future_and_a_new_world_starts_afresh() {
    let (_, watches) = run(20, &[1, 4]);
    let (mut at12, _) = run(12, &[]);
    let hero = watches[0].clone().carried(&at12.game);
    let ticks: Vec<u64> = hero.events().map(|s| s.tick).collect();
    assert_eq!(ticks, [1, 2, 11], "events up to tick 12");
    let spark = watches[1].clone().carried(&at12.game);
    assert_eq!(spark.gone(), None, "the spark is back at tick 12");
    assert!(spark.record(&at12.game).is_some());
    // The level again: a new world.
    let mut hero = hero;
    at12.build(&ludus_core::LoadRequest::Restart).unwrap();
    at12.step(&TickInput::neutral()).unwrap();
    hero.after_tick(&at12.game);
    let ticks: Vec<u64> = hero.events().map(|s| s.tick).collect();
    assert_eq!(ticks, [1], "only the new world's first tick");
}

/// (world point) -> the entity picked: the topmost drawn, else the collider there.
#[test]
fn a_point_picks_what_is_drawn_there_else_a_collider() {
    let (d, _) = run(1, &[]);
    let mut frame = RenderFrame::with_capacity(64);
    frame.extract(d.game.world(), d.game.def(), Interpolation::Exact);
    let cases = [
        ((1.0, 0.0), Some(1)),
        ((10.0, 4.0), Some(1)),
        ((1.0, 11.0), Some(3)),
        ((20.0, 0.0), Some(2)),
        ((23.5, 3.5), Some(2)),
        ((-40.0, -40.0), Some(4)),
        ((50.0, 50.0), None),
        ((12.0, 0.0), None),
    ];
    for ((x, y), expected) in cases {
        assert_eq!(
            pick(&frame, &d.game, Vec2::new(x, y)),
            expected,
            "at {x}, {y}"
        );
    }
}

/// A pixel and the world point under it convert both ways.
#[test]
fn pixels_and_world_points_convert_both_ways() {
    let camera = ludus_core::Camera {
        center: Vec2::new(100.0, 50.0),
        view: Vec2::new(400.0, 200.0),
    };
    // (pixel, view size) -> world point: 2 pixels a unit, letterboxed in the taller view.
    let cases = [
        ((400.0, 200.0), (800.0, 400.0), (100.0, 50.0)),
        ((0.0, 0.0), (800.0, 400.0), (-100.0, -50.0)),
        ((400.0, 300.0), (800.0, 600.0), (100.0, 50.0)),
        ((0.0, 100.0), (800.0, 600.0), (-100.0, -50.0)),
    ];
    for (px, view, (x, y)) in cases {
        let p = world_at(&camera, px, view);
        assert_eq!((p.x, p.y), (x, y), "{px:?} in {view:?}");
        let (sx, sy, scale) = screen_at(&camera, p, view);
        assert_eq!(((sx, sy), scale), (px, 2.0), "back to {px:?}");
    }
}

/// The game panel: tick, level and score, the variables, and the entities per tag.
#[test]
fn the_game_panel_lists_variables_and_entities_per_tag() {
    let (d, _) = run(20, &[]);
    assert_eq!(
        world_lines(&d.game),
        [
            "tick 20  level one  score 0",
            "game variables:",
            "  lives = 3",
            "  name = inspect",
            "entities 3, by tag:",
            "  hero 1",
            "  good 2",
            "  ghost 1",
            "  pet 1",
        ]
    );
}

/// (a `--script` line) -> what it asks of the inspector, or the error; other files refuse
/// `inspect`.
#[test]
fn a_script_line_opens_the_inspector_at_a_world_point() {
    use crate::runtime::frames::{Format, parse};
    let def = &game().def;
    let cases = [
        (
            Format::Script,
            r#"{"inspect":[20,-4.5]}"#,
            Ok(Some([20.0, -4.5])),
        ),
        (Format::Script, "{}", Ok(None)),
        (
            Format::Script,
            r#"{"inspect":[1]}"#,
            Err("s:1: `inspect` must be [x, y] in world units (within ±1e9)"),
        ),
        (
            Format::Script,
            r#"{"inspect":[1e10,0]}"#,
            Err("s:1: `inspect` must be [x, y] in world units (within ±1e9)"),
        ),
        (
            Format::Frames,
            r#"{"dt_ms":16,"inspect":[0,0]}"#,
            Err(
                "s:1: `inspect` belongs in `ludus run --script` files (it opens the window's inspector)",
            ),
        ),
        (
            Format::Input,
            r#"{"tick":1,"inspect":[0,0]}"#,
            Err(
                "s:1: `inspect` belongs in `ludus run --script` files (it opens the window's inspector)",
            ),
        ),
    ];
    for (format, line, expected) in cases {
        let parsed = parse("s", line, format, def).map(|l| l[0].inspect);
        assert_eq!(parsed, expected.map_err(str::to_string), "{line}");
    }
}

/// (entity, ticks run) -> the entity panel's first lines when there is no record: an entity
/// still to be spawned, one gone (named, with its last events), one never seen.
#[test]
fn the_panel_says_why_there_is_no_record() {
    let cases: [(u64, u64, &[&str]); 3] = [
        (
            5,
            3,
            &[
                "#5 is not in the world now",
                "click an entity to inspect it",
                "last events: none since selected",
            ],
        ),
        (
            4,
            16,
            &[
                "#4 spark gone at tick 15",
                "click an entity to inspect it",
                "last events:",
                "  15 expire reason=lifetime",
                "  1 spawn",
            ],
        ),
        (
            99,
            16,
            &[
                "#99 is not in the world now",
                "click an entity to inspect it",
                "last events: none since selected",
            ],
        ),
    ];
    for (seq, ticks, expected) in cases {
        let (d, watches) = run(ticks, &[seq]);
        assert_eq!(
            watches[0].lines(&d.game),
            expected,
            "#{seq} after {ticks} ticks"
        );
    }
}

//! `ludus.set_speed`, `ludus.set_behaviour`, `ludus.attach`, `ludus.detach` and
//! `ludus.facing` from scripts: what they do, and the faults a malformed call gives (a
//! behaviour breaking an archetype's rules is refused with the message content gives).

mod support;

use ludus_core::*;
use support::*;

fn fault_of(src: &str) -> Fault {
    let mut g = game(&format!("function on_start()\n  {src}\nend")).unwrap();
    run(&mut g, 2).expect_err("expected a fault")
}

#[test]
fn scripts_set_speeds_behaviours_and_attachments() {
    let mut g = game(
        "function on_start()\n\
           ludus.set_speed(2, 90)\n\
           ludus.set_behaviour(2, 'flee', { target = { 'player' }, range = 500, idle = 'wander', cadence = 2 })\n\
           ludus.set_behaviour(3, 'chase', { target = 'player', navigate = true })\n\
           local s = ludus.spawn('enemy', 40, 0)\n\
           ludus.attach(s, 1, 10, 0, { angle = true })\n\
           ludus.attach(3, 1, 0, 20)\n\
           ludus.detach(3)\n\
         end\n\
         function on_tick(e)\n\
           if e.tick == 2 then\n\
             local fx, fy = ludus.facing(1)\n\
             ludus.set('fx', fx)\n\
             ludus.set('fy', fy)\n\
             ludus.set('gone', ludus.facing(99) == nil and 1 or 0)\n\
           end\n\
         end",
    )
    .unwrap();
    run(&mut g, 2).unwrap();
    let w = g.world();
    let own = |seq| {
        let e = w.entity(seq).unwrap();
        w.ecs().get::<&OwnBehaviour>(e).map(|o| o.0).ok()
    };
    assert_eq!(
        own(2),
        Some(BehaviourDef {
            cadence: Some(2),
            range: Some(500.0),
            idle: Idle::Wander,
            ..BehaviourDef::new(BehaviourKind::Flee, 1)
        })
    );
    assert_eq!(
        own(3),
        Some(BehaviourDef {
            navigate: true,
            ..BehaviourDef::new(BehaviourKind::Chase, 1)
        })
    );
    let e = w.entity(2).unwrap();
    assert_eq!(w.ecs().get::<&Speed>(e).unwrap().0, 90.0);
    let attached = |seq| {
        let e = w.entity(seq).unwrap();
        w.ecs().get::<&Attached>(e).map(|a| *a).ok()
    };
    assert_eq!(
        attached(4),
        Some(Attached {
            parent: 1,
            offset: Vec2::new(10.0, 0.0),
            angle: true
        }),
        "the spawn of the same handler"
    );
    assert_eq!(attached(3), None, "attached, then detached");
    assert_eq!(
        (var(&g, "fx"), var(&g, "fy"), var(&g, "gone")),
        (Some(1.0), Some(0.0), Some(1.0)),
        "the player's control facing; nil for no entity"
    );
}

#[test]
fn a_malformed_behaviour_speed_or_attachment_faults_at_its_line() {
    let cases = [
        (
            "ludus.set_behaviour(2, 'chse')",
            "unknown behaviour kind `chse` (did you mean `chase`?)",
        ),
        (
            "ludus.set_behaviour(2, 'chase')",
            "a `chase` behaviour needs `target`: the tags it looks for",
        ),
        (
            "ludus.set_behaviour(2, 'chase', { target = {} })",
            "`target` must name at least one tag",
        ),
        (
            "ludus.set_behaviour(2, 'wander', { range = 10 })",
            "`range` is only used by `chase` and `flee`, not `wander`",
        ),
        (
            "ludus.set_behaviour(2, 'flee', { target = 'player', navigate = true })",
            "`navigate` only applies to `chase`, not `flee`",
        ),
        (
            "ludus.set_behaviour(2, 'chase', { target = 'player', idle = 'wander' })",
            "`idle` says what happens beyond `range`, and there is no `range`",
        ),
        (
            "ludus.set_behaviour(2, 'chase', { target = 'ghost' })",
            "unknown tag `ghost`",
        ),
        (
            "ludus.set_behaviour(2, 'chase', { target = 'player', rnage = 5 })",
            "unknown behaviour option `rnage` (did you mean `range`?)",
        ),
        (
            "ludus.set_behaviour(2, 'chase', { target = 'player', range = 0 })",
            "range must be above 0, at most 1000000, got 0",
        ),
        (
            "ludus.set_behaviour(2, 'chase', { target = 'player', cadence = 0 })",
            "cadence must be 1 to 3600 ticks, got 0",
        ),
        (
            "ludus.set_behaviour(2, 'chase', { target = 'player', idle = 'nap', range = 5 })",
            "unknown idle `nap`",
        ),
        (
            "ludus.set_behaviour(2, nil, {})",
            "a nil behaviour takes no options",
        ),
        (
            "ludus.set_speed(2, -3)",
            "a speed must be a finite number, not negative, got -3",
        ),
        (
            "ludus.attach(1, 1, 0, 0)",
            "entity 1 cannot be attached to itself",
        ),
        (
            "ludus.attach(2, 1, 'x', 0)",
            "dx must be a number, got string",
        ),
        (
            "ludus.attach(2, 1, 0, 0, { angel = true })",
            "unknown attach option `angel` (did you mean `angle`?)",
        ),
        (
            "ludus.attach(2, 1, 0, 0) ludus.attach(1, 2, 0, 0)",
            "attaching entity 1 to entity 2 would make a cycle (2 is attached to 1); detach one \
             first",
        ),
        (
            "ludus.detach(0)",
            "child must be an entity id (>= 1), got 0",
        ),
    ];
    for (src, message) in cases {
        let f = fault_of(src);
        let name = src[6..].split('(').next().unwrap();
        assert_eq!(
            (f.message.as_str(), f.location.as_deref()),
            (
                format!("ludus.{name}: {message}").as_str(),
                Some("scripts/main.lua:2")
            ),
            "{src}"
        );
    }
}

/// An options table of 20,000 keys is refused at its first unknown key, read among the
/// first few (the host copies no more keys than the options it knows, and one).
#[test]
fn a_huge_options_table_is_refused_at_its_first_unknown_key() {
    for (call, what) in [
        ("ludus.set_behaviour(2, 'chase', t)", "behaviour"),
        ("ludus.attach(2, 1, 0, 0, t)", "attach"),
    ] {
        let src = format!(
            "local t = {{ target = 'player' }} for i = 1, 20000 do t['k' .. i] = i end {call}"
        );
        let f = fault_of(&src);
        let start = format!(
            "ludus.{}: unknown {what} option `",
            &call[6..call.find('(').unwrap()]
        );
        assert!(f.message.starts_with(&start), "{call}: {}", f.message);
    }
}

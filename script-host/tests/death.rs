//! Death happens once: every way an entity's health reaches 0 gives exactly one `on_death`,
//! one `on_damage` with `killed = true`, and blocks what comes after.

mod support;

use ludus_core::*;
use support::*;

/// Counts what the handlers see: `deaths` (on_death events), `killed` (on_damage events with
/// `killed`), `damages` (all on_damage events), `death_tick` (the tick of the last death), and
/// scores 10 per death as the cookbook's recipe does.
const COUNT: &str = r#"
    local n = {}
    local function add(name, by) n[name] = (n[name] or 0) + by ludus.set(name, n[name]) end
    function on_damage(events)
      for _, d in ipairs(events) do
        add("damages", 1)
        if d.killed then add("killed", 1) end
        if d.killed ~= (d.health <= 0) and d.health <= 0 then add("bad", 1) end
      end
    end
    function on_death(events)
      for _, d in ipairs(events) do
        add("deaths", 1)
        ludus.set("death_tick", d.tick)
        ludus.set("death_source", d.source or 0)
        ludus.add_score(10)
        ludus.destroy(d.id)
      end
    end
"#;

/// What, the script after COUNT, ticks, then what it sees: deaths, killing damage, damage
/// events, the death's tick, and damage and heals blocked after the death.
type Case = (&'static str, &'static str, u64, f64, f64, f64, f64, u64);

/// The enemy (id 2) has 3 health and no invulnerability.
const CASES: &[Case] = &[
    (
        "several damages in one tick",
        r#"function on_start() for _ = 1, 5 do ludus.damage(2, 1, 1) end end"#,
        3,
        1.0,
        1.0,
        3.0,
        1.0,
        2,
    ),
    (
        "one damage far past 0",
        r#"function on_start() ludus.damage(2, 50) ludus.damage(2, 1) end"#,
        3,
        1.0,
        1.0,
        1.0,
        1.0,
        1,
    ),
    (
        "damage, heal, damage in one tick",
        r#"function on_start() ludus.damage(2, 2) ludus.heal(2, 1) ludus.damage(2, 2) end"#,
        3,
        1.0,
        1.0,
        2.0,
        1.0,
        0,
    ),
    (
        "a heal after the killing blow does not revive",
        r#"function on_start() ludus.damage(2, 3) ludus.heal(2, 3) ludus.damage(2, 3) end"#,
        3,
        1.0,
        1.0,
        1.0,
        1.0,
        2,
    ),
    (
        "damage sent from on_damage lands next tick, once",
        r#"
            function on_start() ludus.damage(2, 1) end
            local base = on_damage
            function on_damage(events)
              base(events)
              for _, d in ipairs(events) do
                if not d.killed then ludus.damage(d.id, 2) ludus.damage(d.id, 2) end
              end
            end"#,
        4,
        1.0,
        1.0,
        2.0,
        // the tick the killing blow landed (its stage 2), delivered the next
        1.0,
        1,
    ),
    (
        "damage every tick after death",
        r#"function on_tick() ludus.damage(2, 2) end"#,
        6,
        1.0,
        1.0,
        2.0,
        2.0,
        // tick 3: the destroy of tick 2 has landed; damage to a gone entity is stale
        0,
    ),
    (
        "a spawn damaged in the tick it was made",
        r#"function on_start() local e = ludus.spawn("enemy", 50, 50) ludus.damage(e, 9) ludus.damage(e, 9) end"#,
        4,
        1.0,
        1.0,
        1.0,
        // applied at tick 1's Commit, right after the spawn; delivered at tick 2
        1.0,
        1,
    ),
];

#[test]
fn every_way_health_reaches_zero_gives_one_death() {
    for (what, script, ticks, deaths, killed, damages, tick, blocked) in CASES {
        let src = format!("{COUNT}\n{script}");
        let mut g = game(&src).unwrap_or_else(|f| panic!("{what}: {f:?}"));
        run(&mut g, *ticks).unwrap_or_else(|f| panic!("{what}: {f:?}"));
        assert_eq!(var(&g, "deaths"), Some(*deaths), "{what}: on_death events");
        assert_eq!(var(&g, "killed"), Some(*killed), "{what}: killing damage");
        assert_eq!(var(&g, "damages"), Some(*damages), "{what}: damage events");
        assert_eq!(
            var(&g, "death_tick"),
            Some(*tick),
            "{what}: the death's tick"
        );
        assert_eq!(var(&g, "bad"), None, "{what}: killed agrees with health");
        assert_eq!(g.world().score(), 10, "{what}: one kill scored once");
        assert_eq!(
            g.world().counters().after_death,
            *blocked,
            "{what}: damage and heals blocked after death"
        );
    }
}

#[test]
fn the_death_carries_the_killing_blows_source() {
    let src =
        format!("{COUNT}\nfunction on_start() ludus.damage(2, 1, 3) ludus.damage(2, 5, 1) end");
    let mut g = game(&src).unwrap();
    run(&mut g, 2).unwrap();
    assert_eq!(var(&g, "death_source"), Some(1.0), "the blow that killed");
}

#[test]
fn a_spawn_option_the_archetype_cannot_take_is_a_fault_with_its_line() {
    let mut d = def();
    d.archetypes[1].health = None;
    let f = game_with(
        d,
        &[(
            "scripts/main.lua",
            "function on_start()\n  ludus.spawn(\"enemy\", 1, 1, { health = 5 })\nend\n",
        )],
        &[],
    )
    .and_then(|mut g| run(&mut g, 1))
    .unwrap_err();
    assert_eq!(f.kind, FaultKind::Script);
    assert!(
        f.message
            .contains("archetype `enemy` has no health to override")
            && f.message.contains("remove `health` from the spawn options"),
        "{}",
        f.message
    );
    assert_eq!(
        f.location.as_deref(),
        Some("scripts/main.lua:2"),
        "where the spawn was sent"
    );
}

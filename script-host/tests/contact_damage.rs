//! Contact damage declared by an archetype (`contact_damage`): what lands, when, in what
//! order, and what scripts hear of it, with no script sending it.

mod support;

use ludus_core::*;
use support::*;

/// Prints every damage event as `tick id amount health source killed`, and every death.
const LISTEN: &str = r#"
    function on_damage(events)
      for _, d in ipairs(events) do
        print(string.format("damage %d %d %d %d %s %s", d.tick, d.id, d.amount, d.health,
          tostring(d.source), tostring(d.killed)))
      end
    end
    function on_death(events)
      for _, d in ipairs(events) do print(string.format("death %d %d", d.tick, d.id)) end
    end
"#;

/// What a case sets: the enemies' rule, the player's (hurting enemies), the player's
/// invulnerability, a script after LISTEN.
struct Setup {
    enemy: Option<ContactDamageDef>,
    player: Option<ContactDamageDef>,
    invulnerable: u32,
    /// The enemies' colliders are triggers (a hurting zone).
    trigger: bool,
    script: &'static str,
}

const fn hurts(amount: i32, to: u64, once: bool) -> Option<ContactDamageDef> {
    Some(ContactDamageDef { amount, to, once })
}

const PLAYER_TAG: u64 = 1;
const ENEMY_TAG: u64 = 2;

/// The player (id 1) has 10 health and touches enemy 2 (3 health) from the first tick to the
/// last; enemy 3 is far away. Ticks run, then every line printed.
type Case = (&'static str, Setup, u64, &'static [&'static str]);

const NONE: Setup = Setup {
    enemy: None,
    player: None,
    invulnerable: 0,
    trigger: false,
    script: "",
};

const CASES: &[Case] = &[
    (
        "every tick the contact lasts, from the tick it begins",
        Setup {
            enemy: hurts(1, PLAYER_TAG, false),
            ..NONE
        },
        3,
        &[
            "damage 1 1 1 9 2 false",
            "damage 2 1 1 8 2 false",
            "damage 3 1 1 7 2 false",
        ],
    ),
    (
        "once: only the tick it begins",
        Setup {
            enemy: hurts(2, PLAYER_TAG, true),
            ..NONE
        },
        3,
        &["damage 1 1 2 8 2 false"],
    ),
    (
        "the target's invulnerability spaces the hits",
        Setup {
            enemy: hurts(1, PLAYER_TAG, false),
            invulnerable: 2,
            ..NONE
        },
        6,
        &[
            "damage 1 1 1 9 2 false",
            "damage 3 1 1 8 2 false",
            "damage 5 1 1 7 2 false",
        ],
    ),
    (
        "the killing hit is the last; one death",
        Setup {
            enemy: hurts(4, PLAYER_TAG, false),
            ..NONE
        },
        5,
        &[
            "damage 1 1 4 6 2 false",
            "damage 2 1 4 2 2 false",
            "damage 3 1 4 -2 2 true",
            "death 3 1",
        ],
    ),
    (
        "each way when both hurt the other",
        Setup {
            enemy: hurts(1, PLAYER_TAG, false),
            player: hurts(1, ENEMY_TAG, false),
            ..NONE
        },
        2,
        &[
            "damage 1 2 1 2 1 false",
            "damage 1 1 1 9 2 false",
            "damage 2 2 1 1 1 false",
            "damage 2 1 1 8 2 false",
        ],
    ),
    (
        "a trigger hurts what stands in it",
        Setup {
            enemy: hurts(2, PLAYER_TAG, false),
            trigger: true,
            ..NONE
        },
        2,
        &["damage 1 1 2 8 2 false", "damage 2 1 2 6 2 false"],
    ),
    (
        "a tag it does not hurt",
        Setup {
            enemy: hurts(1, ENEMY_TAG, false),
            ..NONE
        },
        3,
        &[],
    ),
    (
        "before the damage scripts send in the same tick",
        Setup {
            enemy: hurts(1, PLAYER_TAG, true),
            script: "function on_tick() if ludus.tick() == 1 then ludus.damage(1, 3) end end",
            ..NONE
        },
        2,
        &["damage 1 1 1 9 2 false", "damage 1 1 3 6 nil false"],
    ),
    (
        "a target a script destroys takes the hit of that tick first, then no more",
        Setup {
            enemy: hurts(1, PLAYER_TAG, false),
            script: "function on_tick() if ludus.tick() == 2 then ludus.destroy(1) end end",
            ..NONE
        },
        3,
        &["damage 1 1 1 9 2 false", "damage 2 1 1 8 2 false"],
    ),
];

fn setup_def(s: &Setup) -> GameDef {
    let mut d = def();
    d.archetypes[PLAYER.0 as usize].contact_damage = s.player;
    d.archetypes[ENEMY.0 as usize].contact_damage = s.enemy;
    if let Some(h) = &mut d.archetypes[PLAYER.0 as usize].health {
        h.invulnerable_ticks = s.invulnerable;
    }
    if let Some(c) = &mut d.archetypes[ENEMY.0 as usize].collider {
        c.trigger = s.trigger;
    }
    d
}

#[test]
fn contact_damage_lands_as_declared() {
    for (what, setup, ticks, expected) in CASES {
        let script = format!("{LISTEN}\n{}", setup.script);
        let mut g = game_with(setup_def(setup), &[("scripts/main.lua", &script)], &[])
            .unwrap_or_else(|f| panic!("{what}: {f}"));
        run(&mut g, *ticks).unwrap_or_else(|f| panic!("{what}: {f}"));
        assert_eq!(said(&mut g), *expected, "{what}");
    }
}

#[test]
fn contact_damage_is_what_a_script_sending_it_does() {
    // The rule and the script a game would have written without it give the same world, tick
    // for tick.
    let script = r#"
        local function touch(events)
          for _, e in ipairs(events) do
            if e.a_kind == "player" then ludus.damage(e.a, 1, e.b)
            elseif e.b_kind == "player" then ludus.damage(e.b, 1, e.a) end
          end
        end
        on_collision_enter = touch
        on_collision_stay = touch
    "#;
    let mut by_script = def();
    by_script.archetypes[PLAYER.0 as usize]
        .collider
        .as_mut()
        .unwrap()
        .stay = true;
    by_script.archetypes[PLAYER.0 as usize]
        .health
        .as_mut()
        .unwrap()
        .invulnerable_ticks = 2;
    let mut declared = def();
    declared.archetypes[ENEMY.0 as usize].contact_damage = hurts(1, PLAYER_TAG, false);
    declared.archetypes[PLAYER.0 as usize]
        .health
        .as_mut()
        .unwrap()
        .invulnerable_ticks = 2;
    let mut a = game_with(by_script, &[("scripts/main.lua", script)], &[]).unwrap();
    let mut b = game_with(declared, &[("scripts/main.lua", LISTEN)], &[]).unwrap();
    for tick in 1..=12 {
        a.step(&TickInput::neutral()).unwrap();
        b.step(&TickInput::neutral()).unwrap();
        assert_eq!(
            StateHash::of(a.world()),
            StateHash::of(b.world()),
            "tick {tick}"
        );
    }
    let health = |g: &Game| {
        let e = g.world().entity(1)?;
        g.world().ecs().get::<&Health>(e).ok().map(|h| h.current)
    };
    assert_eq!(health(&b), Some(4), "six hits of twelve ticks");
    assert_eq!(health(&a), health(&b));
}

#[test]
fn hits_a_target_cannot_take_are_counted_as_blocked_or_after_death() {
    // Four enemies on the player, each hurting it every tick: per tick one hit lands while
    // it may be hurt and the others are blocked; once dead, every hit is counted after death.
    let mut d = setup_def(&Setup {
        enemy: hurts(3, PLAYER_TAG, false),
        invulnerable: 2,
        ..NONE
    });
    for (x, y) in [(0.0, 5.0), (-5.0, 0.0), (0.0, -5.0)] {
        d.levels[0].placements.push(Placement {
            archetype: ENEMY,
            pos: Vec2::new(x, y),
            overrides: Overrides::default(),
        });
    }
    let mut g = game_with(d, &[("scripts/main.lua", LISTEN)], &[]).unwrap();
    run(&mut g, 8).unwrap();
    assert_eq!(
        said(&mut g),
        [
            "damage 1 1 3 7 2 false",
            "damage 3 1 3 4 2 false",
            "damage 5 1 3 1 2 false",
            "damage 7 1 3 -2 2 true",
            "death 7 1",
        ]
    );
    let c = g.world().counters();
    // Ticks 1, 3 and 5: three blocked each; 2, 4 and 6: four; 7: three after the killing
    // hit, and 8: four, after death.
    assert_eq!((c.damage_blocked, c.after_death), (3 * 3 + 3 * 4, 3 + 4));
}

//! `ludus.set_look` and the look and size options of `ludus.spawn` from Lua: what reaches the
//! world, and each malformed call a fault naming its script line.

mod support;

use ludus_core::*;
use support::*;

/// The fault of a script whose `on_start` runs `src` on its second line.
fn fault_of(src: &str) -> Fault {
    let src = format!("function on_start()\n  {src}\nend");
    match game(&src) {
        Err(f) => f,
        Ok(mut g) => run(&mut g, 2).expect_err("expected a fault"),
    }
}

#[test]
fn malformed_looks_and_sizes_fault_at_their_line() {
    let cases = [
        (
            "ludus.set_look(2, 'red')",
            "a look must be a table (e.g. { alpha = 0.5 }), got string",
        ),
        (
            "ludus.set_look(2, { colour = 'red' })",
            "unknown look key `colour` (did you mean `color`?)",
        ),
        (
            "ludus.set_look(2, { flipy = true })",
            "unknown look key `flipy` (did you mean `flip_y`?)",
        ),
        (
            "ludus.set_look(2, { [1] = 2 })",
            "look keys are names, got integer",
        ),
        (
            "ludus.set_look(2, { scale = 0 })",
            "a scale must be above 0 and at most 10000, got (0, 0)",
        ),
        (
            "ludus.set_look(2, { scale = { 1 } })",
            "scale must be a number or an array of two numbers {x, y}",
        ),
        (
            "ludus.set_look(2, { scale = { 1, 2, 3 } })",
            "scale must be a number or an array of two numbers {x, y}",
        ),
        (
            "ludus.set_look(2, { scale = 'big' })",
            "scale must be a number or {x, y}, got string",
        ),
        (
            "ludus.set_look(2, { scale = { 2, -1 } })",
            "a scale must be above 0 and at most 10000, got (2, -1)",
        ),
        (
            "ludus.set_look(2, { alpha = 2 })",
            "an alpha must be from 0 to 1, got 2",
        ),
        (
            "ludus.set_look(2, { alpha = 0/0 })",
            "alpha must be a finite number, got NaN",
        ),
        (
            "ludus.set_look(2, { visible = 1 })",
            "visible must be true or false, got integer",
        ),
        (
            "ludus.set_look(2, { flip_x = 'yes' })",
            "flip_x must be true or false, got string",
        ),
        (
            "ludus.set_look(2, { layer = 1.5 })",
            "layer must be a whole number, got 1.5",
        ),
        (
            "ludus.set_look(2, { layer = 40000 })",
            "layer must be a whole number from -32768 to 32767, got 40000",
        ),
        (
            "ludus.set_look(2, { color = 'reddish' })",
            "color `reddish` is not #rgb, #rrggbb, #rrggbbaa or a colour name",
        ),
        (
            "ludus.spawn('enemy', 0, 0, { size = 0 })",
            "a size must be above 0 and at most 1000000, got (0, 0)",
        ),
        (
            "ludus.spawn('enemy', 0, 0, { size = { 4 } })",
            "size must be a number or an array of two numbers {w, h}",
        ),
        (
            "ludus.spawn('enemy', 0, 0, { scale = -2 })",
            "a scale must be above 0 and at most 10000, got (-2, -2)",
        ),
        (
            "ludus.spawn('enemy', 0, 0, { angle = 'up' })",
            "angle must be a number, got string",
        ),
        (
            "ludus.spawn('enemy', 0, 0, { sise = 3 })",
            "unknown spawn option `sise` (did you mean `size`?)",
        ),
    ];
    for (src, message) in cases {
        let f = fault_of(src);
        assert_eq!(
            (f.location.as_deref(), f.message.as_str()),
            (
                Some("scripts/main.lua:2"),
                format!("ludus.{}: {message}", &src[6..src.find('(').unwrap()]).as_str()
            ),
            "{src}"
        );
    }
}

/// The look of entity `seq`, if it has one.
fn look_of(g: &Game, seq: u64) -> Option<Look> {
    let e = g.world().entity(seq)?;
    g.world().ecs().get::<&Look>(e).ok().map(|l| *l)
}

#[test]
fn set_look_keeps_what_it_is_not_told() {
    let mut g = game(
        r##"
        function on_tick()
          local t = ludus.tick()
          if t == 1 then
            ludus.set_look(2, { scale = { 2, 0.5 }, color = "#ff000080", alpha = 0.25, layer = -3 })
          elseif t == 2 then
            ludus.set_look(2, { visible = false, flip_x = true, flip_y = false, scale = 3 })
          end
        end
        "##,
    )
    .unwrap();
    run(&mut g, 1).unwrap();
    let first = Look {
        scale: Some(Vec2::new(2.0, 0.5)),
        color: Some(Color::rgba(255, 0, 0, 128)),
        alpha: Some(0.25),
        layer: Some(-3),
        ..Look::default()
    };
    assert_eq!((look_of(&g, 2), look_of(&g, 3)), (Some(first), None));
    run(&mut g, 1).unwrap();
    let second = Look {
        scale: Some(Vec2::new(3.0, 3.0)),
        visible: Some(false),
        flip_x: Some(true),
        flip_y: Some(false),
        ..first
    };
    assert_eq!(look_of(&g, 2), Some(second));
}

#[test]
fn spawn_options_size_scale_and_angle_reach_the_entity() {
    // A scale needs something to draw: the enemy gets a sprite.
    let mut d = def();
    d.archetypes[1].sprite = Some(SpriteDef {
        shape: SpriteShape::Circle,
        size: Vec2::new(4.0, 4.0),
        color: Color::WHITE,
        layer: 0,
        depth: 0.0,
        frame: 0,
        flip_x: false,
        flip_y: false,
        alpha: 1.0,
    });
    let src = r#"
        function on_start()
          ludus.spawn("enemy", 0, 0, { size = { 10, 30 } })
          ludus.spawn("enemy", 0, 0, { size = 6, scale = { 2, 3 }, angle = 1 })
        end
        "#;
    let mut g = game_with(d, &[("scripts/main.lua", src)], &[]).unwrap();
    run(&mut g, 1).unwrap();
    let made = |seq: u64| {
        let e = g.world().entity(seq).unwrap();
        let ecs = g.world().ecs();
        let shape = g.collider(seq).unwrap().shape();
        let angle = ecs.get::<&Rotation>(e).ok().map(|r| r.angle);
        (shape, angle, ecs.get::<&Look>(e).ok().map(|l| *l))
    };
    let scaled = Look {
        scale: Some(Vec2::new(2.0, 3.0)),
        ..Look::default()
    };
    // The enemy's collider is a circle: its radius becomes half the larger side.
    assert_eq!(
        (made(4), made(5)),
        (
            (Shape::Circle { radius: 15.0 }, None, None),
            (Shape::Circle { radius: 3.0 }, Some(1.0), Some(scaled))
        )
    );
}

/// A tick's spawns are stored in batches of one archetype and shape; a batch of spawns that
/// each have options, with no spawn of the archetype without them that tick, is built as the
/// others are (it once ended the process with an internal error).
#[test]
fn many_spawns_each_with_options_in_one_tick_are_all_built() {
    let src = r#"
        function on_start()
          for i = 1, 40 do
            ludus.spawn("enemy", i * 20, 0, { vx = i, vy = 0 })
          end
        end
        "#;
    let mut g = game_with(def(), &[("scripts/main.lua", src)], &[]).unwrap();
    let before = g.world().entity_count();
    run(&mut g, 1).unwrap();
    assert_eq!(g.world().entity_count(), before + 40);
    // The level's entities hold the first sequences, the spawns the next.
    let first = before as u64 + 1;
    for k in 0..40u64 {
        let e = g.world().entity(first + k).unwrap();
        let v = g.world().ecs().get::<&Velocity>(e).unwrap().0;
        assert_eq!(v, Vec2::new((k + 1) as f32, 0.0), "spawn {k}");
    }
}

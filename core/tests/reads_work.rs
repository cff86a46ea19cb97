//! What the collection reads (`find`, `count`, `nearest`, `within`) answer and the work each
//! is charged, against a scan of every entity, through random ticks of spawns, destroys and
//! reads in both stages. The work is charged to the scripts' budget, so it is part of how a
//! game plays: the first spatial read of a tick is charged one unit an entity, the first
//! `find` or `count` of a tag set in a tick one an entity, later ones the entities carrying it,
//! whichever read came first and whether or not it built the grid.

mod support;

use ludus_core::*;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;
use support::*;

/// Tags of the test's archetypes: red, blue, green and gold, as bits (gold is rare).
const KINDS: [u64; 6] = [0b001, 0b011, 0b010, 0b100, 0, 0b1000];
const GOLD: u16 = 5;
/// The tag sets the reads ask for (0: any entity).
const ASKED: [u64; 8] = [0, 0b001, 0b010, 0b011, 0b100, 0b101, 0b111, 0b1000];

fn def() -> GameDef {
    let archetypes = (KINDS.iter().enumerate())
        .map(|(i, &tags)| ArchetypeDef {
            name: format!("kind{i}"),
            sprite: Some(sprite(4.0, 0)),
            tags,
            // Green entities in an archetype of their own (more components), the rest in one.
            lifetime: (i == 3).then_some(1_000),
            ..ArchetypeDef::default()
        })
        .collect();
    let mut def = GameDef {
        name: "reads".into(),
        tags: vec!["red".into(), "blue".into(), "green".into(), "gold".into()],
        archetypes,
        levels: vec![LevelDef::default()],
        ..GameDef::default()
    };
    let mut rng = fastrand::Rng::with_seed(5);
    for _ in 0..300 {
        let (x, y) = (rng.f32() * 800.0 - 400.0, rng.f32() * 600.0 - 300.0);
        place(&mut def, ArchetypeId(rng.u16(..5)), x, y);
    }
    for i in 0..40 {
        place(&mut def, ArchetypeId(GOLD), i as f32 * 10.0, 0.0);
    }
    def
}

/// What the reads of one tick have been charged for so far: whether any read was, and each
/// tag set asked with how many entities carried it.
#[derive(Default)]
struct Charged {
    any: bool,
    asked: BTreeMap<u64, u64>,
}

/// Every entity the reads hold as the stage began (destroyed this tick or not): its id,
/// position and tags, in creation order.
fn scan(g: &Gameplay<'_>) -> Vec<(u64, Vec2, u64)> {
    (1..2_000)
        .filter_map(|s| Some((s, g.pos(s)?, g.tags(s)?)))
        .collect()
}

/// One stage's random mix of spawns, destroys and reads, each read checked against `scan`;
/// how many reads it checked.
fn stage(g: &mut Gameplay<'_>, rng: &mut fastrand::Rng, charged: &mut Charged) -> usize {
    let all = scan(g);
    let n = all.len() as u64;
    let mut reads = 0;
    for _ in 0..rng.usize(0..12) {
        let tags = ASKED[rng.usize(..ASKED.len())];
        let carrying = all.iter().filter(|e| e.2 & tags == tags).count() as u64;
        let alive: Vec<&(u64, Vec2, u64)> = (all.iter())
            .filter(|e| e.2 & tags == tags && g.alive(e.0))
            .collect();
        // What the tick's first read is charged for every entity (0 for a later one).
        let charge = |c: &mut Charged| {
            if std::mem::replace(&mut c.any, true) {
                0
            } else {
                n
            }
        };
        match rng.usize(..6) {
            0 => {
                // A few at a time, gold ones among them: more destroys than entities carrying
                // a tag set, and fewer.
                for _ in 0..rng.usize(1..6) {
                    let gold: Vec<&(u64, Vec2, u64)> =
                        all.iter().filter(|e| e.2 == 0b1000).collect();
                    let e = match rng.bool() {
                        true => gold.get(rng.usize(..gold.len().max(1))).copied(),
                        false => all.get(rng.usize(..all.len().max(1))),
                    };
                    if let Some(e) = e {
                        g.send(Command::Destroy(e.0)).unwrap();
                    }
                }
                continue;
            }
            1 => {
                let archetype = ArchetypeId(rng.u16(..6));
                let pos = Vec2::new(rng.f32() * 100.0, rng.f32() * 100.0);
                let overrides = Default::default();
                g.send(Command::Spawn {
                    archetype,
                    pos,
                    overrides,
                })
                .unwrap();
                continue;
            }
            2 | 3 => {
                let work = charge(charged)
                    + match charged.asked.insert(tags, carrying) {
                        Some(_) => carrying,
                        None => n,
                    };
                if rng.bool() {
                    let found = g.find(tags);
                    let want: Vec<u64> = alive.iter().map(|e| e.0).collect();
                    assert_eq!(found, want, "find {tags:b}");
                } else {
                    assert_eq!(g.count(tags), alive.len(), "count {tags:b}");
                }
                assert_eq!(g.take_work(), work, "the work of a collection of {tags:b}");
            }
            k => {
                let first = charge(charged);
                let at = Vec2::new(rng.f32() * 900.0 - 450.0, rng.f32() * 700.0 - 350.0);
                let d2 = |e: &&&(u64, Vec2, u64)| (e.1 - at).length_squared();
                let (found, again, want) = if k == 4 {
                    let nearest = alive
                        .iter()
                        .min_by(|a, b| d2(a).total_cmp(&d2(b)).then(a.0.cmp(&b.0)))
                        .map(|e| e.0);
                    let got = g.nearest(at, None, tags);
                    let work = g.take_work();
                    assert_eq!(g.nearest(at, None, tags), got);
                    (
                        got.into_iter().collect(),
                        work,
                        nearest.into_iter().collect(),
                    )
                } else {
                    let r = rng.f32() * 200.0;
                    let mut near: Vec<&&(u64, Vec2, u64)> =
                        alive.iter().filter(|e| d2(e) <= r * r).collect();
                    near.sort_by(|a, b| d2(a).total_cmp(&d2(b)).then(a.0.cmp(&b.0)));
                    let got = g.within(at, r, tags);
                    let work = g.take_work();
                    assert_eq!(g.within(at, r, tags), got);
                    (got, work, near.iter().map(|e| e.0).collect::<Vec<u64>>())
                };
                assert_eq!(found, want, "search {k} of {tags:b} at {at:?}");
                // Asked again, only the search itself is charged.
                assert_eq!(again - first, g.take_work(), "search {k} of {tags:b}");
            }
        }
        reads += 1;
    }
    reads
}

#[test]
fn collections_answer_and_are_charged_as_a_scan_says() {
    let rng = Rc::new(RefCell::new(fastrand::Rng::with_seed(17)));
    let reads = Rc::new(RefCell::new(0usize));
    let charged = Rc::new(RefCell::new(Charged::default()));
    let (r, n, c) = (rng.clone(), reads.clone(), charged.clone());
    let mut g = game(
        def(),
        rules(move |s, g| {
            if s == Stage::One {
                *c.borrow_mut() = Charged::default();
            }
            *n.borrow_mut() += stage(g, &mut r.borrow_mut(), &mut c.borrow_mut());
            Ok(())
        }),
    );
    run(&mut g, 120);
    assert!(*reads.borrow() > 500, "{} reads checked", reads.borrow());
}

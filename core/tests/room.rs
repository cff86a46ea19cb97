//! A level's build leaves room for spawns past it: the first entities spawned after building
//! a large level (of another archetype than its crowd's) take far less than a doubling of
//! hecs's records of entities (12 bytes an entity), which a build that filled them exactly
//! would cost.
//!
//! The heap is counted by this test binary's allocator; the test is alone in its binary, so
//! no other test allocates while it counts.

mod support;

use ludus_core::*;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicIsize, Ordering};
use support::*;

/// The system allocator, counting live bytes.
struct Counting;

static LIVE: AtomicIsize = AtomicIsize::new(0);

// SAFETY: every call is the system allocator's, with the same arguments.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size() as isize, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size() as isize, Ordering::Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LIVE.fetch_add(
            new_size as isize - layout.size() as isize,
            Ordering::Relaxed,
        );
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

fn live() -> isize {
    LIVE.load(Ordering::Relaxed)
}

/// The fixture's level with `n` pickups (a trigger collider each, no motion) more.
fn level(n: usize) -> GameDef {
    let mut def = game_def();
    for k in 0..n {
        place(&mut def, PICKUP, (k % 512) as f32, (k / 512) as f32);
    }
    def
}

#[test]
fn spawns_past_a_large_build_take_the_room_it_left() {
    let n = 1 << 16;
    let spawns = 64;
    let mut g = game(
        level(n),
        rules(move |stage, g| {
            if stage == Stage::One && g.tick() == 3 {
                for k in 0..spawns {
                    let sent = g.send(Command::Spawn {
                        archetype: BULLET,
                        pos: Vec2::new(k as f32, -10.0),
                        overrides: Default::default(),
                    });
                    assert!(sent.is_ok(), "a spawn is sent");
                }
            }
            Ok(())
        }),
    );
    g.options_mut().hash = false;
    run(&mut g, 2);
    let built = g.world().entity_count();
    assert!(built >= n, "the level is built");
    let before = live();
    run(&mut g, 2);
    let grown = live() - before;
    assert_eq!(g.world().entity_count(), built + spawns);
    // A pickup's own columns, its index entry and the tick's buffers: a few hundred bytes
    // each, far below a doubling of every entity's 12-byte record.
    let doubling = 12 * n as isize;
    assert!(
        grown < doubling / 4,
        "{spawns} spawns past a build of {n} grew the heap by {grown} bytes"
    );
}

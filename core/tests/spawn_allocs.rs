//! A plain spawn allocates nothing of its own: ten thousand spawn commands without overrides,
//! sent in one tick, allocate a few dozen times (the tick's queues and hecs's columns growing),
//! not once each.
//!
//! Allocations are counted by this test binary's allocator; the test is alone in its binary,
//! so no other test allocates while it counts.

mod support;

use ludus_core::*;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use support::*;

/// The system allocator, counting fresh allocations (not a buffer's growth).
struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is the system allocator's, with the same arguments.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

#[test]
fn plain_spawn_commands_allocate_nothing_each() {
    const N: u64 = 10_000;
    let spawn_tick = 2;
    let mut g = game(
        game_def(),
        rules(move |stage, g| {
            if stage == Stage::One && g.tick() == spawn_tick {
                for k in 0..N {
                    let pos = Vec2::new((k % 100) as f32 * 2.0, (k / 100) as f32 * 2.0);
                    g.send(Command::Spawn {
                        archetype: PICKUP,
                        pos,
                        overrides: Overrides::default().into(),
                    })
                    .map_err(CommandError::into_fault)?;
                }
            }
            Ok(())
        }),
    );
    g.options_mut().check_invariants = false;
    g.options_mut().hash = false;
    run(&mut g, spawn_tick - 1);
    let (entities, before) = (
        g.world().entity_count(),
        ALLOCATIONS.load(Ordering::Relaxed),
    );
    run(&mut g, 1);
    let allocations = ALLOCATIONS.load(Ordering::Relaxed) - before;
    assert_eq!(g.world().entity_count(), entities + N as usize);
    assert!(
        allocations < (N / 20) as usize,
        "{allocations} allocations for {N} plain spawns"
    );
}

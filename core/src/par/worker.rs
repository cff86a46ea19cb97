//! The thread behind [`join`](super::join): one worker, started on first use and kept for the
//! life of the process, that runs the second half of a join while the caller runs the first.
//! Starting a thread per join cost tens of microseconds, more than a 32k-row pass saves.
//!
//! The protocol, which the `unsafe` below relies on:
//! - One join at a time owns the worker: it sets `claimed` first. A join that finds it set
//!   (another thread's, or one inside a half) runs both halves itself.
//! - The owner writes `job`, then publishes it with `state = POSTED` (release).
//! - The worker takes a posted job by `POSTED -> TAKEN` (acquire); the owner, its own half done,
//!   takes it back by `POSTED -> IDLE` if the worker has not. Exactly one of them runs it.
//! - The worker writes the half's result into the owner's [`Slot`], then `state = DONE`. The
//!   owner returns only after it has seen `DONE` or taken the job back, so the slot, on the
//!   owner's stack, outlives every use of it.
//! - An owner that waits past [`SPIN`] sleeps, first registering itself (`sleeper`, then
//!   `sleeping`, then a last look at `state`); the worker, after `DONE`, wakes the owner it
//!   finds registered. Both orders are sequentially consistent, so one of the two sees the
//!   other: no wake is lost, and one meant for an earlier owner is only spurious. A join whose
//!   owner waits busy (each of a tick's) touches no line of the owner's thread: each line that
//!   crosses between the cores is a few hundred cycles of the join's latency.

use std::cell::UnsafeCell;
use std::hint::spin_loop;
use std::panic::{self, AssertUnwindSafe};
use std::sync::Mutex;
use std::sync::OnceLock;
use std::sync::atomic::AtomicBool;
use std::sync::atomic::AtomicU8;
use std::sync::atomic::Ordering::{Acquire, Relaxed, Release, SeqCst};
use std::thread::{self, Thread};
use std::time::{Duration, Instant};

const IDLE: u8 = 0;
const POSTED: u8 = 1;
const TAKEN: u8 = 2;
const DONE: u8 = 3;

/// How long a waiting thread stays busy before it sleeps: a tick's joins come tens to hundreds
/// of microseconds apart, and waking a sleeping thread takes tens of microseconds, more than a
/// 16k-row half saves.
const SPIN: Duration = Duration::from_millis(1);

/// A posted half: its slot on the owner's stack and the function that runs it.
#[derive(Clone, Copy)]
struct Job {
    slot: *const (),
    run: unsafe fn(*const ()),
}

/// What the owner and the worker share.
struct Shared {
    claimed: AtomicBool,
    state: AtomicU8,
    job: UnsafeCell<Job>,
    /// Set by an owner about to sleep while it waits for `DONE` (see [`wait_done`]).
    sleeping: AtomicBool,
    /// That owner, for the worker to wake: taken only where `sleeping` is set, so a join whose
    /// owner waits busy (every join of a tick) touches no line of the owner's thread.
    sleeper: Mutex<Option<Thread>>,
}

// SAFETY: `job` is written only by the owner before it posts, and read only by
// the worker after it has taken the posted job (the protocol above).
unsafe impl Sync for Shared {}

struct Worker {
    shared: &'static Shared,
    thread: Thread,
}

/// A half's function and, once run, its result: on cache lines of its own, which the owner's
/// stack around it (busy with the owner's half meanwhile) shares with nothing.
#[repr(align(128))]
struct Slot<F, R> {
    out: UnsafeCell<Option<thread::Result<R>>>,
    f: UnsafeCell<Option<F>>,
}

/// Runs the function in `slot`, keeping its result or panic there.
///
/// # Safety
/// `slot` points to a live `Slot<F, R>` that no one else reads or writes meanwhile.
unsafe fn run<F: FnOnce() -> R, R>(slot: *const ()) {
    // SAFETY: as the caller promises.
    let slot = unsafe { &*(slot as *const Slot<F, R>) };
    // Written before it is read: the worker takes the slot's first line from the owner's core
    // for writing at once, not for reading and then again for writing.
    // SAFETY: as the caller promises, this is the only access.
    unsafe { std::ptr::write_volatile(slot.out.get(), None) };
    // SAFETY: as above.
    if let Some(f) = unsafe { (*slot.f.get()).take() } {
        let out = panic::catch_unwind(AssertUnwindSafe(f));
        // SAFETY: as above.
        unsafe { *slot.out.get() = Some(out) };
    }
}

/// Does nothing (the job before the first is posted).
unsafe fn nothing(_: *const ()) {}

/// The worker, once started (`None` inside where the system refused a thread).
static WORKER: OnceLock<Option<Worker>> = OnceLock::new();

/// The worker, started on the first call; `None` where the system refuses a thread.
fn worker() -> Option<&'static Worker> {
    WORKER
        .get_or_init(|| {
            let shared: &'static Shared = Box::leak(Box::new(Shared {
                claimed: AtomicBool::new(false),
                state: AtomicU8::new(IDLE),
                job: UnsafeCell::new(Job {
                    slot: std::ptr::null(),
                    run: nothing,
                }),
                sleeping: AtomicBool::new(false),
                sleeper: Mutex::new(None),
            }));
            let handle = thread::Builder::new()
                .name("ludus-worker".into())
                .spawn(move || serve(shared))
                .ok()?;
            Some(Worker {
                shared,
                thread: handle.thread().clone(),
            })
        })
        .as_ref()
}

/// Whether the worker waits busy for the next join ([`SPIN`]) or sleeps at once (see
/// [`spin`]).
static SPINS: AtomicBool = AtomicBool::new(true);

/// Whether the worker, between joins, waits busy (a tick that splits its passes: waking a
/// sleeping thread costs more than a pass saves) or sleeps (a tick on one thread: on a core
/// shared with this thread's, a busy wait slows it). Turned on, a sleeping worker is woken,
/// so it waits busy by the time the tick's first join comes (one not yet started stays so: a
/// game whose passes never split never starts it).
pub(super) fn spin(on: bool) {
    if SPINS.swap(on, Relaxed) != on
        && on
        && let Some(Some(w)) = WORKER.get()
    {
        w.thread.unpark();
    }
}

/// Waits until `done`: busy for [`SPIN`] while `busy` says so, then by `sleep` (asleep until
/// unparked), and busy again for as long after each wake.
fn wait(done: impl Fn() -> bool, busy: impl Fn() -> bool, sleep: impl Fn()) {
    let (mut spins, mut until) = (0u32, None);
    while !done() {
        spins = spins.wrapping_add(1);
        // The clock is read once every 128 rounds.
        if spins % 128 != 0
            || (busy() && Instant::now() < *until.get_or_insert_with(|| Instant::now() + SPIN))
        {
            spin_loop();
        } else {
            sleep();
            until = None;
        }
    }
}

/// The owner's wait for its job's `DONE` (see [`wait`]): before it sleeps, it registers
/// itself for the worker to wake. A wake meant for an earlier owner is a spurious one, which
/// the loop absorbs.
fn wait_done(s: &Shared) {
    let done = || s.state.load(Acquire) == DONE;
    wait(
        done,
        || true,
        || {
            if let Ok(mut sleeper) = s.sleeper.lock() {
                *sleeper = Some(thread::current());
            }
            s.sleeping.store(true, SeqCst);
            if s.state.load(SeqCst) != DONE {
                thread::park();
            }
            s.sleeping.store(false, Relaxed);
        },
    );
}

/// The worker's loop: take each posted job, run it, wake its owner.
fn serve(s: &'static Shared) {
    loop {
        let posted = || s.state.load(Acquire) == POSTED;
        wait(posted, || SPINS.load(Relaxed), thread::park);
        if s.state
            .compare_exchange(POSTED, TAKEN, Acquire, Relaxed)
            .is_err()
        {
            continue; // taken back by its owner
        }
        // SAFETY: the job is taken, so the owner has written both and waits for DONE.
        let job = unsafe { *s.job.get() };
        // SAFETY: the owner's slot lives until it sees DONE, and only this thread uses it.
        unsafe { (job.run)(job.slot) };
        // Sequentially consistent with the owner's `sleeping` then `state` (see `wait_done`):
        // either it sees DONE before it sleeps, or this sees it asleep and wakes it.
        s.state.store(DONE, SeqCst);
        if s.sleeping.load(SeqCst)
            && let Some(owner) = s.sleeper.lock().ok().and_then(|o| o.clone())
        {
            owner.unpark();
        }
    }
}

/// See [`super::join`].
pub(super) fn join<A, B, FA, FB>(a: FA, b: FB) -> (A, B)
where
    A: Send,
    B: Send,
    FA: FnOnce() -> A + Send,
    FB: FnOnce() -> B + Send,
{
    let Some(w) = worker() else {
        return (a(), b());
    };
    let s = w.shared;
    if s.claimed.swap(true, Acquire) {
        return (a(), b());
    }
    let slot = Slot {
        f: UnsafeCell::new(Some(b)),
        out: UnsafeCell::new(None),
    };
    let at = &slot as *const Slot<FB, B> as *const ();
    // SAFETY: this join owns the worker and has not posted, so the worker does not read these.
    unsafe {
        *s.job.get() = Job {
            slot: at,
            run: run::<FB, B>,
        };
    }
    s.state.store(POSTED, Release);
    w.thread.unpark();
    let first = panic::catch_unwind(AssertUnwindSafe(a));
    if s.state
        .compare_exchange(POSTED, IDLE, Acquire, Acquire)
        .is_ok()
    {
        // Taken back before the worker took it: run it here (unless `a` panicked).
        if first.is_ok() {
            // SAFETY: the slot is live and, not taken, only this thread uses it.
            unsafe { run::<FB, B>(at) };
        }
    } else {
        wait_done(s);
        s.state.store(IDLE, Relaxed);
    }
    s.claimed.store(false, Release);
    let first = first.unwrap_or_else(|p| panic::resume_unwind(p));
    match slot.out.into_inner() {
        Some(Ok(second)) => (first, second),
        Some(Err(p)) => panic::resume_unwind(p),
        None => unreachable!("the second half ran, on one thread or the other"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    #[test]
    fn halves_write_their_own_rows_and_results_come_back_in_order() {
        let mut rows = vec![0u64; 10_000];
        for round in 0..200u64 {
            let (lo, hi) = rows.split_at_mut(4_000);
            let (x, y) = join(
                || {
                    lo.iter_mut().for_each(|r| *r += round);
                    lo.len()
                },
                || {
                    hi.iter_mut().for_each(|r| *r += 2 * round);
                    hi.len() as u64 * 10
                },
            );
            assert_eq!((x, y), (4_000, 60_000));
        }
        let sum: u64 = (0..200).sum();
        assert!(rows[..4_000].iter().all(|&r| r == sum));
        assert!(rows[4_000..].iter().all(|&r| r == 2 * sum));
    }

    #[test]
    fn the_second_half_runs_while_the_first_does() {
        // The worker may be owned by another test's join (then both halves run here): retry.
        let overlapped = (0..20).any(|_| {
            let started = AtomicBool::new(false);
            let (seen, _) = join(
                || {
                    let deadline = Instant::now() + Duration::from_millis(500);
                    while !started.load(Acquire) && Instant::now() < deadline {
                        std::hint::spin_loop();
                    }
                    started.load(Acquire)
                },
                || started.store(true, Release),
            );
            seen
        });
        assert!(overlapped, "the second half never ran beside the first");
    }

    #[test]
    fn a_panic_in_either_half_reaches_the_caller_and_the_worker_serves_on() {
        for panics_first in [false, true, false] {
            let got = panic::catch_unwind(|| {
                join(
                    || {
                        if panics_first {
                            panic!("first")
                        }
                        1
                    },
                    || -> i32 {
                        if !panics_first {
                            panic!("second")
                        }
                        2
                    },
                )
            });
            let message = got.unwrap_err();
            let want = if panics_first { "first" } else { "second" };
            assert_eq!(message.downcast_ref::<&str>(), Some(&want));
        }
        assert_eq!(join(|| 3, || 4), (3, 4));
    }

    #[test]
    fn an_owner_asleep_past_its_spin_is_woken_when_the_worker_is_done() {
        // The worker's half outlasts the owner's busy wait ([`SPIN`]), so the owner sleeps and
        // only the worker's wake ends its wait; again and again, so a wake left over from one
        // join is a spurious one in the next. Retried where another test's join owned the
        // worker (both halves then ran here). On a thread of its own, watched: a wake lost
        // fails the test instead of hanging it.
        let (tx, rx) = std::sync::mpsc::channel();
        thread::spawn(move || {
            let mut slept = 0;
            for round in 0..40u64 {
                let (here, started) = (thread::current().id(), AtomicBool::new(false));
                let (a, (b, there)) = join(
                    || {
                        // Until the worker has taken the half (not taken back and run here).
                        let deadline = Instant::now() + Duration::from_millis(500);
                        while !started.load(Acquire) && Instant::now() < deadline {
                            spin_loop();
                        }
                        round
                    },
                    || {
                        started.store(true, Release);
                        thread::sleep(SPIN * 3);
                        (round * 2, thread::current().id())
                    },
                );
                assert_eq!((a, b), (round, round * 2));
                slept += usize::from(there != here);
                if slept == 4 {
                    break;
                }
            }
            let _ = tx.send(slept);
        });
        let slept = rx.recv_timeout(Duration::from_secs(20));
        assert_eq!(
            slept,
            Ok(4),
            "the owner was never woken, or the worker never ran a half that outlasted the spin"
        );
    }

    #[test]
    fn joins_inside_halves_and_from_many_threads_all_complete() {
        let total = AtomicUsize::new(0);
        thread::scope(|scope| {
            for _ in 0..4 {
                scope.spawn(|| {
                    for _ in 0..100 {
                        let ((a, b), (c, d)) = join(|| join(|| 1, || 2), || join(|| 3, || 4));
                        total.fetch_add(a + b + c + d, Relaxed);
                    }
                });
            }
        });
        assert_eq!(total.load(Relaxed), 4 * 100 * 10);
    }
}

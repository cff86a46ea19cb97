//! Two things at once where the platform has threads: the one place the tick's passes (and the
//! presentation's extraction and batching) split work across cores. Results are joined in a
//! fixed order by the caller, so a split pass gives exactly what the serial one does.

mod choice;
#[cfg(not(target_arch = "wasm32"))]
mod worker;

pub use choice::{Threads, TickWay};

/// A value alone on its cache lines (two of 64 bytes: neighbouring lines are fetched in pairs),
/// for what one part of a split pass writes often (a count, a list's length) while the other
/// part writes its own: side by side, each write would take the line from the other core.
#[repr(align(128))]
pub struct Apart<T>(pub T);

/// Rows of one archetype from which a pass splits them between two threads (below, handing
/// half to the other core costs more than it saves).
pub const SPLIT_MIN: usize = 8_192;

/// Whether this machine can run two passes at once.
pub fn available() -> bool {
    #[cfg(not(target_arch = "wasm32"))]
    {
        static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
        *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get())) > 1
    }
    #[cfg(target_arch = "wasm32")]
    {
        false
    }
}

/// Asks the machine, once a process, what ticks ask of it later: its cores ([`available`]: on
/// Linux a read of the process's cgroup files) and its CPU's instructions (the `CPUID`
/// instruction, which in a virtual machine its host answers). A game asks as it starts
/// ([`crate::Game::new`]), so its first tick does not: asked there, they took about 0.1 ms
/// each on a 2-core virtual machine, a third of a 1,000-drone game's first tick.
pub fn prepare() {
    available();
    #[cfg(target_arch = "x86_64")]
    std::hint::black_box(std::arch::is_x86_feature_detected!("avx2"));
}

/// Runs `a` and `b` and returns both results: `b` on the process's one worker thread where the
/// platform has threads and the worker is free (it is started on first use and kept), else
/// after `a` on this thread. A panic in either is resumed here after both have finished.
pub fn join<A: Send, B: Send>(
    a: impl FnOnce() -> A + Send,
    b: impl FnOnce() -> B + Send,
) -> (A, B) {
    #[cfg(not(target_arch = "wasm32"))]
    {
        worker::join(a, b)
    }
    #[cfg(target_arch = "wasm32")]
    {
        (a(), b())
    }
}

/// Where a pass splits its rows between this thread and the worker: this thread's share,
/// learned from how long each part took a row ([`join_balanced`]). The two cores need not run
/// a part at one speed: one may be busier, slower or shared (a virtual machine's cores often
/// are), and a part the other core waits for is lost time. Only where the rows split moves;
/// every pass gives the same results at any split.
///
/// Invariant: the share is within `0.2..=0.8`.
#[derive(Clone, Copy, Debug)]
pub struct Balance {
    share: f64,
}

impl Default for Balance {
    fn default() -> Self {
        Balance { share: 0.5 }
    }
}

impl Balance {
    /// A balance at `share` (tests: a split anywhere).
    #[cfg(test)]
    pub(crate) fn at(share: f64) -> Balance {
        Balance { share }
    }

    /// The row at which `n` rows (two or more) split: this thread takes `..mid`.
    pub fn mid(&self, n: usize) -> usize {
        ((n as f64 * self.share) as usize).clamp(1, n.max(2) - 1)
    }

    /// Moves the share an eighth of the way to where parts of `rows` rows that took `nanos`
    /// would have taken equally long, at the rates they ran.
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))] // the browser has no second thread
    fn learn(&mut self, rows: (usize, usize), nanos: (u128, u128)) {
        if rows.0 == 0 || rows.1 == 0 || nanos.0 == 0 || nanos.1 == 0 {
            return;
        }
        let rate = |rows: usize, nanos: u128| nanos as f64 / rows as f64;
        let (a, b) = (rate(rows.0, nanos.0), rate(rows.1, nanos.1));
        let even = b / (a + b);
        self.share = (self.share + (even - self.share) / 8.0).clamp(0.2, 0.8);
    }
}

/// [`join`] of the two parts of a pass's rows, `a` of `rows.0` rows on this thread and `b` of
/// `rows.1` on the worker, moving `balance` toward the split at which both take as long.
pub fn join_balanced<A: Send, B: Send>(
    balance: &mut Balance,
    rows: (usize, usize),
    a: impl FnOnce() -> A + Send,
    b: impl FnOnce() -> B + Send,
) -> (A, B) {
    #[cfg(not(target_arch = "wasm32"))]
    {
        fn timed<R>(f: impl FnOnce() -> R) -> (R, u128) {
            let clock = Stopwatch::start();
            let r = f();
            (r, u128::from(clock.nanos()))
        }
        let ((ra, ta), (rb, tb)) = worker::join(|| timed(a), || timed(b));
        balance.learn(rows, (ta, tb));
        (ra, rb)
    }
    #[cfg(target_arch = "wasm32")]
    {
        let _ = (balance, rows);
        (a(), b())
    }
}

/// Whether the worker waits busy between joins (a tick that splits) or sleeps (one that does
/// not): see [`Threads`].
pub fn spin(on: bool) {
    #[cfg(not(target_arch = "wasm32"))]
    worker::spin(on);
    #[cfg(target_arch = "wasm32")]
    let _ = on;
}

/// Wall time from its start, where the platform has threads (and a split to choose): what
/// [`Threads`] learns from.
pub struct Stopwatch {
    #[cfg(not(target_arch = "wasm32"))]
    start: std::time::Instant,
}

impl Stopwatch {
    pub fn start() -> Stopwatch {
        Stopwatch {
            #[cfg(not(target_arch = "wasm32"))]
            start: std::time::Instant::now(),
        }
    }

    /// Nanoseconds since the start (0 where the platform has no second thread).
    pub fn nanos(&self) -> u64 {
        #[cfg(not(target_arch = "wasm32"))]
        {
            u64::try_from(self.start.elapsed().as_nanos()).unwrap_or(u64::MAX)
        }
        #[cfg(target_arch = "wasm32")]
        {
            0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_balance_moves_toward_the_split_where_both_parts_take_as_long() {
        // The worker's core runs a row in twice this one's time: this thread should take two
        // thirds of the rows.
        let mut b = Balance::default();
        assert_eq!(b.mid(16_000), 8_000);
        for _ in 0..200 {
            let mid = b.mid(16_000);
            let rows = (mid, 16_000 - mid);
            b.learn(rows, (rows.0 as u128 * 10, rows.1 as u128 * 20));
        }
        let mid = b.mid(16_000);
        assert!((10_600..=10_734).contains(&mid), "{mid}");
        // Equal cores bring it back; no time or no rows teaches nothing; the share stays
        // within its bounds however lopsided the times, and every split leaves both parts rows.
        for _ in 0..200 {
            let mid = b.mid(16_000);
            b.learn((mid, 16_000 - mid), (mid as u128, (16_000 - mid) as u128));
        }
        assert!(
            (7_990..=8_010).contains(&b.mid(16_000)),
            "{}",
            b.mid(16_000)
        );
        let before = b.mid(16_000);
        b.learn((0, 100), (5, 5));
        b.learn((100, 100), (0, 5));
        assert_eq!(b.mid(16_000), before);
        for _ in 0..500 {
            b.learn((100, 100), (1, 1_000_000));
        }
        assert_eq!(b.mid(1_000), 800);
        for _ in 0..500 {
            b.learn((100, 100), (1_000_000, 1));
        }
        assert_eq!(b.mid(1_000), 200);
        assert_eq!((b.mid(2), b.mid(3)), (1, 1));
    }

    #[test]
    fn a_split_anywhere_makes_the_same_world() {
        // Drones in one archetype, enough to split motion's pass and the plan's marks test;
        // each tick's hash, contacts and events with this thread's share of the rows held at a
        // fifth, at an odd fraction and at four fifths, against one thread. (Where the machine
        // has one core, nothing splits.)
        use crate::{Game, NoConsequences, TickInput};
        let run = |share: Option<f64>| {
            let def = std::sync::Arc::new(crate::reference::drones_def());
            let mut g = Game::with_entities(def, Box::new(NoConsequences), 20_000).unwrap();
            g.options_mut().hash = true;
            g.options_mut().serial = share.is_none();
            g.split_always();
            (0..30)
                .map(|_| {
                    if let Some(share) = share {
                        g.split_at(share);
                    }
                    let r = g.step(&TickInput::neutral()).unwrap();
                    (r.hash.unwrap(), r.contacts, r.events)
                })
                .collect::<Vec<_>>()
        };
        let serial = run(None);
        for share in [0.2, 0.3737, 0.8] {
            assert_eq!(run(Some(share)), serial, "this thread's share {share}");
        }
    }

    #[test]
    fn balanced_parts_give_both_results_in_order() {
        let mut b = Balance::default();
        for n in [2usize, 3, 100, 9_000] {
            let mid = b.mid(n);
            let (x, y) = join_balanced(
                &mut b,
                (mid, n - mid),
                || (0..mid).sum::<usize>(),
                || (mid..n).sum::<usize>(),
            );
            assert_eq!(x + y, n * (n - 1) / 2);
        }
    }
}

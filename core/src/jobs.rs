//! Background work: requests computed off the tick, results applied at a later BeginTick.
//!
//! Guarantees:
//! - A request owns its inputs and carries the world identity, the target entity (creation
//!   sequence), a request id and the revision of the state it was computed for. Executors never
//!   see or change the world; they return owned results with an explicit status.
//! - Admission reserves one completion slot per request, counting queued, executing and
//!   completed-but-unconsumed requests together; when every slot is taken, admission is refused
//!   explicitly (and counted), never blocked on.
//! - At BeginTick a bounded snapshot of available completions (at most the slot count) is taken
//!   and applied in request-id order. Results arriving later wait for the next tick.
//! - Stale results are discarded with counters: a replaced world, a destroyed target, a changed
//!   revision, a cancelled request. Discarding frees the slot like applying does.
//! - Cancellation prevents application, not necessarily execution.
//! - [`Completions::shutdown`] drains every executor and reclaims every slot.
//! - The serial executor and the thread pool run the same pure functions; the browser build and
//!   deterministic headless runs use the serial one. Replay feeds the recorded batches back at
//!   the ticks they were applied in, so a threaded run replays exactly.

use crate::ids::WorldId;
use crate::nav::{FlowField, FlowInput};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// Background request id, unique per service.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct RequestId(pub u64);

/// Owned job input.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum JobInput {
    FlowField(FlowInput),
}

/// Owned job output.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum JobOutput {
    FlowField(FlowField),
}

impl JobInput {
    /// The pure function every executor runs.
    pub fn run(&self) -> JobOutput {
        match self {
            JobInput::FlowField(input) => JobOutput::FlowField(input.compute()),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Request {
    pub id: RequestId,
    pub world: WorldId,
    pub target: Option<u64>,
    pub revision: u64,
    pub input: JobInput,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum JobStatus {
    Done(JobOutput),
    Failed(String),
}

/// An owned result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Completion {
    pub id: RequestId,
    pub world: WorldId,
    pub target: Option<u64>,
    pub revision: u64,
    pub status: JobStatus,
}

/// The completion of `request`, its output from `run` (the job's pure function, or what a
/// serial executor kept of it).
fn execute(request: Request, run: impl FnOnce(JobInput) -> JobOutput) -> Completion {
    let Request {
        id,
        world,
        target,
        revision,
        input,
    } = request;
    Completion {
        id,
        world,
        target,
        revision,
        status: JobStatus::Done(run(input)),
    }
}

/// Where requests run.
pub trait Executor: Send {
    fn submit(&mut self, request: Request);
    /// Moves up to `max` finished results into `out`; never waits.
    fn poll(&mut self, max: usize, out: &mut Vec<Completion>);
    /// Stops accepting work, waits for running jobs and returns everything outstanding.
    fn shutdown(&mut self, out: &mut Vec<Completion>);
}

/// Runs each request when polled, on the calling thread: deterministic, thread-free. It keeps
/// its last results: an input asked again takes the output computing it gave (see `Kept`).
#[derive(Debug, Default)]
pub struct SerialExecutor {
    queue: VecDeque<Request>,
    done: VecDeque<Completion>,
    kept: Kept,
}

/// The most a serial executor keeps of its last inputs and outputs, in bytes (a flow field
/// and its input are about two bytes a cell: a few hundred fields of an arena's grid).
pub const KEPT_BYTES: usize = 1 << 20;

/// A serial executor's last results, by input: every job is a pure function of its input, so
/// an input asked again (a chaser's goal back in a cell it was in a moment ago) takes the
/// output kept, the one computing it gives, bit for bit.
///
/// Invariant: `bytes` is the sum of the entries' [`size`]s, at most [`KEPT_BYTES`]; the most
/// recently asked entry first.
#[derive(Debug, Default)]
struct Kept {
    entries: VecDeque<(JobInput, JobOutput)>,
    bytes: usize,
}

impl Kept {
    /// The output of `input`: the kept one where it was asked before, else computed and kept
    /// (the oldest entries let go to make room; one past the bound alone is not kept).
    fn run(&mut self, input: JobInput) -> JobOutput {
        if let Some(at) = self.entries.iter().position(|(k, _)| k.same(&input)) {
            let entry = self.entries.remove(at).expect("a kept entry");
            let out = entry.1.clone();
            self.entries.push_front(entry);
            return out;
        }
        let out = input.run();
        let size = size(&input, &out);
        if size <= KEPT_BYTES {
            while self.bytes + size > KEPT_BYTES {
                let (k, o) = self.entries.pop_back().expect("bytes count an entry");
                self.bytes -= self::size(&k, &o);
            }
            self.bytes += size;
            self.entries.push_front((input, out.clone()));
        }
        out
    }
}

/// The bytes an entry of [`Kept`] holds.
fn size(input: &JobInput, output: &JobOutput) -> usize {
    let (JobInput::FlowField(i), JobOutput::FlowField(o)) = (input, output);
    size_of::<(JobInput, JobOutput)>() + i.blocked.len() + o.dirs.len()
}

impl JobInput {
    /// Whether `other` is the same input bit for bit (floats by their bits: `-0.0` and `0.0`
    /// are different origins, whose fields differ in their origin too).
    fn same(&self, other: &JobInput) -> bool {
        let (JobInput::FlowField(a), JobInput::FlowField(b)) = (self, other);
        // Every field named: one added to the input must be compared too.
        let key = |i: &FlowInput| {
            let FlowInput {
                origin,
                cell,
                cols,
                rows,
                blocked: _,
                goal,
            } = i;
            let bits = (origin.x.to_bits(), origin.y.to_bits(), cell.to_bits());
            (*goal, *cols, *rows, bits)
        };
        key(a) == key(b) && a.blocked == b.blocked
    }
}

impl Executor for SerialExecutor {
    fn submit(&mut self, request: Request) {
        self.queue.push_back(request);
    }

    fn poll(&mut self, max: usize, out: &mut Vec<Completion>) {
        while let Some(r) = self.queue.pop_front() {
            let kept = &mut self.kept;
            self.done.push_back(execute(r, |input| kept.run(input)));
        }
        for _ in 0..max.min(self.done.len()) {
            out.extend(self.done.pop_front());
        }
    }

    fn shutdown(&mut self, out: &mut Vec<Completion>) {
        self.poll(usize::MAX, out);
    }
}

/// Never completes anything: replay supplies recorded completions instead.
#[derive(Debug, Default)]
pub struct ReplayExecutor;

impl Executor for ReplayExecutor {
    fn submit(&mut self, _: Request) {}
    fn poll(&mut self, _: usize, _: &mut Vec<Completion>) {}
    fn shutdown(&mut self, _: &mut Vec<Completion>) {}
}

#[cfg(not(target_arch = "wasm32"))]
mod pool {
    use super::*;
    use std::sync::mpsc;
    use std::sync::{Arc, Mutex};
    use std::thread::JoinHandle;

    /// A fixed pool of worker threads. Completions move through one mutex-protected queue;
    /// workers never touch the session's state. A pool whose threads could not be started
    /// runs each request on the polling thread instead, like [`SerialExecutor`].
    pub struct ThreadPool {
        sender: Option<mpsc::Sender<Request>>,
        receiver: Arc<Mutex<mpsc::Receiver<Request>>>,
        done: Arc<Mutex<VecDeque<Completion>>>,
        workers: Vec<JoinHandle<()>>,
    }

    impl ThreadPool {
        /// A pool of `threads` workers (at least one), or fewer when the system refuses to
        /// start more; see [`try_new`](Self::try_new) to be told.
        pub fn new(threads: usize) -> Self {
            match ThreadPool::start(threads) {
                Ok(pool) | Err((pool, _)) => pool,
            }
        }

        /// A pool of exactly `threads` workers (at least one), or the reason the system would
        /// not start them all (the ones started are stopped again).
        pub fn try_new(threads: usize) -> std::io::Result<Self> {
            ThreadPool::start(threads).map_err(|(_, e)| e)
        }

        fn start(threads: usize) -> Result<Self, (Self, std::io::Error)> {
            let (sender, receiver) = mpsc::channel::<Request>();
            let receiver = Arc::new(Mutex::new(receiver));
            let done = Arc::new(Mutex::new(VecDeque::new()));
            let mut pool = ThreadPool {
                sender: Some(sender),
                receiver,
                done,
                workers: Vec::new(),
            };
            for i in 0..threads.max(1) {
                let receiver = Arc::clone(&pool.receiver);
                let done = Arc::clone(&pool.done);
                let spawned = std::thread::Builder::new()
                    .name(format!("ludus-worker-{i}"))
                    .spawn(move || {
                        loop {
                            let next = match receiver.lock() {
                                Ok(rx) => rx.recv(),
                                Err(_) => return,
                            };
                            let Ok(request) = next else { return };
                            let completion = execute(request, |input| input.run());
                            if let Ok(mut q) = done.lock() {
                                q.push_back(completion);
                            }
                        }
                    });
                match spawned {
                    Ok(handle) => pool.workers.push(handle),
                    Err(e) => return Err((pool, e)),
                }
            }
            Ok(pool)
        }

        /// No worker could be started: run what is queued here.
        fn run_inline(&mut self) {
            if !self.workers.is_empty() {
                return;
            }
            let Ok(rx) = self.receiver.lock() else { return };
            while let Ok(request) = rx.try_recv() {
                let completion = execute(request, |input| input.run());
                if let Ok(mut q) = self.done.lock() {
                    q.push_back(completion);
                }
            }
        }
    }

    impl Executor for ThreadPool {
        fn submit(&mut self, request: Request) {
            if let Some(s) = &self.sender {
                let _ = s.send(request);
            }
        }

        fn poll(&mut self, max: usize, out: &mut Vec<Completion>) {
            self.run_inline();
            if let Ok(mut q) = self.done.try_lock() {
                for _ in 0..max.min(q.len()) {
                    out.extend(q.pop_front());
                }
            }
        }

        fn shutdown(&mut self, out: &mut Vec<Completion>) {
            self.run_inline();
            self.sender = None;
            for w in self.workers.drain(..) {
                let _ = w.join();
            }
            if let Ok(mut q) = self.done.lock() {
                out.extend(q.drain(..));
            }
        }
    }

    impl Drop for ThreadPool {
        fn drop(&mut self) {
            let mut rest = Vec::new();
            self.shutdown(&mut rest);
        }
    }
}

#[cfg(not(target_arch = "wasm32"))]
pub use pool::ThreadPool;

/// Counters for diagnostics and tests.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct JobStats {
    pub admitted: u64,
    pub refused: u64,
    pub applied: u64,
    pub stale_world: u64,
    pub stale_target: u64,
    pub stale_revision: u64,
    pub cancelled: u64,
    pub failed: u64,
    pub reclaimed_at_shutdown: u64,
}

/// The background-work service: admission, slots, snapshots, application, shutdown.
pub struct Completions {
    executor: Box<dyn Executor>,
    capacity: usize,
    /// Admitted requests not yet consumed (applied, discarded or reclaimed).
    outstanding: BTreeSet<RequestId>,
    cancelled: BTreeSet<RequestId>,
    next_id: u64,
    /// Replay: batches to apply, by tick.
    recorded: Option<BTreeMap<u64, Vec<Completion>>>,
    /// The batch taken at the last BeginTick (what a recording stores).
    last_batch: Vec<Completion>,
    stats: JobStats,
    shut_down: bool,
}

impl Completions {
    /// A service with `capacity` slots and the serial executor.
    pub fn new(capacity: u32) -> Self {
        Completions::with_executor(capacity, Box::new(SerialExecutor::default()))
    }

    pub fn with_executor(capacity: u32, executor: Box<dyn Executor>) -> Self {
        Completions {
            executor,
            capacity: capacity.max(1) as usize,
            outstanding: BTreeSet::new(),
            cancelled: BTreeSet::new(),
            next_id: 1,
            recorded: None,
            last_batch: Vec::new(),
            stats: JobStats::default(),
            shut_down: false,
        }
    }

    /// Replays recorded batches instead of executing anything.
    pub fn replaying(capacity: u32, batches: BTreeMap<u64, Vec<Completion>>) -> Self {
        let mut c = Completions::with_executor(capacity, Box::new(ReplayExecutor));
        c.recorded = Some(batches);
        c
    }

    pub fn stats(&self) -> JobStats {
        self.stats
    }

    /// Replay: the batches of the next segment (keyed by its tick numbers). Request ids and
    /// outstanding slots carry on, as they did in the recorded run.
    pub fn set_recorded(&mut self, batches: BTreeMap<u64, Vec<Completion>>) {
        self.recorded = Some(batches);
    }

    /// Slots in use (admitted and not yet consumed).
    pub fn in_use(&self) -> usize {
        self.outstanding.len()
    }

    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// The batch the last BeginTick took, in request-id order.
    pub fn last_batch(&self) -> &[Completion] {
        &self.last_batch
    }

    /// Whether `id` is admitted and not yet consumed.
    pub fn is_outstanding(&self, id: RequestId) -> bool {
        self.outstanding.contains(&id)
    }

    /// Admits a request, or refuses it when every slot is taken (or after shutdown).
    pub fn submit(
        &mut self,
        world: WorldId,
        target: Option<u64>,
        revision: u64,
        input: JobInput,
    ) -> Option<RequestId> {
        if self.shut_down || self.outstanding.len() >= self.capacity {
            self.stats.refused += 1;
            return None;
        }
        let id = RequestId(self.next_id);
        self.next_id += 1;
        self.outstanding.insert(id);
        self.stats.admitted += 1;
        self.executor.submit(Request {
            id,
            world,
            target,
            revision,
            input,
        });
        Some(id)
    }

    /// Prevents a request's result from being applied.
    pub fn cancel(&mut self, id: RequestId) {
        if self.outstanding.contains(&id) {
            self.cancelled.insert(id);
        }
    }

    /// Drains every executor and reclaims every slot; later admissions are refused.
    pub fn shutdown(&mut self) {
        let mut rest = Vec::new();
        self.executor.shutdown(&mut rest);
        self.stats.reclaimed_at_shutdown += self.outstanding.len() as u64;
        self.outstanding.clear();
        self.cancelled.clear();
        self.shut_down = true;
    }

    /// BeginTick: takes the bounded snapshot of available results, in request-id order. The
    /// batch stays readable through [`Completions::last_batch`] (recordings keep it) until the
    /// next snapshot.
    pub(crate) fn take_batch(&mut self, tick: u64) -> Vec<Completion> {
        self.last_batch.clear();
        match &mut self.recorded {
            Some(recorded) => {
                if let Some(batch) = recorded.remove(&tick) {
                    self.last_batch = batch;
                }
            }
            None => self.executor.poll(self.capacity, &mut self.last_batch),
        }
        self.last_batch.sort_by_key(|c| c.id);
        std::mem::take(&mut self.last_batch)
    }

    /// Gives the batch back after BeginTick applied it.
    pub(crate) fn put_back(&mut self, batch: Vec<Completion>) {
        self.last_batch = batch;
    }

    /// Whether result `id` may be applied: it was admitted here and not cancelled. Either way
    /// its slot is reclaimed.
    pub(crate) fn admit(&mut self, id: RequestId) -> bool {
        if !self.outstanding.remove(&id) {
            // Not admitted here (a damaged recording) or already reclaimed: ignore.
            return false;
        }
        if self.cancelled.remove(&id) {
            self.stats.cancelled += 1;
            return false;
        }
        true
    }

    pub(crate) fn stats_mut(&mut self) -> &mut JobStats {
        &mut self.stats
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Vec2;

    fn field(cols: u32, rows: u32, goal: (u32, u32), origin: Vec2) -> JobInput {
        JobInput::FlowField(FlowInput {
            origin,
            cell: 8.0,
            cols,
            rows,
            blocked: (0..cols * rows).map(|i| i % 7 == 3).collect(),
            goal,
        })
    }

    #[test]
    fn an_input_asked_again_takes_the_output_kept_of_it() {
        let mut kept = Kept::default();
        let [a, b] = [(3, 4), (9, 9)].map(|goal| field(30, 20, goal, Vec2::ZERO));
        for input in [&a, &b, &a, &b, &b] {
            assert_eq!(kept.run(input.clone()), input.run());
        }
        // Each once, the last asked first, their bytes counted.
        let order: Vec<bool> = kept.entries.iter().map(|(k, _)| k.same(&b)).collect();
        assert_eq!(order, [true, false]);
        let bytes: usize = kept.entries.iter().map(|(k, o)| size(k, o)).sum();
        assert_eq!(kept.bytes, bytes);
    }

    #[test]
    fn a_zero_of_the_other_sign_is_another_input() {
        let mut kept = Kept::default();
        let (plus, minus) = (Vec2::ZERO, Vec2::new(-0.0, 0.0));
        kept.run(field(8, 8, (1, 1), plus));
        let JobOutput::FlowField(f) = kept.run(field(8, 8, (1, 1), minus));
        assert_eq!(
            f.origin.x.to_bits(),
            (-0.0f32).to_bits(),
            "computed, not the kept one"
        );
        assert_eq!(kept.entries.len(), 2);
    }

    #[test]
    fn the_kept_results_stay_within_their_bound() {
        let mut kept = Kept::default();
        // About 600 KB each (two bytes a cell): the second lets the first go.
        let [a, b] = [(0, 0), (5, 5)].map(|goal| field(600, 500, goal, Vec2::ZERO));
        kept.run(a);
        kept.run(b.clone());
        assert!(kept.bytes <= KEPT_BYTES);
        assert_eq!(kept.entries.len(), 1);
        assert!(kept.entries[0].0.same(&b));
        // One past the bound alone is computed and not kept; what was kept stays.
        let huge = field(800, 750, (1, 1), Vec2::ZERO);
        assert_eq!(kept.run(huge.clone()), huge.run());
        assert_eq!(kept.entries.len(), 1);
        assert!(kept.entries[0].0.same(&b) && kept.bytes <= KEPT_BYTES);
    }
}

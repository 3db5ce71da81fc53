//! Judging behind the wire, for a transport that observes: a line is
//! written first and judged afterwards, on a thread of its own, so that
//! judging one message overlaps relaying the next. The verdicts change
//! nothing on the wire (observing), they are reported and recorded.
//!
//! What waits for its verdict is bounded: past [`BUDGET`] bytes queued, the
//! side that queues waits for the judge to catch up (one line is always
//! taken, whatever its length, so a line up to the message cap gets
//! through). The queue keeps the order lines were queued in, events
//! included, so a response is never judged before its request and an
//! event is reported after the verdicts of the lines before it.

use std::collections::VecDeque;
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::thread::JoinHandle;

use crate::judge::{Judge, Side};

/// The bytes of lines that may wait for their verdict at once.
pub const BUDGET: usize = 1 << 20;

/// What the judge does next, in the order it was queued.
enum Job {
    /// A whole line from a side.
    Line(Side, Vec<u8>),
    /// A line longer than the cap, of at least this many bytes.
    Long(Side, usize),
    /// An event of the session (`event`, its message).
    Event(&'static str, String),
}

#[derive(Default)]
struct Queue {
    jobs: VecDeque<Job>,
    bytes: usize,
    closed: bool,
}

#[derive(Default)]
struct Shared {
    queue: Mutex<Queue>,
    /// Signalled when a job is queued or the queue closes (for the judge)
    /// and when the judge takes a job (for a side waiting for room).
    changed: Condvar,
}

/// The sides' end of the queue; cloned for each side.
#[derive(Clone)]
pub struct Behind {
    shared: Arc<Shared>,
}

/// The judge's thread: ends once the queue is closed and empty.
pub struct Judging {
    behind: Behind,
    thread: Option<JoinHandle<()>>,
}

impl Behind {
    /// Starts the judge's thread over `judge`.
    pub fn start(judge: Arc<Mutex<Judge>>) -> std::io::Result<(Behind, Judging)> {
        let behind = Behind { shared: Arc::default() };
        let shared = behind.shared.clone();
        let thread =
            std::thread::Builder::new().name("protocolarc-judge".into()).spawn(move || run(&shared, &judge))?;
        Ok((behind.clone(), Judging { behind, thread: Some(thread) }))
    }

    /// Queues a whole line, waiting while the queue is over its budget.
    pub fn line(&self, side: Side, line: &[u8]) {
        self.push(line.len(), Job::Line(side, line.to_vec()));
    }

    /// Queues a line longer than the cap, of at least `len` bytes (reported,
    /// not judged).
    pub fn long(&self, side: Side, len: usize) {
        self.push(0, Job::Long(side, len));
    }

    /// Queues an event, reported after the verdicts of the lines before it.
    pub fn event(&self, event: &'static str, message: String) {
        self.push(0, Job::Event(event, message));
    }

    fn push(&self, bytes: usize, job: Job) {
        let mut q = self.shared.queue.lock().unwrap_or_else(PoisonError::into_inner);
        while !q.closed && !q.jobs.is_empty() && q.bytes + bytes > BUDGET {
            q = self.shared.changed.wait(q).unwrap_or_else(PoisonError::into_inner);
        }
        if q.closed {
            return;
        }
        q.bytes += bytes;
        q.jobs.push_back(job);
        drop(q);
        self.shared.changed.notify_all();
    }
}

impl Judging {
    /// Waits until every queued job is judged; nothing queued later is.
    pub fn finish(mut self) {
        self.close();
    }

    fn close(&mut self) {
        self.behind.shared.queue.lock().unwrap_or_else(PoisonError::into_inner).closed = true;
        self.behind.shared.changed.notify_all();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Drop for Judging {
    fn drop(&mut self) {
        self.close();
    }
}

/// The judge's loop: each job in turn, until the queue is closed and empty.
fn run(shared: &Shared, judge: &Mutex<Judge>) {
    loop {
        let mut q = shared.queue.lock().unwrap_or_else(PoisonError::into_inner);
        let job = loop {
            if let Some(job) = q.jobs.pop_front() {
                if let Job::Line(_, line) = &job {
                    q.bytes -= line.len();
                }
                break job;
            }
            if q.closed {
                return;
            }
            q = shared.changed.wait(q).unwrap_or_else(PoisonError::into_inner);
        };
        drop(q);
        shared.changed.notify_all();
        let mut judge = judge.lock().unwrap_or_else(PoisonError::into_inner);
        match job {
            Job::Line(side, line) => {
                judge.message(side, &line);
            }
            Job::Long(side, len) => {
                judge.too_large(side, len);
            }
            Job::Event(event, message) => judge.event(event, &message),
        }
    }
}

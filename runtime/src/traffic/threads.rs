//! [`Traffic::lines`](super::Traffic::lines) on more than one thread.
//!
//! The lines are cut into runs. Any thread (the calling one included)
//! takes the next run to parse and judge as far as its messages' own bytes
//! allow ([`Part`]): a request's verdict is then final, a response waits
//! for pairing. The calling thread pairs the runs in input order, each as
//! soon as it is parsed and the runs before it are paired (pairing is
//! sequential: a response answers the latest earlier request of its id);
//! a run with success responses goes back to any free thread to judge
//! their results by their requests' methods. The calling thread hands the
//! verdicts of each finished run on, in input order, while the other
//! threads go on with the next runs: pairing and handing on overlap the
//! parsing instead of following it.
//!
//! What decides a verdict does not depend on which thread judged it, so
//! the output is the same, byte for byte, whatever the number of threads.
//! A panic on another thread (there should be none) is carried to the
//! calling thread and resumed there.

use std::any::Any;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Mutex};

use super::id::IdRef;
use super::pairing::pair;
use super::router::{Parsed, Router};
use super::verdict::{Judged, Source};
use super::waiting::{Held, Waiting};

/// Each run takes this share, per thread, of the lines not yet cut into
/// runs (see [`runs`]).
const SHARE_PER_JOB: usize = 8;

/// The shortest run, but for the last (fewer lines cost more in handing
/// runs between threads than they save).
const MIN_RUN: usize = 16;

/// `lines` cut into runs that shrink toward the end of the batch: each
/// takes `1 / (SHARE_PER_JOB * jobs)` of the lines left, at least
/// [`MIN_RUN`]. The first runs are long (few hand-overs); the last are
/// short, so that when the lines run out the threads finish within a short
/// run of each other, and a thread the system starts late, or the calling
/// thread, which also pairs and hands on, simply takes fewer. (Runs of one
/// size leave a thread idle at each batch's end, waiting for the last
/// long run of another.)
fn runs<T>(lines: &[T], jobs: usize) -> Vec<&[T]> {
    let mut runs = Vec::new();
    let mut rest = lines;
    while !rest.is_empty() {
        let size = (rest.len() / (jobs * SHARE_PER_JOB)).max(MIN_RUN).min(rest.len());
        let (run, after) = rest.split_at(size);
        runs.push(run);
        rest = after;
    }
    runs
}

/// A run of messages judged on one thread: each one's verdict in order,
/// and what still needs pairing, in input order: a request's key to
/// remember (its verdict is final), a response to pair and finish (its
/// place in `judged` holds only its source until then).
struct Part<'a, 'c> {
    judged: Vec<Judged<'a>>,
    open: Vec<Open<'a, 'c>>,
}

/// A message of a [`Part`] that pairing still needs.
enum Open<'a, 'c> {
    /// A request's key and what waits for its response (as the pending
    /// requests hold it: what crosses threads per request stays small).
    Request(IdRef<'a>, Held<'c>),
    /// A response (a [`Parsed::Response`]) and its place in `judged`.
    Response(usize, Box<Parsed<'a, 'c>>),
}

impl<'a, 'c> Part<'a, 'c> {
    fn add(&mut self, p: Parsed<'a, 'c>) {
        match p {
            Parsed::Done(j) | Parsed::Request(j, None) => self.judged.push(j),
            Parsed::Request(j, Some((id, held))) => {
                self.open.push(Open::Request(id, held));
                self.judged.push(j);
            }
            Parsed::Response { ref j, .. } => {
                self.judged.push(Judged::placeholder(j.source));
                self.open.push(Open::Response(self.judged.len() - 1, Box::new(p)));
            }
        }
    }

    /// Pairs this part's messages, in order, keeping the responses open;
    /// the number of success responses that wait to be judged.
    fn pair(&mut self, router: &Router<'c>, pending: &mut Waiting<'c>) -> usize {
        let mut results = 0;
        for open in std::mem::take(&mut self.open) {
            match open {
                Open::Request(id, held) => pending.push(&id, held),
                Open::Response(i, mut p) => {
                    results += usize::from(pair(router, pending, &mut p));
                    self.open.push(Open::Response(i, p));
                }
            }
        }
        results
    }

    /// Finishes the paired responses into their places.
    fn close(&mut self, router: &Router<'c>)
    where
        'c: 'a,
    {
        for open in self.open.drain(..) {
            if let Open::Response(i, p) = open {
                self.judged[i] = router.finish(*p);
            }
        }
    }
}

/// What another thread sends back: a run parsed or closed (by its index),
/// or the panic that ended the thread.
enum Done<'a, 'c> {
    Parsed(usize, Part<'a, 'c>),
    Closed(usize, Part<'a, 'c>),
    Panicked(Box<dyn Any + Send>),
}

/// Where a run is, as the calling thread sees it.
enum Run<'a, 'c> {
    /// Parsing, not back yet.
    Out,
    Parsed(Part<'a, 'c>),
    /// Paired; its results are being judged.
    Closing,
    /// Every verdict final.
    Closed(Part<'a, 'c>),
    /// Handed on.
    Given,
}

/// See the module's documentation. `jobs` > 1.
pub(super) fn in_order<'a, 'c: 'a, E>(
    router: &Router<'c>,
    pending: &mut Waiting<'c>,
    file: &'a str,
    lines: &[(usize, &'a [u8])],
    jobs: usize,
    meanwhile: impl FnOnce(),
    mut each: impl FnMut(Judged<'a>) -> Result<(), E>,
) -> Result<(), E> {
    let mut meanwhile = Some(meanwhile);
    // No more threads than the batch has runs of the shortest length:
    // another would find nothing to do.
    let jobs = jobs.min(lines.len().div_ceil(MIN_RUN)).max(1);
    let runs = runs(lines, jobs);
    let n = runs.len();
    // The next run to parse, whichever thread takes it.
    let taken = AtomicUsize::new(0);
    let parse = |i: usize| {
        let mut part = Part { judged: Vec::with_capacity(runs[i].len()), open: Vec::with_capacity(runs[i].len()) };
        for &(number, bytes) in runs[i] {
            router.each_message(Source::at_line(file, number), bytes, |p| part.add(p));
        }
        part
    };
    let (closing, to_close) = mpsc::channel::<(usize, Part<'a, 'c>)>();
    let to_close = Mutex::new(to_close);
    // A run to close, if one is queued and no other thread is waiting on the queue.
    let close_one = || to_close.try_lock().ok().and_then(|queue| queue.try_recv().ok());
    let worker = |done: mpsc::Sender<Done<'a, 'c>>| {
        let work = panic::catch_unwind(AssertUnwindSafe(|| loop {
            // A paired run first: the verdicts handed on in order wait for it.
            let next = match close_one() {
                Some((i, mut part)) => {
                    part.close(router);
                    Done::Closed(i, part)
                }
                None => match taken.fetch_add(1, Ordering::Relaxed) {
                    i if i < n => Done::Parsed(i, parse(i)),
                    // Nothing left to parse: wait for a run to close, until
                    // the calling thread closes the queue.
                    _ => {
                        let queued = match to_close.lock() {
                            Ok(queue) => queue.recv(),
                            Err(_) => return,
                        };
                        let Ok((i, mut part)) = queued else { return };
                        part.close(router);
                        Done::Closed(i, part)
                    }
                },
            };
            if done.send(next).is_err() {
                return;
            }
        }));
        if let Err(payload) = work {
            let _ = done.send(Done::Panicked(payload));
        }
    };
    std::thread::scope(|scope| {
        let (done, back) = mpsc::channel();
        for _ in 1..jobs {
            let done = done.clone();
            let worker = &worker;
            // A thread the system refuses is one fewer: the calling thread
            // does whatever is left, with the same verdicts.
            if std::thread::Builder::new().spawn_scoped(scope, move || worker(done)).is_err() {
                break;
            }
        }
        drop(done);
        let mut state: Vec<Run<'a, 'c>> = (0..n).map(|_| Run::Out).collect();
        let place = |state: &mut [Run<'a, 'c>], d: Done<'a, 'c>| match d {
            Done::Parsed(i, part) => state[i] = Run::Parsed(part),
            Done::Closed(i, part) => state[i] = Run::Closed(part),
            Done::Panicked(payload) => panic::resume_unwind(payload),
        };
        let (mut paired, mut given) = (0, 0);
        let out = loop {
            while let Ok(d) = back.try_recv() {
                place(&mut state, d);
            }
            // The finished runs, handed on in order.
            let mut failed = None;
            while given < paired && failed.is_none() {
                match std::mem::replace(&mut state[given], Run::Given) {
                    Run::Closed(part) => failed = part.judged.into_iter().find_map(|j| each(j).err()),
                    other => {
                        state[given] = other;
                        break;
                    }
                }
                given += 1;
            }
            if let Some(e) = failed {
                break Err(e);
            }
            if given == n {
                break Ok(());
            }
            // The next run in order, paired as soon as it is parsed.
            if paired < n {
                match std::mem::replace(&mut state[paired], Run::Closing) {
                    Run::Parsed(mut part) => {
                        if part.pair(router, pending) == 0 {
                            // No result to judge: its error responses finish here.
                            part.close(router);
                            state[paired] = Run::Closed(part);
                        } else {
                            // Any free thread judges its results (this one too).
                            let _ = closing.send((paired, part));
                        }
                        paired += 1;
                        continue;
                    }
                    other => state[paired] = other,
                }
            }
            // Work of its own while the runs it waits for are out: the
            // caller's first (its next lines, read while the threads judge).
            if let Some(f) = meanwhile.take() {
                f();
                continue;
            }
            if let Some((i, mut part)) = close_one() {
                part.close(router);
                state[i] = Run::Closed(part);
                continue;
            }
            let i = taken.fetch_add(1, Ordering::Relaxed);
            if i < n {
                state[i] = Run::Parsed(parse(i));
                continue;
            }
            // Everything is taken: wait for another thread.
            match back.recv() {
                Ok(d) => place(&mut state, d),
                Err(_) => panic::resume_unwind(Box::new("a traffic thread ended without its runs")),
            }
        };
        // The other threads stop: nothing more to parse, the queue closed.
        taken.store(n, Ordering::Relaxed);
        drop(closing);
        if let (Ok(()), Some(f)) = (&out, meanwhile) {
            f();
        }
        out
    })
}

#[cfg(test)]
mod tests {
    use super::{runs, MIN_RUN};

    #[test]
    fn runs_shrink_toward_the_end_and_cover_every_line_in_order() {
        let lines: Vec<usize> = (0..1000).collect();
        let cut = runs(&lines, 2);
        let sizes: Vec<usize> = cut.iter().map(|r| r.len()).collect();
        // Each takes a sixteenth (8 per thread, 2 threads) of what is left.
        assert_eq!(sizes[..4], [62, 58, 55, 51]);
        assert!(sizes.windows(2).all(|w| w[0] >= w[1]), "{sizes:?}");
        assert!(sizes[..sizes.len() - 1].iter().all(|&s| s >= MIN_RUN), "{sizes:?}");
        assert_eq!(sizes.iter().sum::<usize>(), 1000);
        assert_eq!(cut.concat(), lines);
        // The tail is short: the last runs are the shortest allowed.
        assert_eq!(sizes[sizes.len() - 2], MIN_RUN);
        assert!(sizes[sizes.len() - 1] <= MIN_RUN);
        // Fewer lines than a run: one run.
        assert_eq!(runs(&lines[..10], 4), [&lines[..10]]);
        assert!(runs(&lines[..0], 2).is_empty());
    }
}

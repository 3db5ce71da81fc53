//! The requests waiting for their responses: a stack per id (the latest
//! unanswered request of an id answers first), within a memory budget
//! ([`PENDING_BUDGET`]): the last [`PENDING_WINDOW`] requests of a file at
//! most, fewer when what they own on the heap (long ids, tool names,
//! labels) outgrows the budget's share for it: the oldest are forgotten
//! first, and a response that comes for one answers nothing.
//!
//! A fixed ring of [`PENDING_WINDOW`] slots, request `seq` at
//! `seq % PENDING_WINDOW`, allocated once and overwritten in place (pushing
//! a request forgets the one a window before it, in the same slot), and a
//! map from id to its latest request. A slot is small (the common request,
//! a method whose response contract exists, is its borrowed method alone),
//! so the ring stays in cache. An entry of the map whose request is
//! answered or forgotten stays until a sweep, once the map could outgrow
//! the window.
//!
//! The map is built lazily: a pushed request only fills its slot (its id
//! included), and the requests pushed since the last response enter the
//! map when the next response comes, those still in the window only. A
//! capture of requests alone (the common bulk case) then hashes nothing,
//! and a long run of requests hashes its last window only; a request that
//! left the window before it was entered is forgotten either way, so the
//! answers are the same (the test below holds both to a plain model).

use std::borrow::Cow;
use std::collections::HashMap;

use super::id::{Hasher, IdKey, IdRef};

/// The bytes the pending requests of a file hold at most: half in the ring
/// of [`PENDING_WINDOW`] slots and the map of their ids, a third in what
/// the requests own on the heap (an id of 30 bytes or more, a tool name, a
/// label), a sixth in the map's keys of forgotten requests until a sweep.
/// Past it the oldest pending request is forgotten (its late response is
/// unpaired), so that memory stays bounded on any capture.
pub const PENDING_BUDGET: usize = 2 << 20;

/// Bytes the ring and the map of ids take per request of the window: its
/// slot, its heap cost, and its map entry (a key, a sequence number, a
/// control byte) with the map's room to grow until a sweep.
const REQUEST_BYTES: usize = std::mem::size_of::<Slot<'static>>()
    + std::mem::size_of::<u32>()
    + (std::mem::size_of::<(IdKey, u64)>() + 1) * 7 / 4;

/// How many requests a request stays pending for at most: one unanswered
/// after this many later requests of its file is forgotten. The most slots
/// half the budget holds, a power of two (a slot's index is then a mask).
pub const PENDING_WINDOW: usize = {
    let n = PENDING_BUDGET / 2 / REQUEST_BYTES;
    1 << (usize::BITS - 1 - n.leading_zeros())
};

/// What the requests in the window may own on the heap.
const HEAP_BUDGET: usize = PENDING_BUDGET / 3;

/// The heap bytes of forgotten requests' keys the map may keep until a sweep.
const GARBAGE_BUDGET: usize = PENDING_BUDGET / 6;

/// A request waiting for its response.
#[derive(Debug, Clone)]
pub(super) struct Pending<'c> {
    /// Borrowed from the catalog when it knows the method.
    pub(super) method: Cow<'c, str>,
    pub(super) tool: Option<String>,
    /// The request's label, kept only when no response contract of its
    /// method can judge the response (the finding then names it).
    pub(super) source: Option<String>,
}

/// No request: sequence numbers start at 1, and 0 is never in the window.
const NONE: u64 = 0;

/// How many entries the map of ids holds before the ones naming no waiting
/// request are swept out (leaving at most [`PENDING_WINDOW`]): its table,
/// reserved at once, then never grows, and stays small enough for the cache
/// (7/8 full at most: 8,192 buckets).
const SWEEP_AT: usize = PENDING_WINDOW * 7 / 4;

/// What a pending request leaves for its response (small: the common
/// request is its borrowed method alone).
#[derive(Debug, Default)]
pub(super) enum Held<'c> {
    /// Answered, forgotten, or never filled.
    #[default]
    Empty,
    /// The common request: a method borrowed from the catalog, no tool, no label.
    Method(&'c str),
    /// Anything else.
    Full(Box<Pending<'c>>),
}

/// A request in the ring.
#[derive(Debug)]
struct Slot<'c> {
    /// The previous request of its id when it entered the map ([`NONE`] if
    /// none, or not entered yet).
    prev: u64,
    held: Held<'c>,
    /// Its id until it enters the map (then moved there).
    key: IdKey,
}

impl Default for Slot<'_> {
    fn default() -> Self {
        Slot { prev: NONE, held: Held::Empty, key: IdKey::EMPTY }
    }
}

/// See the module's documentation.
pub(super) struct Waiting<'c> {
    /// Request `seq` at `slots[seq % PENDING_WINDOW]` (empty until the first request).
    slots: Box<[Slot<'c>]>,
    /// Per slot, a bit: set when it may own memory on the heap (a
    /// [`Held::Full`] or a long id), so that a push over a slot that owns
    /// none writes it without reading it first: the slot a window back has
    /// left the cache, and reading it (to drop what it holds) stalled every
    /// request.
    owns: Box<[u64]>,
    /// Per slot, the heap bytes its request owns while it is counted.
    costs: Box<[u32]>,
    /// The sum of `costs`: what the requests in the window own on the heap.
    heap: usize,
    /// The heap bytes of keys of requests forgotten under the budget that
    /// the map may still hold (until its next sweep).
    garbage: usize,
    /// The requests before this one were forgotten under the budget.
    evicted: u64,
    /// The next request's sequence number.
    next: u64,
    /// The first request of the current file.
    first: u64,
    /// The requests before this one have entered `latest` (or were
    /// forgotten first).
    entered: u64,
    /// Per id, its latest request: waiting, or not (answered without a
    /// previous one waiting, forgotten, or of an earlier file).
    latest: HashMap<IdKey, u64, Hasher>,
}

impl Default for Waiting<'_> {
    fn default() -> Self {
        Waiting {
            slots: Box::default(),
            owns: Box::default(),
            costs: Box::default(),
            heap: 0,
            garbage: 0,
            evicted: 1,
            next: 1,
            first: 1,
            entered: 1,
            latest: HashMap::default(),
        }
    }
}

impl<'c> From<Pending<'c>> for Held<'c> {
    fn from(p: Pending<'c>) -> Self {
        match p {
            Pending { method: Cow::Borrowed(method), tool: None, source: None } => Held::Method(method),
            p => Held::Full(Box::new(p)),
        }
    }
}

impl Held<'_> {
    /// The method and the label a pending request holds, as comparable text.
    pub(super) fn shown(&self) -> (String, Option<String>) {
        match self {
            Held::Empty => (String::new(), None),
            Held::Method(method) => (method.to_string(), None),
            Held::Full(p) => (p.method.to_string(), p.source.clone()),
        }
    }
}

impl<'c> Waiting<'c> {
    /// The first request still in the window.
    fn low(&self) -> u64 {
        self.first.max(self.evicted).max(self.next.saturating_sub(PENDING_WINDOW as u64))
    }

    /// The heap bytes a request of this id holding this owns.
    fn cost(id: &IdRef<'_>, held: &Held<'_>) -> usize {
        let key = if id.body.len() >= IdKey::INLINE { id.body.len() + 1 } else { 0 };
        let held = match held {
            Held::Full(p) => {
                let method = if matches!(p.method, Cow::Owned(_)) { p.method.len() } else { 0 };
                std::mem::size_of::<Pending<'_>>()
                    + method
                    + p.tool.as_ref().map_or(0, String::len)
                    + p.source.as_ref().map_or(0, String::len)
            }
            _ => 0,
        };
        key + held
    }

    /// Forgets the oldest requests in the window until what they own fits
    /// the budget; sweeps the map once the keys it keeps of them would not.
    fn evict(&mut self) {
        while self.heap > HEAP_BUDGET {
            let seq = self.low();
            let i = (seq % PENDING_WINDOW as u64) as usize;
            let cost = std::mem::take(&mut self.costs[i]) as usize;
            self.heap -= cost;
            self.garbage += cost;
            self.slots[i] = Slot::default();
            self.owns[i / 64] &= !(1u64 << (i % 64));
            self.evicted = seq + 1;
        }
        if self.garbage > GARBAGE_BUDGET {
            let low = self.low();
            self.latest.retain(|_, seq| *seq >= low);
            self.latest.shrink_to(SWEEP_AT);
            self.garbage = 0;
        }
    }

    /// Forgets every pending request.
    pub(super) fn clear(&mut self) {
        for seq in self.low()..self.next {
            if let Some(slot) = self.slots.get_mut((seq % PENDING_WINDOW as u64) as usize) {
                slot.held = Held::Empty;
            }
        }
        self.costs.iter_mut().for_each(|c| *c = 0);
        self.heap = 0;
        self.first = self.next;
        self.entered = self.next;
        self.latest.clear();
    }

    /// A request of id `id` now waits; the one a window before it is forgotten.
    pub(super) fn push(&mut self, id: &IdRef<'_>, held: Held<'c>) {
        if self.slots.is_empty() {
            self.slots = std::iter::repeat_with(Slot::default).take(PENDING_WINDOW).collect();
            self.owns = vec![0; PENDING_WINDOW.div_ceil(64)].into_boxed_slice();
            self.costs = vec![0; PENDING_WINDOW].into_boxed_slice();
            self.latest.reserve(SWEEP_AT);
        }
        // The slot's request, a window before, is forgotten.
        let i = (self.next % PENDING_WINDOW as u64) as usize;
        let (word, bit) = (i / 64, 1u64 << (i % 64));
        let owns = matches!(held, Held::Full(_)) || id.body.len() >= IdKey::INLINE;
        let cost = if owns { Self::cost(id, &held).min(u32::MAX as usize) } else { 0 };
        // The forgotten request's bytes leave the count, the new one's enter.
        self.heap -= std::mem::replace(&mut self.costs[i], cost as u32) as usize;
        self.heap += cost;
        let slot = &mut self.slots[i];
        if self.owns[word] & bit != 0 {
            // What the forgotten request owns is dropped.
            *slot = Slot::default();
        }
        // The slot is written in place, its old values unread: they own
        // nothing (the forgotten values are never loaded).
        std::mem::forget(std::mem::replace(&mut slot.held, held));
        slot.key.write(id.tag, &id.body);
        slot.prev = NONE;
        if owns {
            self.owns[word] |= bit;
        } else {
            self.owns[word] &= !bit;
        }
        self.next += 1;
        if self.heap > HEAP_BUDGET {
            self.evict();
        }
    }

    /// Enters the requests pushed since the last call, those still in the
    /// window, into the map of ids, in order.
    fn enter(&mut self) {
        let low = self.low();
        for seq in self.entered.max(low)..self.next {
            let slot = &mut self.slots[(seq % PENDING_WINDOW as u64) as usize];
            let key = std::mem::replace(&mut slot.key, IdKey::EMPTY);
            slot.prev = self.latest.insert(key, seq).unwrap_or(NONE);
            if self.latest.len() >= SWEEP_AT {
                self.latest.retain(|_, seq| *seq >= low);
            }
        }
        self.entered = self.next;
    }

    /// The latest still-unanswered request of this id, now answered.
    pub(super) fn answer(&mut self, key: &IdKey) -> Option<Pending<'c>> {
        if self.entered < self.next {
            self.enter();
        }
        let (low, next) = (self.low(), self.next);
        let at = |seq: u64| (low <= seq && seq < next).then_some((seq % PENDING_WINDOW as u64) as usize);
        let Waiting { slots, latest, .. } = self;
        let latest = latest.get_mut(key)?;
        let slot = slots.get_mut(at(*latest)?)?;
        let prev = slot.prev;
        let p = match std::mem::take(&mut slot.held) {
            Held::Empty => return None,
            Held::Method(method) => Pending { method: Cow::Borrowed(method), tool: None, source: None },
            Held::Full(p) => *p,
        };
        // The previous request of the id, if it is still waiting, is now
        // the latest; else the entry names none (swept out later).
        let waits = at(prev).and_then(|i| slots.get(i)).is_some_and(|s| !matches!(s.held, Held::Empty));
        *latest = if waits { prev } else { NONE };
        Some(p)
    }
}

impl<'c> Waiting<'c> {
    /// The methods of the latest two still-unanswered requests of this id
    /// (the latest first), without answering either.
    pub(super) fn latest_two(&mut self, key: &IdKey) -> [Option<Cow<'_, str>>; 2] {
        if self.entered < self.next {
            self.enter();
        }
        let (low, next) = (self.low(), self.next);
        let at = |seq: u64| (low <= seq && seq < next).then_some((seq % PENDING_WINDOW as u64) as usize);
        let Some(&top) = self.latest.get(key) else { return [None, None] };
        let method = |held: &Held<'c>| -> Option<Cow<'_, str>> {
            match held {
                Held::Empty => None,
                Held::Method(m) => Some(Cow::Borrowed(*m)),
                Held::Full(p) => Some(Cow::Owned(p.method.to_string())),
            }
        };
        let Some(first) = at(top).and_then(|i| self.slots.get(i)) else { return [None, None] };
        let second = at(first.prev).and_then(|i| self.slots.get(i)).and_then(|s| method(&s.held));
        [method(&first.held), second]
    }

    /// The request before the latest of this id, now answered: the latest
    /// stays waiting, the one before that next under it.
    pub(super) fn answer_second(&mut self, key: &IdKey) -> Option<Pending<'c>> {
        if self.entered < self.next {
            self.enter();
        }
        let (low, next) = (self.low(), self.next);
        let at = |seq: u64| (low <= seq && seq < next).then_some((seq % PENDING_WINDOW as u64) as usize);
        let top = at(*self.latest.get(key)?)?;
        let second = at(self.slots[top].prev)?;
        let p = match std::mem::take(&mut self.slots[second].held) {
            Held::Empty => return None,
            Held::Method(method) => Pending { method: Cow::Borrowed(method), tool: None, source: None },
            Held::Full(p) => *p,
        };
        // The one under the second, if it still waits, is now under the latest.
        let under = self.slots[second].prev;
        let waits = at(under).and_then(|i| self.slots.get(i)).is_some_and(|s| !matches!(s.held, Held::Empty));
        self.slots[top].prev = if waits { under } else { NONE };
        Some(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The same semantics the plain way: every request of the file in
    /// order, the latest unanswered one of an id among the last
    /// [`PENDING_WINDOW`] answering.
    #[derive(Default)]
    struct Model(Vec<(IdRef<'static>, String, bool)>);

    /// An id of `tag` and `body`, owned.
    fn id_of(tag: u8, body: String) -> IdRef<'static> {
        IdRef { tag, body: Cow::Owned(body.into_bytes()) }
    }

    impl Model {
        fn answer(&mut self, key: &IdRef<'_>) -> Option<String> {
            let low = self.0.len().saturating_sub(PENDING_WINDOW);
            let (_, what, answered) = self.0[low..].iter_mut().rev().find(|(k, _, answered)| k == key && !answered)?;
            *answered = true;
            Some(what.clone())
        }
    }

    /// What a pending request holds, as comparable text.
    fn shown(p: &Pending<'_>) -> String {
        format!("{}|{:?}|{:?}", p.method, p.tool, p.source)
    }

    /// A small deterministic generator (xorshift64*).
    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: u64) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) % n
        }
    }

    /// Seeded random requests and responses, ids from few (repeated, a
    /// stack each) to many (most forgotten past the window), short and long
    /// (kept inline or not), common requests and ones that hold more, and
    /// files starting over: the ring and its map answer as the model does.
    #[test]
    fn waiting_requests_answer_as_a_plain_list_of_them_does() {
        const METHODS: [&str; 3] = ["ping", "tools/call", "tools/list"];
        let long = "x".repeat(IdKey::INLINE + 5);
        let mut answered = 0;
        for seed in 1..=12u64 {
            let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
            let mut waiting = Waiting::default();
            let mut model = Model::default();
            // Ids from 0..ids; requests per response.
            let (ids, requests) = match seed % 4 {
                0 => (3, 2),
                1 => (40, 1),
                2 => (3 * PENDING_WINDOW as u64, 3),
                _ => (5 * PENDING_WINDOW as u64, 20),
            };
            for step in 0..(3 * PENDING_WINDOW as u64) {
                let n = rng.below(ids);
                let mut key = match n % 7 {
                    0 => id_of(b's', format!("{long}{n}")),
                    1 | 2 => id_of(b's', n.to_string()),
                    _ => id_of(b'n', n.to_string()),
                };
                let edge = (model.0.len() + 2).checked_sub(PENDING_WINDOW + rng.below(5) as usize);
                if rng.below(requests + 1) < requests {
                    let method = METHODS[rng.below(3) as usize];
                    let p = match rng.below(4) {
                        0 => Pending { method: Cow::Owned(format!("{method}/{step}")), tool: None, source: None },
                        1 => Pending { method: Cow::Borrowed(method), tool: Some(format!("t{step}")), source: None },
                        2 => Pending { method: Cow::Borrowed(method), tool: None, source: Some(format!("f:{step}")) },
                        _ => Pending { method: Cow::Borrowed(method), tool: None, source: None },
                    };
                    model.0.push((key.clone(), shown(&p), false));
                    waiting.push(&key, p.into());
                } else {
                    // Often the id of a request at the edge of the window (2 in it, 3 out).
                    if let Some(at) = edge.filter(|_| rng.below(3) == 0) {
                        key = model.0[at].0.clone();
                    }
                    let want = model.answer(&key);
                    answered += usize::from(want.is_some());
                    assert_eq!(waiting.answer(&key.key()).as_ref().map(shown), want, "seed {seed} step {step}");
                }
                if rng.below(5 * PENDING_WINDOW as u64) == 0 {
                    waiting.clear();
                    model.0.clear();
                }
                assert!(waiting.latest.len() <= SWEEP_AT);
            }
            // A slot that owns heap memory has its bit set (else a push over
            // it would leak what it holds).
            for (i, slot) in waiting.slots.iter().enumerate() {
                let heap = matches!(slot.held, Held::Full(_)) || matches!(slot.key, IdKey::Heap(_));
                assert!(!heap || waiting.owns[i / 64] & (1 << (i % 64)) != 0, "seed {seed} slot {i}");
            }
        }
        assert!(answered > 10_000, "{answered} answered");
    }

    /// A key written over an inline one holds exactly its tag and body, the
    /// rest of its array zero (keys compare every byte of their array: none
    /// of the old key's stays); a body of `INLINE - 1` bytes is the longest
    /// kept inline, a longer one goes to the heap.
    #[test]
    fn a_key_written_in_place_holds_exactly_its_bytes() {
        let mut key = IdKey::new(b's', b"a-much-longer-request-id");
        key.write(b'n', b"7");
        let mut want = [0u8; IdKey::INLINE];
        want[..2].copy_from_slice(b"n7");
        assert_eq!(key, IdKey::Inline(2, want));
        assert_eq!(key.bytes(), b"n7");
        let widest = "y".repeat(IdKey::INLINE - 1);
        key.write(b's', widest.as_bytes());
        let mut want = [b'y'; IdKey::INLINE];
        want[0] = b's';
        assert_eq!(key, IdKey::Inline(IdKey::INLINE as u8, want));
        let long = "x".repeat(IdKey::INLINE);
        key.write(b's', long.as_bytes());
        let heap: Box<[u8]> = std::iter::once(b's').chain(long.bytes()).collect();
        assert_eq!(key, IdKey::Heap(heap));
    }

    /// A request is answered until [`PENDING_WINDOW`] later requests have
    /// come, whatever their ids; an id's earlier request answers after its
    /// latest, and not once it is forgotten; a new file forgets them all.
    #[test]
    fn the_window_and_the_stack_of_an_id() {
        let p = |method| Pending { method: Cow::Borrowed(method), tool: None, source: None };
        let id = |n: usize| id_of(b'n', n.to_string());
        let first = id_of(b's', "first".to_string());
        let w = PENDING_WINDOW;
        for (later, answers) in [(w - 2, &["b", "a"][..]), (w - 1, &["b"]), (w, &[])] {
            let mut waiting = Waiting::default();
            waiting.push(&first, p("a").into());
            waiting.push(&first, Pending { tool: Some("t".into()), ..p("b") }.into());
            for n in 0..later {
                waiting.push(&id(n), p("ping").into());
            }
            let got: Vec<_> = std::iter::from_fn(|| waiting.answer(&first.key()).map(|p| p.method)).collect();
            assert_eq!(got, answers, "{later} later requests");
            assert_eq!(waiting.answer(&id(later - 1).key()).map(|p| p.method), Some(Cow::Borrowed("ping")));
            assert!(waiting.answer(&id(later - 1).key()).is_none());
            waiting.clear();
            assert!(waiting.answer(&id(later - 2).key()).is_none());
            waiting.push(&id(later - 2), p("again").into());
            assert_eq!(waiting.answer(&id(later - 2).key()).map(|p| p.method), Some(Cow::Borrowed("again")));
        }
    }
}

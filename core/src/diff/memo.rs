//! What a comparison of two subschemas on their own found, remembered per
//! node pair: the schema diff judges a pair of union or `allOf` members by
//! comparing them afresh (are they alike?), and a definition that uses the
//! next one twice would otherwise be compared afresh once per path to it,
//! doubling at every level. With the memo each pair is compared once per
//! nesting depth (the depth decides where the comparison gives up), so the
//! work is linear in the number of node pairs reached.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;

use super::detect::Detected;
use crate::contract::schema::Id;

/// A fresh comparison's key: the node of each revision, the nesting depth,
/// and what the comparison is judged on ([`Within`]).
type Key = (Option<Id>, Option<Id>, usize, Within);

/// What a fresh comparison is judged on: every value (`None`), or as a
/// conjunct, only the value classes the instance can hold there (`Some`):
/// the same pair compared on fewer classes can find fewer changes.
pub(super) type Within = Option<u8>;

/// Remembered fresh comparisons of one diff, shared by every nested
/// comparison of it.
#[derive(Default)]
pub(super) struct Memo {
    found: RefCell<HashMap<Key, Rc<[Detected]>>>,
    /// Fresh comparisons computed (not answered from the memo).
    computed: Cell<usize>,
    /// Node pairs compared, in every comparison of the diff.
    steps: Cell<usize>,
}

impl Memo {
    /// The changes between `a` and `b` compared on their own at nesting
    /// depth `nested`, judged on `within`: remembered, or computed by
    /// `compare` and remembered.
    pub(super) fn changes(
        &self,
        a: Option<Id>,
        b: Option<Id>,
        nested: usize,
        within: Within,
        compare: impl FnOnce() -> Vec<Detected>,
    ) -> Vec<Detected> {
        let key = (a, b, nested, within);
        if let Some(found) = self.found.borrow().get(&key) {
            return found.to_vec();
        }
        self.computed.set(self.computed.get() + 1);
        let found: Rc<[Detected]> = compare().into();
        self.found.borrow_mut().insert(key, Rc::clone(&found));
        found.to_vec()
    }

    /// How many fresh comparisons were computed.
    pub(super) fn computed(&self) -> usize {
        self.computed.get()
    }

    /// Counts one node pair compared.
    pub(super) fn step(&self) {
        self.steps.set(self.steps.get() + 1);
    }

    /// How many node pairs were compared.
    pub(super) fn steps(&self) -> usize {
        self.steps.get()
    }
}

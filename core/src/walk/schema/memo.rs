//! What re-reading a value has found, shared by every walk of one body.

use super::*;

/// The findings of the value at an offset under a node.
pub(super) type FindingsAt = HashMap<(Id, usize), Vec<Finding>>;

/// What re-reading a value has found, by (node, value offset): a value's
/// path is fixed by its offset, so neither depends on how it was reached.
#[derive(Default)]
pub(crate) struct Memo {
    /// Verdicts of first-fault walks.
    pub(super) valid: RefCell<Verdicts>,
    /// Findings of collect walks (for the messages of failed unions),
    /// the map made at the first (a map's random keys are read from a
    /// thread-local: no cost to the walk that never re-reads a value).
    pub(super) findings: RefCell<Option<FindingsAt>>,
    /// The top-level members a caller asked about ([`collect_top`]).
    pub(super) top: Option<RefCell<TopMembers>>,
    /// (node, value) visits of every walk on this memo: what tests hold
    /// linear in the schema's size times the data's ([`super::counted`]).
    pub(super) steps: std::cell::Cell<usize>,
    /// The dynamic scope and the scopes met so far (a schema with a dynamic
    /// `$dynamicRef` only), made at the first resource entered: every other
    /// body's memo holds one empty pointer, and drops it as one.
    pub(super) dynamic: RefCell<Option<Box<Dynamic>>>,
}

/// The dynamic scope of the walks on one memo, and the scopes met so far.
#[derive(Default)]
pub(crate) struct Dynamic {
    /// The schema resources entered on the way to the value being read,
    /// each once, outermost first (only the outermost occurrence of a
    /// resource decides a `$dynamicRef`). Every walk on the memo shares it:
    /// a walk that re-reads a value starts from the scope of the walk that
    /// asked, and each entry is popped as its value ends.
    pub(super) scope: Vec<u32>,
    /// Each scope met, with its index: a verdict is memoised by its
    /// scope's index too (a map made at the first, as `findings`).
    pub(super) scopes: HashMap<Vec<u32>, usize>,
}

impl Memo {
    /// Enters `resource` into the dynamic scope; `false` when it was there
    /// already (nothing to pop).
    pub(super) fn enter(&self, resource: u32) -> bool {
        let mut dynamic = self.dynamic.borrow_mut();
        let scope = &mut dynamic.get_or_insert_with(Box::default).scope;
        if scope.contains(&resource) {
            return false;
        }
        scope.push(resource);
        true
    }

    /// Leaves the resource [`Memo::enter`] entered last.
    pub(super) fn leave(&self) {
        if let Some(d) = self.dynamic.borrow_mut().as_mut() {
            d.scope.pop();
        }
    }

    /// The index of the current dynamic scope among those met so far.
    pub(super) fn scope_index(&self) -> usize {
        let mut dynamic = self.dynamic.borrow_mut();
        let d = dynamic.get_or_insert_with(Box::default);
        let next = d.scopes.len();
        match d.scopes.get(&d.scope) {
            Some(&i) => i,
            None => {
                let scope = d.scope.clone();
                *d.scopes.entry(scope).or_insert(next)
            }
        }
    }
}

/// Verdicts by (node, value offset): the first [`Verdicts::INLINE`] in a
/// short list searched linearly (a body has few membership tests: no
/// hashing), the rest in a hash map. The list is allocated at its first
/// verdict, once: most bodies (a `tools/call` request) record none, and a
/// fixed array zeroed per walk cost them a `memset` of 384 bytes each.
/// A verdict is the offset where the value ends when it is valid (a value
/// never ends at 0), 0 when it is not.
#[derive(Default)]
pub(crate) struct Verdicts {
    pub(super) inline: Vec<(Id, usize, usize)>,
    /// Made at the first verdict past the list (as `Memo::findings`).
    pub(super) more: Option<HashMap<(Id, usize), usize>>,
}

impl Verdicts {
    const INLINE: usize = 16;

    #[inline]
    pub(super) fn get(&self, id: Id, start: usize) -> Option<usize> {
        if let Some(&(_, _, v)) = self.inline.iter().find(|(i, s, _)| *i == id && *s == start) {
            return Some(v);
        }
        self.more.as_ref()?.get(&(id, start)).copied()
    }

    #[inline]
    pub(super) fn insert(&mut self, id: Id, start: usize, v: usize) {
        if self.inline.len() < Verdicts::INLINE {
            if self.inline.capacity() == 0 {
                self.inline.reserve_exact(Verdicts::INLINE);
            }
            self.inline.push((id, start, v));
        } else {
            self.more.get_or_insert_with(HashMap::new).insert((id, start), v);
        }
    }
}

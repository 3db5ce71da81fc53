//! Where the top-level members of a body are, noted by the walk that reads
//! it, for routing a JSON-RPC message without reading it again.

use super::*;

/// Where the values of some top-level members of a document sit, as the
/// walk read them: a router that picked the contract by one member learns
/// the others from the walk, without reading the document a second time
/// (`protocolarc::traffic`). Every read of the document's root object (a
/// union member, an `allOf` schema) notes the same places.
#[derive(Debug, Clone)]
pub struct TopMembers {
    pub(super) keys: &'static [&'static str],
    /// Per key, the value's bytes as `start..end` (`start` may precede
    /// white space); `end` 0 when absent (a value never ends at 0). Four
    /// bytes each: the members are moved with every message a router reads;
    /// a span past 4 GiB makes the walk unsure.
    pub(super) spans: [(u32, u32); TopMembers::MAX],
    /// Per bucket of a key's length and first byte ([`TopMembers::bucket`]),
    /// the watched keys in it as bits: a key is compared only with those
    /// (most keys of a message, with none), with no loop whose exit
    /// depends on the key (it mispredicted about six times a message).
    pub(super) buckets: [u8; TopMembers::BUCKETS],
    /// A key appeared twice, or the root object has an escaped key (which
    /// may spell one of them).
    pub(super) unsure: bool,
    /// The root object was read.
    pub(super) read: bool,
}

impl TopMembers {
    /// At most this many keys.
    pub const MAX: usize = 8;

    const BUCKETS: usize = 32;

    /// Watches `keys` (at most [`TopMembers::MAX`]).
    pub const fn new(keys: &'static [&'static str]) -> Self {
        assert!(keys.len() <= TopMembers::MAX, "at most TopMembers::MAX keys");
        let mut buckets = [0u8; TopMembers::BUCKETS];
        let mut i = 0;
        while i < keys.len() {
            buckets[Self::bucket(keys[i].as_bytes())] |= 1 << i;
            i += 1;
        }
        TopMembers { keys, spans: [(0, 0); TopMembers::MAX], buckets, unsure: false, read: false }
    }

    /// A key's bucket: its length plus its first byte, modulo the buckets.
    #[inline(always)]
    const fn bucket(key: &[u8]) -> usize {
        let first = if key.is_empty() { 0 } else { key[0] as usize };
        (key.len() + first) % TopMembers::BUCKETS
    }

    /// The raw value of `keys[i]` in `data` (white space trimmed), `Some(None)`
    /// when it is absent. `None` when the walk cannot tell: the root object
    /// was not read (the document is not an object, or the schema did not
    /// look inside it), a watched key appeared twice, or a key was escaped.
    #[inline]
    pub fn get<'d>(&self, data: &'d [u8], i: usize) -> Option<Option<&'d [u8]>> {
        if self.unsure || !self.read {
            return None;
        }
        let (start, end) = self.spans[i];
        let Some(mut v) = data.get(start as usize..end as usize).filter(|_| end > 0) else {
            return Some(None);
        };
        while let [b' ' | b'\t' | b'\r' | b'\n', rest @ ..] = v {
            v = rest;
        }
        Some(Some(v))
    }

    /// Inline: a call per member of the root object (pushing and popping
    /// six registers each time) cost more than the lookup.
    #[inline(always)]
    pub(super) fn note(&mut self, raw: &[u8], escaped: bool, span: (usize, usize)) {
        if escaped {
            self.unsure = true;
            return;
        }
        // Compared inline (lengths first, then words), not by `memcmp`,
        // with the keys of its bucket only.
        let mut candidates = self.buckets[Self::bucket(raw)];
        let mut found = None;
        while candidates != 0 {
            let i = candidates.trailing_zeros() as usize;
            candidates &= candidates - 1;
            if same_bytes(self.keys[i].as_bytes(), raw) {
                found = Some(i);
                break;
            }
        }
        if let Some(i) = found {
            let (Ok(start), Ok(end)) = (u32::try_from(span.0), u32::try_from(span.1)) else {
                self.unsure = true;
                return;
            };
            match self.spans[i] {
                (_, 0) => self.spans[i] = (start, end),
                s if s != (start, end) => self.unsure = true,
                _ => {}
            }
        }
    }
}

//! Request ids as responses pair with them: the key the pending requests
//! keep ([`IdKey`]), the id as its message holds it ([`IdRef`]), and the
//! side that sent it ([`Side`]).

use std::borrow::Cow;

use serde_json::value::RawValue;

use super::reader::text;

/// The hasher of the maps looked up once or twice per message: seeded per
/// process (ids come from the capture), and several times faster than the
/// standard library's on short keys.
pub(super) type Hasher = foldhash::fast::RandomState;

/// A request id as responses pair with it: a string by its decoded text
/// (tagged `s`), a number as written (`n`); a short one (most are) inline,
/// without allocating.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum IdKey {
    Inline(u8, [u8; IdKey::INLINE]),
    Heap(Box<[u8]>),
}

impl IdKey {
    pub(super) const INLINE: usize = 30;

    /// No id (an empty slot's): equal to no key [`IdKey::new`] makes.
    pub(super) const EMPTY: IdKey = IdKey::Inline(0, [0; IdKey::INLINE]);

    pub(super) fn new(tag: u8, body: &[u8]) -> Self {
        let mut key = IdKey::EMPTY;
        key.write(tag, body);
        key
    }
}

impl IdKey {
    /// Writes the key of `tag` and `body` over this one, which owns nothing
    /// (an inline key), without reading it: the bytes go straight to their
    /// place (a pending request's slot).
    /// The one place a key's bytes are laid out ([`IdKey::new`] too).
    pub(super) fn write(&mut self, tag: u8, body: &[u8]) {
        debug_assert!(matches!(self, IdKey::Inline(..)), "a key written over one that owns memory would leak it");
        let n = body.len();
        if n < Self::INLINE {
            std::mem::forget(std::mem::replace(self, IdKey::EMPTY));
            if let IdKey::Inline(len, bytes) = self {
                bytes[0] = tag;
                bytes[1..=n].copy_from_slice(body);
                *len = n as u8 + 1;
            }
        } else {
            let heap = IdKey::Heap([&[tag][..], body].concat().into_boxed_slice());
            std::mem::forget(std::mem::replace(self, heap));
        }
    }

    pub(super) fn bytes(&self) -> &[u8] {
        match self {
            IdKey::Inline(len, bytes) => &bytes[..usize::from(*len)],
            IdKey::Heap(bytes) => bytes,
        }
    }
}

impl std::hash::Hash for IdKey {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write(self.bytes());
    }
}

/// A request id as its message holds it: its tag (`s` a string, `n` a
/// number) and its body, borrowed when it needs no decoding. What moves
/// with a parsed message is these few words; the [`IdKey`] the pending
/// requests keep is written once, in its slot ([`Waiting::push`](super::waiting::Waiting::push)): built
/// here and moved, its bytes written one by one were read back sixteen at
/// a time, a stalled load per request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct IdRef<'a> {
    pub(super) tag: u8,
    pub(super) body: Cow<'a, [u8]>,
}

impl<'a> IdRef<'a> {
    pub(super) fn borrowed(tag: u8, body: &'a [u8]) -> Self {
        IdRef { tag, body: Cow::Borrowed(body) }
    }

    /// The key the pending requests hold.
    pub(super) fn key(&self) -> IdKey {
        IdKey::new(self.tag, &self.body)
    }
}

/// Who sent a message: a raw line does not say; a recorded line does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// A raw line.
    Unknown,
    /// `"from": "client"`.
    Client,
    /// `"from": "server"`.
    Server,
}

impl Side {
    /// The side that answers this side's requests.
    pub(super) fn other(self) -> Side {
        match self {
            Side::Client => Side::Server,
            Side::Server => Side::Client,
            Side::Unknown => Side::Unknown,
        }
    }

    /// A key's tag for an id of kind `kind` (`s`, `n`) sent by this side:
    /// the kind as is for a raw line, upper case for the client, its high
    /// bit set for the server, so that the sides never share a key.
    pub(super) fn tag(self, kind: u8) -> u8 {
        match self {
            Side::Unknown => kind,
            Side::Client => kind.to_ascii_uppercase(),
            Side::Server => kind | 0x80,
        }
    }

    /// The side and kind a key's tag holds.
    pub(super) fn of(tag: u8) -> (Side, u8) {
        if tag & 0x80 != 0 {
            (Side::Server, tag & 0x7f)
        } else if tag.is_ascii_uppercase() {
            (Side::Client, tag.to_ascii_lowercase())
        } else {
            (Side::Unknown, tag)
        }
    }
}

impl IdRef<'_> {
    /// This id as sent by `side` in `session`: a session's name goes before
    /// the id's body, ended by a byte no UTF-8 text holds, so that sessions
    /// never share a key.
    pub(super) fn sent(self, side: Side, session: Option<&str>) -> Self {
        let tag = side.tag(Side::of(self.tag).1);
        match session {
            None => IdRef { tag, body: self.body },
            Some(s) => IdRef { tag, body: Cow::Owned([s.as_bytes(), &[0xff], &self.body].concat()) },
        }
    }

    /// The key of the same id sent by `side`.
    pub(super) fn key_from(&self, side: Side) -> IdKey {
        IdKey::new(side.tag(Side::of(self.tag).1), &self.body)
    }
}

/// Equal ids pair: strings by their decoded text, numbers as written.
pub(super) fn id_ref(id: &RawValue) -> IdRef<'_> {
    match text(id) {
        Some(Cow::Borrowed(s)) => IdRef::borrowed(b's', s.as_bytes()),
        Some(Cow::Owned(s)) => IdRef { tag: b's', body: Cow::Owned(s.into_bytes()) },
        None => IdRef::borrowed(b'n', id.get().as_bytes()),
    }
}

//! The live proxy behind `cargo protocolarc proxy` (SPEC §14): every
//! JSON-RPC message between an agent-protocol client and server judged in
//! flight by the catalog of the negotiated protocol revision and the pinned
//! tool contracts, forwarded unchanged (observe) or refused, replaced or
//! dropped (enforce).
//!
//! [`judge::Judge`] is the one place a message is judged: the transports
//! ([`stdio`], and HTTP beside it) only cut the wire into messages and carry
//! out the judge's [`Action`]. A judge holds one session; nothing is shared
//! between sessions but the read-only [`Config`].

pub mod http;
pub mod judge;
pub mod stdio;

mod answer;
mod behind;
mod catalogs;
mod clock;
mod enforce;
mod events;
mod message;
mod pinned;

pub use judge::{Action, Config, Judge, Options, Side};

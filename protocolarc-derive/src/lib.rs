//! The proc-macro half of ProtocolArc: `#[protocolarc::contract("...json")]`
//! will turn a contract file into typed serde structs and a generated
//! validator (SPEC §8). Users depend on `protocolarc`, which re-exports it.
//!
//! This crate holds only its skeleton until the code generator lands: it
//! exports nothing yet, so nothing can call a half-built macro.

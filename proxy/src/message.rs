//! What the judge makes of a message: the side it came from, what the
//! transport does with it, and what enforcing needs to know of its failures
//! and of the pinned tools.

use protocolarc::Finding;

use crate::pinned::Refusal;

/// The side a message comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// The client (the MCP host, the A2A client).
    Client,
    /// The server (the MCP server, the A2A agent).
    Server,
}

impl Side {
    /// `client` or `server`, as a recorded line says it.
    pub fn name(self) -> &'static str {
        match self {
            Side::Client => "client",
            Side::Server => "server",
        }
    }
}

/// What the transport does with a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// Forward the bytes unchanged.
    Forward,
    /// Do not forward; send these bytes back to the side the message came from.
    Answer(Vec<u8>),
    /// Forward these bytes instead (a result replaced by an error, a filtered tools/list).
    Replace(Vec<u8>),
    /// Do not forward; nothing sent back (a failing notification).
    Drop,
}

/// A message's (or batch element's) failing verdict, kept past the line.
pub(crate) struct Failing {
    pub(crate) element: Option<usize>,
    pub(crate) findings: Vec<Finding>,
}

/// What pinned tools ask of a message.
pub(crate) enum Pin {
    /// A `tools/list` result whose listed tools (by index) must go.
    List { element: Option<usize>, refusals: Vec<Refusal> },
    /// A `tools/call` of a refused tool.
    Call { element: Option<usize>, finding: Finding },
}

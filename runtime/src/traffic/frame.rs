//! The JSON-RPC frame each protocol revision's official schema defines:
//! what an id may be, whether a batch is a message, whether an error
//! response may leave out its id, what a progress token may be. One record
//! per revision; a revision the table does not name gets its protocol's
//! newest record's rules (an MCP revision after the last named one keeps
//! the last one's frame), and a protocol it does not name JSON-RPC 2.0's.

/// The frame of one protocol revision.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Frame {
    /// A number id is an integer (`RequestId` is `string | integer`).
    pub integer_ids: bool,
    /// A JSON array line is a batch (`JSONRPCMessage` has batches).
    pub batches: bool,
    /// An error response may leave out `id` (`JSONRPCErrorResponse`
    /// does not require it).
    pub error_without_id: bool,
    /// `params._meta.progressToken` is a string or an integer.
    pub progress_token: bool,
}

/// JSON-RPC 2.0 itself: any number id, batches, an error's id required.
const JSON_RPC: Frame = Frame { integer_ids: false, batches: true, error_without_id: false, progress_token: false };

/// MCP as its schemas define it, before the error response's id became optional.
const MCP: Frame = Frame { integer_ids: true, batches: false, error_without_id: false, progress_token: true };

/// Per protocol and revision (as the catalog's directories name them),
/// from the vendored official schemas (`protocols/vendor/`).
const FRAMES: &[(&str, &str, Frame)] = &[
    ("mcp", "2024-11-05", MCP),
    // The one revision whose `JSONRPCMessage` has `JSONRPCBatchRequest` and `JSONRPCBatchResponse`.
    ("mcp", "2025-03-26", Frame { batches: true, ..MCP }),
    ("mcp", "2025-06-18", MCP),
    ("mcp", "2025-11-25", Frame { error_without_id: true, ..MCP }),
    ("mcp", "2026-07-28", Frame { error_without_id: true, ..MCP }),
    // A2A's `JSONRPCMessage` is one message: no batch; ids as JSON-RPC's.
    ("a2a", "0.2.6", Frame { batches: false, ..JSON_RPC }),
    ("a2a", "0.3.0", Frame { batches: false, ..JSON_RPC }),
    ("a2a", "1.0.1", Frame { batches: false, ..JSON_RPC }),
];

/// The frame of `protocol` at `revision`.
pub(super) fn of(protocol: &str, revision: &str) -> Frame {
    let mut known = FRAMES.iter().filter(|(p, ..)| *p == protocol);
    if let Some((.., f)) = known.clone().find(|(_, r, _)| *r == revision) {
        return *f;
    }
    known.next_back().map_or(JSON_RPC, |(.., f)| *f)
}

/// Whether a number's JSON text is an integer (no fraction, no exponent).
pub(super) fn integer(number: &[u8]) -> bool {
    !number.iter().any(|b| matches!(b, b'.' | b'e' | b'E'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_revision_reads_its_schema_frame() {
        assert!(of("mcp", "2025-03-26").batches);
        assert!(!of("mcp", "2025-06-18").batches && !of("mcp", "2026-07-28").batches);
        assert!(!of("mcp", "2025-06-18").error_without_id && of("mcp", "2025-11-25").error_without_id);
        // A later MCP revision keeps the newest named one's frame.
        assert_eq!(of("mcp", "2099-01-01"), of("mcp", "2026-07-28"));
        assert_eq!(of("vendor", "1"), JSON_RPC);
        assert!(!of("a2a", "0.3.0").batches && !of("a2a", "0.3.0").integer_ids);
        assert!(integer(b"-12") && !integer(b"5.5") && !integer(b"1e3"));
    }
}

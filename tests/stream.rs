//! JSONL is read as a stream: memory stays bounded by one line, whatever the
//! stream's length. A counting allocator measures the peak heap while 40 MB
//! of envelopes flow from a generator (no file, no timing).

use std::alloc::{GlobalAlloc, Layout, System};
use std::io::{BufReader, Read};
use std::sync::atomic::{AtomicUsize, Ordering};

use cargo_protocolarc::render::validation::{write_text, Outcome};
use protocolarc::envelope::read_jsonl;
use protocolarc::{ContractSpec, InputError};

struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let now = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
        PEAK.fetch_max(now, Ordering::Relaxed);
        // SAFETY: forwards the caller's contract to the system allocator.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: forwards the caller's contract to the system allocator.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

/// `count` JSONL envelopes, produced on demand.
struct Lines {
    left: usize,
    pending: Vec<u8>,
    at: usize,
}

impl Read for Lines {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.at == self.pending.len() {
            if self.left == 0 {
                return Ok(0);
            }
            self.left -= 1;
            self.pending.clear();
            let n = self.left;
            let method = if n.is_multiple_of(7) { "tools/list" } else { "tools/call" };
            let line = format!(
                "{{\"contract\": \"mcp.tool_call\", \"revision\": \"1.1.0\", \"data\": {{\"jsonrpc\": \"2.0\", \"id\": {n}, \
                 \"method\": \"{method}\", \"params\": {{\"name\": \"search_docs\", \"arguments\": {{\"query\": \
                 \"{}\", \"limit\": {n}}}}}}}}}\n",
                "x".repeat(300)
            );
            self.pending.extend_from_slice(line.as_bytes());
            self.at = 0;
        }
        let n = buf.len().min(self.pending.len() - self.at);
        buf[..n].copy_from_slice(&self.pending[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

#[test]
fn a_long_jsonl_stream_is_validated_in_bounded_memory() {
    let path = protocolarc_tests::root().join("contracts/mcp_tool_call_1.1.0.json");
    let contract = ContractSpec::from_path(path).expect("contract");
    let count = 100_000;
    let reader = BufReader::new(Lines { left: count, pending: Vec::with_capacity(1024), at: 0 });
    let mut out = std::io::sink();
    let (mut failed, mut bytes) = (0usize, 0usize);
    let baseline = LIVE.load(Ordering::Relaxed);
    PEAK.store(baseline, Ordering::Relaxed);
    let n = read_jsonl(reader, "stream.jsonl", "<generator>", |e| {
        bytes += e.data().len();
        let report = contract.validate_envelope(&e);
        failed += usize::from(!report.is_valid());
        let outcome = Outcome { contract: "mcp.tool_call", revision: "1.1.0", source: e.source(), report: &report };
        write_text(&mut out, &outcome).map_err(|err| InputError::new("sink", err.to_string()))
    })
    .expect("stream reads");
    let peak = PEAK.load(Ordering::Relaxed) - baseline;
    assert_eq!(n, count);
    assert_eq!(failed, count.div_ceil(7), "every seventh envelope names tools/list");
    assert!(bytes > 35_000_000, "the stream carried {bytes} bytes of data");
    assert!(peak < 64 * 1024, "peak heap above baseline was {peak} bytes for a {bytes}-byte stream");
}

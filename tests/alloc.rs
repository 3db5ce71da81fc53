//! The validator allocates nothing for a valid document once warm: a counting
//! global allocator watches 1,000 validations of a valid body.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use protocolarc::ContractSpec;

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: forwards the caller's contract to the system allocator.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwards the caller's contract to the system allocator.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

#[test]
fn a_valid_body_costs_no_allocation() {
    let contract =
        ContractSpec::from_path(protocolarc_tests::root().join("contracts/mcp_tool_call_2.0.0.json")).unwrap();
    let body = br#"{"jsonrpc": "2.0", "id": "req-7", "method": "tools/call",
        "params": {"name": "get_weather", "arguments": {"location": "New York", "units": ["c", "f"], "deep": {"a": [1, 2.5, true, null]}}, "timeout_ms": 2500}}"#;
    assert!(contract.validate_json(body).findings().is_empty(), "the body is valid");
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    let mut valid = 0;
    for _ in 0..1000 {
        valid += usize::from(contract.validate_json(std::hint::black_box(body)).is_valid());
    }
    let allocations = ALLOCATIONS.load(Ordering::Relaxed) - before;
    assert_eq!((valid, allocations), (1000, 0));
    // An invalid body allocates its findings, as it must.
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    assert!(!contract.validate_json(br#"{"jsonrpc": "1.0"}"#).is_valid());
    assert!(ALLOCATIONS.load(Ordering::Relaxed) > before);
}

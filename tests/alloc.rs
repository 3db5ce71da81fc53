//! The validators allocate nothing for a valid document once warm: a
//! counting global allocator watches 1,000 validations of a valid body, by
//! the runtime engine and by the validator generated for the contract. The
//! same allocator measures the memory a large contract takes to load.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicIsize, AtomicUsize, Ordering};

use protocolarc::{Contract, ContractSpec};

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);
/// Bytes the counted thread holds (what it allocated minus what it freed)
/// and the most it held at once, since the counter was last reset.
static LIVE: AtomicIsize = AtomicIsize::new(0);
static PEAK: AtomicIsize = AtomicIsize::new(0);

thread_local! {
    /// Only the test threads' own allocations count (not the harness's
    /// output of another test finishing meanwhile).
    static COUNTED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if COUNTED.try_with(std::cell::Cell::get).unwrap_or(false) {
            ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
            let live = LIVE.fetch_add(layout.size() as isize, Ordering::Relaxed) + layout.size() as isize;
            PEAK.fetch_max(live, Ordering::Relaxed);
        }
        // SAFETY: forwards the caller's contract to the system allocator.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if COUNTED.try_with(std::cell::Cell::get).unwrap_or(false) {
            LIVE.fetch_sub(layout.size() as isize, Ordering::Relaxed);
        }
        // SAFETY: forwards the caller's contract to the system allocator.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

/// The counter is global: the tests take turns.
static TURN: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// A test's turn: this thread's allocations count until it ends.
struct Turn {
    _lock: std::sync::MutexGuard<'static, ()>,
}

impl Drop for Turn {
    /// Stops counting before the next test may start: the harness code this
    /// thread runs after the test (sending its result) allocates, and must
    /// not land in the next test's count (it did, once in about 20 runs).
    fn drop(&mut self) {
        COUNTED.with(|c| c.set(false));
    }
}

/// Takes a turn and counts this thread's allocations from here on.
fn counted() -> Turn {
    let lock = TURN.lock().unwrap_or_else(|e| e.into_inner());
    COUNTED.with(|c| c.set(true));
    Turn { _lock: lock }
}

#[test]
fn a_valid_body_costs_no_allocation() {
    let _turn = counted();
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

use protocolarc_tests::typed::CreateMessage;

#[test]
fn the_generated_validator_allocates_nothing_on_a_valid_body() {
    let _turn = counted();
    // Nested objects, arrays of objects, enums, compiled and exact bounds, a
    // `uniqueItems` array of escaped strings, escaped and non-ASCII text,
    // integers written as decimals, undeclared keys.
    let body = r#"{"jsonrpc": "2.0", "id": 7.0, "method": "sampling/createMessage",
        "params": {"messages": [{"role": "user", "content": {"type": "text", "text": "h\u00e9llo \"w\" é"}},
        {"role": "assistant", "content": {"type": "text", "text": "ok"}}], "maxTokens": 1e3, "temperature": 0.5,
        "stopSequences": ["\n\nHuman:", "</end>"], "modelPreferences": {"hints": [{"name": "m"}], "costPriority": 1},
        "includeContext": "none", "metadata": {"trace": [1, {"a": null}]}, "x-extra": true}}"#;
    assert!(CreateMessage::spec().validate_json(body.as_bytes()).findings().is_empty(), "the body is valid");
    assert!(CreateMessage::fast_path(body.as_bytes()), "and the generated validator passes it itself");
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    let mut valid = 0;
    for _ in 0..1000 {
        valid += usize::from(CreateMessage::validate_json(std::hint::black_box(body.as_bytes())).is_valid());
    }
    let allocations = ALLOCATIONS.load(Ordering::Relaxed) - before;
    assert_eq!((valid, allocations), (1000, 0));
}

/// A contract of a million fields once took 1.55 GB to load (about
/// 1,500 bytes a field: every field's constraint table inline, the whole
/// positioned JSON tree of the file held beside the model, a string
/// allocation for every key and value). Loading now frees each field's part of
/// the tree as the field is built, borrows unescaped strings from the file and
/// stores constraints only where a field has some. Measured here in bytes the
/// loader holds (the file's own bytes excluded), for 100,000 fields, and what
/// the schema twin that writes its findings adds at the first finding.
#[test]
fn a_large_contract_loads_in_memory_linear_and_small() {
    const FIELDS: usize = 100_000;
    let mut doc = String::from(r#"{"name": "big", "revision": "1.0.0", "fields": ["#);
    for i in 0..FIELDS {
        if i > 0 {
            doc.push_str(", ");
        }
        doc.push_str(&format!(r#"{{"name": "f{i}", "type": "string", "required": false}}"#));
    }
    doc.push_str("]}");
    let _turn = counted();
    LIVE.store(0, Ordering::Relaxed);
    PEAK.store(0, Ordering::Relaxed);
    let contract = ContractSpec::from_slice(doc.as_bytes(), "big.json").unwrap();
    let (peak, held) = (PEAK.load(Ordering::Relaxed) as usize, LIVE.load(Ordering::Relaxed) as usize);
    assert_eq!(contract.fields().len(), FIELDS);
    // Per field: at most 500 bytes while loading, 400 once loaded (the old
    // loader peaked near 1,500).
    assert!(peak < 500 * FIELDS, "loading peaked at {} bytes a field", peak / FIELDS);
    assert!(held < 400 * FIELDS, "the loaded contract holds {} bytes a field", held / FIELDS);
    // The first body with a finding compiles the model into the schema graph
    // that writes findings (its twin, kept): what that adds, per field.
    PEAK.store(LIVE.load(Ordering::Relaxed), Ordering::Relaxed);
    let report = contract.validate_json(br#"{"f7": 3}"#);
    assert_eq!(report.findings()[0].to_string(), "ERROR field.type f7: expected string, found integer");
    drop(report);
    let twin_peak = PEAK.load(Ordering::Relaxed) as usize - held;
    let twin_held = LIVE.load(Ordering::Relaxed) as usize - held;
    // Measured 1,391 and 828 (a schema node's rare parts out of line: the
    // constraint table, unions, `default`); 2,397 and 1,499 before.
    assert!(twin_peak < 1_600 * FIELDS, "the twin peaked at {} bytes a field", twin_peak / FIELDS);
    assert!(twin_held < 1_000 * FIELDS, "the twin holds {} bytes a field", twin_held / FIELDS);
}

//! Entry points: a whole body judged in the right mode, with a first-fault
//! pass in front while valid bodies are common.

use super::*;

/// Keeps each finding once, in first-seen order: a pair met by two routes
/// replays the same findings, and a list doubled per level would grow as
/// the routes do.
pub(super) fn distinct(findings: &mut Vec<Finding>) {
    if findings.len() < 2 {
        return;
    }
    let mut seen = std::collections::HashSet::with_capacity(findings.len());
    findings.retain(|f| seen.insert(f.clone()));
}

/// The report for `data` under a schema-form contract from the finding
/// walk alone ([`Lean`]): every finding with its path (none for a valid
/// body). [`check`] puts a first-fault pass in front of it.
pub(crate) fn collect(schema: &Schema, data: &[u8]) -> crate::report::Report {
    collect_in(schema, data, &Memo::default())
}

/// The report for `data` under a schema-form contract, as
/// `ContractSpec::validate_json` gives it: a first-fault walk ([`First`])
/// proves most bodies valid, and only a body it fails is read again by
/// the finding walk ([`collect`]), unless bodies with findings have been
/// common on this thread lately ([`Recent`]). The report is the same
/// either way; only the time differs.
/// Inlined into its caller, as [`check_in`] is into it (see there).
#[inline(always)]
pub(crate) fn check(schema: &Schema, data: &[u8]) -> crate::report::Report {
    check_in(schema, data, &Memo::default(), Recent::first())
}

/// [`check`], and the (node, value) visits it made.
pub(crate) fn counted(schema: &Schema, data: &[u8]) -> (crate::report::Report, usize) {
    let memo = Memo::default();
    let report = check_in(schema, data, &memo, Recent::first());
    (report, memo.steps.get())
}

/// [`check`], and where the root object's `top` members sit.
pub(crate) fn collect_top(schema: &Schema, data: &[u8], top: TopMembers) -> (crate::report::Report, TopMembers) {
    let memo = Memo { top: Some(RefCell::new(top)), ..Memo::default() };
    let report = check_in(schema, data, &memo, Recent::first());
    let top = memo.top.map(RefCell::into_inner).expect("set above");
    (report, top)
}

/// [`check`] on `memo`, with the first-fault pass in front or not.
/// Inlined: an empty report returned through memory, its words stored one by
/// one, was read back sixteen bytes at a time by the caller's move, a
/// stalled load per body.
#[inline(always)]
pub(super) fn check_in(schema: &Schema, data: &[u8], memo: &Memo, first: bool) -> crate::report::Report {
    if first {
        #[cfg(test)]
        FIRST_PASSES.with(|n| n.set(n.get() + 1));
        let mut walk = SchemaWalk::new(schema, data, First, memo);
        // A strict lowered fields form's warning fails this pass too.
        walk.whole = true;
        let ok = walk.document().is_ok();
        walk.finish();
        if ok {
            Recent::note(false);
            return crate::report::Report::default();
        }
        // The verdicts of membership tests hold for the walk below, which
        // reuses them (no sub-walk runs for a memo hit). The top members
        // stay as noted: the walk below reads the same way up to this
        // walk's fault, noting the same spans again, then goes on.
    }
    let report = collect_in(schema, data, memo);
    Recent::note(!report.findings().is_empty());
    report
}

/// Whether the bodies [`check`] judged lately on this thread had findings,
/// the last 32, newest in the low bit (every schema-form validation on the
/// thread counts: a `traffic` response tried against several response
/// contracts counts once per contract). A first-fault pass in front of the
/// finding walk saves a valid body part of its time and costs a body with
/// findings what it reads before its first fault (up to its whole length):
/// past [`Recent::MOSTLY_FAILING`] bodies with findings in 32, it costs
/// more than it saves, and is skipped until valid bodies are common again
/// (docs/performance.md). Only the time depends on it.
pub(super) struct Recent;

thread_local! {
    static RECENT: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

#[cfg(test)]
thread_local! {
    /// How many first-fault passes [`check_in`] ran on this thread (tests only).
    pub(super) static FIRST_PASSES: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

impl Recent {
    /// More bodies with findings than this among the last 32: no first-fault pass.
    const MOSTLY_FAILING: u32 = 6;

    /// Whether the next body gets the first-fault pass.
    #[inline]
    pub(super) fn first() -> bool {
        RECENT.with(|r| r.get().count_ones() <= Recent::MOSTLY_FAILING)
    }

    #[inline]
    pub(super) fn note(failed: bool) {
        RECENT.with(|r| r.set(r.get() << 1 | u32::from(failed)));
    }
}

pub(super) fn collect_in(schema: &Schema, data: &[u8], memo: &Memo) -> crate::report::Report {
    let mut walk = SchemaWalk::new(schema, data, Lean::default(), memo);
    let outcome = walk.document();
    let lean = walk.finish();
    let (outcome, mode) = match outcome {
        Ok(()) => (Ok(()), Collect { findings: lean.findings, depth_at: None }),
        // Stopped early (bytes that are not JSON, too deep): read again by
        // the mode that says why, with a fresh memo.
        Err(Fail) => {
            if let Some(top) = &memo.top {
                top.borrow_mut().unsure = true;
            }
            let memo = Memo::default();
            let mut walk = SchemaWalk::new(schema, data, Collect::default(), &memo);
            let outcome = walk.document();
            (outcome, walk.finish())
        }
    };
    // A value read by several schemas (`allOf`, a `$ref` beside other
    // keywords) shows a fault of the data itself, such as a repeated key, to
    // each of them: the report keeps one (`Report::new`).
    crate::walk::report(data, outcome, mode)
}

/// Whether `data` has no finding at all under `schema` (a strict lowered
/// fields form's warning included).
pub(crate) fn passes(schema: &Schema, data: &[u8]) -> bool {
    let memo = Memo::default();
    let mut walk = SchemaWalk::new(schema, data, First, &memo);
    walk.whole = true;
    let ok = walk.document().is_ok();
    walk.finish();
    ok
}

/// Whether `data` (one JSON value) is valid under node `id` of `schema`, as
/// if that node were the root: the schema-form witness search
/// (`diff/schema_witness.rs`) checks the values it builds node by node.
pub(crate) fn passes_node(schema: &Schema, id: Id, data: &[u8]) -> bool {
    let memo = Memo::default();
    let mut walk = SchemaWalk::new(schema, data, First, &memo);
    let ok = walk.document_at(id).is_ok();
    walk.finish();
    ok
}

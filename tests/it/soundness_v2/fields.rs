//! The fields form's random pairs (`soundness.rs`) judged in the `response`
//! and `both` directions, with the mirrored claim (SPEC §11), and in the
//! request direction written out in the documents; each pair also through
//! `diff_in` from documents that name no direction, which must agree.

use std::cell::RefCell;
use std::time::Instant;

use proptest::prelude::*;
use proptest::test_runner::{TestCaseError, TestRunner};
use protocolarc::contract::ContractDirection;
use protocolarc::diff::{diff, diff_in};
use serde_json::Value;

use super::{check_bodies, check_witnesses, print_stats, Stats, Strip};
use crate::soundness;

/// Informative bodies a run must have per side judged: the fields form's
/// random bodies are accepted less often than the schema form's (592
/// request bodies in the request run today).
const MIN_INFORMATIVE_FIELDS: usize = 300;

/// Cases of the fields-form direction property (`soundness.rs` draws 5000 in
/// the request direction).
const FIELDS_CASES: u32 = 1500;

fn fields_case(
    p: &soundness::Pair,
    bodies: &[Value],
    judged: ContractDirection,
    stats: &mut Stats,
) -> Result<(), TestCaseError> {
    let dir = judged.as_str();
    let old = soundness::contract_in("1.0.0", p.strict.0, &p.old, p.arr.0, Some(dir));
    let new = soundness::contract_in("2.0.0", p.strict.1, &p.new, p.arr.1, Some(dir));
    let (Some(old), Some(new)) = (old, new) else { return Err(TestCaseError::reject("not a contract")) };
    stats.cases += 1;
    let strip_old = |b: &Value| soundness::declared_in(b.clone(), &p.old, p.arr.0);
    let strip_new = |b: &Value| soundness::declared_in(b.clone(), &p.new, p.arr.1);
    let strips: (Strip, Strip) = (&strip_old, &strip_new);
    let d = diff(&old, &new).expect("same name");
    *stats.verdicts.entry(format!("{dir} {}", d.compatibility())).or_default() += 1;
    check_witnesses(&d, &old, &new, stats)?;
    check_bodies(&d, judged, (&old, &new), bodies, strips, true, stats)?;
    // The request-direction documents judged in `judged` by `diff_in`.
    let plain_old = soundness::contract_in("1.0.0", p.strict.0, &p.old, p.arr.0, None).expect("loads");
    let plain_new = soundness::contract_in("2.0.0", p.strict.1, &p.new, p.arr.1, None).expect("loads");
    let d2 = diff_in(&plain_old, &plain_new, judged).expect("same name");
    stats.judged_in += 1;
    prop_assert_eq!(d2.compatibility(), d.compatibility(), "diff_in {} and the contracts' direction", dir);
    check_witnesses(&d2, &plain_old, &plain_new, stats)?;
    check_bodies(&d2, judged, (&plain_old, &plain_new), bodies, strips, true, stats)?;
    Ok(())
}

fn fields_run(judged: ContractDirection) {
    let start = Instant::now();
    let stats = RefCell::new(Stats::default());
    let config = ProptestConfig {
        source_file: Some(file!()),
        max_global_rejects: 100_000,
        ..crate::strategies::config(FIELDS_CASES)
    };
    let mut runner = TestRunner::new(config);
    let strategy = (soundness::pair(), prop::collection::vec(soundness::body(), 24));
    let result = runner.run(&strategy, |(p, bodies)| fields_case(&p, &bodies, judged, &mut stats.borrow_mut()));
    if let Err(e) = result {
        panic!("{e}\n{runner}");
    }
    let stats = stats.into_inner();
    print_stats(&format!("fields form, {judged}"), &stats, start.elapsed().as_secs_f64());
    let sides: &[&str] = match judged {
        ContractDirection::Request => &["request"],
        ContractDirection::Response => &["response"],
        ContractDirection::Both => &["request", "response"],
    };
    for side in sides {
        let n = stats.informative.get(side).copied().unwrap_or(0);
        assert!(n >= MIN_INFORMATIVE_FIELDS, "only {n} informative {side} bodies: the property is nearly vacuous");
    }
}

#[test]
fn fields_form_verdicts_are_sound_for_responses() {
    fields_run(ContractDirection::Response);
}

#[test]
fn fields_form_verdicts_are_sound_in_both_directions() {
    fields_run(ContractDirection::Both);
}

/// The request direction written in the documents is today's engine: it runs
/// now, and holds `diff_in` to it once that exists.
#[test]
fn fields_form_verdicts_are_sound_for_requests_written_out() {
    fields_run(ContractDirection::Request);
}

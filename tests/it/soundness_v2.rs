//! Soundness of direction-aware verdicts (SPEC §11) on the whole v2 model,
//! by property test.
//!
//! Random **schema-form** contract pairs: a root object over `$defs` (one of
//! them a recursive tree node) holding objects with `properties`/`required`,
//! closed objects at any depth, typed maps, arrays with `items`,
//! `prefixItems`, `contains` and their bounds, tagged and untagged unions,
//! `enum`/`const`, formats, string and number bounds, patterns,
//! `propertyNames`, `dependentRequired`, `patternProperties`, object bounds
//! and now and then `allOf`, `not`, `if`/`then`/`else` and boolean schemas
//! (`gen.rs`); integer and number bounds whole and fractional, inclusive and
//! exclusive, with fractional steps; patterns that include one another. The
//! new revision is the old one after one to three mutations
//! (`gen::MUTATIONS`), one of which adds beside an object's `properties` (or
//! removes) a schema applied to the same instance that constrains a key it
//! declares: `allOf`, `anyOf`, `oneOf`, `not`, `if`/`then`, `if`/`else`,
//! `dependentSchemas` or a `$ref` (to a fixed definition that constrains
//! declared keys). Both revisions carry one random `direction`.
//!
//! The claims (SPEC §11), for a verdict `compatible` or `forward`:
//! - request: every body the old revision accepts (no error finding) is
//!   accepted by the new one, among bodies that send no key the old revision
//!   leaves undeclared where the new one declares it (`bodies::strip`; the
//!   fields form's premise, `soundness.rs`);
//! - response: every body the new revision accepts is accepted by the old one,
//!   among bodies that send no key the new revision leaves undeclared where
//!   the old one declares it (the mirrored premise: a sender does not send a
//!   key its revision dropped, so `field.removed.optional` is forward in both
//!   directions, as the engine's record says);
//! - both: both.
//!
//! And every printed witness proves its change on the side its
//! `witness_direction` names: the accepting revision has no finding at all,
//! the other at least one.
//!
//! Bodies are drawn from **both** schemas (`bodies.rs`: instances, some
//! damaged), so many are accepted by one side; the run counts the bodies the
//! premise side accepts under a non-breaking verdict and asserts a minimum,
//! so the property cannot hold by having nothing to check.
//!
//! The fields form's pairs (`soundness.rs`) are judged here in the
//! `response` and `both` directions too, with the mirrored claim.
//!
//! A failure is shrunk and persisted under `tests/proptest-regressions/`.
//! (The first run found a numeric `enum`/`const` beside `type` read by the
//! schema diff as a schema no value meets, in 35 of 2,500 cases: fixed.)

mod bodies;
mod fields;
mod gen;

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::time::Instant;

use proptest::prelude::*;
use proptest::test_runner::{TestCaseError, TestRunner};
use protocolarc::contract::ContractDirection;
use protocolarc::diff::{diff, diff_in, ContractDiff, Impact};
use protocolarc::ContractSpec;
use serde_json::{json, Value};

/// Cases of the schema-form property: about 22 s of CPU in a debug build;
/// this file's four tests together take about 36 s of CPU on one thread
/// (about 20 s of wall time on two idle cores).
const SCHEMA_CASES: u32 = 2500;
/// Candidate bodies per pair, half from each revision.
const BODIES: usize = 32;

/// A schema-form contract pair, as the documents the loader reads.
#[derive(Debug, Clone)]
struct SchemaPair {
    direction: &'static str,
    old: Value,
    new: Value,
    /// The mutations applied, by index into `gen::MUTATIONS`.
    mutations: Vec<usize>,
}

fn document(revision: &str, direction: &str, schema: &Value) -> Value {
    json!({"name": "prop.schema", "revision": revision, "direction": direction, "schema": schema})
}

fn load(doc: &Value) -> Result<ContractSpec, TestCaseError> {
    ContractSpec::from_slice(doc.to_string().as_bytes(), "generated.json")
        .map_err(|e| TestCaseError::fail(format!("the generator made a schema the loader refuses: {e}\n{doc}")))
}

/// Builds a pair from the choice stream `data`.
fn build_pair(data: &[u32]) -> SchemaPair {
    let mut c = gen::Choices::new(data);
    let direction = c.pick(&["request", "response", "both"]);
    let mut old = gen::document(&mut c);
    gen::normalize(&mut old);
    let defs: Vec<&str> =
        gen::DEF_NAMES.into_iter().filter(|n| old.get("$defs").and_then(|d| d.get(*n)).is_some()).collect();
    let mut new = old.clone();
    let mut mutations = Vec::new();
    for _ in 0..1 + c.below(3) {
        // The mutation first (regenerating a subschema rarely), then the
        // first subschema it applies to, from one drawn on; another
        // mutation when it applies nowhere (three tries).
        for _ in 0..3 {
            let op =
                if c.one_in(40) { gen::MUTATIONS.len() - 1 } else { c.below(gen::MUTATIONS.len() as u32 - 1) as usize };
            let mut paths = Vec::new();
            gen::subschemas(&new, &mut Vec::new(), &mut paths);
            let first = c.below(paths.len() as u32) as usize;
            let applied = (0..paths.len()).any(|k| {
                let node = gen::at_mut(&mut new, &paths[(first + k) % paths.len()]).expect("path");
                gen::mutate(node, op, &mut c, &defs)
            });
            if applied {
                mutations.push(op);
                break;
            }
        }
    }
    // A root regenerated whole keeps the definitions its references name.
    if let (Some(defs), Some(root)) = (old.get("$defs"), new.as_object_mut()) {
        root.entry("$defs").or_insert_with(|| defs.clone());
    }
    gen::normalize(&mut new);
    SchemaPair { direction, old, new, mutations }
}

fn schema_pair() -> impl Strategy<Value = SchemaPair> {
    prop::collection::vec(any::<u32>(), 64..512).prop_map(|data| build_pair(&data))
}

fn direction(name: &str) -> ContractDirection {
    ContractDirection::parse(name).expect("direction")
}

/// Counters over a whole run.
#[derive(Default, Debug)]
struct Stats {
    cases: usize,
    identical: usize,
    verdicts: BTreeMap<String, usize>,
    rules: BTreeMap<String, usize>,
    features: BTreeMap<&'static str, usize>,
    mutations: BTreeMap<&'static str, usize>,
    /// Bodies accepted by the old / new revision / exactly one of them.
    accepted_old: usize,
    accepted_new: usize,
    accepted_one: usize,
    bodies: usize,
    /// Bodies the premise side accepted under a non-breaking verdict, per
    /// direction judged (`request`, `response`): the informative cases.
    informative: BTreeMap<&'static str, usize>,
    /// Verdicts not breaking on revisions that differ (each direction judged).
    informative_pairs: usize,
    witnesses: BTreeMap<&'static str, usize>,
    judged_in: usize,
    /// Pairs of one mutation that some body proves breaking, per mutation and
    /// side (`request`: the old revision accepts a stripped body the new one
    /// rejects; `response`: the new accepts one the old rejects), whatever
    /// the verdict: what a sound engine must call breaking.
    breaks: BTreeMap<(&'static str, &'static str), usize>,
}

/// The features of a schema document, each counted once.
fn features(s: &Value) -> BTreeSet<&'static str> {
    let mut out = BTreeSet::new();
    walk_features(s, &mut out);
    out
}

fn walk_features(s: &Value, out: &mut BTreeSet<&'static str>) {
    match s {
        Value::Object(m) => {
            for (k, v) in m {
                let name: Option<&'static str> = match (k.as_str(), v) {
                    ("additionalProperties", Value::Bool(false)) => Some("closed object"),
                    ("additionalProperties", Value::Object(_)) => Some("typed map"),
                    ("anyOf" | "oneOf", Value::Array(members)) => {
                        let tagged = members.iter().all(|mm| mm.pointer("/properties/type/const").is_some());
                        Some(match (k.as_str(), tagged) {
                            ("anyOf", true) => "tagged anyOf",
                            ("oneOf", true) => "tagged oneOf",
                            ("anyOf", false) => "untagged anyOf",
                            _ => "untagged oneOf",
                        })
                    }
                    ("$ref", _) if m.contains_key("properties") => Some("$ref beside properties"),
                    ("$ref", Value::String(r)) if r == "#/$defs/Node" => Some("$ref (recursive Node)"),
                    ("$ref", _) => Some("$ref"),
                    ("$defs", _) => Some("$defs"),
                    ("format", _) => Some("format"),
                    ("pattern", _) => Some("pattern"),
                    ("enum", _) => Some("enum"),
                    ("const", _) => Some("const"),
                    ("prefixItems", _) => Some("prefixItems"),
                    ("items", Value::Bool(false)) => Some("items: false"),
                    ("items", _) => Some("items"),
                    ("contains", _) => Some("contains"),
                    ("minContains" | "maxContains", _) => Some("min/maxContains"),
                    ("minItems" | "maxItems", _) => Some("min/maxItems"),
                    ("uniqueItems", _) => Some("uniqueItems"),
                    ("minLength" | "maxLength", _) => Some("min/maxLength"),
                    ("minimum" | "maximum" | "exclusiveMinimum", _) => Some("numeric bounds"),
                    ("multipleOf", _) => Some("multipleOf"),
                    ("propertyNames", _) => Some("propertyNames"),
                    ("dependentRequired", _) => Some("dependentRequired"),
                    ("patternProperties", _) => Some("patternProperties"),
                    ("minProperties" | "maxProperties", _) => Some("min/maxProperties"),
                    ("allOf", _) => Some("allOf"),
                    ("not", _) => Some("not"),
                    ("if", _) => Some("if/then/else"),
                    ("required", _) => Some("required"),
                    _ => None,
                };
                out.extend(name);
                if !matches!(k.as_str(), "const" | "enum")
                    && !matches!((k.as_str(), v), ("items" | "additionalProperties", Value::Bool(false)))
                {
                    walk_features(v, out);
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|v| walk_features(v, out)),
        Value::Bool(false) => {
            out.insert("false schema");
        }
        _ => {}
    }
}

fn changes_of(d: &ContractDiff) -> Vec<String> {
    d.changes().iter().map(|c| format!("{} {} {} {}", c.impact(), c.rule(), c.field(), c.message())).collect()
}

/// Every witness of `d` proves its change on the side it names.
fn check_witnesses(
    d: &ContractDiff,
    old: &ContractSpec,
    new: &ContractSpec,
    stats: &mut Stats,
) -> Result<(), TestCaseError> {
    for c in d.changes() {
        let Some(w) = c.witness() else { continue };
        let side = c
            .witness_direction()
            .ok_or_else(|| TestCaseError::fail(format!("{}: a witness with no direction", c.rule())))?;
        let (accepting, flagging, label) = match side {
            ContractDirection::Request => (old, new, "request"),
            ContractDirection::Response => (new, old, "response"),
            ContractDirection::Both => {
                return Err(TestCaseError::fail(format!("{}: witness direction both", c.rule())))
            }
        };
        *stats.witnesses.entry(label).or_default() += 1;
        let accepted = accepting.validate_json(w.as_bytes());
        prop_assert!(
            accepted.findings().is_empty(),
            "{} {} ({label} witness): the accepting revision flags {w}: {:?}",
            c.rule(),
            c.field(),
            accepted.findings()
        );
        prop_assert!(
            !flagging.validate_json(w.as_bytes()).findings().is_empty(),
            "{} {} ({label} witness): the flagging revision accepts {w}",
            c.rule(),
            c.field()
        );
    }
    Ok(())
}

/// A body with the keys its claim's premise excludes removed.
type Strip<'a> = &'a dyn Fn(&Value) -> Value;

/// The claim of `judged` on `bodies` for verdict `d`; `counted` when its
/// bodies count as informative (not for a pair of identical revisions).
fn check_bodies(
    d: &ContractDiff,
    judged: ContractDirection,
    (old, new): (&ContractSpec, &ContractSpec),
    bodies: &[Value],
    (strip_old, strip_new): (Strip, Strip),
    counted: bool,
    stats: &mut Stats,
) -> Result<(), TestCaseError> {
    if d.compatibility() == Impact::Breaking {
        return Ok(());
    }
    if counted {
        stats.informative_pairs += 1;
    }
    let request = matches!(judged, ContractDirection::Request | ContractDirection::Both);
    let response = matches!(judged, ContractDirection::Response | ContractDirection::Both);
    for b in bodies {
        if request {
            let text = strip_old(b).to_string();
            if old.validate_json(text.as_bytes()).is_valid() {
                *stats.informative.entry("request").or_default() += usize::from(counted);
                let after = new.validate_json(text.as_bytes());
                prop_assert!(
                    after.is_valid(),
                    "request verdict {} but the new revision rejects {text}, which the old one accepts: {:?}\nchanges: {:#?}",
                    d.compatibility(),
                    after.findings(),
                    changes_of(d)
                );
            }
        }
        if response {
            let text = strip_new(b).to_string();
            if new.validate_json(text.as_bytes()).is_valid() {
                *stats.informative.entry("response").or_default() += usize::from(counted);
                let before = old.validate_json(text.as_bytes());
                prop_assert!(
                    before.is_valid(),
                    "response verdict {} but the old revision rejects {text}, which the new one sends: {:?}\nchanges: {:#?}",
                    d.compatibility(),
                    before.findings(),
                    changes_of(d)
                );
            }
        }
    }
    Ok(())
}

fn schema_case(p: &SchemaPair, seeds: &[u64], stats: &mut Stats) -> Result<(), TestCaseError> {
    let old = load(&document("1.0.0", p.direction, &p.old))?;
    let new = load(&document("2.0.0", p.direction, &p.new))?;
    stats.cases += 1;
    stats.identical += usize::from(p.old == p.new);
    for f in features(&p.old) {
        *stats.features.entry(f).or_default() += 1;
    }
    // Only a mutation puts a `$ref` beside an object's `properties`.
    if features(&p.new).contains("$ref beside properties") {
        *stats.features.entry("$ref beside properties").or_default() += 1;
    }
    for &m in &p.mutations {
        *stats.mutations.entry(gen::MUTATIONS[m]).or_default() += 1;
    }
    let half = seeds.len() / 2;
    let bodies: Vec<Value> =
        seeds.iter().enumerate().map(|(i, &seed)| bodies::body(if i < half { &p.old } else { &p.new }, seed)).collect();
    let mut reserved = BTreeSet::new();
    bodies::declared_names(&p.new, &mut reserved);
    let mut reserved_old = BTreeSet::new();
    bodies::declared_names(&p.old, &mut reserved_old);
    let strip_old = |b: &Value| {
        let mut b = b.clone();
        bodies::strip(&mut b, &p.old, &p.old, &reserved, 0);
        b
    };
    let strip_new = |b: &Value| {
        let mut b = b.clone();
        bodies::strip(&mut b, &p.new, &p.new, &reserved_old, 0);
        b
    };
    let strips: (Strip, Strip) = (&strip_old, &strip_new);
    let accepts = |c: &ContractSpec, b: &Value| c.validate_json(b.to_string().as_bytes()).is_valid();
    let (mut request_break, mut response_break) = (false, false);
    for b in &bodies {
        let (a, z) = (accepts(&old, b), accepts(&new, b));
        stats.bodies += 1;
        stats.accepted_old += usize::from(a);
        stats.accepted_new += usize::from(z);
        stats.accepted_one += usize::from(a != z);
        if z && !a {
            let stripped = strip_new(b);
            response_break |= accepts(&new, &stripped) && !accepts(&old, &stripped);
        }
        if a && !z {
            let stripped = strip_old(b);
            request_break |= accepts(&old, &stripped) && !accepts(&new, &stripped);
        }
    }
    if let [m] = p.mutations[..] {
        for (side, broken) in [("request", request_break), ("response", response_break)] {
            if broken {
                *stats.breaks.entry((gen::MUTATIONS[m], side)).or_default() += 1;
            }
        }
    }

    let d = diff(&old, &new).expect("same name");
    *stats.verdicts.entry(format!("{} {}", p.direction, d.compatibility())).or_default() += 1;
    for c in d.changes() {
        *stats.rules.entry(c.rule().to_string()).or_default() += 1;
    }
    check_witnesses(&d, &old, &new, stats)?;
    check_bodies(&d, direction(p.direction), (&old, &new), &bodies, strips, p.old != p.new, stats)?;

    // The same pair judged in every direction, whatever the contracts say.
    for judged in ContractDirection::ALL {
        let d2 = diff_in(&old, &new, judged).expect("same name");
        stats.judged_in += 1;
        if judged == direction(p.direction) {
            prop_assert_eq!(d2.compatibility(), d.compatibility(), "diff_in in the contracts' own direction");
        }
        check_witnesses(&d2, &old, &new, stats)?;
        check_bodies(&d2, judged, (&old, &new), &bodies, strips, p.old != p.new, stats)?;
    }
    Ok(())
}

fn print_stats(title: &str, stats: &Stats, elapsed: f64) {
    eprintln!("== {title}: {} cases in {elapsed:.1} s ({} identical pairs)", stats.cases, stats.identical);
    eprintln!(
        "bodies: {} drawn, {} accepted by the old revision, {} by the new, {} by exactly one",
        stats.bodies, stats.accepted_old, stats.accepted_new, stats.accepted_one
    );
    eprintln!(
        "informative: {} verdicts not breaking on differing revisions; bodies the premise side accepts there: {:?}",
        stats.informative_pairs, stats.informative
    );
    eprintln!("witnesses checked: {:?}; pairs judged with diff_in: {}", stats.witnesses, stats.judged_in);
    eprintln!("verdicts: {:?}", stats.verdicts);
    eprintln!("change rules: {:?}", stats.rules);
    eprintln!("features (cases whose old schema has it): {:?}", stats.features);
    eprintln!("mutations: {:?}", stats.mutations);
    eprintln!("one-mutation pairs some body proves breaking: {:?}", stats.breaks);
}

/// Informative bodies a run must have per side judged (pairs of identical
/// revisions not counted).
const MIN_INFORMATIVE: usize = 2000;

#[test]
fn schema_form_verdicts_are_sound_in_their_direction() {
    let start = Instant::now();
    let stats = RefCell::new(Stats::default());
    let config = ProptestConfig { source_file: Some(file!()), ..crate::strategies::config(SCHEMA_CASES) };
    let mut runner = TestRunner::new(config);
    let strategy = (schema_pair(), prop::collection::vec(any::<u64>(), BODIES));
    let result = runner.run(&strategy, |(p, seeds)| schema_case(&p, &seeds, &mut stats.borrow_mut()));
    if let Err(e) = result {
        panic!("{e}\n{runner}");
    }
    let stats = stats.into_inner();
    print_stats("schema form", &stats, start.elapsed().as_secs_f64());

    // The generator covers the v2 model: every feature in a fair share of cases.
    let every = [
        "closed object",
        "typed map",
        "tagged anyOf",
        "tagged oneOf",
        "untagged anyOf",
        "untagged oneOf",
        "$ref",
        "$ref (recursive Node)",
        "$defs",
        "format",
        "pattern",
        "enum",
        "const",
        "prefixItems",
        "items: false",
        "items",
        "contains",
        "min/maxContains",
        "min/maxItems",
        "uniqueItems",
        "min/maxLength",
        "numeric bounds",
        "multipleOf",
        "propertyNames",
        "dependentRequired",
        "patternProperties",
        "min/maxProperties",
        "allOf",
        "not",
        "if/then/else",
        "false schema",
        "required",
    ];
    for f in every {
        let n = stats.features.get(f).copied().unwrap_or(0);
        assert!(n * 100 >= stats.cases, "feature {f} in only {n} of {} cases", stats.cases);
    }
    let beside = stats.features.get("$ref beside properties").copied().unwrap_or(0);
    assert!(beside >= 5, "a $ref added beside properties in only {beside} cases");
    for m in gen::MUTATIONS {
        let n = stats.mutations.get(m).copied().unwrap_or(0);
        assert!(n >= 5, "mutation {m} applied only {n} times in {} cases", stats.cases);
    }
    // Bodies are drawn so that both revisions accept many, and some divide them.
    assert!(stats.accepted_old * 4 >= stats.bodies, "old accepts {} of {} bodies", stats.accepted_old, stats.bodies);
    assert!(stats.accepted_new * 4 >= stats.bodies, "new accepts {} of {} bodies", stats.accepted_new, stats.bodies);
    assert!(
        stats.accepted_one * 20 >= stats.bodies,
        "{} of {} bodies divide the revisions",
        stats.accepted_one,
        stats.bodies
    );
    assert!(
        stats.informative_pairs >= 300,
        "only {} non-breaking verdicts on differing revisions",
        stats.informative_pairs
    );
    for side in ["request", "response"] {
        let n = stats.informative.get(side).copied().unwrap_or(0);
        assert!(n >= MIN_INFORMATIVE, "only {n} informative {side} bodies: the property is nearly vacuous");
    }
}

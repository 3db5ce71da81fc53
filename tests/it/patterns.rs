//! A `pattern` change decided by regex inclusion (SPEC §5): relaxed,
//! tightened, changed or no change at all, each with a shortest string
//! that tells the revisions apart as the witness, checked by both
//! validators, in the schema form and the fields form, both directions.

use protocolarc::diff::{diff_in, Impact};
use protocolarc::{ContractDirection, ContractSpec};

fn schema(revision: &str, pattern: &str) -> ContractSpec {
    let body = serde_json::json!({"type": "object", "properties": {"s": {"type": "string", "pattern": pattern}}});
    let doc = format!(r#"{{"name": "t.p", "revision": "{revision}", "schema": {body}}}"#);
    ContractSpec::from_slice(doc.as_bytes(), "p.json").unwrap_or_else(|e| panic!("{doc}: {e}"))
}

fn fields(revision: &str, pattern: &str) -> ContractSpec {
    let field = serde_json::json!({"name": "s", "type": "string", "required": false, "pattern": pattern});
    let doc = format!(r#"{{"name": "t.p", "revision": "{revision}", "fields": [{field}]}}"#);
    ContractSpec::from_slice(doc.as_bytes(), "p.json").unwrap_or_else(|e| panic!("{doc}: {e}"))
}

/// `(verdict, [impact rule message witness])` of `old -> new`, every
/// witness checked by both validators in its sense.
fn judged(old: &ContractSpec, new: &ContractSpec, direction: ContractDirection) -> (Impact, Vec<String>) {
    let d = diff_in(old, new, direction).expect("same name");
    let mut lines = Vec::new();
    for c in d.changes() {
        if let Some(w) = c.witness() {
            let (accepting, rejecting) = match c.witness_direction() {
                Some(ContractDirection::Request) => (old, new),
                Some(ContractDirection::Response) => (new, old),
                other => panic!("a witness with sense {other:?}"),
            };
            assert!(accepting.validate_json(w.as_bytes()).findings().is_empty(), "{w}");
            let r = rejecting.validate_json(w.as_bytes());
            assert_eq!(r.findings().iter().map(|f| f.rule()).collect::<Vec<_>>(), ["field.pattern"], "{w}");
        }
        lines.push(format!(
            "{} {} {}: {} {}",
            c.impact(),
            c.rule(),
            c.field(),
            c.message(),
            c.witness().unwrap_or("-")
        ));
    }
    (d.compatibility(), lines)
}

/// The same verdicts in both forms.
fn both_forms(old: &str, new: &str, direction: ContractDirection) -> (Impact, Vec<String>) {
    let s = judged(&schema("1.0.0", old), &schema("2.0.0", new), direction);
    let f = judged(&fields("1.0.0", old), &fields("2.0.0", new), direction);
    assert_eq!(s, f, "{old} -> {new}");
    s
}

#[test]
fn a_relaxed_pattern_is_forward_for_requests_and_breaks_responses_with_a_witness() {
    use ContractDirection::{Request, Response};
    assert_eq!(
        both_forms("^[a-c]+$", "^[a-z]+$", Request),
        (Impact::Forward, vec!["forward field.pattern.relaxed s: pattern '^[a-c]+$' -> '^[a-z]+$' -".to_string()])
    );
    assert_eq!(
        both_forms("^[a-c]+$", "^[a-z]+$", Response),
        (
            Impact::Breaking,
            vec![r#"breaking field.pattern.relaxed s: pattern '^[a-c]+$' -> '^[a-z]+$' {"s":"d"}"#.to_string()]
        )
    );
}

#[test]
fn a_tightened_pattern_breaks_requests_with_a_shortest_witness() {
    assert_eq!(
        both_forms("^[a-z]+$", "^[a-c]+$", ContractDirection::Request),
        (
            Impact::Breaking,
            vec![r#"breaking field.pattern.tightened s: pattern '^[a-z]+$' -> '^[a-c]+$' {"s":"d"}"#.to_string()]
        )
    );
    // Search semantics: an unanchored pattern accepts text around a match.
    assert_eq!(
        both_forms("b", "^b", ContractDirection::Request),
        (Impact::Breaking, vec![r#"breaking field.pattern.tightened s: pattern 'b' -> '^b' {"s":"ab"}"#.to_string()])
    );
}

#[test]
fn patterns_spelled_differently_that_accept_the_same_strings_are_no_change() {
    for (old, new) in [("^[a-c]+$", "^(a|b|c)+$"), ("^[0-9]{3}$", "^[0-9][0-9][0-9]$"), ("abc", "^(?s:.)*abc")] {
        assert_eq!(both_forms(old, new, ContractDirection::Both), (Impact::Compatible, Vec::new()), "{old} {new}");
    }
}

#[test]
fn unrelated_patterns_change_with_a_witness_each_way() {
    assert_eq!(
        both_forms("^a", "^b", ContractDirection::Request),
        (Impact::Breaking, vec![r#"breaking field.pattern.changed s: pattern '^a' -> '^b' {"s":"a"}"#.to_string()])
    );
    assert_eq!(
        both_forms("^a", "^b", ContractDirection::Response),
        (Impact::Breaking, vec![r#"breaking field.pattern.changed s: pattern '^a' -> '^b' {"s":"b"}"#.to_string()])
    );
}

#[test]
fn past_the_budget_the_verdict_is_the_cautious_one_and_says_why() {
    let (verdict, lines) = both_forms("a[ab]{24}$", "b[ab]{24}$", ContractDirection::Request);
    assert_eq!(verdict, Impact::Breaking);
    assert_eq!(lines.len(), 1);
    assert!(
        lines[0].starts_with(
            "breaking field.pattern.changed s: pattern 'a[ab]{24}$' -> 'b[ab]{24}$' (inclusion not decided: "
        ),
        "{}",
        lines[0]
    );
}

//! The official MCP schemas across protocol revisions
//! (`tests/data/mcp-history/<rev>/schema.json`, provenance and licences in
//! `tests/data/mcp-history/PROVENANCE.md`) as a real history for the
//! direction-aware diff (SPEC §11).
//!
//! Four definitions are imported from each revision that has them, with the
//! direction of the message they describe: `CallToolResult` and `Tool` (a
//! server sends them: `response`), `InitializeRequest` (`request`) and
//! `InitializeResult` (`response`). Each consecutive pair of revisions
//! 2024-11-05 -> 2025-03-26 -> 2025-06-18 -> 2025-11-25 -> 2026-07-28 was read
//! by hand; [`PAIRS`] holds the verdict judged right and the exact set of rule
//! ids that carry it, each with why. 2026-07-28 has no `initialize` (the
//! protocol became stateless), so the `Initialize*` chains stop at 2025-11-25.
//!
//! Every breaking change that carries a witness must prove itself: the accepting
//! side (the old revision for a request, the new one for a response) validates
//! the witness with no finding, the other side has a finding.

use std::collections::BTreeSet;

use protocolarc::contract::ContractDirection;
use protocolarc::diff::{diff, ContractDiff, Impact};
use protocolarc::ContractSpec;
use protocolarc_interop::import::schema_contract;
use serde_json::Value;

/// One pair of revisions of one definition, judged by hand.
struct Pair {
    def: &'static str,
    from: &'static str,
    to: &'static str,
    verdict: Impact,
    /// Every distinct rule id among the changes, each with why it is there.
    rules: &'static [(&'static str, &'static str)],
    /// Why the verdict.
    why: &'static str,
}

const PAIRS: &[Pair] = &[
    // CallToolResult, response: what a server sends for tools/call.
    Pair {
        def: "CallToolResult",
        from: "2024-11-05",
        to: "2025-03-26",
        verdict: Impact::Breaking,
        rules: &[(
            "union.member.added",
            "content[] gained AudioContent (type \"audio\"): a new union member in a response breaks old readers",
        )],
        why: "a 2025-03-26 server may send an audio block that a 2024-11-05 client rejects",
    },
    Pair {
        def: "CallToolResult",
        from: "2025-03-26",
        to: "2025-06-18",
        verdict: Impact::Breaking,
        rules: &[
            (
                "union.member.added",
                "content[] gained ResourceLink (type \"resource_link\"): a new union member in a response breaks \
                 old readers",
            ),
            (
                "field.added.optional",
                "structuredContent, annotations.lastModified and every content block's _meta are new optional \
                 fields: forward in both directions",
            ),
        ],
        why: "a resource_link block from a 2025-06-18 server is rejected by a 2025-03-26 client",
    },
    Pair {
        def: "CallToolResult",
        from: "2025-06-18",
        to: "2025-11-25",
        verdict: Impact::Forward,
        rules: &[(
            "field.added.optional",
            "the resource_link block gained an optional icons array: a new optional field is forward",
        )],
        why: "only an optional field was added, inside an existing union member",
    },
    Pair {
        def: "CallToolResult",
        from: "2025-11-25",
        to: "2026-07-28",
        verdict: Impact::Breaking,
        rules: &[
            (
                "field.type.widened",
                "structuredContent went from an object to any JSON value: a wider type in a response breaks old \
                 readers (the changelog says so)",
            ),
            (
                "field.added.required",
                "resultType became required: a new required field in a response is forward (old readers ignore \
                 it, every new body carries it)",
            ),
            (
                "field.added.optional",
                "_meta declares the optional io.modelcontextprotocol/serverInfo (an Implementation): a new \
                 optional field is forward",
            ),
        ],
        why: "a 2026-07-28 server may send a structuredContent array or string that a 2025-11-25 client rejects",
    },
    // Tool, response: a server sends it in tools/list.
    Pair {
        def: "Tool",
        from: "2024-11-05",
        to: "2025-03-26",
        verdict: Impact::Forward,
        rules: &[("field.added.optional", "annotations (ToolAnnotations) is a new optional field: forward")],
        why: "only an optional field was added",
    },
    Pair {
        def: "Tool",
        from: "2025-03-26",
        to: "2025-06-18",
        verdict: Impact::Forward,
        rules: &[("field.added.optional", "_meta, outputSchema and title are new optional fields: forward")],
        why: "only optional fields were added",
    },
    Pair {
        def: "Tool",
        from: "2025-06-18",
        to: "2025-11-25",
        verdict: Impact::Forward,
        rules: &[(
            "field.added.optional",
            "execution, icons, inputSchema.$schema and outputSchema.$schema are new optional fields: forward",
        )],
        why: "only optional fields were added",
    },
    Pair {
        def: "Tool",
        from: "2025-11-25",
        to: "2026-07-28",
        verdict: Impact::Breaking,
        rules: &[
            (
                "field.removed.required",
                "outputSchema.type (const \"object\", required within outputSchema) was removed: a required field \
                 removed breaks its readers, and a 2026-07-28 outputSchema without it is rejected by old clients",
            ),
            (
                "field.removed.optional",
                "execution, inputSchema.properties, inputSchema.required, outputSchema.properties and \
                 outputSchema.required are no longer declared: optional fields removed",
            ),
        ],
        why: "outputSchema no longer needs type: \"object\", which every 2025-11-25 client requires",
    },
    // InitializeRequest, request: what a server accepts.
    Pair {
        def: "InitializeRequest",
        from: "2024-11-05",
        to: "2025-03-26",
        verdict: Impact::Compatible,
        rules: &[],
        why: "the definition and every definition it references changed in descriptions only",
    },
    Pair {
        def: "InitializeRequest",
        from: "2025-03-26",
        to: "2025-06-18",
        verdict: Impact::Forward,
        rules: &[(
            "field.added.optional",
            "params.capabilities.elicitation and params.clientInfo.title are new optional fields: forward",
        )],
        why: "only optional fields were added",
    },
    Pair {
        def: "InitializeRequest",
        from: "2025-06-18",
        to: "2025-11-25",
        verdict: Impact::Breaking,
        rules: &[
            (
                "field.added.required",
                "the request now requires jsonrpc (const \"2.0\") and id: a 2025-06-18 body without them is \
                 rejected",
            ),
            (
                "field.added.optional",
                "params._meta, capabilities.tasks, capabilities.elicitation.form/url, capabilities.sampling \
                 .context/tools, clientInfo.description/icons/websiteUrl are new optional fields: forward",
            ),
        ],
        why: "the definition now covers the JSON-RPC envelope, whose jsonrpc and id are required",
    },
    // InitializeResult, response.
    Pair {
        def: "InitializeResult",
        from: "2024-11-05",
        to: "2025-03-26",
        verdict: Impact::Forward,
        rules: &[("field.added.optional", "capabilities.completions is a new optional field: forward")],
        why: "only an optional field was added",
    },
    Pair {
        def: "InitializeResult",
        from: "2025-03-26",
        to: "2025-06-18",
        verdict: Impact::Forward,
        rules: &[("field.added.optional", "serverInfo.title is a new optional field: forward")],
        why: "only an optional field was added",
    },
    Pair {
        def: "InitializeResult",
        from: "2025-06-18",
        to: "2025-11-25",
        verdict: Impact::Forward,
        rules: &[(
            "field.added.optional",
            "serverInfo.description/icons/websiteUrl and capabilities.tasks are new optional fields: forward",
        )],
        why: "only optional fields were added",
    },
];

/// The pair the issue names across two revisions (2025-06-18 -> 2026-07-28),
/// beside the consecutive ones.
const ISSUE_PAIR: Pair = Pair {
    def: "CallToolResult",
    from: "2025-06-18",
    to: "2026-07-28",
    verdict: Impact::Breaking,
    rules: &[
        ("field.type.widened", "structuredContent went from an object to any JSON value: breaking for a response"),
        ("field.added.required", "resultType became required: forward for a response"),
        ("field.added.optional", "resource_link icons and _meta's serverInfo are new optional fields: forward"),
    ],
    why: "the widened structuredContent breaks old readers; the required resultType does not",
};

const REVISIONS: [&str; 5] = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"];

fn direction(def: &str) -> &'static str {
    match def {
        "InitializeRequest" => "request",
        _ => "response",
    }
}

fn has_definition(rev: &str, def: &str) -> bool {
    let doc = schema(rev);
    doc.get("definitions").or_else(|| doc.get("$defs")).and_then(|d| d.get(def)).is_some()
}

fn schema(rev: &str) -> Value {
    let path = protocolarc_tests::data("mcp-history").join(rev).join("schema.json");
    serde_json::from_slice(&std::fs::read(&path).expect("schema")).expect("JSON")
}

/// `def` of revision `rev` as a contract (`2025-06-18` is revision `2025.6.18`).
fn contract(def: &str, rev: &str) -> ContractSpec {
    let revision: Vec<String> = rev.split('-').map(|p| p.trim_start_matches('0').to_string()).collect();
    let name = format!("mcp.{def}");
    let (value, _notes) = schema_contract(&schema(rev), &name, &revision.join("."), Some(direction(def)), Some(def))
        .unwrap_or_else(|e| panic!("{def} {rev} imports: {e}"));
    let bytes = serde_json::to_vec(&value).expect("serialise");
    ContractSpec::from_slice(&bytes, &format!("{def}-{rev}.json")).unwrap_or_else(|e| panic!("{def} {rev} loads: {e}"))
}

/// The changes, one line each: impact, rule, field.
fn listing(d: &ContractDiff) -> String {
    d.changes().iter().map(|c| format!("\n  {} {} {}", c.impact(), c.rule(), c.field())).collect()
}

fn pair_diff(p: &Pair) -> (ContractSpec, ContractSpec, ContractDiff) {
    let old = contract(p.def, p.from);
    let new = contract(p.def, p.to);
    let d = diff(&old, &new).expect("same name");
    (old, new, d)
}

/// What is wrong with our diff of `p`, if anything.
fn judge(p: &Pair) -> Option<String> {
    let (_, _, d) = pair_diff(p);
    // The shape's rules: rewritten descriptions (`annotation.changed`) are
    // judged in `annotations.rs`.
    let ours: BTreeSet<&str> = d.changes().iter().map(|c| c.rule()).filter(|r| *r != "annotation.changed").collect();
    let want: BTreeSet<&str> = p.rules.iter().map(|r| r.0).collect();
    if d.compatibility() == p.verdict && ours == want {
        return None;
    }
    let changes: Vec<String> =
        d.changes().iter().map(|c| format!("    {} {} {}: {}", c.impact(), c.rule(), c.field(), c.message())).collect();
    let reasons: Vec<String> = p.rules.iter().map(|(r, why)| format!("    {r}: {why}")).collect();
    Some(format!(
        "{} {} -> {} ({}): expected {} with rules {want:?}, ours {} with rules {ours:?}\n  why: {}\n{}\n  \
         our changes:\n{}",
        p.def,
        p.from,
        p.to,
        direction(p.def),
        p.verdict,
        d.compatibility(),
        p.why,
        reasons.join("\n"),
        changes.join("\n")
    ))
}

#[test]
fn the_pairs_are_every_consecutive_pair_where_the_definition_exists() {
    let mut expected = Vec::new();
    for def in ["CallToolResult", "Tool", "InitializeRequest", "InitializeResult"] {
        for w in REVISIONS.windows(2) {
            if has_definition(w[0], def) && has_definition(w[1], def) {
                expected.push((def, w[0], w[1]));
            }
        }
    }
    let pinned: Vec<_> = PAIRS.iter().map(|p| (p.def, p.from, p.to)).collect();
    assert_eq!(pinned, expected);
    assert_eq!(PAIRS.len(), 14);
    assert!(!has_definition("2026-07-28", "InitializeRequest") && !has_definition("2026-07-28", "InitializeResult"));
}

#[test]
fn verdicts_and_rules_are_the_ones_judged_by_hand() {
    let failures: Vec<String> = PAIRS.iter().filter_map(judge).collect();
    assert!(failures.is_empty(), "{} of {} pairs differ:\n\n{}", failures.len(), PAIRS.len(), failures.join("\n\n"));
}

/// CallToolResult 2025-03-26 -> 2025-06-18 is breaking as a response, with a
/// `union.member.added` change (the new resource_link block).
#[test]
fn call_tool_result_gaining_resource_link_breaks_old_readers() {
    let p = &PAIRS[1];
    assert_eq!((p.def, p.from, p.to), ("CallToolResult", "2025-03-26", "2025-06-18"));
    let (old, new, d) = pair_diff(p);
    assert_eq!((old.direction(), new.direction()), (ContractDirection::Response, ContractDirection::Response));
    assert_eq!(d.compatibility(), Impact::Breaking);
    let added: Vec<_> = d.changes().iter().filter(|c| c.rule() == "union.member.added").collect();
    assert_eq!(added.len(), 1, "one member added to content[]:{}", listing(&d));
    assert_eq!(added[0].record().impact_in(ContractDirection::Response), Impact::Breaking);
}

/// A result gaining a required `resultType` is not breaking for a response:
/// `field.added.required` is forward in the response direction. The
/// verdict of both pairs that show it is breaking for another reason
/// (`structuredContent` widened), and only for that one.
#[test]
fn a_required_result_type_is_forward_for_a_response() {
    for p in [&PAIRS[3], &ISSUE_PAIR] {
        assert_eq!((p.def, p.to), ("CallToolResult", "2026-07-28"));
        let (_, _, d) = pair_diff(p);
        let result_type: Vec<_> = d.changes().iter().filter(|c| c.field() == "resultType").collect();
        assert_eq!(result_type.len(), 1, "{} -> {}:{}", p.from, p.to, listing(&d));
        assert_eq!(result_type[0].rule(), "field.added.required");
        assert_eq!(result_type[0].record().impact_in(ContractDirection::Response), Impact::Forward);
        let breaking: BTreeSet<&str> = d
            .changes()
            .iter()
            .filter(|c| c.record().impact_in(ContractDirection::Response) == Impact::Breaking)
            .map(|c| c.field())
            .collect();
        assert_eq!(breaking, BTreeSet::from(["structuredContent"]), "{} -> {}", p.from, p.to);
        assert_eq!(judge(p), None);
    }
}

/// Every breaking change's witness: the accepting side (old for a request,
/// new for a response) has no finding on it, the other side has one.
#[test]
fn every_witness_proves_its_break_in_the_contract_direction() {
    let mut checked = 0;
    let mut failures = Vec::new();
    for p in PAIRS.iter().chain([&ISSUE_PAIR]) {
        let (old, new, d) = pair_diff(p);
        let dir = old.direction();
        let (accepting, rejecting) = match dir {
            ContractDirection::Response => (&new, &old),
            _ => (&old, &new),
        };
        for c in d.changes() {
            let Some(witness) = c.witness() else { continue };
            if c.record().impact_in(dir) != Impact::Breaking {
                failures.push(format!(
                    "{} {} -> {}: {} at {} is not breaking yet has a witness",
                    p.def,
                    p.from,
                    p.to,
                    c.rule(),
                    c.field()
                ));
                continue;
            }
            checked += 1;
            let yes = accepting.validate_json(witness.as_bytes());
            let no = rejecting.validate_json(witness.as_bytes());
            if !yes.findings().is_empty() || no.findings().is_empty() {
                failures.push(format!(
                    "{} {} -> {}: {} at {}: witness {witness}\n  accepting side: {:?}\n  other side: {:?}",
                    p.def,
                    p.from,
                    p.to,
                    c.rule(),
                    c.field(),
                    yes.findings(),
                    no.findings()
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // union.member.added twice (audio, resource_link), field.type.widened
    // twice (structuredContent, in the consecutive pair and the issue's),
    // field.added.required twice (InitializeRequest's jsonrpc and id: a
    // request), and field.removed.required once (Tool's outputSchema.type: a
    // response that omits it is rejected by the old revision): 7.
    assert_eq!(checked, 7);
}

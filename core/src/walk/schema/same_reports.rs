//! Random documents under mixed contracts: every way of reading a body
//! (open maps skipped, a first-fault pass in front) against the plain walk.

use super::entry::{check_in, collect_in, Recent, FIRST_PASSES};
use super::*;
use crate::ContractSpec;

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

const KEYS: &[&str] = &["a", "\\u0061", "b", "\\u0062", "m", "x", "\\\"q", "method", "a\\/b", "a/b", "\\u00e9", "é"];

/// Scalars, among them strings past the 16 bytes a string's first block
/// reads: plain, with escapes or non-ASCII text past that block, and two
/// that are not JSON there (a raw control character, an unknown escape).
const SCALARS: &[&str] = &[
    "1",
    "\"s\"",
    "null",
    "true",
    "-2.5",
    "{}",
    "[]",
    "\"lorem ipsum dolor sit amet consectetur\"",
    "\"lorem ipsum dolor sit \\\"amet\\\" \\u00e9 consectetur\"",
    "\"lorem ipsum dolor sit am\u{e9}t, consectetur \u{e9}\"",
    "\"lorem ipsum dolor sit\u{1}amet consectetur\"",
    "\"lorem ipsum dolor sit \\q amet\"",
];

fn value(r: &mut Rng, depth: usize, out: &mut String) {
    let pick = if depth > 4 { r.below(4) } else { r.below(9) };
    match pick {
        0 => out.push_str(SCALARS[r.below(SCALARS.len() as u64) as usize]),
        1 => out.push_str("\"str\""),
        2 => out.push('3'),
        3 => out.push_str("\"ab\""),
        4..=6 => {
            out.push('{');
            let n = if depth <= 1 && r.below(4) == 0 { 30 + r.below(10) as usize } else { r.below(5) as usize };
            for i in 0..n {
                if i > 0 {
                    out.push(',');
                }
                if n > 8 && r.below(10) != 0 {
                    out.push_str(&format!("\"k{}\"", r.below(45)));
                } else {
                    out.push('"');
                    out.push_str(KEYS[r.below(KEYS.len() as u64) as usize]);
                    out.push('"');
                }
                out.push(':');
                value(r, depth + 1, out);
            }
            out.push('}');
        }
        _ => {
            out.push('[');
            let n = r.below(4);
            for i in 0..n {
                if i > 0 {
                    out.push(',');
                }
                value(r, depth + 1, out);
            }
            out.push(']');
        }
    }
}

fn doc(r: &mut Rng) -> String {
    let mut s = String::new();
    value(r, 0, &mut s);
    // Deep nesting sometimes.
    if r.below(10) == 0 {
        let n = 120 + r.below(15) as usize;
        let inner = format!("{}1{}", "{\"m\":".repeat(n), "}".repeat(n));
        s = format!("{{\"m\":{inner},\"p\":{{\"m\":{s}}}}}");
    } else if r.below(10) == 0 {
        let n = 120 + r.below(15) as usize;
        s = format!("{{\"p\":{{\"m\":{{\"x\":{}1{}}}}}}}", "[".repeat(n), "]".repeat(n));
    } else {
        s = format!("{{\"p\":{{\"m\":{s}, \"x\": {s}}}, \"m\": {s}, \"a\": [{s}]}}");
    }
    // Mutations: truncate or corrupt.
    match r.below(8) {
        0 => {
            let cut = r.below(s.len() as u64) as usize;
            if s.is_char_boundary(cut) {
                s.truncate(cut);
            }
        }
        1 => {
            let at = r.below(s.len() as u64) as usize;
            if s.is_char_boundary(at) {
                s.insert(at, [',', '}', ']', '"', 'x'][r.below(5) as usize]);
            }
        }
        _ => {}
    }
    s
}

fn off(schema: &Schema) -> Schema {
    let mut s = schema.clone();
    for n in &mut s.nodes {
        n.any_object = false;
    }
    s
}

fn lines(r: &crate::report::Report) -> Vec<String> {
    r.findings().iter().map(|f| format!("{f} {:?}", f.severity())).collect()
}

/// Schema-form contracts that put open maps in unions, `contains`,
/// `if`, `not`, `dependentSchemas`, `$ref`s, `additionalProperties` and
/// arrays, two that read the root only through membership tests, and
/// fields-form contracts, strict or not.
fn mixed_specs() -> Vec<ContractSpec> {
    let schemas = [
        r#"{"properties": {"p": {"properties": {"m": {"type": "object"}, "x": {"type": ["object", "array", "string"], "minLength": 3, "format": "email"}}}, "m": {"type": "object", "additionalProperties": {}}, "a": {"items": {"type": "object", "additionalProperties": true}}}}"#,
        r#"{"properties": {"p": {"anyOf": [{"type": "object"}, {"type": "string"}]}, "m": {"oneOf": [{"type": "object"}, {"type": "object", "additionalProperties": {}}]}, "a": {"contains": {"type": "object"}, "minContains": 1}}}"#,
        r##"{"$defs": {"o": {"type": "object"}}, "properties": {"p": {"additionalProperties": {"$ref": "#/$defs/o"}}, "m": {"$ref": "#/$defs/o"}, "a": {"items": {"$ref": "#/$defs/o", "title": "t"}}}, "additionalProperties": {"$ref": "#/$defs/o"}}"##,
        r#"{"properties": {"p": {"type": "object", "dependentSchemas": {"m": {"type": "object"}, "x": {"properties": {"x": {"type": "object"}}}}}, "m": {"if": {"type": "object"}, "then": {"type": "object"}, "else": {"type": "array"}}, "a": {"not": {"items": {"type": "object"}}}}}"#,
        r#"{"type": "object", "additionalProperties": {"type": "object"}}"#,
        r#"{"type": "object"}"#,
        r#"{"properties": {"p": {"propertyNames": {"type": "string"}, "additionalProperties": {"type": "object"}}, "m": {"allOf": [{"type": "object"}, {"type": ["object", "null"]}]}, "a": {"uniqueItems": true, "items": {"type": "object"}}}}"#,
        r#"{"properties": {"p": {"oneOf": [{"type": "object"}, {"properties": {"m": {"type": "object"}}, "required": ["m"]}]}, "m": {"anyOf": [{"type": "array"}, {"type": "object"}]}}}"#,
        // Strings no keyword looks at, read by a verdict without their text.
        r#"{"properties": {"p": {"type": "string"}, "m": {"type": ["string", "object"]}, "a": {"items": {"type": "string"}}}}"#,
        // The root object read only through membership tests (memoised
        // verdicts: a walk that finds them in the memo reads nothing).
        r#"{"oneOf": [{"required": ["m"]}, {"required": ["p"]}]}"#,
        r#"{"anyOf": [{"type": "object"}], "not": {"required": ["m"]}}"#,
        // Keys and elements judged by what the rest evaluated, and a
        // reference resolved through the dynamic scope.
        r#"{"properties": {"p": {"properties": {"m": {"type": "object"}}, "anyOf": [{"properties": {"x": true}}, {"required": ["a"]}], "unevaluatedProperties": {"type": "object"}}, "a": {"prefixItems": [{"type": "object"}], "contains": {"type": "string"}, "unevaluatedItems": {"type": "object"}}}, "allOf": [{"properties": {"m": true}}], "unevaluatedProperties": false}"#,
        r##"{"$id": "https://example.com/r", "$dynamicAnchor": "n", "$ref": "t", "unevaluatedProperties": false, "$defs": {"t": {"$id": "t", "$dynamicAnchor": "n", "properties": {"p": {"$dynamicRef": "#n"}, "m": true, "a": {"items": {"$dynamicRef": "#n"}}}}}}"##,
    ];
    let mut specs: Vec<ContractSpec> = schemas
        .iter()
        .map(|s| {
            ContractSpec::from_slice(
                format!(r#"{{"name": "t.d", "revision": "1.0.0", "schema": {s}}}"#).as_bytes(),
                "t.json",
            )
            .expect("loads")
        })
        .collect();
    for strict in ["true", "false"] {
        let doc = format!(
            r#"{{"name": "t.f", "revision": "1.0.0", "strict": {strict}, "fields": [{{"name": "p", "type": "object", "required": false}}, {{"name": "m", "type": "object", "required": false}}, {{"name": "a", "type": "array", "required": false}}, {{"name": "a[]", "type": "object"}}]}}"#
        );
        specs.push(ContractSpec::from_slice(doc.as_bytes(), "t.json").expect("fields loads"));
    }
    let strings = r#"{"name": "t.s", "revision": "1.0.0", "fields": [{"name": "p", "type": "string", "required": false}, {"name": "m", "type": ["string", "object"], "required": false}, {"name": "a", "type": "array", "required": false}, {"name": "a[]", "type": "string"}]}"#;
    specs.push(ContractSpec::from_slice(strings.as_bytes(), "t.json").expect("fields loads"));
    specs
}

/// Every walk mode gives the same answer with open maps read as skipped
/// values (`Node::any_object`) as with every map read member by member:
/// the report (findings, severities, order), `passes`, and the top
/// members, on random documents (escaped and repeated keys, objects past
/// the 32-key switch, nesting past the limit, truncated and corrupted
/// bytes) under schemas that put open maps in unions, `contains`, `if`,
/// `not`, `dependentSchemas`, `$ref`s, `additionalProperties` and arrays,
/// and under fields-form contracts, strict or not.
#[test]
fn an_open_map_read_as_a_skip_gives_the_member_by_member_report() {
    let specs = mixed_specs();
    let mut count_any = 0;
    for spec in &specs {
        let on = spec.walked();
        count_any += on.nodes.iter().filter(|n| n.any_object).count();
    }
    assert!(count_any > 10, "{count_any}");
    let pairs: Vec<(&Schema, Schema)> = specs.iter().map(|spec| (spec.walked(), off(spec.walked()))).collect();
    let mut r = Rng(0x9E37_79B9_7F4A_7C15);
    let mut differ = 0;
    let mut sizes = 0;
    for i in 0..600 {
        let d = doc(&mut r);
        sizes += d.len();
        for (on, offs) in &pairs {
            let (on, offs) = (*on, offs);
            let a = collect(on, d.as_bytes());
            let b = collect(offs, d.as_bytes());
            if lines(&a) != lines(&b) {
                differ += 1;
                eprintln!("document {i} under {}\n{d}\n{:?}\n{:?}", on.canonical, lines(&a), lines(&b));
            }
            assert_eq!(passes(on, d.as_bytes()), passes(offs, d.as_bytes()), "passes {d}");
            assert_eq!(passes(on, d.as_bytes()), a.is_valid(), "passes vs collect {d}");
            let keys: &[&str] = &["m", "p", "a"];
            let (_, ta) = collect_top(on, d.as_bytes(), TopMembers::new(keys));
            let (_, tb) = collect_top(offs, d.as_bytes(), TopMembers::new(keys));
            for k in 0..3 {
                assert_eq!(ta.get(d.as_bytes(), k), tb.get(d.as_bytes(), k), "top {d}");
            }
        }
    }
    assert_eq!(differ, 0);
    // Documents of a few kilobytes on average, not a handful of giants.
    assert!((600_000..6_000_000).contains(&sizes), "{sizes} bytes in all");
}

/// The first-fault pass in front of the finding walk ([`check`]) gives
/// the finding walk's report and top members, whichever way the recent
/// bodies send a body (`first` or not), on the random documents and
/// contracts above (`first` false is the finding walk alone, the
/// baseline); and a strict fields-form twin, whose warnings fail the
/// first-fault pass as faults do.
#[test]
fn the_first_fault_pass_in_front_gives_the_finding_walks_report() {
    let specs = mixed_specs();
    let mut r = Rng(0x51DE_CA7E_D00D_F00D);
    let (mut valid, mut invalid, mut warned) = (0, 0, 0);
    let keys: &[&str] = &["m", "p", "a", "x"];
    // Random documents, and two with an undeclared top-level key only
    // (a strict twin's warning and nothing else).
    let mut docs: Vec<String> = (0..400).map(|_| doc(&mut r)).collect();
    docs.extend([r#"{"zz": 1}"#.to_string(), r#"{"p": {}, "zz": [2]}"#.to_string()]);
    for d in &docs {
        let d = d.as_bytes();
        for spec in &specs {
            let schema = spec.walked();
            let alone = collect(schema, d);
            for first in [true, false] {
                let memo = Memo { top: Some(RefCell::new(TopMembers::new(keys))), ..Memo::default() };
                let report = check_in(schema, d, &memo, first);
                assert_eq!(lines(&report), lines(&alone), "first {first}: {}", String::from_utf8_lossy(d));
                let top = memo.top.map(RefCell::into_inner).expect("set");
                let (_, top_alone) = {
                    let memo = Memo { top: Some(RefCell::new(TopMembers::new(keys))), ..Memo::default() };
                    let report = collect_in(schema, d, &memo);
                    (report, memo.top.map(RefCell::into_inner).expect("set"))
                };
                for k in 0..keys.len() {
                    assert_eq!(top.get(d, k), top_alone.get(d, k), "top {}", String::from_utf8_lossy(d));
                }
            }
            match (alone.findings().is_empty(), alone.is_valid()) {
                (true, _) => valid += 1,
                (false, true) => warned += 1,
                (false, false) => invalid += 1,
            }
        }
    }
    // Both ways, and the strict twin's warnings, really were exercised.
    assert!(valid > 400 && invalid > 400 && warned == 2, "{valid} valid, {invalid} invalid, {warned} warned");
}

/// Members of tagged unions: `A` and `B` read on after a first-key tag
/// (`A` closed, `B` counting its members and with `dependentRequired`),
/// `C` and `D` not (`C`'s tag property has a `pattern`; `D`'s tag value
/// holds a control character): their objects are read from the start.
const TAGGED_DEFS: &str = r#""$defs": {
    "A": {"type": "object", "properties": {"type": {"const": "a"}, "x": {"type": "integer"}},
          "required": ["type", "x"], "additionalProperties": false},
    "B": {"properties": {"type": {"type": "string", "enum": ["b"]}, "y": {"type": "string", "minLength": 2}},
          "required": ["type"], "minProperties": 2, "maxProperties": 3, "dependentRequired": {"y": ["z"]}},
    "C": {"properties": {"type": {"const": "c", "pattern": "^c$"}}, "required": ["type"]},
    "D": {"properties": {"type": {"const": "d\n"}}, "required": ["type"]}"#;

const MEMBERS: &str =
    r##"[{"$ref": "#/$defs/A"}, {"$ref": "#/$defs/B"}, {"$ref": "#/$defs/C"}, {"$ref": "#/$defs/D"}]"##;

fn tagged_spec(schema: &str) -> ContractSpec {
    let text = format!(r#"{{"name": "t.u", "revision": "1.0.0", "schema": {schema}}}"#);
    ContractSpec::from_slice(text.as_bytes(), "t.json").expect("loads")
}

/// The union in an array, under `oneOf`, as an untagged union's member,
/// under `not` and `if` (membership tests: first-fault sub-walks, and
/// the finding walks behind a failed union's message), and as the root.
fn tagged_specs() -> Vec<ContractSpec> {
    let schemas = [
        format!(
            r##"{{{TAGGED_DEFS}}}, "properties": {{"items": {{"type": "array", "items": {{"anyOf": {MEMBERS}}}}},
                "one": {{"oneOf": [{{"$ref": "#/$defs/A"}}, {{"$ref": "#/$defs/B"}}]}},
                "wrapped": {{"anyOf": [{{"type": "string"}}, {{"anyOf": {MEMBERS}}}]}},
                "neg": {{"not": {{"anyOf": {MEMBERS}}}}},
                "cond": {{"if": {{"anyOf": {MEMBERS}}}, "then": {{"required": ["x"]}}, "else": {{"type": "object"}}}}}}}}"##
        ),
        format!(r#"{{{TAGGED_DEFS}}}, "oneOf": {MEMBERS}}}"#),
    ];
    schemas.iter().map(|s| tagged_spec(s)).collect()
}

/// The tags' [`Resume`](crate::contract::schema::Resume)s, member by member.
fn resumes(schema: &Schema) -> Vec<Vec<bool>> {
    let unions = schema.nodes.iter().flat_map(|n| [n.any_of.as_deref(), n.one_of.as_deref()]).flatten();
    unions.filter_map(|u| u.tag.as_ref()).map(|t| t.resume.iter().map(Option::is_some).collect()).collect()
}

/// The way before resumes: with none, the scanner finds every tag and
/// the member reads the object from its start.
fn without_resumes(schema: &Schema) -> Schema {
    let mut s = schema.clone();
    for n in &mut s.nodes {
        for u in [n.any_of.as_deref_mut(), n.one_of.as_deref_mut()].into_iter().flatten() {
            if let Some(t) = &mut u.tag {
                t.resume = Vec::new();
            }
        }
    }
    s
}

/// A member object: a tag (first, or among the others), other keys.
fn tagged(r: &mut Rng, out: &mut String) {
    const TAGS: &[&str] = &[
        r#""type": "a""#,
        r#""type":"b""#,
        "\"type\" \n: \t\"c\"",
        "\"type\" : \"a\"",
        "\"type\"\t:\"b\"",
        r#""type": "zz""#,
        r#""type": "\u0061""#,
        r#""type": 1"#,
        r#""typ\u0065": "a""#,
        r#""type": "b\""#,
        "\"type\": \"d\n\"",
        r#""type": "d\n""#,
    ];
    const OTHERS: &[&str] = &["x", "y", "z", "type", "\\u0078", "w"];
    const VALUES: &[&str] = &["1", "\"s\"", "\"ab\"", "{}", "[]", "null", "true", "\"a\"", "2.5"];
    let n = r.below(4) as usize;
    let at = if r.below(4) == 0 { r.below(n as u64 + 1) as usize } else { 0 };
    let mut parts: Vec<String> = (0..n)
        .map(|_| {
            let key = OTHERS[r.below(OTHERS.len() as u64) as usize];
            format!("\"{key}\": {}", VALUES[r.below(VALUES.len() as u64) as usize])
        })
        .collect();
    parts.insert(at, TAGS[r.below(TAGS.len() as u64) as usize].to_string());
    let (before, inside) = ([" ", "", "\n"][r.below(3) as usize], ["", "", " ", "\n\t"][r.below(4) as usize]);
    out.push_str(&format!("{before}{{{inside}{}}}", parts.join(", ")));
}

fn tagged_doc(r: &mut Rng) -> String {
    let mut s = String::new();
    if r.below(3) == 0 {
        tagged(r, &mut s);
    } else {
        s.push_str(r#"{"items": ["#);
        for i in 0..r.below(5) {
            if i > 0 {
                s.push(',');
            }
            tagged(r, &mut s);
        }
        s.push(']');
        for key in ["one", "wrapped", "neg", "cond"] {
            if r.below(2) == 0 {
                s.push_str(&format!(r#", "{key}": "#));
                tagged(r, &mut s);
            }
        }
        s.push('}');
    }
    match r.below(8) {
        0 => s.truncate(r.below(s.len() as u64) as usize),
        1 => s.insert(r.below(s.len() as u64) as usize, [',', '}', '"', ':'][r.below(4) as usize]),
        _ => {}
    }
    s
}

/// `on` and `off` give the same answer on `d`: the report of every
/// mode, `passes`, the first-fault pass in front (forced on and off),
/// and the watched top-level members.
fn same_answers(on: &Schema, off: &Schema, bytes: &[u8], keys: &'static [&'static str]) -> bool {
    let d = String::from_utf8_lossy(bytes);
    let a = collect(on, bytes);
    assert_eq!(lines(&a), lines(&collect(off, bytes)), "{d}");
    assert_eq!(passes(on, bytes), passes(off, bytes), "passes {d}");
    assert_eq!(passes(on, bytes), a.is_valid(), "passes vs collect {d}");
    for first in [true, false] {
        assert_eq!(lines(&check_in(on, bytes, &Memo::default(), first)), lines(&a), "first {first}: {d}");
    }
    let (ra, ta) = collect_top(on, bytes, TopMembers::new(keys));
    let (rb, tb) = collect_top(off, bytes, TopMembers::new(keys));
    assert_eq!(lines(&ra), lines(&rb), "collect_top {d}");
    for k in 0..keys.len() {
        assert_eq!(ta.get(bytes, k), tb.get(bytes, k), "top {d}");
    }
    a.is_valid()
}

/// A member that reads its object on from a first-key tag gives the
/// report of a read from the object's start, the scanner finding the tag
/// (the way before resumes), on random documents: tags first or not,
/// spaced or not, repeated, escaped, unknown, not strings, with a raw
/// control character; members closed, counted, with `dependentRequired`;
/// unions in arrays, under `oneOf`, in membership tests, at the root;
/// truncated and corrupted bytes.
#[test]
fn a_member_read_on_from_its_tag_gives_the_report_read_from_the_start() {
    let specs = tagged_specs();
    // `A` and `B` read on, `C` and `D` do not; five unions in the first
    // schema (`items`, `one`, and the three under membership tests).
    let all = vec![true, true, false, false];
    assert_eq!(resumes(specs[0].walked()), [all.clone(), vec![true, true], all.clone(), all.clone(), all.clone()]);
    assert_eq!(resumes(specs[1].walked()), [all]);
    let pairs: Vec<(&Schema, Schema)> =
        specs.iter().map(|spec| (spec.walked(), without_resumes(spec.walked()))).collect();
    assert!(resumes(&pairs[0].1).iter().all(Vec::is_empty));
    // A tag key that JSON spells with an escape has no resumes: the
    // scanner finds the tag, decoded.
    let escaped = tagged_spec(
        r#"{"anyOf": [
            {"properties": {"t\"": {"const": "a"}, "x": {"type": "integer"}}, "required": ["t\""]},
            {"properties": {"t\"": {"const": "b"}}, "required": ["t\""]}]}"#,
    );
    assert_eq!(resumes(escaped.walked()), [Vec::<bool>::new()]);
    assert!(passes(escaped.walked(), br#"{"t\"": "a", "x": 1}"#));
    assert_eq!(
        lines(&collect(escaped.walked(), br#"{"t\"": "a", "x": "1"}"#)),
        ["ERROR field.type x: expected integer, found string Error"]
    );
    let mut r = Rng(0x7A66_ED00_0B1E_C75D);
    let (mut valid, mut invalid, mut tag_first) = (0, 0, 0);
    for _ in 0..3000 {
        let d = tagged_doc(&mut r);
        // Objects whose first key is the tag (the read-on way's input).
        tag_first += [r#"{"type""#, r#"{ "type""#, "{\n\t\"type\""].iter().map(|t| d.matches(t).count()).sum::<usize>();
        for (on, off) in &pairs {
            if same_answers(on, off, d.as_bytes(), &["type", "x", "items"]) {
                valid += 1;
            } else {
                invalid += 1;
            }
        }
    }
    assert!(valid > 300 && invalid > 3000 && tag_first > 5000, "{valid} valid, {invalid} invalid, {tag_first}");
}

/// At the limits: a member reached through a chain of `$ref`s around the
/// 64 applicators one value may chain (past it, the member is not read on
/// and the read from the start is too deep, as before), and unions nested
/// around the depth limit of 128.
#[test]
fn a_member_read_on_from_its_tag_keeps_the_chain_and_depth_limits() {
    let mut verdicts = Vec::new();
    for hops in 58..=66 {
        let chain: Vec<String> = (0..hops)
            .map(|k| {
                let to = if k + 1 == hops { "A".to_string() } else { format!("H{}", k + 1) };
                format!(r##""H{k}": {{"$ref": "#/$defs/{to}"}}"##)
            })
            .collect();
        let defs = TAGGED_DEFS.replacen(r#""$defs": {"#, &format!(r#""$defs": {{{},"#, chain.join(", ")), 1);
        let spec = tagged_spec(&format!(
            r##"{{{defs}}}, "properties": {{"items": {{"type": "array", "items": {{"anyOf": [{{"$ref": "#/$defs/H0"}}, {{"$ref": "#/$defs/B"}}]}}}}}}}}"##
        ));
        let (on, off) = (spec.walked(), without_resumes(spec.walked()));
        let tagged = !resumes(on).is_empty();
        let resumed = resumes(on).first().is_some_and(|r| r[0]);
        let ok = same_answers(
            on,
            &off,
            br#"{"items": [{"type": "a", "x": 1}, {"type": "b", "y": "yy", "z": 0}]}"#,
            &["items"],
        );
        same_answers(
            on,
            &off,
            br#"{"items": [{"type": "a", "x": "1"}, {"type": "a", "type": "a", "x": 1}]}"#,
            &["items"],
        );
        verdicts.push((hops, tagged, resumed, ok));
    }
    // Read on while the chain allows, from the start past it (too deep
    // there, as before), and untagged once the `$ref`s outrun the
    // compiler's search for the tag.
    let expected: Vec<(usize, bool, bool, bool)> = vec![
        (58, true, true, true),
        (59, true, true, true),
        (60, true, true, true),
        (61, true, true, true),
        (62, true, true, true),
        (63, true, true, false),
        (64, false, false, false),
        (65, false, false, false),
        (66, false, false, false),
    ];
    assert_eq!(verdicts, expected);

    let spec = tagged_spec(
        r##"{"$defs": {"U": {"anyOf": [{"$ref": "#/$defs/N"}, {"$ref": "#/$defs/E"}]},
            "N": {"properties": {"type": {"const": "n"}, "next": {"$ref": "#/$defs/U"}}, "required": ["type"]},
            "E": {"properties": {"type": {"const": "e"}}, "required": ["type"], "additionalProperties": false}},
            "$ref": "#/$defs/U"}"##,
    );
    assert_eq!(resumes(spec.walked()), [vec![true, true]]);
    let (on, off) = (spec.walked(), without_resumes(spec.walked()));
    let mut at_limit = Vec::new();
    for n in 120..=132 {
        let d = format!(r#"{}{{"type": "e"}}{}"#, r#"{"type": "n", "next": "#.repeat(n), "}".repeat(n));
        at_limit.push(same_answers(on, &off, d.as_bytes(), &["type"]));
    }
    // Valid up to the depth limit, too deep past it.
    assert_eq!(at_limit.iter().filter(|&&ok| ok).count(), 8, "{at_limit:?}");
    assert!(at_limit[0] && !at_limit[12]);
}

/// A contract of `tests/data/contracts/` (imported from the official
/// MCP and A2A schemas; provenance there).
fn real_spec(rel: &str) -> ContractSpec {
    let path = format!("{}/../tests/data/contracts/{rel}", env!("CARGO_MANIFEST_DIR"));
    ContractSpec::from_slice(&std::fs::read(&path).expect("the contract file"), rel).expect("loads")
}

/// On the real MCP `CallToolResult` and A2A `Message` contracts every
/// member of the content-block and part unions reads on from its tag,
/// and bodies built from the specifications' examples (every kind of
/// block and part) and every one-byte deletion or corruption of them
/// get the answers of the way before.
#[test]
fn real_mcp_and_a2a_members_read_on_from_their_tags() {
    const MCP: &str = r#"{"content": [{"type": "text", "text": "Current weather in New York:\nTemperature: 72°F"}, {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png", "annotations": {"audience": ["user"], "priority": 0.9}}, {"type": "audio", "data": "UklGRiQAAABXQVZF", "mimeType": "audio/wav"}, {"type": "resource_link", "uri": "file:///project/src/main.rs", "name": "main.rs", "mimeType": "text/x-rust"}, {"type": "resource", "resource": {"uri": "file:///project/src/main.rs", "mimeType": "text/x-rust", "text": "fn main() {}"}}, {"type": "resource", "resource": {"uri": "file:///project/docs/report.pdf", "blob": "JVBERi0xLjcK"}}], "structuredContent": {"temperature": 22.5}, "isError": false}"#;
    const A2A: &str = r#"{"kind": "message", "messageId": "9229e770-767c-417b-a0b0-f0741243c589", "role": "user", "parts": [{"kind": "text", "text": "Analyze this image"}, {"kind": "file", "file": {"name": "input_image.png", "mimeType": "image/png", "bytes": "iVBORw0KGgo="}}, {"kind": "file", "file": {"uri": "https://storage.example.com/report.pdf", "mimeType": "application/pdf"}}, {"kind": "data", "data": {"flight": "AA123"}}]}"#;
    for (rel, body, expected) in [
        ("mcp/call_tool_result_2025.6.18.json", MCP, vec![vec![true; 5]]),
        ("a2a/message_0.3.0.json", A2A, vec![vec![true; 3]]),
    ] {
        let spec = real_spec(rel);
        let (on, off) = (spec.walked(), without_resumes(spec.walked()));
        assert_eq!(resumes(on), expected, "{rel}");
        assert!(same_answers(on, &off, body.as_bytes(), &["content", "parts"]), "{rel}: the body is valid");
        let (mut valid, mut invalid) = (0, 0);
        for at in 0..body.len() {
            for change in [None, Some('"'), Some('}'), Some('x')] {
                let mut d = body.as_bytes().to_vec();
                match change {
                    None => drop(d.remove(at)),
                    Some(c) => d[at] = c as u8,
                }
                if same_answers(on, &off, &d, &["content", "parts"]) {
                    valid += 1;
                } else {
                    invalid += 1;
                }
            }
        }
        assert!(valid > 500 && invalid > 900, "{rel}: {valid} valid, {invalid} invalid mutants");
    }
}

/// What a member read on from its tag reports: the tag's repeat, the
/// members it counts (the tag among them), the keys it requires.
#[test]
fn a_member_read_on_from_its_tag_counts_and_finds_repeats_of_the_tag() {
    let specs = tagged_specs();
    let schema = specs[0].walked();
    let data = br#"{"items": [{"type": "a", "type": "b", "x": 1}, {"type": "b"}, {"type": "b", "y": "yy", "q": 1, "w": 2}, {"type": "a", "x": 1, "z": 0}], "one": {"type": "b", "y": "yy"}}"#;
    let report = collect(schema, data);
    assert_eq!(lines(&report), lines(&collect(&without_resumes(schema), data)));
    assert_eq!(
        lines(&report),
        [
            "ERROR json.duplicate_key items[0].type: key appears more than once in its object Error",
            "ERROR field.minProperties items[1]: 1 properties is less than minProperties 2 Error",
            "ERROR field.maxProperties items[2]: 4 properties is greater than maxProperties 3 Error",
            "ERROR field.dependentRequired items[2].z: required when 'y' is present (dependentRequired) Error",
            "ERROR field.additionalProperties items[3].z: key is not allowed: the object is closed (additionalProperties: false) Error",
            "ERROR field.dependentRequired one.z: required when 'y' is present (dependentRequired) Error",
        ]
    );
}

/// The recent bodies decide the first-fault pass: more than six with
/// findings among the last 32 turn it off, and it comes back once they
/// have moved out of the window.
#[test]
fn bodies_with_findings_lately_skip_the_first_fault_pass() {
    let spec = ContractSpec::from_slice(
        br#"{"name": "t.r", "revision": "1.0.0", "schema": {"type": "object", "required": ["a"]}}"#,
        "t.json",
    )
    .expect("loads");
    let schema = spec.walked();
    let (good, bad) = (br#"{"a": 1}"#.as_slice(), br#"{}"#.as_slice());
    let passes = || FIRST_PASSES.with(std::cell::Cell::get);
    // Whether `check` and `collect_top` each ran the first-fault pass.
    let ran = |body: &[u8]| {
        let before = passes();
        let report = check(schema, body);
        let by_check = passes() - before;
        let (top_report, _) = collect_top(schema, body, TopMembers::new(&["a"]));
        assert_eq!(lines(&report), lines(&top_report));
        (by_check, passes() - before - by_check)
    };
    assert_eq!(ran(good), (1, 1));
    assert_eq!(lines(&check(schema, bad)), ["ERROR field.required a: required field is missing Error"]);
    for _ in 0..40 {
        check(schema, good);
    }
    assert!(Recent::first());
    for _ in 0..6 {
        check(schema, bad);
    }
    assert!(Recent::first(), "six in 32 keep it");
    assert_eq!(ran(bad), (1, 0), "the seventh takes it; then the eighth (collect_top's) does not");
    assert!(!Recent::first(), "seven turn it off");
    for _ in 0..23 {
        check(schema, good);
    }
    assert_eq!(ran(good), (0, 0), "the eight are still among the last 32");
    assert_eq!(ran(good), (0, 1), "the oldest has left the window");
    assert!(Recent::first());
}

//! Adversarial corpus for the contract loader and the data-body validator.
//!
//! Every expectation here is derived from `SPEC.md` §2–§4 (plus the documented
//! project conventions for `<data>`, `json.syntax`, `json.depth`,
//! `json.duplicate_key`, implied parents and `field.unknown`), never from the
//! implementation. Each suite runs all of its cases and reports every mismatch
//! at once, so one run lists all failures.

use std::fmt::Write as _;

use proptest::prelude::*;
use protocolarc::{ContractSpec, Severity};

const E: &str = "error";
const W: &str = "warning";

type Triple<'a> = (&'a str, &'a str, &'a str);

// ---------------------------------------------------------------------------
// helpers
// ---------------------------------------------------------------------------

/// A non-strict contract whose `fields` array holds `fields` (JSON text).
fn c(fields: &str) -> String {
    format!(r#"{{"name":"adv.test","revision":"1.0.0","fields":[{fields}]}}"#)
}

/// A strict contract whose `fields` array holds `fields` (JSON text).
fn cs(fields: &str) -> String {
    format!(r#"{{"name":"adv.test","revision":"1.0.0","strict":true,"fields":[{fields}]}}"#)
}

/// A contract with a single required field `v` carrying the keywords `rest`.
fn one(rest: &str) -> String {
    c(&format!(r#"{{"name":"v",{rest}}}"#))
}

/// A data body `{"v": <val>}`.
fn v(val: &str) -> String {
    format!(r#"{{"v":{val}}}"#)
}

fn sev(s: Severity) -> &'static str {
    match s {
        Severity::Error => E,
        Severity::Warning => W,
    }
}

fn load(contract: &str) -> Result<ContractSpec, String> {
    ContractSpec::from_slice(contract.as_bytes(), "adversarial.json").map_err(|e| {
        let mut s = String::new();
        for d in e.diagnostics() {
            let _ = write!(s, "[{}:{} {:?} {}] ", d.line, d.column, d.field, d.message);
        }
        s
    })
}

fn show(bytes: &[u8]) -> String {
    let s = String::from_utf8_lossy(bytes);
    if s.len() > 160 {
        format!("{}…({} bytes)", &s.chars().take(150).collect::<String>(), bytes.len())
    } else {
        s.into_owned()
    }
}

struct Suite {
    name: &'static str,
    cases: usize,
    failures: Vec<String>,
}

impl Suite {
    fn new(name: &'static str) -> Self {
        Suite { name, cases: 0, failures: Vec::new() }
    }

    fn fail(&mut self, msg: String) {
        self.failures.push(msg);
    }

    /// Validates `data` against `contract` and compares the sorted
    /// (severity, rule, field) triples with `expect`.
    fn check(&mut self, contract: &str, data: &str, expect: &[Triple]) {
        self.check_bytes(contract, data.as_bytes(), expect);
    }

    fn check_bytes(&mut self, contract: &str, data: &[u8], expect: &[Triple]) {
        self.cases += 1;
        let spec = match load(contract) {
            Ok(s) => s,
            Err(d) => {
                self.fail(format!("contract {contract} failed to load: {d}\n    data: {}", show(data)));
                return;
            }
        };
        let report = spec.validate_json(data);
        let got: Vec<(String, String, String)> = report
            .findings()
            .iter()
            .map(|f| (sev(f.severity()).to_string(), f.rule().to_string(), f.field().to_string()))
            .collect();
        let mut got_sorted = got.clone();
        got_sorted.sort();
        let mut want: Vec<(String, String, String)> =
            expect.iter().map(|(a, b, c)| (a.to_string(), b.to_string(), c.to_string())).collect();
        want.sort();
        if got_sorted != want {
            self.fail(format!(
                "contract: {contract}\n    data: {}\n    expected: {want:?}\n    got:      {got:?}",
                show(data)
            ));
            return;
        }
        let has_error = got.iter().any(|t| t.0 == E);
        if report.is_valid() == has_error {
            self.fail(format!(
                "contract: {contract}\n    data: {}\n    is_valid() = {} but findings are {got:?}",
                show(data),
                report.is_valid()
            ));
        }
        // SPEC §4: sorted by severity (error first), field, rule. Only checked
        // where the field order is unambiguous (plain ASCII, no indices).
        let rank = |s: &str| if s == E { 0 } else { 1 };
        let plain = got.iter().all(|t| t.2.is_ascii() && !t.2.contains('['));
        let mut ordered = got.clone();
        ordered.sort_by(|a, b| (rank(&a.0), &a.2, &a.1).cmp(&(rank(&b.0), &b.2, &b.1)));
        if plain && ordered != got {
            self.fail(format!(
                "contract: {contract}\n    data: {}\n    findings not in SPEC order: {got:?}",
                show(data)
            ));
        }
    }

    /// Field `v` of the single-field contract built from `rest`, value `val`:
    /// `rules` are the error rules expected at `v`.
    fn val(&mut self, rest: &str, val: &str, rules: &[&str]) {
        let expect: Vec<Triple> = rules.iter().map(|r| (E, *r, "v")).collect();
        self.check(&one(rest), &v(val), &expect);
    }

    /// Exactly one finding, an error whose rule is one of `rules` (any field).
    fn check_single_rule(&mut self, contract: &str, data: &[u8], rules: &[&str]) {
        self.cases += 1;
        let spec = match load(contract) {
            Ok(s) => s,
            Err(d) => {
                self.fail(format!("contract {contract} failed to load: {d}"));
                return;
            }
        };
        let report = spec.validate_json(data);
        let got: Vec<(&str, &str, &str)> =
            report.findings().iter().map(|f| (sev(f.severity()), f.rule(), f.field())).collect();
        let ok = got.len() == 1 && got[0].0 == E && rules.contains(&got[0].1) && !report.is_valid();
        if !ok {
            self.fail(format!(
                "contract: {contract}\n    data: {}\n    expected exactly one error in {rules:?}\n    got: {got:?}",
                show(data)
            ));
        }
    }

    /// The contract must fail to load, with at least one diagnostic whose
    /// line is one of the lines containing any of `needles` (all lines when
    /// `needles` is empty) and whose column lies on that line.
    fn load_err(&mut self, contract: &str, needles: &[&str]) {
        self.load_err_named(contract, needles, None);
    }

    fn load_err_named(&mut self, contract: &str, needles: &[&str], field: Option<&str>) {
        self.cases += 1;
        let lines: Vec<&str> = contract.split('\n').collect();
        let wanted: Vec<usize> = (1..=lines.len())
            .filter(|&n| needles.is_empty() || needles.iter().any(|nd| lines[n - 1].contains(nd)))
            .collect();
        assert!(!wanted.is_empty(), "test bug: no line of {contract:?} contains {needles:?}");
        match ContractSpec::from_slice(contract.as_bytes(), "adversarial.json") {
            Ok(_) => self.fail(format!("contract loaded but SPEC §2 makes it a structural error:\n{contract}")),
            Err(e) => {
                let diags = e.diagnostics();
                let rendered: Vec<String> = diags
                    .iter()
                    .map(|d| format!("{}:{} field={:?} {}", d.line, d.column, d.field, d.message))
                    .collect();
                if diags.is_empty() {
                    self.fail(format!("no diagnostics for:\n{contract}"));
                    return;
                }
                let positioned = diags
                    .iter()
                    .any(|d| wanted.contains(&d.line) && d.column >= 1 && d.column <= lines[d.line - 1].len() + 1);
                if !positioned {
                    self.fail(format!(
                        "no diagnostic on line(s) {wanted:?} of:\n{contract}\n    diagnostics: {rendered:?}"
                    ));
                }
                if let Some(name) = field {
                    let named = diags.iter().any(|d| d.field.as_deref() == Some(name) || d.message.contains(name));
                    if !named {
                        self.fail(format!(
                            "no diagnostic names field {name:?}:\n{contract}\n    diagnostics: {rendered:?}"
                        ));
                    }
                }
            }
        }
    }

    fn load_bytes_err(&mut self, contract: &[u8]) {
        self.cases += 1;
        match ContractSpec::from_slice(contract, "adversarial.json") {
            Ok(_) => self.fail(format!("malformed contract bytes loaded: {}", show(contract))),
            Err(e) => {
                if e.diagnostics().is_empty() || e.diagnostics().iter().any(|d| d.line == 0 || d.column == 0) {
                    self.fail(format!("bad diagnostics for {}: empty or not 1-based", show(contract)));
                }
            }
        }
    }

    fn load_ok(&mut self, contract: &str) {
        self.cases += 1;
        if let Err(d) = load(contract) {
            self.fail(format!("contract should load:\n{contract}\n    diagnostics: {d}"));
        }
    }

    fn finish(self) {
        assert!(self.cases > 0, "suite {} ran no case", self.name);
        eprintln!("suite {}: {} cases, {} failing", self.name, self.cases, self.failures.len());
        if !self.failures.is_empty() {
            let mut msg = format!("{} of {} cases failed in suite {}:\n", self.failures.len(), self.cases, self.name);
            for f in &self.failures {
                let _ = writeln!(msg, "  - {f}");
            }
            panic!("{msg}");
        }
    }
}

/// A multi-line contract: `name` on line 2, `revision` on line 3, `fields`
/// opening on line 4 and field `i` on line `5 + i`.
fn ml(fields: &[&str]) -> String {
    let mut s = String::from("{\n  \"name\": \"adv.test\",\n  \"revision\": \"1.0.0\",\n  \"fields\": [\n");
    for (i, f) in fields.iter().enumerate() {
        s.push_str("    ");
        s.push_str(f);
        if i + 1 < fields.len() {
            s.push(',');
        }
        s.push('\n');
    }
    s.push_str("  ]\n}\n");
    s
}

/// A multi-line contract with a custom header (one key per line, without the
/// trailing comma) followed by a single simple field.
fn ml_head(head: &[&str]) -> String {
    let mut s = String::from("{\n");
    for h in head {
        s.push_str("  ");
        s.push_str(h);
        s.push_str(",\n");
    }
    s.push_str("  \"fields\": [\n    { \"name\": \"a\", \"type\": \"string\" }\n  ]\n}\n");
    s
}

// ---------------------------------------------------------------------------
// §2 types
// ---------------------------------------------------------------------------

#[test]
fn types() {
    let mut s = Suite::new("types");
    let int = r#""type":"integer""#;
    for ok in [
        "1",
        "1.0",
        "1e2",
        "-0",
        "-0.0",
        "1E+2",
        "1.5e1",
        "100e-2",
        "0.1e1",
        "1.0e-0",
        "0e5",
        "1e400",
        "-1e400",
        "123456789012345678901234567890",
        "18446744073709551616",
        "-9223372036854775809",
        "1.23456789012345678901e20",
    ] {
        s.val(int, ok, &[]);
    }
    for bad in [
        "1.5",
        "0.5",
        "-1.5",
        "1.25e1",
        "12.50e-1",
        "1e-2",
        "1e-400",
        "9007199254740993.5",
        "1.0000000000000000001",
        "1.234567890123456789012e20",
        "\"1\"",
        "true",
        "false",
        "null",
        "[]",
        "{}",
        "[1]",
    ] {
        s.val(int, bad, &["field.type"]);
    }

    let num = r#""type":"number""#;
    for ok in ["1", "0", "-0", "1.5", "1e400", "-1e-400", "1e-400", "123456789012345678901234567890", "-1E-2"] {
        s.val(num, ok, &[]);
    }
    for bad in ["\"1\"", "true", "false", "null", "[]", "{}", "\"NaN\""] {
        s.val(num, bad, &["field.type"]);
    }

    let boolean = r#""type":"boolean""#;
    for ok in ["true", "false"] {
        s.val(boolean, ok, &[]);
    }
    for bad in ["0", "1", "1.0", "-0", "\"true\"", "\"false\"", "null", "[]", "{}", "[true]"] {
        s.val(boolean, bad, &["field.type"]);
    }

    let string = r#""type":"string""#;
    for ok in [r#""""#, r#""x""#, r#""\u0000""#, r#""\ud83d\ude00""#, r#""null""#] {
        s.val(string, ok, &[]);
    }
    for bad in ["1", "null", "true", "[]", "{}", "[\"x\"]"] {
        s.val(string, bad, &["field.type"]);
    }

    let null = r#""type":"null""#;
    s.val(null, "null", &[]);
    for bad in ["\"null\"", "0", "false", "{}", "[]", "\"\""] {
        s.val(null, bad, &["field.type"]);
    }

    let object = r#""type":"object""#;
    for ok in ["{}", r#"{"a":1}"#] {
        s.val(object, ok, &[]);
    }
    for bad in ["[]", "\"{}\"", "null", "[{}]"] {
        s.val(object, bad, &["field.type"]);
    }

    let array = r#""type":"array""#;
    for ok in ["[]", r#"[1,"a",null]"#] {
        s.val(array, ok, &[]);
    }
    for bad in ["{}", "\"[]\"", "null", "0"] {
        s.val(array, bad, &["field.type"]);
    }

    let any = r#""type":"any""#;
    for ok in ["null", "1", "\"x\"", "[]", "{}", "true", "1e400", "-0"] {
        s.val(any, ok, &[]);
    }

    let sn = r#""type":["string","null"]"#;
    s.val(sn, "\"x\"", &[]);
    s.val(sn, "null", &[]);
    s.val(sn, "1", &["field.type"]);

    let ib = r#""type":["integer","boolean"]"#;
    for ok in ["1", "true", "2.0", "false"] {
        s.val(ib, ok, &[]);
    }
    for bad in ["2.5", "\"1\"", "null"] {
        s.val(ib, bad, &["field.type"]);
    }
    s.val(r#""type":["number","integer"]"#, "1.5", &[]);
    s.val(r#""type":["integer"]"#, "3", &[]);

    // A present null is present: field.type, not field.required.
    s.val(string, "null", &["field.type"]);
    // Absent: field.required only.
    s.check(&one(string), "{}", &[(E, "field.required", "v")]);
    s.check(&one(&format!("{string},\"required\":false")), "{}", &[]);
    s.check(&one(&format!("{string},\"required\":true")), "{}", &[(E, "field.required", "v")]);
    s.finish();
}

// ---------------------------------------------------------------------------
// §2 numbers: multipleOf on decimals, bounds on huge and tiny numbers
// ---------------------------------------------------------------------------

#[test]
fn numbers() {
    let mut s = Suite::new("numbers");
    let cases: &[(&str, &str, bool)] = &[
        ("0.01", "19.99", true),
        ("0.0001", "0.0075", true),
        ("0.01", "4.35", true),
        ("0.07", "0.49", true),
        ("0.1", "0.3", true),
        ("0.1", "-0.3", true),
        ("0.01", "19.999", false),
        ("0.0002", "0.0075", false),
        ("0.123456789", "1e308", false),
        ("0.123456789", "1.23456789e308", true),
        ("1e-8", "1e-7", true),
        ("0.001", "1e-3", true),
        ("2.5", "10", true),
        ("2.5", "7", false),
        ("0.7", "0", true),
        ("0.7", "-0", true),
        ("0.4", "-1.2", true),
        ("1.5", "4.5", true),
        ("3", "1e2", false),
        ("25", "1E+2", true),
        ("1", "0.1e1", true),
        ("1", "0.5", false),
        ("0.5", "1e-1", false),
        ("0.1", "0.30000000000000004", false),
        ("2", "9007199254740993", false),
        ("2", "9007199254740994", true),
        ("3", "123456789012345678901234567890", true),
        ("3", "123456789012345678901234567891", false),
        ("0.01", "1e400", true),
        ("3", "1e400", false),
        ("0.1", "1e-400", false),
    ];
    for (m, val, ok) in cases {
        let rules: &[&str] = if *ok { &[] } else { &["field.multipleOf"] };
        s.val(&format!(r#""type":"number","multipleOf":{m}"#), val, rules);
    }
    s.val(r#""type":"integer","multipleOf":0.5"#, "3", &[]);
    s.val(r#""type":"integer","multipleOf":2"#, "4.0", &[]);
    s.val(r#""type":"integer","multipleOf":7"#, "1e2", &["field.multipleOf"]);

    let bounds: &[(&str, &str, &str)] = &[
        // (keywords, value, failing rule or "")
        (r#""maximum":10"#, "10", ""),
        (r#""maximum":10"#, "10.0", ""),
        (r#""maximum":10"#, "1e1", ""),
        (r#""maximum":10"#, "10.000000000000000001", "field.maximum"),
        (r#""maximum":10"#, "1e400", "field.maximum"),
        (r#""maximum":10"#, "-1e400", ""),
        (r#""maximum":1e308"#, "1e400", "field.maximum"),
        (r#""maximum":1e308"#, "1.7976931348623157e308", "field.maximum"),
        (r#""minimum":-1e308"#, "-1e400", "field.minimum"),
        (r#""minimum":0"#, "0", ""),
        (r#""minimum":0"#, "-0", ""),
        (r#""minimum":0"#, "-0.0", ""),
        (r#""minimum":0"#, "1e-400", ""),
        (r#""minimum":0"#, "-1e-400", "field.minimum"),
        (r#""minimum":0"#, "-1", "field.minimum"),
        (r#""exclusiveMinimum":0"#, "0", "field.exclusiveMinimum"),
        (r#""exclusiveMinimum":0"#, "0.0", "field.exclusiveMinimum"),
        (r#""exclusiveMinimum":0"#, "-0", "field.exclusiveMinimum"),
        (r#""exclusiveMinimum":0"#, "1e-400", ""),
        (r#""exclusiveMinimum":0"#, "1e-300", ""),
        (r#""exclusiveMaximum":1"#, "1", "field.exclusiveMaximum"),
        (r#""exclusiveMaximum":1"#, "1.0", "field.exclusiveMaximum"),
        (r#""exclusiveMaximum":1"#, "1e0", "field.exclusiveMaximum"),
        (r#""exclusiveMaximum":1"#, "0.1e1", "field.exclusiveMaximum"),
        (r#""exclusiveMaximum":1"#, "0.99999999999999999999", ""),
        (r#""exclusiveMaximum":5"#, "4.999", ""),
        (r#""exclusiveMaximum":0"#, "-0", "field.exclusiveMaximum"),
        (r#""maximum":0"#, "-0", ""),
        (r#""maximum":1.0"#, "1", ""),
        (r#""minimum":0.1"#, "0.1", ""),
        (r#""minimum":0.1"#, "1e-1", ""),
        (r#""minimum":0.1"#, "0.09999999999999999999", "field.minimum"),
        (r#""minimum":5,"maximum":5"#, "5", ""),
        (r#""minimum":1e-400"#, "0", "field.minimum"),
        (r#""maximum":1e400"#, "1e300", ""),
        (r#""minimum":-1e400"#, "-1e300", ""),
    ];
    for (kw, val, rule) in bounds {
        let rules: Vec<&str> = if rule.is_empty() { vec![] } else { vec![*rule] };
        s.val(&format!(r#""type":"number",{kw}"#), val, &rules);
    }
    let ibounds: &[(&str, &str, &str)] = &[
        (r#""maximum":9007199254740992"#, "9007199254740993", "field.maximum"),
        (r#""maximum":9007199254740992"#, "9007199254740992", ""),
        (r#""minimum":-9223372036854775808"#, "-9223372036854775809", "field.minimum"),
        (r#""minimum":-9223372036854775808"#, "-9223372036854775808", ""),
        (r#""maximum":18446744073709551614"#, "18446744073709551615", "field.maximum"),
        (r#""exclusiveMinimum":0"#, "0", "field.exclusiveMinimum"),
        (r#""exclusiveMinimum":0"#, "1", ""),
    ];
    for (kw, val, rule) in ibounds {
        let rules: Vec<&str> = if rule.is_empty() { vec![] } else { vec![*rule] };
        s.val(&format!(r#""type":"integer",{kw}"#), val, &rules);
    }
    // Two keywords failing on one value are both reported.
    s.val(r#""type":"integer","minimum":5,"multipleOf":2"#, "3", &["field.minimum", "field.multipleOf"]);
    s.val(r#""type":"number","maximum":1,"multipleOf":0.5"#, "1.7", &["field.maximum", "field.multipleOf"]);
    s.finish();
}

// ---------------------------------------------------------------------------
// §2 constraint keywords only apply to the types they constrain
// ---------------------------------------------------------------------------

#[test]
fn keyword_applicability() {
    let mut s = Suite::new("keyword_applicability");
    let cases: &[(&str, &str, &[&str])] = &[
        (r#""type":["string","number"],"maximum":5"#, r#""hello world""#, &[]),
        (r#""type":["string","number"],"maximum":5"#, r#""6""#, &[]),
        (r#""type":["string","number"],"maximum":5"#, "6", &["field.maximum"]),
        (r#""type":["string","integer"],"minLength":2"#, "1", &[]),
        (r#""type":["string","integer"],"minLength":2"#, r#""a""#, &["field.minLength"]),
        (r#""type":["string","number"],"maxLength":3"#, "12345", &[]),
        (r#""type":["string","number"],"maxLength":3"#, r#""abcd""#, &["field.maxLength"]),
        (r#""type":["string","null"],"pattern":"^a""#, "null", &[]),
        (r#""type":["string","null"],"pattern":"^a""#, r#""b""#, &["field.pattern"]),
        (r#""type":["array","object"],"minItems":1"#, "{}", &[]),
        (r#""type":["array","object"],"minItems":1"#, "[]", &["field.minItems"]),
        (r#""type":["array","string"],"uniqueItems":true"#, r#""aa""#, &[]),
        (r#""type":["array","string"],"uniqueItems":true"#, "[1,1]", &["field.uniqueItems"]),
        (r#""type":["number","boolean"],"multipleOf":2"#, "true", &[]),
        (r#""type":["number","boolean"],"multipleOf":2"#, "3", &["field.multipleOf"]),
        (r#""type":["integer","string"],"exclusiveMinimum":0"#, r#""""#, &[]),
        (r#""type":["integer","string"],"exclusiveMinimum":0"#, "0", &["field.exclusiveMinimum"]),
        (r#""type":["integer","string"],"multipleOf":3"#, r#""x""#, &[]),
        (r#""type":"any","maxLength":2"#, "123", &[]),
        (r#""type":"any","maxLength":2"#, r#""abc""#, &["field.maxLength"]),
        (r#""type":"any","maxLength":2"#, "[1,2,3]", &[]),
        (r#""type":"any","minimum":0"#, r#""-5""#, &[]),
        (r#""type":"any","minimum":0"#, "-5", &["field.minimum"]),
        (r#""type":"any","minimum":0"#, "null", &[]),
        (r#""type":"any","maxItems":1"#, "[1,2]", &["field.maxItems"]),
        (r#""type":"any","maxItems":1"#, r#""ab""#, &[]),
        (r#""type":"any","pattern":"^x""#, "{}", &[]),
        // A value of the wrong type gets field.type and no further check.
        (r#""type":"string","enum":["a"],"maxLength":1"#, "5", &["field.type"]),
        (r#""type":"integer","minimum":10"#, "1.5", &["field.type"]),
        (r#""type":"array","minItems":3,"uniqueItems":true"#, "{}", &["field.type"]),
        (r#""type":"string","pattern":"^x","minLength":4"#, "[1]", &["field.type"]),
        (r#""type":"number","multipleOf":2,"maximum":0"#, r#""3""#, &["field.type"]),
    ];
    for (kw, val, rules) in cases {
        s.val(kw, val, rules);
    }
    s.finish();
}

// ---------------------------------------------------------------------------
// §2 strings: code points, unanchored regex search
// ---------------------------------------------------------------------------

#[test]
fn strings() {
    let mut s = Suite::new("strings");
    let max1 = r#""type":"string","maxLength":1"#;
    for ok in [
        "\"😀\"",
        r#""\ud83d\ude00""#,
        r#""\uD83D\uDE00""#,
        "\"é\"",
        r#""\u00e9""#,
        r#""\n""#,
        r#""\\""#,
        r#""\"""#,
        r#""\u0000""#,
        r#""\/""#,
        "\"𝄞\"",
        "\"\u{7f}\"",
    ] {
        s.val(max1, ok, &[]);
    }
    for bad in
        [r#""e\u0301""#, "\"e\u{301}\"", "\"ab\"", "\"👍🏽\"", "\"🇫🇷\"", r#""\ud83d\ude00\ud83d\ude00""#, r#""\\n""#]
    {
        s.val(max1, bad, &["field.maxLength"]);
    }
    let min2 = r#""type":"string","minLength":2"#;
    for bad in ["\"😀\"", r#""\ud83d\ude00""#, r#""\u00e9""#, "\"é\"", r#""""#] {
        s.val(min2, bad, &["field.minLength"]);
    }
    for ok in ["\"😀😀\"", "\"ab\"", r#""e\u0301""#, r#""\\n""#] {
        s.val(min2, ok, &[]);
    }
    s.val(r#""type":"string","maxLength":3"#, "\"日本語\"", &[]);
    s.val(r#""type":"string","maxLength":2"#, "\"𝄞𝄞\"", &[]);
    s.val(
        r#""type":"string","maxLength":3"#,
        r#""\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00""#,
        &["field.maxLength"],
    );
    s.val(r#""type":"string","maxLength":0"#, r#""""#, &[]);
    s.val(r#""type":"string","minLength":3,"maxLength":3"#, "\"a😀é\"", &[]);

    let pats: &[(&str, &str, bool)] = &[
        ("b", r#""abc""#, true),
        ("^b", r#""abc""#, false),
        ("c$", r#""abc""#, true),
        ("^abc$", r#""abcd""#, false),
        ("^abc$", r#""abc""#, true),
        ("^é$", r#""\u00e9""#, true),
        ("^é$", r#""e\u0301""#, false),
        ("^a\\nb$", r#""a\nb""#, true),
        ("^a\\nb$", r#""a\\nb""#, false),
        ("^.$", "\"😀\"", true),
        ("^.$", r#""\ud83d\ude00""#, true),
        ("^..$", r#""e\u0301""#, true),
        ("/", r#""a\/b""#, true),
        ("^\\d+$", r#""123""#, true),
        ("^\\d+$", r#""12a""#, false),
        ("", r#""anything""#, true),
        ("", r#""""#, true),
        ("(?i)^abc$", r#""ABC""#, true),
        ("a|b", r#""xbx""#, true),
        ("^a|b$", r#""xb""#, true),
        ("^a|b$", r#""bx""#, false),
        ("\\\\", r#""a\\b""#, true),
        ("\\\\", r#""a\/b""#, false),
        ("^[^\\x00]*$", r#""a\u0000b""#, false),
        ("\"", r#""say \"hi\"""#, true),
        ("\\t", r#""a\tb""#, true),
        ("^\\p{Lu}", r#""\u00c9cole""#, true),
        ("x{2}", r#""axxb""#, true),
        ("x{3}", r#""axxb""#, false),
    ];
    for (p, val, ok) in pats {
        let pjson = serde_json::to_string(p).unwrap();
        let rules: &[&str] = if *ok { &[] } else { &["field.pattern"] };
        s.val(&format!(r#""type":"string","pattern":{pjson}"#), val, rules);
    }
    // Both length and pattern failing are both reported.
    s.val(r#""type":"string","minLength":5,"pattern":"^x""#, r#""ab""#, &["field.minLength", "field.pattern"]);
    s.finish();
}

// ---------------------------------------------------------------------------
// enums
// ---------------------------------------------------------------------------

#[test]
fn enums() {
    let mut s = Suite::new("enums");
    let cases: &[(&str, &str, &[&str])] = &[
        (r#""type":"number","enum":[1]"#, "1", &[]),
        (r#""type":"number","enum":[1]"#, "1.0", &[]),
        (r#""type":"number","enum":[1]"#, "1e0", &[]),
        (r#""type":"number","enum":[1]"#, "10e-1", &[]),
        (r#""type":"number","enum":[1]"#, "2", &["field.enum"]),
        (r#""type":"number","enum":[1]"#, "1.0000000000000000001", &["field.enum"]),
        (r#""type":"number","enum":[0]"#, "-0", &[]),
        (r#""type":"number","enum":[0]"#, "0.0", &[]),
        (r#""type":"number","enum":[100]"#, "1e2", &[]),
        (r#""type":"number","enum":[0.1]"#, "0.10", &[]),
        (r#""type":"number","enum":[0.1]"#, "1e-1", &[]),
        (r#""type":"number","enum":[9007199254740993]"#, "9007199254740992", &["field.enum"]),
        (r#""type":"number","enum":[9007199254740993]"#, "9007199254740993", &[]),
        (r#""type":"integer","enum":[1.0]"#, "1", &[]),
        (r#""type":"integer","enum":[1,2]"#, "2.0", &[]),
        (r#""type":["string","null"],"enum":["a",null]"#, "null", &[]),
        (r#""type":["string","null"],"enum":["a",null]"#, r#""a""#, &[]),
        (r#""type":["string","null"],"enum":["a",null]"#, r#""b""#, &["field.enum"]),
        (r#""type":["string","null"],"enum":["a"]"#, "null", &["field.enum"]),
        (r#""type":["string","null"],"enum":["a",null]"#, r#""null""#, &["field.enum"]),
        (r#""type":"boolean","enum":[true]"#, "false", &["field.enum"]),
        (r#""type":"boolean","enum":[true]"#, "true", &[]),
        (r#""type":["integer","boolean"],"enum":[1]"#, "true", &["field.enum"]),
        (r#""type":["integer","boolean"],"enum":[0]"#, "false", &["field.enum"]),
        (r#""type":["integer","boolean"],"enum":[true]"#, "1", &["field.enum"]),
        (r#""type":["string","integer"],"enum":["1"]"#, "1", &["field.enum"]),
        (r#""type":["string","integer"],"enum":[1]"#, r#""1""#, &["field.enum"]),
        (r#""type":"string","enum":["é"]"#, r#""\u00e9""#, &[]),
        (r#""type":"string","enum":["é"]"#, r#""e\u0301""#, &["field.enum"]),
        (r#""type":"string","enum":["a/b"]"#, r#""a\/b""#, &[]),
        (r#""type":"string","enum":["\u0041"]"#, r#""A""#, &[]),
        (r#""type":"string","enum":["A"]"#, r#""\u0041""#, &[]),
        (r#""type":"string","enum":["😀"]"#, r#""\ud83d\ude00""#, &[]),
        (r#""type":"string","enum":["a\nb"]"#, r#""a\u000ab""#, &[]),
        (r#""type":"string","enum":["a"]"#, r#""A""#, &["field.enum"]),
        (r#""type":"string","enum":["a"]"#, r#""a ""#, &["field.enum"]),
        (r#""type":"string","enum":["a"]"#, r#""a\u0000""#, &["field.enum"]),
        (r#""type":"string","enum":[""]"#, r#""""#, &[]),
        (r#""type":"any","enum":[1,"a",null]"#, "1.0", &[]),
        (r#""type":"any","enum":[1,"a",null]"#, r#""a""#, &[]),
        (r#""type":"any","enum":[1,"a",null]"#, "null", &[]),
        (r#""type":"any","enum":[1,"a",null]"#, "true", &["field.enum"]),
        // wrong type: field.type only, no enum check
        (r#""type":"string","enum":["a"]"#, "1", &["field.type"]),
        (r#""type":"integer","enum":[1]"#, "1.5", &["field.type"]),
    ];
    for (kw, val, rules) in cases {
        s.val(kw, val, rules);
    }
    s.finish();
}

// ---------------------------------------------------------------------------
// uniqueItems, minItems, maxItems
// ---------------------------------------------------------------------------

#[test]
fn arrays() {
    let mut s = Suite::new("arrays");
    let uniq = r#""type":"array","uniqueItems":true"#;
    let cases: &[(&str, bool)] = &[
        ("[]", true),
        ("[1,2,3]", true),
        ("[1,2,1]", false),
        ("[1,1.0]", false),
        ("[100,1e2]", false),
        ("[-0,0]", false),
        ("[0.1,0.10]", false),
        (r#"[{"a":1,"b":2},{"b":2,"a":1}]"#, false),
        (r#"[{"a":{"b":1,"c":2}},{"a":{"c":2,"b":1}}]"#, false),
        ("[[1],[true]]", true),
        ("[0,false]", true),
        ("[1,true]", true),
        ("[null,null]", false),
        ("[null,false]", true),
        (r#"["a","\u0061"]"#, false),
        (r#"["é","e\u0301"]"#, true),
        (r#"[1,"1"]"#, true),
        ("[[1,2],[2,1]]", true),
        ("[[],[]]", false),
        ("[{},[]]", true),
        ("[{},{}]", false),
        (r#"[{"a":1},{"a":1,"b":2}]"#, true),
        (r#"[{"a":[1]},{"a":[1.0]}]"#, false),
        ("[9007199254740993,9007199254740992]", true),
        ("[1e400,2e400]", true),
        ("[true,true]", false),
        (r#"["a","b","c","a"]"#, false),
        ("[1,1,1]", false),
    ];
    for (val, ok) in cases {
        let rules: &[&str] = if *ok { &[] } else { &["field.uniqueItems"] };
        s.val(uniq, val, rules);
    }
    s.val(r#""type":"array","uniqueItems":false"#, "[1,1]", &[]);
    s.val(r#""type":"array","minItems":1"#, "[]", &["field.minItems"]);
    s.val(r#""type":"array","minItems":1"#, "[null]", &[]);
    s.val(r#""type":"array","maxItems":2"#, "[1,2,3]", &["field.maxItems"]);
    s.val(r#""type":"array","maxItems":2"#, "[[1,2,3],[4]]", &[]);
    s.val(r#""type":"array","maxItems":2,"uniqueItems":true"#, "[1,1,1]", &["field.maxItems", "field.uniqueItems"]);
    s.val(r#""type":"array","maxItems":0"#, "[]", &[]);
    // reported at the array's own path
    s.check(
        &c(r#"{"name":"p.list","type":"array","uniqueItems":true}"#),
        r#"{"p":{"list":[1,1]}}"#,
        &[(E, "field.uniqueItems", "p.list")],
    );
    s.check(
        &c(r#"{"name":"grid","type":"array"},{"name":"grid[]","type":"array","uniqueItems":true}"#),
        r#"{"grid":[[1,2],[1,1],[]]}"#,
        &[(E, "field.uniqueItems", "grid[1]")],
    );
    s.finish();
}

// ---------------------------------------------------------------------------
// §2 paths: `[]` segments, implied parents, optional declared parents
// ---------------------------------------------------------------------------

#[test]
fn paths() {
    let mut s = Suite::new("paths");
    let abc = c(r#"{"name":"a[].b[].c","type":"integer"}"#);
    s.check(
        &abc,
        r#"{"a":[{"b":[{"c":1},{"c":"x"}]},{"b":[{"c":2.5}]}]}"#,
        &[(E, "field.type", "a[0].b[1].c"), (E, "field.type", "a[1].b[0].c")],
    );
    s.check(&abc, r#"{"a":[{"b":[{}]}]}"#, &[(E, "field.required", "a[0].b[0].c")]);
    s.check(&abc, r#"{"a":[{"b":[]},{"b":[{"c":3}]}]}"#, &[]);
    s.check(&abc, r#"{"a":[{"b":5}]}"#, &[(E, "field.type", "a[0].b")]);
    s.check(&abc, r#"{"a":[{"b":{}}]}"#, &[(E, "field.type", "a[0].b")]);
    s.check(&abc, r#"{"a":[1]}"#, &[(E, "field.type", "a[0]")]);
    s.check(&abc, r#"{"a":{}}"#, &[(E, "field.type", "a")]);
    s.check(&abc, r#"{"a":[{"b":[null]}]}"#, &[(E, "field.type", "a[0].b[0]")]);
    s.check(&abc, r#"{"a":[{}]}"#, &[(E, "field.required", "a[0].b")]);
    s.check(&abc, r#"{"a":[{"b":[{"c":1}]},{"b":[{"c":1},{"c":1},{"c":true}]}]}"#, &[(E, "field.type", "a[1].b[2].c")]);

    let tags = c(r#"{"name":"tags[]","type":"string","maxLength":3}"#);
    s.check(&tags, r#"{"tags":["ab","abcd",5]}"#, &[(E, "field.maxLength", "tags[1]"), (E, "field.type", "tags[2]")]);
    s.check(&tags, r#"{"tags":[]}"#, &[]);
    s.check(&tags, r#"{"tags":"x"}"#, &[(E, "field.type", "tags")]);
    s.check(&tags, r#"{"tags":{"0":"a"}}"#, &[(E, "field.type", "tags")]);
    let tags_opt = c(r#"{"name":"tags","type":"array","required":false},{"name":"tags[]","type":"string"}"#);
    s.check(&tags_opt, "{}", &[]);
    s.check(&tags_opt, r#"{"tags":null}"#, &[(E, "field.type", "tags")]);
    s.check(&tags_opt, r#"{"tags":[1]}"#, &[(E, "field.type", "tags[0]")]);
    s.check(&tags_opt, r#"{"tags":"abc"}"#, &[(E, "field.type", "tags")]);

    let grid = c(r#"{"name":"grid[][]","type":"integer"}"#);
    s.check(&grid, r#"{"grid":[[1,2],[3,"x"],5]}"#, &[(E, "field.type", "grid[1][1]"), (E, "field.type", "grid[2]")]);
    s.check(&grid, r#"{"grid":[[],[[1]]]}"#, &[(E, "field.type", "grid[1][0]")]);
    s.check(&grid, r#"{"grid":[]}"#, &[]);
    s.check(&grid, r#"{"grid":[[1.0,2e0]]}"#, &[]);
    s.check(&grid, r#"{"grid":{}}"#, &[(E, "field.type", "grid")]);

    let n = c(r#"{"name":"n[]","type":"integer"}"#);
    s.check(&n, r#"{"n":[0,1,2,3,4,5,6,7,8,9,"x",11]}"#, &[(E, "field.type", "n[10]")]);

    let ab = c(r#"{"name":"a[].b","type":"string"}"#);
    s.check(
        &ab,
        r#"{"a":[{"b":"x"},{"c":1},{"b":2}]}"#,
        &[(E, "field.required", "a[1].b"), (E, "field.type", "a[2].b")],
    );
    s.check(&ab, r#"{"a":[{"b":"x"},null]}"#, &[(E, "field.type", "a[1]")]);

    // implied parents
    let params = c(r#"{"name":"params.name","type":"string"},{"name":"params.id","type":"integer"}"#);
    s.check(&params, "{}", &[(E, "field.required", "params")]);
    s.check(&params, r#"{"params":null}"#, &[(E, "field.type", "params")]);
    s.check(&params, r#"{"params":[]}"#, &[(E, "field.type", "params")]);
    s.check(&params, r#"{"params":[{"name":"n","id":1}]}"#, &[(E, "field.type", "params")]);
    s.check(&params, r#"{"params":"x"}"#, &[(E, "field.type", "params")]);
    s.check(&params, r#"{"params":0}"#, &[(E, "field.type", "params")]);
    s.check(&params, r#"{"params":{}}"#, &[(E, "field.required", "params.name"), (E, "field.required", "params.id")]);
    s.check(&params, r#"{"params":{"name":"n","id":1}}"#, &[]);
    s.check(&params, r#"{"p\u0061rams":{"n\u0061me":"n","id":1}}"#, &[]);
    s.check(&params, r#"{"params.name":"n","params.id":1}"#, &[(E, "field.required", "params")]);
    let params_opt = c(r#"{"name":"params.name","type":"string","required":false}"#);
    s.check(&params_opt, "{}", &[]);
    s.check(&params_opt, r#"{"params":5}"#, &[(E, "field.type", "params")]);
    s.check(&params_opt, r#"{"params":null}"#, &[(E, "field.type", "params")]);
    s.check(&params_opt, r#"{"params":{}}"#, &[]);
    let mixed = c(
        r#"{"name":"p.x","type":"string"},{"name":"p.y","type":"string","required":false},{"name":"q.z","type":"string","required":false}"#,
    );
    s.check(&mixed, "{}", &[(E, "field.required", "p")]);
    s.check(&mixed, r#"{"p":{"x":"1"},"q":[]}"#, &[(E, "field.type", "q")]);
    let deep = c(r#"{"name":"a.b.c","type":"string"}"#);
    s.check(&deep, "{}", &[(E, "field.required", "a")]);
    s.check(&deep, r#"{"a":{}}"#, &[(E, "field.required", "a.b")]);
    s.check(&deep, r#"{"a":{"b":[]}}"#, &[(E, "field.type", "a.b")]);
    s.check(&deep, r#"{"a":{"b":{}}}"#, &[(E, "field.required", "a.b.c")]);
    s.check(&deep, r#"{"a":{"b":{"c":"x"}}}"#, &[]);
    s.check(&deep, r#"{"a":"b.c"}"#, &[(E, "field.type", "a")]);
    let deep2 =
        c(r#"{"name":"a.b.c","type":"string"},{"name":"a.b.d","type":"string"},{"name":"a.e","type":"string"}"#);
    s.check(&deep2, "{}", &[(E, "field.required", "a")]);
    s.check(&deep2, r#"{"a":{}}"#, &[(E, "field.required", "a.b"), (E, "field.required", "a.e")]);
    s.check(&deep2, r#"{"a":{"b":null,"e":"x"}}"#, &[(E, "field.type", "a.b")]);

    // declared parents
    let meta_opt = c(r#"{"name":"meta","type":"object","required":false},{"name":"meta.id","type":"string"}"#);
    s.check(&meta_opt, "{}", &[]);
    s.check(&meta_opt, r#"{"meta":{}}"#, &[(E, "field.required", "meta.id")]);
    s.check(&meta_opt, r#"{"meta":5}"#, &[(E, "field.type", "meta")]);
    s.check(&meta_opt, r#"{"meta":[]}"#, &[(E, "field.type", "meta")]);
    s.check(&meta_opt, r#"{"meta":{"id":1}}"#, &[(E, "field.type", "meta.id")]);
    let meta_null =
        c(r#"{"name":"meta","type":["object","null"],"required":false},{"name":"meta.id","type":"string"}"#);
    s.check(&meta_null, r#"{"meta":null}"#, &[]);
    s.check(&meta_null, r#"{"meta":{}}"#, &[(E, "field.required", "meta.id")]);
    let meta_req = c(r#"{"name":"meta","type":"object"},{"name":"meta.id","type":"string"}"#);
    s.check(&meta_req, "{}", &[(E, "field.required", "meta")]);
    let meta_str = c(r#"{"name":"meta","type":["object","string"]},{"name":"meta.id","type":"string"}"#);
    s.check(&meta_str, r#"{"meta":"plain"}"#, &[]);
    s.check(&meta_str, r#"{"meta":{}}"#, &[(E, "field.required", "meta.id")]);
    let meta_inner = c(r#"{"name":"meta","type":"object","required":false},{"name":"meta.inner.x","type":"string"}"#);
    s.check(&meta_inner, "{}", &[]);
    s.check(&meta_inner, r#"{"meta":{}}"#, &[(E, "field.required", "meta.inner")]);
    s.check(&meta_inner, r#"{"meta":{"inner":null}}"#, &[(E, "field.type", "meta.inner")]);
    let items_opt = c(r#"{"name":"items","type":"array","required":false},{"name":"items[].id","type":"string"}"#);
    s.check(&items_opt, "{}", &[]);
    s.check(&items_opt, r#"{"items":[{},{"id":"x"}]}"#, &[(E, "field.required", "items[0].id")]);
    s.check(&items_opt, r#"{"items":null}"#, &[(E, "field.type", "items")]);
    s.check(&items_opt, r#"{"items":{"id":"x"}}"#, &[(E, "field.type", "items")]);
    s.check(&items_opt, r#"{"items":["x"]}"#, &[(E, "field.type", "items[0]")]);
    let items_null =
        c(r#"{"name":"items","type":["array","null"],"required":false},{"name":"items[].id","type":"string"}"#);
    s.check(&items_null, r#"{"items":null}"#, &[]);
    let items_el = c(
        r#"{"name":"items","type":"array"},{"name":"items[]","type":["object","null"]},{"name":"items[].id","type":"string"}"#,
    );
    s.check(&items_el, r#"{"items":[null,{"id":"x"},{}]}"#, &[(E, "field.required", "items[2].id")]);
    let any_parent = c(r#"{"name":"x","type":"any"},{"name":"x.y","type":"string"}"#);
    s.check(&any_parent, r#"{"x":5}"#, &[]);
    s.check(&any_parent, r#"{"x":{}}"#, &[(E, "field.required", "x.y")]);
    let emoji = c(r#"{"name":"😀","type":"string","enum":["\ud83d\ude00"],"pattern":"^\u00e9?\ud83d\ude00$"}"#);
    s.check(&emoji, r#"{"\ud83d\ude00":"😀"}"#, &[]);
    s.check(&emoji, r#"{"😀":"\u00e9\ud83d\ude00"}"#, &[(E, "field.enum", "😀")]);
    let list_only = cs(r#"{"name":"list[]","type":"integer"}"#);
    s.check(&list_only, r#"{"list":[1,2]}"#, &[]);
    s.check(&list_only, r#"{"list":[1],"lis":1}"#, &[(W, "field.unknown", "lis")]);
    // keys are compared by code points, no normalisation
    let accent = c(r#"{"name":"é","type":"string"}"#);
    s.check(&accent, r#"{"\u00e9":"x"}"#, &[]);
    s.check(&accent, r#"{"e\u0301":"x"}"#, &[(E, "field.required", "é")]);
    s.finish();
}

// ---------------------------------------------------------------------------
// §4 json.duplicate_key
// ---------------------------------------------------------------------------

#[test]
fn duplicate_keys() {
    let mut s = Suite::new("duplicate_keys");
    let fields = r#"{"name":"a","type":"integer","required":false,"maximum":1},
                    {"name":"params.name","type":"string","required":false},
                    {"name":"items[].id","type":"integer","required":false}"#;
    let d = c(fields);
    let dk = "json.duplicate_key";
    let cases: &[(&str, &[Triple])] = &[
        (r#"{"a":1,"a":2}"#, &[(E, dk, "a")]),
        (r#"{"a":2,"a":1}"#, &[(E, dk, "a"), (E, "field.maximum", "a")]),
        (r#"{"a":1,"b":2,"a":3}"#, &[(E, dk, "a")]),
        (r#"{"a":1,"\u0061":2}"#, &[(E, dk, "a")]),
        (r#"{"\u0061":1,"a":1}"#, &[(E, dk, "a")]),
        (r#"{"a":"x","a":1}"#, &[(E, dk, "a"), (E, "field.type", "a")]),
        (r#"{"params":{"name":"x","name":"y"}}"#, &[(E, dk, "params.name")]),
        (r#"{"params":{"name":1,"name":"x"}}"#, &[(E, dk, "params.name"), (E, "field.type", "params.name")]),
        (r#"{"params":{"n\u0061me":"x","name":"y"}}"#, &[(E, dk, "params.name")]),
        (r#"{"params":{"name":"x"},"params":5}"#, &[(E, dk, "params")]),
        (r#"{"params":5,"params":{"name":"x"}}"#, &[(E, dk, "params"), (E, "field.type", "params")]),
        (r#"{"x":{"y":{"z":1,"z":2}}}"#, &[(E, dk, "x.y.z")]),
        (r#"{"items":[{"id":1,"id":2}]}"#, &[(E, dk, "items[0].id")]),
        (r#"{"items":[{"id":1},{"id":1,"id":"s"}]}"#, &[(E, dk, "items[1].id")]),
        (r#"{"g":[[{"k":1,"k":1}]]}"#, &[(E, dk, "g[0][0].k")]),
        (r#"{"x":[1,{"k":null,"k":null}]}"#, &[(E, dk, "x[1].k")]),
        (r#"{"x":{"b":1},"x":{"b":2,"b":3}}"#, &[(E, dk, "x"), (E, dk, "x.b")]),
        (r#"{"é":1,"\u00e9":2}"#, &[(E, dk, "é")]),
        (r#"{"😀":1,"\ud83d\ude00":2}"#, &[(E, dk, "😀")]),
        (r#"{"A":1,"a":1}"#, &[]),
        (r#"{"é":1,"e\u0301":1}"#, &[]),
        (r#"{"x":[{"k":1},{"k":1}]}"#, &[]),
        (r#"{"x":{"k":1},"y":{"k":1}}"#, &[]),
    ];
    for (data, expect) in cases {
        s.check(&d, data, expect);
    }
    // the empty key is a key like any other: written `[""]` in paths (SPEC §10)
    s.check(&d, r#"{"":1,"":2}"#, &[(E, dk, r#"[""]"#)]);
    // strict: undeclared duplicated top-level key: one duplicate, one unknown
    s.check(&cs(fields), r#"{"x":1,"x":2}"#, &[(E, dk, "x"), (W, "field.unknown", "x")]);
    s.finish();
}

// ---------------------------------------------------------------------------
// strict contracts
// ---------------------------------------------------------------------------

#[test]
fn strict() {
    let mut s = Suite::new("strict");
    let fields = r#"{"name":"params.name","type":"string"},
                    {"name":"tags","type":"array","required":false},
                    {"name":"tags[]","type":"string"},
                    {"name":"a.b.c","type":"string","required":false}"#;
    let st = cs(fields);
    let un = "field.unknown";
    let cases: &[(&str, &[Triple])] = &[
        (r#"{"params":{"name":"x","extra":1}}"#, &[]),
        (r#"{"params":{"name":"x"},"other":2}"#, &[(W, un, "other")]),
        (r#"{"params":{"name":"x"},"tags":["a"]}"#, &[]),
        (r#"{"params":{"name":"x"},"o1":1,"o2":{"deep":{"x":1}}}"#, &[(W, un, "o1"), (W, un, "o2")]),
        (r#"{"params":{"name":"x"},"params.name":"y"}"#, &[(W, un, r#"["params.name"]"#)]),
        (r#"{"params":{"name":"x"},"tags[]":1}"#, &[(W, un, r#"["tags[]"]"#)]),
        (r#"{"p\u0061rams":{"name":"x"}}"#, &[]),
        (r#"{"other":1}"#, &[(E, "field.required", "params"), (W, un, "other")]),
        (r#"{"params":{"name":"x"},"a":{"b":{"c":"x","zz":1},"yy":[{"q":1}]}}"#, &[]),
        (r#"{"params":{"name":"x"},"tags":[{"nested":1}]}"#, &[(E, "field.type", "tags[0]")]),
        (r#"{"params":{"name":"x"},"A":1}"#, &[(W, un, "A")]),
        (r#"{"params":{"name":"x"},"":1}"#, &[(W, un, r#"[""]"#)]),
        ("[]", &[(E, "field.type", "<data>")]),
    ];
    for (data, expect) in cases {
        s.check(&st, data, expect);
    }
    // non-strict: undeclared keys are fine
    s.check(&c(fields), r#"{"params":{"name":"x"},"other":2}"#, &[]);
    let explicit_false = format!(r#"{{"name":"adv.test","revision":"1.0.0","strict":false,"fields":[{fields}]}}"#);
    s.check(&explicit_false, r#"{"params":{"name":"x"},"other":2}"#, &[]);
    s.finish();
}

// ---------------------------------------------------------------------------
// depth: 128 levels allowed, 129 is json.depth
// ---------------------------------------------------------------------------

fn nest_objects(levels: usize) -> String {
    let mut s = String::new();
    for _ in 0..levels - 1 {
        s.push_str(r#"{"a":"#);
    }
    s.push_str("{}");
    for _ in 0..levels - 1 {
        s.push('}');
    }
    s
}

fn nest_arrays_in_object(levels: usize) -> String {
    format!(r#"{{"a":{}{}}}"#, "[".repeat(levels - 1), "]".repeat(levels - 1))
}

fn nest_arrays(levels: usize) -> String {
    format!("{}{}", "[".repeat(levels), "]".repeat(levels))
}

#[test]
fn depth() {
    let mut s = Suite::new("depth");
    let any_a = c(r#"{"name":"a","type":"any","required":false}"#);
    let req = c(r#"{"name":"a","type":"any","required":false},{"name":"must","type":"string"}"#);
    s.check(&any_a, &nest_objects(128), &[]);
    s.check_single_rule(&any_a, nest_objects(129).as_bytes(), &["json.depth"]);
    s.check(&any_a, &nest_arrays_in_object(128), &[]);
    s.check_single_rule(&any_a, nest_arrays_in_object(129).as_bytes(), &["json.depth"]);
    s.check(&any_a, &nest_arrays(128), &[(E, "field.type", "<data>")]);
    s.check_single_rule(&any_a, nest_arrays(129).as_bytes(), &["json.depth"]);
    // deep but otherwise failing documents: still exactly one json.depth
    s.check_single_rule(&req, nest_objects(129).as_bytes(), &["json.depth"]);
    s.check_single_rule(&req, nest_arrays_in_object(200).as_bytes(), &["json.depth"]);
    // brackets inside strings are not nesting
    s.check(&any_a, &format!(r#"{{"a":"{}"}}"#, "[{".repeat(500)), &[]);
    // very deep input must not overflow the stack
    s.check_single_rule(&any_a, nest_arrays(100_000).as_bytes(), &["json.depth"]);
    s.check_single_rule(&any_a, nest_arrays_in_object(100_000).as_bytes(), &["json.depth"]);
    s.check_single_rule(&any_a, nest_objects(50_000).as_bytes(), &["json.depth"]);
    // deep and unterminated: one finding, syntax or depth, never a panic
    s.check_single_rule(&any_a, "[".repeat(100_000).as_bytes(), &["json.depth", "json.syntax"]);
    s.check_single_rule(&any_a, r#"{"a":"#.repeat(100_000).as_bytes(), &["json.depth", "json.syntax"]);
    s.finish();
}

// ---------------------------------------------------------------------------
// malformed bytes: exactly one json.syntax at <data>
// ---------------------------------------------------------------------------

#[test]
fn malformed() {
    let mut s = Suite::new("malformed");
    let ct = c(r#"{"name":"a","type":"any","required":false},{"name":"must","type":"string"}"#);
    let syntax: &[(&str, &[u8])] = &[
        ("empty", b""),
        ("spaces", b"   "),
        ("newline", b"\n"),
        ("open brace", b"{"),
        ("key only", br#"{"a""#),
        ("key colon", br#"{"a":"#),
        ("no close", br#"{"a":1"#),
        ("unterminated string", br#"{"a":"x"#),
        ("unterminated string at end", br#"{"a":"x}"#),
        ("trailing garbage", br#"{} x"#),
        ("two documents", br#"{}{}"#),
        ("trailing comma after doc", br#"{},"#),
        ("trailing NUL", b"{}\x00"),
        ("invalid utf8 in string", b"{\"a\":\"\xff\"}"),
        ("invalid utf8 in key", b"{\"\xfe\":1}"),
        ("overlong slash", b"{\"a\":\"\xc0\xaf\"}"),
        ("utf8-encoded surrogate", b"{\"a\":\"\xed\xa0\x80\"}"),
        ("truncated utf8", b"{\"a\":\"\xe2\x82\"}"),
        ("utf8 above U+10FFFF", b"{\"a\":\"\xf4\x90\x80\x80\"}"),
        ("lone high surrogate", br#"{"a":"\ud800"}"#),
        ("lone low surrogate", br#"{"a":"\udc00"}"#),
        ("high surrogate then char", br#"{"a":"\ud800x"}"#),
        ("high surrogate then BMP escape", br#"{"a":"\ud800\u0041"}"#),
        ("reversed surrogates", br#"{"a":"\ude00\ud83d"}"#),
        ("two high surrogates", br#"{"a":"\ud83d\ud83d"}"#),
        ("lone surrogate in key", br#"{"\ud800":1}"#),
        ("raw tab in string", b"{\"a\":\"\t\"}"),
        ("raw newline in string", b"{\"a\":\"\n\"}"),
        ("raw CR in string", b"{\"a\":\"\r\"}"),
        ("raw NUL in string", b"{\"a\":\"\x00\"}"),
        ("raw 0x1f in string", b"{\"a\":\"\x1f\"}"),
        ("raw control in key", b"{\"\x01\":1}"),
        ("leading zero", br#"{"a":01}"#),
        ("negative leading zero", br#"{"a":-01}"#),
        ("double zero", br#"{"a":00}"#),
        ("leading zero decimal", br#"{"a":00.5}"#),
        ("lone minus", br#"{"a":-}"#),
        ("trailing dot", br#"{"a":1.}"#),
        ("leading dot", br#"{"a":.5}"#),
        ("plus sign", br#"{"a":+1}"#),
        ("empty exponent", br#"{"a":1e}"#),
        ("signed empty exponent", br#"{"a":1e+}"#),
        ("dot exponent", br#"{"a":1.e5}"#),
        ("hex", br#"{"a":0x10}"#),
        ("NaN", br#"{"a":NaN}"#),
        ("Infinity", br#"{"a":Infinity}"#),
        ("-Infinity", br#"{"a":-Infinity}"#),
        ("bare NaN", b"NaN"),
        ("trailing comma object", br#"{"a":1,}"#),
        ("trailing comma array", br#"{"a":[1,]}"#),
        ("leading comma array", br#"{"a":[,1]}"#),
        ("empty object comma", br#"{,}"#),
        ("BOM", b"\xef\xbb\xbf{}"),
        ("single quotes", br#"{'a':1}"#),
        ("unquoted key", br#"{a:1}"#),
        ("numeric key", br#"{1:1}"#),
        ("line comment", b"{} // x"),
        ("block comment", b"{/* c */}"),
        ("hash comment", b"# x\n{}"),
        ("invalid escape x", br#"{"a":"\x41"}"#),
        ("invalid escape quote", br#"{"a":"\'"}"#),
        ("short unicode escape", br#"{"a":"\u12"}"#),
        ("non-hex unicode escape", br#"{"a":"\u12G4"}"#),
        ("escaped U+ form", br#"{"a":"\U0001F600"}"#),
        ("backslash at end", br#"{"a":"\"#),
        ("tru", br#"{"a":tru}"#),
        ("True", br#"{"a":True}"#),
        ("nul", br#"{"a":nul}"#),
        ("None", br#"{"a":None}"#),
        ("undefined", br#"{"a":undefined}"#),
        ("missing colon", br#"{"a" 1}"#),
        ("missing comma", br#"{"a":1 "b":2}"#),
        ("double colon", br#"{"a"::1}"#),
        ("array missing comma", br#"{"a":[1 2]}"#),
        ("mismatched close", br#"{"a":[1}"#),
        ("extra close", br#"{"a":1}}"#),
        ("form feed whitespace", b"\x0c{}"),
        ("vertical tab whitespace", b"{\x0b}"),
        ("NBSP whitespace", b"\xc2\xa0{}"),
        ("ideographic space", "{\u{3000}}".as_bytes()),
        ("duplicate key then error", br#"{"a":1,"a":2,}"#),
        ("type error then syntax error", br#"{"must":1,"a":[}"#),
        ("bare string unterminated", br#""abc"#),
        ("only close", b"}"),
        ("only colon", b":"),
        ("deep then error", br#"{"a":[[[[{"b":[1,]}]]]]}"#),
    ];
    for (label, data) in syntax {
        let before = s.failures.len();
        s.check_bytes(&ct, data, &[(E, "json.syntax", "<data>")]);
        if s.failures.len() > before {
            let last = s.failures.pop().unwrap();
            s.fail(format!("[{label}] {last}"));
        }
    }
    // Valid, if unusual: never json.syntax.
    let valid: &[(&[u8], &[Triple])] = &[
        (b"{\"must\":\"\x7f\"}", &[]),
        (b" \t\n\r{\"must\":\"x\"}\r\n\t ", &[]),
        (br#"{"must":"x","a":-0}"#, &[]),
        (br#"{"must":"x","a":0.0e-0}"#, &[]),
        (br#"{"must":"x","a":1E+2}"#, &[]),
        (br#"{"must":"x","a":1e400}"#, &[]),
        (br#"{"must":"x","a":-1e-400}"#, &[]),
        (br#"{"must":"x","a":123456789012345678901234567890}"#, &[]),
        (br#"{"must":"\u0000"}"#, &[]),
        (br#"{"must":"\/\b\f\n\r\t\"\\"}"#, &[]),
        (br#"{"must":"\uD83D\uDE00"}"#, &[]),
        (br#"{"must":"x","\ud83d\ude00":1}"#, &[]),
        ("{\"must\":\"\u{10FFFF}\u{FFFF}\u{FEFF}\"}".as_bytes(), &[]),
        (br#"{"must":"x","a":{"":{"":[]}}}"#, &[]),
        (br#"{ "must" : "x" , "a" : [ 1 , { } ] }"#, &[]),
        (br#"{"must":1}"#, &[(E, "field.type", "must")]),
    ];
    for (data, expect) in valid {
        s.check_bytes(&ct, data, expect);
    }
    s.finish();
}

// ---------------------------------------------------------------------------
// top-level non-object data
// ---------------------------------------------------------------------------

#[test]
fn top_level() {
    let mut s = Suite::new("top_level");
    let ct = c(r#"{"name":"a","type":"string"},{"name":"b.c","type":"string"}"#);
    let sct = cs(r#"{"name":"a","type":"string"},{"name":"b.c","type":"string"}"#);
    for data in
        ["[]", "1", "0", "-0", "1e400", "\"x\"", "\"\"", "null", "true", "false", r#"[{"a":"x","b":{"c":"y"}}]"#, " 0 "]
    {
        s.check(&ct, data, &[(E, "field.type", "<data>")]);
        s.check(&sct, data, &[(E, "field.type", "<data>")]);
    }
    // SPEC §4: any object in the body that repeats a key is a finding, even
    // inside a top-level array; elements are named by index.
    s.check(&ct, r#"[{"a":1,"a":2}]"#, &[(E, "field.type", "<data>"), (E, "json.duplicate_key", "[0].a")]);
    s.check(&sct, r#"[[],{"a":1,"a":2}]"#, &[(E, "field.type", "<data>"), (E, "json.duplicate_key", "[1].a")]);
    s.check(&ct, "{}", &[(E, "field.required", "a"), (E, "field.required", "b")]);
    s.check(&ct, r#"{"a":"x","b":{"c":"y"}}"#, &[]);
    s.finish();
}

// ---------------------------------------------------------------------------
// §4 order of findings
// ---------------------------------------------------------------------------

#[test]
fn finding_order() {
    let mut s = Suite::new("finding_order");
    s.cases += 1;
    let ct = cs(r#"{"name":"z","type":"string"},
                   {"name":"m","type":"integer"},
                   {"name":"a","type":"string","minLength":5,"pattern":"^x"}"#);
    let spec = load(&ct).expect("order contract loads");
    let report = spec.validate_json(br#"{"z":1,"a":"ab","q":1,"a":"zz"}"#);
    let got: Vec<(&str, &str, &str)> =
        report.findings().iter().map(|f| (sev(f.severity()), f.rule(), f.field())).collect();
    let want = vec![
        (E, "field.minLength", "a"),
        (E, "field.pattern", "a"),
        (E, "json.duplicate_key", "a"),
        (E, "field.required", "m"),
        (E, "field.type", "z"),
        (W, "field.unknown", "q"),
    ];
    if got != want {
        s.fail(format!("expected exactly {want:?}\n    got {got:?}"));
    }
    // Determinism: the same input gives the same findings and messages.
    s.cases += 1;
    let again = spec.validate_json(br#"{"z":1,"a":"ab","q":1,"a":"zz"}"#);
    let m1: Vec<String> =
        report.findings().iter().map(|f| format!("{:?}", (f.rule(), f.field(), f.message()))).collect();
    let m2: Vec<String> =
        again.findings().iter().map(|f| format!("{:?}", (f.rule(), f.field(), f.message()))).collect();
    if m1 != m2 {
        s.fail(format!("non-deterministic findings: {m1:?} vs {m2:?}"));
    }
    s.finish();
}

// ---------------------------------------------------------------------------
// §2 contract loading errors, each positioned on the offending line
// ---------------------------------------------------------------------------

#[test]
fn contract_errors() {
    let mut s = Suite::new("contract_errors");
    // missing required keys: anywhere in the document
    s.load_err("{\n  \"revision\": \"1.0.0\",\n  \"fields\": []\n}\n", &[]);
    s.load_err("{\n  \"name\": \"x\",\n  \"fields\": []\n}\n", &[]);
    s.load_err("{\n  \"name\": \"x\",\n  \"revision\": \"1.0.0\"\n}\n", &[]);
    s.load_err("{}", &[]);
    s.load_err("[]", &[]);
    s.load_err("\"contract\"", &[]);
    // wrongly typed top-level keys
    s.load_err(&ml_head(&["\"name\": 5", "\"revision\": \"1.0.0\""]), &["\"name\": 5"]);
    s.load_err(&ml_head(&["\"name\": \"x\"", "\"revision\": 1"]), &["\"revision\": 1"]);
    s.load_err(&ml_head(&["\"name\": \"x\"", "\"revision\": \"1.0.0\"", "\"strict\": \"yes\""]), &["\"strict\""]);
    s.load_err("{\n  \"name\": \"x\",\n  \"revision\": \"1.0.0\",\n  \"fields\": {}\n}\n", &["\"fields\""]);
    // bad semver
    for bad in [
        "1.0",
        "1",
        "v1.0.0",
        "01.0.0",
        "1.00.0",
        "1.0.0-",
        "1.0.0.0",
        "",
        " 1.0.0",
        "1.0.0-01",
        "1.0.0+",
        "a.b.c",
        "1.0.0-a..b",
    ] {
        let line = format!("\"revision\": \"{bad}\"");
        s.load_err(&ml_head(&["\"name\": \"x\"", &line]), &["\"revision\""]);
    }
    for good in
        ["1.0.0-alpha.1", "1.0.0+build.5", "10.20.30", "1.0.0-0.3.7", "1.0.0-x.7.z.92", "0.0.0", "1.0.0-rc.1+build.5"]
    {
        let line = format!("\"revision\": \"{good}\"");
        s.load_ok(&ml_head(&["\"name\": \"x\"", &line]));
    }
    // unknown keys
    s.load_err(&ml_head(&["\"name\": \"x\"", "\"revision\": \"1.0.0\"", "\"version\": \"1\""]), &["\"version\""]);
    s.load_err(&ml_head(&["\"name\": \"x\"", "\"revision\": \"1.0.0\"", "\"Strict\": true"]), &["\"Strict\""]);
    s.load_err(
        &ml(&[r#"{ "name": "a", "type": "string" }"#, r#"{ "name": "b", "type": "string", "requried": false }"#]),
        &["requried"],
    );
    s.load_err(&ml(&[r#"{ "name": "b", "type": "array", "items": {} }"#]), &["\"items\""]);
    s.load_err(&ml(&[r#"{ "name": "b", "type": "integer", "default": 1 }"#]), &["\"default\""]);
    // SPEC §10: `format`, `const` and `closed` are field keys now; misused,
    // each is a structural error at its value.
    s.load_err(&ml(&[r#"{ "name": "b", "type": "integer", "format": "uri" }"#]), &["\"uri\""]);
    s.load_err(&ml(&[r#"{ "name": "b", "type": "string", "enum": ["x"], "const": "y" }"#]), &["\"y\""]);
    s.load_err(&ml(&[r#"{ "name": "b", "type": "string", "closed": true }"#]), &["true"]);
    s.load_err(&ml(&[r#"{ "name": "b", "type": "string", "const": 1 }"#]), &["1 }"]);
    // field shape
    s.load_err(&ml(&[r#"{ "type": "string" }"#]), &["\"type\""]);
    s.load_err(&ml(&[r#"{ "name": "b" }"#]), &["\"name\": \"b\""]);
    s.load_err(&ml(&[r#"{ "name": 5, "type": "string" }"#]), &["\"name\": 5"]);
    s.load_err(&ml(&["\"b\""]), &["\"b\""]);
    s.load_err(&ml(&[r#"{ "name": "b", "type": "string", "required": "no" }"#]), &["\"required\""]);
    // types
    for bad in [
        r#""str""#,
        r#""String""#,
        r#""float""#,
        r#""int""#,
        r#""""#,
        "5",
        "null",
        "[]",
        r#"["string","nope"]"#,
        "[5]",
        r#"{"a":1}"#,
    ] {
        let f = format!(r#"{{ "name": "b", "type": {bad} }}"#);
        s.load_err(&ml(&[r#"{ "name": "a", "type": "string" }"#, &f]), &["\"name\": \"b\""]);
    }
    // duplicate paths
    s.load_err(
        &ml(&[r#"{ "name": "a", "type": "string" }"#, r#"{ "name": "a", "type": "string" }"#]),
        &["\"name\": \"a\""],
    );
    s.load_err(
        &ml(&[
            r#"{ "name": "x", "type": "string" }"#,
            r#"{ "name": "t[]", "type": "string" }"#,
            r#"{ "name": "t[]", "type": "integer" }"#,
        ]),
        &["\"t[]\""],
    );
    s.load_err(
        &ml(&[
            r#"{ "name": "p.q", "type": "string" }"#,
            r#"{ "name": "x", "type": "string" }"#,
            r#"{ "name": "p.q", "type": "string", "required": false }"#,
        ]),
        &["\"p.q\""],
    );
    // scalar and parent
    s.load_err(
        &ml(&[
            r#"{ "name": "x", "type": "string" }"#,
            r#"{ "name": "a", "type": "string" }"#,
            r#"{ "name": "a.b", "type": "string" }"#,
        ]),
        &["\"a\"", "\"a.b\""],
    );
    s.load_err(
        &ml(&[r#"{ "name": "a.b", "type": "string" }"#, r#"{ "name": "a", "type": "integer" }"#]),
        &["\"a\"", "\"a.b\""],
    );
    s.load_err(
        &ml(&[r#"{ "name": "tags", "type": "string" }"#, r#"{ "name": "tags[]", "type": "string" }"#]),
        &["\"tags\"", "\"tags[]\""],
    );
    s.load_err(
        &ml(&[r#"{ "name": "a", "type": "boolean" }"#, r#"{ "name": "a.b.c", "type": "string" }"#]),
        &["\"a\"", "\"a.b.c\""],
    );
    s.load_err(
        &ml(&[r#"{ "name": "a[].b", "type": "integer" }"#, r#"{ "name": "a[].b.c", "type": "string" }"#]),
        &["\"a[].b\"", "\"a[].b.c\""],
    );
    s.load_err(
        &ml(&[r#"{ "name": "n", "type": ["integer","null"] }"#, r#"{ "name": "n.x", "type": "string" }"#]),
        &["\"n\"", "\"n.x\""],
    );
    // keyword that no type carries
    let kw: &[(&str, &str, &str)] = &[
        ("\"integer\"", "\"maxLength\": 3", "maxLength"),
        ("\"number\"", "\"minLength\": 1", "minLength"),
        ("[\"integer\",\"null\"]", "\"pattern\": \"^a\"", "pattern"),
        ("\"string\"", "\"minimum\": 0", "minimum"),
        ("\"string\"", "\"exclusiveMaximum\": 0", "exclusiveMaximum"),
        ("\"boolean\"", "\"multipleOf\": 2", "multipleOf"),
        ("\"object\"", "\"minItems\": 1", "minItems"),
        ("[\"string\",\"null\"]", "\"uniqueItems\": true", "uniqueItems"),
        ("\"null\"", "\"maxItems\": 1", "maxItems"),
        ("\"array\"", "\"maximum\": 1", "maximum"),
        ("\"array\"", "\"maxLength\": 1", "maxLength"),
    ];
    for (ty, k, needle) in kw {
        let f = format!(r#"{{ "name": "b", "type": {ty}, {k} }}"#);
        s.load_err(&ml(&[r#"{ "name": "a", "type": "string" }"#, &f]), &[needle]);
    }
    for (ty, k) in [
        ("[\"integer\",\"string\"]", "\"maxLength\": 3"),
        ("\"any\"", "\"maxLength\": 3"),
        ("[\"null\",\"integer\"]", "\"minimum\": 0"),
        ("\"integer\"", "\"multipleOf\": 0.5"),
        ("[\"array\",\"null\"]", "\"uniqueItems\": false"),
    ] {
        let f = format!(r#"{{ "name": "b", "type": {ty}, {k} }}"#);
        s.load_ok(&ml(&[&f]));
    }
    // impossible ranges
    for k in [
        "\"minimum\": 5, \"maximum\": 4",
        "\"minimum\": 1.5, \"maximum\": 1.25",
        "\"minimum\": 0.30000000000000001, \"maximum\": 0.3",
        "\"exclusiveMinimum\": 5, \"exclusiveMaximum\": 5",
        "\"minimum\": 5, \"exclusiveMaximum\": 5",
    ] {
        let f = format!(r#"{{ "name": "b", "type": "number", {k} }}"#);
        s.load_err(&ml(&[r#"{ "name": "a", "type": "string" }"#, &f]), &["\"b\""]);
    }
    s.load_err(&ml(&[r#"{ "name": "b", "type": "string", "minLength": 3, "maxLength": 2 }"#]), &["\"b\""]);
    s.load_err(&ml(&[r#"{ "name": "b", "type": "array", "minItems": 2, "maxItems": 1 }"#]), &["\"b\""]);
    s.load_ok(&ml(&[r#"{ "name": "b", "type": "number", "minimum": 5, "maximum": 5 }"#]));
    s.load_ok(&ml(&[r#"{ "name": "b", "type": "string", "minLength": 2, "maxLength": 2 }"#]));
    // ill-typed keyword values
    for k in [
        "\"maxLength\": -1",
        "\"maxLength\": \"3\"",
        "\"minLength\": 1.5",
        "\"multipleOf\": 0",
        "\"multipleOf\": -2",
        "\"pattern\": 5",
        "\"enum\": \"a\"",
        "\"maximum\": \"9\"",
    ] {
        let f = format!(r#"{{ "name": "b", "type": "string", {k} }}"#);
        // maximum/multipleOf on a string are doubly wrong; use a multi-type field
        let f = f.replace("\"type\": \"string\"", "\"type\": [\"string\",\"number\"]");
        s.load_err(&ml(&[r#"{ "name": "a", "type": "string" }"#, &f]), &["\"b\""]);
    }
    s.load_err(&ml(&[r#"{ "name": "b", "type": "array", "uniqueItems": "true" }"#]), &["\"b\""]);
    // enum values of a type the field does not accept
    for (ty, en) in [
        ("\"string\"", "[1]"),
        ("\"string\"", "[\"a\", 1]"),
        ("\"integer\"", "[1.5]"),
        ("\"integer\"", "[\"1\"]"),
        ("\"boolean\"", "[0]"),
        ("[\"string\",\"null\"]", "[\"a\", 1]"),
        ("\"string\"", "[null]"),
        ("\"number\"", "[true]"),
        ("\"integer\"", "[true]"),
    ] {
        let f = format!(r#"{{ "name": "b", "type": {ty}, "enum": {en} }}"#);
        s.load_err(&ml(&[r#"{ "name": "a", "type": "string" }"#, &f]), &["\"b\""]);
    }
    for (ty, en) in [
        ("\"integer\"", "[1.0, 2e0]"),
        ("[\"string\",\"null\"]", "[\"a\", null]"),
        ("\"any\"", "[1, \"a\", null, true]"),
        ("\"number\"", "[1, 1.5]"),
    ] {
        let f = format!(r#"{{ "name": "b", "type": {ty}, "enum": {en} }}"#);
        s.load_ok(&ml(&[&f]));
    }
    // regex the regex crate cannot compile: structural error naming the field
    for p in [
        "(?=a)",
        "(?!a)",
        "(?<=a)b",
        "(",
        "[z-a]",
        "a{2,1}",
        "(a)\\\\1",
        "\\\\",
        "*a",
        "\\\\p{Foo}",
        "[[:alpha:]",
        "a{1000}{1000}{1000}",
    ] {
        let f = format!(r#"{{ "name": "bad_pat", "type": "string", "pattern": "{p}" }}"#);
        s.load_err_named(&ml(&[r#"{ "name": "a", "type": "string" }"#, &f]), &["\"bad_pat\""], Some("bad_pat"));
    }
    // malformed contract JSON: position points at the offending line
    s.load_err(
        "{\n  \"name\": \"x\",\n  \"revision\": \"1.0.0\",\n  \"fields\": [ { \"name\": \"a\", \"type\": \"string\" }, ]\n}\n",
        &["\"fields\""],
    );
    s.load_err("{\n  \"name\": \"x\",\n  \"revision\": \"1.0.0\n}\n", &["\"revision\"", "}"]);
    s.load_err("{\n  \"name\": \"x\"\n  \"revision\": \"1.0.0\",\n  \"fields\": []\n}\n", &["\"revision\""]);
    s.load_err("{\n  \"name\": \"x\",\n  \"revision\": \"1.0.0\",\n  \"fields\": [ 01 ]\n}\n", &["\"fields\""]);
    s.load_bytes_err(b"");
    // A UTF-8 byte-order mark is tolerated, as in envelope files.
    s.cases += 1;
    if ContractSpec::from_slice(b"\xef\xbb\xbf{\"name\":\"x\",\"revision\":\"1.0.0\",\"fields\":[]}", "bom.json")
        .is_err()
    {
        s.fail("a contract with a byte-order mark did not load".into());
    }
    s.load_bytes_err(b"{\"name\":\"\xff\",\"revision\":\"1.0.0\",\"fields\":[]}");
    s.load_bytes_err(b"{\"name\":\"x\",\"revision\":\"1.0.0\",\"fields\":[");
    s.load_bytes_err(format!("{}{}", "[".repeat(100_000), "]".repeat(100_000)).as_bytes());
    s.load_bytes_err(b"{\"name\":\"\\ud800\",\"revision\":\"1.0.0\",\"fields\":[]}");
    // documented optional keys load
    s.load_ok(
        r#"{"name":"x","revision":"1.0.0","kind":"mcp","title":"T","doc":"D","strict":false,
            "fields":[{"name":"a","type":"string","doc":"d","required":true,"enum":["x"]}]}"#,
    );
    s.load_ok(r#"{"name":"x","revision":"1.0.0","fields":[]}"#);
    // the bundled contracts, and the original ProtocolArc examples when present
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    for dir in [root.join("contracts"), root.join("../shared/anchors/seeds/ProtocolArc/examples/contracts")] {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        let mut paths: Vec<_> = entries.filter_map(|e| e.ok()).map(|e| e.path()).collect();
        paths.sort();
        for p in paths.into_iter().filter(|p| p.extension().is_some_and(|e| e == "json")) {
            s.cases += 1;
            let bytes = std::fs::read(&p).unwrap();
            if let Err(e) = ContractSpec::from_slice(&bytes, &p.display().to_string()) {
                let d: Vec<String> = e.diagnostics().iter().map(|d| d.message.clone()).collect();
                s.fail(format!("{} should load: {d:?}", p.display()));
            }
        }
    }
    s.finish();
}

// ---------------------------------------------------------------------------
// pathological sizes: huge exponents, long mantissas, wide objects
// ---------------------------------------------------------------------------

#[test]
fn pathological() {
    let mut s = Suite::new("pathological");
    let started = std::time::Instant::now();
    let int = r#""type":"integer""#;
    s.val(int, "1e1000000000", &[]);
    s.val(int, "1e100000000000000000000000000000", &[]);
    s.val(int, "-1E+100000000000000000000000000000", &[]);
    s.val(int, "1e-1000000000", &["field.type"]);
    s.val(int, "1.5e-100000000000000000000000000000", &["field.type"]);
    s.val(int, "0e-1000000000", &[]);
    s.val(int, "0.0e99999999999999999999", &[]);
    s.val(int, "10e-1", &[]);
    s.val(int, "100e-3", &["field.type"]);
    s.val(r#""type":"number","maximum":10"#, "1e1000000000", &["field.maximum"]);
    s.val(r#""type":"number","maximum":0"#, "1e-1000000000", &["field.maximum"]);
    s.val(r#""type":"number","minimum":0"#, "-1e-100000000000000000000000", &["field.minimum"]);
    s.val(r#""type":"number","minimum":0"#, "-0e-100000000000000000000000", &[]);
    s.val(r#""type":"number","multipleOf":0.01"#, "1e1000000000", &[]);
    s.val(r#""type":"number","multipleOf":3"#, "1e1000000000", &["field.multipleOf"]);
    s.val(r#""type":"number","multipleOf":1e-401"#, "1e-400", &[]);
    s.val(r#""type":"number","multipleOf":1e400"#, "1e400", &[]);
    s.val(r#""type":"number","multipleOf":1e400"#, "2e400", &[]);
    s.val(r#""type":"number","multipleOf":1e400"#, "0", &[]);
    s.val(r#""type":"number","multipleOf":1e400"#, "1", &["field.multipleOf"]);
    s.val(r#""type":"number","enum":[1e400]"#, "10e399", &[]);
    s.val(r#""type":"number","enum":[1e400]"#, "1e401", &["field.enum"]);
    let nines = "9".repeat(5000);
    let zeros = "0".repeat(10000);
    s.val(int, &nines, &[]);
    s.val(int, &format!("{nines}.0000"), &[]);
    s.val(int, &format!("{nines}.{zeros}1"), &["field.type"]);
    s.val(r#""type":"number","multipleOf":0.01"#, &format!("{nines}.99"), &[]);
    s.val(r#""type":"number","multipleOf":0.01"#, &format!("{nines}.991"), &["field.multipleOf"]);
    s.val(r#""type":"number","exclusiveMinimum":0,"exclusiveMaximum":1"#, &format!("0.{zeros}1"), &[]);
    s.val(r#""type":"number","exclusiveMinimum":0"#, &format!("0.{zeros}"), &["field.exclusiveMinimum"]);
    s.val(r#""type":"number","maximum":1e308"#, &nines, &["field.maximum"]);
    // long strings, counted in code points
    s.val(r#""type":"string","maxLength":100000"#, &format!("\"{}\"", "😀".repeat(100_000)), &[]);
    s.val(
        r#""type":"string","maxLength":99999"#,
        &format!("\"{}\"", "\\ud83d\\ude00".repeat(100_000)),
        &["field.maxLength"],
    );
    // wide objects and long arrays
    let any_a = c(r#"{"name":"a","type":"any","required":false}"#);
    let wide: Vec<String> = (0..50_000).map(|i| format!("\"k{i}\":{i}")).collect();
    s.check(&any_a, &format!("{{{}}}", wide.join(",")), &[]);
    s.check(&any_a, &format!("{{{},\"k49999\":0}}", wide.join(",")), &[(E, "json.duplicate_key", "k49999")]);
    s.check(&any_a, &format!("{{\"a\":{{{}}},\"k1\":1,\"k1\":1}}", wide.join(",")), &[(E, "json.duplicate_key", "k1")]);
    let long: Vec<String> = (0..20_000).map(|i| i.to_string()).collect();
    let ints = c(r#"{"name":"n[]","type":"integer","maximum":19998}"#);
    s.check(&ints, &format!("{{\"n\":[{}]}}", long.join(",")), &[(E, "field.maximum", "n[19999]")]);
    let uniq = c(r#"{"name":"n","type":"array","uniqueItems":true}"#);
    let distinct: Vec<String> = (0..3_000).map(|i| i.to_string()).collect();
    s.check(&uniq, &format!("{{\"n\":[{}]}}", distinct.join(",")), &[]);
    s.check(&uniq, &format!("{{\"n\":[{},2999.0]}}", distinct.join(",")), &[(E, "field.uniqueItems", "n")]);
    let secs = started.elapsed().as_secs_f64();
    eprintln!("pathological suite took {secs:.2}s");
    s.cases += 1;
    if secs > 20.0 {
        s.fail(format!("pathological inputs took {secs:.1}s (budget 20s in debug)"));
    }
    s.finish();
}

// ---------------------------------------------------------------------------
// more paths and odd field names: never panic
// ---------------------------------------------------------------------------

#[test]
fn more_paths() {
    let mut s = Suite::new("more_paths");
    let abc = c(r#"{"name":"a[].b.c","type":"string"}"#);
    s.check(&abc, r#"{"a":[{}]}"#, &[(E, "field.required", "a[0].b")]);
    s.check(&abc, r#"{"a":[{"b":{}}]}"#, &[(E, "field.required", "a[0].b.c")]);
    s.check(&abc, r#"{"a":[{"b":[]}]}"#, &[(E, "field.type", "a[0].b")]);
    let gx = c(r#"{"name":"grid[][].x","type":"integer"}"#);
    s.check(&gx, r#"{"grid":[[{"x":1}],[{}],[]]}"#, &[(E, "field.required", "grid[1][0].x")]);
    s.check(&gx, r#"{"grid":[[{"x":1},[]]]}"#, &[(E, "field.type", "grid[0][1]")]);
    // a scalar element that is also used as a parent cannot load
    s.load_err(
        &ml(&[r#"{ "name": "a[]", "type": "integer" }"#, r#"{ "name": "a[].b", "type": "string" }"#]),
        &["\"a[]\"", "\"a[].b\""],
    );
    s.load_ok(&ml(&[r#"{ "name": "a[]", "type": "object" }"#, r#"{ "name": "a[].b", "type": "string" }"#]));
    // odd names: loading may succeed or fail, but never panics, and a loaded
    // contract validates without panicking
    let deep_name = vec!["a"; 300].join(".");
    let deep_arr = "x".to_string() + &"[]".repeat(300);
    for name in [
        "",
        ".",
        "a..b",
        ".a",
        "a.",
        "[]",
        "a[]]",
        "a[0]",
        "a[",
        "[][]",
        "a.[].b",
        "a[]b",
        "a b",
        "\\u0000",
        "<data>",
        "<envelope>",
        &deep_name,
        &deep_arr,
    ] {
        s.cases += 1;
        let contract = c(&format!(r#"{{"name":"{name}","type":"string","required":false}}"#));
        if let Ok(spec) = ContractSpec::from_slice(contract.as_bytes(), "odd.json") {
            for data in [
                "{}".to_string(),
                r#"{"a":{"b":1},"":{"":1},"[]":[],"a[0]":1}"#.to_string(),
                nest_objects(128),
                nest_objects(129),
                nest_arrays_in_object(128),
            ] {
                let _ = spec.validate_json(data.as_bytes());
            }
        }
    }
    s.finish();
}

// ---------------------------------------------------------------------------
// property tests: never panic; json.syntax exactly when serde_json rejects
// ---------------------------------------------------------------------------

const PROP_CONTRACT: &str = r#"{"name":"adv.prop","revision":"1.0.0","strict":true,"fields":[
    {"name":"a","type":"any","required":false},
    {"name":"b.c","type":["string","integer"],"required":false,"maxLength":3,"minimum":0},
    {"name":"arr","type":"array","required":false,"uniqueItems":true,"maxItems":4},
    {"name":"arr[]","type":["number","string","object"],"multipleOf":0.01,"pattern":"a"},
    {"name":"arr[].k","type":"boolean","required":false},
    {"name":"e","type":["string","null","number"],"required":false,"enum":["x",null,1]}
]}"#;

fn prop_spec() -> &'static ContractSpec {
    static SPEC: std::sync::OnceLock<ContractSpec> = std::sync::OnceLock::new();
    SPEC.get_or_init(|| load(PROP_CONTRACT).expect("property contract loads"))
}

/// Checks one input: no panic, deterministic, at most one finding when
/// malformed, and `json.syntax` exactly when serde_json rejects the bytes
/// (except for number overflow and recursion, where serde_json is stricter
/// than RFC 8259 / the 128-level limit).
fn agrees_with_serde(bytes: &[u8]) -> Result<(), TestCaseError> {
    let spec = prop_spec();
    let report = spec.validate_json(bytes);
    let triples: Vec<(&str, &str, String)> =
        report.findings().iter().map(|f| (sev(f.severity()), f.rule(), f.field().to_string())).collect();
    let syntax = triples.iter().any(|t| t.1 == "json.syntax");
    let depth = triples.iter().any(|t| t.1 == "json.depth");
    prop_assert!(!depth, "json.depth on a shallow document: {:?}", show(bytes));
    if syntax {
        prop_assert_eq!(triples.len(), 1, "json.syntax must be the only finding: {:?}", triples);
        prop_assert_eq!(&triples[0], &(E, "json.syntax", "<data>".to_string()));
        prop_assert!(!report.is_valid());
    }
    match serde_json::from_slice::<serde_json::Value>(bytes) {
        Ok(v) => {
            prop_assert!(!syntax, "valid JSON reported as json.syntax: {:?}", show(bytes));
            if !v.is_object() {
                // field.type at <data>, plus only duplicate-key findings inside it
                let at_data = triples.iter().filter(|t| t.1 == "field.type" && t.2 == "<data>").count();
                prop_assert_eq!(at_data, 1, "{:?}", triples);
                prop_assert!(
                    triples.iter().all(|t| t.1 == "json.duplicate_key" || (t.1 == "field.type" && t.2 == "<data>")),
                    "non-object body: {:?}",
                    triples
                );
            }
        }
        Err(e) => {
            let m = e.to_string();
            if !(m.contains("number out of range") || m.contains("recursion limit")) {
                prop_assert!(
                    syntax,
                    "serde_json rejects ({}) but no json.syntax: {:?} -> {:?}",
                    m,
                    show(bytes),
                    triples
                );
            }
        }
    }
    let again = spec.validate_json(bytes);
    let t2: Vec<(&str, &str, String)> =
        again.findings().iter().map(|f| (sev(f.severity()), f.rule(), f.field().to_string())).collect();
    prop_assert_eq!(&triples, &t2, "non-deterministic");
    Ok(())
}

fn json_string() -> impl Strategy<Value = String> {
    let piece = prop::sample::select(vec![
        "a",
        "b",
        "Z",
        "0",
        " ",
        "_",
        ".",
        "[",
        "]",
        "é",
        "😀",
        "\u{7f}",
        "\\n",
        "\\r",
        "\\t",
        "\\b",
        "\\f",
        "\\\"",
        "\\\\",
        "\\/",
        "\\u0061",
        "\\u00e9",
        "\\u0000",
        "\\u001F",
        "\\uFFFF",
        "\\u2028",
        "\\ud83d\\ude00",
        "\\uD834\\uDD1E",
    ]);
    prop::collection::vec(piece, 0..8).prop_map(|v| format!("\"{}\"", v.concat()))
}

fn json_key() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => prop::sample::select(vec![
            "\"a\"", "\"b\"", "\"c\"", "\"arr\"", "\"e\"", "\"k\"", "\"\\u0061\"", "\"\"",
        ])
        .prop_map(String::from),
        1 => json_string(),
    ]
}

fn json_number() -> impl Strategy<Value = String> {
    (
        any::<bool>(),
        prop_oneof![Just("0".to_string()), (1u64..u64::MAX).prop_map(|n| n.to_string())],
        prop::option::of(0u32..1_000_000),
        prop::option::of((prop::sample::select(vec!["e", "E", "e+", "e-", "E-", "E+"]), 0u32..100)),
    )
        .prop_map(|(neg, int, frac, exp)| {
            let mut n = String::new();
            if neg {
                n.push('-');
            }
            n.push_str(&int);
            if let Some(f) = frac {
                n.push_str(&format!(".{f}"));
            }
            if let Some((e, x)) = exp {
                n.push_str(&format!("{e}{x}"));
            }
            n
        })
}

fn ws() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec!["", "", "", " ", "\n", "\t", "\r\n "])
}

fn json_value() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        Just("null".to_string()),
        Just("true".to_string()),
        Just("false".to_string()),
        json_number(),
        json_string(),
    ];
    leaf.prop_recursive(6, 48, 5, |inner| {
        prop_oneof![
            prop::collection::vec((ws(), inner.clone(), ws()), 0..5).prop_map(|v| format!(
                "[{}]",
                v.iter().map(|(a, x, b)| format!("{a}{x}{b}")).collect::<Vec<_>>().join(",")
            )),
            prop::collection::vec((json_key(), ws(), inner), 0..5).prop_map(|v| format!(
                "{{{}}}",
                v.iter().map(|(k, w, x)| format!("{k}{w}:{w}{x}")).collect::<Vec<_>>().join(",")
            )),
        ]
    })
}

fn json_document() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => prop::collection::vec((json_key(), json_value()), 0..6).prop_map(|v| format!(
            "{{{}}}",
            v.iter().map(|(k, x)| format!("{k}:{x}")).collect::<Vec<_>>().join(",")
        )),
        1 => json_value(),
    ]
}

#[derive(Debug, Clone)]
enum Mutation {
    Insert(usize, u8),
    Delete(usize),
    Replace(usize, u8),
    Truncate(usize),
}

const INTERESTING: &[u8] = b"{}[]\",:.-+eE0159 \t\n\r\\u/ntfalsx\x00\x01\x1f\x7f\x80\xbf\xc3\xa9\xed\xef\xbb\xff\x0c";

fn mutation() -> impl Strategy<Value = Mutation> {
    let byte = prop::sample::select(INTERESTING.to_vec());
    prop_oneof![
        (any::<usize>(), byte.clone()).prop_map(|(i, b)| Mutation::Insert(i, b)),
        any::<usize>().prop_map(Mutation::Delete),
        (any::<usize>(), byte).prop_map(|(i, b)| Mutation::Replace(i, b)),
        any::<usize>().prop_map(Mutation::Truncate),
    ]
}

fn apply(doc: &str, muts: &[Mutation]) -> Vec<u8> {
    let mut b = doc.as_bytes().to_vec();
    for m in muts {
        let n = b.len();
        match *m {
            Mutation::Insert(i, x) => b.insert(i % (n + 1), x),
            Mutation::Delete(i) if n > 0 => {
                b.remove(i % n);
            }
            Mutation::Replace(i, x) if n > 0 => b[i % n] = x,
            Mutation::Truncate(i) if n > 0 => b.truncate(i % n),
            _ => {}
        }
    }
    b
}

proptest! {
    #![proptest_config(crate::strategies::config(2000))]

    #[test]
    fn prop_random_bytes(bytes in prop::collection::vec(any::<u8>(), 0..96)) {
        agrees_with_serde(&bytes)?;
    }

    #[test]
    fn prop_json_alphabet_bytes(bytes in prop::collection::vec(prop::sample::select(INTERESTING.to_vec()), 0..48)) {
        agrees_with_serde(&bytes)?;
    }

    #[test]
    fn prop_valid_documents(doc in json_document()) {
        let bytes = doc.as_bytes();
        prop_assert!(serde_json::from_slice::<serde_json::Value>(bytes).is_ok(), "generator bug: {}", doc);
        agrees_with_serde(bytes)?;
    }

    #[test]
    fn prop_mutated_documents(doc in json_document(), muts in prop::collection::vec(mutation(), 0..4)) {
        agrees_with_serde(&apply(&doc, &muts))?;
    }
}

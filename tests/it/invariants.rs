//! The invariants that hold the walker's two modes and the generated
//! validator together, on seeded random contracts and bodies:
//!
//! (a) the quick check (`ContractSpec::passes`, the schema walker stopping
//!     at the first fault) passes a body exactly when the finding engine
//!     (collect mode) finds nothing;
//! (b) the generated validator (`Contract::validate_json`, `fast_path`) gives
//!     the runtime's findings and the quick check's verdict, on the contracts
//!     compiled through the macro in `generated.rs`, with bodies drawn from
//!     their shape by the same generator.
//!
//! Everything is drawn from one deterministic generator with a fixed seed:
//! a failure names the contract and the body, and repeats.

use protocolarc::{Contract, ContractSpec, JsonType};
use protocolarc_tests::root;
use serde_json::{json, Value};

/// SplitMix64: small, fast and the same everywhere.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    /// `true` with probability `p` percent.
    fn chance(&mut self, p: usize) -> bool {
        self.below(100) < p
    }

    fn pick<'t, T>(&mut self, items: &'t [T]) -> &'t T {
        &items[self.below(items.len())]
    }
}

// ---------------------------------------------------------------- contracts

const KEYS: &[&str] = &["a", "b", "id", "tags", "kind", "x1", "deep", "n"];
const PATTERNS: &[&str] = &["^[a-c]+$", "b", "^.{0,3}$", "\\d", "\u{e9}", "^[^\"]*$"];
const MULTIPLES: &[&str] = &["2", "0.5", "0.01", "3", "0.1"];
const BOUNDS: &[&str] = &["-3", "0", "1", "2.5", "-0.5", "10", "0.25"];

/// A random contract document: nesting, arrays, `[]` and `[][]` paths,
/// declared and implied parents, optional parents, strict, every keyword.
fn contract_doc(rng: &mut Rng, n: usize) -> Value {
    let mut fields = Vec::new();
    children(rng, "", 0, &mut fields);
    json!({
        "name": format!("random.c{n}"),
        "revision": "1.0.0",
        "strict": rng.chance(30),
        "fields": fields,
    })
}

fn join(prefix: &str, key: &str) -> String {
    if prefix.is_empty() {
        key.to_string()
    } else {
        format!("{prefix}.{key}")
    }
}

fn field(name: String, mut def: serde_json::Map<String, Value>, required: bool) -> Value {
    def.insert("name".into(), Value::String(name));
    def.insert("required".into(), Value::Bool(required));
    Value::Object(def)
}

/// One to four keys below `prefix` (an object level).
fn children(rng: &mut Rng, prefix: &str, depth: usize, out: &mut Vec<Value>) {
    let mut keys: Vec<&str> = KEYS.to_vec();
    let n = 1 + rng.below(if depth == 0 { 4 } else { 3 });
    for _ in 0..n {
        let key = keys.remove(rng.below(keys.len()));
        let path = join(prefix, key);
        let kind = if depth >= 3 { 0 } else { rng.below(5) };
        let required = rng.chance(60);
        match kind {
            // A leaf.
            0 | 1 => out.push(field(path, leaf(rng), required)),
            // An object, declared or implied.
            2 => {
                if rng.chance(60) {
                    let t = if rng.chance(70) { json!("object") } else { json!(["object", "null"]) };
                    out.push(field(path.clone(), obj(&[("type", t)]), required));
                }
                children(rng, &path, depth + 1, out);
            }
            // An array of scalars (`tags[]`) or of arrays (`grid[][]`).
            3 => {
                let declared = rng.chance(60);
                if declared {
                    out.push(field(path.clone(), array_def(rng), required));
                }
                let element = if rng.chance(25) { format!("{path}[][]") } else { format!("{path}[]") };
                out.push(field(element, leaf(rng), rng.chance(80)));
            }
            // An array of objects (`parts[].kind`).
            _ => {
                if rng.chance(60) {
                    out.push(field(path.clone(), array_def(rng), required));
                }
                let element = format!("{path}[]");
                if rng.chance(40) {
                    out.push(field(element.clone(), obj(&[("type", json!("object"))]), true));
                }
                children(rng, &element, depth + 1, out);
            }
        }
    }
}

fn obj(pairs: &[(&str, Value)]) -> serde_json::Map<String, Value> {
    pairs.iter().map(|(k, v)| (k.to_string(), v.clone())).collect()
}

fn num(text: &str) -> Value {
    serde_json::from_str(text).expect("a number")
}

fn array_def(rng: &mut Rng) -> serde_json::Map<String, Value> {
    let t = if rng.chance(80) { json!("array") } else { json!(["array", "null"]) };
    let mut def = obj(&[("type", t)]);
    let min = rng.below(3);
    if rng.chance(40) {
        def.insert("minItems".into(), json!(min));
    }
    if rng.chance(40) {
        def.insert("maxItems".into(), json!(min + rng.below(4)));
    }
    if rng.chance(40) {
        def.insert("uniqueItems".into(), json!(true));
    }
    def
}

/// A field no path goes below: types, then the keywords they can carry.
fn leaf(rng: &mut Rng) -> serde_json::Map<String, Value> {
    const TYPES: &[&[&str]] = &[
        &["string"],
        &["integer"],
        &["number"],
        &["boolean"],
        &["null"],
        &["string", "integer"],
        &["number", "null"],
        &["string", "null"],
        &["boolean", "string"],
        &["object"],
        &["array"],
        &["string", "object", "array"],
        &["any"],
    ];
    let types: &[&str] = rng.pick::<&[&str]>(TYPES);
    let mut def = serde_json::Map::new();
    def.insert("type".into(), if types.len() == 1 { json!(types[0]) } else { json!(types) });
    let has = |t: &str| types.contains(&t) || types == ["any"];
    let numbers = has("integer") || has("number");
    // An enum, alone (members its own constraints might reject are a
    // structural error: another test's business).
    if rng.chance(20) && types != ["any"] {
        let mut members = Vec::new();
        if has("string") {
            members
                .extend([json!("a"), json!("say \"hi\""), json!("\u{e9}t\u{e9}")].into_iter().take(1 + rng.below(3)));
        }
        if has("integer") {
            members.extend([num("1"), num("-3"), num("100")].into_iter().take(1 + rng.below(3)));
        }
        if has("number") {
            members.extend([num("2.5"), num("0.5")].into_iter().take(1 + rng.below(2)));
        }
        if has("boolean") {
            members.push(json!(rng.chance(50)));
        }
        if has("null") && rng.chance(60) {
            members.push(Value::Null);
        }
        if !members.is_empty() {
            def.insert("enum".into(), Value::Array(members));
            return def;
        }
    }
    if has("string") && types != ["any"] {
        let min = rng.below(3);
        if rng.chance(35) {
            def.insert("minLength".into(), json!(min));
        }
        if rng.chance(35) {
            def.insert("maxLength".into(), json!(min + rng.below(5)));
        }
        if rng.chance(30) {
            def.insert("pattern".into(), json!(rng.pick(PATTERNS)));
        }
    }
    if numbers && types != ["any"] {
        // A lower bound below an upper one, each inclusive or exclusive.
        let lo: f64 = rng.pick(BOUNDS).parse().expect("bound");
        let hi = lo + 1.0 + rng.below(20) as f64;
        if rng.chance(40) {
            let k = if rng.chance(50) { "minimum" } else { "exclusiveMinimum" };
            def.insert(k.into(), num(&lo.to_string()));
        }
        if rng.chance(40) {
            let k = if rng.chance(50) { "maximum" } else { "exclusiveMaximum" };
            def.insert(k.into(), num(&hi.to_string()));
        }
        if rng.chance(30) {
            def.insert("multipleOf".into(), num(rng.pick::<&str>(MULTIPLES)));
        }
    }
    if has("array") && types != ["any"] {
        for (k, v) in array_def(rng) {
            if k != "type" {
                def.insert(k, v);
            }
        }
    }
    def
}

// ------------------------------------------------------------------- bodies

/// A JSON value as text is written: raw numbers, repeated and escaped keys.
#[derive(Clone, Debug)]
enum J {
    Null,
    Bool(bool),
    Num(String),
    Str(String),
    Arr(Vec<J>),
    /// (key, written with an escape, value)
    Obj(Vec<(String, bool, J)>),
}

impl J {
    fn write(&self, out: &mut String) {
        match self {
            J::Null => out.push_str("null"),
            J::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            J::Num(n) => out.push_str(n),
            J::Str(s) => out.push_str(&Value::String(s.clone()).to_string()),
            J::Arr(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    item.write(out);
                }
                out.push(']');
            }
            J::Obj(members) => {
                out.push('{');
                for (i, (key, escaped, value)) in members.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    if *escaped {
                        // The first character as a `\u` escape: the same key.
                        let mut chars = key.chars();
                        let first = chars.next().map_or(String::new(), |c| format!("\\u{:04x}", c as u32));
                        let rest = Value::String(chars.collect()).to_string();
                        out.push('"');
                        out.push_str(&first);
                        out.push_str(&rest[1..]);
                    } else {
                        out.push_str(&Value::String(key.clone()).to_string());
                    }
                    out.push(':');
                    value.write(out);
                }
                out.push('}');
            }
        }
    }

    fn text(&self) -> String {
        let mut out = String::new();
        self.write(&mut out);
        out
    }
}

/// The contract's shape, rebuilt from its public fields: what a body is drawn from.
#[derive(Default)]
struct Shape {
    field: Option<usize>,
    keys: Vec<(String, Shape)>,
    items: Option<Box<Shape>>,
}

impl Shape {
    fn of(spec: &ContractSpec) -> Shape {
        let mut root = Shape::default();
        for (i, f) in spec.fields().iter().enumerate() {
            let mut node = &mut root;
            for seg in f.path().segments() {
                let at = match node.keys.iter().position(|(k, _)| *k == seg.key) {
                    Some(at) => at,
                    None => {
                        node.keys.push((seg.key.clone(), Shape::default()));
                        node.keys.len() - 1
                    }
                };
                node = &mut node.keys[at].1;
                // The random contracts step into arrays only (`[]`).
                for step in &seg.steps {
                    assert_eq!(*step, protocolarc::contract::Step::Items);
                    node = node.items.get_or_insert_with(Box::default);
                }
            }
            node.field = Some(i);
        }
        root
    }

    /// Whether a node is required in its object: its field's flag, or, for
    /// an implied node, whether any child is.
    fn required(&self, spec: &ContractSpec) -> bool {
        match self.field {
            Some(f) => spec.fields()[f].is_required(),
            None => {
                self.keys.iter().any(|(_, c)| c.required(spec)) || self.items.as_ref().is_some_and(|i| i.required(spec))
            }
        }
    }
}

const NUMBERS: &[&str] = &[
    "0", "1", "-1", "2", "3", "-3", "0.5", "2.5", "-2.5", "1.0", "1e2", "1E1", "-0", "0.01", "0.03", "10", "100", "7",
    "1.5", "1e-2", "6", "25", "0.25",
];
const STRINGS: &[&str] = &[
    "",
    "a",
    "b",
    "abc",
    "b1",
    "12",
    "\u{e9}",
    "say \"hi\"",
    "a\nb",
    "Z",
    "bbbbbbb",
    "x y",
    "text/plain",
    "application/json",
    "123e4567-e89b-12d3-a456-426614174000",
];
const ALPHABET: &[char] = &['a', 'b', 'c', '\u{e9}', '1', 'Z', '"', '\n', ' '];

struct Bodies<'s> {
    spec: &'s ContractSpec,
    rng: Rng,
    /// Aim at a clean body (half of them): no value of a random type, every
    /// required key, no extra or repeated key, values drawn to meet their
    /// rules; the other half is noisy everywhere.
    careful: bool,
}

impl Bodies<'_> {
    /// Anything at all, small.
    fn any(&mut self, depth: usize) -> J {
        match self.rng.below(if depth > 2 { 4 } else { 6 }) {
            0 => J::Null,
            1 => J::Bool(self.rng.chance(50)),
            2 => J::Num(self.rng.pick(NUMBERS).to_string()),
            3 => J::Str(self.rng.pick(STRINGS).to_string()),
            4 => J::Arr((0..self.rng.below(4)).map(|_| self.any(depth + 1)).collect()),
            _ => {
                let n = self.rng.below(4);
                J::Obj((0..n).map(|_| (self.rng.pick(KEYS).to_string(), false, self.any(depth + 1))).collect())
            }
        }
    }

    fn value(&mut self, node: &Shape, depth: usize) -> J {
        if (!self.careful && self.rng.chance(6)) || depth > 12 {
            return self.any(depth);
        }
        let Some(fi) = node.field else {
            let object = !node.keys.is_empty() && (node.items.is_none() || self.rng.chance(50));
            return if object { self.object(node, depth) } else { self.array(node, None, depth) };
        };
        let f = &self.spec.fields()[fi];
        let types: Vec<JsonType> = f.types().iter().collect();
        let c = f.constraints();
        match *self.rng.pick(&types) {
            JsonType::String => {
                let members: Vec<&str> = f
                    .enum_values()
                    .unwrap_or(&[])
                    .iter()
                    .filter_map(|m| match m {
                        protocolarc::contract::Scalar::String(s) => Some(s.as_str()),
                        _ => None,
                    })
                    .collect();
                if !members.is_empty() && (self.careful || self.rng.chance(70)) {
                    return J::Str(self.rng.pick(&members).to_string());
                }
                if self.careful {
                    return J::Str(self.fitting_string(c));
                }
                if self.rng.chance(40) {
                    return J::Str(self.rng.pick(STRINGS).to_string());
                }
                let (lo, hi) = (c.min_length.unwrap_or(0) as usize, c.max_length.unwrap_or(4) as usize);
                let len = match self.rng.below(4) {
                    0 => lo.saturating_sub(1),
                    1 => lo,
                    2 => hi,
                    _ => hi + 1,
                };
                J::Str((0..len).map(|_| *self.rng.pick(ALPHABET)).collect())
            }
            JsonType::Integer | JsonType::Number => {
                let members: Vec<String> = f
                    .enum_values()
                    .unwrap_or(&[])
                    .iter()
                    .filter(|m| matches!(m, protocolarc::contract::Scalar::Number(_)))
                    .map(|m| m.json())
                    .collect();
                if !members.is_empty() && (self.careful || self.rng.chance(70)) {
                    return J::Num(self.rng.pick(&members).clone());
                }
                if self.careful {
                    return J::Num(self.fitting_number(f));
                }
                let bounds: Vec<String> =
                    [&c.minimum, &c.maximum, &c.exclusive_minimum, &c.exclusive_maximum, &c.multiple_of]
                        .into_iter()
                        .flatten()
                        .map(|d| d.raw().to_string())
                        .collect();
                if !bounds.is_empty() && self.rng.chance(40) {
                    return J::Num(self.rng.pick(&bounds).clone());
                }
                J::Num(self.rng.pick(NUMBERS).to_string())
            }
            JsonType::Boolean => J::Bool(self.rng.chance(50)),
            JsonType::Null => J::Null,
            JsonType::Object => self.object(node, depth),
            JsonType::Array => self.array(node, Some(fi), depth),
        }
    }

    /// A string that meets the lengths and the pattern, when one of a few
    /// tries does.
    fn fitting_string(&mut self, c: &protocolarc::contract::Constraints) -> String {
        let (lo, hi) = (c.min_length.unwrap_or(0) as usize, c.max_length.unwrap_or(6) as usize);
        let mut last = String::new();
        for _ in 0..40 {
            let text = if self.rng.chance(50) {
                self.rng.pick(STRINGS).to_string()
            } else {
                let len = lo + self.rng.below(hi.saturating_sub(lo) + 1);
                (0..len).map(|_| *self.rng.pick(ALPHABET)).collect()
            };
            let n = text.chars().count();
            if (lo..=hi).contains(&n) && c.pattern.as_ref().is_none_or(|p| p.is_match(&text)) {
                return text;
            }
            last = text;
        }
        last
    }

    /// A number that meets the type, bounds and `multipleOf` (judged
    /// roughly, in floating point: the engine has the last word).
    fn fitting_number(&mut self, f: &protocolarc::FieldSpec) -> String {
        let c = f.constraints();
        let integer_only = !f.types().contains(JsonType::Number);
        let raw = |d: Option<&str>| d.and_then(|t| t.parse::<f64>().ok());
        let min = raw(c.minimum.as_ref().map(|d| d.raw()));
        let max = raw(c.maximum.as_ref().map(|d| d.raw()));
        let xmin = raw(c.exclusive_minimum.as_ref().map(|d| d.raw()));
        let xmax = raw(c.exclusive_maximum.as_ref().map(|d| d.raw()));
        let step = raw(c.multiple_of.as_ref().map(|d| d.raw()));
        let mut candidates: Vec<String> = NUMBERS.iter().map(|n| n.to_string()).collect();
        for b in [min, max, xmin, xmax].into_iter().flatten() {
            candidates.extend([b, b + 1.0, b - 1.0, b + 0.5].iter().map(|v| v.to_string()));
        }
        if let Some(m) = step {
            let base = min.or(xmin).unwrap_or(0.0);
            let k0 = (base / m).ceil() as i64;
            candidates.extend((k0..k0 + 6).map(|k| format!("{}", k as f64 * m)));
        }
        let fits = |v: f64| {
            (!integer_only || v.fract() == 0.0)
                && min.is_none_or(|m| v >= m)
                && max.is_none_or(|m| v <= m)
                && xmin.is_none_or(|m| v > m)
                && xmax.is_none_or(|m| v < m)
                && step.is_none_or(|m| ((v / m) - (v / m).round()).abs() < 1e-9)
        };
        let good: Vec<String> = candidates.into_iter().filter(|t| t.parse::<f64>().is_ok_and(fits)).collect();
        if good.is_empty() {
            self.rng.pick(NUMBERS).to_string()
        } else {
            self.rng.pick(&good).clone()
        }
    }

    fn object(&mut self, node: &Shape, depth: usize) -> J {
        let mut members = Vec::new();
        for (key, child) in &node.keys {
            let p = match (child.required(self.spec), self.careful) {
                (true, true) => 100,
                (true, false) => 92,
                _ => 60,
            };
            if self.rng.chance(p) {
                members.push((key.clone(), false, self.value(child, depth + 1)));
            }
        }
        // Now and then one key written with an escape (read decoded).
        if self.rng.chance(3) && !members.is_empty() {
            let at = self.rng.below(members.len());
            members[at].1 = true;
        }
        if self.careful {
            if self.rng.chance(30) {
                members.reverse();
            }
            return J::Obj(members);
        }
        if self.rng.chance(20) {
            for _ in 0..1 + self.rng.below(3) {
                let key = self.rng.pick(&["zz", "x1", "extra", "a"]).to_string();
                members.push((key, false, self.any(depth + 1)));
            }
        }
        if self.rng.chance(2) {
            for i in 0..31 + self.rng.below(4) {
                members.push((format!("k{i}"), false, J::Num(i.to_string())));
            }
        }
        if self.rng.chance(3) && !members.is_empty() {
            let again = members[self.rng.below(members.len())].clone();
            members.push(again);
        }
        if self.rng.chance(30) {
            members.reverse();
        }
        J::Obj(members)
    }

    fn array(&mut self, node: &Shape, field: Option<usize>, depth: usize) -> J {
        let c = field.map(|f| self.spec.fields()[f].constraints().clone()).unwrap_or_default();
        let (lo, hi) = (c.min_items.unwrap_or(0) as usize, c.max_items.unwrap_or(4) as usize);
        let len = match self.rng.below(10) {
            _ if self.careful => lo + self.rng.below(hi.saturating_sub(lo) + 1),
            0 => lo.saturating_sub(1),
            1 => hi + 1,
            2 if self.rng.chance(20) => 31 + self.rng.below(4),
            _ => lo + self.rng.below(hi.saturating_sub(lo) + 1),
        };
        let mut items: Vec<J> = Vec::new();
        for _ in 0..len {
            if c.unique_items && !items.is_empty() && !self.careful && self.rng.chance(15) {
                items.push(items[self.rng.below(items.len())].clone());
                continue;
            }
            items.push(match &node.items {
                Some(element) => self.value(element, depth + 1),
                None => self.any(depth + 1),
            });
        }
        J::Arr(items)
    }
}

/// Whether a JSON body holds an object with more than 32 members: where a
/// generated check, which keeps no hash set of an object's undeclared keys
/// past 32 of them, gives up and hands the body to the finding walk.
fn has_wide_object(bytes: &[u8]) -> bool {
    fn wide(v: &Value) -> bool {
        match v {
            Value::Object(m) => m.len() > 32 || m.values().any(wide),
            Value::Array(items) => items.iter().any(wide),
            _ => false,
        }
    }
    serde_json::from_slice::<Value>(bytes).is_ok_and(|v| wide(&v))
}

#[derive(Default, Debug)]
struct Tally {
    bodies: usize,
    clean: usize,
    quick: usize,
    gave_up: usize,
    flagged: usize,
}

/// Checks invariant (a) on one body: the one-pass check passes exactly the
/// bodies without a finding.
fn quick_agrees(spec: &ContractSpec, bytes: &[u8], tally: &mut Tally) {
    let full = spec.validate_json_full(bytes);
    let quick = spec.passes(bytes);
    let shown = String::from_utf8_lossy(bytes);
    let clean = full.findings().is_empty();
    assert!(!quick || clean, "{}: the quick check passed a body with findings: {shown}\n{full:?}", spec.name());
    assert_eq!(spec.validate_json(bytes), full, "{}: validate_json differs on {shown}", spec.name());
    assert!(quick || !clean, "{}: the quick check gave up on a clean body: {shown}", spec.name());
    tally.bodies += 1;
    tally.clean += usize::from(clean);
    tally.quick += usize::from(quick);
    tally.gave_up += usize::from(clean && !quick);
    tally.flagged += usize::from(!clean);
}

/// Bodies for one contract: drawn from its shape, then each with white
/// space added (the same verdict) and damaged twice.
fn exercise(spec: &ContractSpec, seed: u64, n: usize, mut also: impl FnMut(&[u8]), tally: &mut Tally) {
    let shape = Shape::of(spec);
    let mut bodies = Bodies { spec, rng: Rng(seed), careful: false };
    for _ in 0..n {
        bodies.careful = bodies.rng.chance(50);
        let body = if bodies.rng.chance(95) { bodies.object(&shape, 0) } else { bodies.any(0) };
        let text = body.text();
        quick_agrees(spec, text.as_bytes(), tally);
        also(text.as_bytes());
        let spaced = text.replace(',', " ,\n\t").replace(':', ": ");
        quick_agrees(spec, spaced.as_bytes(), tally);
        for _ in 0..2 {
            let how = bodies.rng.below(7);
            let at = bodies.rng.below(text.len() + 1);
            let bad = crate::strategies::damaged(text.as_bytes(), how, at);
            quick_agrees(spec, &bad, tally);
            also(&bad);
        }
    }
}

#[test]
fn the_quick_check_and_the_engine_agree_on_random_contracts() {
    let mut rng = Rng(0x5EED_0009);
    let mut tally = Tally::default();
    let (mut loaded, mut refused) = (0, 0);
    for n in 0..400 {
        let doc = contract_doc(&mut rng, n);
        let spec = match ContractSpec::from_slice(doc.to_string().as_bytes(), &format!("random{n}.json")) {
            Ok(spec) => spec,
            Err(_) => {
                refused += 1;
                continue;
            }
        };
        loaded += 1;
        exercise(&spec, rng.next(), 30, |_| {}, &mut tally);
    }
    // The generator reaches every side often enough for the checks to mean something.
    assert!(loaded >= 300, "{loaded} contracts loaded, {refused} refused");
    assert!(tally.clean >= tally.bodies / 10 && tally.flagged >= tally.bodies / 3, "{tally:?}");
    assert!(tally.quick == tally.clean && tally.gave_up == 0, "{tally:?}");
}

/// A generated type and the same contract loaded at run time.
fn generated_agrees<T: Contract>(path: &str, seed: u64, tally: &mut Tally) {
    let spec = ContractSpec::from_path(root().join(path)).expect("contract loads");
    let shown = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    let check = |bytes: &[u8]| {
        assert_eq!(
            T::validate_json(bytes),
            spec.validate_json_full(bytes),
            "{path}: findings differ on {}",
            shown(bytes)
        );
        let (fast, passes) = (T::fast_path(bytes), spec.passes(bytes));
        // The generated check may also give up on a wide object.
        assert!(fast == passes || (passes && has_wide_object(bytes)), "{path}: fast paths differ on {}", shown(bytes));
    };
    let clean = tally.clean;
    exercise(&spec, seed, 600, check, tally);
    // Every contract gets clean bodies, so that its fast path is exercised.
    assert!(tally.clean - clean >= 5, "{path}: {} clean bodies", tally.clean - clean);
}

#[test]
fn generated_validators_agree_with_the_runtime() {
    use crate::generated::{EveryRule, StrictNested, ToolCall10, ToolCall11, ToolCall20, Wide};
    use protocolarc_tests::typed::{CreateMessage, SendMessage, TaskSend};
    let mut tally = Tally::default();
    generated_agrees::<EveryRule>("tests/data/contracts/every_rule_1.0.0.json", 1, &mut tally);
    generated_agrees::<StrictNested>("tests/data/contracts/strict_nested_1.0.0.json", 2, &mut tally);
    generated_agrees::<Wide>("tests/data/contracts/wide_1.0.0.json", 3, &mut tally);
    generated_agrees::<ToolCall10>("contracts/mcp_tool_call_1.0.0.json", 4, &mut tally);
    generated_agrees::<ToolCall11>("contracts/mcp_tool_call_1.1.0.json", 5, &mut tally);
    generated_agrees::<ToolCall20>("contracts/mcp_tool_call_2.0.0.json", 6, &mut tally);
    generated_agrees::<CreateMessage>("contracts/mcp_sampling_create_message_1.0.0.json", 7, &mut tally);
    generated_agrees::<SendMessage>("contracts/a2a_message_send_1.0.0.json", 8, &mut tally);
    generated_agrees::<TaskSend>("contracts/a2a_task_send_1.0.0.json", 9, &mut tally);
    assert!(tally.clean >= tally.bodies / 6 && tally.flagged >= tally.bodies / 3, "{tally:?}");
    assert!(tally.quick >= 3000 && tally.gave_up == 0, "{tally:?}");
}

/// Enum members are judged at load time by the same keyword checks: a
/// member its field's constraints reject is refused with the finding the
/// engine would write, and an accepted member passes the engine.
#[test]
fn enum_members_are_judged_by_the_keyword_checks() {
    let load = |field: Value| {
        let doc = json!({"name": "e", "revision": "1.0.0", "fields": [field]});
        ContractSpec::from_slice(doc.to_string().as_bytes(), "e.json").map_err(|e| e.to_string())
    };
    let cases = [
        (
            json!({"name": "v", "type": "string", "maxLength": 2, "pattern": "^a", "enum": ["abc"]}),
            "enum value 'abc' can never pass: field.maxLength: length 3 is greater than maxLength 2",
        ),
        (
            json!({"name": "v", "type": "string", "pattern": "^a", "enum": ["ab", "b\"c"]}),
            "enum value 'b\"c' can never pass: field.pattern: value 'b\"c' does not match pattern '^a'",
        ),
        (
            json!({"name": "v", "type": "number", "multipleOf": 0.5, "exclusiveMaximum": 2, "enum": [0.5, 2.25]}),
            "enum value 2.25 can never pass: field.exclusiveMaximum: value 2.25 is not less than exclusiveMaximum 2",
        ),
        (
            json!({"name": "v", "type": "integer", "minimum": 5, "enum": [5, 1]}),
            "enum value 1 can never pass: field.minimum: value 1 is less than minimum 5",
        ),
    ];
    for (field, message) in cases {
        let err = load(field).expect_err("refused");
        assert!(err.contains(message), "{err}");
    }
    let spec = load(
        json!({"name": "v", "type": ["string", "null"], "minLength": 1, "pattern": "\u{e9}", "enum": ["\u{e9}", null]}),
    )
    .expect("loads");
    for body in [r#"{"v": "\u00e9"}"#, r#"{"v": "é"}"#, r#"{"v": null}"#] {
        assert!(spec.validate_json_full(body.as_bytes()).findings().is_empty(), "{body}");
        // An escaped string under an enum is decoded as the engine decodes it.
        assert!(spec.passes(body.as_bytes()), "{body}");
    }
}

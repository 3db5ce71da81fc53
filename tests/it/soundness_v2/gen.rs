//! Random schema-form contracts (JSON Schema 2020-12 under `schema`) and the
//! mutations that make their next revision.
//!
//! Schemas are built from a stream of choices (`Choices`): proptest draws the
//! stream and shrinks it (shorter, smaller numbers), and choice 0 is always
//! the simplest option, so a shrunk failure is a small schema.

use serde_json::{json, Map, Value};

/// Property names schemas declare (`type` is the tag key of tagged unions).
pub const KEYS: [&str; 8] = ["id", "name", "kind", "value", "items", "meta", "a", "b"];
/// Keys no schema ever declares: bodies send them to probe closed objects.
pub const STRANGERS: [&str; 2] = ["zz", "x_extra"];
/// Tag values of tagged-union members.
pub const TAGS: [&str; 5] = ["text", "image", "audio", "link", "note"];

/// Asserted formats, each with values it accepts.
pub const FORMATS: [(&str, &[&str]); 8] = [
    ("date-time", &["2025-01-12T15:00:58Z", "2024-02-29T23:59:59+01:00"]),
    ("date", &["2025-01-12", "2024-02-29"]),
    ("uri", &["https://example.com/a", "urn:isbn:0451450523"]),
    ("uri-reference", &["/a/b", "https://example.com"]),
    ("uuid", &["123e4567-e89b-12d3-a456-426614174000"]),
    ("email", &["a@example.com"]),
    ("hostname", &["example.com", "a"]),
    ("ipv4", &["192.168.0.1"]),
];

/// Patterns, each with strings it matches.
pub const PATTERNS: [(&str, &[&str]); 6] = [
    ("^a", &["a", "ab", "abc"]),
    ("^[a-z]+$", &["abc", "b", "x"]),
    ("^[0-9]+$", &["123", "7"]),
    ("b$", &["ab", "b"]),
    // Inside `^[a-z]+$`, and one that implies a length bound.
    ("^[a-c]+$", &["abc", "b"]),
    ("^[a-z]{1,3}$", &["ab", "xyz"]),
];

/// Strings bodies are made of (format and pattern samples come on top).
pub const STRINGS: [&str; 10] = ["", "a", "ab", "b", "abc", "xyz", "123", "not a uri", "2025-13-01T00:00:00Z", "x_1"];

/// The choices a schema is built from; past the end every choice is 0.
pub struct Choices<'a> {
    data: &'a [u32],
    at: usize,
}

impl<'a> Choices<'a> {
    pub fn new(data: &'a [u32]) -> Self {
        Choices { data, at: 0 }
    }

    /// A number below `n` (0 when the stream is spent).
    pub fn below(&mut self, n: u32) -> u32 {
        let v = self.data.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        v % n.max(1)
    }

    /// True once in `n` draws (never when the stream is spent).
    pub fn one_in(&mut self, n: u32) -> bool {
        self.below(n) == n - 1
    }

    pub fn pick<T: Clone>(&mut self, items: &[T]) -> T {
        items[self.below(items.len() as u32) as usize].clone()
    }
}

fn num(v: f64) -> Value {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        json!(v as i64)
    } else {
        json!(v)
    }
}

/// A string schema: bounds, pattern, format, enum or const.
fn string_schema(c: &mut Choices) -> Value {
    let mut m = Map::new();
    m.insert("type".into(), json!("string"));
    match c.below(7) {
        0 => {}
        1 => {
            let (f, _) = c.pick(&FORMATS);
            m.insert("format".into(), json!(f));
        }
        2 => {
            let (p, _) = c.pick(&PATTERNS);
            m.insert("pattern".into(), json!(p));
        }
        3 => {
            let lo = c.below(3);
            m.insert("minLength".into(), json!(lo));
            if c.one_in(2) {
                m.insert("maxLength".into(), json!(lo + 1 + c.below(4)));
            }
        }
        4 => {
            m.insert("maxLength".into(), json!(1 + c.below(5)));
        }
        5 => {
            let n = 1 + c.below(3) as usize;
            let start = c.below(STRINGS.len() as u32) as usize;
            let members: Vec<&str> = (0..n).map(|i| STRINGS[(start + i) % STRINGS.len()]).collect();
            m.insert("enum".into(), json!(members));
        }
        _ => {
            m.insert("const".into(), json!(c.pick(&STRINGS[1..])));
        }
    }
    Value::Object(m)
}

/// A number or integer schema: bounds (inclusive or exclusive), multipleOf,
/// enum or const.
fn number_schema(c: &mut Choices) -> Value {
    let mut m = Map::new();
    let integer = c.one_in(2);
    m.insert("type".into(), json!(if integer { "integer" } else { "number" }));
    match c.below(6) {
        0 => {}
        1 | 2 => {
            // Whole and fractional bounds: on integers, `exclusiveMinimum: 0.5`
            // is `minimum: 1`.
            let lower = c.pick(&[-1.0, 0.0, 1.0, 2.0, 0.5, 1.5]);
            if c.one_in(3) {
                m.insert("exclusiveMinimum".into(), num(lower));
            } else {
                m.insert("minimum".into(), num(lower));
            }
            if c.one_in(2) {
                let half = if c.one_in(3) { 0.5 } else { 0.0 };
                m.insert("maximum".into(), num(4.0 + c.below(8) as f64 + half));
            }
        }
        3 => {
            m.insert("multipleOf".into(), c.pick(&[json!(2), json!(0.5), json!(3), json!(1), json!(0.4), json!(1.5)]));
        }
        4 => {
            m.insert("enum".into(), json!([1, 2, 5]));
        }
        _ => {
            m.insert("const".into(), c.pick(&[json!(0), json!(1), json!(7)]));
        }
    }
    Value::Object(m)
}

/// A schema for any value, `depth` levels of nesting left.
pub fn schema(c: &mut Choices, depth: u32, defs: &[&str]) -> Value {
    let kinds = if depth == 0 { 6 } else { 20 };
    match c.below(kinds) {
        0 | 1 => string_schema(c),
        2 | 3 => number_schema(c),
        4 => json!({"type": "boolean"}),
        5 => match c.below(4) {
            0 => json!({"type": "null"}),
            1 => {
                let mut s = string_schema(c);
                s["type"] = json!(["string", "null"]);
                s
            }
            2 => json!({"enum": ["a", 1, null]}),
            _ => json!({"type": ["integer", "boolean"]}),
        },
        6..=8 => object_schema(c, depth - 1, defs),
        9 | 10 => array_schema(c, depth - 1, defs),
        11 | 12 => tagged_union(c, depth - 1, defs),
        13 => untagged_union(c, depth - 1, defs),
        14 | 15 if !defs.is_empty() => json!({"$ref": format!("#/$defs/{}", c.pick(defs))}),
        14 | 15 => map_schema(c, depth - 1, defs),
        16 => map_schema(c, depth - 1, defs),
        17 => rare(c, depth - 1, defs),
        18 => match c.below(3) {
            0 => json!(true),
            1 => json!({"const": {"v": 1}}),
            _ => json!({}),
        },
        _ => object_schema(c, depth - 1, defs),
    }
}

/// `allOf`, `not`, `if`/`then`/`else`, `false`.
fn rare(c: &mut Choices, depth: u32, defs: &[&str]) -> Value {
    match c.below(4) {
        0 => {
            let mut base = object_schema(c, depth, defs);
            let keys: Vec<String> =
                base["properties"].as_object().map(|p| p.keys().cloned().collect()).unwrap_or_default();
            let need = keys.first().cloned().unwrap_or_else(|| "id".into());
            base.as_object_mut().map(|m| m.remove("required"));
            json!({"allOf": [base, {"required": [need]}]})
        }
        1 => {
            let mut s = schema(c, 0, defs);
            let forbidden = c.pick(&[json!({"const": "b"}), json!({"type": "null"}), json!({"enum": [0, "a"]})]);
            if let Value::Object(m) = &mut s {
                m.insert("not".into(), forbidden);
                s
            } else {
                json!({"not": forbidden})
            }
        }
        2 => {
            let tag = c.pick(&TAGS);
            json!({
                "type": "object",
                "properties": {"kind": {"type": "string"}, "a": {"type": "integer"}, "b": {"type": "string"}},
                "if": {"properties": {"kind": {"const": tag}}, "required": ["kind"]},
                "then": {"required": ["a"]},
                "else": {"required": ["b"]}
            })
        }
        _ => Value::Bool(false),
    }
}

fn distinct_keys(c: &mut Choices, n: usize, pool: &[&'static str]) -> Vec<&'static str> {
    let mut out = Vec::new();
    for _ in 0..n {
        let k = c.pick(pool);
        if !out.contains(&k) {
            out.push(k);
        }
    }
    out
}

/// An object with `properties` and `required`, sometimes closed, sometimes
/// with the object keywords beside them.
pub fn object_schema(c: &mut Choices, depth: u32, defs: &[&str]) -> Value {
    let n = 1 + c.below(4) as usize;
    let keys = distinct_keys(c, n, &KEYS);
    let mut props = Map::new();
    let mut required = Vec::new();
    for k in &keys {
        props.insert(k.to_string(), schema(c, depth, defs));
        if c.one_in(2) {
            required.push(*k);
        }
    }
    let mut m = Map::new();
    m.insert("type".into(), json!("object"));
    m.insert("properties".into(), Value::Object(props));
    if !required.is_empty() {
        m.insert("required".into(), json!(required));
    }
    match c.below(6) {
        1 | 2 => {
            m.insert("additionalProperties".into(), json!(false));
        }
        3 => {
            m.insert("additionalProperties".into(), string_schema(c));
        }
        _ => {}
    }
    match c.below(10) {
        1 => {
            m.insert("propertyNames".into(), c.pick(&[json!({"maxLength": 5}), json!({"pattern": "^[a-z_]+$"})]));
        }
        2 if keys.len() >= 2 => {
            m.insert("dependentRequired".into(), json!({keys[0]: [keys[1]]}));
        }
        3 => {
            m.insert("minProperties".into(), json!(1));
        }
        4 => {
            m.insert("maxProperties".into(), json!(2 + c.below(3)));
        }
        5 => {
            m.insert("patternProperties".into(), json!({"^x_": {"type": "string"}}));
        }
        _ => {}
    }
    Value::Object(m)
}

/// A typed map: `additionalProperties` with a schema, and no properties.
fn map_schema(c: &mut Choices, depth: u32, defs: &[&str]) -> Value {
    let mut m = Map::new();
    m.insert("type".into(), json!("object"));
    m.insert("additionalProperties".into(), schema(c, depth, defs));
    match c.below(5) {
        1 => {
            m.insert("propertyNames".into(), json!({"maxLength": 4}));
        }
        2 => {
            m.insert("maxProperties".into(), json!(3));
        }
        _ => {}
    }
    Value::Object(m)
}

fn array_schema(c: &mut Choices, depth: u32, defs: &[&str]) -> Value {
    let mut m = Map::new();
    m.insert("type".into(), json!("array"));
    match c.below(5) {
        0 | 1 => {
            m.insert("items".into(), schema(c, depth, defs));
        }
        2 => {
            let n = 1 + c.below(2);
            let prefix: Vec<Value> = (0..n).map(|_| schema(c, depth, defs)).collect();
            m.insert("prefixItems".into(), Value::Array(prefix));
            match c.below(3) {
                0 => {}
                1 => {
                    m.insert("items".into(), json!(false));
                }
                _ => {
                    m.insert("items".into(), schema(c, 0, defs));
                }
            }
        }
        3 => {
            m.insert(
                "contains".into(),
                c.pick(&[json!({"const": "x"}), json!({"type": "integer"}), json!({"type": "string", "minLength": 2})]),
            );
            if c.one_in(2) {
                m.insert("minContains".into(), json!(c.below(3)));
            }
            if c.one_in(2) {
                m.insert("maxContains".into(), json!(2 + c.below(2)));
            }
        }
        _ => {
            m.insert("items".into(), schema(c, 0, defs));
        }
    }
    if c.one_in(3) {
        m.insert("minItems".into(), json!(c.below(3)));
    }
    if c.one_in(3) {
        m.insert("maxItems".into(), json!(2 + c.below(4)));
    }
    if c.one_in(4) {
        m.insert("uniqueItems".into(), json!(true));
    }
    Value::Object(m)
}

/// A tagged union member: an object whose required `type` is a constant.
pub fn tagged_member(c: &mut Choices, tag: &str, depth: u32, defs: &[&str]) -> Value {
    let mut member = object_schema(c, depth, defs);
    let m = member.as_object_mut().expect("object");
    let props = m.get_mut("properties").and_then(Value::as_object_mut).expect("properties");
    props.insert("type".into(), json!({"const": tag}));
    let required = m.entry("required").or_insert_with(|| json!([]));
    if let Value::Array(r) = required {
        r.insert(0, json!("type"));
    }
    member
}

fn tagged_union(c: &mut Choices, depth: u32, defs: &[&str]) -> Value {
    let n = 2 + c.below(2) as usize;
    let start = c.below(TAGS.len() as u32) as usize;
    let members: Vec<Value> = (0..n).map(|i| tagged_member(c, TAGS[(start + i) % TAGS.len()], depth, defs)).collect();
    let key = if c.one_in(2) { "anyOf" } else { "oneOf" };
    json!({ key: members })
}

fn untagged_union(c: &mut Choices, depth: u32, defs: &[&str]) -> Value {
    let mut members = vec![string_schema(c)];
    match c.below(4) {
        0 => members.push(number_schema(c)),
        1 => members.push(object_schema(c, depth, defs)),
        2 => members.push(array_schema(c, depth, defs)),
        _ => {
            members.push(json!({"type": "null"}));
            members.push(number_schema(c));
        }
    }
    let key = if c.one_in(3) { "oneOf" } else { "anyOf" };
    json!({ key: members })
}

/// The names `$defs` may hold; `Node` is a recursive tree node.
pub const DEF_NAMES: [&str; 3] = ["Node", "Item", "Label"];

/// A whole `schema` member: a root object, and `$defs` referenced from it.
pub fn document(c: &mut Choices) -> Value {
    let mut defs: Vec<&str> = Vec::new();
    for name in DEF_NAMES {
        if c.one_in(2) {
            defs.push(name);
        }
    }
    let mut root = object_schema(c, 2, &defs);
    let mut table = Map::new();
    // Applied beside an object's `properties` by a `$ref` (`applicator`).
    table.insert(LIMITS.into(), limits());
    if !defs.is_empty() {
        for name in &defs {
            let def = match *name {
                "Node" => json!({
                    "type": "object",
                    "properties": {
                        "value": number_schema(c),
                        "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}
                    },
                    "required": ["value"]
                }),
                "Item" => object_schema(c, 1, &[]),
                _ => string_schema(c),
            };
            table.insert(name.to_string(), def);
        }
        let m = root.as_object_mut().expect("object");
        // Every definition is used at the root too, under its own key.
        let props = m.get_mut("properties").and_then(Value::as_object_mut).expect("properties");
        for name in &defs {
            props.insert(name.to_lowercase(), json!({"$ref": format!("#/$defs/{name}")}));
        }
    }
    let m = root.as_object_mut().expect("object");
    m.insert("$defs".into(), Value::Object(table));
    root
}

/// The definition a `$ref` beside `properties` applies to the same
/// instance: it constrains keys objects declare.
const LIMITS: &str = "Limits";

fn limits() -> Value {
    json!({"properties": {
        "id": {"maximum": 3},
        "name": {"type": "string"},
        "kind": {"enum": [1, 2, "a"]},
        "value": {"multipleOf": 2},
        "a": {"minimum": 1},
        "b": {"maxLength": 2}
    }})
}

/// One step along a schema document.
#[derive(Debug, Clone)]
pub enum Step {
    Key(String),
    Index(usize),
}

/// The paths of every subschema in `s` (`s` itself first).
pub fn subschemas(s: &Value, at: &mut Vec<Step>, out: &mut Vec<Vec<Step>>) {
    out.push(at.clone());
    let Value::Object(m) = s else { return };
    for (k, v) in m {
        match k.as_str() {
            "properties" | "$defs" | "patternProperties" => {
                if let Value::Object(entries) = v {
                    // The fixed definition stays as it is: a `$ref` to it inside it would loop.
                    for (name, sub) in entries.iter().filter(|(name, _)| !(k == "$defs" && *name == LIMITS)) {
                        at.push(Step::Key(k.clone()));
                        at.push(Step::Key(name.clone()));
                        subschemas(sub, at, out);
                        at.truncate(at.len() - 2);
                    }
                }
            }
            "allOf" | "anyOf" | "oneOf" | "prefixItems" => {
                if let Value::Array(items) = v {
                    for (i, sub) in items.iter().enumerate() {
                        at.push(Step::Key(k.clone()));
                        at.push(Step::Index(i));
                        subschemas(sub, at, out);
                        at.truncate(at.len() - 2);
                    }
                }
            }
            "items" | "contains" | "not" | "if" | "then" | "else" | "additionalProperties" | "propertyNames" => {
                at.push(Step::Key(k.clone()));
                subschemas(v, at, out);
                at.pop();
            }
            _ => {}
        }
    }
}

pub fn at_mut<'v>(s: &'v mut Value, path: &[Step]) -> Option<&'v mut Value> {
    let mut cur = s;
    for step in path {
        cur = match step {
            Step::Key(k) => cur.as_object_mut()?.get_mut(k)?,
            Step::Index(i) => cur.as_array_mut()?.get_mut(*i)?,
        };
    }
    Some(cur)
}

/// The mutations a revision is made with, by name (for the statistics).
pub const MUTATIONS: [&str; 21] = [
    "add property",
    "remove property",
    "toggle required",
    "toggle closed",
    "add union member",
    "remove union member",
    "change const",
    "change enum",
    "tighten/relax numeric bound",
    "tighten/relax length bound",
    "tighten/relax items bound",
    "change format",
    "change pattern",
    "change map value",
    "change type",
    "toggle uniqueItems",
    "change contains bounds",
    "change object bounds",
    "toggle items false",
    "add/remove applicator beside properties",
    "regenerate",
];

/// Applies mutation `op` to the schema `s`; false when it does not apply.
pub fn mutate(s: &mut Value, op: usize, c: &mut Choices, defs: &[&str]) -> bool {
    if let Value::Bool(b) = s {
        if op == MUTATIONS.len() - 1 {
            *s = Value::Bool(!*b);
            return true;
        }
        return false;
    }
    let Some(m) = s.as_object_mut() else { return false };
    let prop_keys: Vec<String> =
        m.get("properties").and_then(Value::as_object).map(|p| p.keys().cloned().collect()).unwrap_or_default();
    let pick_prop = |c: &mut Choices| -> Option<String> {
        (!prop_keys.is_empty()).then(|| prop_keys[c.below(prop_keys.len() as u32) as usize].clone())
    };
    match op {
        0 => {
            let Some(Value::Object(props)) = m.get_mut("properties") else { return false };
            let k = c.pick(&KEYS);
            if props.contains_key(k) {
                return false;
            }
            props.insert(k.to_string(), schema(c, 0, defs));
            if c.one_in(3) {
                let r = m.entry("required").or_insert_with(|| json!([]));
                if let Value::Array(r) = r {
                    r.push(json!(k));
                }
            }
            true
        }
        1 => {
            let Some(k) = pick_prop(c) else { return false };
            if let Some(Value::Object(props)) = m.get_mut("properties") {
                props.remove(&k);
            }
            if let Some(Value::Array(r)) = m.get_mut("required") {
                r.retain(|x| x != &json!(k));
            }
            if let Some(Value::Object(d)) = m.get_mut("dependentRequired") {
                d.remove(&k);
                for list in d.values_mut() {
                    if let Value::Array(l) = list {
                        l.retain(|x| x != &json!(k));
                    }
                }
            }
            true
        }
        2 => {
            let Some(k) = pick_prop(c) else { return false };
            let r = m.entry("required").or_insert_with(|| json!([]));
            let Value::Array(r) = r else { return false };
            if let Some(i) = r.iter().position(|x| x == &json!(k)) {
                r.remove(i);
            } else {
                r.push(json!(k));
            }
            true
        }
        3 => {
            if !m.contains_key("properties") {
                return false;
            }
            match m.get("additionalProperties") {
                Some(Value::Bool(false)) => {
                    m.remove("additionalProperties");
                }
                None => {
                    m.insert("additionalProperties".into(), json!(false));
                }
                _ => return false,
            }
            true
        }
        4 | 5 => {
            let key = if m.contains_key("anyOf") { "anyOf" } else { "oneOf" };
            let Some(Value::Array(members)) = m.get_mut(key) else { return false };
            if op == 5 {
                if members.len() < 2 {
                    return false;
                }
                let i = c.below(members.len() as u32) as usize;
                members.remove(i);
                return true;
            }
            let used: Vec<Value> =
                members.iter().filter_map(|mm| mm.pointer("/properties/type/const").cloned()).collect();
            if used.len() == members.len() {
                let Some(tag) = TAGS.iter().find(|t| !used.contains(&json!(t))) else { return false };
                members.push(tagged_member(c, tag, 0, defs));
            } else {
                members.push(schema(c, 0, defs));
            }
            true
        }
        6 => {
            let Some(v) = m.get_mut("const") else { return false };
            *v = match v {
                Value::String(_) => json!(c.pick(&STRINGS[1..])),
                Value::Number(_) => c.pick(&[json!(0), json!(1), json!(2), json!(7)]),
                _ => return false,
            };
            true
        }
        7 => {
            let Some(Value::Array(e)) = m.get_mut("enum") else { return false };
            if c.one_in(2) && e.len() > 1 {
                let i = c.below(e.len() as u32) as usize;
                e.remove(i);
            } else {
                let extra = match e.first() {
                    Some(Value::Number(_)) => c.pick(&[json!(3), json!(4), json!(1.5)]),
                    _ => json!(c.pick(&STRINGS)),
                };
                if e.contains(&extra) {
                    return false;
                }
                e.push(extra);
            }
            true
        }
        8 => bound(m, c, &["minimum", "maximum", "exclusiveMinimum", "multipleOf"], "number"),
        9 => bound(m, c, &["minLength", "maxLength"], "string"),
        10 => bound(m, c, &["minItems", "maxItems"], "array"),
        11 => {
            if !has_type(m, "string") {
                return false;
            }
            match (m.contains_key("format"), c.below(3)) {
                (true, 0) => {
                    m.remove("format");
                }
                _ => {
                    let (f, _) = c.pick(&FORMATS);
                    if m.get("format") == Some(&json!(f)) {
                        return false;
                    }
                    m.insert("format".into(), json!(f));
                }
            }
            true
        }
        12 => {
            if !has_type(m, "string") {
                return false;
            }
            match (m.contains_key("pattern"), c.below(3)) {
                (true, 0) => {
                    m.remove("pattern");
                }
                _ => {
                    let (p, _) = c.pick(&PATTERNS);
                    if m.get("pattern") == Some(&json!(p)) {
                        return false;
                    }
                    m.insert("pattern".into(), json!(p));
                }
            }
            true
        }
        13 => {
            let Some(v @ Value::Object(_)) = m.get_mut("additionalProperties") else { return false };
            let mut inner = v.take();
            let op = c.below(MUTATIONS.len() as u32 - 1) as usize;
            if !mutate(&mut inner, op, c, defs) {
                inner = schema(c, 0, defs);
            }
            *v = inner;
            true
        }
        14 => {
            let Some(t) = m.get_mut("type") else { return false };
            match t.clone() {
                Value::String(name) if name == "integer" => *t = json!("number"),
                Value::String(name) if name == "number" => *t = json!("integer"),
                Value::String(name) if name != "object" && name != "array" && name != "null" => {
                    *t = json!([name, "null"]);
                }
                Value::Array(list) if list.len() > 1 => *t = list[0].clone(),
                _ => return false,
            }
            true
        }
        15 => {
            if !has_type(m, "array") {
                return false;
            }
            if m.remove("uniqueItems").is_none() {
                m.insert("uniqueItems".into(), json!(true));
            }
            true
        }
        16 => {
            if !m.contains_key("contains") {
                return false;
            }
            bound(m, c, &["minContains", "maxContains"], "array")
        }
        17 => {
            if !has_type(m, "object") {
                return false;
            }
            bound(m, c, &["minProperties", "maxProperties"], "object")
        }
        18 => {
            if !m.contains_key("prefixItems") {
                return false;
            }
            match m.get("items") {
                Some(Value::Bool(false)) => {
                    m.remove("items");
                }
                None => {
                    m.insert("items".into(), json!(false));
                }
                _ => return false,
            }
            true
        }
        19 => applicator(m, c, &prop_keys),
        _ => {
            // No reference: a regenerated `$defs` entry must not name itself.
            *s = schema(c, 1, &[]);
            true
        }
    }
}

/// Keywords that apply a schema to the instance beside its own keywords
/// (a `$ref` does when the object has `properties` beside it).
const APPLICATORS: [&str; 9] = ["allOf", "anyOf", "oneOf", "not", "if", "then", "else", "dependentSchemas", "$ref"];

/// Removes the schemas an object applies beside its `properties`, or adds
/// one that constrains a key it declares: `allOf`, `anyOf`, `oneOf`, `not`,
/// `if`/`then`/`else`, `dependentSchemas` or a `$ref` to [`LIMITS`].
fn applicator(m: &mut Map<String, Value>, c: &mut Choices, keys: &[String]) -> bool {
    // A `$ref` alone is the reference itself, not a schema applied beside one.
    let applied: Vec<&str> = APPLICATORS.into_iter().filter(|k| *k != "$ref" || m.contains_key("properties")).collect();
    if applied.iter().any(|k| m.contains_key(*k)) {
        for k in applied {
            m.remove(k);
        }
        return true;
    }
    if keys.is_empty() {
        return false;
    }
    let key = c.pick(keys);
    let other = c.pick(keys);
    let constraint = c.pick(&[
        json!({"maximum": 3}),
        json!({"type": "string"}),
        json!({"minimum": 1}),
        json!({"exclusiveMinimum": 0.5}),
        json!({"multipleOf": 2}),
        json!({"enum": [1, 2, "a"]}),
        json!({"pattern": "^a"}),
        json!({"maxLength": 2}),
    ]);
    let on = json!({"properties": {key.clone(): constraint}});
    match c.below(8) {
        7 => m.insert("$ref".into(), json!(format!("#/$defs/{LIMITS}"))),
        0 => m.insert("allOf".into(), json!([on])),
        1 => m.insert("anyOf".into(), json!([on, {"required": [other]}])),
        2 => m.insert("oneOf".into(), json!([on])),
        3 => m.insert("not".into(), json!({"properties": {key.clone(): constraint}, "required": [key]})),
        4 => {
            m.insert("if".into(), json!({"required": [other]}));
            m.insert("then".into(), on)
        }
        5 => {
            m.insert("if".into(), json!({"required": [other]}));
            m.insert("else".into(), on)
        }
        _ => m.insert("dependentSchemas".into(), json!({other: on})),
    };
    true
}

fn has_type(m: &Map<String, Value>, t: &str) -> bool {
    match m.get("type") {
        Some(Value::String(s)) => s == t || (t == "number" && s == "integer"),
        Some(Value::Array(l)) => l.iter().any(|x| x == t),
        _ => false,
    }
}

/// Tightens, relaxes, adds or removes one of `keywords`.
fn bound(m: &mut Map<String, Value>, c: &mut Choices, keywords: &[&str], ty: &str) -> bool {
    if !has_type(m, ty) {
        return false;
    }
    let k = c.pick(keywords);
    match m.get(k).and_then(Value::as_f64) {
        Some(v) => match c.below(3) {
            0 => {
                m.remove(k);
            }
            1 => {
                m.insert(k.into(), num(v + 1.0));
            }
            _ => {
                if k == "multipleOf" {
                    m.insert(k.into(), num(v * 2.0));
                } else if v >= 1.0 {
                    m.insert(k.into(), num(v - 1.0));
                } else {
                    return false;
                }
            }
        },
        None => {
            let v = match k {
                "multipleOf" => c.pick(&[2.0, 0.5, 3.0]),
                "maximum" | "maxLength" | "maxItems" | "maxProperties" | "maxContains" => 2.0 + c.below(4) as f64,
                _ => c.below(3) as f64,
            };
            m.insert(k.into(), num(v));
        }
    }
    true
}

/// Repairs what a mutation may have left contradictory, everywhere in `s`:
/// a lower bound above its upper bound, a repeated `required` name, bounds
/// with no multiple between them.
pub fn normalize(s: &mut Value) {
    let mut paths = Vec::new();
    subschemas(s, &mut Vec::new(), &mut paths);
    for p in paths {
        let Some(Value::Object(m)) = at_mut(s, &p) else { continue };
        for (lo, hi) in [
            ("minLength", "maxLength"),
            ("minItems", "maxItems"),
            ("minContains", "maxContains"),
            ("minProperties", "maxProperties"),
        ] {
            if let (Some(a), Some(b)) = (m.get(lo).and_then(Value::as_f64), m.get(hi).and_then(Value::as_f64)) {
                if a > b {
                    m.insert(hi.into(), num(a));
                }
            }
        }
        let lower = m.get("minimum").or(m.get("exclusiveMinimum")).and_then(Value::as_f64);
        if let (Some(a), Some(b)) = (lower, m.get("maximum").and_then(Value::as_f64)) {
            let step = m.get("multipleOf").and_then(Value::as_f64).unwrap_or(0.0).max(1.0);
            if b < a + 2.0 * step {
                m.insert("maximum".into(), num(a + 2.0 * step));
            }
        }
        if m.contains_key("minimum") && m.contains_key("exclusiveMinimum") {
            m.remove("exclusiveMinimum");
        }
        if let Some(Value::Array(r)) = m.get_mut("required") {
            let mut seen = Vec::new();
            r.retain(|x| {
                let fresh = !seen.contains(x);
                seen.push(x.clone());
                fresh
            });
            if r.is_empty() {
                m.remove("required");
            }
        }
        if let Some(Value::Array(e)) = m.get_mut("enum") {
            let mut seen = Vec::new();
            e.retain(|x| {
                let fresh = !seen.contains(x);
                seen.push(x.clone());
                fresh
            });
        }
    }
}

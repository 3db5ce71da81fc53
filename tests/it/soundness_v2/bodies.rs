//! Candidate bodies for a schema: instances drawn from the schema (valid
//! more often than not), then damaged a little, so that many bodies are
//! accepted by one revision and a fair number by one revision only.

use std::collections::BTreeSet;

use serde_json::{json, Map, Value};

use super::gen::{FORMATS, KEYS, PATTERNS, STRANGERS, STRINGS, TAGS};

/// xorshift64*: bodies come from a seed proptest draws.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed | 1)
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    pub fn pick<T: Clone>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())].clone()
    }
}

/// How deep instances nest before they take the shortest way out.
const DEEP: usize = 6;

/// The schema a local `$ref` names (`None` when it names nothing).
pub fn resolve<'s>(root: &'s Value, reference: &str) -> Option<&'s Value> {
    root.pointer(reference.strip_prefix('#')?)
}

fn types_of(m: &Map<String, Value>) -> Vec<String> {
    match m.get("type") {
        Some(Value::String(t)) => vec![t.clone()],
        Some(Value::Array(l)) => l.iter().filter_map(|t| t.as_str().map(str::to_string)).collect(),
        _ => {
            let has = |keys: &[&str]| keys.iter().any(|k| m.contains_key(*k));
            if has(&["properties", "additionalProperties", "required", "propertyNames", "minProperties"]) {
                vec!["object".into()]
            } else if has(&["items", "prefixItems", "contains", "minItems"]) {
                vec!["array".into()]
            } else if has(&["minLength", "maxLength", "pattern", "format"]) {
                vec!["string".into()]
            } else if has(&["minimum", "maximum", "multipleOf", "exclusiveMinimum"]) {
                vec!["number".into()]
            } else {
                Vec::new()
            }
        }
    }
}

/// A scalar from the pools bodies are made of.
pub fn scalar(rng: &mut Rng) -> Value {
    match rng.below(8) {
        0 | 1 => json!(rng.pick(&STRINGS)),
        2 => json!(rng.pick(&TAGS)),
        3 => json!(rng.pick(&FORMATS).1[0]),
        4 => rng.pick(&[json!(0), json!(1), json!(2), json!(-1), json!(1.5), json!(7), json!(10), json!(2.0)]),
        5 => json!(rng.below(2) == 0),
        6 => Value::Null,
        _ => rng.pick(&[json!([]), json!({}), json!(["a"]), json!({"v": 1})]),
    }
}

fn number(m: &Map<String, Value>, integer: bool, rng: &mut Rng) -> Value {
    let f = |k: &str| m.get(k).and_then(Value::as_f64);
    let (lo, xlo, hi, step) = (f("minimum"), f("exclusiveMinimum"), f("maximum"), f("multipleOf"));
    let mut candidates: Vec<f64> = vec![0.0, 1.0, 2.0, 5.0, 1.5, -1.0, 10.0, 6.0];
    for b in [lo, xlo, hi, step].into_iter().flatten() {
        candidates.extend([b, b + 1.0, b - 1.0, b * 2.0, b + 0.5]);
    }
    let ok = |v: f64| {
        lo.is_none_or(|b| v >= b)
            && xlo.is_none_or(|b| v > b)
            && hi.is_none_or(|b| v <= b)
            && step.is_none_or(|s| (v / s).fract() == 0.0)
            && (!integer || v.fract() == 0.0)
    };
    let start = rng.below(candidates.len());
    let fits = (0..candidates.len()).map(|i| candidates[(start + i) % candidates.len()]).find(|v| ok(*v));
    let v = if rng.chance(90) { fits.unwrap_or(candidates[start]) } else { candidates[start] };
    if v.fract() == 0.0 {
        json!(v as i64)
    } else {
        json!(v)
    }
}

fn string(m: &Map<String, Value>, rng: &mut Rng) -> Value {
    let mut s: String = if let Some(f) = m.get("format").and_then(Value::as_str) {
        match FORMATS.iter().find(|(n, _)| *n == f) {
            Some((_, samples)) if rng.chance(90) => rng.pick(samples).to_string(),
            _ => rng.pick(&STRINGS).to_string(),
        }
    } else if let Some(p) = m.get("pattern").and_then(Value::as_str) {
        match PATTERNS.iter().find(|(n, _)| *n == p) {
            Some((_, samples)) if rng.chance(90) => rng.pick(samples).to_string(),
            _ => rng.pick(&STRINGS).to_string(),
        }
    } else {
        rng.pick(&STRINGS).to_string()
    };
    let f = |k: &str| m.get(k).and_then(Value::as_u64).map(|n| n as usize);
    if rng.chance(90) {
        if let Some(lo) = f("minLength") {
            while s.chars().count() < lo {
                s.push('a');
            }
        }
        if let Some(hi) = f("maxLength") {
            s = s.chars().take(hi).collect();
        }
    }
    json!(s)
}

/// A value for `schema` (valid more often than not).
pub fn instance(schema: &Value, root: &Value, rng: &mut Rng, depth: usize) -> Value {
    let m = match schema {
        Value::Bool(_) => return scalar(rng),
        Value::Object(m) => m,
        _ => return Value::Null,
    };
    if depth > 2 * DEEP {
        return Value::Null;
    }
    if let Some(target) = m.get("$ref").and_then(Value::as_str).and_then(|r| resolve(root, r)) {
        return instance(target, root, rng, depth + 1);
    }
    if let Some(v) = m.get("const") {
        if rng.chance(92) {
            return v.clone();
        }
    }
    if let Some(Value::Array(e)) = m.get("enum") {
        if !e.is_empty() && rng.chance(92) {
            return rng.pick(e);
        }
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(Value::Array(members)) = m.get(key) {
            if !members.is_empty() {
                let member = rng.pick(members);
                return instance(&member, root, rng, depth + 1);
            }
        }
    }
    if let Some(Value::Array(all)) = m.get("allOf") {
        // The members' object keywords together: properties and required.
        let mut merged = Map::new();
        let mut props = Map::new();
        let mut required: Vec<Value> = Vec::new();
        for member in all {
            if let Value::Object(mm) = member {
                for (k, v) in mm {
                    match k.as_str() {
                        "properties" => props.extend(v.as_object().cloned().unwrap_or_default()),
                        "required" => required.extend(v.as_array().cloned().unwrap_or_default()),
                        _ => {
                            merged.insert(k.clone(), v.clone());
                        }
                    }
                }
            }
        }
        merged.insert("properties".into(), Value::Object(props));
        merged.insert("required".into(), Value::Array(required));
        return instance(&Value::Object(merged), root, rng, depth + 1);
    }
    let mut m = m.clone();
    if let Some(cond) = m.remove("if") {
        // Either branch, with the test made true for `then`.
        let then = m.remove("then");
        let otherwise = m.remove("else");
        let branch = if rng.chance(50) { then.map(|t| (t, true)) } else { otherwise.map(|e| (e, false)) };
        let mut v = instance(&Value::Object(m.clone()), root, rng, depth + 1);
        if let (Some((Value::Object(b), holds)), Value::Object(obj)) = (branch, &mut v) {
            for r in b.get("required").and_then(Value::as_array).into_iter().flatten() {
                let key = r.as_str().unwrap_or("id");
                let sub = m.get("properties").and_then(|p| p.get(key)).cloned().unwrap_or(json!({}));
                obj.insert(key.into(), instance(&sub, root, rng, depth + 1));
            }
            if let Some(Value::Object(props)) = cond.get("properties") {
                for (k, test) in props {
                    if let Some(want) = test.get("const") {
                        if holds {
                            obj.insert(k.clone(), want.clone());
                        } else if obj.get(k) == Some(want) {
                            obj.insert(k.clone(), json!("other"));
                        }
                    }
                }
            }
        }
        return v;
    }
    let types = types_of(&m);
    let ty = if types.is_empty() { None } else { Some(rng.pick(&types)) };
    match ty.as_deref() {
        Some("object") => object(&m, root, rng, depth),
        Some("array") => array(&m, root, rng, depth),
        Some("string") => string(&m, rng),
        Some("integer") => number(&m, true, rng),
        Some("number") => number(&m, false, rng),
        Some("boolean") => json!(rng.chance(50)),
        Some("null") => Value::Null,
        _ => scalar(rng),
    }
}

fn object(m: &Map<String, Value>, root: &Value, rng: &mut Rng, depth: usize) -> Value {
    let mut out = Map::new();
    let required: Vec<&str> =
        m.get("required").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).collect();
    if let Some(Value::Object(props)) = m.get("properties") {
        for (k, sub) in props {
            if required.contains(&k.as_str()) || (depth < DEEP && rng.chance(60)) {
                out.insert(k.clone(), instance(sub, root, rng, depth + 1));
            }
        }
    }
    if let Some(extra @ Value::Object(_)) = m.get("additionalProperties") {
        let n = if depth < DEEP { rng.below(3) } else { 0 };
        for _ in 0..n {
            let key = rng.pick(&["k1", "k2", "key", "long_key"]);
            if !out.contains_key(key) {
                out.insert(key.into(), instance(extra, root, rng, depth + 1));
            }
        }
    }
    if let Some(Value::Object(pp)) = m.get("patternProperties") {
        if let Some(sub) = pp.get("^x_") {
            if rng.chance(40) {
                out.insert("x_1".into(), instance(sub, root, rng, depth + 1));
            }
        }
    }
    if let Some(Value::Object(dr)) = m.get("dependentRequired") {
        for (k, needs) in dr {
            if out.contains_key(k) && rng.chance(90) {
                for need in needs.as_array().into_iter().flatten().filter_map(Value::as_str) {
                    let sub = m.get("properties").and_then(|p| p.get(need)).cloned().unwrap_or(json!({}));
                    if !out.contains_key(need) {
                        out.insert(need.into(), instance(&sub, root, rng, depth + 1));
                    }
                }
            }
        }
    }
    if rng.chance(8) {
        // A key no revision declares: open objects take it, closed ones not.
        out.insert(rng.pick(&STRANGERS).into(), scalar(rng));
    }
    let f = |k: &str| m.get(k).and_then(Value::as_u64).map(|n| n as usize);
    if let Some(hi) = f("maxProperties") {
        while out.len() > hi && rng.chance(90) {
            let optional = out.keys().find(|k| !required.contains(&k.as_str())).cloned();
            match optional {
                Some(k) => out.remove(&k),
                None => break,
            };
        }
    }
    if let Some(lo) = f("minProperties") {
        if out.len() < lo {
            if let Some(Value::Object(props)) = m.get("properties") {
                for (k, sub) in props.iter().take(lo) {
                    out.insert(k.clone(), instance(sub, root, rng, depth + 1));
                }
            }
        }
    }
    Value::Object(out)
}

fn array(m: &Map<String, Value>, root: &Value, rng: &mut Rng, depth: usize) -> Value {
    let mut out = Vec::new();
    if let Some(Value::Array(prefix)) = m.get("prefixItems") {
        for sub in prefix {
            if depth < DEEP || out.is_empty() {
                out.push(instance(sub, root, rng, depth + 1));
            }
        }
    }
    let items = m.get("items");
    let f = |k: &str| m.get(k).and_then(Value::as_u64).map(|n| n as usize);
    let (min, max) = (f("minItems").unwrap_or(0), f("maxItems").unwrap_or(6));
    let extra = if depth < DEEP { rng.below(4) } else { 0 };
    for _ in 0..extra.max(min.saturating_sub(out.len())) {
        match items {
            Some(Value::Bool(false)) => break,
            Some(sub) => out.push(instance(sub, root, rng, depth + 1)),
            None => out.push(scalar(rng)),
        }
    }
    if let Some(contains) = m.get("contains") {
        let n = f("minContains").unwrap_or(1).max(if rng.chance(80) { 1 } else { 0 });
        for _ in 0..n {
            out.push(instance(contains, root, rng, depth + 1));
        }
    }
    if m.get("uniqueItems") == Some(&json!(true)) && rng.chance(90) {
        let mut seen = Vec::new();
        out.retain(|v| {
            let fresh = !seen.contains(v);
            seen.push(v.clone());
            fresh
        });
    }
    if rng.chance(90) {
        out.truncate(max);
    }
    Value::Array(out)
}

/// Small damage to `v` at a random place: a changed scalar, a dropped or an
/// added key, an element more or less, another tag.
pub fn damage(v: &mut Value, rng: &mut Rng) {
    let descend = rng.chance(70);
    match v {
        Value::Object(m) if descend && !m.is_empty() => {
            let key = m.keys().nth(rng.below(m.len())).cloned().expect("key");
            damage(m.get_mut(&key).expect("value"), rng);
        }
        Value::Array(a) if descend && !a.is_empty() => {
            let i = rng.below(a.len());
            damage(&mut a[i], rng);
        }
        Value::Object(m) => match rng.below(4) {
            0 if !m.is_empty() => {
                let key = m.keys().nth(rng.below(m.len())).cloned().expect("key");
                m.remove(&key);
            }
            1 => {
                let key = if rng.chance(50) { rng.pick(&STRANGERS) } else { rng.pick(&KEYS) };
                m.insert(key.into(), scalar(rng));
            }
            2 if m.contains_key("type") => {
                m.insert("type".into(), json!(rng.pick(&TAGS)));
            }
            _ => *v = scalar(rng),
        },
        Value::Array(a) => match rng.below(3) {
            0 if !a.is_empty() => {
                a.pop();
            }
            1 => a.push(a.first().cloned().unwrap_or_else(|| scalar(rng))),
            _ => a.push(scalar(rng)),
        },
        _ => *v = scalar(rng),
    }
}

/// A candidate body drawn from `root`, damaged two times in five.
pub fn body(root: &Value, seed: u64) -> Value {
    let mut rng = Rng::new(seed);
    let mut v = instance(root, root, &mut rng, 0);
    if rng.chance(40) {
        damage(&mut v, &mut rng);
        if rng.chance(30) {
            damage(&mut v, &mut rng);
        }
    }
    v
}

/// Every property name `s` declares or requires anywhere: the keys a new
/// revision may give a meaning to.
pub fn declared_names(s: &Value, out: &mut BTreeSet<String>) {
    match s {
        Value::Object(m) => {
            for (k, v) in m {
                match k.as_str() {
                    "properties" => {
                        out.extend(v.as_object().into_iter().flatten().map(|(name, _)| name.clone()));
                    }
                    "required" => {
                        out.extend(v.as_array().into_iter().flatten().filter_map(Value::as_str).map(str::to_string))
                    }
                    "const" | "enum" => continue,
                    _ => {}
                }
                declared_names(v, out);
            }
        }
        Value::Array(items) => items.iter().for_each(|v| declared_names(v, out)),
        _ => {}
    }
}

/// Whether `s` looks at objects: it names the object type or an object keyword.
fn looks_at_objects(m: &Map<String, Value>) -> bool {
    let keywords =
        ["properties", "additionalProperties", "required", "propertyNames", "minProperties", "maxProperties"];
    match m.get("type") {
        Some(Value::String(t)) => t == "object",
        Some(Value::Array(l)) => l.iter().any(|t| t == "object"),
        _ => keywords.iter().any(|k| m.contains_key(*k)),
    }
}

/// The schemas that apply to `value` in place of `s`: `s` itself, what its
/// `$ref`, `allOf`, `if`/`then`/`else` apply, and its union members (only the
/// member a tagged union's tag picks, when it picks one).
fn applicable<'s>(s: &'s Value, root: &'s Value, value: &Value, depth: usize, out: &mut Vec<&'s Map<String, Value>>) {
    let Value::Object(m) = s else { return };
    if depth > 64 {
        return;
    }
    out.push(m);
    if let Some(target) = m.get("$ref").and_then(Value::as_str).and_then(|r| resolve(root, r)) {
        applicable(target, root, value, depth + 1, out);
    }
    for key in ["allOf", "if", "then", "else"] {
        match m.get(key) {
            Some(Value::Array(all)) => all.iter().for_each(|x| applicable(x, root, value, depth + 1, out)),
            Some(x) => applicable(x, root, value, depth + 1, out),
            None => {}
        }
    }
    for key in ["anyOf", "oneOf"] {
        let Some(Value::Array(members)) = m.get(key) else { continue };
        let tag = value.get("type");
        let picked: Vec<&Value> =
            members.iter().filter(|mm| tag.is_some() && mm.pointer("/properties/type/const") == tag).collect();
        let tagged = members.iter().all(|mm| mm.pointer("/properties/type/const").is_some());
        let chosen: Vec<&Value> = if tagged && picked.len() == 1 { picked } else { members.iter().collect() };
        for member in chosen {
            applicable(member, root, value, depth + 1, out);
        }
    }
}

/// The premise of the request claim: a body "sends no key the old revision
/// leaves undeclared" (SPEC §5: a new revision may give such a key a meaning,
/// `field.added.optional`). Removes from `value`, at every depth, each key
/// that some open object schema of `s` (the old revision) applying there does
/// not declare, when the other revision declares that name somewhere
/// (`reserved`). Keys no revision declares stay, so closing an object is
/// still put to the test. The response claim's premise is the mirror: `s`
/// the new revision, `reserved` the old one's names.
pub fn strip(value: &mut Value, s: &Value, root: &Value, reserved: &BTreeSet<String>, depth: usize) {
    let mut schemas = Vec::new();
    applicable(s, root, value, 0, &mut schemas);
    if depth > 4 * DEEP {
        return;
    }
    match value {
        Value::Object(obj) => {
            let objects: Vec<&Map<String, Value>> = schemas.iter().copied().filter(|m| looks_at_objects(m)).collect();
            obj.retain(|k, _| {
                !reserved.contains(k)
                    || objects.iter().all(|m| {
                        m.get("properties").is_some_and(|p| p.get(k).is_some())
                            || m.contains_key("additionalProperties")
                            || (k.starts_with("x_") && m.contains_key("patternProperties"))
                    })
            });
            for (k, v) in obj.iter_mut() {
                for m in &objects {
                    let sub = m
                        .get("properties")
                        .and_then(|p| p.get(k))
                        .or_else(|| {
                            m.get("patternProperties").and_then(|p| p.get("^x_")).filter(|_| k.starts_with("x_"))
                        })
                        .or_else(|| m.get("additionalProperties"));
                    if let Some(sub) = sub {
                        strip(v, sub, root, reserved, depth + 1);
                    }
                }
            }
        }
        Value::Array(items) => {
            for m in &schemas {
                for (i, v) in items.iter_mut().enumerate() {
                    let prefix = m.get("prefixItems").and_then(|p| p.get(i));
                    if let Some(sub) = prefix.or_else(|| m.get("items")) {
                        strip(v, sub, root, reserved, depth + 1);
                    }
                    if let Some(sub) = m.get("contains") {
                        strip(v, sub, root, reserved, depth + 1);
                    }
                }
            }
        }
        _ => {}
    }
}

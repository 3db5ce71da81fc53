//! A tool's input schema projected into a target's dialect (the artifact
//! the target is handed), and that artifact read back as JSON Schema
//! 2020-12 (what the target keeps). The dialect table says what happens to
//! each keyword; this file only carries out the actions it names.

use protocolarc_core::schema_keywords::{self, name, Draft, Holds};
use serde_json::{json, Map, Value};

use super::dialect::{Action, Dialect, Format};
use crate::contract::schema::push_key;

/// Annotation keywords: dropping one loses no check (a `minor` loss).
/// `default` is not here: the compatibility engine judges it
/// (`field.default.changed`).
pub(crate) const ANNOTATIONS: &[&str] = &[
    name::DESCRIPTION,
    name::TITLE,
    name::EXAMPLES,
    name::DEPRECATED,
    name::READ_ONLY,
    name::WRITE_ONLY,
    name::COMMENT,
];

/// What a keyword's value holds, read from the keyword registry: only the
/// 2020-12 spellings, as a contract's schema has no other.
fn holds(k: &str) -> Holds {
    match schema_keywords::find(k) {
        Some(kw) if kw.draft != Draft::Draft07 => kw.holds,
        _ => Holds::Value,
    }
}

/// The step a field path takes into a keyword's one subschema.
fn step(k: &str) -> &'static str {
    match k {
        name::ITEMS | name::CONTAINS => "[]",
        name::ADDITIONAL_PROPERTIES => "{}",
        _ => "",
    }
}

/// An annotation the target does not carry.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Dropped {
    /// The field path (`<contract>` for the root).
    pub field: String,
    /// The keyword.
    pub keyword: String,
    /// What was lost.
    pub message: String,
}

/// The schema in the target's dialect, with the annotations it lost.
pub(crate) struct Projected {
    /// The target's own form of the schema (Gemini's `nullable`, ...).
    pub native: Value,
    /// Annotations dropped on the way.
    pub dropped: Vec<Dropped>,
}

/// The most subschemas a projection writes: a dialect that writes each
/// `$ref` in place expands a definition per use, and definitions that each
/// use the next twice would double per level (SPEC §15).
pub const MAX_PROJECTED_NODES: usize = 100_000;

/// Projects `schema` (a JSON Schema 2020-12 value) into `dialect`; `Err`
/// names the field where the projection passed [`MAX_PROJECTED_NODES`].
pub(crate) fn project(schema: &Value, dialect: &Dialect) -> Result<Projected, String> {
    let mut p = Projector { dialect, root: schema, dropped: Vec::new(), inlining: Vec::new(), made: 0, over: None };
    let mut native = p.schema(schema, "");
    if let Some(field) = p.over {
        return Err(format!(
            "written in {}'s form (each $ref in place), the schema expands past {MAX_PROJECTED_NODES} subschemas \
             (at {})",
            dialect.title,
            crate::json::text::one_line(&field)
        ));
    }
    root_object(&mut native);
    p.dropped.sort();
    p.dropped.dedup();
    Ok(Projected { native, dropped: p.dropped })
}

/// The root must be an object schema: `type: "object"` where the root says
/// no type or several.
fn root_object(schema: &mut Value) {
    if let Value::Bool(true) = schema {
        *schema = json!({});
    }
    if let Value::Object(m) = schema {
        let is_object = matches!(m.get(name::TYPE), Some(Value::String(t)) if t == "object");
        if !is_object {
            m.insert(name::TYPE.into(), Value::String("object".into()));
        }
    }
}

struct Projector<'a> {
    dialect: &'a Dialect,
    root: &'a Value,
    dropped: Vec<Dropped>,
    /// The references being written in place, to cut recursion.
    inlining: Vec<String>,
    /// Subschemas written so far.
    made: usize,
    /// Where the projection passed its budget.
    over: Option<String>,
}

fn shown(field: &str) -> String {
    if field.is_empty() {
        super::TOOL_FIELD.to_string()
    } else {
        field.to_string()
    }
}

impl Projector<'_> {
    fn full_json_schema(&self) -> bool {
        self.dialect.others.action == Action::Keep
    }

    fn schema(&mut self, s: &Value, field: &str) -> Value {
        self.made += 1;
        if self.made > MAX_PROJECTED_NODES || self.over.is_some() {
            self.over.get_or_insert_with(|| shown(field));
            return json!({});
        }
        let m = match s {
            Value::Object(m) => m,
            Value::Bool(b) if self.full_json_schema() => return Value::Bool(*b),
            // A dialect without boolean schemas: `true` is the empty schema;
            // `false` has no equal and accepts everything once written `{}`.
            Value::Bool(_) => return json!({}),
            other => return other.clone(),
        };
        if let (Some(Value::String(r)), Action::Inline) = (m.get(name::REF), self.dialect.action(name::REF)) {
            return self.inline(r, m, field);
        }
        let mut out = Map::new();
        for (k, v) in m {
            self.keyword(k, v, field, &mut out);
        }
        self.whole_object(m, &mut out);
        Value::Object(out)
    }

    fn keyword(&mut self, k: &str, v: &Value, field: &str, out: &mut Map<String, Value>) {
        match self.dialect.action(k).clone() {
            Action::Keep => {
                out.insert(k.to_string(), self.sub(k, v, field));
            }
            Action::Drop => self.drop_annotation(k, v, field),
            Action::Rename(to) => {
                if out.contains_key(&to) || self.dialect.action(&to) != &Action::Keep {
                    return;
                }
                out.insert(to, self.sub(k, v, field));
            }
            Action::FormatValues(values) => {
                if v.as_str().is_some_and(|f| values.iter().any(|x| x == f)) {
                    out.insert(k.to_string(), v.clone());
                }
            }
            Action::EnumStrings => {
                if v.as_array().is_some_and(|a| a.iter().all(crate::written::is_text)) {
                    out.insert(k.to_string(), v.clone());
                }
            }
            Action::ConstAsEnum => {
                let as_enum = Value::Array(vec![v.clone()]);
                match self.dialect.action(name::ENUM) {
                    Action::Keep => {
                        out.insert(name::ENUM.into(), as_enum);
                    }
                    Action::EnumStrings if crate::written::is_text(v) => {
                        out.insert(name::ENUM.into(), as_enum);
                    }
                    _ => {}
                }
            }
            Action::Nullable => nullable_type(v, out),
            Action::FirstExample => {
                if let Some(first) = v.as_array().and_then(|a| a.first()) {
                    out.insert("example".into(), first.clone());
                    if v.as_array().is_some_and(|a| a.len() > 1) {
                        self.dropped.push(Dropped {
                            field: shown(field),
                            keyword: k.to_string(),
                            message: format!(
                                "examples beyond the first dropped ({} of them)",
                                v.as_array().map_or(0, |a| a.len() - 1)
                            ),
                        });
                    }
                }
            }
            // The whole-object step writes `additionalProperties: false`.
            Action::Close => {}
            // The whole-object step lists every property where there are
            // properties; elsewhere `required` stands as written.
            Action::RequireAllNullable => {
                out.insert(k.to_string(), v.clone());
            }
            // `$ref` is inlined before the keywords are read; a row naming
            // another keyword `inline` carries it as written.
            Action::Inline => {
                out.insert(k.to_string(), v.clone());
            }
        }
    }

    fn drop_annotation(&mut self, k: &str, v: &Value, field: &str) {
        if ANNOTATIONS.contains(&k) {
            let what = match v {
                Value::String(s) if crate::written::is_text(v) => {
                    format!("{k} dropped: {}", crate::json::text::quote(s, 60))
                }
                _ => format!("{k} dropped"),
            };
            self.dropped.push(Dropped { field: shown(field), keyword: k.to_string(), message: what });
        }
    }

    /// A keyword's value, its subschemas projected.
    fn sub(&mut self, k: &str, v: &Value, field: &str) -> Value {
        if holds(k) == Holds::Schema {
            return self.schema(v, &format!("{field}{}", step(k)));
        }
        if holds(k) == Holds::SchemaList {
            if let Value::Array(items) = v {
                return Value::Array(items.iter().map(|s| self.schema(s, field)).collect());
            }
        }
        if holds(k) == Holds::SchemaMap {
            if let Value::Object(m) = v {
                let mut out = Map::new();
                for (key, s) in m {
                    let path = match k {
                        name::PROPERTIES => {
                            let mut p = field.to_string();
                            push_key(&mut p, key);
                            p
                        }
                        name::DEFS => format!("$defs/{key}"),
                        _ => format!("{field}{{}}"),
                    };
                    out.insert(key.clone(), self.schema(s, &path));
                }
                return Value::Object(out);
            }
        }
        v.clone()
    }

    /// The actions that apply to every object schema, named or not.
    fn whole_object(&self, original: &Map<String, Value>, out: &mut Map<String, Value>) {
        let is_object = original.contains_key(name::PROPERTIES)
            || original.contains_key(name::ADDITIONAL_PROPERTIES)
            || match original.get(name::TYPE) {
                Some(Value::String(t)) => t == "object",
                Some(Value::Array(ts)) => ts.iter().any(|t| t == "object"),
                _ => false,
            };
        if !is_object {
            return;
        }
        if self.dialect.has(&Action::Close) {
            out.insert(name::ADDITIONAL_PROPERTIES.into(), Value::Bool(false));
        }
        if self.dialect.has(&Action::RequireAllNullable) {
            let required: Vec<String> = original
                .get(name::REQUIRED)
                .and_then(Value::as_array)
                .map(|a| a.iter().filter_map(|v| v.as_str().map(str::to_string)).collect())
                .unwrap_or_default();
            if let Some(Value::Object(props)) = out.get_mut(name::PROPERTIES) {
                let mut all = Vec::new();
                for (key, s) in props.iter_mut() {
                    if !required.contains(key) {
                        *s = or_null(std::mem::take(s));
                    }
                    all.push(Value::String(key.clone()));
                }
                out.insert(name::REQUIRED.into(), Value::Array(all));
            }
        }
    }

    /// `$ref` written in place: its definition projected, beside the
    /// keywords next to it. A reference already being written (recursion)
    /// becomes the empty schema.
    fn inline(&mut self, reference: &str, m: &Map<String, Value>, field: &str) -> Value {
        let target = reference.strip_prefix('#').and_then(|ptr| self.root.pointer(ptr));
        let mut out = match target {
            Some(t) if !self.inlining.iter().any(|r| r == reference) => {
                self.inlining.push(reference.to_string());
                let v = self.schema(t, field);
                self.inlining.pop();
                v
            }
            _ => json!({}),
        };
        let siblings: Map<String, Value> =
            m.iter().filter(|(k, _)| *k != name::REF).map(|(k, v)| (k.clone(), v.clone())).collect();
        if siblings.is_empty() {
            return out;
        }
        let beside = self.schema(&Value::Object(siblings), field);
        match (&mut out, beside) {
            (Value::Object(o), Value::Object(b))
                if b.keys().all(|k| !o.contains_key(k) || ANNOTATIONS.contains(&k.as_str())) =>
            {
                for (k, v) in b {
                    o.insert(k, v);
                }
                out
            }
            (_, beside) => {
                let mut both = Map::new();
                both.insert(name::ALL_OF.into(), Value::Array(vec![out, beside]));
                self.schema(&Value::Object(both), field)
            }
        }
    }
}

/// `type` in a dialect of one type name: `["T", "null"]` is `T` with
/// `nullable: true`; several names are an `anyOf` of one each.
fn nullable_type(v: &Value, out: &mut Map<String, Value>) {
    let Value::Array(names) = v else {
        out.insert(name::TYPE.into(), v.clone());
        return;
    };
    let null = names.iter().any(|n| n == "null");
    let rest: Vec<&Value> = names.iter().filter(|n| *n != "null").collect();
    match rest.as_slice() {
        [] => {
            out.insert(name::TYPE.into(), Value::String("null".into()));
        }
        [one] => {
            out.insert(name::TYPE.into(), (*one).clone());
        }
        many => {
            if !out.contains_key(name::ANY_OF) {
                out.insert(
                    name::ANY_OF.into(),
                    Value::Array(many.iter().map(|t| json!({ (name::TYPE): t })).collect()),
                );
            }
        }
    }
    if null && !rest.is_empty() {
        out.insert("nullable".into(), Value::Bool(true));
    }
}

/// A schema that also accepts `null` (an optional field made required).
fn or_null(s: Value) -> Value {
    let Value::Object(mut m) = s else { return s };
    if m.is_empty() {
        return Value::Object(m);
    }
    let typed = match m.get_mut(name::TYPE) {
        Some(Value::String(t)) if t != "null" => {
            let t = std::mem::take(t);
            m.insert(name::TYPE.into(), json!([t, "null"]));
            true
        }
        Some(Value::Array(ts)) => {
            if !ts.iter().any(|t| t == "null") {
                ts.push(Value::String("null".into()));
            }
            true
        }
        _ => false,
    };
    if let Some(Value::Array(values)) = m.get_mut(name::ENUM) {
        if !values.contains(&Value::Null) {
            values.push(Value::Null);
        }
    }
    if typed && !m.keys().any(|k| holds(k) == Holds::SchemaList || k == name::REF || k == name::NOT) {
        return Value::Object(m);
    }
    // A bare union gains a `null` member.
    if !typed && m.len() == 1 {
        if let Some(Value::Array(members)) = m.get_mut(name::ANY_OF) {
            members.push(json!({ (name::TYPE): "null" }));
            return Value::Object(m);
        }
    }
    json!({ (name::ANY_OF): [Value::Object(m), { (name::TYPE): "null" }] })
}

/// The target's artifact read back as JSON Schema 2020-12: Gemini's
/// `nullable` and `example` written the standard way.
pub(crate) fn reimport(native: &Value, format: Format) -> Value {
    match format {
        Format::Gemini => standard(native),
        _ => native.clone(),
    }
}

fn standard(s: &Value) -> Value {
    let Value::Object(m) = s else { return s.clone() };
    let mut out = Map::new();
    for (k, v) in m {
        let v = match holds(k) {
            Holds::Schema => standard(v),
            Holds::SchemaList => v.as_array().map_or(v.clone(), |a| Value::Array(a.iter().map(standard).collect())),
            Holds::SchemaMap => v
                .as_object()
                .map_or(v.clone(), |o| Value::Object(o.iter().map(|(k, s)| (k.clone(), standard(s))).collect())),
            Holds::Value => v.clone(),
        };
        match k.as_str() {
            "nullable" => {}
            "example" => {
                out.insert(name::EXAMPLES.into(), Value::Array(vec![v]));
            }
            _ => {
                out.insert(k.clone(), v);
            }
        }
    }
    if m.get("nullable") == Some(&Value::Bool(true)) {
        return or_null(Value::Object(out));
    }
    Value::Object(out)
}

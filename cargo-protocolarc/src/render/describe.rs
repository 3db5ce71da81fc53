//! `describe`: a contract as a table of the positions its values can take,
//! aligned text or JSON, both read from the schema graph the contract
//! compiles to ([`ContractSpec::graph`]).
//!
//! A fields-form contract is shown as the nodes of its lowered graph that
//! its fields declare ([`SchemaNode::field_required`]), in contract order.
//!
//! A schema-form contract (SPEC §10) is shown as rows, one per position a
//! finding can name, depth-first from the root in document order:
//!
//! - A row's path is written as findings write it (`content[]`,
//!   `_meta{}` for the values of a map, `["key"]` for a key that is not
//!   plain); `{/regex/}` stands for the values of `patternProperties`, and
//!   `[N]` for a `prefixItems` element (`[N..]` for the elements after them).
//! - A `$ref` is followed in place (`-> Name`) and its target's rows follow,
//!   at every path that uses it; a reference to a schema being expanded on
//!   the way to this row is `-> Name (recursive)` and is not expanded again.
//! - The members of a union, `allOf`, `not`, `if`/`then`/`else`,
//!   `propertyNames`, `dependentSchemas` and `contains` are applied to the
//!   same value: each is a row at the same path, indented one level, with
//!   what picks it in parentheses (`content[] (type 'text')`, `resource
//!   (any of #2)`), and its own rows indented under it.
//!
//! The text table and the JSON document are made from the same rows.

use protocolarc_core::schema_keywords::name;
use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::value::RawValue;

use protocolarc::contract::schema::{push_key, Schema, SchemaLiteral, SchemaNode};
use protocolarc::contract::{Constraints, ContractSpec, JsonType, TypeSet};

use super::one_line;

/// `Err` when the description of `c` would pass its row budget (100,000
/// rows, or eight per subschema when that is more: a schema whose
/// definitions are used many times over), naming where it stops. A fields
/// form's graph is a tree, one row per node at most: always within.
pub fn within_budget(c: &ContractSpec) -> Result<(), String> {
    let Some(schema) = c.schema() else { return Ok(()) };
    match walk(schema).over {
        None => Ok(()),
        Some(at) => Err(format!(
            "{}: the description expands past {} rows (at {}): each use of a definition is written out where it is used",
            c.shown_id(),
            max_rows(schema),
            one_line(&at)
        )),
    }
}

/// The table as aligned text: a fields-form contract's fields (each with
/// its `doc` on the line below), a schema-form contract's paths.
pub fn text(c: &ContractSpec) -> String {
    let mut out = match c.title() {
        Some(title) => format!("{}: {}\n", c.id(), one_line(title)),
        None => format!("{}\n", c.id()),
    };
    let plural = |n: usize| if n == 1 { "" } else { "s" };
    let (summary, header, cells, docs): (_, _, Vec<[String; 4]>, _) = match c.schema() {
        Some(schema) => {
            let rows = rows(schema);
            let summary = format!(", direction: {}, schema: {} row{}", c.direction(), rows.len(), plural(rows.len()));
            let cells = rows
                .iter()
                .map(|r| [r.path_cell(), r.type_label(), r.required_label().to_string(), r.keywords.join("; ")])
                .collect();
            (summary, ["PATH", "TYPE", "REQUIRED", "KEYWORDS"], cells, Vec::new())
        }
        None => {
            let fields = fields(c);
            let closed = if c.is_closed() { ", closed: true" } else { "" };
            let summary = format!("{closed}, {} field{}", fields.len(), plural(fields.len()));
            let docs = fields.iter().map(|(_, n)| n.description()).collect();
            (summary, ["FIELD", "TYPE", "REQUIRED", "CONSTRAINTS"], fields.iter().map(field_cells).collect(), docs)
        }
    };
    out.push_str(&format!("kind: {}, strict: {}{summary}\n", one_line(c.kind().unwrap_or("-")), c.is_strict()));
    if let Some(doc) = c.doc() {
        out.push_str(&format!("{}\n", one_line(doc)));
    }
    out.push('\n');
    table(&cells, header, &docs, &mut out);
    out
}

/// Rows as an aligned table: `header` then each row, and below it the
/// row's line of `docs`, if any; the last column unpadded.
fn table(rows: &[[String; 4]], header: [&str; 4], docs: &[Option<&str>], out: &mut String) {
    let header = header.map(String::from);
    let mut width = [0usize; 3];
    for row in std::iter::once(&header).chain(rows) {
        for (w, cell) in width.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let line = |row: &[String; 4]| {
        let mut s = String::from("  ");
        for (i, w) in width.iter().enumerate() {
            s.push_str(&row[i]);
            s.push_str(&" ".repeat(w - row[i].chars().count() + 2));
        }
        s.push_str(&row[3]);
        s.trim_end().to_string() + "\n"
    };
    out.push_str(&line(&header));
    for (i, row) in rows.iter().enumerate() {
        out.push_str(&line(row));
        if let Some(doc) = docs.get(i).copied().flatten() {
            out.push_str(&format!("      {}\n", one_line(doc)));
        }
    }
}

/// The table as pretty JSON (one document, trailing newline).
pub fn json(c: &ContractSpec) -> String {
    serde_json::to_string_pretty(&super::versioned(json_doc(c))).unwrap_or_default() + "\n"
}

#[derive(Serialize)]
struct JsonContracts<'a> {
    contracts: Vec<JsonContract<'a>>,
}

/// Several contracts' tables as one pretty JSON object,
/// `{"format_version": 1, "contracts": [...]}`, whatever their number.
pub fn json_many<'a>(contracts: impl IntoIterator<Item = &'a ContractSpec>) -> String {
    let doc = JsonContracts { contracts: contracts.into_iter().map(json_doc).collect() };
    serde_json::to_string_pretty(&super::versioned(doc)).unwrap_or_default() + "\n"
}

#[derive(Serialize)]
struct JsonContract<'a> {
    name: &'a str,
    revision: String,
    kind: Option<&'a str>,
    title: Option<&'a str>,
    doc: Option<&'a str>,
    strict: bool,
    /// Contract-level `closed` (written only when true).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    closed: bool,
    /// Schema form only (kept out of the fields form's document).
    #[serde(skip_serializing_if = "Option::is_none")]
    direction: Option<&'static str>,
    /// Fields form only (an empty list in the schema form).
    fields: Vec<JsonField<'a>>,
    /// Schema form only: the path table's rows.
    #[serde(skip_serializing_if = "Option::is_none")]
    paths: Option<Vec<JsonPath<'a>>>,
}

/// One declared field of a fields-form contract.
#[derive(Serialize)]
struct JsonField<'a> {
    name: String,
    types: Vec<&'static str>,
    required: bool,
    /// The `enum`, or the `const` as its one member.
    r#enum: Option<Vec<Box<RawValue>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    r#const: Option<Box<RawValue>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    format: Option<&'a str>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    closed: bool,
    /// Sorted by keyword, whatever serde_json's features.
    constraints: BTreeMap<&'static str, Box<RawValue>>,
    doc: Option<&'a str>,
    line: usize,
}

/// One row of a schema-form contract's path table.
#[derive(Serialize)]
struct JsonPath<'a> {
    path: String,
    /// What applies this row's schema to the value (`type 'text'`,
    /// `any of #2`); `null` for the value's own schema.
    member: Option<String>,
    /// Union-member nesting (the text's indentation).
    depth: usize,
    types: Vec<&'static str>,
    /// `true`/`false` for an object property, `null` elsewhere.
    required: Option<bool>,
    /// The first `$ref` followed, by name.
    #[serde(rename = "ref")]
    reference: Option<String>,
    recursive: bool,
    /// Sorted by keyword.
    keywords: BTreeMap<&'static str, Box<RawValue>>,
    applies: Vec<Applies>,
    description: Option<&'a str>,
}

fn json_doc(c: &ContractSpec) -> JsonContract<'_> {
    let schema = c.schema();
    JsonContract {
        name: c.name(),
        revision: c.revision().to_string(),
        kind: c.kind(),
        title: c.title(),
        doc: c.doc(),
        strict: c.is_strict(),
        closed: c.is_closed(),
        direction: schema.map(|_| c.direction().as_str()),
        fields: if schema.is_some() { Vec::new() } else { fields(c).into_iter().map(field_json).collect() },
        paths: schema.map(|s| rows(s).into_iter().map(Row::json).collect()),
    }
}

/// The nodes a fields-form contract's fields declare, with their paths, in
/// contract order.
fn fields(c: &ContractSpec) -> Vec<(String, SchemaNode<'_>)> {
    let mut found = Vec::new();
    declared(c.graph().root(), &mut String::new(), &mut found);
    // The graph holds paths as a tree; fields are listed as declared.
    found.sort_by_key(|(_, n)| n.offset());
    found
}

/// The declared nodes at and below `node`, depth-first: a lowered fields
/// form holds `properties`, array elements and a map's values, nothing else.
fn declared<'s>(node: SchemaNode<'s>, path: &mut String, out: &mut Vec<(String, SchemaNode<'s>)>) {
    if node.field_required().is_some() {
        out.push((path.clone(), node));
    }
    let len = path.len();
    let values = node.additional_properties().filter(|_| !node.is_closed());
    let steps = node.properties().map(|(k, n)| (Some(k), "", n));
    for (key, step, sub) in steps.chain(node.items().map(|n| (None, "[]", n))).chain(values.map(|n| (None, "{}", n))) {
        match key {
            Some(k) => push_key(path, k),
            None => path.push_str(step),
        }
        declared(sub, path, out);
        path.truncate(len);
    }
}

/// FIELD, TYPE, REQUIRED and CONSTRAINTS.
fn field_cells((path, n): &(String, SchemaNode<'_>)) -> [String; 4] {
    let mut rules = Vec::new();
    match (n.const_value(), n.enum_values()) {
        (Some(c), _) => rules.push(format!("const={}", literal_text(c))),
        (None, Some(values)) => rules.push(format!("enum={}", enum_text(&values))),
        (None, None) => {}
    }
    if let Some(format) = n.field_format() {
        rules.push(format!("format={}", one_line(format)));
    }
    if n.is_closed() {
        rules.push("closed".into());
    }
    rules.extend(n.describe_constraints());
    let required = if n.field_required() == Some(true) { name::REQUIRED } else { "optional" };
    [path.clone(), n.types().unwrap_or(TypeSet::ANY).label(), required.into(), rules.join(" ")]
}

fn field_json((name, n): (String, SchemaNode<'_>)) -> JsonField<'_> {
    let types = n.types().unwrap_or(TypeSet::ANY);
    let list = |values: Vec<SchemaLiteral<'_>>| values.into_iter().map(|v| raw(literal_json(v))).collect();
    JsonField {
        name,
        types: if types.is_any() { vec!["any"] } else { types.iter().map(JsonType::name).collect() },
        required: n.field_required() == Some(true),
        r#enum: n.const_value().map(|c| vec![c]).or_else(|| n.enum_values()).map(list),
        r#const: n.const_value().map(|c| raw(literal_json(c))),
        format: n.field_format(),
        closed: n.is_closed(),
        constraints: constraints_json(n.constraints()),
        doc: n.description(),
        line: n.field_line().unwrap_or(0),
    }
}

/// JSON text kept exactly: numbers as written in the contract (`1e-400`
/// stays `1e-400`), strings and literals as serde_json writes them.
fn raw(text: String) -> Box<RawValue> {
    RawValue::from_string(text).unwrap_or_else(|_| RawValue::from_string("null".into()).expect("null is JSON"))
}

fn constraints_json(c: &Constraints) -> BTreeMap<&'static str, Box<RawValue>> {
    c.keywords().into_iter().map(|(k, v)| (k, raw(v))).collect()
}

/// How deep in-place applicators are followed to find a union's types: the
/// compiler refuses in-place cycles, so this only bounds crafted chains.
const MAX_CHAIN: usize = 64;

/// One row of the table.
struct Row<'s> {
    /// Member nesting: the text indents the path two spaces per level (a
    /// member's row is at its union's level, the member's rows one deeper).
    depth: usize,
    /// The path as findings write it.
    path: String,
    /// What applies this row's schema to the value at `path` (`type
    /// 'text'`, `any of #2`, `not`); `None` for the value's own schema.
    member: Option<String>,
    /// The types the value may have (`None`: any; empty: none at all).
    types: Option<TypeSet>,
    /// `false` schema: no value is valid.
    never: bool,
    /// `Some(required)` for an object property; `None` elsewhere.
    required: Option<bool>,
    /// The `$defs` (or other) names the `$ref`s of the row lead through.
    refs: Vec<String>,
    /// Whether the last reference is to a schema already being expanded.
    recursive: bool,
    /// Keyword texts for the table, in a fixed order.
    keywords: Vec<String>,
    /// The same keywords as JSON, by name.
    json: BTreeMap<&'static str, Box<RawValue>>,
    /// Union, `allOf`, `not` and `if` summaries.
    applies: Vec<Applies>,
    /// The first `description` met (own, then a reference's).
    description: Option<&'s str>,
}

/// An applicator of a row, listed with its members.
#[derive(Serialize)]
struct Applies {
    keyword: &'static str,
    tag: Option<String>,
    members: Vec<Member>,
}

#[derive(Serialize)]
struct Member {
    #[serde(skip_serializing_if = "Option::is_none")]
    tag: Option<Box<RawValue>>,
    /// Its name, title, constant, enum or types; `null` when it has none.
    label: Option<String>,
}

/// The fewest rows a description may hold; a larger schema may hold eight
/// per subschema. Each use of a definition is written out where it is used,
/// and definitions that each use the next twice would double per level
/// (SPEC §15).
const MIN_ROWS: usize = 100_000;

/// The most rows the description of `schema` holds.
fn max_rows(schema: &Schema) -> usize {
    MIN_ROWS.max(schema.node_count().saturating_mul(8))
}

/// Every row of `schema`, in output order (the first [`max_rows`]).
fn rows(schema: &Schema) -> Vec<Row<'_>> {
    walk(schema).rows
}

fn walk(schema: &Schema) -> Walker<'_> {
    let mut w = Walker { rows: Vec::new(), stack: Vec::new(), over: None, max: max_rows(schema) };
    w.site(schema.root(), String::new(), None, 0, None);
    w
}

/// The path below `path`.
fn child(path: &str, step: impl FnOnce(&mut String)) -> String {
    let mut out = path.to_string();
    step(&mut out);
    out
}

/// A path as a row writes it: the root's empty path is `<data>` (a key
/// spelled `<data>` stays a key: its rows are below it).
fn shown(path: &str) -> String {
    if path.is_empty() { protocolarc::DATA_FIELD } else { path }.to_string()
}

fn json_string(s: &str) -> Box<RawValue> {
    raw(serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into()))
}

/// How a `$ref` names its target.
fn ref_name(target: SchemaNode<'_>) -> String {
    match (target.def_name(), target.is_root(), target.label()) {
        (Some(name), _, _) => name.to_string(),
        (None, true, _) => "#".to_string(),
        (None, false, Some(label)) => label.to_string(),
        (None, false, None) => "(inline schema)".to_string(),
    }
}

/// The types a value at `node` may have, looking through `$ref`s and
/// unions when the node itself has no `type`; `None` for any type.
fn effective_types(node: SchemaNode<'_>, budget: usize) -> Option<TypeSet> {
    let mut steps = TYPE_STEPS;
    types_within(node, budget, &mut steps)
}

/// The most nodes one [`effective_types`] reads: unions of references to
/// unions would otherwise be read once per route.
const TYPE_STEPS: usize = 1024;

fn types_within(node: SchemaNode<'_>, budget: usize, steps: &mut usize) -> Option<TypeSet> {
    if *steps == 0 {
        return None;
    }
    *steps -= 1;
    if node.is_false() {
        return Some(TypeSet::EMPTY);
    }
    if let Some(t) = node.types() {
        return Some(t);
    }
    if let Some(c) = node.const_value() {
        return Some(TypeSet::of(literal_type(c.canonical_json())));
    }
    if let Some(values) = node.enum_values() {
        return Some(values.iter().fold(TypeSet::EMPTY, |t, v| t.with(literal_type(v.canonical_json()))));
    }
    if budget == 0 {
        return None;
    }
    if let Some(r) = node.reference() {
        if let Some(t) = types_within(r, budget - 1, steps) {
            return Some(t);
        }
    }
    for union in [node.any_of(), node.one_of()].into_iter().flatten() {
        let mut all = TypeSet::EMPTY;
        let mut known = true;
        for m in union.members() {
            match types_within(m, budget - 1, steps) {
                Some(t) => all = all.union(t),
                None => known = false,
            }
        }
        if known {
            return Some(all);
        }
    }
    node.all_of().find_map(|m| types_within(m, budget - 1, steps))
}

/// The type of a literal from its canonical JSON: `integer` for a number
/// with no fractional part that a JSON writer spells plainly (at most 21
/// digits: `1e30` is a `number`).
fn literal_type(canonical: &str) -> JsonType {
    match canonical.as_bytes().first() {
        Some(b'"') => JsonType::String,
        Some(b't' | b'f') => JsonType::Boolean,
        Some(b'n') => JsonType::Null,
        Some(b'{') => JsonType::Object,
        Some(b'[') => JsonType::Array,
        _ if is_integer(canonical) => JsonType::Integer,
        _ => JsonType::Number,
    }
}

/// Whether a number in the core's canonical spelling (`d.ddd x 10^sci`
/// written `dddd` `e` `sci`: `125e2` is 125, `15e0` is 1.5) has its point
/// at or after its last digit, within 21 digits.
fn is_integer(canonical: &str) -> bool {
    let Some((mantissa, sci)) = canonical.split_once('e') else { return !canonical.contains('.') };
    let len = mantissa.trim_start_matches('-').len() as i64;
    sci.parse::<i64>().is_ok_and(|sci| (len..=21).contains(&(sci + 1)))
}

/// A literal as JSON text, numbers as the contract writes them (never
/// read back from the canonical equality key).
fn literal_json(l: SchemaLiteral<'_>) -> String {
    match l.as_str() {
        Some(s) => serde_json::to_string(s).unwrap_or_default(),
        None => l.display(),
    }
}

/// `{'a', 'b'}`, as findings list an enum.
fn enum_text(values: &[SchemaLiteral<'_>]) -> String {
    let inner: Vec<String> = values.iter().map(|v| literal_text(*v)).collect();
    format!("{{{}}}", inner.join(", "))
}

/// How a row shows a literal: a string quoted as findings quote it, any
/// other value as plain JSON on one line.
fn literal_text(l: SchemaLiteral<'_>) -> String {
    match l.as_str() {
        Some(_) => l.display(),
        None => one_line(&l.display()).into_owned(),
    }
}

/// How a summary names a member: its name (through a `$ref`), else its
/// `title`, constant, enum or types; `None` when it has none of them (the
/// summary then numbers it, as its own row does).
fn member_label(m: SchemaNode<'_>) -> Option<String> {
    let r = m.resolved();
    if let Some(name) = r.def_name().or(m.label()).or(r.label()) {
        return Some(name.to_string());
    }
    if r.is_root() && !m.is_root() {
        return Some("#".to_string());
    }
    if m.is_false() {
        return Some("false".to_string());
    }
    if let Some(c) = r.const_value() {
        return Some(literal_text(c));
    }
    if let Some(e) = r.enum_values() {
        return Some(enum_text(&e));
    }
    r.types().or_else(|| effective_types(m, MAX_CHAIN)).map(|t| t.label())
}

/// [`member_label`], else `#N` (1-based, as the member's row numbers it).
fn numbered(m: SchemaNode<'_>, i: usize) -> String {
    member_label(m).unwrap_or_else(|| format!("#{}", i + 1))
}

struct Walker<'s> {
    rows: Vec<Row<'s>>,
    /// The nodes being expanded on the way to the current row.
    stack: Vec<usize>,
    /// The path of the first row past `max`.
    over: Option<String>,
    max: usize,
}

impl<'s> Walker<'s> {
    /// The rows of the value at `path` read with `node`.
    fn site(
        &mut self,
        node: SchemaNode<'s>,
        path: String,
        required: Option<bool>,
        depth: usize,
        member: Option<String>,
    ) {
        if self.rows.len() >= self.max {
            self.over.get_or_insert_with(|| shown(&path));
            return;
        }
        let base = self.stack.len();
        self.stack.push(node.id());
        // The node, then the targets of its `$ref` chain, read together.
        let mut layers = vec![node];
        let mut refs = Vec::new();
        let mut recursive = false;
        let mut cur = node;
        while let Some(target) = cur.reference() {
            refs.push(ref_name(target));
            if self.stack.contains(&target.id()) || layers.len() > MAX_CHAIN {
                recursive = true;
                break;
            }
            self.stack.push(target.id());
            layers.push(target);
            cur = target;
        }
        let mut types: Option<TypeSet> = None;
        for l in &layers {
            if let Some(t) = l.types() {
                types = Some(types.map_or(t, |u| u.intersect(t)));
            }
        }
        if types.is_none() {
            types = layers.iter().find_map(|l| effective_types(*l, MAX_CHAIN));
        }
        let never = layers.iter().any(|l| l.is_false());
        let row_is_member = member.is_some();
        let mut row = Row {
            depth,
            path: shown(&path),
            member,
            types,
            never,
            required,
            refs: refs.clone(),
            recursive,
            keywords: Vec::new(),
            json: BTreeMap::new(),
            applies: Vec::new(),
            description: layers.iter().find_map(|l| l.description()),
        };
        if !refs.is_empty() {
            let mut text = refs.iter().map(|r| format!("-> {r}")).collect::<Vec<_>>().join(" ");
            if recursive {
                text.push_str(" (recursive)");
            }
            row.keywords.push(text);
        }
        for l in &layers {
            keywords(*l, &mut row);
        }
        for l in &layers {
            applies(*l, &mut row);
        }
        self.rows.push(row);
        // A member's rows are indented under the member's own row.
        let inner = depth + usize::from(row_is_member);
        for l in &layers {
            self.children(*l, &path, inner);
        }
        self.stack.truncate(base);
    }

    /// The rows below one layer of a position.
    fn children(&mut self, l: SchemaNode<'s>, path: &str, depth: usize) {
        // One look-up per property, whatever the length of `required`.
        let required: std::collections::HashSet<&str> = l.required().collect();
        for (key, sub) in l.properties() {
            self.site(sub, child(path, |p| push_key(p, key)), Some(required.contains(key)), depth, None);
        }
        for (pattern, sub) in l.pattern_properties() {
            let src = one_line(pattern.source()).into_owned();
            self.site(sub, child(path, |p| p.push_str(&format!("{{/{src}/}}"))), None, depth, None);
        }
        if let Some(sub) = l.additional_properties().filter(|_| !l.is_closed()) {
            self.site(sub, child(path, |p| p.push_str("{}")), None, depth, None);
        }
        let own = || path.to_string();
        if let Some(sub) = l.property_names() {
            self.site(sub, own(), None, depth, Some("property names".into()));
        }
        for (key, sub) in l.dependent_schemas() {
            let shown = one_line(key).into_owned();
            self.site(sub, own(), None, depth, Some(format!("when '{shown}' is present")));
        }
        let prefix: Vec<SchemaNode<'s>> = l.prefix_items().collect();
        for (i, sub) in prefix.iter().enumerate() {
            self.site(*sub, child(path, |p| p.push_str(&format!("[{i}]"))), None, depth, None);
        }
        if let Some(sub) = l.items() {
            let step = if prefix.is_empty() { "[]".to_string() } else { format!("[{}..]", prefix.len()) };
            self.site(sub, child(path, |p| p.push_str(&step)), None, depth, None);
        }
        if let Some(sub) = l.contains() {
            self.site(sub, child(path, |p| p.push_str("[]")), None, depth, Some(name::CONTAINS.into()));
        }
        if let Some(sub) = l.unevaluated_properties().filter(|u| !u.is_false()) {
            let qualifier = Some(name::UNEVALUATED_PROPERTIES.into());
            self.site(sub, child(path, |p| p.push_str("{}")), None, depth, qualifier);
        }
        if let Some(sub) = l.unevaluated_items().filter(|u| !u.is_false()) {
            let qualifier = Some(name::UNEVALUATED_ITEMS.into());
            self.site(sub, child(path, |p| p.push_str("[]")), None, depth, qualifier);
        }
        for union in [l.any_of(), l.one_of()].into_iter().flatten() {
            let words = if union.keyword() == name::ANY_OF { "any of" } else { "one of" };
            let tags = union.tag_key().zip(union.tag_values());
            for (i, m) in union.members().enumerate() {
                let qualifier = match &tags {
                    Some((key, values)) => {
                        let key = one_line(key).into_owned();
                        format!("{key} {}", literal_text(values[i]))
                    }
                    None => format!("{words} #{}", i + 1),
                };
                self.site(m, own(), None, depth, Some(qualifier));
            }
        }
        for (i, m) in l.all_of().enumerate() {
            self.site(m, own(), None, depth, Some(format!("all of #{}", i + 1)));
        }
        if let Some(m) = l.not() {
            self.site(m, own(), None, depth, Some(name::NOT.into()));
        }
        if let Some(c) = l.condition() {
            self.site(c.test, own(), None, depth, Some(name::IF.into()));
            if let Some(t) = c.then {
                self.site(t, own(), None, depth, Some(name::THEN.into()));
            }
            if let Some(e) = c.otherwise {
                self.site(e, own(), None, depth, Some(name::ELSE.into()));
            }
        }
    }
}

/// The assertion keywords of one layer, as text and JSON.
fn keywords(l: SchemaNode<'_>, row: &mut Row<'_>) {
    if l.is_false() {
        row.keywords.push("false".into());
        row.json.entry("false").or_insert_with(|| raw("true".into()));
    }
    if let Some(c) = l.const_value() {
        row.keywords.push(format!("const={}", literal_text(c)));
        row.json.entry(name::CONST).or_insert_with(|| raw(literal_json(c)));
    }
    if let Some(values) = l.enum_values() {
        row.keywords.push(format!("enum={}", enum_text(&values)));
        let list: Vec<String> = values.iter().map(|v| literal_json(*v)).collect();
        row.json.entry(name::ENUM).or_insert_with(|| raw(format!("[{}]", list.join(","))));
    }
    if let Some(f) = l.format() {
        row.keywords.push(format!("format={f}"));
        row.json.entry(name::FORMAT).or_insert_with(|| json_string(f));
    }
    row.keywords.extend(l.describe_constraints());
    for (k, v) in constraints_json(l.constraints()) {
        row.json.entry(k).or_insert(v);
    }
    let counts = [
        (name::MIN_PROPERTIES, l.min_properties()),
        (name::MAX_PROPERTIES, l.max_properties()),
        (name::MIN_CONTAINS, l.min_contains()),
        (name::MAX_CONTAINS, l.max_contains()),
    ];
    for (k, v) in counts {
        if let Some(v) = v {
            row.keywords.push(format!("{k}={v}"));
            row.json.entry(k).or_insert_with(|| raw(v.to_string()));
        }
    }
    if l.is_closed() {
        row.keywords.push("closed".into());
        row.json.entry("closed").or_insert_with(|| raw("true".into()));
    }
    // A `false` unevaluated schema closes what no other keyword evaluates;
    // any other has rows of its own.
    let refused =
        [(name::UNEVALUATED_PROPERTIES, l.unevaluated_properties()), (name::UNEVALUATED_ITEMS, l.unevaluated_items())];
    for (k, _) in refused.into_iter().filter(|(_, u)| u.is_some_and(|u| u.is_false())) {
        row.keywords.push(format!("{k}=false"));
        row.json.entry(k).or_insert_with(|| raw("false".into()));
    }
    if let Some(target) = l.dynamic_reference() {
        let shown = member_label(target).unwrap_or_else(|| format!("#{}", target.id()));
        row.keywords.push(format!("{} {shown}", name::DYNAMIC_REF));
        row.json.entry(name::DYNAMIC_REF).or_insert_with(|| json_string(&shown));
    }
    // Required keys the layer declares no property for (the others show as
    // `required` on their own rows).
    // By hash: a layer may declare 100,000 properties and require half.
    let declared: std::collections::HashSet<&str> = l.properties().map(|(p, _)| p).collect();
    let undeclared: Vec<&str> = l.required().filter(|k| !declared.contains(k)).collect();
    if !undeclared.is_empty() {
        let shown: Vec<String> = undeclared.iter().map(|k| format!("'{}'", one_line(k))).collect();
        row.keywords.push(format!("requires {}", shown.join(", ")));
        let list: Vec<String> = undeclared.iter().map(|k| json_string(k).get().to_string()).collect();
        row.json.entry("requires").or_insert_with(|| raw(format!("[{}]", list.join(","))));
    }
    let deps: Vec<(&str, Vec<&str>)> = l.dependent_required().collect();
    if !deps.is_empty() {
        let quoted = |k: &str| format!("'{}'", one_line(k));
        let text: Vec<String> = deps
            .iter()
            .map(|(k, v)| format!("{} -> {}", quoted(k), v.iter().map(|s| quoted(s)).collect::<Vec<_>>().join(", ")))
            .collect();
        row.keywords.push(format!("dependentRequired {}", text.join(", ")));
        let members: Vec<String> = deps
            .iter()
            .map(|(k, v)| {
                let list: Vec<String> = v.iter().map(|s| json_string(s).get().to_string()).collect();
                format!("{}:[{}]", json_string(k).get(), list.join(","))
            })
            .collect();
        row.json.entry(name::DEPENDENT_REQUIRED).or_insert_with(|| raw(format!("{{{}}}", members.join(","))));
    }
}

/// The in-place applicators of one layer, summarised on its row.
fn applies(l: SchemaNode<'_>, row: &mut Row<'_>) {
    let one = |m: SchemaNode<'_>| Member { tag: None, label: member_label(m) };
    for union in [l.any_of(), l.one_of()].into_iter().flatten() {
        let members: Vec<SchemaNode<'_>> = union.members().collect();
        match (union.tag_key(), union.tag_values()) {
            (Some(key), Some(values)) => {
                let key = one_line(key).into_owned();
                let listed: Vec<String> = members
                    .iter()
                    .zip(&values)
                    .map(|(m, v)| match member_label(*m) {
                        Some(label) => format!("{} {label}", literal_text(*v)),
                        None => literal_text(*v),
                    })
                    .collect();
                row.keywords.push(format!("one of (by {key}) {}", listed.join(" | ")));
                let members = members
                    .iter()
                    .zip(&values)
                    .map(|(m, v)| Member { tag: Some(raw(literal_json(*v))), label: member_label(*m) })
                    .collect();
                row.applies.push(Applies { keyword: union.keyword(), tag: Some(key), members });
            }
            _ => {
                let words = if union.keyword() == name::ANY_OF { "any of" } else { "one of" };
                let listed: Vec<String> = members.iter().enumerate().map(|(i, m)| numbered(*m, i)).collect();
                row.keywords.push(format!("{words} {}", listed.join(" | ")));
                let members = members.into_iter().map(one).collect();
                row.applies.push(Applies { keyword: union.keyword(), tag: None, members });
            }
        }
    }
    let all: Vec<SchemaNode<'_>> = l.all_of().collect();
    if !all.is_empty() {
        let listed: Vec<String> = all.iter().enumerate().map(|(i, m)| numbered(*m, i)).collect();
        row.keywords.push(format!("all of {}", listed.join(" | ")));
        row.applies.push(Applies { keyword: name::ALL_OF, tag: None, members: all.into_iter().map(one).collect() });
    }
    let named = |word: &str, m: SchemaNode<'_>| match member_label(m) {
        Some(label) => format!("{word} {label}"),
        None => word.to_string(),
    };
    if let Some(m) = l.not() {
        row.keywords.push(named(name::NOT, m));
        row.applies.push(Applies { keyword: name::NOT, tag: None, members: vec![one(m)] });
    }
    if let Some(c) = l.condition() {
        let mut parts = vec![named(name::IF, c.test)];
        row.applies.push(Applies { keyword: name::IF, tag: None, members: vec![one(c.test)] });
        if let Some(t) = c.then {
            parts.push(named(name::THEN, t));
            row.applies.push(Applies { keyword: name::THEN, tag: None, members: vec![one(t)] });
        }
        if let Some(e) = c.otherwise {
            parts.push(named(name::ELSE, e));
            row.applies.push(Applies { keyword: name::ELSE, tag: None, members: vec![one(e)] });
        }
        row.keywords.push(parts.join(" "));
    }
}

impl<'s> Row<'s> {
    fn json(self) -> JsonPath<'s> {
        JsonPath {
            types: self.type_names(),
            path: self.path,
            member: self.member,
            depth: self.depth,
            required: self.required,
            reference: self.refs.into_iter().next(),
            recursive: self.recursive,
            keywords: self.json,
            applies: self.applies,
            description: self.description,
        }
    }

    /// The TYPE cell: `string|null`, `any`, or `none` for the `false` schema.
    fn type_label(&self) -> String {
        match self.types {
            _ if self.never => "none".into(),
            None => "any".into(),
            Some(t) if t.is_empty() => "none".into(),
            Some(t) => t.label(),
        }
    }

    /// The types as JSON lists them (`["any"]` for every type).
    fn type_names(&self) -> Vec<&'static str> {
        match self.types {
            _ if self.never => Vec::new(),
            None => vec!["any"],
            Some(t) if t.is_any() => vec!["any"],
            Some(t) => t.iter().map(|t| t.name()).collect(),
        }
    }

    /// The PATH cell: indented by member depth, with the member after it.
    fn path_cell(&self) -> String {
        let mut s = " ".repeat(self.depth * 2);
        s.push_str(&self.path);
        if let Some(m) = &self.member {
            s.push_str(&format!(" ({m})"));
        }
        s
    }

    /// The REQUIRED cell.
    fn required_label(&self) -> &'static str {
        match self.required {
            Some(true) => name::REQUIRED,
            Some(false) => "optional",
            None => "-",
        }
    }
}

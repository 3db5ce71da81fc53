//! Contract loading: bytes -> positioned tree -> checked [`ContractSpec`].
//!
//! Every structural error becomes a [`Diagnostic`] with the line and
//! column of the JSON it is about and, where it concerns a field, the field's
//! path. Loading goes on after an error so that one run reports them all.

use std::collections::HashMap;
use std::fmt;
use std::path::Path;

use super::{tree, Constraints, ContractSpec, FieldPath, FieldSpec, JsonType, Pattern, Scalar, TypeSet};
use crate::json::number::{Decimal, MAX_DIVISOR_DIGITS};
use crate::json::scan::{line_col, Positions};
use crate::json::text::quote;
use crate::json::tree::{parse, Node, Value};
use crate::keywords::name;

/// A contract that could not be loaded, with every problem found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContractError {
    origin: String,
    diagnostics: Vec<Diagnostic>,
}

/// One structural problem in a contract file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// 1-based; 0 when the problem has no position (the file cannot be read).
    pub line: usize,
    /// 1-based, in characters.
    pub column: usize,
    /// The field path the problem concerns, if any.
    pub field: Option<String>,
    /// What is wrong, as one sentence without the position.
    pub message: String,
}

impl ContractError {
    /// The file (or label) the contract came from.
    pub fn origin(&self) -> &str {
        &self.origin
    }

    /// The problems, in document order.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    pub(crate) fn unpositioned(origin: &str, message: String) -> Self {
        ContractError {
            origin: origin.to_string(),
            diagnostics: vec![Diagnostic { line: 0, column: 0, field: None, message }],
        }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(field) = &self.field {
            write!(f, "field {}: ", quote(field, 80))?;
        }
        f.write_str(&self.message)
    }
}

impl fmt::Display for ContractError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, d) in self.diagnostics.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            if d.line == 0 {
                write!(f, "{}: {d}", self.origin)?;
            } else {
                write!(f, "{}:{}:{}: {d}", self.origin, d.line, d.column)?;
            }
        }
        Ok(())
    }
}

impl std::error::Error for ContractError {}

pub(super) fn from_path(path: &Path) -> Result<ContractSpec, ContractError> {
    let origin = path.display().to_string();
    let cap = match crate::input::Limits::from_env() {
        Ok(limits) => limits.max_document,
        Err(msg) => return Err(ContractError::unpositioned(&origin, format!("cannot read contract: {msg}"))),
    };
    match crate::input::read_capped(path, cap) {
        Ok(bytes) => from_slice(&bytes, &origin),
        Err(crate::input::ReadError::Io(e)) => {
            Err(ContractError::unpositioned(&origin, format!("cannot read contract: {}", crate::io_reason(&e))))
        }
        Err(crate::input::ReadError::TooLarge(cap)) => Err(ContractError::unpositioned(
            &origin,
            format!(
                "cannot read contract: file is larger than the limit of {} (PROTOCOLARC_MAX_DOCUMENT_BYTES raises it)",
                crate::input::size_phrase(cap)
            ),
        )),
    }
}

const CONTRACT_KEYS: &str = "$schema, name, revision, kind, title, doc, direction, strict, closed, fields, schema";
const FIELD_KEYS: &str = "name, type, required, enum, const, format, closed, doc, minimum, maximum, exclusiveMinimum, \
                          exclusiveMaximum, multipleOf, minLength, maxLength, pattern, minItems, maxItems, uniqueItems";
const TYPE_NAMES: &str = "string, integer, number, boolean, object, array, null, any";

/// `: did you mean 'required'?` when `word` is a near miss of one of the
/// comma-separated `known` words, else nothing.
pub(super) fn hint(word: &str, known: &str) -> String {
    crate::suggest::nearest(word, known.split(", ")).map(|k| format!(": did you mean '{k}'?")).unwrap_or_default()
}

pub(super) struct Ctx<'a> {
    pub(super) bytes: &'a [u8],
    /// Problems by byte offset; positioned in one pass at the end.
    diags: Vec<(usize, Option<String>, String)>,
}

impl Ctx<'_> {
    /// How many problems have been reported so far.
    pub(super) fn diags_len(&self) -> usize {
        self.diags.len()
    }

    pub(super) fn at(&mut self, offset: usize, field: Option<&str>, message: String) {
        self.diags.push((offset, field.map(str::to_string), message));
    }

    pub(super) fn string(&mut self, node: &Node, field: Option<&str>, key: &str) -> Option<String> {
        match &node.value {
            Value::String(s) => Some(s.to_string()),
            other => {
                self.at(node.offset, field, format!("'{key}' must be a string, found {}", other.type_name()));
                None
            }
        }
    }

    pub(super) fn boolean(&mut self, node: &Node, field: Option<&str>, key: &str) -> Option<bool> {
        match node.value {
            Value::Bool(b) => Some(b),
            ref other => {
                self.at(node.offset, field, format!("'{key}' must be true or false, found {}", other.type_name()));
                None
            }
        }
    }

    pub(super) fn number(&mut self, node: &Node, field: Option<&str>, key: &str) -> Option<Decimal> {
        match &node.value {
            Value::Number(d) if !d.dec().is_in_range() => {
                self.at(node.offset, field, out_of_range(key, d));
                None
            }
            Value::Number(d) => Some((**d).clone()),
            other => {
                self.at(node.offset, field, format!("'{key}' must be a number, found {}", other.type_name()));
                None
            }
        }
    }

    pub(super) fn count(&mut self, node: &Node, field: Option<&str>, key: &str) -> Option<u64> {
        let value = match &node.value {
            Value::Number(d) => to_u64(d),
            _ => None,
        };
        if value.is_none() {
            let msg = match &node.value {
                Value::Number(d) if d.dec().is_integer() && !d.dec().is_negative() => {
                    format!("'{key}' {} is too large (at most {})", d.raw(), u64::MAX)
                }
                Value::Number(d) => format!("'{key}' must be a non-negative integer, found {}", d.raw()),
                other => format!("'{key}' must be a non-negative integer, found {}", other.type_name()),
            };
            self.at(node.offset, field, msg);
        }
        value
    }
}

fn out_of_range(key: &str, d: &Decimal) -> String {
    format!("'{key}' {} is beyond the supported range of numbers (a decimal exponent within ±2^39)", d.raw())
}

/// A non-negative integral decimal as `u64`.
fn to_u64(d: &Decimal) -> Option<u64> {
    d.dec().to_u128()?.try_into().ok()
}

pub(super) fn from_slice(bytes: &[u8], origin: &str) -> Result<ContractSpec, ContractError> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let mut cx = Ctx { bytes, diags: Vec::new() };
    let spec = match parse(bytes) {
        Ok(root) => contract(&mut cx, root),
        Err(e) => {
            cx.at(e.offset, None, e.message);
            None
        }
    };
    match spec {
        Some(spec) if cx.diags.is_empty() => Ok(spec),
        _ => {
            cx.diags.sort_by_key(|(offset, _, _)| *offset);
            let mut positions = Positions::new(bytes);
            let diagnostics = cx
                .diags
                .into_iter()
                .map(|(offset, field, message)| {
                    let (line, column) = positions.of(offset);
                    Diagnostic { line, column, field, message }
                })
                .collect();
            Err(ContractError { origin: origin.to_string(), diagnostics })
        }
    }
}

/// Takes the tree by value: each field's part of it is freed as soon as the
/// field is built, so loading never holds the whole tree and the whole model
/// at once.
fn contract(cx: &mut Ctx<'_>, root: Node) -> Option<ContractSpec> {
    let root_offset = root.offset;
    let members = match root.value {
        Value::Object(members) => members,
        other => {
            cx.at(root_offset, None, format!("a contract must be a JSON object, found {}", other.type_name()));
            return None;
        }
    };
    let (mut name, mut revision, mut kind, mut title, mut doc) = (None, None, None, None, None);
    let mut strict = Some(false);
    let mut strict_at = 0;
    let mut closed = Some(false);
    let mut fields_node = None;
    let mut schema_node = None;
    let mut direction = Some(super::ContractDirection::Request);
    let mut revision_line = 0;
    let mut seen = [false; 3];
    for (key, owned) in members {
        let value = &owned;
        match &*key.name {
            "name" => {
                seen[0] = true;
                name = cx.string(value, None, "name").and_then(|n| check_name(cx, value, n));
            }
            "revision" => {
                seen[1] = true;
                revision_line = line_col(cx.bytes, value.offset).0;
                revision = cx.string(value, None, "revision").and_then(|r| match semver::Version::parse(&r) {
                    Ok(v) => Some(v),
                    Err(e) => {
                        let msg =
                            format!("revision {} is not a semantic version (MAJOR.MINOR.PATCH): {e}", quote(&r, 80));
                        cx.at(value.offset, None, msg);
                        None
                    }
                });
            }
            // The JSON Schema of the contract format, for editors: an annotation.
            name::SCHEMA => {
                cx.string(value, None, name::SCHEMA);
            }
            "kind" => kind = cx.string(value, None, "kind"),
            name::TITLE => title = cx.string(value, None, name::TITLE),
            "doc" => doc = cx.string(value, None, "doc"),
            "strict" => {
                strict_at = value.offset;
                strict = cx.boolean(value, None, "strict");
            }
            "closed" => closed = cx.boolean(value, None, "closed"),
            "fields" => {
                seen[2] = true;
                fields_node = Some(owned);
            }
            "schema" => schema_node = Some(owned),
            "direction" => {
                direction = cx.string(value, None, "direction").and_then(|d| {
                    let parsed = super::ContractDirection::parse(&d);
                    if parsed.is_none() {
                        let msg = format!("direction {} must be one of: request, response, both", quote(&d, 80));
                        cx.at(value.offset, None, msg);
                    }
                    parsed
                });
            }
            other => cx.at(
                key.offset,
                None,
                format!(
                    "unknown key {} in contract{} (expected one of: {CONTRACT_KEYS})",
                    quote(other, 80),
                    hint(other, CONTRACT_KEYS)
                ),
            ),
        }
    }
    for (present, key) in seen.iter().zip(["name", "revision"]) {
        if !present {
            cx.at(root_offset, None, format!("missing required key '{key}'"));
        }
    }
    let schema = match (&fields_node, schema_node) {
        (None, None) => {
            cx.at(root_offset, None, "missing required key 'fields' (or 'schema', for a JSON Schema contract)".into());
            return None;
        }
        (Some(_), Some(node)) => {
            let msg = "a contract has 'fields' or 'schema', not both".to_string();
            cx.at(node.offset, None, msg);
            return None;
        }
        (None, Some(node)) => Some(super::schema::compile(cx, &node)),
        (Some(_), None) => None,
    };
    if let Some(schema) = schema {
        if closed == Some(true) {
            let msg = "'closed' is for the fields form: a schema says \"additionalProperties\": false".to_string();
            cx.at(root_offset, None, msg);
        }
        // Refused rather than ignored: JSON Schema has no warning-only
        // keyword, and a schema says "additionalProperties": false. (The
        // walker's root-only `field.unknown` warning, `Schema::strict`, is
        // set for a fields-form contract's twin alone; a fields-form
        // revision compared in the schema form keeps its flag through
        // `diff`, not through this loader.)
        if strict == Some(true) {
            let msg = "'strict' is for the fields form (a warning per undeclared top-level key): a schema \
                       refuses undeclared keys with \"additionalProperties\": false (an error)"
                .to_string();
            cx.at(strict_at, None, msg);
        }
        let (name, revision, strict, direction) = (name?, revision?, strict?, direction?);
        let schema = Box::new(schema?);
        let (fields, tree) = (Vec::new(), tree::Node::default());
        return Some(ContractSpec {
            name,
            revision,
            kind,
            title,
            doc,
            strict,
            closed: false,
            direction,
            fields,
            tree,
            schema: Some(schema),
            twin: Default::default(),
            revision_line,
            shown_id: Default::default(),
        });
    }
    let (fields, all_fields) = match fields_node.map(|node| fields(cx, node)) {
        Some((fields, ok)) => (fields, ok),
        None => (Vec::new(), false),
    };
    // Path conflicts are checked among the fields that did load, so one run
    // reports them alongside every other problem.
    let tree = match tree::build(&fields, closed == Some(true)) {
        Ok(tree) => Some(tree),
        Err(conflicts) => {
            for c in conflicts {
                let f = &fields[c.field];
                cx.at(f.offset, Some(f.path.as_str()), c.message);
            }
            None
        }
    };
    if !all_fields {
        return None;
    }
    let (name, revision, strict, closed, tree, direction) = (name?, revision?, strict?, closed?, tree?, direction?);
    Some(ContractSpec {
        name,
        revision,
        kind,
        title,
        doc,
        strict,
        closed,
        direction,
        fields,
        tree,
        schema: None,
        twin: Default::default(),
        revision_line,
        shown_id: Default::default(),
    })
}

fn check_name(cx: &mut Ctx<'_>, node: &Node, name: String) -> Option<String> {
    if name.is_empty() {
        cx.at(node.offset, None, "'name' must not be empty".into());
        return None;
    }
    if name.chars().any(|c| c.is_whitespace() || c.is_control() || c == '@') {
        cx.at(node.offset, None, format!("name {} must not contain white space or '@'", quote(&name, 80)));
        return None;
    }
    Some(name)
}

/// The fields that load, and whether all of them did.
fn fields(cx: &mut Ctx<'_>, node: Node) -> (Vec<FieldSpec>, bool) {
    let items = match node.value {
        Value::Array(items) => items,
        other => {
            cx.at(node.offset, None, format!("'fields' must be an array, found {}", other.type_name()));
            return (Vec::new(), false);
        }
    };
    let before = cx.diags.len();
    let mut out = Vec::with_capacity(items.len());
    let mut first_at: HashMap<String, usize> = HashMap::new();
    for item in items {
        let item = &item;
        let Some(spec) = field(cx, item) else { continue };
        if let Some(&first) = first_at.get(spec.path.as_str()) {
            let msg = format!("duplicate field path (first declared on line {})", line_col(cx.bytes, first).0);
            cx.at(item.offset, Some(spec.path.as_str()), msg);
            continue;
        }
        first_at.insert(spec.path.as_str().to_string(), spec.offset);
        out.push(spec);
    }
    // Lines of every field in one pass (fields come in document order).
    let mut positions = Positions::new(cx.bytes);
    for f in &mut out {
        f.line = positions.of(f.offset).0;
    }
    (out, cx.diags.len() == before)
}

fn field(cx: &mut Ctx<'_>, node: &Node) -> Option<FieldSpec> {
    let Value::Object(members) = &node.value else {
        cx.at(node.offset, None, format!("a field must be a JSON object, found {}", node.value.type_name()));
        return None;
    };
    let before = cx.diags.len();
    let name_node = members.iter().find(|(k, _)| k.name == "name").map(|(_, v)| v);
    let path = match name_node {
        None => {
            cx.at(node.offset, None, "field is missing required key 'name'".into());
            None
        }
        Some(v) => cx.string(v, None, "name").and_then(|text| match FieldPath::parse(&text) {
            Ok(p) => Some(p),
            Err(msg) => {
                cx.at(v.offset, Some(&text), msg);
                None
            }
        }),
    };
    let label = name_node.and_then(|v| match &v.value {
        Value::String(s) => Some(s.clone()),
        _ => None,
    });
    let label = label.as_deref();
    let mut types = None;
    let mut type_node = None;
    let mut required = Some(true);
    let mut doc = None;
    let mut enum_node = None;
    let mut const_node = None;
    let mut format = None;
    let mut closed = false;
    let mut c = Constraints::default();
    // Keyword, node: to check applicability once the types are known.
    let mut used: Vec<(&str, TypeSet, &Node)> = Vec::new();
    for (key, value) in members {
        let k = &*key.name;
        match k {
            "name" => {}
            name::TYPE => {
                type_node = Some(value);
                types = type_set(cx, value, label);
            }
            name::REQUIRED => required = cx.boolean(value, label, k),
            "doc" => doc = cx.string(value, label, k),
            name::ENUM => enum_node = Some(value),
            name::CONST => const_node = Some(value),
            name::FORMAT => format = cx.string(value, label, k).map(String::into_boxed_str),
            "closed" => closed = cx.boolean(value, label, k).unwrap_or(false),
            name::MINIMUM => c.minimum = cx.number(value, label, k),
            name::MAXIMUM => c.maximum = cx.number(value, label, k),
            name::EXCLUSIVE_MINIMUM => c.exclusive_minimum = cx.number(value, label, k),
            name::EXCLUSIVE_MAXIMUM => c.exclusive_maximum = cx.number(value, label, k),
            name::MULTIPLE_OF => c.multiple_of = multiple_of(cx, value, label),
            name::MIN_LENGTH => c.min_length = cx.count(value, label, k),
            name::MAX_LENGTH => c.max_length = cx.count(value, label, k),
            name::MIN_ITEMS => c.min_items = cx.count(value, label, k),
            name::MAX_ITEMS => c.max_items = cx.count(value, label, k),
            name::PATTERN => c.pattern = cx.string(value, label, k).and_then(|p| pattern(cx, value, label, p)),
            name::UNIQUE_ITEMS => c.unique_items = cx.boolean(value, label, k).unwrap_or(false),
            other => {
                let msg = format!(
                    "unknown key {} in field{} (expected one of: {FIELD_KEYS})",
                    quote(other, 80),
                    hint(other, FIELD_KEYS)
                );
                cx.at(key.offset, label, msg);
                continue;
            }
        }
        // `uniqueItems: false` and `closed: false` constrain nothing, so they
        // apply to any type.
        let inert = matches!(k, name::UNIQUE_ITEMS | "closed") && matches!(value.value, Value::Bool(false));
        if let Some(applies) = applies_to(k).filter(|_| !inert) {
            used.push((k, applies, value));
        }
    }
    if type_node.is_none() {
        cx.at(node.offset, label, "field is missing required key 'type'".into());
    }
    let is_const = const_node.is_some();
    let (enum_values, enum_node, keyword) = match (enum_node, const_node) {
        (Some(_), Some(c)) => {
            cx.at(c.offset, label, "a field has 'const' or 'enum', not both (a const is a one-value enum)".into());
            (None, None, name::ENUM)
        }
        (Some(e), None) => (enum_values(cx, e, label), Some(e), name::ENUM),
        (None, Some(c)) => (scalar(cx, c, label, name::CONST).map(|v| vec![v]), Some(c), name::CONST),
        (None, None) => (None, None, name::ENUM),
    };
    // The nodes of the members, for positions (a const is its own node).
    let member_nodes: Vec<&Node> = match enum_node.map(|n| (&n.value, n)) {
        Some((Value::Array(items), _)) if !is_const => items.iter().collect(),
        Some((_, n)) => vec![n],
        None => Vec::new(),
    };
    if let Some(types) = types {
        for (kw, applies, value) in &used {
            if !types.intersects(*applies) {
                let what = values_word(*applies);
                cx.at(value.offset, label, format!("'{kw}' applies to {what}, but the field's type is {types}"));
            }
        }
        if let Some(values) = &enum_values {
            for (value, item) in values.iter().zip(&member_nodes) {
                if !types.accepts(value.json_type()) {
                    let msg = format!(
                        "{keyword} value {} is of type {}, which the field's type {types} does not accept",
                        value.display(),
                        value.json_type().name()
                    );
                    cx.at(item.offset, label, msg);
                }
            }
        }
    }
    ranges(cx, node, label, &c);
    if cx.diags.len() == before {
        if let Some(types) = types {
            satisfiable(cx, node, label, &c, types);
        }
    }
    if cx.diags.len() > before {
        return None;
    }
    let spec = FieldSpec {
        path: path?,
        types: types?,
        required: required?,
        enum_values,
        is_const,
        format,
        closed,
        doc,
        constraints: super::Sparse::new(c),
        line: 0,
        offset: node.offset,
    };
    // An enum member the field's own constraints reject can never be sent:
    // judged by the validator's own keyword checks, worded as its finding.
    if let Some(values) = &spec.enum_values {
        for (value, item) in values.iter().zip(&member_nodes) {
            if let Some((rule, why)) = crate::keywords::member_fault(&spec.constraints, value) {
                let msg = format!("{keyword} value {} can never pass: {}: {why}", value.display(), rule.id);
                cx.at(item.offset, label, msg);
            }
        }
    }
    (cx.diags.len() == before).then_some(spec)
}

/// The JSON types a field's constraint keyword applies to, from the
/// keyword registry (`closed`, the fields form's own, applies to objects);
/// `None` for a key that is no such keyword. A field's `required` is its own
/// presence, not the object keyword the registry records, and `type`,
/// `enum` and `const` apply to every type.
fn applies_to(key: &str) -> Option<TypeSet> {
    if key == "closed" {
        return Some(TypeSet::of(JsonType::Object));
    }
    crate::keywords::registry::find(key)
        .filter(|k| k.fields_form && key != name::REQUIRED && !k.applies_to.is_any())
        .map(|k| k.applies_to)
}

/// How a message names the values `applies` holds: `numbers`, `strings`,
/// `arrays` or `objects`.
fn values_word(applies: TypeSet) -> &'static str {
    if applies.has_numbers() {
        "numbers"
    } else if applies.has_strings() {
        "strings"
    } else if applies.has_arrays() {
        "arrays"
    } else {
        "objects"
    }
}

fn type_set(cx: &mut Ctx<'_>, node: &Node, label: Option<&str>) -> Option<TypeSet> {
    let names: Vec<(&str, usize)> = match &node.value {
        Value::String(s) => vec![(&**s, node.offset)],
        Value::Array(items) if items.is_empty() => {
            cx.at(node.offset, label, "empty type list".into());
            return None;
        }
        Value::Array(items) => {
            let mut names = Vec::new();
            for item in items {
                match &item.value {
                    Value::String(s) => names.push((&**s, item.offset)),
                    other => {
                        let msg = format!("a type name must be a string, found {}", other.type_name());
                        cx.at(item.offset, label, msg);
                        return None;
                    }
                }
            }
            names
        }
        other => {
            let msg = format!("'type' must be a type name or a list of them, found {}", other.type_name());
            cx.at(node.offset, label, msg);
            return None;
        }
    };
    if let Some(&(_, offset)) = names.iter().find(|(name, _)| *name == "any") {
        if names.len() > 1 {
            cx.at(offset, label, "'any' already accepts every type; list it alone".into());
            return None;
        }
        return Some(TypeSet::ANY);
    }
    let mut set = TypeSet::EMPTY;
    let mut ok = true;
    for &(name, offset) in &names {
        match JsonType::from_name(name) {
            Some(t) if set.contains(t) => {
                cx.at(offset, label, format!("type '{name}' is listed twice"));
                ok = false;
            }
            Some(t) => set = set.with(t),
            None => {
                let msg = format!(
                    "unknown type {}{} (expected one of: {TYPE_NAMES})",
                    quote(name, 80),
                    hint(name, TYPE_NAMES)
                );
                cx.at(offset, label, msg);
                ok = false;
            }
        }
    }
    ok.then_some(set)
}

pub(super) fn multiple_of(cx: &mut Ctx<'_>, node: &Node, label: Option<&str>) -> Option<Decimal> {
    let d = cx.number(node, label, name::MULTIPLE_OF)?;
    let dec = d.dec();
    if dec.is_zero() || dec.is_negative() {
        cx.at(node.offset, label, format!("'multipleOf' must be greater than 0, found {}", d.raw()));
        return None;
    }
    if dec.significant_digits() > MAX_DIVISOR_DIGITS {
        let msg = format!(
            "'multipleOf' {} has more than {MAX_DIVISOR_DIGITS} significant digits, which cannot be checked exactly",
            d.raw()
        );
        cx.at(node.offset, label, msg);
        return None;
    }
    Some(d)
}

/// The largest compiled pattern: the regex crate's own default, so that a
/// pattern a Rust service compiles with `Regex::new` (a tool name's
/// `^\w{1,128}$`, Unicode classes repeated) loads here too.
const PATTERN_SIZE_LIMIT: usize = 10 << 20;

pub(super) fn pattern(cx: &mut Ctx<'_>, node: &Node, label: Option<&str>, source: String) -> Option<Pattern> {
    match regex::RegexBuilder::new(&source).size_limit(PATTERN_SIZE_LIMIT).build() {
        Ok(regex) => Some(Pattern { source, regex }),
        Err(e) => {
            let msg = format!("pattern {} does not compile: {}", quote(&source, 200), regex_reason(&e));
            cx.at(node.offset, label, msg);
            None
        }
    }
}

/// The one-line reason of a regex error (its text spans several lines).
fn regex_reason(e: &regex::Error) -> String {
    let text = e.to_string();
    let line = text.lines().rev().find_map(|l| l.trim().strip_prefix("error: ")).map(str::to_string);
    line.unwrap_or_else(|| text.lines().map(str::trim).filter(|l| !l.is_empty()).collect::<Vec<_>>().join("; "))
}

fn enum_values(cx: &mut Ctx<'_>, node: &Node, label: Option<&str>) -> Option<Vec<Scalar>> {
    let Value::Array(items) = &node.value else {
        cx.at(node.offset, label, format!("'enum' must be an array, found {}", node.value.type_name()));
        return None;
    };
    if items.is_empty() {
        cx.at(node.offset, label, "'enum' must list at least one value".into());
        return None;
    }
    let mut out: Vec<Scalar> = Vec::with_capacity(items.len());
    let mut ok = true;
    for item in items {
        let Some(value) = scalar(cx, item, label, name::ENUM) else {
            ok = false;
            continue;
        };
        if out.iter().any(|v| v.same_value(&value)) {
            cx.at(item.offset, label, format!("enum lists {} twice", value.display()));
            ok = false;
            continue;
        }
        out.push(value);
    }
    ok.then_some(out)
}

/// An `enum` member or a `const`: a scalar.
fn scalar(cx: &mut Ctx<'_>, item: &Node, label: Option<&str>, keyword: &str) -> Option<Scalar> {
    Some(match &item.value {
        Value::Null => Scalar::Null,
        Value::Bool(b) => Scalar::Bool(*b),
        Value::Number(d) if !d.dec().is_in_range() => {
            cx.at(item.offset, label, out_of_range(keyword, d));
            return None;
        }
        Value::Number(d) => Scalar::Number((**d).clone()),
        Value::String(s) => Scalar::String(s.to_string()),
        other => {
            let msg = if keyword == name::CONST {
                format!("const must be a scalar (string, number, boolean, null), found {}", other.type_name())
            } else {
                format!("enum values must be scalars (string, number, boolean, null), found {}", other.type_name())
            };
            cx.at(item.offset, label, msg);
            return None;
        }
    })
}

/// Refuses bounds that no value can satisfy.
pub(super) fn ranges(cx: &mut Ctx<'_>, node: &Node, label: Option<&str>, c: &Constraints) {
    let pairs = [
        (name::MIN_LENGTH, c.min_length, name::MAX_LENGTH, c.max_length),
        (name::MIN_ITEMS, c.min_items, name::MAX_ITEMS, c.max_items),
    ];
    for (lo_kw, lo, hi_kw, hi) in pairs {
        if let (Some(lo), Some(hi)) = (lo, hi) {
            if lo > hi {
                cx.at(node.offset, label, format!("'{lo_kw}' {lo} is greater than '{hi_kw}' {hi}"));
            }
        }
    }
    let lower = [(name::MINIMUM, &c.minimum, false), (name::EXCLUSIVE_MINIMUM, &c.exclusive_minimum, true)];
    let upper = [(name::MAXIMUM, &c.maximum, false), (name::EXCLUSIVE_MAXIMUM, &c.exclusive_maximum, true)];
    for (lo_kw, lo, lo_excl) in lower {
        for (hi_kw, hi, hi_excl) in upper {
            if let (Some(lo), Some(hi)) = (lo, hi) {
                let order = lo.dec().compare(&hi.dec());
                if order.is_gt() || (order.is_eq() && (lo_excl || hi_excl)) {
                    let msg = format!("no number satisfies both '{lo_kw}' {} and '{hi_kw}' {}", lo.raw(), hi.raw());
                    cx.at(node.offset, label, msg);
                }
            }
        }
    }
}

/// Refuses numeric constraints that no value can meet together although each
/// bound pair is ordered: `minimum 1, maximum 2, multipleOf 5`, or an
/// integer-only field with `minimum 1.2, maximum 1.8`. Decided exactly on
/// the decimals (scaled to integers); bounds too wide to scale are left alone.
fn satisfiable(cx: &mut Ctx<'_>, node: &Node, label: Option<&str>, c: &Constraints, types: TypeSet) {
    let integer_only = types.contains(JsonType::Integer) && !types.contains(JsonType::Number);
    if c.multiple_of.is_none() && !integer_only {
        return;
    }
    let lower = c
        .exclusive_minimum
        .as_ref()
        .map(|d| (name::EXCLUSIVE_MINIMUM, d, true))
        .or(c.minimum.as_ref().map(|d| (name::MINIMUM, d, false)));
    let upper = c
        .exclusive_maximum
        .as_ref()
        .map(|d| (name::EXCLUSIVE_MAXIMUM, d, true))
        .or(c.maximum.as_ref().map(|d| (name::MAXIMUM, d, false)));
    let (Some((lo_kw, lo, lo_excl)), Some((hi_kw, hi, hi_excl))) = (lower, upper) else { return };
    let all = [Some(lo), Some(hi), c.multiple_of.as_ref()];
    let Some((scale, [l, h, m])) = (0..=30u32).find_map(|scale| {
        let v: Vec<i128> = all.iter().flatten().map(|d| d.dec().scaled(scale)).collect::<Option<_>>()?;
        Some((scale, [v[0], v[1], v.get(2).copied().unwrap_or(0)]))
    }) else {
        return;
    };
    let unit = 10i128.pow(scale);
    // The step the value must be a multiple of, in scaled units.
    let step = match (c.multiple_of.is_some(), integer_only) {
        (true, false) => m,
        (true, true) => match (m / gcd(m, unit)).checked_mul(unit) {
            Some(step) => step,
            None => return,
        },
        (false, _) => unit,
    };
    let k_min = if lo_excl { l.div_euclid(step) + 1 } else { -(-l).div_euclid(step) };
    let k_max = if hi_excl { -(-h).div_euclid(step) - 1 } else { h.div_euclid(step) };
    if k_min > k_max {
        let what = if integer_only { "integer" } else { "number" };
        let mut msg = format!("no {what} satisfies '{lo_kw}' {}, '{hi_kw}' {}", lo.raw(), hi.raw());
        if let Some(m) = &c.multiple_of {
            msg.push_str(&format!(" and 'multipleOf' {}", m.raw()));
        }
        cx.at(node.offset, label, msg);
    }
}

fn gcd(mut a: i128, mut b: i128) -> i128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a.abs()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constraints_no_value_meets_are_refused() {
        let load = |extra: &str, ty: &str| {
            let doc = format!(
                r#"{{"name": "t", "revision": "1.0.0", "fields": [{{"name": "n", "type": "{ty}", {extra}}}]}}"#
            );
            from_slice(doc.as_bytes(), "t.json").err().map(|e| e.to_string())
        };
        assert_eq!(
            load(r#""minimum": 1, "maximum": 2, "multipleOf": 5"#, "number").as_deref(),
            Some("t.json:1:47: field 'n': no number satisfies 'minimum' 1, 'maximum' 2 and 'multipleOf' 5")
        );
        assert_eq!(
            load(r#""minimum": 1.2, "maximum": 1.8"#, "integer").as_deref(),
            Some("t.json:1:47: field 'n': no integer satisfies 'minimum' 1.2, 'maximum' 1.8")
        );
        assert_eq!(
            load(r#""exclusiveMinimum": 0, "exclusiveMaximum": 5, "multipleOf": 5"#, "number").as_deref(),
            Some("t.json:1:47: field 'n': no number satisfies 'exclusiveMinimum' 0, 'exclusiveMaximum' 5 and 'multipleOf' 5")
        );
        assert_eq!(
            load(r#""minimum": 0.1, "maximum": 0.3, "multipleOf": 0.25"#, "integer").as_deref(),
            Some("t.json:1:47: field 'n': no integer satisfies 'minimum' 0.1, 'maximum' 0.3 and 'multipleOf' 0.25")
        );
        // Satisfiable ones load: 5 is in [5, 5]; -10 in [-12, -7]; 0.5 in
        // (0, 1) for a number; 1.5 steps reach the integer 3 in [2, 4].
        for ok in [
            (r#""minimum": 5, "maximum": 5, "multipleOf": 5"#, "number"),
            (r#""minimum": -12, "maximum": -7, "multipleOf": 5"#, "integer"),
            (r#""exclusiveMinimum": 0, "exclusiveMaximum": 1"#, "number"),
            (r#""minimum": 2, "maximum": 4, "multipleOf": 1.5"#, "integer"),
            (r#""minimum": 1.2, "maximum": 1.8"#, "number"),
        ] {
            assert_eq!(load(ok.0, ok.1), None, "{ok:?}");
        }
    }

    #[test]
    fn counts_accept_integral_spellings_only() {
        let n = |s: &str| to_u64(&Decimal::parse(s).unwrap());
        assert_eq!(n("0"), Some(0));
        assert_eq!(n("128"), Some(128));
        assert_eq!(n("1.0"), Some(1));
        assert_eq!(n("1e3"), Some(1000));
        assert_eq!(n("1.5"), None);
        assert_eq!(n("-1"), None);
        assert_eq!(n("1e30"), None);
        assert_eq!(n("18446744073709551615"), Some(u64::MAX));
        assert_eq!(n("18446744073709551616"), None);
    }
}

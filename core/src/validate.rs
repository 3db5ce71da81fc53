//! The validator: one pass over raw JSON bytes, guided by the contract's path
//! tree, producing the findings of SPEC §4.
//!
//! It never builds a `serde_json::Value`: the scanner hands over borrowed
//! tokens, paths are a chain of stack frames rendered to text only when a
//! finding needs them, and the keys of the objects being read share one
//! stack (for `json.duplicate_key`). Nesting is bounded by
//! [`MAX_DEPTH`]; past it the document gets a `json.depth` finding instead of
//! a deeper stack. Envelope-level rules (`contract.match`, `revision.hint`)
//! are added by [`ContractSpec::validate_envelope`].

use std::cmp::Ordering;
use std::collections::{HashMap, HashSet};

use crate::contract::tree::Node;
use crate::contract::{enum_label, Constraints, ContractSpec, FieldSpec, JsonType, Scalar, TypeSet};
use crate::envelope::Envelope;
use crate::json::canonical::canonical;
use crate::json::number::{Dec, Decimal, Num};
use crate::json::scan::{line_col, Kind, Scanner, SyntaxError};
use crate::json::text::{quote, Str};
use crate::json::MAX_DEPTH;
use crate::report::{Finding, Report};
use crate::rules;
use crate::rules::Rule;

/// The field name of findings about the data body as a whole.
pub const DATA_FIELD: &str = "<data>";
/// The field name of envelope-level findings.
pub const ENVELOPE_FIELD: &str = "<envelope>";

/// Longest value quoted in a message, in characters.
const QUOTE_MAX: usize = 80;

/// A key of an object being read: where its raw text sits in the input.
#[derive(Debug, Clone, Copy)]
struct KeyRef {
    offset: usize,
    len: usize,
    escaped: bool,
}

thread_local! {
    /// The key stack, reused from call to call: a valid document costs no
    /// allocation once a thread has validated one of its size.
    static KEY_POOL: std::cell::Cell<Vec<KeyRef>> = const { std::cell::Cell::new(Vec::new()) };
}

/// Objects with more keys than this switch duplicate detection to a hash set.
const LINEAR_KEYS: usize = 32;

impl ContractSpec {
    /// Validates a data body given as raw JSON bytes.
    ///
    /// Every input gives a report: bytes that are not JSON give one
    /// `json.syntax` finding, nesting past [`MAX_DEPTH`] one `json.depth`.
    pub fn validate_json(&self, data: &[u8]) -> Report {
        // Most bodies are valid: the one-pass check (`fast.rs`) proves that
        // much faster than the finding engine below, which then runs only
        // for bodies it could not pass.
        if self.passes(data) {
            return Report::default();
        }
        self.validate_json_full(data)
    }

    /// The finding engine alone, without the one-pass check in front: for a
    /// caller that has already run a one-pass check (as
    /// `Contract::validate_json` has), and what every fast path is tested
    /// against. The same report as [`ContractSpec::validate_json`].
    pub fn validate_json_full(&self, data: &[u8]) -> Report {
        let mut w =
            Walker { contract: self, s: Scanner::new(data), findings: Vec::new(), keys: KEY_POOL.with(|p| p.take()) };
        let outcome = w.document();
        let mut keys = std::mem::take(&mut w.keys);
        keys.clear();
        KEY_POOL.with(|p| p.set(keys));
        match outcome {
            Ok(()) => Report::new(w.findings),
            Err(Stop::Syntax(e)) => {
                let (line, column) = line_col(data, e.offset);
                let msg = format!("line {line}, column {column}: {}", e.kind.message());
                Report::new(vec![Finding::new(rules::JSON_SYNTAX, DATA_FIELD, msg)])
            }
            Err(Stop::Depth(field)) => {
                let msg = format!("objects and arrays nest deeper than {MAX_DEPTH} levels");
                Report::new(vec![Finding::new(rules::JSON_DEPTH, field, msg)])
            }
        }
    }

    /// Validates a data body that is already a `serde_json::Value` (through
    /// the same engine; a `Value` cannot hold duplicate keys).
    pub fn validate_value(&self, data: &serde_json::Value) -> Report {
        match serde_json::to_vec(data) {
            Ok(bytes) => self.validate_json(&bytes),
            Err(e) => Report::new(vec![Finding::new(rules::JSON_SYNTAX, DATA_FIELD, e.to_string())]),
        }
    }

    /// Validates an envelope: its data body, plus whether it targets this
    /// contract and revision.
    pub fn validate_envelope(&self, envelope: &Envelope) -> Report {
        let mut findings = self.validate_json(envelope.data()).into_findings();
        if envelope.contract() != self.name {
            let msg = format!(
                "envelope targets {}, not {}",
                quote(envelope.contract(), QUOTE_MAX),
                quote(&self.name, QUOTE_MAX)
            );
            findings.push(Finding::new(rules::CONTRACT_MATCH, ENVELOPE_FIELD, msg));
        }
        if let Some(rev) = envelope.revision() {
            if rev != self.revision.to_string() {
                let shown: String = rev.chars().flat_map(char::escape_debug).take(QUOTE_MAX).collect();
                let msg = format!("envelope declares revision {shown}, contract is {}", self.revision);
                findings.push(Finding::new(rules::REVISION_HINT, ENVELOPE_FIELD, msg));
            }
        }
        Report::new(findings)
    }
}

/// Why a walk stopped early.
enum Stop {
    Syntax(SyntaxError),
    /// Too deep, at this path.
    Depth(String),
}

impl From<SyntaxError> for Stop {
    fn from(e: SyntaxError) -> Self {
        Stop::Syntax(e)
    }
}

/// Where the walk is, as a chain of stack frames.
#[derive(Clone, Copy)]
enum Path<'p, 'a> {
    Root,
    Key(&'p Path<'p, 'a>, Str<'a>),
    Name(&'p Path<'p, 'a>, &'p str),
    Index(&'p Path<'p, 'a>, usize),
}

impl Path<'_, '_> {
    fn render(&self) -> String {
        if let Path::Root = self {
            return DATA_FIELD.to_string();
        }
        let mut out = String::new();
        self.write(&mut out);
        out
    }

    /// Appends `key` below this path; control characters are escaped so a
    /// key cannot forge lines of text output.
    fn write_key(&self, out: &mut String, key: &str) {
        self.write(out);
        if !matches!(self, Path::Root) {
            out.push('.');
        }
        for c in key.chars() {
            if c.is_control() {
                out.push_str(&c.escape_default().to_string());
            } else {
                out.push(c);
            }
        }
    }

    fn write(&self, out: &mut String) {
        match self {
            Path::Root => {}
            Path::Key(parent, key) => parent.write_key(out, &key.decode()),
            Path::Name(parent, key) => parent.write_key(out, key),
            Path::Index(parent, i) => {
                parent.write(out);
                out.push('[');
                out.push_str(&i.to_string());
                out.push(']');
            }
        }
    }
}

/// Which of a node's children an object has shown (bits in a word up to
/// 128 children, allocated flags past that).
pub(crate) enum Seen {
    Bits(u128),
    Many(Vec<bool>),
}

impl Seen {
    pub(crate) fn new(n: usize) -> Self {
        if n <= 128 {
            Seen::Bits(0)
        } else {
            Seen::Many(vec![false; n])
        }
    }

    #[inline]
    pub(crate) fn set(&mut self, i: usize) {
        match self {
            Seen::Bits(b) => *b |= 1 << i,
            Seen::Many(v) => v[i] = true,
        }
    }

    #[inline]
    pub(crate) fn get(&self, i: usize) -> bool {
        match self {
            Seen::Bits(b) => b & (1 << i) != 0,
            Seen::Many(v) => v[i],
        }
    }
}

struct Walker<'c, 'a> {
    contract: &'c ContractSpec,
    s: Scanner<'a>,
    findings: Vec<Finding>,
    /// Keys of every object being read, innermost last.
    keys: Vec<KeyRef>,
}

impl<'c, 'a> Walker<'c, 'a> {
    fn push(&mut self, rule: &'static Rule, path: &Path<'_, '_>, message: String) {
        self.findings.push(Finding::new(rule, path.render(), message));
    }

    fn error(&mut self, rule: &'static Rule, path: &Path<'_, '_>, message: String) {
        self.push(rule, path, message);
    }

    fn document(&mut self) -> Result<(), Stop> {
        let contract = self.contract;
        let root = Path::Root;
        if self.s.peek_kind()? == Kind::Object {
            self.object(Some(&contract.tree), &root, 0, contract.strict)?;
        } else {
            let actual = self.skip_typed(&root, 0)?;
            self.error(rules::FIELD_TYPE, &root, format!("expected object, found {}", actual.name()));
        }
        self.s.finish()?;
        Ok(())
    }

    /// One value at `path`, checked against `node` (`None`: undeclared).
    fn value(&mut self, node: Option<&'c Node>, path: &Path<'_, 'a>, depth: usize) -> Result<(), Stop> {
        let Some(node) = node else {
            self.skip_typed(path, depth)?;
            return Ok(());
        };
        let Some(index) = node.field else {
            return self.implied(node, path, depth);
        };
        let spec = &self.contract.fields[index];
        let types = spec.types;
        match self.s.peek_kind()? {
            Kind::String => {
                let s = self.s.string()?;
                if self.type_ok(types, JsonType::String, path) {
                    self.string(spec, &s, path);
                }
            }
            Kind::Number => {
                let n = self.s.number()?;
                let actual = if n.is_integer() { JsonType::Integer } else { JsonType::Number };
                if self.type_ok(types, actual, path) {
                    self.number(spec, &n, path);
                }
            }
            Kind::Bool | Kind::Null => {
                let v = self.s.literal()?;
                let actual = if v.is_some() { JsonType::Boolean } else { JsonType::Null };
                if self.type_ok(types, actual, path) {
                    if let Some(values) = &spec.enum_values {
                        let hit = values.iter().any(|e| match (e, v) {
                            (Scalar::Bool(a), Some(b)) => *a == b,
                            (Scalar::Null, None) => true,
                            _ => false,
                        });
                        if !hit {
                            let shown = v.map_or("null".to_string(), |b| b.to_string());
                            self.error(rules::FIELD_ENUM, path, format!("value {shown} not in {}", enum_label(values)));
                        }
                    }
                }
            }
            Kind::Object => {
                if self.type_ok(types, JsonType::Object, path) {
                    self.not_in_enum(spec, "an object", path);
                    self.object(Some(node), path, depth, false)?;
                } else {
                    self.skip_typed(path, depth)?;
                }
            }
            Kind::Array => {
                if self.type_ok(types, JsonType::Array, path) {
                    self.not_in_enum(spec, "an array", path);
                    self.array(node.items.as_deref(), Some(spec), path, depth)?;
                } else {
                    self.skip_typed(path, depth)?;
                }
            }
        }
        Ok(())
    }

    /// An enum lists scalars only: an object or array is never a member.
    fn not_in_enum(&mut self, spec: &FieldSpec, what: &str, path: &Path<'_, '_>) {
        if let Some(values) = &spec.enum_values {
            self.error(rules::FIELD_ENUM, path, format!("{what} is not in {}", enum_label(values)));
        }
    }

    /// Records `field.type` unless `types` accepts `actual`.
    #[inline]
    fn type_ok(&mut self, types: TypeSet, actual: JsonType, path: &Path<'_, '_>) -> bool {
        if types.accepts(actual) {
            return true;
        }
        self.error(rules::FIELD_TYPE, path, format!("expected {types}, found {}", actual.name()));
        false
    }

    /// A parent no field declares: it must be an object (or array) to hold
    /// its children.
    fn implied(&mut self, node: &'c Node, path: &Path<'_, 'a>, depth: usize) -> Result<(), Stop> {
        let expect = node.implied_types();
        match self.s.peek_kind()? {
            Kind::Object if expect.contains(JsonType::Object) => self.object(Some(node), path, depth, false),
            Kind::Array if expect.contains(JsonType::Array) => self.array(node.items.as_deref(), None, path, depth),
            _ => {
                let actual = self.skip_typed(path, depth)?;
                self.error(rules::FIELD_TYPE, path, format!("expected {expect}, found {}", actual.name()));
                Ok(())
            }
        }
    }

    /// Reads a value nothing constrains (still checking syntax, depth and
    /// duplicate keys) and tells its type.
    fn skip_typed(&mut self, path: &Path<'_, 'a>, depth: usize) -> Result<JsonType, Stop> {
        Ok(match self.s.peek_kind()? {
            Kind::String => {
                self.s.string()?;
                JsonType::String
            }
            Kind::Number => {
                if self.s.number()?.is_integer() {
                    JsonType::Integer
                } else {
                    JsonType::Number
                }
            }
            Kind::Bool | Kind::Null => match self.s.literal()? {
                Some(_) => JsonType::Boolean,
                None => JsonType::Null,
            },
            Kind::Object => {
                self.object(None, path, depth, false)?;
                JsonType::Object
            }
            Kind::Array => {
                self.array(None, None, path, depth)?;
                JsonType::Array
            }
        })
    }

    fn object(&mut self, node: Option<&'c Node>, path: &Path<'_, 'a>, depth: usize, strict: bool) -> Result<(), Stop> {
        if depth >= MAX_DEPTH {
            return Err(Stop::Depth(path.render()));
        }
        self.s.object_start();
        let children = node.map_or(&[][..], |n| n.keys.as_slice());
        let mut seen = Seen::new(children.len());
        let base = self.keys.len();
        let mut many: Option<HashSet<String>> = None;
        let mut first = true;
        while let Some(key) = self.s.object_key(first)? {
            first = false;
            let here = Path::Key(path, key);
            if self.is_duplicate(base, key, &mut many) {
                let msg = "key appears more than once in its object".to_string();
                self.error(rules::JSON_DUPLICATE_KEY, &here, msg);
                self.skip_typed(&here, depth + 1)?;
                continue;
            }
            match node.and_then(|n| n.child(&key)) {
                Some(at) => {
                    seen.set(at);
                    self.value(Some(&children[at].node), &here, depth + 1)?;
                }
                None => {
                    if strict {
                        let msg = "key is not declared by the strict contract".to_string();
                        self.push(rules::FIELD_UNKNOWN, &here, msg);
                    }
                    self.skip_typed(&here, depth + 1)?;
                }
            }
        }
        self.keys.truncate(base);
        for (i, child) in children.iter().enumerate() {
            if child.node.required && !seen.get(i) {
                let missing = Path::Name(path, &child.key);
                self.error(rules::FIELD_REQUIRED, &missing, "required field is missing".to_string());
            }
        }
        Ok(())
    }

    /// Records `key` for the object whose keys start at `base`, telling
    /// whether it was there already.
    fn is_duplicate(&mut self, base: usize, key: Str<'a>, many: &mut Option<HashSet<String>>) -> bool {
        if let Some(set) = many {
            return !set.insert(key.decode().into_owned());
        }
        let bytes = self.s.bytes();
        let stored = |k: &KeyRef| Str::new(&bytes[k.offset..k.offset + k.len], k.escaped, k.offset);
        let dup = self.keys[base..].iter().any(|k| same_key(&stored(k), &key));
        if dup {
            return true;
        }
        self.keys.push(KeyRef { offset: key.offset(), len: key.raw().len(), escaped: key.is_escaped() });
        if self.keys.len() - base > LINEAR_KEYS {
            *many = Some(self.keys[base..].iter().map(|k| stored(k).decode().into_owned()).collect());
        }
        false
    }

    fn array(
        &mut self,
        items: Option<&'c Node>,
        spec: Option<&'c FieldSpec>,
        path: &Path<'_, 'a>,
        depth: usize,
    ) -> Result<(), Stop> {
        if depth >= MAX_DEPTH {
            return Err(Stop::Depth(path.render()));
        }
        self.s.array_start();
        let unique = spec.is_some_and(|s| s.constraints.unique_items);
        let mut spans: Vec<(usize, usize)> = Vec::new();
        let mut count = 0usize;
        while self.s.array_next(count == 0)? {
            let here = Path::Index(path, count);
            self.s.peek_kind()?;
            let start = self.s.offset();
            self.value(items, &here, depth + 1)?;
            if unique {
                spans.push((start, self.s.offset()));
            }
            count += 1;
        }
        let Some(spec) = spec else { return Ok(()) };
        let c = &spec.constraints;
        if let Some(min) = c.min_items.filter(|&m| (count as u64) < m) {
            self.error(rules::FIELD_MIN_ITEMS, path, format!("array has {count} items, fewer than minItems {min}"));
        }
        if let Some(max) = c.max_items.filter(|&m| (count as u64) > m) {
            self.error(rules::FIELD_MAX_ITEMS, path, format!("array has {count} items, more than maxItems {max}"));
        }
        if unique {
            if let Some((i, j)) = first_repeat(self.s.bytes(), &spans)? {
                self.error(rules::FIELD_UNIQUE_ITEMS, path, format!("items {i} and {j} are equal"));
            }
        }
        Ok(())
    }

    fn string(&mut self, spec: &FieldSpec, s: &Str<'a>, path: &Path<'_, '_>) {
        if let Some(values) = &spec.enum_values {
            let hit = values.iter().any(|e| matches!(e, Scalar::String(t) if s.eq_str(t)));
            if !hit {
                let msg = format!("value {} not in {}", quote(&s.decode(), QUOTE_MAX), enum_label(values));
                self.error(rules::FIELD_ENUM, path, msg);
            }
        }
        let c = &spec.constraints;
        if c.min_length.is_some() || c.max_length.is_some() {
            let len = s.char_count() as u64;
            if let Some(min) = c.min_length.filter(|&m| len < m) {
                self.error(rules::FIELD_MIN_LENGTH, path, format!("length {len} is less than minLength {min}"));
            }
            if let Some(max) = c.max_length.filter(|&m| len > m) {
                self.error(rules::FIELD_MAX_LENGTH, path, format!("length {len} is greater than maxLength {max}"));
            }
        }
        if let Some(p) = &c.pattern {
            if !p.matches(s) {
                let msg = format!(
                    "value {} does not match pattern {}",
                    quote(&s.decode(), QUOTE_MAX),
                    quote(p.source(), 200)
                );
                self.error(rules::FIELD_PATTERN, path, msg);
            }
        }
    }

    fn number(&mut self, spec: &FieldSpec, n: &Num<'a>, path: &Path<'_, '_>) {
        let v = n.dec();
        if let Some(values) = &spec.enum_values {
            if !in_number_enum(values, &v) {
                self.error(rules::FIELD_ENUM, path, format!("value {} not in {}", n.raw(), enum_label(values)));
            }
        }
        for (rule, bound, wording) in number_faults(&spec.constraints, &v).into_iter().flatten() {
            self.error(rule, path, format!("value {} {wording} {}", n.raw(), bound.raw()));
        }
    }
}

/// Whether a number is a member of an enum (by exact decimal value).
pub(crate) fn in_number_enum(values: &[Scalar], v: &Dec<'_>) -> bool {
    values.iter().any(|e| matches!(e, Scalar::Number(d) if d.dec().compare(v).is_eq()))
}

/// The bound and `multipleOf` rules a number breaks, in rule order: the
/// rule, its bound and how a message words it (shared with the one-pass
/// check in `fast.rs`).
pub(crate) fn number_faults<'c>(
    c: &'c Constraints,
    v: &Dec<'_>,
) -> [Option<(&'static Rule, &'c Decimal, &'static str)>; 5] {
    let bound = |b: &'c Option<Decimal>, breaks: fn(Ordering) -> bool, rule, wording| {
        b.as_ref().filter(|m| breaks(v.compare(&m.dec()))).map(|m| (rule, m, wording))
    };
    [
        bound(&c.minimum, Ordering::is_lt, rules::FIELD_MINIMUM, "is less than minimum"),
        bound(
            &c.exclusive_minimum,
            Ordering::is_le,
            rules::FIELD_EXCLUSIVE_MINIMUM,
            "is not greater than exclusiveMinimum",
        ),
        bound(&c.maximum, Ordering::is_gt, rules::FIELD_MAXIMUM, "is greater than maximum"),
        bound(
            &c.exclusive_maximum,
            Ordering::is_ge,
            rules::FIELD_EXCLUSIVE_MAXIMUM,
            "is not less than exclusiveMaximum",
        ),
        c.multiple_of
            .as_ref()
            .filter(|m| !v.is_multiple_of(&m.dec()))
            .map(|m| (rules::FIELD_MULTIPLE_OF, m, "is not a multiple of")),
    ]
}

#[inline]
fn same_key(a: &Str<'_>, b: &Str<'_>) -> bool {
    if !a.is_escaped() && !b.is_escaped() {
        a.raw() == b.raw()
    } else {
        a.decode() == b.decode()
    }
}

/// The first pair of equal elements (by JSON equality), in element order.
fn first_repeat(bytes: &[u8], spans: &[(usize, usize)]) -> Result<Option<(usize, usize)>, SyntaxError> {
    let mut first: HashMap<String, usize> = HashMap::with_capacity(spans.len());
    for (j, &(start, end)) in spans.iter().enumerate() {
        let mut canon = String::new();
        canonical(&mut Scanner::new(&bytes[start..end]), &mut canon)?;
        if let Some(&i) = first.get(&canon) {
            return Ok(Some((i, j)));
        }
        first.insert(canon, j);
    }
    Ok(None)
}

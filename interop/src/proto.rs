//! A small proto3 reader: enough of the language for A2A v1.0's
//! `a2a.proto` (its normative source, which publishes no JSON Schema), and
//! its translation into one JSON Schema 2020-12 document by the ProtoJSON
//! mapping. Pure: text in, model or [`serde_json::Value`] out.
//!
//! What is read: `syntax = "proto3"`, `package`, `import`, `option`
//! (skipped, aggregate values included), `message` (nested messages and
//! enums), `enum`, `oneof`, `map<K, V>`, the labels `repeated` and
//! `optional`, `reserved`, field options (`json_name`, `deprecated`,
//! `(google.api.field_behavior) = REQUIRED`; others skipped) and `service`
//! with its `rpc`s (`stream` on either side; method options skipped).
//! Comments (`//`, `/* */`) are dropped, so descriptions are not carried.
//! Anything else (`proto2`, editions, `extend`, groups) is a [`ProtoError`]
//! with its line and column, never a guess.
//!
//! The JSON Schema ([`json_schema`]) is what a ProtoJSON writer produces:
//!
//! - a message is an object with one property per field under its JSON name
//!   (`json_name`, else lowerCamelCase as `protoc` makes it: `context_id` ->
//!   `contextId`); `[(google.api.field_behavior) = REQUIRED]` fields are
//!   `required`; objects are open (ProtoJSON parsers may ignore unknown
//!   fields); a message is a `$defs` entry named by its name inside the
//!   package (`Outer.Inner` for a nested one), referenced by `$ref`;
//! - an enum is a string, one of its value names (`"TASK_STATE_WORKING"`);
//! - `repeated` is an array, `map<K, V>` an object whose values are `V`
//!   (integer keys spelt as decimal strings, `bool` keys `"true"`/`"false"`);
//! - `oneof`: at most one of its members is present, as
//!   `oneOf: [{required: [a]}, {required: [b]}, ..., {not: {anyOf: [{required: [a]}, {required: [b]}, ...]}}]`
//!   (several groups under `allOf`); proto3 never requires a `oneof`, so
//!   none present is accepted;
//! - scalars: `int32`/`sint32`/`sfixed32` integers within 32 bits, `uint32`/`fixed32`
//!   within 0..2^32, the 64-bit integers decimal strings (ProtoJSON writes
//!   them quoted), `float`/`double` numbers or `"NaN"`, `"Infinity"`,
//!   `"-Infinity"`, `bool` booleans, `string` strings, `bytes` base64
//!   strings (`contentEncoding`, not asserted);
//! - well-known types: `Struct` an object, `Value` any value, `ListValue`
//!   an array, `NullValue` null, `Timestamp` a `date-time` string, `Duration`
//!   a string such as `"1.5s"`, `Empty` an object, `FieldMask` a string, `Any`
//!   an object with a string `@type`, the wrappers their wrapped scalar.
//!
//! ProtoJSON parsers also accept spellings writers never produce (integers
//! quoted, enum numbers, `null` for a default): those are not accepted here.

use protocolarc_core::schema_keywords::name;
use std::collections::BTreeMap;
use std::fmt;

use serde_json::{json, Map, Value};

/// A proto file that cannot be read, or a reference that does not resolve.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProtoError {
    /// 1-based line of the offending token.
    pub line: usize,
    /// 1-based column (in characters) of the offending token.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ProtoError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.column, self.message)
    }
}

impl std::error::Error for ProtoError {}

/// A position in the proto text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Pos {
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
}

impl Pos {
    fn error(self, message: impl Into<String>) -> ProtoError {
        ProtoError { line: self.line, column: self.column, message: message.into() }
    }
}

/// A field's cardinality.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Label {
    /// No label: one value (absent means the default).
    Single,
    /// `optional`: one value with explicit presence (the same JSON).
    Optional,
    /// `repeated`: a list.
    Repeated,
}

/// A field's type as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FieldType {
    /// A scalar, a message or an enum, by the name written (`string`, `Task`, `google.protobuf.Struct`).
    Named(String),
    /// `map<K, V>`.
    Map(String, String),
}

/// One field of a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Field {
    /// The proto name (`context_id`).
    pub name: String,
    /// The JSON name (`contextId`, or the `json_name` option).
    pub json_name: String,
    /// The type.
    pub ty: FieldType,
    /// The label.
    pub label: Label,
    /// The field number.
    pub number: u64,
    /// `[(google.api.field_behavior) = REQUIRED]`.
    pub required: bool,
    /// `[deprecated = true]`.
    pub deprecated: bool,
    /// The `oneof` group the field belongs to.
    pub oneof: Option<String>,
    /// Where the field is declared.
    pub pos: Pos,
}

/// A message (nested ones are separate entries named `Outer.Inner`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    /// The name inside the package (`Outer.Inner`).
    pub name: String,
    /// The fields in declaration order.
    pub fields: Vec<Field>,
    /// The `oneof` group names in declaration order.
    pub oneofs: Vec<String>,
    /// Where the message is declared.
    pub pos: Pos,
}

/// An enum (nested ones are named `Outer.Inner`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Enum {
    /// The name inside the package.
    pub name: String,
    /// The value names and numbers in declaration order.
    pub values: Vec<(String, i64)>,
    /// Where the enum is declared.
    pub pos: Pos,
}

/// One rpc of a service.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rpc {
    /// The service name.
    pub service: String,
    /// The rpc name (`SendMessage`).
    pub name: String,
    /// The request type as written.
    pub input: String,
    /// The response type as written.
    pub output: String,
    /// `stream` before the request type.
    pub client_streaming: bool,
    /// `stream` before the response type.
    pub server_streaming: bool,
    /// Where the rpc is declared.
    pub pos: Pos,
}

/// A proto file.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ProtoFile {
    /// The package (`lf.a2a.v1`), empty when none is declared.
    pub package: String,
    /// The imports, as written.
    pub imports: Vec<String>,
    /// Every message, nested ones included, in declaration order.
    pub messages: Vec<Message>,
    /// Every enum, nested ones included, in declaration order.
    pub enums: Vec<Enum>,
    /// Every rpc of every service, in declaration order.
    pub rpcs: Vec<Rpc>,
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Ident(String),
    Int(String),
    Str(String),
    Sym(char),
}

impl fmt::Display for Tok {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tok::Ident(s) | Tok::Int(s) => write!(f, "'{s}'"),
            Tok::Str(s) => write!(f, "the string {s:?}"),
            Tok::Sym(c) => write!(f, "'{c}'"),
        }
    }
}

/// The tokens of `text`, comments dropped, each with its position.
fn tokens(text: &str) -> Result<Vec<(Tok, Pos)>, ProtoError> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let (mut i, mut line, mut column) = (0usize, 1usize, 1usize);
    let advance = |c: char, line: &mut usize, column: &mut usize| {
        if c == '\n' {
            *line += 1;
            *column = 1;
        } else {
            *column += 1;
        }
    };
    while i < chars.len() {
        let c = chars[i];
        let pos = Pos { line, column };
        if c.is_whitespace() {
            advance(c, &mut line, &mut column);
            i += 1;
        } else if c == '/' && chars.get(i + 1) == Some(&'/') {
            while i < chars.len() && chars[i] != '\n' {
                advance(chars[i], &mut line, &mut column);
                i += 1;
            }
        } else if c == '/' && chars.get(i + 1) == Some(&'*') {
            let mut closed = false;
            advance(c, &mut line, &mut column);
            advance('*', &mut line, &mut column);
            i += 2;
            while i < chars.len() {
                if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    advance('*', &mut line, &mut column);
                    advance('/', &mut line, &mut column);
                    i += 2;
                    closed = true;
                    break;
                }
                advance(chars[i], &mut line, &mut column);
                i += 1;
            }
            if !closed {
                return Err(pos.error("unterminated /* comment"));
            }
        } else if c.is_ascii_alphabetic()
            || c == '_'
            || c == '.' && chars.get(i + 1).is_some_and(|n| n.is_ascii_alphabetic())
        {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_' || chars[i] == '.') {
                advance(chars[i], &mut line, &mut column);
                i += 1;
            }
            out.push((Tok::Ident(chars[start..i].iter().collect()), pos));
        } else if c.is_ascii_digit() {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '.') {
                advance(chars[i], &mut line, &mut column);
                i += 1;
            }
            out.push((Tok::Int(chars[start..i].iter().collect()), pos));
        } else if c == '"' || c == '\'' {
            let mut s = String::new();
            advance(c, &mut line, &mut column);
            i += 1;
            loop {
                let Some(&d) = chars.get(i) else { return Err(pos.error("unterminated string")) };
                if d == '\n' {
                    return Err(pos.error("unterminated string"));
                }
                advance(d, &mut line, &mut column);
                i += 1;
                if d == c {
                    break;
                }
                if d == '\\' {
                    let Some(&e) = chars.get(i) else { return Err(pos.error("unterminated string")) };
                    advance(e, &mut line, &mut column);
                    i += 1;
                    s.push(match e {
                        'n' => '\n',
                        't' => '\t',
                        'r' => '\r',
                        other => other,
                    });
                } else {
                    s.push(d);
                }
            }
            out.push((Tok::Str(s), pos));
        } else if "{}[]()<>;=,:-+".contains(c) {
            advance(c, &mut line, &mut column);
            i += 1;
            out.push((Tok::Sym(c), pos));
        } else {
            return Err(pos.error(format!("unexpected character {c:?}")));
        }
    }
    Ok(out)
}

struct Parser {
    toks: Vec<(Tok, Pos)>,
    at: usize,
    end: Pos,
    file: ProtoFile,
}

impl Parser {
    fn pos(&self) -> Pos {
        self.toks.get(self.at).map(|t| t.1).unwrap_or(self.end)
    }

    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.at).map(|t| &t.0)
    }

    fn next(&mut self, what: &str) -> Result<(Tok, Pos), ProtoError> {
        match self.toks.get(self.at) {
            Some(t) => {
                self.at += 1;
                Ok(t.clone())
            }
            None => Err(self.end.error(format!("expected {what}, found the end of the file"))),
        }
    }

    fn unexpected(&self, what: &str) -> ProtoError {
        match self.toks.get(self.at) {
            Some((t, p)) => p.error(format!("expected {what}, found {t}")),
            None => self.end.error(format!("expected {what}, found the end of the file")),
        }
    }

    fn ident(&mut self, what: &str) -> Result<(String, Pos), ProtoError> {
        match self.peek() {
            Some(Tok::Ident(_)) => match self.next(what)? {
                (Tok::Ident(s), p) => Ok((s, p)),
                _ => unreachable!("peeked an identifier"),
            },
            _ => Err(self.unexpected(what)),
        }
    }

    fn sym(&mut self, c: char) -> Result<Pos, ProtoError> {
        if self.peek() == Some(&Tok::Sym(c)) {
            Ok(self.next("")?.1)
        } else {
            Err(self.unexpected(&format!("'{c}'")))
        }
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(&Tok::Sym(c)) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn eat_word(&mut self, w: &str) -> bool {
        if matches!(self.peek(), Some(Tok::Ident(s)) if s == w) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    /// An integer, with an optional sign.
    fn int(&mut self, what: &str) -> Result<(i64, Pos), ProtoError> {
        let pos = self.pos();
        let negative = self.eat('-');
        let (tok, p) = self.next(what)?;
        let Tok::Int(text) = tok else { return Err(p.error(format!("expected {what}, found {tok}"))) };
        let value = match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
            Some(hex) => i64::from_str_radix(hex, 16).ok(),
            None => text.parse::<i64>().ok(),
        };
        let Some(value) = value else { return Err(p.error(format!("expected {what}, found '{text}'"))) };
        Ok((if negative { -value } else { value }, pos))
    }

    /// A constant (identifier, number, string, or `{ ... }` aggregate),
    /// returned as text for identifiers and strings.
    fn constant(&mut self) -> Result<Option<String>, ProtoError> {
        match self.peek() {
            Some(Tok::Sym('{')) => {
                self.skip_block()?;
                Ok(None)
            }
            Some(Tok::Sym('-' | '+')) => {
                self.at += 1;
                self.constant()
            }
            Some(Tok::Ident(_) | Tok::Str(_) | Tok::Int(_)) => {
                let (tok, _) = self.next("a constant")?;
                match tok {
                    Tok::Ident(s) | Tok::Int(s) => Ok(Some(s)),
                    Tok::Str(mut s) => {
                        // Adjacent strings concatenate.
                        while let Some(Tok::Str(more)) = self.peek() {
                            s.push_str(more);
                            self.at += 1;
                        }
                        Ok(Some(s))
                    }
                    Tok::Sym(_) => unreachable!("peeked a constant"),
                }
            }
            _ => Err(self.unexpected("a constant")),
        }
    }

    /// Skips `{ ... }`, nested braces included.
    fn skip_block(&mut self) -> Result<(), ProtoError> {
        let open = self.sym('{')?;
        let mut depth = 1usize;
        while depth > 0 {
            let Some((tok, _)) = self.toks.get(self.at) else {
                return Err(open.error("this '{' is never closed"));
            };
            match tok {
                Tok::Sym('{') => depth += 1,
                Tok::Sym('}') => depth -= 1,
                _ => {}
            }
            self.at += 1;
        }
        Ok(())
    }

    /// An option name: `name`, `(full.name)`, `(full.name).sub`.
    fn option_name(&mut self) -> Result<String, ProtoError> {
        let mut name = String::new();
        if self.eat('(') {
            let (n, _) = self.ident("an option name")?;
            self.sym(')')?;
            name.push('(');
            name.push_str(&n);
            name.push(')');
            if let Some(Tok::Ident(rest)) = self.peek() {
                if rest.starts_with('.') {
                    name.push_str(rest);
                    self.at += 1;
                }
            }
        } else {
            name = self.ident("an option name")?.0;
        }
        Ok(name)
    }

    /// `option NAME = CONSTANT ;` after `option`.
    /// Inside a block: an empty statement (`;`) or an `option` statement,
    /// read and passed over; `false` when the next token is neither.
    fn empty_or_option(&mut self) -> Result<bool, ProtoError> {
        if self.eat(';') {
            return Ok(true);
        }
        if self.eat_word("option") {
            self.option_statement()?;
            return Ok(true);
        }
        Ok(false)
    }

    /// A `{ ... }` block: `each` on every statement in it that is not empty
    /// or an `option`, up to the closing `}`.
    fn block(&mut self, mut each: impl FnMut(&mut Self) -> Result<(), ProtoError>) -> Result<(), ProtoError> {
        self.sym('{')?;
        while !self.eat('}') {
            if !self.empty_or_option()? {
                each(self)?;
            }
        }
        Ok(())
    }

    fn option_statement(&mut self) -> Result<(), ProtoError> {
        self.option_name()?;
        self.sym('=')?;
        self.constant()?;
        self.sym(';')?;
        Ok(())
    }

    /// `reserved ... ;` / anything up to `;`.
    fn skip_statement(&mut self) -> Result<(), ProtoError> {
        let start = self.pos();
        loop {
            match self.toks.get(self.at) {
                None => return Err(start.error("this statement has no ';'")),
                Some((Tok::Sym(';'), _)) => {
                    self.at += 1;
                    return Ok(());
                }
                Some((Tok::Sym('{' | '}'), p)) => return Err(p.error("expected ';'")),
                _ => self.at += 1,
            }
        }
    }

    fn file(&mut self) -> Result<(), ProtoError> {
        let mut syntax = false;
        while let Some(tok) = self.peek().cloned() {
            let pos = self.pos();
            match tok {
                Tok::Sym(';') => self.at += 1,
                Tok::Ident(w) if w == "syntax" => {
                    self.at += 1;
                    self.sym('=')?;
                    let value = self.constant()?;
                    if value.as_deref() != Some("proto3") {
                        return Err(pos.error(format!(
                            "only proto3 is read, this file declares syntax {}",
                            value.unwrap_or_default()
                        )));
                    }
                    self.sym(';')?;
                    syntax = true;
                }
                Tok::Ident(w) if w == "edition" => {
                    return Err(pos.error("editions are not read, only syntax = \"proto3\""));
                }
                Tok::Ident(w) if w == "package" => {
                    self.at += 1;
                    self.file.package = self.ident("a package name")?.0;
                    self.sym(';')?;
                }
                Tok::Ident(w) if w == "import" => {
                    self.at += 1;
                    let _ = self.eat_word("public") || self.eat_word("weak");
                    match self.next("an import path")? {
                        (Tok::Str(s), _) => self.file.imports.push(s),
                        (t, p) => return Err(p.error(format!("expected an import path, found {t}"))),
                    }
                    self.sym(';')?;
                }
                Tok::Ident(w) if w == "option" => {
                    self.at += 1;
                    self.option_statement()?;
                }
                Tok::Ident(w) if w == "message" => {
                    self.at += 1;
                    self.message("")?;
                }
                // Protobuf spells its enum declaration like the JSON Schema keyword.
                Tok::Ident(w) if w == name::ENUM => {
                    self.at += 1;
                    self.enumeration("")?;
                }
                Tok::Ident(w) if w == "service" => {
                    self.at += 1;
                    self.service()?;
                }
                Tok::Ident(w) if w == "extend" => return Err(pos.error("'extend' is not read (proto3 custom options)")),
                _ => return Err(self.unexpected("syntax, package, import, option, message, enum or service")),
            }
        }
        if !syntax {
            return Err(Pos { line: 1, column: 1 }.error("no 'syntax = \"proto3\";' statement: only proto3 is read"));
        }
        Ok(())
    }

    fn message(&mut self, outer: &str) -> Result<(), ProtoError> {
        let (name, pos) = self.ident("a message name")?;
        let full = if outer.is_empty() { name } else { format!("{outer}.{name}") };
        if self.file.messages.iter().any(|m| m.name == full) || self.file.enums.iter().any(|e| e.name == full) {
            return Err(pos.error(format!("'{full}' is declared twice")));
        }
        let index = self.file.messages.len();
        self.file.messages.push(Message { name: full.clone(), fields: Vec::new(), oneofs: Vec::new(), pos });
        self.sym('{')?;
        loop {
            let Some(tok) = self.peek().cloned() else {
                return Err(pos.error(format!("message {full} is never closed")));
            };
            let at = self.pos();
            match tok {
                Tok::Sym('}') => {
                    self.at += 1;
                    break;
                }
                Tok::Sym(';') => self.at += 1,
                Tok::Ident(w) if w == "message" => {
                    self.at += 1;
                    self.message(&full)?;
                }
                // Protobuf spells its enum declaration like the JSON Schema keyword.
                Tok::Ident(w) if w == name::ENUM => {
                    self.at += 1;
                    self.enumeration(&full)?;
                }
                Tok::Ident(w) if w == "option" => {
                    self.at += 1;
                    self.option_statement()?;
                }
                Tok::Ident(w) if w == "reserved" => {
                    self.at += 1;
                    self.skip_statement()?;
                }
                Tok::Ident(w) if w == "oneof" => {
                    self.at += 1;
                    let (group, gpos) = self.ident("a oneof name")?;
                    if self.file.messages[index].oneofs.contains(&group) {
                        return Err(gpos.error(format!("oneof '{group}' is declared twice in {full}")));
                    }
                    self.file.messages[index].oneofs.push(group.clone());
                    self.block(|p| {
                        if matches!(p.peek(), Some(Tok::Ident(w)) if w == "repeated" || w == "optional" || w == "map") {
                            return Err(p.unexpected("a oneof member (no label, no map)"));
                        }
                        let field = p.field(Label::Single, Some(group.clone()))?;
                        p.push_field(index, field)
                    })?;
                }
                // proto2's `required` label is spelled like the JSON Schema keyword.
                Tok::Ident(w) if w == "extensions" || w == "extend" || w == "group" || w == name::REQUIRED => {
                    return Err(at.error(format!("'{w}' is not proto3")));
                }
                Tok::Ident(w) => {
                    let label = match w.as_str() {
                        "repeated" => Label::Repeated,
                        "optional" => Label::Optional,
                        _ => Label::Single,
                    };
                    if label != Label::Single {
                        self.at += 1;
                    }
                    let field = self.field(label, None)?;
                    self.push_field(index, field)?;
                }
                _ => return Err(self.unexpected("a field, message, enum, oneof, option, reserved or '}'")),
            }
        }
        Ok(())
    }

    fn push_field(&mut self, index: usize, field: Field) -> Result<(), ProtoError> {
        let m = &mut self.file.messages[index];
        if let Some(other) = m.fields.iter().find(|f| f.name == field.name || f.json_name == field.json_name) {
            return Err(field
                .pos
                .error(format!("field '{}' of {} clashes with field '{}'", field.name, m.name, other.name)));
        }
        if let Some(other) = m.fields.iter().find(|f| f.number == field.number) {
            return Err(field.pos.error(format!(
                "field '{}' of {} has the number {} of field '{}'",
                field.name, m.name, field.number, other.name
            )));
        }
        m.fields.push(field);
        Ok(())
    }

    /// `TYPE name = N [options];` or `map<K, V> name = N [options];`, after the label.
    fn field(&mut self, label: Label, oneof: Option<String>) -> Result<Field, ProtoError> {
        let pos = self.pos();
        let (type_name, _) = self.ident("a field type")?;
        let ty = if type_name == "map" && self.peek() == Some(&Tok::Sym('<')) {
            if label != Label::Single {
                return Err(pos.error("a map field takes no label"));
            }
            self.sym('<')?;
            let (k, kpos) = self.ident("a map key type")?;
            if !MAP_KEYS.contains(&k.as_str()) {
                return Err(kpos.error(format!("'{k}' cannot be a map key (an integer type, bool or string)")));
            }
            self.sym(',')?;
            let (v, _) = self.ident("a map value type")?;
            self.sym('>')?;
            FieldType::Map(k, v)
        } else {
            FieldType::Named(type_name)
        };
        let (name, _) = self.ident("a field name")?;
        self.sym('=')?;
        let (number, npos) = self.int("a field number")?;
        if !(1..=536_870_911).contains(&number) {
            return Err(npos.error(format!("field number {number} is out of range (1 to 536870911)")));
        }
        let mut field = Field {
            json_name: json_name(&name),
            name,
            ty,
            label,
            number: number as u64,
            required: false,
            deprecated: false,
            oneof,
            pos,
        };
        if self.eat('[') {
            loop {
                let option = self.option_name()?;
                self.sym('=')?;
                let value = self.constant()?;
                match (option.as_str(), value.as_deref()) {
                    ("json_name", Some(v)) => field.json_name = v.to_string(),
                    // The option carries over as the annotation of the same name.
                    (name::DEPRECATED, Some("true")) => field.deprecated = true,
                    ("(google.api.field_behavior)", Some("REQUIRED")) => field.required = true,
                    _ => {}
                }
                if self.eat(']') {
                    break;
                }
                self.sym(',')?;
            }
        }
        self.sym(';')?;
        Ok(field)
    }

    fn enumeration(&mut self, outer: &str) -> Result<(), ProtoError> {
        let (name, pos) = self.ident("an enum name")?;
        let full = if outer.is_empty() { name } else { format!("{outer}.{name}") };
        if self.file.messages.iter().any(|m| m.name == full) || self.file.enums.iter().any(|e| e.name == full) {
            return Err(pos.error(format!("'{full}' is declared twice")));
        }
        let mut values: Vec<(String, i64)> = Vec::new();
        self.block(|p| {
            if p.eat_word("reserved") {
                return p.skip_statement();
            }
            let (value, vpos) = p.ident("an enum value name or '}'")?;
            p.sym('=')?;
            let (number, _) = p.int("an enum value number")?;
            if p.eat('[') {
                loop {
                    p.option_name()?;
                    p.sym('=')?;
                    p.constant()?;
                    if p.eat(']') {
                        break;
                    }
                    p.sym(',')?;
                }
            }
            p.sym(';')?;
            if values.iter().any(|(v, _)| *v == value) {
                return Err(vpos.error(format!("enum value '{value}' is declared twice in {full}")));
            }
            values.push((value, number));
            Ok(())
        })?;
        if values.is_empty() {
            return Err(pos.error(format!("enum {full} has no value")));
        }
        self.file.enums.push(Enum { name: full, values, pos });
        Ok(())
    }

    fn service(&mut self) -> Result<(), ProtoError> {
        let (service, _) = self.ident("a service name")?;
        self.block(|p| {
            if !p.eat_word("rpc") {
                return Err(p.unexpected("'rpc', 'option' or '}'"));
            }
            let (name, pos) = p.ident("an rpc name")?;
            p.sym('(')?;
            let client_streaming = p.eat_word("stream");
            let (input, _) = p.ident("a request type")?;
            p.sym(')')?;
            if !p.eat_word("returns") {
                return Err(p.unexpected("'returns'"));
            }
            p.sym('(')?;
            let server_streaming = p.eat_word("stream");
            let (output, _) = p.ident("a response type")?;
            p.sym(')')?;
            if p.peek() == Some(&Tok::Sym('{')) {
                p.skip_block()?;
            } else {
                p.sym(';')?;
            }
            if p.file.rpcs.iter().any(|r| r.service == service && r.name == name) {
                return Err(pos.error(format!("rpc '{name}' is declared twice in {service}")));
            }
            p.file.rpcs.push(Rpc {
                service: service.clone(),
                name,
                input,
                output,
                client_streaming,
                server_streaming,
                pos,
            });
            Ok(())
        })
    }
}

const MAP_KEYS: &[&str] = &[
    "int32", "int64", "uint32", "uint64", "sint32", "sint64", "fixed32", "fixed64", "sfixed32", "sfixed64", "bool",
    "string",
];

/// The JSON name `protoc` gives a field: underscores dropped, the letter
/// after one upper-cased (`context_id` -> `contextId`, `oauth2_metadata_url`
/// -> `oauth2MetadataUrl`).
pub fn json_name(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut upper = false;
    for c in name.chars() {
        if c == '_' {
            upper = true;
        } else if upper {
            out.extend(c.to_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// Reads a proto3 file (see the module documentation for what is read).
pub fn parse(text: &str) -> Result<ProtoFile, ProtoError> {
    let toks = tokens(text)?;
    let end = match text.lines().count() {
        0 => Pos { line: 1, column: 1 },
        n => Pos { line: n, column: text.lines().last().map_or(0, |l| l.chars().count()) + 1 },
    };
    let mut p = Parser { toks, at: 0, end, file: ProtoFile::default() };
    p.file()?;
    Ok(p.file)
}

/// The JSON Schema of a scalar type (`None` when `name` is not a scalar).
pub fn scalar(name: &str) -> Option<Value> {
    Some(match name {
        "int32" | "sint32" | "sfixed32" => {
            json!({ (name::TYPE): "integer", (name::MINIMUM): -2_147_483_648i64, (name::MAXIMUM): 2_147_483_647i64 })
        }
        "uint32" | "fixed32" => {
            json!({ (name::TYPE): "integer", (name::MINIMUM): 0, (name::MAXIMUM): 4_294_967_295u64 })
        }
        "int64" | "sint64" | "sfixed64" => json!({ (name::TYPE): "string", (name::PATTERN): "^-?[0-9]+$" }),
        "uint64" | "fixed64" => json!({ (name::TYPE): "string", (name::PATTERN): "^[0-9]+$" }),
        "float" | "double" => {
            json!({ (name::ANY_OF): [ { (name::TYPE): "number" }, { (name::ENUM): ["NaN", "Infinity", "-Infinity"] } ] })
        }
        "bool" => json!({ (name::TYPE): "boolean" }),
        "string" => json!({ (name::TYPE): "string" }),
        "bytes" => json!({ (name::TYPE): "string", (name::CONTENT_ENCODING): "base64" }),
        _ => return None,
    })
}

/// The JSON Schema of a well-known type (`google.protobuf.Timestamp`, with
/// or without a leading `.`); `None` for another name.
pub fn well_known(name: &str) -> Option<Value> {
    let short = name.strip_prefix('.').unwrap_or(name).strip_prefix("google.protobuf.")?;
    Some(match short {
        "Struct" => json!({ (name::TYPE): "object" }),
        "Value" => json!({}),
        "ListValue" => json!({ (name::TYPE): "array" }),
        "NullValue" => json!({ (name::TYPE): "null" }),
        "Timestamp" => json!({ (name::TYPE): "string", (name::FORMAT): "date-time" }),
        "Duration" => json!({ (name::TYPE): "string", (name::PATTERN): "^-?[0-9]+(\\.[0-9]{1,9})?s$" }),
        "Empty" => json!({ (name::TYPE): "object" }),
        "FieldMask" => json!({ (name::TYPE): "string" }),
        "Any" => {
            json!({ (name::TYPE): "object", (name::REQUIRED): ["@type"], (name::PROPERTIES): { "@type": { (name::TYPE): "string" } } })
        }
        "DoubleValue" => scalar("double")?,
        "FloatValue" => scalar("float")?,
        "Int64Value" => scalar("int64")?,
        "UInt64Value" => scalar("uint64")?,
        "Int32Value" => scalar("int32")?,
        "UInt32Value" => scalar("uint32")?,
        "BoolValue" => scalar("bool")?,
        "StringValue" => scalar("string")?,
        "BytesValue" => scalar("bytes")?,
        _ => return None,
    })
}

/// What a type name written in `scope` (a message's full name, or `""` at
/// the top) denotes.
#[derive(Debug, Clone, PartialEq)]
pub enum Resolved {
    /// A message or enum of the file, by its name inside the package.
    Local(String),
    /// A scalar or well-known type, with its schema.
    Inline(Value),
}

impl ProtoFile {
    fn declares(&self, name: &str) -> bool {
        self.messages.iter().any(|m| m.name == name) || self.enums.iter().any(|e| e.name == name)
    }

    /// Resolves `name` as written in `scope`: a scalar; a well-known type;
    /// a fully qualified `.package.Name`; else the innermost enclosing scope
    /// that declares it (`Outer.Inner.Name`, `Outer.Name`, `Name`), the
    /// package prefix allowed.
    pub fn resolve(&self, scope: &str, name: &str) -> Option<Resolved> {
        if let Some(s) = scalar(name) {
            return Some(Resolved::Inline(s));
        }
        if let Some(s) = well_known(name) {
            return Some(Resolved::Inline(s));
        }
        let in_package = |n: &str| -> Option<String> {
            if self.package.is_empty() {
                Some(n.to_string())
            } else {
                n.strip_prefix(&self.package).and_then(|r| r.strip_prefix('.')).map(str::to_string)
            }
        };
        if let Some(full) = name.strip_prefix('.') {
            return in_package(full).filter(|n| self.declares(n)).map(Resolved::Local);
        }
        let mut scope = scope.to_string();
        loop {
            let candidate = if scope.is_empty() { name.to_string() } else { format!("{scope}.{name}") };
            if self.declares(&candidate) {
                return Some(Resolved::Local(candidate));
            }
            if scope.is_empty() {
                break;
            }
            scope = scope.rsplit_once('.').map(|(s, _)| s.to_string()).unwrap_or_default();
        }
        in_package(name).filter(|n| self.declares(n)).map(Resolved::Local)
    }

    /// The schema of a type reference: `$ref` to a local definition, or inline.
    pub fn reference(&self, scope: &str, name: &str, pos: Pos) -> Result<Value, ProtoError> {
        match self.resolve(scope, name) {
            Some(Resolved::Local(n)) => Ok(json!({ (name::REF): format!("#/$defs/{n}") })),
            Some(Resolved::Inline(v)) => Ok(v),
            None => Err(pos.error(format!("unknown type '{name}'{}", in_scope(scope)))),
        }
    }

    /// Whether `name`, written in `scope`, is a local message with a required field.
    pub fn has_required(&self, scope: &str, name: &str) -> bool {
        match self.resolve(scope, name) {
            Some(Resolved::Local(n)) => {
                self.messages.iter().any(|m| m.name == n && m.fields.iter().any(|f| f.required))
            }
            _ => false,
        }
    }
}

fn in_scope(scope: &str) -> String {
    if scope.is_empty() {
        String::new()
    } else {
        format!(" (in {scope})")
    }
}

/// The JSON Schema of one field's value.
fn field_schema(file: &ProtoFile, message: &Message, f: &Field) -> Result<Value, ProtoError> {
    let mut schema = match &f.ty {
        FieldType::Map(k, v) => {
            let mut m = Map::new();
            m.insert(name::TYPE.into(), "object".into());
            match k.as_str() {
                "string" => {}
                "bool" => {
                    m.insert(name::PROPERTY_NAMES.into(), json!({ (name::ENUM): ["true", "false"] }));
                }
                k if k.starts_with('u') || k.starts_with("fixed") => {
                    m.insert(name::PROPERTY_NAMES.into(), json!({ (name::PATTERN): "^[0-9]+$" }));
                }
                _ => {
                    m.insert(name::PROPERTY_NAMES.into(), json!({ (name::PATTERN): "^-?[0-9]+$" }));
                }
            }
            m.insert(name::ADDITIONAL_PROPERTIES.into(), file.reference(&message.name, v, f.pos)?);
            Value::Object(m)
        }
        FieldType::Named(t) => {
            let one = file.reference(&message.name, t, f.pos)?;
            if f.label == Label::Repeated {
                json!({ (name::TYPE): "array", (name::ITEMS): one })
            } else {
                one
            }
        }
    };
    if f.deprecated {
        if let Some(o) = schema.as_object_mut() {
            o.insert(name::DEPRECATED.into(), true.into());
        }
    }
    Ok(schema)
}

/// The JSON Schema of one message (see the module documentation).
pub fn message_schema(file: &ProtoFile, message: &Message) -> Result<Value, ProtoError> {
    let mut properties = Map::new();
    let mut required = Vec::new();
    for f in &message.fields {
        properties.insert(f.json_name.clone(), field_schema(file, message, f)?);
        if f.required {
            required.push(Value::String(f.json_name.clone()));
        }
    }
    let mut out = Map::new();
    out.insert(name::TYPE.into(), "object".into());
    out.insert(name::PROPERTIES.into(), Value::Object(properties));
    if !required.is_empty() {
        out.insert(name::REQUIRED.into(), Value::Array(required));
    }
    let mut groups = Vec::new();
    for group in &message.oneofs {
        let members: Vec<Value> = message
            .fields
            .iter()
            .filter(|f| f.oneof.as_deref() == Some(group))
            .map(|f| json!({ (name::REQUIRED): [f.json_name] }))
            .collect();
        if members.len() < 2 {
            continue;
        }
        let mut choices = members.clone();
        choices.push(json!({ (name::NOT): { (name::ANY_OF): members } }));
        groups.push(json!({ (name::ONE_OF): choices }));
    }
    match groups.len() {
        0 => {}
        1 => {
            if let Some(Value::Object(g)) = groups.pop() {
                out.extend(g);
            }
        }
        _ => {
            out.insert(name::ALL_OF.into(), Value::Array(groups));
        }
    }
    Ok(Value::Object(out))
}

/// The whole file as one JSON Schema 2020-12 document: a `$defs` entry per
/// message and per enum, named by its name inside the package, in name
/// order; no root schema. Every type reference must resolve.
pub fn json_schema(file: &ProtoFile) -> Result<Value, ProtoError> {
    let mut defs: BTreeMap<String, Value> = BTreeMap::new();
    for m in &file.messages {
        defs.insert(m.name.clone(), message_schema(file, m)?);
    }
    for e in &file.enums {
        let names: Vec<Value> = e.values.iter().map(|(n, _)| Value::String(n.clone())).collect();
        defs.insert(e.name.clone(), json!({ (name::TYPE): "string", (name::ENUM): names }));
    }
    for r in &file.rpcs {
        for t in [&r.input, &r.output] {
            file.reference("", t, r.pos)?;
        }
    }
    Ok(json!({
        (name::SCHEMA): "https://json-schema.org/draft/2020-12/schema",
        (name::DEFS): Value::Object(defs.into_iter().collect()),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: &str = r#"
// A comment with "quotes" and message words.
syntax = "proto3";
package ex.v1;

import "google/api/field_behavior.proto";
import "google/protobuf/struct.proto";
option go_package = "example.com/ex"; /* block
comment */

service Svc {
  rpc Send(SendRequest) returns (Reply) {
    option (google.api.http) = { post: "/send" body: "*" additional_bindings: { post: "/{t}/send" } };
  }
  rpc Watch(SendRequest) returns (stream Reply);
}

enum Role {
  ROLE_UNSPECIFIED = 0;
  ROLE_USER = 1;
}

message SendRequest {
  string tenant_id = 1;
  Reply.Part part = 2 [(google.api.field_behavior) = REQUIRED];
  repeated Role roles = 3;
  map<string, Reply.Part> parts_by_name = 4;
  optional int32 history_length = 5;
  google.protobuf.Struct metadata = 6 [json_name = "meta"];
  reserved 7, 8;
}

message Reply {
  message Part {
    oneof content {
      string text = 1;
      bytes raw = 2 [deprecated = true];
    }
    Kind kind = 3;
    enum Kind { KIND_UNSPECIFIED = 0; KIND_A = 1; }
  }
  .ex.v1.Role role = 1;
  map<int64, bool> flags = 2;
}
"#;

    #[test]
    fn json_names_are_protocs() {
        assert_eq!(json_name("context_id"), "contextId");
        assert_eq!(json_name("oauth2_metadata_url"), "oauth2MetadataUrl");
        assert_eq!(json_name("api_key_security_scheme"), "apiKeySecurityScheme");
        assert_eq!(json_name("id"), "id");
    }

    #[test]
    fn reads_the_small_file() {
        let f = parse(SMALL).unwrap();
        assert_eq!(f.package, "ex.v1");
        assert_eq!(f.imports, ["google/api/field_behavior.proto", "google/protobuf/struct.proto"]);
        let names: Vec<&str> = f.messages.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(names, ["SendRequest", "Reply", "Reply.Part"]);
        let enums: Vec<(&str, usize)> = f.enums.iter().map(|e| (e.name.as_str(), e.values.len())).collect();
        assert_eq!(enums, [("Role", 2), ("Reply.Part.Kind", 2)]);
        let rpcs: Vec<(&str, &str, &str, bool)> =
            f.rpcs.iter().map(|r| (r.name.as_str(), r.input.as_str(), r.output.as_str(), r.server_streaming)).collect();
        assert_eq!(rpcs, [("Send", "SendRequest", "Reply", false), ("Watch", "SendRequest", "Reply", true)]);
        assert_eq!(f.rpcs[0].pos, Pos { line: 12, column: 7 });
        let send = &f.messages[0];
        assert!(send.fields[1].required);
        assert_eq!(send.fields[4].label, Label::Optional);
        assert_eq!(send.fields[5].json_name, "meta");
        assert_eq!(f.messages[2].fields[1].oneof.as_deref(), Some("content"));
        assert!(f.messages[2].fields[1].deprecated);
    }

    #[test]
    fn the_schema_is_protojson() {
        let f = parse(SMALL).unwrap();
        let got = json_schema(&f).unwrap();
        let want = json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$defs": {
                "Reply": { "type": "object", "properties": {
                    "role": { "$ref": "#/$defs/Role" },
                    "flags": { "type": "object", "propertyNames": { "pattern": "^-?[0-9]+$" }, "additionalProperties": { "type": "boolean" } }
                } },
                "Reply.Part": {
                    "type": "object",
                    "properties": {
                        "text": { "type": "string" },
                        "raw": { "type": "string", "contentEncoding": "base64", "deprecated": true },
                        "kind": { "$ref": "#/$defs/Reply.Part.Kind" }
                    },
                    "oneOf": [
                        { "required": ["text"] },
                        { "required": ["raw"] },
                        { "not": { "anyOf": [ { "required": ["text"] }, { "required": ["raw"] } ] } }
                    ]
                },
                "Reply.Part.Kind": { "type": "string", "enum": ["KIND_UNSPECIFIED", "KIND_A"] },
                "Role": { "type": "string", "enum": ["ROLE_UNSPECIFIED", "ROLE_USER"] },
                "SendRequest": {
                    "type": "object",
                    "properties": {
                        "tenantId": { "type": "string" },
                        "part": { "$ref": "#/$defs/Reply.Part" },
                        "roles": { "type": "array", "items": { "$ref": "#/$defs/Role" } },
                        "partsByName": { "type": "object", "additionalProperties": { "$ref": "#/$defs/Reply.Part" } },
                        "historyLength": { "type": "integer", "minimum": -2147483648i64, "maximum": 2147483647 },
                        "meta": { "type": "object" }
                    },
                    "required": ["part"]
                }
            }
        });
        assert_eq!(got, want);
        assert!(f.has_required("", "SendRequest"));
        assert!(!f.has_required("", "Reply"));
        assert_eq!(f.resolve("", "google.protobuf.Empty"), Some(Resolved::Inline(json!({ "type": "object" }))));
        assert_eq!(f.resolve("Reply.Part", "Kind"), Some(Resolved::Local("Reply.Part.Kind".into())));
        assert_eq!(f.resolve("", "ex.v1.Reply"), Some(Resolved::Local("Reply".into())));
        assert_eq!(f.resolve("", "Kind"), None);
    }

    fn error(text: &str) -> String {
        match parse(text).and_then(|f| json_schema(&f)) {
            Ok(v) => panic!("no error: {v}"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn bad_input_is_a_positioned_error() {
        assert_eq!(error("syntax = \"proto2\";"), "1:1: only proto3 is read, this file declares syntax proto2");
        assert_eq!(error("message A {}"), "1:1: no 'syntax = \"proto3\";' statement: only proto3 is read");
        assert_eq!(
            error("syntax = \"proto3\";\nmessage A {\n  Missing m = 1;\n}"),
            "3:3: unknown type 'Missing' (in A)"
        );
        assert_eq!(error("syntax = \"proto3\";\nmessage A {\n  string s = 1\n}"), "4:1: expected ';', found '}'");
        assert_eq!(
            error("syntax = \"proto3\";\nmessage A { string a = 1; string b = 1; }"),
            "2:27: field 'b' of A has the number 1 of field 'a'"
        );
        assert_eq!(
            error("syntax = \"proto3\";\nmessage A { required string a = 1; }"),
            "2:13: 'required' is not proto3"
        );
        assert_eq!(error("syntax = \"proto3\";\nmessage A {"), "2:9: message A is never closed");
        assert_eq!(error("syntax = \"proto3\";\n/* open"), "2:1: unterminated /* comment");
        assert_eq!(
            error("syntax = \"proto3\";\nmessage A { map<float, string> m = 1; }"),
            "2:17: 'float' cannot be a map key (an integer type, bool or string)"
        );
        assert_eq!(
            error("syntax = \"proto3\";\nservice S { rpc F(A) returns (B); }\nmessage A {}"),
            "2:17: unknown type 'B'"
        );
        assert_eq!(error("syntax = \"proto3\";\n@"), "2:1: unexpected character '@'");
        assert_eq!(
            error("syntax = \"proto3\";\nmessage A { string a = 0; }"),
            "2:24: field number 0 is out of range (1 to 536870911)"
        );
    }
}

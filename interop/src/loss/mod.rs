//! Loss across formats (SPEC §13): what a tool's input contract loses on
//! its way into another tool format.
//!
//! A projection into a target format is a contract too. The tool's schema
//! is projected into the target's dialect (`dialect.rs` reads the tables in
//! `interop/dialects/`, `project.rs` carries out their actions), read back as
//! JSON Schema, and the loss **is** the compatibility engine's diff from the
//! original to what the target keeps, request direction: a relaxation is a
//! check the target lets through (`major`, proved by a witness body the
//! projection accepts and the original rejects), a narrowing is a body the
//! tool accepts and the target refuses (`minor`), a dropped annotation is
//! `minor`, and a target with nowhere to put a schema (A2A) is a `blocker`.

mod dialect;
mod project;

use protocolarc_core::schema_keywords::name;
use std::fmt;

use serde_json::{json, Value};

pub use crate::written::{as_written, schema_text};
pub use dialect::{tables, Action, Dialect, Format, Row, Source};
pub use project::MAX_PROJECTED_NODES;

use crate::chain::CheckRule;
use crate::contract::{ContractDirection, ContractSpec};
use crate::diff::{self, Impact};

/// The field of a loss that concerns the whole tool.
pub const TOOL_FIELD: &str = crate::diff::CONTRACT_FIELD;

/// The record of a blocker: the target has no input schema at all.
pub const SCHEMA_ABSENT_RULE: &CheckRule = &CheckRule {
    id: "loss.schema.absent",
    summary: "the target format has nowhere to put an input schema: the tool's whole input contract is lost (blocker)",
    explanation: "Some formats describe a tool without any schema for its input: an A2A agent skill has an id, a \
                  name, a description, tags, examples and media types, and no member that holds a JSON Schema. \
                  Whatever the tool checks, a peer reading only that format can send anything. The witness is \
                  a body the tool rejects, which the target has no way to refuse.",
    example: "`cargo protocolarc loss tools.json --to a2a`: one blocker per tool.",
    fix: "Keep the contract beside the skill (an extension or a link to the tool's schema), or validate the \
          input where the tool runs; no projection into the format itself can carry it.",
};
/// The record of a dropped annotation (`description`, `title`, `examples`).
pub const ANNOTATION_DROPPED_RULE: &CheckRule = &CheckRule {
    id: "loss.annotation.dropped",
    summary: "an annotation (description, title, examples) does not cross into the target format (minor)",
    explanation: "Annotations reject nothing, but a model chooses tools and fills arguments from them: a \
                  description or title the target has no member for, or examples beyond the one it keeps, are \
                  gone on the other side. Checks the target lets through are the compatibility engine's rules \
                  (`field.pattern.relaxed`, ...), with witnesses.",
    example: "An MCP tool's `title` sent to OpenAI function calling, which has no title member.",
    fix: "Fold what matters into the description the target keeps.",
};
/// The rule id of a blocker.
pub const SCHEMA_ABSENT: &str = SCHEMA_ABSENT_RULE.id;
/// The rule id of a dropped annotation.
pub const ANNOTATION_DROPPED: &str = ANNOTATION_DROPPED_RULE.id;
/// The records of the rules only `loss` reports (the rest are change rules).
pub const LOSS_RULES: &[&CheckRule] = &[SCHEMA_ABSENT_RULE, ANNOTATION_DROPPED_RULE];

/// How much a loss costs, worst last.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// An annotation (a description, a title, a default, examples), or a
    /// narrowing: the target refuses some input the tool accepts, but lets
    /// no bad input through.
    Minor,
    /// A check that rejects bad input is gone: required, type, enum, const,
    /// bounds, lengths, pattern, closed objects, union tags, format.
    Major,
    /// The target cannot carry the tool's input contract at all.
    Blocker,
}

impl Severity {
    /// `minor` / `major` / `blocker`.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Minor => "minor",
            Severity::Major => "major",
            Severity::Blocker => "blocker",
        }
    }

    /// The severity of a `--fail-on` name.
    pub fn parse(name: &str) -> Option<Severity> {
        [Severity::Minor, Severity::Major, Severity::Blocker].into_iter().find(|s| s.as_str() == name)
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How a loss came about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// The target lets through input the tool rejects.
    Relaxed,
    /// The target refuses input the tool accepts.
    Narrowed,
    /// An annotation is gone.
    Annotation,
    /// Nothing of the input contract crosses.
    Absent,
}

impl Kind {
    /// `relaxed` / `narrowed` / `annotation` / `absent`.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Relaxed => "relaxed",
            Kind::Narrowed => "narrowed",
            Kind::Annotation => "annotation",
            Kind::Absent => "absent",
        }
    }
}

/// One thing the target does not keep.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Loss {
    /// How much it costs.
    pub severity: Severity,
    /// How it came about.
    pub kind: Kind,
    /// The compatibility rule that found it (`field.pattern.relaxed`), or
    /// [`SCHEMA_ABSENT`] / [`ANNOTATION_DROPPED`].
    pub rule: String,
    /// The field path (`params.query`, `tags[]`), or [`TOOL_FIELD`].
    pub field: String,
    /// What was lost, in one sentence.
    pub message: String,
    /// For a relaxation: an argument body (compact JSON) the target
    /// accepts and the original tool rejects, checked with both validators.
    pub witness: Option<String>,
}

/// A tool's input contract, as one hop hands it to the next.
#[derive(Debug, Clone, PartialEq)]
pub struct Tool {
    /// The contract name.
    pub name: String,
    /// The contract revision.
    pub revision: String,
    /// The tool's title.
    pub title: Option<String>,
    /// The tool's description.
    pub doc: Option<String>,
    /// Its input schema (JSON Schema 2020-12); `None` once a hop had nowhere
    /// to put it.
    pub schema: Option<Value>,
}

impl Tool {
    /// The tool a contract describes: a schema-form contract's schema read
    /// from the contract's own text (`bytes`, the file `spec` was loaded
    /// from), every number as written; a fields-form contract's exported
    /// JSON Schema.
    pub fn from_contract(bytes: &[u8], spec: &ContractSpec) -> Result<Tool, LossError> {
        let refused = |message: String| LossError { tool: spec.name().to_string(), message };
        let schema = match spec.schema() {
            Some(_) => {
                let tree = crate::json::tree::parse(bytes).map_err(|e| refused(e.message))?;
                let crate::json::tree::Value::Object(members) = &tree.value else {
                    return Err(refused("not a contract object".into()));
                };
                let node = members
                    .iter()
                    .find(|(k, _)| k.name == "schema")
                    .map(|(_, v)| v)
                    .ok_or_else(|| refused("the contract has no schema".into()))?;
                crate::written::from_tree(node).map_err(|at| {
                    let (line, column) = crate::json::scan::line_col(bytes, at);
                    refused(format!("{line}:{column}: a string holding U+0000 then 'protocolarc-number:' cannot cross"))
                })?
            }
            None => {
                let mut s = crate::export::from_spec(spec).schema();
                if let Value::Object(m) = &mut s {
                    m.remove(name::SCHEMA);
                }
                s
            }
        };
        Ok(Tool {
            name: spec.name().to_string(),
            revision: spec.revision().to_string(),
            title: spec.title().map(str::to_string),
            doc: spec.doc().map(str::to_string),
            schema: Some(schema),
        })
    }

    fn spec(&self, schema: &Value) -> Result<ContractSpec, LossError> {
        let doc = json!({ "name": self.name, "revision": self.revision, "direction": "request", "schema": schema });
        let origin = format!("{} (projected)", self.name);
        ContractSpec::from_slice(schema_text(&doc).as_bytes(), &origin)
            .map_err(|e| LossError { tool: self.name.clone(), message: format!("the projection does not load: {e}") })
    }
}

/// A tool that cannot be carried: a projection that does not load as a
/// contract (a dialect action that wrote a schema the engine refuses), one
/// past its size budget, or a schema that cannot be read as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LossError {
    /// The tool.
    pub tool: String,
    /// Why.
    pub message: String,
}

impl fmt::Display for LossError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.tool, self.message)
    }
}

impl std::error::Error for LossError {}

/// What a hop did with the tool it was given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// The target carries a schema; the losses say what it dropped.
    Carried,
    /// The target has nowhere to put an input schema: the contract is gone.
    Destroyed,
    /// An earlier hop (its 1-based number) destroyed the contract: this hop
    /// was handed nothing and has nothing to lose. Not a clean hop.
    NothingLeft(usize),
}

/// One crossing into one format.
#[derive(Debug, Clone, PartialEq)]
pub struct Hop {
    /// The target.
    pub format: Format,
    /// What became of the contract.
    pub status: Status,
    /// Every loss, worst first, then by field and rule.
    pub losses: Vec<Loss>,
    /// The tool definition as the target receives it (`null` when nothing
    /// was left to send).
    pub artifact: Value,
    /// What the target keeps, for the next hop.
    pub kept: Tool,
}

impl Hop {
    /// How many losses have each severity: (blocker, major, minor).
    pub fn counts(&self) -> (usize, usize, usize) {
        counts(&self.losses)
    }
}

/// (blocker, major, minor) counts.
pub fn counts(losses: &[Loss]) -> (usize, usize, usize) {
    let n = |s| losses.iter().filter(|l| l.severity == s).count();
    (n(Severity::Blocker), n(Severity::Major), n(Severity::Minor))
}

/// A tool carried through one or more formats.
#[derive(Debug, Clone, PartialEq)]
pub struct Path {
    /// The tool as it started.
    pub tool: Tool,
    /// Each hop, in order.
    pub hops: Vec<Hop>,
    /// What the whole path lost: the original against what the last hop
    /// keeps (the one hop's losses when the path has one hop).
    pub overall: Vec<Loss>,
}

/// Carries `tool` into `format`.
pub fn hop(tool: &Tool, format: Format) -> Result<Hop, LossError> {
    let dialect = format.dialect();
    let Some(schema) = &tool.schema else {
        return Ok(Hop {
            format,
            status: Status::NothingLeft(0),
            losses: Vec::new(),
            artifact: Value::Null,
            kept: tool.clone(),
        });
    };
    let mut losses = Vec::new();
    if !dialect.carries_schema {
        let witness = witness_against_anything(tool, schema)?;
        losses.push(Loss {
            severity: Severity::Blocker,
            kind: Kind::Absent,
            rule: SCHEMA_ABSENT.into(),
            field: TOOL_FIELD.into(),
            message: format!(
                "{} has nowhere to put an input schema ({}): the tool's whole input contract is lost",
                dialect.title, dialect.others.why
            ),
            witness,
        });
        let kept = Tool { schema: None, title: None, ..tool.clone() };
        return Ok(Hop { format, status: Status::Destroyed, artifact: artifact(tool, format, None), losses, kept });
    }
    let projected =
        project::project(schema, dialect).map_err(|message| LossError { tool: tool.name.clone(), message })?;
    let back = project::reimport(&projected.native, format);
    let mut annotations: Vec<Loss> = projected
        .dropped
        .into_iter()
        .map(|d| Loss {
            severity: Severity::Minor,
            kind: Kind::Annotation,
            rule: ANNOTATION_DROPPED.into(),
            field: d.field,
            message: d.message,
            witness: None,
        })
        .collect();
    let carries_title = matches!(format, Format::Mcp);
    if tool.title.is_some() && !carries_title {
        annotations.push(Loss {
            severity: Severity::Minor,
            kind: Kind::Annotation,
            rule: ANNOTATION_DROPPED.into(),
            field: TOOL_FIELD.into(),
            message: format!("the tool's title dropped ({} has no title member)", format),
            witness: None,
        });
    }
    losses.extend(compare(tool, schema, &back)?);
    losses.extend(annotations);
    sort(&mut losses);
    let kept =
        Tool { schema: Some(back), title: if carries_title { tool.title.clone() } else { None }, ..tool.clone() };
    Ok(Hop { format, status: Status::Carried, artifact: artifact(tool, format, Some(&projected.native)), losses, kept })
}

/// Carries `tool` through `formats` in order, each hop handed what the
/// previous one kept.
pub fn path(tool: &Tool, formats: &[Format]) -> Result<Path, LossError> {
    let mut hops: Vec<Hop> = Vec::new();
    let mut current = tool.clone();
    let mut destroyed_at = None;
    for (i, f) in formats.iter().enumerate() {
        let mut h = hop(&current, *f)?;
        if let (Status::NothingLeft(_), Some(at)) = (h.status, destroyed_at) {
            h.status = Status::NothingLeft(at);
        }
        if h.status == Status::Destroyed {
            destroyed_at = Some(i + 1);
        }
        current = h.kept.clone();
        hops.push(h);
    }
    let overall = match (hops.len(), destroyed_at) {
        (1, _) => hops[0].losses.clone(),
        (_, Some(at)) => hops[at - 1].losses.iter().filter(|l| l.severity == Severity::Blocker).cloned().collect(),
        _ => {
            let mut all = match (&tool.schema, &current.schema) {
                (Some(a), Some(b)) => compare(tool, a, b)?,
                _ => Vec::new(),
            };
            // Annotations lost on any hop are lost for the whole path.
            for h in &hops {
                for l in &h.losses {
                    if l.kind == Kind::Annotation && !all.contains(l) {
                        all.push(l.clone());
                    }
                }
            }
            sort(&mut all);
            all
        }
    };
    Ok(Path { tool: tool.clone(), hops, overall })
}

fn sort(losses: &mut Vec<Loss>) {
    losses
        .sort_by(|a, b| (b.severity, &a.field, &a.rule, &a.message).cmp(&(a.severity, &b.field, &b.rule, &b.message)));
    losses.dedup();
}

/// The compatibility engine's changes from `from` to `to`, as losses: a
/// relaxation is `major` with its witness (a body `to` accepts and `from`
/// rejects), a narrowing `minor`, a changed default `minor`.
fn compare(tool: &Tool, from: &Value, to: &Value) -> Result<Vec<Loss>, LossError> {
    let old = tool.spec(from)?;
    let new = tool.spec(to)?;
    // Judged as the response direction mirrors it: the witness of a
    // relaxation is then a body the new revision accepts and the old one
    // rejects, which is what a loss needs.
    let d = diff::diff_in(&old, &new, ContractDirection::Response)
        .map_err(|e| LossError { tool: tool.name.clone(), message: e.to_string() })?;
    let mut out = Vec::new();
    for c in d.changes() {
        let rec = c.record();
        let (severity, kind) = if rec.id == diff::rules::DEFAULT_CHANGED.id {
            (Severity::Minor, Kind::Annotation)
        } else if rec.response == Impact::Breaking {
            (Severity::Major, Kind::Relaxed)
        } else if rec.impact == Impact::Breaking {
            (Severity::Minor, Kind::Narrowed)
        } else {
            continue;
        };
        let witness = match (kind, c.witness_direction(), c.witness()) {
            (Kind::Relaxed, Some(ContractDirection::Response), Some(w)) => Some(w.to_string()),
            // The engine proves a change by the rule it names; a loss needs
            // only a body the target accepts and the tool rejects.
            (Kind::Relaxed, _, _) => diff::any_witness(&new, &old, c.field()),
            _ => None,
        };
        let mut message = c.message().trim_end_matches(" (no witness found)").to_string();
        // A relaxation no body shows (`oneOf` sent as `anyOf` over members
        // no value passes twice) lets nothing through that can be named.
        let severity = if kind == Kind::Relaxed && witness.is_none() {
            message.push_str(" (no body shows it: unproven, so not counted as a lost check)");
            Severity::Minor
        } else {
            severity
        };
        out.push(Loss { severity, kind, rule: rec.id.to_string(), field: c.field().to_string(), message, witness });
    }
    Ok(out)
}

/// A body a target with no schema lets through and the tool rejects: the
/// witness of the first relaxation from the tool to the empty schema.
fn witness_against_anything(tool: &Tool, schema: &Value) -> Result<Option<String>, LossError> {
    let anything = json!({});
    Ok(compare(tool, schema, &anything)?.into_iter().find_map(|l| l.witness))
}

/// The tool definition as `format` writes it.
fn artifact(tool: &Tool, format: Format, schema: Option<&Value>) -> Value {
    let name = crate::import::file_stem(&tool.name);
    let schema = schema.cloned().unwrap_or(Value::Null);
    let mut a = match format {
        Format::Mcp => json!({ "name": tool.name, "inputSchema": schema }),
        // OpenAI's tool object tags its kind under the key JSON Schema calls `type`.
        Format::OpenAi => json!({ (name::TYPE): "function", "function": { "name": name, "parameters": schema } }),
        Format::OpenAiStrict => {
            json!({ (name::TYPE): "function", "function": { "name": name, "parameters": schema, "strict": true } })
        }
        Format::Anthropic => json!({ "name": name, "input_schema": schema }),
        Format::Gemini => json!({ "name": name, "parameters": schema }),
        Format::A2a => json!({
            "id": tool.name,
            "name": tool.title.clone().unwrap_or_else(|| tool.name.clone()),
            "tags": [],
            "inputModes": ["application/json"],
            "outputModes": ["application/json"],
        }),
    };
    if let Some(doc) = &tool.doc {
        let target = match format {
            Format::OpenAi | Format::OpenAiStrict => a.pointer_mut("/function"),
            _ => Some(&mut a),
        };
        if let Some(Value::Object(m)) = target {
            m.insert(name::DESCRIPTION.into(), Value::String(doc.clone()));
        }
    }
    if let (Format::Mcp, Some(title)) = (format, &tool.title) {
        a[name::TITLE] = Value::String(title.clone());
    }
    a
}

#[cfg(test)]
mod tests;

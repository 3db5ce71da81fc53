//! The dialect tables (`interop/dialects/*.json`): for each target format and
//! revision, what happens to each JSON Schema keyword on the way in, each
//! row citing the vendor document it comes from. The tables are data; the
//! actions they name are the closed set [`Action`], applied by `project.rs`.

use std::collections::BTreeMap;

use protocolarc_core::schema_keywords;
use serde::Deserialize;

/// A target format of `loss` (SPEC §13).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Format {
    /// MCP `Tool.inputSchema`: the identity.
    Mcp,
    /// OpenAI function calling, `strict` off.
    OpenAi,
    /// OpenAI function calling, `strict: true`.
    OpenAiStrict,
    /// Anthropic tool use, `input_schema`.
    Anthropic,
    /// Gemini function declarations, `parameters`.
    Gemini,
    /// A2A agent skills: no schema at all.
    A2a,
}

impl Format {
    /// Every format, in the order reports list them.
    pub const ALL: [Format; 6] =
        [Format::Mcp, Format::OpenAi, Format::OpenAiStrict, Format::Anthropic, Format::Gemini, Format::A2a];

    /// The name on the command line: `mcp`, `openai`, `openai-strict`,
    /// `anthropic`, `gemini`, `a2a`.
    pub fn as_str(self) -> &'static str {
        match self {
            Format::Mcp => "mcp",
            Format::OpenAi => "openai",
            Format::OpenAiStrict => "openai-strict",
            Format::Anthropic => "anthropic",
            Format::Gemini => "gemini",
            Format::A2a => "a2a",
        }
    }

    /// The format of a command-line name.
    pub fn parse(name: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.as_str() == name)
    }

    /// The format's dialect table.
    pub fn dialect(self) -> &'static Dialect {
        &tables()[self as usize]
    }
}

impl std::fmt::Display for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What a target does with one keyword.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// Carried as written.
    Keep,
    /// Not carried.
    Drop,
    /// Carried under another keyword (`oneOf` sent as `anyOf`).
    Rename(String),
    /// Carried only for these values (the formats a target knows).
    FormatValues(Vec<String>),
    /// An enum carried only when every value is a string.
    EnumStrings,
    /// A `const` carried as a one-value `enum` (then judged as an enum).
    ConstAsEnum,
    /// A `$ref` replaced by its definition, written in place (a recursive
    /// reference cannot be, and becomes the empty schema).
    Inline,
    /// Every object closed: `additionalProperties: false`, whatever it was.
    Close,
    /// Every property required; an optional one may be `null` instead.
    RequireAllNullable,
    /// `type` as one name: `["T", "null"]` becomes `T` with `nullable`,
    /// several names an `anyOf` of one each.
    Nullable,
    /// `examples` carried as the one `example` (its first value).
    FirstExample,
}

/// Where a row comes from.
#[derive(Debug, Clone, Deserialize, PartialEq, Eq)]
pub struct Source {
    /// The vendor document's title.
    pub title: String,
    /// Where it is published.
    pub url: String,
    /// The document's date (or revision month).
    pub date: String,
    /// When and through what it was read.
    pub read: String,
}

/// One keyword row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// The JSON Schema keyword (`others` for the table's last row).
    pub keyword: String,
    /// What happens to it.
    pub action: Action,
    /// The key of its source in [`Dialect::sources`].
    pub source: String,
    /// The vendor's rule, in a few words.
    pub why: String,
}

/// One target format's table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dialect {
    /// The format.
    pub format: Format,
    /// The format revision the table describes.
    pub revision: String,
    /// What the target is, in a few words.
    pub title: String,
    /// Whether the target has anywhere to put an input schema.
    pub carries_schema: bool,
    /// The documents the rows cite, by key.
    pub sources: BTreeMap<String, Source>,
    /// The root rule: the `type` the root must have, with its source.
    pub root: Row,
    /// One row per keyword the table names.
    pub rows: Vec<Row>,
    /// The row for every keyword not named.
    pub others: Row,
}

impl Dialect {
    /// The action for `keyword`.
    pub fn action(&self, keyword: &str) -> &Action {
        self.rows.iter().find(|r| r.keyword == keyword).map(|r| &r.action).unwrap_or(&self.others.action)
    }

    /// Whether any row applies `action` (the whole-object actions, such
    /// as [`Action::Close`], apply to every object, named or not).
    pub fn has(&self, action: &Action) -> bool {
        self.rows.iter().any(|r| &r.action == action)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRow {
    keyword: Option<String>,
    action: Option<String>,
    /// The root row's `type`.
    r#type: Option<String>,
    values: Option<Vec<String>>,
    source: String,
    why: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDialect {
    format: String,
    revision: String,
    title: String,
    #[allow(dead_code)]
    artifact: String,
    carries_schema: bool,
    sources: BTreeMap<String, Source>,
    root: RawRow,
    keywords: Vec<RawRow>,
    others: RawRow,
}

const TABLES: [&str; 6] = [
    include_str!("../../dialects/mcp.json"),
    include_str!("../../dialects/openai.json"),
    include_str!("../../dialects/openai-strict.json"),
    include_str!("../../dialects/anthropic.json"),
    include_str!("../../dialects/gemini.json"),
    include_str!("../../dialects/a2a.json"),
];

/// Every table, in [`Format::ALL`] order, read once.
pub fn tables() -> &'static [Dialect] {
    static TABLES_READ: std::sync::OnceLock<Vec<Dialect>> = std::sync::OnceLock::new();
    TABLES_READ.get_or_init(|| {
        Format::ALL
            .iter()
            .zip(TABLES)
            .map(|(f, text)| read(*f, text).unwrap_or_else(|e| panic!("dialects/{}.json: {e}", f.as_str())))
            .collect()
    })
}

/// Reads one table, checking that it names its format, that every row
/// cites a listed source and names a known action.
fn read(format: Format, text: &str) -> Result<Dialect, String> {
    let raw: RawDialect = serde_json::from_str(text).map_err(|e| e.to_string())?;
    if raw.format != format.as_str() {
        return Err(format!("names the format '{}'", raw.format));
    }
    let row = |r: RawRow, keyword: &str| -> Result<Row, String> {
        if !raw.sources.contains_key(&r.source) {
            return Err(format!("row '{keyword}' cites '{}', which `sources` does not list", r.source));
        }
        let action = match (r.action.as_deref(), r.values) {
            (None, None) => Action::Keep,
            (Some("keep"), None) => Action::Keep,
            (Some("drop"), None) => Action::Drop,
            (Some("format-values"), Some(v)) => Action::FormatValues(v),
            (Some("enum-strings"), None) => Action::EnumStrings,
            (Some("const-as-enum"), None) => Action::ConstAsEnum,
            (Some("inline"), None) => Action::Inline,
            (Some("close"), None) => Action::Close,
            (Some("require-all-nullable"), None) => Action::RequireAllNullable,
            (Some("nullable"), None) => Action::Nullable,
            (Some("first-example"), None) => Action::FirstExample,
            (Some(a), None) if a.starts_with("rename:") => Action::Rename(a["rename:".len()..].to_string()),
            (a, _) => return Err(format!("row '{keyword}' has an unknown action {a:?} (or values it cannot take)")),
        };
        Ok(Row { keyword: r.keyword.unwrap_or_else(|| keyword.to_string()), action, source: r.source, why: r.why })
    };
    let root_type = raw.root.r#type.clone();
    if root_type.as_deref() != Some("object") {
        return Err("the root row must say \"type\": \"object\"".into());
    }
    let mut rows = Vec::new();
    for r in raw.keywords {
        let keyword = r.keyword.clone().ok_or("a keyword row without \"keyword\"")?;
        if schema_keywords::find(&keyword).is_none() {
            return Err(format!("row '{keyword}' names no JSON Schema keyword the product knows"));
        }
        if rows.iter().any(|x: &Row| x.keyword == keyword) {
            return Err(format!("keyword '{keyword}' has two rows"));
        }
        rows.push(row(r, &keyword)?);
    }
    Ok(Dialect {
        format,
        revision: raw.revision,
        title: raw.title,
        carries_schema: raw.carries_schema,
        root: row(raw.root, "root")?,
        others: row(raw.others, "others")?,
        sources: raw.sources,
        rows,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_table_reads_and_cites_its_sources() {
        for d in tables() {
            assert!(!d.sources.is_empty(), "{}", d.format);
            for r in d.rows.iter().chain([&d.root, &d.others]) {
                assert!(d.sources.contains_key(&r.source), "{} {}", d.format, r.keyword);
            }
        }
        assert_eq!(Format::OpenAiStrict.dialect().action("minLength"), &Action::Drop);
        assert_eq!(Format::Gemini.dialect().action("oneOf"), &Action::Rename("anyOf".into()));
        assert_eq!(Format::Mcp.dialect().action("anything"), &Action::Keep);
    }

    #[test]
    fn a_row_citing_an_unlisted_source_is_refused() {
        let text = Format::Mcp.dialect();
        assert!(text.carries_schema);
        let bad = include_str!("../../dialects/mcp.json").replace(
            "\"source\": \"mcp-schema\", \"why\": \"inputSchema is JSON",
            "\"source\": \"nowhere\", \"why\": \"inputSchema is JSON",
        );
        assert_eq!(read(Format::Mcp, &bad).unwrap_err(), "row 'others' cites 'nowhere', which `sources` does not list");
    }

    #[test]
    fn a_row_naming_no_keyword_the_registry_knows_is_refused() {
        let text = include_str!("../../dialects/gemini.json");
        assert!(read(Format::Gemini, text).is_ok());
        let bad = text.replacen("\"keyword\": \"oneOf\"", "\"keyword\": \"oneof\"", 1);
        assert_ne!(bad, text);
        assert_eq!(
            read(Format::Gemini, &bad).unwrap_err(),
            "row 'oneof' names no JSON Schema keyword the product knows"
        );
    }
}

//! The arguments and help of `loss`.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use super::DiffFormat;

/// The long help of `loss`.
pub(crate) const ABOUT: &str = "\
Measure what each tool's input contract loses on its way into another tool format.

A projection into a target format is a contract too: the tool's input schema is projected \
into the target's dialect (what the target carries, drops or rewrites, one table per format \
revision, each row citing the vendor's document: `cargo protocolarc loss --dialects`), read \
back, and the loss is the compatibility engine's diff from the original to what the target \
keeps, judged as a request contract:
  blocker  the target has nowhere to put an input schema (A2A skills): the whole contract is lost
  major    a check that rejects bad input is gone (required, type, enum, const, bounds, lengths,
           pattern, closed objects, union tags, format), with a witness: an argument body the
           target accepts and the original tool rejects, checked with both validators
  minor    an annotation (description, title, default, examples), or a narrowing: the target
           refuses some input the tool accepts but lets no bad input through

Formats: mcp (MCP inputSchema: the identity), openai (function calling), openai-strict \
(strict: true, the Structured Outputs subset), anthropic (tool use input_schema), gemini \
(function declarations, an OpenAPI 3.0 Schema subset), a2a (agent skills: no schema).

Inputs: contract files (schema or fields form), MCP tools/list captures (imported in memory as \
`import tools-list` would, one request contract per tool; output schemas are not crossed), or \
directories of either (their .json files). Without paths: the workspace's contracts, or with \
--matrix the bundled real captures in protocols/tools-list/.

--to F,...   each tool into each format, one hop each (default: every format)
--chain F,.. each tool through the formats in order, each hop handed what the previous one \
kept; a hop after the contract was destroyed has nothing left and says so (not a clean hop); \
the whole path's losses are the original against what the last hop keeps
--matrix     sources by formats: tools that cross intact and the losses, then the most common";

/// The examples and exit codes of `loss`.
pub(crate) const EXAMPLES: &str = "\
Examples:
  cargo protocolarc loss contracts/github_create_issue_1.0.0.json --to openai-strict,gemini
  cargo protocolarc loss tools.json --to a2a
  cargo protocolarc loss tools.json --chain mcp,a2a,anthropic,openai
  cargo protocolarc loss --matrix --format markdown > docs/loss-matrix.md
  cargo protocolarc loss tools.json --to openai-strict --fail-on major

Output:
  deepwiki.ask_question -> openai-strict: 1 major, 1 minor
    major   field.type.widened repoName: string -> string|null
            witness (the target accepts, the tool rejects): {\"question\":\"\",\"repoName\":null}
    minor   field.required.tightened ...

Exit codes: 0 done (or no loss at or above --fail-on), 1 a loss at or above --fail-on, \
3 usage or input error (an unreadable or malformed file, a contract that does not load).";

/// How bad a loss must be to fail the run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum FailOn {
    /// Fail on a blocker.
    Blocker,
    /// Fail on a major loss or a blocker.
    Major,
}

/// The arguments of `loss`.
#[derive(Debug, Args)]
pub(crate) struct LossArgs {
    /// Contract files, tools/list captures, or directories of them (default: the workspace's
    /// contracts; with --matrix, protocols/tools-list).
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// The target formats, comma-separated: mcp, openai, openai-strict, anthropic, gemini, a2a
    /// (default: all).
    #[arg(long, value_name = "FORMAT[,FORMAT...]", value_delimiter = ',', conflicts_with = "chain")]
    pub to: Vec<String>,
    /// Carry each tool through these formats in order.
    #[arg(long, value_name = "F1,F2,...", value_delimiter = ',', conflicts_with = "matrix")]
    pub chain: Vec<String>,
    /// Count, per source and format, the tools that cross intact and the losses.
    #[arg(long)]
    pub matrix: bool,
    /// Print the dialect tables (every row and the document it cites) and exit.
    #[arg(long, conflicts_with_all = ["to", "chain", "matrix"])]
    pub dialects: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = DiffFormat::Text)]
    pub format: DiffFormat,
    /// Exit 1 when any tool suffers a loss this bad (a chain: over the whole path).
    #[arg(long, value_enum, value_name = "blocker|major")]
    pub fail_on: Option<FailOn>,
}

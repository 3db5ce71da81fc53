//! Argument definitions. Each command's help says what it reads, what it
//! prints and how it exits; defaults run on the project's `contracts/`.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

const EXIT_CODES: &str = "\
Exit codes:
  0  success
  1  validation errors (an envelope failed its contract)
  2  breaking compatibility
  3  usage or input error (bad arguments, unreadable or malformed files)";

#[derive(Debug, Parser)]
#[command(
    name = "cargo-protocolarc",
    bin_name = "cargo protocolarc",
    version,
    about = "Versioned contracts for agent-protocol JSON envelopes (MCP, A2A, JSON-RPC).",
    long_about = "Versioned contracts for agent-protocol JSON envelopes (MCP, A2A, JSON-RPC).\n\n\
                  A contract is a JSON file naming a message shape and its revision. \
                  Every command runs on the project's contracts/ directory (and \
                  contracts/fixtures/) when given no paths.",
    after_help = EXIT_CODES,
    disable_help_subcommand = true
)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Validate envelopes against a contract.
    #[command(
        long_about = "Validate envelopes against a contract.\n\n\
                      ENVELOPES are .jsonl files (one envelope per non-blank line, read as a stream), \
                      .json files (one envelope or an array of them) or directories (every .json and \
                      .jsonl file below, in path order). An envelope is \
                      {\"contract\": NAME, \"revision\": REV, \"data\": {...}}.\n\n\
                      With no CONTRACT, every envelope under contracts/fixtures/ is checked against the \
                      contract it names in contracts/ (the revision it declares, else the latest). With a \
                      CONTRACT and no ENVELOPES, the fixtures that target that contract's name are used.",
        after_help = "Examples:\n  \
                      cargo protocolarc validate\n  \
                      cargo protocolarc validate contracts/mcp_tool_call_1.0.0.json contracts/fixtures/mcp_calls.jsonl\n  \
                      cargo protocolarc validate contracts/a2a_task_send_1.0.0.json traffic/ --format json\n\n\
                      Exit codes: 0 every envelope passed, 1 an envelope failed, 3 usage or input error."
    )]
    Validate(ValidateArgs),
    /// Print a contract's field table: paths, types, required, enum, constraints.
    #[command(after_help = "Examples:\n  \
                            cargo protocolarc describe contracts/a2a_task_send_1.0.0.json\n  \
                            cargo protocolarc describe --format json\n\n\
                            Exit codes: 0 success, 3 usage or input error.")]
    Describe(DescribeArgs),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum ReportFormat {
    /// Human-readable text.
    Text,
    /// JSON for tools.
    Json,
}

#[derive(Debug, Args)]
pub(crate) struct ValidateArgs {
    /// The contract file to validate against (default: each envelope's own contract in contracts/).
    pub contract: Option<PathBuf>,
    /// Envelope files or directories (default: contracts/fixtures/).
    pub envelopes: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ReportFormat::Text)]
    pub format: ReportFormat,
}

#[derive(Debug, Args)]
pub(crate) struct DescribeArgs {
    /// The contract file to describe (default: every contract in contracts/).
    pub contract: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ReportFormat::Text)]
    pub format: ReportFormat,
}

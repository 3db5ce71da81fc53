//! Argument definitions. Each command's help says what it reads, what it
//! prints and how it exits; defaults come from the project's configuration
//! (`[workspace.metadata.protocolarc]`), else `contracts/` at the workspace root.

pub(crate) mod loss;
pub(crate) mod proxy;
pub(crate) mod traffic;

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

const EXIT_CODES: &str = "\
Any path may be REV:PATH to read it as committed at git revision REV.

Exit codes:
  0  success
  1  validation errors, or a failed check
  2  breaking compatibility
  3  usage or input error (bad arguments, unreadable or malformed files, a missing git revision)";

/// The long help of `check`: every check rule and when it fails, from the records.
fn check_about() -> String {
    let width = crate::checks::CHECK_RULES.iter().map(|r| r.id.len()).max().unwrap_or(0);
    let mut text = String::from("Run every check of the project's contracts, for CI. A problem names its rule:\n");
    for r in crate::checks::CHECK_RULES {
        text.push_str(&format!("  {:width$}  {}\n", r.id, r.summary));
    }
    text.push_str("\nThe base is --against REV, else the configured base, else HEAD. `cargo protocolarc rules RULE` explains one.");
    text
}

#[derive(Debug, Parser)]
#[command(
    name = "cargo-protocolarc",
    bin_name = "cargo protocolarc",
    version,
    about = "Versioned contracts for agent-protocol JSON envelopes (MCP, A2A, JSON-RPC).",
    long_about = "Versioned contracts for agent-protocol JSON envelopes (MCP, A2A, JSON-RPC).\n\n\
                  A contract is a JSON file naming a message shape and its revision. \
                  Every command runs on the project's contracts (configured in \
                  [workspace.metadata.protocolarc], else contracts/) when given no paths.",
    after_help = EXIT_CODES,
    disable_help_subcommand = true
)]
pub(crate) struct Cli {
    /// The Cargo.toml whose [workspace|package.metadata.protocolarc] configures the run.
    #[arg(long, global = true, value_name = "PATH")]
    pub manifest_path: Option<PathBuf>,
    /// Colour the verdicts: auto (on a terminal, unless NO_COLOR is set),
    /// always or never. CARGO_TERM_COLOR sets the default.
    #[arg(long, global = true, value_enum, value_name = "WHEN")]
    pub color: Option<crate::color::ColorChoice>,
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
                      With no CONTRACT, every envelope of the project's fixtures is checked against the \
                      contract it names (the revision it declares, else the latest). With a CONTRACT and \
                      no ENVELOPES, the fixtures that target that contract's name are used.",
        after_help = "Examples:\n  \
                      cargo protocolarc validate\n  \
                      cargo protocolarc validate contracts/mcp_tool_call_1.0.0.json contracts/fixtures/mcp_calls.jsonl\n  \
                      cargo protocolarc validate contracts/a2a_task_send_1.0.0.json traffic/ --format json\n\n\
                      Exit codes: 0 every envelope passed, 1 an envelope failed, 3 usage or input error."
    )]
    Validate(ValidateArgs),
    /// Classify the change between two revisions: compatible, forward or breaking.
    #[command(
        long_about = "Classify the change between two revisions of a contract: compatible, forward or \
                      breaking, field by field, in the direction the contract's messages flow (its \
                      `direction`): for a request, a change is breaking when a message the old revision \
                      accepted is rejected; for a response, when a message the new revision allows is \
                      rejected by old readers; `both` takes the worse. Every breaking change that a \
                      message shows is proven by a witness (for a request, a data body the old revision \
                      accepts and the new one rejects; for a response, one the new revision accepts and \
                      the old one rejects), checked with both validators (shown by --witnesses and in \
                      JSON). Schema-form contracts are compared keyword by keyword; what the engine \
                      cannot compare is schema.undecided, breaking.\n\n\
                      With --against REV, every contract of the project is compared with the same \
                      contract as committed at REV (new revision files and files edited in place alike). \
                      With no paths, every pair of neighbouring revisions in the project is compared.",
        after_help = "Examples:\n  \
                      cargo protocolarc diff contracts/mcp_tool_call_1.0.0.json contracts/mcp_tool_call_2.0.0.json\n  \
                      cargo protocolarc diff main:contracts/tool.json contracts/tool.json --witnesses\n  \
                      cargo protocolarc diff --against origin/main --format github\n\n\
                      Exit codes: 0 compatible or forward, 2 breaking, 3 usage or input error \
                      (including two different contract names, or a revision missing from the clone)."
    )]
    Diff(DiffArgs),
    /// Cross-check envelopes against contracts: a matrix, plus every revision chain.
    #[command(
        long_about = "Cross-check envelopes against contracts. Every envelope is validated against every \
                      revision of the contract it names (other contracts get a '-' cell), and every \
                      contract name's revisions are ordered by semver and each neighbouring pair is \
                      classified, with its version bump checked (revision.bump.insufficient).\n\n\
                      Defaults: the project's contracts and fixtures.",
        after_help = "Examples:\n  \
                      cargo protocolarc matrix\n  \
                      cargo protocolarc matrix --contracts contracts --envelopes traffic/ --format json\n\n\
                      Exit codes: 0 every cell passed and every bump suffices, 1 otherwise, 3 usage or input error."
    )]
    Matrix(MatrixArgs),
    /// Render the matrix as a report (Markdown by default), to stdout or a file.
    #[command(after_help = "Examples:\n  \
                            cargo protocolarc report --out report.md\n  \
                            cargo protocolarc report --contracts contracts --envelopes contracts/fixtures/mcp_calls.jsonl --format json\n\n\
                            Exit codes: 0 the report was written (whatever it says), 3 usage or input error.")]
    Report(ReportArgs),
    /// Print a contract's field table: paths, types, required, enum, constraints (schema form: one row per path, unions by member, maps as name{}).
    #[command(after_help = "Examples:\n  \
                            cargo protocolarc describe contracts/a2a_task_send_1.0.0.json\n  \
                            cargo protocolarc describe --format json\n\n\
                            Exit codes: 0 success, 3 usage or input error.")]
    Describe(DescribeArgs),
    /// Guard a repository in CI: load, semver bumps, immutability, lock, fixtures.
    #[command(
        long_about = check_about(),
        after_help = "Examples:\n  \
                      cargo protocolarc check\n  \
                      cargo protocolarc check --against origin/main --format github\n\n\
                      Exit codes: 0 every check passed, 1 a check failed, 3 usage or input error \
                      (including a contract that does not load, or a base revision missing from the clone)."
    )]
    Check(CheckArgs),
    /// Write (or verify) protocolarc.lock: the SHA-256 of every revision's canonical JSON.
    #[command(after_help = "Examples:\n  \
                            cargo protocolarc lock\n  \
                            cargo protocolarc lock --check\n\n\
                            Exit codes: 0 written (or matching), 1 the lock does not match (--check), 3 usage or input error.")]
    Lock(LockArgs),
    /// List every rule (validation, compatibility, CI), or explain one.
    #[command(after_help = "Examples:\n  \
                            cargo protocolarc rules\n  \
                            cargo protocolarc rules field.maximum.tightened\n\n\
                            Exit codes: 0 success, 3 an unknown rule.")]
    Rules(RulesArgs),
    /// Print the Rust code `#[protocolarc::contract]` generates for a contract, formatted.
    #[command(
        long_about = "Print exactly the code #[protocolarc::contract(\"PATH\")] generates for a contract, \
                      formatted, so a reviewer can read the types without macro-expansion tools. PATH \
                      is written as the attribute would name it (relative to the crate's manifest).",
        after_help = "Examples:\n  \
                      cargo protocolarc generate contracts/mcp_tool_call_2.0.0.json --name ToolCall\n\n\
                      Exit codes: 0 success, 3 usage or input error."
    )]
    Generate(GenerateArgs),
    /// Render every contract's history (revision, verdict, changes) as Markdown.
    #[command(after_help = "Examples:\n  \
                            cargo protocolarc changelog --out CONTRACTS_CHANGELOG.md\n\n\
                            Exit codes: 0 written, 3 usage or input error.")]
    Changelog(ChangelogArgs),
    /// Write schema-form contracts from a JSON Schema or an MCP tools/list result.
    #[command(
        long_about = "Write schema-form contracts from what other ecosystems publish.\n\n\
                      `import schema` reads a JSON Schema (2020-12, or draft-07 as the MCP and A2A schemas are) \
                      and writes one contract holding it in 2020-12: the whole document, or with --def one \
                      definition with the definitions it references. `import tools-list` reads an MCP \
                      tools/list result and writes one request contract per tool (from inputSchema) and one \
                      response contract per outputSchema, titles and descriptions kept.\n\n\
                      Nothing is dropped silently: a keyword a contract cannot carry, a $ref to another \
                      document (--resolve DIR bundles local files into the contract) or a reference to nothing \
                      is an error naming the keyword and its position. Keywords beside a \
                      draft-07 $ref (which draft-07 ignores) are dropped with a note on stderr.",
        after_help = "Examples:\n  \
                      cargo protocolarc import schema schema.json --name mcp.call_tool_result --revision 2025.6.18 \
                      --def CallToolResult --direction response --out contracts/mcp_call_tool_result_2025.6.18.json\n  \
                      cargo protocolarc import tools-list tools.json --server github --revision 1.0.0 --out contracts/\n\n\
                      Exit codes: 0 written, 3 usage or input error (unreadable or malformed input, an unsupported \
                      keyword: FILE:LINE:COL: message)."
    )]
    Import(ImportArgs),
    /// Write a contract as a JSON Schema 2020-12 document accepting the same data.
    #[command(
        long_about = "Write a contract as a JSON Schema 2020-12 document that accepts exactly the data bodies \
                      the contract accepts. A schema-form contract exports its schema; a fields-form contract \
                      becomes nested properties, required lists and items. What JSON Schema cannot say (the \
                      warning-only `strict` flag) is a note on stderr.",
        after_help = "Examples:\n  \
                      cargo protocolarc export contracts/mcp_tool_call_2.0.0.json\n  \
                      cargo protocolarc export contracts/a2a_task_send_1.0.0.json --out task_send.schema.json\n\n\
                      Exit codes: 0 written, 3 usage or input error (a contract that does not load)."
    )]
    Export(ExportArgs),
    /// Regenerate (or --check) the MCP and A2A catalogs from the vendored official schemas.
    #[command(
        long_about = "Regenerate the protocol catalogs from the vendored official schemas: \
                      VENDOR/mcp/<date>/schema.json becomes OUT/mcp/<date>/<stem>.json and \
                      VENDOR/a2a/<version>/a2a.json (A2A v1.0, which has no JSON Schema: a2a.proto, read by \
                      the ProtoJSON mapping) becomes OUT/a2a/<version>/<stem>.json, one contract per \
                      message: mcp.<method>.request (the whole request or notification message), \
                      mcp.<method>.response (the `result` value), mcp.error.response, a2a.<method>.request, \
                      a2a.<method>.response (the success `result`), a2a.error.response and a2a.agent_card. \
                      A date becomes a revision by its digits (2025-06-18 -> 2025.6.18); A2A keeps its \
                      version. Stale contract files under OUT/mcp and OUT/a2a are removed.\n\n\
                      With --history FILE, also writes the Markdown history of every message: each \
                      contract diffed with the same contract of the previous revision. With --check, \
                      writes nothing and fails when a committed file differs from what would be written.",
        after_help = "Examples:\n  \
                      cargo protocolarc protocols\n  \
                      cargo protocolarc protocols --vendor protocols/vendor --out protocols --history docs/protocol-history.md\n  \
                      cargo protocolarc protocols --check --history docs/protocol-history.md\n\n\
                      Exit codes: 0 written (or up to date), 1 a file differs (--check), 3 usage or input error."
    )]
    Protocols(ProtocolsArgs),
    /// Validate raw JSON-RPC 2.0 traffic (MCP, A2A) against a protocol's catalog.
    #[command(long_about = traffic::ABOUT, after_help = traffic::EXAMPLES)]
    Traffic(traffic::TrafficArgs),
    /// Run an MCP or A2A server behind a proxy that judges (and with --enforce, enforces) every message.
    #[command(long_about = proxy::ABOUT, after_help = proxy::EXAMPLES)]
    Proxy(proxy::ProxyArgs),
    /// Measure what tool contracts lose on their way into OpenAI, Anthropic, Gemini or A2A.
    #[command(long_about = loss::ABOUT, after_help = loss::EXAMPLES)]
    Loss(loss::LossArgs),
    /// Set this repository up: configuration, a first contract, the lock, a GitHub workflow.
    #[command(
        long_about = "Set the current directory up for the contract gate. Writes what is missing: \
                      [package.metadata.protocolarc] (or [workspace.metadata.protocolarc]) in Cargo.toml, \
                      a first contract and a fixture under contracts/, protocolarc.lock, and \
                      .github/workflows/protocolarc.yml (the gate on every pull request), and says what each \
                      is for. Nothing is overwritten: a file already there is left as is, so running it again \
                      changes nothing. Without a Cargo.toml the defaults apply and none is created.",
        after_help = "Examples:\n  \
                      cargo protocolarc init\n\n\
                      Exit codes: 0 done (files written or already there), 3 usage or input error."
    )]
    Init(InitArgs),
    /// Print the shell completion script (bash, zsh, fish, elvish, powershell).
    #[command(after_help = "Examples:\n  \
                            cargo protocolarc completions bash > ~/.local/share/bash-completion/completions/cargo-protocolarc\n  \
                            cargo protocolarc completions zsh > ~/.zfunc/_cargo-protocolarc\n  \
                            cargo protocolarc completions fish > ~/.config/fish/completions/cargo-protocolarc.fish\n\n\
                            The script completes the `cargo-protocolarc` command.\n\n\
                            Exit codes: 0 printed, 3 usage error.")]
    Completions(CompletionsArgs),
    /// Print the manual page (roff), or write one page per command with --out DIR.
    #[command(after_help = "Examples:\n  \
                            cargo protocolarc man | man -l -\n  \
                            cargo protocolarc man --out target/man\n\n\
                            Exit codes: 0 printed or written, 3 usage or input error.")]
    Man(ManArgs),
}

/// `init` takes no arguments: it sets up the working directory.
#[derive(Debug, Args)]
pub(crate) struct InitArgs {}

#[derive(Debug, Args)]
pub(crate) struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

#[derive(Debug, Args)]
pub(crate) struct ManArgs {
    /// Write cargo-protocolarc.1 and one page per command (cargo-protocolarc-<command>.1) here.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

/// Text or JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum ReportFormat {
    /// Human-readable text.
    Text,
    /// JSON for tools.
    Json,
}

/// The formats of `diff`, `matrix` and `report`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum DiffFormat {
    /// Human-readable text.
    Text,
    /// JSON for tools (witnesses included).
    Json,
    /// Markdown for pull-request comments (witnesses included).
    Markdown,
}

/// The formats of the CI commands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum CiFormat {
    /// Human-readable text.
    Text,
    /// JSON for tools.
    Json,
    /// A Markdown summary for a pull-request comment.
    Markdown,
    /// GitHub Actions workflow commands (`::error file=...,line=...::...`).
    Github,
}

impl Command {
    /// Whether the output is GitHub annotations (`--format github`), so that an
    /// input error is annotated too, not only written to stderr.
    pub(crate) fn annotates(&self) -> bool {
        match self {
            Command::Diff(a) => a.format == CiFormat::Github,
            Command::Check(a) => a.format == CiFormat::Github,
            _ => false,
        }
    }
}

#[derive(Debug, Args)]
pub(crate) struct ValidateArgs {
    /// The contract file to validate against (default: each envelope's own contract).
    pub contract: Option<PathBuf>,
    /// Envelope files or directories (default: the project's fixtures).
    pub envelopes: Vec<PathBuf>,
    #[command(flatten)]
    pub bulk: BulkArgs,
}

/// Which catalog judges a session, and the pinned tools (`traffic`, `proxy`).
#[derive(Debug, Args)]
pub(crate) struct ProtocolArgs {
    /// The protocol revision, NAME@REVISION: mcp@2025-06-18, a2a@0.3.0 (default: told by the
    /// messages: an initialize request, a server/discover request's _meta, an agent card, A2A-only
    /// methods; else the newest MCP revision in the catalog).
    #[arg(long, value_name = "NAME@REVISION")]
    pub protocol: Option<String>,
    /// The catalog root, holding NAME/REVISION/*.json (default: protocols/ in the current
    /// directory, else beside the workspace's Cargo.toml, else the built-in catalog).
    #[arg(long, value_name = "DIR")]
    pub catalog: Option<PathBuf>,
    /// Pinned tool contracts (from `import tools-list`): tools/call arguments and structured
    /// results judged by them (the proxy also checks each tools/list against them).
    #[arg(long, value_name = "DIR")]
    pub tools: Option<PathBuf>,
}

/// The output and threading options of the commands that judge many
/// messages (`validate`, `traffic`).
#[derive(Debug, Args)]
pub(crate) struct BulkArgs {
    /// Output format.
    #[arg(long, value_enum, default_value_t = ReportFormat::Text)]
    pub format: ReportFormat,
    /// Print only failing messages, then the summary line (text), or list
    /// only failing results before the summary (JSON): for big captures.
    #[arg(long, short)]
    pub quiet: bool,
    /// Judge on N threads (default, and at most: every core; a batch
    /// starts no more threads than it has runs of lines). Output stays in
    /// input order, byte for byte what one job prints; memory stays bounded
    /// (a batch of lines at a time).
    #[arg(long, short = 'j', value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub jobs: Option<u16>,
}

impl BulkArgs {
    /// `--jobs`, at most every core (more threads than cores only
    /// take turns), or every core.
    pub fn jobs(&self) -> usize {
        let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
        self.jobs.map_or(cores, |n| usize::from(n).min(cores))
    }
}

/// Lines judged together by `validate`: on the jobs' threads, then written
/// in input order. Enough to keep the threads busy; memory holds one batch
/// (at most this many lines, or [`BATCH_BYTES`] past one line), whatever
/// the input's size. (`traffic` cuts its batches by bytes alone:
/// `cmd/traffic.rs`.)
pub(crate) const BATCH_LINES: usize = 4096;
/// The bytes of lines one batch holds at most (past its last line).
pub(crate) const BATCH_BYTES: usize = 4 << 20;

#[derive(Debug, Args)]
pub(crate) struct DiffArgs {
    /// The older revision (default: every neighbouring pair in the project).
    #[arg(requires = "new", conflicts_with = "against")]
    pub old: Option<PathBuf>,
    /// The newer revision.
    pub new: Option<PathBuf>,
    /// Compare every contract of the project with the same contract at this git revision.
    #[arg(long, value_name = "REV")]
    pub against: Option<String>,
    /// Output format (`github` only with --against).
    #[arg(long, value_enum, default_value_t = CiFormat::Text)]
    pub format: CiFormat,
    /// Print each breaking change's witness under it (text format).
    #[arg(long)]
    pub witnesses: bool,
    /// When to exit 2: on any breaking change (`breaking`), only on one whose
    /// version bump does not cover it (`unbumped`: a major release is fine, as
    /// `check` judges it), or `never` (a report, e.g. a pull-request summary).
    /// A change an `accept` entry approves never fails.
    #[arg(long, value_enum, default_value_t = FailOn::Breaking, value_name = "WHEN")]
    pub fail_on: FailOn,
}

/// When `diff` exits 2.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum FailOn {
    /// Any breaking change.
    Breaking,
    /// A breaking change its version bump does not cover.
    Unbumped,
    /// Never: the exit code is 0 whatever the verdict.
    Never,
}

#[derive(Debug, Args)]
pub(crate) struct Sources {
    /// Contract files or directories of *.json contracts (default: the project's contracts).
    #[arg(long, num_args = 1.., value_name = "PATH")]
    pub contracts: Vec<PathBuf>,
    /// Envelope files or directories (default: the project's fixtures).
    #[arg(long, num_args = 1.., value_name = "PATH")]
    pub envelopes: Vec<PathBuf>,
}

#[derive(Debug, Args)]
pub(crate) struct MatrixArgs {
    #[command(flatten)]
    pub sources: Sources,
    /// Output format.
    #[arg(long, value_enum, default_value_t = DiffFormat::Text)]
    pub format: DiffFormat,
}

#[derive(Debug, Args)]
pub(crate) struct ReportArgs {
    #[command(flatten)]
    pub sources: Sources,
    /// Output format.
    #[arg(long, value_enum, default_value_t = DiffFormat::Markdown)]
    pub format: DiffFormat,
    /// Write the report to this file instead of stdout.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub(crate) struct DescribeArgs {
    /// The contract file to describe (default: every contract of the project).
    pub contract: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ReportFormat::Text)]
    pub format: ReportFormat,
}

#[derive(Debug, Args)]
pub(crate) struct CheckArgs {
    /// The git revision whose published contracts must be unchanged (default: configured base, else HEAD).
    #[arg(long, value_name = "REV")]
    pub against: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = CiFormat::Text)]
    pub format: CiFormat,
}

#[derive(Debug, Args)]
pub(crate) struct LockArgs {
    /// Verify the lock file instead of writing it.
    #[arg(long)]
    pub check: bool,
}

#[derive(Debug, Args)]
pub(crate) struct ChangelogArgs {
    /// Write the changelog to this file instead of stdout.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub(crate) struct RulesArgs {
    /// The rule to explain (default: list every rule).
    pub rule: Option<String>,
}

#[derive(Debug, Args)]
pub(crate) struct GenerateArgs {
    /// The contract file (or REV:PATH, as committed at git revision REV).
    pub contract: PathBuf,
    /// The struct's name (default: the contract name in PascalCase, `mcp.tool_call` -> `McpToolCall`).
    #[arg(long)]
    pub name: Option<String>,
}

#[derive(Debug, Args)]
pub(crate) struct ImportArgs {
    #[command(subcommand)]
    pub what: ImportCommand,
}

/// What `import` reads.
#[derive(Debug, Subcommand)]
pub(crate) enum ImportCommand {
    /// A JSON Schema (2020-12 or draft-07) as one contract.
    #[command(after_help = "Examples:\n  \
                            cargo protocolarc import schema mcp/2025-06-18/schema.json --name mcp.call_tool_result \
                            --revision 2025.6.18 --def CallToolResult --direction response\n  \
                            cargo protocolarc import schema schemas/tool.json --name acme.tool --revision 1.0.0 \
                            --resolve schemas\n\n\
                            Exit codes: 0 written, 3 usage or input error.")]
    Schema(ImportSchemaArgs),
    /// An MCP tools/list result as one contract per tool input and output.
    #[command(
        long_about = "Write one contract per MCP tool: SERVER.TOOL (direction request) from inputSchema and, \
                      when the tool has one, SERVER.TOOL.output (direction response) from outputSchema; the \
                      tool's title and description become the contract's title and doc. A tool name keeps \
                      every character but white space and '@' (written '_'). Files are \
                      DIR/<stem>_<revision>.json, the stem being the contract name with every character but \
                      ASCII letters, digits, '-' and '_' written '_'.\n\n\
                      FILE may be the JSON-RPC response, its result ({\"tools\": [...]}, other keys ignored) \
                      or the array of tools.",
        after_help = "Examples:\n  \
                      cargo protocolarc import tools-list tools.json --server github --revision 1.0.0 --out contracts/\n\n\
                      Exit codes: 0 written, 3 usage or input error."
    )]
    ToolsList(ImportToolsArgs),
}

#[derive(Debug, Args)]
pub(crate) struct ImportSchemaArgs {
    /// The JSON Schema file (or REV:PATH).
    pub file: PathBuf,
    /// The contract name (`mcp.call_tool_result`).
    #[arg(long)]
    pub name: String,
    /// The contract revision (semver).
    #[arg(long)]
    pub revision: String,
    /// What the contract describes: request (what its owner accepts), response (what it sends) or both.
    #[arg(long, value_name = "DIRECTION")]
    pub direction: Option<String>,
    /// Import this entry of $defs (or draft-07 definitions) and the definitions it references.
    #[arg(long, value_name = "NAME")]
    pub def: Option<String>,
    /// Bundle the files under DIR that the schema's $refs name ("common.json#/$defs/Id", "./a/b.json"; with
    /// an absolute root $id, the URLs below its folder are read beside FILE): each becomes a $defs entry
    /// with its own $id, so the contract is one self-contained document. A $ref resolving outside DIR
    /// ("../x.json") or to another URL is refused (exit 3).
    #[arg(long, value_name = "DIR", conflicts_with = "def")]
    pub resolve: Option<PathBuf>,
    /// Write the contract to this file instead of stdout.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub(crate) struct ImportToolsArgs {
    /// The tools/list result (or REV:PATH).
    pub file: PathBuf,
    /// The server's name, the first part of every contract name.
    #[arg(long)]
    pub server: String,
    /// The revision of every contract written (semver).
    #[arg(long)]
    pub revision: String,
    /// The directory to write the contracts to (created if missing).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
}

/// The formats of `export`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum ExportFormat {
    /// A JSON Schema 2020-12 document.
    JsonSchema,
}

#[derive(Debug, Args)]
pub(crate) struct ExportArgs {
    /// The contract file (or REV:PATH).
    pub contract: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ExportFormat::JsonSchema)]
    pub format: ExportFormat,
    /// Write the schema to this file instead of stdout.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub(crate) struct ProtocolsArgs {
    /// The vendored schemas: mcp/<date>/schema.json and a2a/<version>/a2a.json (or
    /// a2a.proto for A2A v1.0; relative paths: from the current directory).
    #[arg(long, value_name = "DIR", default_value = "protocols/vendor")]
    pub vendor: PathBuf,
    /// Where the catalogs go: mcp/<date>/ and a2a/<version>/.
    #[arg(long, value_name = "DIR", default_value = "protocols")]
    pub out: PathBuf,
    /// Also write the Markdown history of every message to this file.
    #[arg(long, value_name = "FILE")]
    pub history: Option<PathBuf>,
    /// Write nothing; exit 1 when a committed file differs from what would be written.
    #[arg(long)]
    pub check: bool,
}

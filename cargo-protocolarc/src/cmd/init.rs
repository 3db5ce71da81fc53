//! `init`: set a repository up for the contract gate. Writes the starter
//! files that are missing (configuration in `Cargo.toml`, a first contract and
//! its fixture under `contracts/`, the lock, a GitHub workflow), says what
//! each is for, and never overwrites: a file already there is left as is, so
//! a second run changes nothing.

use std::io::Write;
use std::path::{Path, PathBuf};

use super::Ctx;
use crate::cli::InitArgs;
use crate::{exit, Failure};

/// The starter contract: a tool call in the fields form.
const CONTRACT: &str = r#"{
  "name": "weather.get_forecast",
  "revision": "1.0.0",
  "kind": "mcp",
  "title": "Weather forecast tool call",
  "fields": [
    { "name": "city", "type": "string", "doc": "City to forecast." },
    { "name": "days", "type": "integer", "required": false, "minimum": 1, "maximum": 7, "doc": "Days ahead (1 to 7)." }
  ]
}
"#;

const CONTRACT_PATH: &str = "contracts/weather_get_forecast_1.0.0.json";

/// One message the starter contract accepts, as a fixture envelope.
const FIXTURE: &str = r#"{"contract": "weather.get_forecast", "data": {"city": "Lisbon", "days": 3}}
"#;

const FIXTURE_PATH: &str = "contracts/fixtures/weather_get_forecast.jsonl";

const WORKFLOW_PATH: &str = ".github/workflows/protocolarc.yml";

/// The configuration appended to a manifest that has none.
fn config(table: &str) -> String {
    format!(
        "\n[{table}.metadata.protocolarc]\n\
         contracts = \"contracts\"            # one JSON file per contract revision\n\
         fixtures = \"contracts/fixtures\"    # envelopes `validate` and `check` judge\n\
         lock = \"protocolarc.lock\"          # the pin of every published revision\n"
    )
}

/// The pull-request workflow: the gate through this repository's action,
/// pinned to this CLI's version.
fn workflow() -> String {
    format!(
        "# The contract gate on every pull request (written by `cargo protocolarc init`).\n\
         name: contracts\n\
         on: [pull_request]\n\
         jobs:\n\
         \x20 contracts:\n\
         \x20   runs-on: ubuntu-latest\n\
         \x20   steps:\n\
         \x20     - uses: actions/checkout@v4\n\
         \x20       with:\n\
         \x20         fetch-depth: 0   # the base branch must be in the clone\n\
         \x20     # Installs cargo-protocolarc {version} (--locked, cached), runs `check --format github`\n\
         \x20     # (annotations on the lines) and writes the diff summary to the job's summary.\n\
         \x20     - uses: protocolarc/protocolarc@v{version}\n\
         \x20       with:\n\
         \x20         against: origin/${{{{ github.base_ref }}}}\n",
        version = env!("CARGO_PKG_VERSION")
    )
}

/// What happened to one starter file.
enum Outcome {
    Wrote,
    Same,
    Kept,
}

fn put(root: &Path, rel: &str, text: &str) -> Result<Outcome, Failure> {
    let path = root.join(rel);
    match std::fs::read(&path) {
        Ok(have) if have == text.as_bytes() => return Ok(Outcome::Same),
        Ok(_) => return Ok(Outcome::Kept),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(Failure::Input(format!("{rel}: cannot read: {}", crate::io_reason(&e)))),
    }
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)
            .map_err(|e| Failure::Input(format!("{}: cannot create: {}", parent.display(), crate::io_reason(&e))))?;
    }
    crate::write::write_atomic(&path, text.as_bytes())?;
    Ok(Outcome::Wrote)
}

fn say(out: &mut dyn Write, what: Outcome, rel: &str, why: &str) -> std::io::Result<()> {
    let (verb, note) = match what {
        Outcome::Wrote => ("wrote   ", ""),
        Outcome::Same => ("kept    ", " (already there)"),
        Outcome::Kept => ("kept    ", " (already there and different: left as is)"),
    };
    writeln!(out, "{verb}{rel}{note}\n         {why}")
}

pub(crate) fn run(cx: &Ctx, _args: InitArgs, out: &mut dyn Write) -> Result<i32, Failure> {
    let root = PathBuf::from(".");
    manifest(&root, out)?;
    let has_contracts = std::fs::read_dir(root.join("contracts"))
        .is_ok_and(|mut d| d.any(|e| e.is_ok_and(|e| e.path().extension().is_some_and(|x| x == "json"))));
    if has_contracts && !root.join(CONTRACT_PATH).is_file() {
        writeln!(out, "kept    contracts/ (it already holds contracts: no starter contract added)")?;
    } else {
        let c = put(&root, CONTRACT_PATH, CONTRACT)?;
        say(out, c, CONTRACT_PATH, "a first contract (fields form): a tool call's arguments; edit or replace it")?;
        let f = put(&root, FIXTURE_PATH, FIXTURE)?;
        say(out, f, FIXTURE_PATH, "a message it must accept: `cargo protocolarc validate` and `check` judge it")?;
    }
    lock(cx, &root, out)?;
    let w = put(&root, WORKFLOW_PATH, &workflow())?;
    say(out, w, WORKFLOW_PATH, "the gate on every pull request: `check --format github` and a Markdown summary")?;
    writeln!(
        out,
        "\nnext: `cargo protocolarc check` runs the gate here; commit these files; a new revision of a contract is a \
         new file (contracts/<name>_<revision>.json) followed by `cargo protocolarc lock`."
    )?;
    Ok(exit::OK)
}

/// Records the configuration in `Cargo.toml` when it has none; a directory
/// without a manifest keeps the defaults (which are what init would write).
fn manifest(root: &Path, out: &mut dyn Write) -> Result<(), Failure> {
    let path = root.join("Cargo.toml");
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            writeln!(
                out,
                "skipped Cargo.toml (none here)\n         the defaults apply: contracts/, contracts/fixtures/, \
                 protocolarc.lock; in a cargo project init records them under [package.metadata.protocolarc]"
            )?;
            return Ok(());
        }
        Err(e) => return Err(Failure::Input(format!("Cargo.toml: cannot read: {}", crate::io_reason(&e)))),
    };
    if text.contains("metadata.protocolarc]") {
        writeln!(out, "kept    Cargo.toml (it already configures protocolarc)")?;
        return Ok(());
    }
    let table = if has_table(&text, "package") {
        "package"
    } else if has_table(&text, "workspace") {
        "workspace"
    } else {
        return Err(Failure::Input("Cargo.toml: neither [package] nor [workspace]: not a cargo manifest".into()));
    };
    let mut new = text.clone();
    if !new.is_empty() && !new.ends_with('\n') {
        new.push('\n');
    }
    new.push_str(&config(table));
    crate::write::write_atomic(&path, new.as_bytes())?;
    writeln!(
        out,
        "wrote   Cargo.toml [{table}.metadata.protocolarc]\n         where the contracts, fixtures and lock are"
    )?;
    Ok(())
}

fn has_table(text: &str, name: &str) -> bool {
    text.lines().any(|l| l.trim() == format!("[{name}]"))
}

/// Writes the lock when there is none (it pins what `contracts/` holds).
fn lock(cx: &Ctx, root: &Path, out: &mut dyn Write) -> Result<(), Failure> {
    let rel = "protocolarc.lock";
    if root.join(rel).exists() {
        writeln!(out, "kept    {rel} (already there: `cargo protocolarc lock` refreshes it)")?;
        return Ok(());
    }
    let mut sink = Vec::new();
    let code = super::lock::run(cx, crate::cli::LockArgs { check: false }, &mut sink)?;
    if code != exit::OK {
        return Err(Failure::Input(String::from_utf8_lossy(&sink).into_owned()));
    }
    let w = if root.join(rel).exists() { Outcome::Wrote } else { Outcome::Kept };
    say(out, w, rel, "the pin of every revision: `check` fails when a published revision is edited in place")?;
    Ok(())
}

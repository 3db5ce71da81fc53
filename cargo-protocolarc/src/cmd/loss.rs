//! `loss` (SPEC §13): what a tool's input contract loses on its way into
//! another tool format. The engine is the library's (`protocolarc_interop::loss`:
//! dialect tables, projection, the compatibility diff); this module reads
//! the inputs (contracts, or `tools/list` captures imported in memory) and
//! picks the output.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::render::loss::{self as render, Mode, Run, Source};
use protocolarc::{ContractDirection, ContractSpec};
use protocolarc_interop::import;
use protocolarc_interop::loss::{self, Format, Severity, Tool};

use super::{read_document, Ctx};
use crate::cli::loss::{FailOn, LossArgs};
use crate::cli::DiffFormat;
use crate::{exit, Failure};

fn formats(names: &[String], flag: &str) -> Result<Vec<Format>, Failure> {
    names
        .iter()
        .map(|n| {
            Format::parse(n.trim()).ok_or_else(|| {
                let known: Vec<&str> = Format::ALL.iter().map(|f| f.as_str()).collect();
                Failure::Input(format!("--{flag}: unknown format '{}' (known: {})", n.trim(), known.join(", ")))
            })
        })
        .collect()
}

pub(crate) fn run(cx: &Ctx, args: LossArgs, out: &mut dyn Write) -> Result<i32, Failure> {
    if args.dialects {
        out.write_all(dialects_text().as_bytes())?;
        return Ok(exit::OK);
    }
    let (mode, formats) = if !args.chain.is_empty() {
        if args.chain.len() < 2 {
            return Err(Failure::Input("--chain needs at least two formats (one hop is --to)".into()));
        }
        (Mode::Chain, formats(&args.chain, "chain")?)
    } else if args.to.is_empty() {
        (if args.matrix { Mode::Matrix } else { Mode::To }, Format::ALL.to_vec())
    } else {
        (if args.matrix { Mode::Matrix } else { Mode::To }, formats(&args.to, "to")?)
    };
    let paths = if !args.paths.is_empty() {
        args.paths.clone()
    } else if args.matrix {
        vec![cx.bundled("protocols/tools-list")?]
    } else {
        vec![cx.project()?.contracts]
    };
    let mut sources = Vec::new();
    for p in &paths {
        for (label, tools) in read_sources(p)? {
            let mut paths = Vec::new();
            for t in &tools {
                let carried = match mode {
                    Mode::Chain => vec![loss::path(t, &formats)],
                    _ => formats.iter().map(|f| loss::path(t, &[*f])).collect(),
                };
                for c in carried {
                    paths.push(c.map_err(|e| Failure::Input(e.to_string()))?);
                }
            }
            sources.push(Source { label, paths });
        }
    }
    let run = Run { mode, formats, sources };
    let text = match args.format {
        DiffFormat::Text => render::text(&run),
        DiffFormat::Json => render::json(&run),
        DiffFormat::Markdown => render::markdown(&run),
    };
    out.write_all(text.as_bytes())?;
    let limit = args.fail_on.map(|f| match f {
        FailOn::Blocker => Severity::Blocker,
        FailOn::Major => Severity::Major,
    });
    Ok(match (limit, run.worst()) {
        (Some(limit), Some(worst)) if worst >= limit => exit::FAILED,
        _ => exit::OK,
    })
}

/// The tools of one path: a file is one source; a directory is one source
/// per capture in it, plus one for its contract files.
fn read_sources(path: &Path) -> Result<Vec<(String, Vec<Tool>)>, Failure> {
    let shown = path.display().to_string();
    if !path.is_dir() {
        return Ok(vec![(shown, read_file(path)?)]);
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(path)
        .map_err(|e| Failure::Input(format!("{shown}: cannot read: {}", crate::io_reason(&e))))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    let mut contracts = Vec::new();
    for f in files {
        let (is_capture, tools) = read_any(&f)?;
        if is_capture {
            let name = f.file_name().map_or_else(|| f.display().to_string(), |n| n.to_string_lossy().into_owned());
            out.push((name, tools));
        } else {
            contracts.extend(tools);
        }
    }
    if !contracts.is_empty() {
        contracts.sort_by(|a, b| (&a.name, &a.revision).cmp(&(&b.name, &b.revision)));
        out.insert(0, (shown, contracts));
    }
    Ok(out)
}

fn read_file(path: &Path) -> Result<Vec<Tool>, Failure> {
    Ok(read_any(path)?.1)
}

/// A contract file (one tool, when its direction is a request's), or a
/// tools/list capture (its tools), told apart by the document's keys.
fn read_any(path: &Path) -> Result<(bool, Vec<Tool>), Failure> {
    let (shown, bytes) = read_document(path)?;
    let doc = import::parse_document(&bytes).map_err(|e| super::at(&shown, &bytes, e.offset, &e.message))?;
    let is_contract = doc.get("name").is_some() && (doc.get("schema").is_some() || doc.get("fields").is_some());
    if is_contract {
        let spec = ContractSpec::from_slice(&bytes, &shown).map_err(|e| Failure::Input(e.to_string()))?;
        let tools =
            if spec.direction() == ContractDirection::Response { Vec::new() } else { vec![tool(&bytes, &spec)?] };
        return Ok((false, tools));
    }
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("tools");
    let server = import::sanitize_name(stem.trim_end_matches(".capture"));
    let (contracts, _notes) = import::tools_list_contracts(&doc, &server, "1.0.0").map_err(|e| {
        let offset = import::locate(&bytes, e.pointer()).unwrap_or(0);
        super::at(&shown, &bytes, offset, &format!("not a contract, and not a tools/list capture: {}", e.message()))
    })?;
    let mut tools = Vec::new();
    for (_, c) in contracts {
        let text = import::render(&c);
        let spec = ContractSpec::from_slice(text.as_bytes(), &shown).map_err(|e| Failure::Input(e.to_string()))?;
        if spec.direction() != ContractDirection::Response {
            tools.push(tool(text.as_bytes(), &spec)?);
        }
    }
    Ok((true, tools))
}

fn tool(bytes: &[u8], spec: &ContractSpec) -> Result<Tool, Failure> {
    Tool::from_contract(bytes, spec).map_err(|e| Failure::Input(e.to_string()))
}

/// Every dialect table: per format, its revision, sources and rows.
fn dialects_text() -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    for d in loss::tables() {
        let _ = writeln!(out, "{} {}: {}", d.format, d.revision, d.title);
        for (key, s) in &d.sources {
            let _ = writeln!(out, "  [{key}] {} <{}> ({}; read {})", s.title, s.url, s.date, s.read);
        }
        let _ = writeln!(out, "  root: type object [{}] {}", d.root.source, d.root.why);
        for r in d.rows.iter().chain([&d.others]) {
            let _ = writeln!(out, "  {:<22} {:<22} [{}] {}", r.keyword, action(&r.action), r.source, r.why);
        }
        out.push('\n');
    }
    out
}

fn action(a: &loss::Action) -> String {
    use loss::Action::*;
    match a {
        Keep => "keep".into(),
        Drop => "drop".into(),
        Rename(to) => format!("as {to}"),
        FormatValues(v) => format!("keep only {}", v.join("|")),
        EnumStrings => "keep if all strings".into(),
        ConstAsEnum => "as a one-value enum".into(),
        Inline => "write in place".into(),
        Close => "force false".into(),
        RequireAllNullable => "all, optional nullable".into(),
        Nullable => "one name + nullable".into(),
        FirstExample => "first as example".into(),
    }
}

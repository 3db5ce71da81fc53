//! `protocols`: the MCP and A2A catalogs (SPEC §12) regenerated from the
//! vendored official schemas, and the history of every message across the
//! revisions. The catalogs are the library's (`protocolarc_interop::protocols`);
//! this module finds the schemas, writes (or checks) the files, and diffs
//! consecutive revisions for the history.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::{Path, PathBuf};

use protocolarc::ContractSpec;
use protocolarc_interop::import;
use protocolarc_interop::protocols::{self, Generated};

use crate::cli::ProtocolsArgs;
use crate::{exit, Failure};

/// One revision's catalog.
struct Revision {
    /// `mcp` or `a2a`.
    protocol: &'static str,
    /// The directory name: the MCP date or the A2A version.
    dir: String,
    /// The contracts' revision.
    revision: semver::Version,
    contracts: Vec<Generated>,
}

pub(crate) fn run(args: ProtocolsArgs, out: &mut dyn Write, err: &mut dyn Write) -> Result<i32, Failure> {
    let catalogs = catalogs(&args.vendor)?;
    let mut want: BTreeMap<PathBuf, String> = BTreeMap::new();
    for rev in &catalogs {
        let dir = args.out.join(rev.protocol).join(&rev.dir);
        for g in &rev.contracts {
            want.insert(dir.join(format!("{}.json", g.stem)), import::render(&g.contract));
        }
    }
    if let Some(path) = &args.history {
        want.insert(path.clone(), history(&catalogs)?);
    }
    refuse_links(&args.out, &want)?;
    let stale = stale(&args.out, &want)?;
    if args.check {
        let mut bad = 0;
        for (path, text) in &want {
            match std::fs::read(path) {
                Ok(bytes) if bytes == text.as_bytes() => {}
                Ok(_) => {
                    bad += 1;
                    writeln!(out, "differs: {}", path.display())?;
                }
                Err(_) => {
                    bad += 1;
                    writeln!(out, "missing: {}", path.display())?;
                }
            }
        }
        for path in &stale {
            bad += 1;
            writeln!(out, "stale: {}", path.display())?;
        }
        if bad > 0 {
            writeln!(out, "{bad} file(s) differ from what `cargo protocolarc protocols` writes; run it to regenerate")?;
            return Ok(exit::FAILED);
        }
        writeln!(out, "{} file(s) up to date", want.len())?;
        return Ok(exit::OK);
    }
    for rev in &catalogs {
        for g in &rev.contracts {
            for note in &g.notes {
                writeln!(err, "note: {} {}: {note}", rev.dir, g.contract["name"].as_str().unwrap_or_default())?;
            }
        }
    }
    for (path, text) in &want {
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent).map_err(|e| {
                Failure::Input(format!("{}: cannot create directory: {}", parent.display(), crate::io_reason(&e)))
            })?;
        }
        crate::write::write_atomic(path, text.as_bytes())?;
    }
    for path in &stale {
        std::fs::remove_file(path)
            .map_err(|e| Failure::Input(format!("{}: cannot remove: {}", path.display(), crate::io_reason(&e))))?;
        writeln!(out, "removed {}", path.display())?;
    }
    for rev in &catalogs {
        writeln!(
            out,
            "wrote {} contracts to {}",
            rev.contracts.len(),
            args.out.join(rev.protocol).join(&rev.dir).display()
        )?;
    }
    if let Some(path) = &args.history {
        writeln!(out, "wrote {}", path.display())?;
    }
    Ok(exit::OK)
}

/// Every vendored revision's catalog, MCP by date then A2A by version.
fn catalogs(vendor: &Path) -> Result<Vec<Revision>, Failure> {
    let mut all = Vec::new();
    for (protocol, file) in [("mcp", "schema.json"), ("a2a", "a2a.json")] {
        let mut revs = Vec::new();
        for dir in subdirs(&vendor.join(protocol))? {
            let mut path = vendor.join(protocol).join(&dir).join(file);
            // A2A v1.0 publishes no JSON Schema: its catalog comes from a2a.proto.
            let proto = protocol == "a2a" && !path.exists() && path.with_extension("proto").exists();
            if proto {
                path.set_extension("proto");
            }
            let (shown, bytes) = super::read_disk(&path)?;
            let contracts = if proto {
                let text = std::str::from_utf8(&bytes)
                    .map_err(|e| super::at(&shown, &bytes, e.valid_up_to(), "the file is not UTF-8"))?;
                protocols::a2a_proto_catalog(text, &dir)
                    .map_err(|e| Failure::Input(format!("{shown}:{}:{}: {}", e.line, e.column, e.message)))?
            } else {
                let doc =
                    import::parse_document(&bytes).map_err(|e| super::at(&shown, &bytes, e.offset, &e.message))?;
                let generated = match protocol {
                    "mcp" => protocols::mcp_catalog(&doc, &dir),
                    _ => protocols::a2a_catalog(&doc, &dir),
                };
                generated.map_err(|e| match import::locate(&bytes, e.pointer()) {
                    Some(offset) if !e.is_argument() => super::at(&shown, &bytes, offset, e.message()),
                    _ => Failure::Input(format!("{shown}: {}", e.message())),
                })?
            };
            let revision = contracts
                .first()
                .and_then(|g| g.contract["revision"].as_str())
                .and_then(|r| semver::Version::parse(r).ok())
                .ok_or_else(|| Failure::Input(format!("{shown}: no contract generated")))?;
            revs.push(Revision { protocol, dir, revision, contracts });
        }
        revs.sort_by(|a, b| a.revision.cmp(&b.revision));
        all.extend(revs);
    }
    if all.is_empty() {
        return Err(Failure::Input(format!(
            "{}: no mcp/<date>/schema.json or a2a/<version>/a2a.json (or a2a.proto) below",
            vendor.display()
        )));
    }
    Ok(all)
}

/// The names of the directories in `dir` (none when it does not exist).
fn subdirs(dir: &Path) -> Result<Vec<String>, Failure> {
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(Failure::Input(format!("{}: cannot read: {}", dir.display(), crate::io_reason(&e)))),
    };
    let mut out = Vec::new();
    for entry in entries {
        let entry = entry?;
        if entry.file_type()?.is_dir() {
            out.push(entry.file_name().to_string_lossy().into_owned());
        }
    }
    out.sort();
    Ok(out)
}

/// Refuses a symbolic link among the directories below `out` that the
/// catalogs are written into (`OUT/mcp`, `OUT/mcp/DATE`, ...): writing or
/// removing stale files through one would touch whatever it points at.
fn refuse_links(out: &Path, want: &BTreeMap<PathBuf, String>) -> Result<(), Failure> {
    let mut seen = BTreeSet::new();
    for path in want.keys() {
        for dir in path.ancestors().skip(1).take_while(|d| d.starts_with(out) && *d != out) {
            if !seen.insert(dir.to_path_buf()) {
                continue;
            }
            if std::fs::symlink_metadata(dir).is_ok_and(|m| m.file_type().is_symlink()) {
                return Err(Failure::Input(format!(
                    "{}: is a symbolic link; refusing to write through it (replace it with a directory)",
                    dir.display()
                )));
            }
        }
    }
    Ok(())
}

/// The `.json` files under `OUT/mcp` and `OUT/a2a` that would not be written.
fn stale(out: &Path, want: &BTreeMap<PathBuf, String>) -> Result<Vec<PathBuf>, Failure> {
    let mut found = Vec::new();
    for protocol in ["mcp", "a2a"] {
        let base = out.join(protocol);
        for dir in subdirs(&base)? {
            let dir = base.join(dir);
            for entry in std::fs::read_dir(&dir)? {
                let path = entry?.path();
                if path.extension().is_some_and(|e| e == "json") && !want.contains_key(&path) {
                    found.push(path);
                }
            }
        }
    }
    found.sort();
    Ok(found)
}

/// The Markdown history of every message: for each protocol and contract
/// name, the diff of each revision against the previous revision that has
/// the message (`protocolarc::diff::diff`, in the contract's direction).
fn history(catalogs: &[Revision]) -> Result<String, Failure> {
    let mut text = String::from(
        "# Protocol history\n\n\
         Generated by `cargo protocolarc protocols --history docs/protocol-history.md` from the catalogs in \
         `protocols/` (themselves generated from the official schemas in `protocols/vendor/`): each message's \
         contract diffed with the same contract of the previous revision by `protocolarc::diff::diff`, in the \
         contract's direction. Do not edit; `cargo protocolarc protocols --check --history \
         docs/protocol-history.md` fails when it is out of date.\n\n\
         Directions are seen from the server (the agent): `request` is sent by clients (a change is breaking \
         when the new revision rejects what old clients send), `response` is sent by servers (breaking when old \
         clients reject what the new revision allows), `both` by either (the worse of the two). \
         `.request` contracts judge the whole JSON-RPC message, MCP `.response` contracts the `result` value. \
         `cargo protocolarc diff OLD NEW --witnesses` on two catalog files shows a witness message for each \
         breaking change.\n",
    );
    for protocol in ["mcp", "a2a"] {
        let revs: Vec<&Revision> = catalogs.iter().filter(|r| r.protocol == protocol).collect();
        if revs.is_empty() {
            continue;
        }
        let mut specs: BTreeMap<String, Vec<(usize, ContractSpec)>> = BTreeMap::new();
        for (i, rev) in revs.iter().enumerate() {
            for g in &rev.contracts {
                let name = g.contract["name"].as_str().unwrap_or_default().to_string();
                let origin = format!("{protocol}/{}/{}.json", rev.dir, g.stem);
                let spec = ContractSpec::from_slice(import::render(&g.contract).as_bytes(), &origin)
                    .map_err(|e| Failure::Input(format!("{origin}: generated contract does not load: {e}")))?;
                specs.entry(name).or_default().push((i, spec));
            }
        }
        let title = if protocol == "mcp" { "MCP" } else { "A2A" };
        text.push_str(&format!("\n## {title}\n\n"));
        // Summary: one row per message, one column per revision.
        text.push_str("| message | direction |");
        for rev in &revs {
            text.push_str(&format!(" {} |", rev.dir));
        }
        text.push_str("\n|---|---|");
        text.push_str(&"---|".repeat(revs.len()));
        text.push('\n');
        let mut sections = String::new();
        for (name, list) in &specs {
            let directions: BTreeSet<&str> = list.iter().map(|(_, s)| s.direction().as_str()).collect();
            let directions: Vec<&str> = directions.into_iter().collect();
            let mut cells = vec!["".to_string(); revs.len()];
            sections.push_str(&format!("\n### `{name}` ({})\n", directions.join(", ")));
            let mut prev: Option<&(usize, ContractSpec)> = None;
            for item in list {
                let (i, spec) = item;
                let dir = &revs[*i].dir;
                match prev {
                    None => {
                        cells[*i] = "added".into();
                        sections.push_str(&format!("\n- **{dir}**: first revision ({})\n", spec.revision()));
                    }
                    Some((j, old)) => {
                        let d = protocolarc::diff::diff(old, spec)
                            .map_err(|e| Failure::Input(format!("{name}: cannot diff: {e}")))?;
                        let verdict = d.compatibility();
                        let gap =
                            if *j + 1 != *i { format!(", absent from {}", revs[*j + 1].dir) } else { String::new() };
                        cells[*i] = verdict.to_string();
                        sections.push_str(&format!("\n- **{dir}**: {verdict} (from {}{gap})\n", revs[*j].dir));
                        if d.changes().is_empty() {
                            sections.push_str("  - no change to the shape\n");
                        }
                        for c in d.changes() {
                            sections.push_str(&format!(
                                "  - {} `{}` `{}`: {}\n",
                                c.impact(),
                                c.rule(),
                                c.field(),
                                c.message().replace('\n', " ")
                            ));
                        }
                    }
                }
                prev = Some(item);
            }
            if let Some((last, _)) = list.last() {
                if *last + 1 < revs.len() {
                    cells[*last + 1] = "removed".into();
                    sections.push_str(&format!("\n- **{}**: removed\n", revs[*last + 1].dir));
                }
            }
            for cell in cells.iter_mut().filter(|c| c.is_empty()) {
                *cell = "-".into();
            }
            text.push_str(&format!("| `{name}` | {} | {} |\n", directions.join(", "), cells.join(" | ")));
        }
        text.push_str(&sections);
    }
    Ok(text)
}

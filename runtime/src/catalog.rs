//! A set of loaded contracts, from files and directories, indexed by name and
//! revision. A directory stands for the `*.json` files directly inside it
//! (sub-directories such as `fixtures/` are not contracts).

use std::fmt;
use std::path::{Path, PathBuf};

use crate::contract::{ContractError, ContractSpec};
use crate::envelope::InputError;

/// Contracts with the files they came from, sorted by name then revision.
#[derive(Debug, Clone, Default)]
pub struct Catalog {
    entries: Vec<(PathBuf, ContractSpec)>,
}

/// Why a set of contracts could not be loaded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CatalogError {
    /// A contract file could not be loaded: every problem, with its position.
    Contract(ContractError),
    /// A path could not be read, or two contracts share a name and revision.
    Input(InputError),
}

impl fmt::Display for CatalogError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CatalogError::Contract(e) => e.fmt(f),
            CatalogError::Input(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for CatalogError {}

impl From<ContractError> for CatalogError {
    fn from(e: ContractError) -> Self {
        CatalogError::Contract(e)
    }
}

impl From<InputError> for CatalogError {
    fn from(e: InputError) -> Self {
        CatalogError::Input(e)
    }
}

impl Catalog {
    /// Loads every contract named by `paths` (files, or directories of
    /// `*.json` files). Two files defining the same name and revision are an
    /// error.
    pub fn load(paths: &[PathBuf]) -> Result<Catalog, CatalogError> {
        let mut files = Vec::new();
        for path in paths {
            files.extend(contract_files(path)?);
        }
        let mut entries = Vec::with_capacity(files.len());
        for file in files {
            let spec = ContractSpec::from_path(&file)?;
            entries.push((file, spec));
        }
        Ok(Catalog::from_entries(entries)?)
    }

    /// A catalog of contracts already loaded (from wherever), each with the
    /// path it is known by. Two entries with the same name and revision are
    /// an error.
    pub fn from_entries(mut entries: Vec<(PathBuf, ContractSpec)>) -> Result<Catalog, InputError> {
        entries.sort_by(|a, b| {
            a.1.name().cmp(b.1.name()).then_with(|| a.1.revision().cmp(b.1.revision())).then_with(|| a.0.cmp(&b.0))
        });
        for pair in entries.windows(2) {
            if pair[0].1.name() == pair[1].1.name() && pair[0].1.revision() == pair[1].1.revision() {
                let msg = format!("{} is also defined in {}", pair[1].1.id(), pair[0].0.display());
                return Err(InputError::new(pair[1].0.display().to_string(), msg));
            }
        }
        Ok(Catalog { entries })
    }

    /// All contracts, sorted by name then revision.
    pub fn contracts(&self) -> impl Iterator<Item = &ContractSpec> {
        self.entries.iter().map(|(_, c)| c)
    }

    /// Contracts with their files.
    pub fn entries(&self) -> &[(PathBuf, ContractSpec)] {
        &self.entries
    }

    /// Whether the catalog holds no contract (an empty directory).
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The contract with this name and revision text.
    pub fn find(&self, name: &str, revision: &str) -> Option<&ContractSpec> {
        self.contracts().find(|c| c.name() == name && c.revision().to_string() == revision)
    }

    /// The highest revision of a name.
    pub fn latest(&self, name: &str) -> Option<&ContractSpec> {
        self.contracts().filter(|c| c.name() == name).last()
    }

    /// The revision an envelope should be checked against: the one it
    /// declares if present, else the latest of its name.
    pub fn for_envelope(&self, name: &str, revision: Option<&str>) -> Option<&ContractSpec> {
        revision.and_then(|r| self.find(name, r)).or_else(|| self.latest(name))
    }
}

/// The directory under a contracts directory that holds envelopes, not
/// contracts (SPEC §7): skipped at any depth.
pub const FIXTURES_DIR: &str = "fixtures";

/// How deep a contracts directory is read: a deeper tree is an input error
/// (a project nests contracts a few levels: `contracts/<server>/...`).
pub const MAX_DEPTH: usize = 32;

/// The contract files a path stands for: the file, or every `*.json` file
/// below the directory (recursively, `fixtures/` left out, links to
/// directories not followed), sorted by path.
pub fn contract_files(path: &Path) -> Result<Vec<PathBuf>, InputError> {
    let origin = || path.display().to_string();
    let meta = std::fs::metadata(path).map_err(|e| InputError::io(origin(), &e))?;
    if !meta.is_dir() {
        return Ok(vec![path.to_path_buf()]);
    }
    let mut files = Vec::new();
    walk(path, 0, &mut files)?;
    if files.is_empty() {
        return Err(InputError::new(origin(), "directory contains no contract (*.json) files"));
    }
    files.sort();
    Ok(files)
}

fn walk(dir: &Path, depth: usize, files: &mut Vec<PathBuf>) -> Result<(), InputError> {
    let origin = || dir.display().to_string();
    if depth > MAX_DEPTH {
        return Err(InputError::new(origin(), format!("contracts nest deeper than {MAX_DEPTH} directories")));
    }
    let entries = std::fs::read_dir(dir).map_err(|e| InputError::io(origin(), &e))?;
    for entry in entries {
        let entry = entry.map_err(|e| InputError::io(origin(), &e))?;
        let p = entry.path();
        // The entry's own type: a link to a directory is not walked (no cycle).
        let kind = entry.file_type().map_err(|e| InputError::io(origin(), &e))?;
        if kind.is_dir() {
            if entry.file_name() != FIXTURES_DIR {
                walk(&p, depth + 1, files)?;
            }
        } else if p.extension().is_some_and(|e| e == "json") && p.is_file() {
            files.push(p);
        }
    }
    Ok(())
}

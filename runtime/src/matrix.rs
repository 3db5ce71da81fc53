//! The contract matrix: every envelope against every revision of the contract
//! it names (other contracts get a mismatch cell, not a validation), plus the
//! revision chains of every contract name. Renderers in `render::matrix` turn
//! it into text, JSON or Markdown; this module only computes.

use crate::catalog::Catalog;
use crate::chain::{chains, Chain};
use crate::envelope::Envelope;
use crate::report::Report;

/// One column: a contract revision.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Column {
    /// The contract name.
    pub name: String,
    /// The revision, as semver text (`1.2.0`).
    pub revision: String,
}

impl Column {
    /// `name@revision`.
    pub fn id(&self) -> String {
        format!("{}@{}", self.name, self.revision)
    }
}

/// One envelope against one contract revision.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cell {
    /// The envelope names another contract; it was not validated.
    Mismatch,
    /// Validated: the report.
    Checked(Report),
}

impl Cell {
    /// The validation report; `None` for a mismatch cell, which was not
    /// validated.
    pub fn report(&self) -> Option<&Report> {
        match self {
            Cell::Checked(r) => Some(r),
            Cell::Mismatch => None,
        }
    }
}

/// One envelope and its cells, one per column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// Where the envelope came from: `file.jsonl:LINE` or `file.json:INDEX`.
    pub source: String,
    /// The contract name the envelope targets.
    pub contract: String,
    /// The revision the envelope declares; `None` when it declares none (it
    /// is still checked against every revision of its contract).
    pub revision: Option<String>,
    /// One cell per column, in column order.
    pub cells: Vec<Cell>,
}

/// Counts over the matrix.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct Totals {
    /// Columns: contract revisions in the catalog.
    pub contracts: usize,
    /// Rows: envelopes read.
    pub envelopes: usize,
    /// Cells validated (an envelope against a revision of its own contract).
    pub checked: usize,
    /// Checked cells whose report has no error.
    pub passed: usize,
    /// Checked cells whose report has at least one error.
    pub failed: usize,
    /// Cells not validated because the envelope names another contract.
    pub mismatched: usize,
    /// Envelopes naming a contract none of the columns has.
    pub unmatched: usize,
    /// Chain steps whose version bump is too small for their verdict.
    pub insufficient_bumps: usize,
}

/// The whole matrix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Matrix {
    /// One column per contract revision, in catalog order (name, then
    /// revision).
    pub columns: Vec<Column>,
    /// One row per envelope, in the order they were pushed.
    pub rows: Vec<Row>,
    /// The revision chain of every contract name, sorted by name.
    pub chains: Vec<Chain>,
}

impl Matrix {
    /// Validates each envelope against every revision of the contract it
    /// names, in catalog order (name, then revision).
    pub fn build(catalog: &Catalog, envelopes: impl IntoIterator<Item = Envelope>) -> Matrix {
        let mut m = Matrix::start(catalog);
        for e in envelopes {
            m.push(catalog, &e);
        }
        m
    }

    /// An empty matrix over the catalog's revisions, with its chains, for
    /// envelopes to be [`push`](Matrix::push)ed one at a time as they are read:
    /// the matrix keeps each envelope's cells, never its data.
    pub fn start(catalog: &Catalog) -> Matrix {
        let columns: Vec<Column> = catalog
            .contracts()
            .map(|c| Column { name: c.name().to_string(), revision: c.revision().to_string() })
            .collect();
        Matrix { columns, rows: Vec::new(), chains: chains(catalog.contracts()) }
    }

    /// Adds one envelope's row (`catalog` must be the one the matrix started with).
    pub fn push(&mut self, catalog: &Catalog, e: &Envelope) {
        let cells = catalog
            .contracts()
            .map(|c| if c.name() == e.contract() { Cell::Checked(c.validate_envelope(e)) } else { Cell::Mismatch })
            .collect();
        self.rows.push(Row {
            source: e.source().to_string(),
            contract: e.contract().to_string(),
            revision: e.revision().map(str::to_string),
            cells,
        });
    }

    /// Counts the columns, rows and cells, and the chain steps whose bump is
    /// too small; computed afresh on each call.
    pub fn totals(&self) -> Totals {
        let mut t = Totals { contracts: self.columns.len(), envelopes: self.rows.len(), ..Totals::default() };
        for row in &self.rows {
            if !self.columns.iter().any(|c| c.name == row.contract) {
                t.unmatched += 1;
            }
            for cell in &row.cells {
                match cell {
                    Cell::Mismatch => t.mismatched += 1,
                    Cell::Checked(r) => {
                        t.checked += 1;
                        if r.is_valid() {
                            t.passed += 1;
                        } else {
                            t.failed += 1;
                        }
                    }
                }
            }
        }
        t.insufficient_bumps = self.chains.iter().flat_map(|c| &c.steps).filter(|s| !s.is_sufficient()).count();
        t
    }

    /// Whether every checked cell passed, every envelope found its contract,
    /// and every chain's bumps suffice.
    pub fn is_clean(&self) -> bool {
        let t = self.totals();
        t.failed == 0 && t.unmatched == 0 && t.insufficient_bumps == 0
    }
}

//! The cross-crate tests, one binary (one link, one run): every module is one
//! concern, named for it. The tests that count allocations (`alloc.rs`,
//! `stream.rs`) install a global allocator and keep binaries of their own.

mod adversarial;
mod api;
mod apicurio;
mod bad_input;
mod cli;
mod compat_cli;
mod compiletest;
mod conformance;
mod contract_schema;
mod describe_schema;
mod diff_rules;
mod example;
mod fields_v2;
mod fuzz;
mod generated;
mod git_ci;
mod hostile;
mod import_export;
mod input_limits;
mod invariants;
mod loss;
mod mcp_history;
mod protocols;
mod readme;
mod real_schemas;
mod rebuild;
mod regression;
mod rule_records;
mod rules;
mod schema_check;
mod schema_cli;
mod schema_conformance;
mod schema_diff;
mod schema_form;
mod soundness;
mod soundness_v2;
mod strategies;
mod tool_revisions;
mod tool_snapshots;
mod traffic;
mod typed;

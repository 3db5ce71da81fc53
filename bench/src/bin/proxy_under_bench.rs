//! The stdio proxy as `cargo protocolarc proxy` runs it, without the CLI's
//! argument parsing and catalog lookup: `proxy-under-bench MODE CATALOG --
//! SERVER ARGS...`, MODE `relay` (checks off), `observe` or `enforce`.
//! Findings (none on the benchmark's valid session) go to stderr.

use std::sync::Arc;

use protocolarc_proxy::{stdio, Config, Options};

fn main() {
    let mut args = std::env::args_os().skip(1);
    let mode = args.next().expect("MODE").into_string().expect("a mode");
    let catalog = args.next().expect("CATALOG");
    assert_eq!(args.next().as_deref(), Some(std::ffi::OsStr::new("--")), "-- SERVER ...");
    let program = args.next().expect("SERVER");
    let options = Options {
        catalog: catalog.into(),
        protocol: None,
        tools: None,
        enforce: mode == "enforce",
        relay: mode == "relay",
        report: None,
        record: None,
        max_message: protocolarc::input::DEFAULT_MAX_LINE,
    };
    let config = Config::new(options).expect("the catalog loads");
    let code = stdio::run(Arc::new(config), program, args.collect()).expect("the server runs");
    std::process::exit(code);
}

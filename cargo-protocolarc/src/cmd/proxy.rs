//! `proxy`: the contracts judged live between a client and a server (SPEC
//! §14). The judging and the transports are `protocolarc-proxy`'s; this
//! module turns the flags into its configuration.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;
use std::sync::Arc;

use protocolarc::input::Limits;
use protocolarc_proxy::http::{HttpOptions, Upstream};
use protocolarc_proxy::{Config, Options};

use super::Ctx;
use crate::cli::proxy::ProxyArgs;
use crate::Failure;

pub(crate) fn run(cx: &Ctx, args: ProxyArgs) -> Result<i32, Failure> {
    let limits = Limits::from_env().map_err(Failure::Input)?;
    let catalog = cx.catalog_root(&args.protocols)?;
    let options = Options {
        catalog,
        protocol: args.protocols.protocol.clone(),
        tools: args.protocols.tools.clone(),
        enforce: args.enforce,
        relay: args.relay,
        report: args.report.as_deref().map(create).transpose()?,
        record: args.record.as_deref().map(create).transpose()?,
        max_message: limits.max_line,
    };
    let config = Config::new(options).map_err(Failure::Input)?;
    if let (Some(listen), Some(upstream)) = (&args.listen, &args.upstream) {
        return http(config, listen, upstream);
    }
    let mut server = args.server.into_iter();
    let Some(program) = server.next() else {
        return Err(Failure::Input("proxy: name the server command after --".into()));
    };
    protocolarc_proxy::stdio::run(Arc::new(config), program, server.collect()).map_err(Failure::Input)
}

/// `--listen ADDR --upstream URL`: the HTTP proxy, until SIGINT or SIGTERM.
fn http(config: Config, listen: &str, upstream: &str) -> Result<i32, Failure> {
    let upstream = Upstream::parse(upstream).map_err(Failure::Input)?;
    let options = HttpOptions { listen: listen.to_string(), upstream };
    protocolarc_proxy::http::serve(&options, Arc::new(config)).map_err(Failure::Input)?;
    Ok(0)
}

/// A report or record file, created (truncated), written through a buffer
/// the proxy flushes line by line.
fn create(path: &Path) -> Result<Box<dyn Write + Send>, Failure> {
    let file = File::create(path)
        .map_err(|e| Failure::Input(format!("{}: cannot create: {}", path.display(), crate::io_reason(&e))))?;
    Ok(Box::new(BufWriter::new(file)))
}

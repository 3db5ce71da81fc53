//! A replaying JSON-RPC server over stdio, for the proxy's tests and its
//! benchmark: it answers each request with the result its method has in a
//! results file, under the request's id, and says nothing to notifications.
//!
//! Usage: `replay-server RESULTS.json [--log FILE] [--exit CODE]`.
//! RESULTS.json: `{"METHOD": RESULT, ...}`, plus optional `"then": {"METHOD":
//! ["LINE", ...]}`: lines written verbatim after answering that method (a
//! notification, a line that is not JSON). `--log FILE`: every line received
//! is appended to FILE as received. `--exit CODE`: the exit status at the end
//! of input.

use std::collections::HashMap;
use std::io::{BufRead, BufWriter, Write};

use serde_json::Value;

fn main() {
    let mut args = std::env::args().skip(1);
    let results = args.next().expect("usage: replay-server RESULTS.json [--log FILE] [--exit CODE]");
    let (mut log, mut code) = (None, 0);
    while let Some(flag) = args.next() {
        let value = args.next().expect("a flag takes a value");
        match flag.as_str() {
            "--log" => log = Some(std::fs::File::create(value).expect("the log is created")),
            "--exit" => code = value.parse().expect("an exit code"),
            other => panic!("unknown flag {other}"),
        }
    }
    let doc: serde_json::Map<String, Value> =
        serde_json::from_slice(&std::fs::read(&results).expect("the results file reads")).expect("a JSON object");
    let mut answers: HashMap<String, String> = HashMap::new();
    let mut then: HashMap<String, Vec<String>> = HashMap::new();
    for (method, result) in &doc {
        if method == "then" {
            for (m, lines) in result.as_object().expect("then: an object") {
                let lines = lines.as_array().expect("then: arrays of lines");
                then.insert(m.clone(), lines.iter().map(|l| l.as_str().expect("a line").to_string()).collect());
            }
        } else {
            answers.insert(method.clone(), result.to_string());
        }
    }
    let stdin = std::io::stdin();
    let mut out = BufWriter::new(std::io::stdout().lock());
    let mut line = Vec::new();
    let mut input = stdin.lock();
    loop {
        line.clear();
        match input.read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        if let Some(log) = log.as_mut() {
            log.write_all(&line).expect("the log writes");
        }
        let Ok(message) = serde_json::from_slice::<Value>(&line) else { continue };
        let (Some(method), Some(id)) = (message.get("method").and_then(Value::as_str), message.get("id")) else {
            continue;
        };
        let wrote = match answers.get(method) {
            Some(result) => writeln!(out, "{{\"jsonrpc\":\"2.0\",\"id\":{id},\"result\":{result}}}"),
            None => writeln!(
                out,
                "{{\"jsonrpc\":\"2.0\",\"id\":{id},\"error\":{{\"code\":-32601,\"message\":\"Method not found\"}}}}"
            ),
        };
        if wrote.is_err() {
            break;
        }
        for extra in then.get(method).into_iter().flatten() {
            let _ = writeln!(out, "{extra}");
        }
        if out.flush().is_err() {
            break;
        }
    }
    drop(out);
    std::process::exit(code);
}

//! The stdio transport: the proxy runs the server as its child and stands
//! in its place for the client (an MCP host runs `cargo protocolarc proxy --
//! SERVER ...` as the server command). Lines go client stdin -> server
//! stdin and server stdout -> client stdout, each judged in flight; the
//! server's stderr is the proxy's.
//!
//! Memory is bounded: one line per direction is held (at most the message
//! cap; a longer line is streamed through or discarded, never held), and the
//! next line is not read before the last one is written and judged (the
//! slow side's pipe pushes back on the other). Observing, a line is written
//! before it is judged, on the judge's own thread (`behind.rs`, whose queue
//! has a budget), so that judging overlaps relaying; the line is queued
//! before it is written, which keeps the judge's order the wire's (a
//! response is never judged before its request). The proxy exits with the
//! server's status; SIGINT and SIGTERM are passed on to the server.

use std::ffi::OsString;
use std::io;
use std::process::Stdio;
use std::sync::{Arc, Mutex};

use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::process::Command;
use tokio::sync::Mutex as AsyncMutex;

use crate::behind::Behind;
use crate::judge::{Action, Config, Judge, Side};

/// The session name of the stdio transport's one session.
pub const SESSION: &str = "stdio";

/// Runs `program args` behind the proxy until it exits: its exit code
/// (128 + the signal that ended it). An error when it cannot be started.
pub fn run(config: Arc<Config>, program: OsString, args: Vec<OsString>) -> Result<i32, String> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .build()
        .map_err(|e| format!("cannot start the proxy's runtime: {e}"))?;
    let code = rt.block_on(session(config, program, args));
    // The client's stdin is read on a blocking thread that may wait forever
    // for a line: do not wait for it.
    rt.shutdown_background();
    code
}

/// Where a side's lines go: the other side's input, shared with the
/// answers the judge sends back to it.
type Out = Arc<AsyncMutex<Option<Box<dyn AsyncWrite + Send + Unpin>>>>;

async fn session(config: Arc<Config>, program: OsString, args: Vec<OsString>) -> Result<i32, String> {
    let shown = program.to_string_lossy().into_owned();
    let mut child = Command::new(&program)
        .args(&args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| format!("{shown}: cannot start the server: {}", protocolarc::io_reason(&e)))?;
    let judge = Arc::new(Mutex::new(Judge::new(config.clone(), SESSION.to_string())));
    let (Some(server_in), Some(server_out)) = (child.stdin.take(), child.stdout.take()) else {
        return Err(format!("{shown}: the server's pipes were not opened"));
    };
    let to_server: Out = Arc::new(AsyncMutex::new(Some(Box::new(server_in) as Box<dyn AsyncWrite + Send + Unpin>)));
    let to_client: Out = Arc::new(AsyncMutex::new(Some(client_output()?)));
    let max = config.max_message();
    let (behind, judging) = match config.observes() {
        true => {
            let (behind, judging) = Behind::start(judge.clone())
                .map_err(|e| format!("cannot start the judge's thread: {}", protocolarc::io_reason(&e)))?;
            (Some(behind), Some(judging))
        }
        false => (None, None),
    };
    let up = tokio::spawn(pump(
        BufReader::new(client_input()?),
        Side::Client,
        (judge.clone(), behind.clone()),
        to_server.clone(),
        to_client.clone(),
        max,
    ));
    let down = tokio::spawn(pump(
        BufReader::new(server_out),
        Side::Server,
        (judge.clone(), behind),
        to_client.clone(),
        to_server.clone(),
        max,
    ));
    let signals = tokio::spawn(forward_signals(child.id()));
    let status = child.wait().await;
    // What the server wrote before it exited still reaches the client.
    let _ = down.await;
    signals.abort();
    up.abort();
    // Every line and event queued so far is judged before the exit is told.
    if let Some(judging) = judging {
        judging.finish();
    }
    let judge = judge.lock().unwrap_or_else(|e| e.into_inner());
    match status {
        Ok(status) => {
            let code = exit_code(&status);
            judge.event("exit", &format!("the server exited with status {code}"));
            Ok(code)
        }
        Err(e) => {
            let why = format!("cannot wait for the server: {}", protocolarc::io_reason(&e));
            judge.event("exit", &why);
            Err(why)
        }
    }
}

/// This process's stdout as the client's input, through its own
/// descriptor: the standard library's `Stdout` may be locked by the caller
/// for the whole command (the CLI holds it), and the proxy writes past it.
fn client_output() -> Result<Box<dyn AsyncWrite + Send + Unpin>, String> {
    let fd = duplicate(&std::io::stdout()).map_err(|e| format!("cannot use stdout: {}", protocolarc::io_reason(&e)))?;
    // A pipe (what an MCP host gives its server) is polled by the runtime;
    // anything else (a file, a terminal) is written on a blocking thread.
    #[cfg(unix)]
    if fd.metadata().is_ok_and(|m| std::os::unix::fs::FileTypeExt::is_fifo(&m.file_type())) {
        if let Ok(pipe) = tokio::net::unix::pipe::Sender::from_file(fd.try_clone().map_err(|e| e.to_string())?) {
            return Ok(Box::new(pipe));
        }
    }
    Ok(Box::new(tokio::fs::File::from_std(fd)))
}

/// This process's stdin, the client's output, through its own descriptor.
fn client_input() -> Result<Box<dyn AsyncRead + Send + Unpin>, String> {
    let fd = duplicate(&std::io::stdin()).map_err(|e| format!("cannot use stdin: {}", protocolarc::io_reason(&e)))?;
    #[cfg(unix)]
    if fd.metadata().is_ok_and(|m| std::os::unix::fs::FileTypeExt::is_fifo(&m.file_type())) {
        if let Ok(pipe) = tokio::net::unix::pipe::Receiver::from_file(fd.try_clone().map_err(|e| e.to_string())?) {
            return Ok(Box::new(pipe));
        }
    }
    Ok(Box::new(tokio::fs::File::from_std(fd)))
}

#[cfg(unix)]
fn duplicate(stream: &impl std::os::fd::AsFd) -> io::Result<std::fs::File> {
    Ok(std::fs::File::from(stream.as_fd().try_clone_to_owned()?))
}

#[cfg(windows)]
fn duplicate(stream: &impl std::os::windows::io::AsHandle) -> io::Result<std::fs::File> {
    Ok(std::fs::File::from(stream.as_handle().try_clone_to_owned()?))
}

/// The exit code a shell gives a process's status.
fn exit_code(status: &std::process::ExitStatus) -> i32 {
    if let Some(code) = status.code() {
        return code;
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(sig) = status.signal() {
            return 128 + sig;
        }
    }
    1
}

/// Relays one side's lines until its end: each judged, then forwarded,
/// answered, replaced or dropped. At the end, the other side's input is
/// closed (a client that hangs up closes the server's stdin: the server's
/// cue to exit).
async fn pump<R: AsyncBufRead + Unpin>(
    mut from: R,
    side: Side,
    (judge, behind): (Arc<Mutex<Judge>>, Option<Behind>),
    forward: Out,
    back: Out,
    max: usize,
) {
    let mut line = Vec::new();
    let why = loop {
        line.clear();
        match read_line(&mut from, &mut line, max).await {
            Ok(Read::End) => break None,
            Ok(Read::Line) if behind.is_some() => {
                if let Some(behind) = &behind {
                    behind.line(side, &line);
                }
                if let Err(e) = write(&forward, &line, false).await {
                    break Some(e);
                }
            }
            Ok(Read::Line) => {
                let action = judge.lock().unwrap_or_else(|e| e.into_inner()).message(side, &line);
                if let Err(e) = carry(action, &line, &forward, &back).await {
                    break Some(e);
                }
            }
            Ok(Read::Long) => {
                let action = match &behind {
                    Some(behind) => {
                        // Observing, a line too long is forwarded whatever is said of it.
                        behind.long(side, line.len());
                        Action::Forward
                    }
                    None => judge.lock().unwrap_or_else(|e| e.into_inner()).too_large(side, line.len()),
                };
                if let Err(e) = long(&mut from, action, &line, &forward, &back).await {
                    break Some(e);
                }
            }
            Err(e) => break Some(e),
        }
    };
    let (what, whose) = match side {
        Side::Client => ("disconnect", "the client closed its side"),
        Side::Server => ("end", "the server closed its output"),
    };
    let said = match why {
        None => whose.to_string(),
        Some(e) => format!("{whose}: {}", protocolarc::io_reason(&e)),
    };
    match &behind {
        Some(behind) => behind.event(what, said),
        None => judge.lock().unwrap_or_else(|e| e.into_inner()).event(what, &said),
    }
    if side == Side::Client {
        // Dropping the server's stdin closes it.
        forward.lock().await.take();
    }
}

/// What [`read_line`] read.
enum Read {
    /// A whole line (its break included, if it had one).
    Line,
    /// The first `max` bytes of a longer line; the rest is still unread.
    Long,
    /// The end of the input.
    End,
}

/// Reads one line into `buf`, at most `max` bytes past which it stops.
async fn read_line<R: AsyncBufRead + Unpin>(r: &mut R, buf: &mut Vec<u8>, max: usize) -> io::Result<Read> {
    loop {
        let chunk = r.fill_buf().await?;
        if chunk.is_empty() {
            return Ok(if buf.is_empty() { Read::End } else { Read::Line });
        }
        let room = max.saturating_add(2).saturating_sub(buf.len());
        let (take, done) = match memchr(chunk) {
            Some(i) if i < room => (i + 1, true),
            _ => (chunk.len().min(room), false),
        };
        buf.extend_from_slice(&chunk[..take]);
        r.consume(take);
        if done {
            return Ok(Read::Line);
        }
        if buf.len() >= max.saturating_add(2) {
            return Ok(Read::Long);
        }
    }
}

fn memchr(b: &[u8]) -> Option<usize> {
    b.iter().position(|&c| c == b'\n')
}

/// Carries out an action on a whole line.
async fn carry(action: Action, line: &[u8], forward: &Out, back: &Out) -> io::Result<()> {
    match action {
        Action::Forward => write(forward, line, false).await,
        Action::Replace(bytes) => write(forward, &bytes, true).await,
        Action::Answer(bytes) => write(back, &bytes, true).await,
        Action::Drop => Ok(()),
    }
}

/// Carries out an action on a line longer than the cap: its head read, the
/// rest streamed through (forwarded) or discarded, never held.
async fn long<R: AsyncBufRead + Unpin>(
    from: &mut R,
    action: Action,
    head: &[u8],
    forward: &Out,
    back: &Out,
) -> io::Result<()> {
    let through = action == Action::Forward;
    let mut out = forward.lock().await;
    if through {
        if let Some(w) = out.as_mut() {
            w.write_all(head).await?;
        }
    }
    loop {
        let chunk = from.fill_buf().await?;
        if chunk.is_empty() {
            break;
        }
        let (take, done) = match memchr(chunk) {
            Some(i) => (i + 1, true),
            None => (chunk.len(), false),
        };
        if through {
            if let Some(w) = out.as_mut() {
                w.write_all(&chunk[..take]).await?;
            }
        }
        from.consume(take);
        if done {
            break;
        }
    }
    if through {
        if let Some(w) = out.as_mut() {
            w.flush().await?;
        }
    }
    drop(out);
    match action {
        Action::Answer(bytes) => write(back, &bytes, true).await,
        _ => Ok(()),
    }
}

/// Writes a line to a side (with a line break when `newline`), flushed.
/// A side whose input is closed takes nothing.
async fn write(to: &Out, bytes: &[u8], newline: bool) -> io::Result<()> {
    let mut to = to.lock().await;
    let Some(w) = to.as_mut() else { return Ok(()) };
    w.write_all(bytes).await?;
    if newline {
        w.write_all(b"\n").await?;
    }
    w.flush().await
}

/// Passes SIGINT and SIGTERM on to the server, until aborted.
#[cfg(unix)]
async fn forward_signals(pid: Option<u32>) {
    use tokio::signal::unix::{signal, SignalKind};
    let (Some(pid), Ok(mut int), Ok(mut term)) =
        (pid, signal(SignalKind::interrupt()), signal(SignalKind::terminate()))
    else {
        return;
    };
    loop {
        let sig = tokio::select! {
            _ = int.recv() => libc::SIGINT,
            _ = term.recv() => libc::SIGTERM,
        };
        // SAFETY: kill(2) with the child's pid and a valid signal number
        // touches no memory of this process.
        unsafe {
            libc::kill(pid as libc::pid_t, sig);
        }
    }
}

#[cfg(not(unix))]
async fn forward_signals(_pid: Option<u32>) {
    let _ = tokio::signal::ctrl_c().await;
}

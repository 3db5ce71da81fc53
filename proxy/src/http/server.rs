//! The listening side: accepts connections, serves each on its own task, and
//! on SIGINT or SIGTERM stops accepting, lets the exchanges in flight finish
//! for a short grace and returns.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use tokio::net::TcpListener;
use tokio::signal::unix::{signal, SignalKind};

use super::forward::{handle, Connection, Proxy};

/// How long open exchanges (a GET event stream never ends by itself) may
/// go on after a shutdown signal.
const GRACE: Duration = Duration::from_secs(3);
/// A client that has not sent its request head by then is dropped.
const HEAD_TIMEOUT: Duration = Duration::from_secs(30);

pub(crate) async fn run(listener: TcpListener, proxy: Arc<Proxy>) -> Result<(), String> {
    let mut terminate = signal(SignalKind::terminate()).map_err(|error| format!("SIGTERM handler: {error}"))?;
    let mut interrupt = signal(SignalKind::interrupt()).map_err(|error| format!("SIGINT handler: {error}"))?;
    let graceful = GracefulShutdown::new();
    let counter = AtomicU64::new(0);
    loop {
        tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, peer)) => {
                    let name = format!("http-{}", counter.fetch_add(1, Ordering::Relaxed) + 1);
                    let connection = Arc::new(Connection::new(proxy.clone(), name));
                    let service = service_fn(move |request| handle(connection.clone(), request));
                    let served = http1::Builder::new()
                        .timer(TokioTimer::new())
                        .header_read_timeout(HEAD_TIMEOUT)
                        .serve_connection(TokioIo::new(stream), service);
                    let watched = graceful.watch(served);
                    tokio::spawn(async move {
                        if let Err(error) = watched.await {
                            if !error.is_incomplete_message() && !error.is_canceled() {
                                eprintln!("protocolarc proxy: connection from {peer}: {error}");
                            }
                        }
                    });
                }
                Err(error) => eprintln!("protocolarc proxy: accept: {error}"),
            },
            _ = terminate.recv() => break,
            _ = interrupt.recv() => break,
        }
    }
    drop(listener);
    eprintln!("protocolarc proxy: shutting down");
    tokio::select! {
        _ = graceful.shutdown() => {}
        _ = tokio::time::sleep(GRACE) => {}
    }
    Ok(())
}

/// The upstream client: pooled HTTP/1 connections, a bounded connect time.
pub(crate) fn client<B>() -> hyper_util::client::legacy::Client<hyper_util::client::legacy::connect::HttpConnector, B>
where
    B: hyper::body::Body + Send + 'static,
    B::Data: Send,
{
    let mut connector = hyper_util::client::legacy::connect::HttpConnector::new();
    connector.set_connect_timeout(Some(Duration::from_secs(10)));
    connector.set_nodelay(true);
    hyper_util::client::legacy::Client::builder(TokioExecutor::new()).build(connector)
}

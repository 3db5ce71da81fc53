//! An upstream event stream judged as it passes: each event goes to the
//! client as soon as it is complete and judged, nothing more is read from
//! upstream until the client has taken what was read (backpressure), and a
//! client that goes away drops the upstream stream with it.

use std::collections::VecDeque;
use std::pin::Pin;
use std::task::{ready, Context, Poll};

use bytes::Bytes;
use hyper::body::{Body, Frame, Incoming, SizeHint};

use super::forward::{BoxError, ServerAnswers};
use super::sessions::{lock, Shared};
use super::sse::{self, Splitter};
use crate::judge::{Action, Side};

pub(crate) struct JudgedStream {
    upstream: Incoming,
    splitter: Option<Splitter>,
    judge: Shared,
    answers: ServerAnswers,
    ready: VecDeque<Bytes>,
}

impl JudgedStream {
    pub(crate) fn new(upstream: Incoming, judge: Shared, cap: usize, answers: ServerAnswers) -> JudgedStream {
        JudgedStream { upstream, splitter: Some(Splitter::new(cap)), judge, answers, ready: VecDeque::new() }
    }

    /// Judges the events one upstream frame completed; what the client is to
    /// receive waits in `ready` (at most one frame's events).
    fn take(&mut self, bytes: &[u8]) -> Result<(), BoxError> {
        let Some(splitter) = self.splitter.as_mut() else { return Ok(()) };
        let events = match splitter.push(bytes) {
            Ok(events) => events,
            Err(over) => {
                // Reported as any oversized message; an event stream cannot
                // go on past an event it could not pass whole.
                lock(&self.judge).too_large(Side::Server, over.0);
                return Err(format!("an upstream event passed the {}-byte cap: the stream is cut", over.0).into());
            }
        };
        for event in events {
            if let Some(out) = self.judged(event) {
                self.ready.push_back(out);
            }
        }
        Ok(())
    }

    fn judged(&self, event: Vec<u8>) -> Option<Bytes> {
        let Some(data) = sse::data(&event).filter(|data| !data.is_empty()) else {
            return Some(event.into());
        };
        match lock(&self.judge).message(Side::Server, &data) {
            Action::Forward => Some(event.into()),
            Action::Replace(replacement) => Some(sse::with_data(&event, &replacement).into()),
            Action::Answer(answer) => {
                self.answers.send(answer);
                None
            }
            Action::Drop => None,
        }
    }
}

/// A stream dropped before its end: the client went away (or the proxy is
/// stopping); the upstream stream goes with it, and the report says so.
impl Drop for JudgedStream {
    fn drop(&mut self) {
        if self.splitter.is_some() {
            lock(&self.judge)
                .event("disconnect", "the client left an event stream before its end: the upstream stream is dropped");
        }
    }
}

impl Body for JudgedStream {
    type Data = Bytes;
    type Error = BoxError;

    fn poll_frame(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        loop {
            if let Some(bytes) = self.ready.pop_front() {
                return Poll::Ready(Some(Ok(Frame::data(bytes))));
            }
            if self.splitter.is_none() {
                return Poll::Ready(None);
            }
            match ready!(Pin::new(&mut self.upstream).poll_frame(cx)) {
                Some(Ok(frame)) => {
                    if let Ok(bytes) = frame.into_data() {
                        if let Err(error) = self.take(&bytes) {
                            self.splitter = None;
                            return Poll::Ready(Some(Err(error)));
                        }
                    }
                }
                Some(Err(error)) => {
                    self.splitter = None;
                    return Poll::Ready(Some(Err(error.into())));
                }
                None => {
                    // An event the stream ended inside passes on unjudged:
                    // it never became a message.
                    let rest = self.splitter.take().map(Splitter::finish).unwrap_or_default();
                    if !rest.is_empty() {
                        self.ready.push_back(rest.into());
                    }
                }
            }
        }
    }

    fn is_end_stream(&self) -> bool {
        self.splitter.is_none() && self.ready.is_empty()
    }

    fn size_hint(&self) -> SizeHint {
        SizeHint::default()
    }
}

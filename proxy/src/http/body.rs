//! Bodies read whole up to the message cap, and past it passed on as a
//! stream: the bytes already read, then the rest as it comes, never held.

use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::Bytes;
use http_body_util::BodyExt;
use hyper::body::{Body as HttpBody, Frame, Incoming, SizeHint};

use super::forward::{Body, BoxError};

/// A body read up to the cap.
pub(crate) enum Read {
    Whole(Bytes),
    /// Longer than the cap: `seen` bytes read so far, `body` all of it.
    Over {
        seen: usize,
        body: Body,
    },
}

/// Reads `body` whole, or stops once it passes `cap` bytes.
pub(crate) async fn read(mut body: Incoming, cap: usize) -> Result<Read, String> {
    let mut bytes = Vec::new();
    while let Some(frame) = body.frame().await {
        let frame = frame.map_err(|error| error.to_string())?;
        let Ok(data) = frame.into_data() else { continue };
        bytes.extend_from_slice(&data);
        if bytes.len() > cap {
            let seen = bytes.len();
            let body = Prefixed { prefix: Some(bytes.into()), rest: body }.boxed();
            return Ok(Read::Over { seen, body });
        }
    }
    Ok(Read::Whole(bytes.into()))
}

/// The bytes read, then the rest of the body.
struct Prefixed {
    prefix: Option<Bytes>,
    rest: Incoming,
}

impl HttpBody for Prefixed {
    type Data = Bytes;
    type Error = BoxError;

    fn poll_frame(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        if let Some(prefix) = self.prefix.take() {
            return Poll::Ready(Some(Ok(Frame::data(prefix))));
        }
        Pin::new(&mut self.rest).poll_frame(cx).map_err(BoxError::from)
    }

    fn is_end_stream(&self) -> bool {
        self.prefix.is_none() && self.rest.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        SizeHint::default()
    }
}

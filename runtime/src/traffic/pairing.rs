//! Responses paired with the requests they answer, in input order: a
//! request remembered as pending, a response given the latest pending
//! request of its id sent by the other side (or, for a raw line, either
//! side's, [`Router::either`]), a stream's request kept until its last event
//! (or until a message that ends its stream: the end of a HAR entry's).

use serde_json::value::RawValue;

use super::id::{IdRef, Side};
use super::router::{Parsed, Router};
use super::stream;
use super::verdict::Judged;
use super::waiting::{Pending, Waiting};
use crate::report::Finding;
use crate::rules;

/// One message paired and finished in turn (on one thread). Taken apart
/// by value: a request's id goes to the pending ones without being taken
/// out of the message first (a message moved on after that read back the
/// word pairing had just written into it, a stalled load per request).
/// `ends`: the message ends its stream ([`Traffic::har_message`](super::Traffic::har_message)).
#[inline(always)]
pub(super) fn settle<'a, 'c>(
    router: &Router<'c>,
    pending: &mut Waiting<'c>,
    p: Parsed<'a, 'c>,
    ends: bool,
) -> Judged<'a>
where
    'c: 'a,
{
    match p {
        Parsed::Done(j) | Parsed::Request(j, None) => j,
        Parsed::Request(j, Some((id, held))) => {
            pending.push(&id, held);
            j
        }
        mut p @ Parsed::Response { .. } => {
            pair_until(router, pending, &mut p, ends);
            router.finish(p)
        }
    }
}

/// Pairs a response with the latest still-unanswered request of its id, or
/// remembers a request as pending: in input order. Whether a result waits
/// to be judged by the request's method.
pub(super) fn pair<'c>(router: &Router<'c>, pending: &mut Waiting<'c>, p: &mut Parsed<'_, 'c>) -> bool {
    pair_until(router, pending, p, false)
}

/// [`pair`], where a response that `ends` its stream leaves its request
/// answered even when it is not the stream's last event: the stream it
/// came in ended without one, and a later response of that id answers
/// something else (or nothing).
fn pair_until<'c>(router: &Router<'c>, pending: &mut Waiting<'c>, p: &mut Parsed<'_, 'c>, ends: bool) -> bool {
    match p {
        Parsed::Request(_, waits) => {
            if let Some((id, held)) = waits.take() {
                pending.push(&id, held);
            }
            false
        }
        Parsed::Response { findings, id, result, paired, .. } => {
            if let Some((id, excerpt)) = &id {
                let (side, kind) = Side::of(id.tag);
                let (answered, by) = match side {
                    Side::Unknown => (router.either(pending, id, excerpt, *result, findings), Side::Unknown),
                    side => match pending.answer(&id.key_from(side.other())) {
                        Some(p) => (Some(p), side.other()),
                        None => (pending.answer(&id.key_from(Side::Unknown)), Side::Unknown),
                    },
                };
                // A stream's request waits on for its next event, until the last.
                if let (Some(p), Some(r)) = (&answered, *result) {
                    if stream::streams(&p.method) && !ends && !stream::last(r) {
                        pending.push(&IdRef { tag: by.tag(kind), body: id.body.clone() }, p.clone().into());
                    }
                }
                *paired = answered;
            }
            if let (Some((_, excerpt)), None) = (&id, &paired) {
                let msg = format!("no request with id {excerpt} is waiting for a response in this file");
                findings.insert(0, Finding::new(rules::ROUTE_ID, "id", msg));
            }
            result.is_some()
        }
        Parsed::Done(_) => false,
    }
}

impl<'c> Router<'c> {
    /// The request a raw response answers: the latest pending one of its
    /// id, unless the one before it is of another method (the other side's
    /// request, whose id collides) and only that one's response contract
    /// accepts the result; a `route.ambiguous` warning names both.
    pub(super) fn either(
        &self,
        pending: &mut Waiting<'c>,
        id: &IdRef<'_>,
        excerpt: &str,
        result: Option<&RawValue>,
        findings: &mut Vec<Finding>,
    ) -> Option<Pending<'c>> {
        let key = id.key();
        let (latest, before) = match pending.latest_two(&key) {
            [Some(a), Some(b)] if a != b => (a.into_owned(), b.into_owned()),
            _ => return pending.answer(&key),
        };
        let accepts = |method: &str| {
            let contract = self.methods.get(method.as_bytes()).and_then(|m| m.response);
            matches!((result, contract), (Some(r), Some(c)) if c.validate_json(r.get().as_bytes()).is_valid())
        };
        let second = !accepts(&latest) && accepts(&before);
        let chosen = if second { &before } else { &latest };
        let (latest, before, chosen) = (
            protocolarc_core::one_line(&latest),
            protocolarc_core::one_line(&before),
            protocolarc_core::one_line(chosen),
        );
        findings.push(Finding::new(
            rules::ROUTE_AMBIGUOUS,
            "id",
            format!(
                "id {excerpt} is pending for two requests, {latest} and {before} (a raw line does not say who sent which): paired with {chosen}"
            ),
        ));
        if second {
            pending.answer_second(&key)
        } else {
            pending.answer(&key)
        }
    }
}

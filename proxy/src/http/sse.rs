//! Server-sent events cut out of a byte stream without rewriting them: each
//! event's raw bytes (its lines and the blank line that ends it) pass on
//! exactly as they came, so a forwarded stream is byte for byte the
//! upstream's; only the data is read, for the judge. Parser crates hand back
//! decoded fields (line endings, comments and field order lost), which a
//! byte-transparent proxy cannot re-emit.

/// An event's pending bytes (`.0` of them) passed the cap before it ended.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Oversize(pub usize);

/// Collects a stream's bytes and hands back each event once it is complete.
pub(crate) struct Splitter {
    pending: Vec<u8>,
    line_start: usize,
    cap: usize,
}

impl Splitter {
    pub(crate) fn new(cap: usize) -> Splitter {
        Splitter { pending: Vec::new(), line_start: 0, cap }
    }

    /// Appends `bytes` and returns every event they complete, in order.
    pub(crate) fn push(&mut self, bytes: &[u8]) -> Result<Vec<Vec<u8>>, Oversize> {
        self.pending.extend_from_slice(bytes);
        let mut events = Vec::new();
        while let Some(end) = self.event_end() {
            events.push(self.pending.drain(..end).collect());
            self.line_start = 0;
        }
        if self.pending.len() > self.cap {
            return Err(Oversize(self.pending.len()));
        }
        Ok(events)
    }

    /// The bytes of an event the stream ended inside (passed on as they are).
    pub(crate) fn finish(self) -> Vec<u8> {
        self.pending
    }

    /// Where the first complete event ends, resuming the scan at the line it
    /// stopped in (so a long event arriving in small pieces is scanned once).
    fn event_end(&mut self) -> Option<usize> {
        loop {
            let rest = &self.pending[self.line_start..];
            let at = rest.iter().position(|&b| b == b'\r' || b == b'\n')?;
            let length = match (rest[at], rest.get(at + 1)) {
                (b'\r', Some(b'\n')) => 2,
                // A lone CR at the end may be the first half of CRLF.
                (b'\r', None) => return None,
                _ => 1,
            };
            let end = self.line_start + at + length;
            if at == 0 {
                return Some(end);
            }
            self.line_start = end;
        }
    }
}

/// The lines of an event, each with its terminator.
fn lines(event: &[u8]) -> Vec<&[u8]> {
    let mut lines = Vec::new();
    let mut start = 0;
    let mut at = 0;
    while at < event.len() {
        let length = match (event[at], event.get(at + 1)) {
            (b'\r', Some(b'\n')) => 2,
            (b'\r' | b'\n', _) => 1,
            _ => 0,
        };
        if length == 0 {
            at += 1;
            continue;
        }
        lines.push(&event[start..at + length]);
        start = at + length;
        at = start;
    }
    if start < event.len() {
        lines.push(&event[start..]);
    }
    lines
}

fn content(line: &[u8]) -> &[u8] {
    let end = line.iter().position(|&b| b == b'\r' || b == b'\n').unwrap_or(line.len());
    &line[..end]
}

/// The value of a `data` line, or None for any other line.
fn data_value(line: &[u8]) -> Option<&[u8]> {
    let line = content(line);
    if line == b"data" {
        return Some(b"");
    }
    let value = line.strip_prefix(b"data:")?;
    Some(value.strip_prefix(b" ").unwrap_or(value))
}

/// An event's data (its data lines joined by LF), or None when it has none
/// (a comment, a retry hint): such an event carries no message to judge.
pub(crate) fn data(event: &[u8]) -> Option<Vec<u8>> {
    let mut values = lines(event).into_iter().filter_map(data_value).peekable();
    values.peek()?;
    Some(values.collect::<Vec<_>>().join(&b'\n'))
}

/// The event with its data replaced, its other lines (`event:`, `id:`,
/// comments) kept in place and in its own line endings.
pub(crate) fn with_data(event: &[u8], replacement: &[u8]) -> Vec<u8> {
    let all = lines(event);
    let ending: &[u8] = all.first().map_or(b"\n", |line| &line[content(line).len()..]);
    let ending = if ending.is_empty() { b"\n".as_slice() } else { ending };
    let mut out = Vec::with_capacity(event.len() + replacement.len());
    let mut written = false;
    for line in all {
        if data_value(line).is_none() {
            out.extend_from_slice(line);
        } else if !written {
            written = true;
            for part in replacement.split(|&b| b == b'\n') {
                out.extend_from_slice(b"data: ");
                out.extend_from_slice(part);
                out.extend_from_slice(ending);
            }
        }
    }
    out
}

/// One `message` event carrying `data`: what a proxy answer looks like on a
/// stream the client asked for.
pub(crate) fn event(data: &[u8]) -> Vec<u8> {
    with_data(b"event: message\ndata: \n\n", data)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(chunks: &[&[u8]]) -> (Vec<Vec<u8>>, Vec<u8>) {
        let mut splitter = Splitter::new(1024);
        let mut events = Vec::new();
        for chunk in chunks {
            events.extend(splitter.push(chunk).unwrap());
        }
        (events, splitter.finish())
    }

    #[test]
    fn events_come_out_byte_for_byte_whatever_the_chunking() {
        let stream: &[u8] =
            b"event: message\r\ndata: {\"id\":1}\r\n\r\n: ping\n\nid: 7\rdata: a\rdata: b\r\rdata: tail";
        let whole = split(&[stream]);
        let bytes: Vec<&[u8]> = stream.chunks(1).collect();
        assert_eq!(split(&bytes), whole);
        let (events, rest) = whole;
        assert_eq!(
            events,
            vec![
                b"event: message\r\ndata: {\"id\":1}\r\n\r\n".to_vec(),
                b": ping\n\n".to_vec(),
                b"id: 7\rdata: a\rdata: b\r\r".to_vec()
            ]
        );
        assert_eq!(rest, b"data: tail");
    }

    #[test]
    fn a_cr_at_the_end_of_a_chunk_waits_for_a_possible_lf() {
        let (events, rest) = split(&[b"data: x\r\n\r", b"\ndata: y\n\n"]);
        assert_eq!(events, vec![b"data: x\r\n\r\n".to_vec(), b"data: y\n\n".to_vec()]);
        assert!(rest.is_empty());
    }

    #[test]
    fn data_lines_join_with_lf_and_lose_one_leading_space() {
        assert_eq!(data(b"event: message\ndata: {\"a\":\ndata:1}\n\n"), Some(b"{\"a\":\n1}".to_vec()));
        assert_eq!(data(b"data\n\n"), Some(Vec::new()));
        assert_eq!(data(b": comment\nretry: 10\n\n"), None);
        assert_eq!(data(b"datum: x\n\n"), None);
    }

    #[test]
    fn a_replaced_event_keeps_its_other_lines_and_line_endings() {
        let event = b"event: message\r\nid: 3\r\ndata: {\"old\":\r\ndata: 1}\r\n\r\n";
        assert_eq!(with_data(event, b"{\"new\":2}"), b"event: message\r\nid: 3\r\ndata: {\"new\":2}\r\n\r\n".to_vec());
        assert_eq!(event_bytes(), b"event: message\ndata: {\"x\":1}\n\n".to_vec());
    }

    fn event_bytes() -> Vec<u8> {
        event(b"{\"x\":1}")
    }

    #[test]
    fn an_event_longer_than_the_cap_is_refused() {
        let mut splitter = Splitter::new(8);
        assert_eq!(splitter.push(b"data: 1\n\n").unwrap().len(), 1);
        assert_eq!(splitter.push(b"data: 123456789"), Err(Oversize(15)));
    }
}

//! Reading untrusted files within bounds: a cap on one JSONL line and on a
//! whole document (an envelope `.json` file or a contract), so that no input
//! (a link to `/dev/zero`, a runaway capture) can take unbounded memory or
//! time, and the test for regular files that directory walks apply (a FIFO
//! or a device found in a directory would block or never end).
//!
//! It does not decide what a file means; `envelope` and `contract` do.

use std::io::{BufRead, Read};
use std::path::Path;

/// The default cap on one JSONL line: 64 MiB.
pub const DEFAULT_MAX_LINE: usize = 64 << 20;
/// The default cap on one whole document (`.json` envelope file, contract): 256 MiB.
pub const DEFAULT_MAX_DOCUMENT: usize = 256 << 20;

/// How much of an input is read before it is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Bytes in one JSONL line, line break excluded.
    pub max_line: usize,
    /// Bytes in one whole document.
    pub max_document: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { max_line: DEFAULT_MAX_LINE, max_document: DEFAULT_MAX_DOCUMENT }
    }
}

impl Limits {
    /// The defaults, or the byte counts in `PROTOCOLARC_MAX_LINE_BYTES` and
    /// `PROTOCOLARC_MAX_DOCUMENT_BYTES` where they are set. A value that is
    /// not a positive integer is an error naming the variable, never ignored.
    pub fn from_env() -> Result<Self, String> {
        let get = |name: &str, default: usize| match std::env::var(name) {
            Err(_) => Ok(default),
            Ok(v) => v
                .trim()
                .parse::<usize>()
                .ok()
                .filter(|&n| n > 0)
                .ok_or_else(|| format!("{name}={:?} is not a positive number of bytes", v)),
        };
        Ok(Limits {
            max_line: get("PROTOCOLARC_MAX_LINE_BYTES", DEFAULT_MAX_LINE)?,
            max_document: get("PROTOCOLARC_MAX_DOCUMENT_BYTES", DEFAULT_MAX_DOCUMENT)?,
        })
    }
}

/// A size in words: `64 MiB`, `1000 bytes`.
pub fn size_phrase(bytes: usize) -> String {
    if bytes >= 1 << 20 && bytes.is_multiple_of(1 << 20) {
        format!("{} MiB", bytes >> 20)
    } else if bytes >= 1 << 10 && bytes.is_multiple_of(1 << 10) {
        format!("{} KiB", bytes >> 10)
    } else {
        format!("{bytes} bytes")
    }
}

/// Why a capped read failed.
#[derive(Debug)]
pub enum ReadError {
    /// The file could not be opened or read.
    Io(std::io::Error),
    /// The input has more than the cap.
    TooLarge(usize),
}

/// Reads a whole file, refusing one longer than `cap` bytes without reading
/// past the cap (a special file such as `/dev/zero` ends at the cap). A FIFO
/// or a socket (or a link to one) is refused before any read: it is opened
/// without blocking, so one with no writer cannot hang the caller.
pub fn read_capped(path: &Path, cap: usize) -> Result<Vec<u8>, ReadError> {
    let file = open_without_blocking(path).map_err(ReadError::Io)?;
    if let Some(kind) = unreadable_kind(&file.metadata().map_err(ReadError::Io)?) {
        let reason = format!("is {kind}, not a regular file");
        return Err(ReadError::Io(std::io::Error::new(std::io::ErrorKind::InvalidInput, reason)));
    }
    let mut bytes = Vec::new();
    file.take(cap as u64 + 1).read_to_end(&mut bytes).map_err(ReadError::Io)?;
    if bytes.len() > cap {
        return Err(ReadError::TooLarge(cap));
    }
    Ok(bytes)
}

/// Opens `path` for reading; on Unix without waiting for a FIFO's writer.
fn open_without_blocking(path: &Path) -> std::io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    options.open(path)
}

/// What an opened file is when reading it could wait forever (a FIFO, a
/// socket); `None` for files and devices, which the cap bounds.
fn unreadable_kind(meta: &std::fs::Metadata) -> Option<&'static str> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let kind = meta.file_type();
        if kind.is_fifo() {
            return Some("a FIFO");
        }
        if kind.is_socket() {
            return Some("a socket");
        }
    }
    #[cfg(not(unix))]
    let _ = meta;
    None
}

/// Whether `path` is a regular file, following symbolic links (a link to a
/// device or a FIFO is not).
pub fn is_regular_file(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.is_file())
}

/// Whole lines read in batches straight into one buffer (no copy per
/// line): what the bulk commands judge a batch at a time. Each line is
/// `(number, bytes)`, numbered from 1, without its `\n`; a blank line is
/// a line. A line longer than the cap ends the reading with
/// [`BatchError::TooLong`] once the lines before it have been given.
pub struct LineBatches<R> {
    reader: R,
    buf: Vec<u8>,
    /// Unread bytes are `buf[start..end]`.
    start: usize,
    end: usize,
    number: usize,
    cap: usize,
    eof: bool,
    /// A line over the cap was found: given as an error by the next call.
    too_long: Option<usize>,
}

/// Why [`LineBatches::next_batch`] stopped.
#[derive(Debug)]
pub enum BatchError {
    /// Reading failed.
    Io(std::io::Error),
    /// Line `number` is longer than the cap.
    TooLong(usize),
}

impl<R: Read> LineBatches<R> {
    /// Lines of `reader`, each at most `cap` bytes.
    pub fn new(reader: R, cap: usize) -> Self {
        LineBatches { reader, buf: Vec::new(), start: 0, end: 0, number: 0, cap, eof: false, too_long: None }
    }

    /// The next lines, at least one and at most `max_lines` or about
    /// `max_bytes` of them (a longer line comes alone); empty at the end.
    pub fn next_batch(&mut self, max_lines: usize, max_bytes: usize) -> Result<Vec<(usize, &[u8])>, BatchError> {
        let mut spans = Vec::new();
        self.next_spans(max_lines, max_bytes, &mut spans)?;
        Ok(spans.into_iter().map(|(number, start, end)| (number, &self.buf[start..end])).collect())
    }

    /// The next batch into `out`, which takes the buffer the batch was read
    /// into (no copy: the unread bytes after it, a partial line at most
    /// but for the last batch's cap, move to `out`'s old buffer, where
    /// reading goes on). `false` at the end.
    fn next_owned(&mut self, max_lines: usize, max_bytes: usize, out: &mut OwnedBatch) -> Result<bool, BatchError> {
        out.spans.clear();
        self.next_spans(max_lines, max_bytes, &mut out.spans)?;
        if out.spans.is_empty() {
            return Ok(false);
        }
        std::mem::swap(&mut self.buf, &mut out.bytes);
        let unread = &out.bytes[self.start..self.end];
        // A reused buffer keeps its length: only a new one is zeroed.
        if self.buf.len() < unread.len() {
            self.buf.resize(unread.len(), 0);
        }
        self.buf[..unread.len()].copy_from_slice(unread);
        (self.start, self.end) = (0, unread.len());
        Ok(true)
    }

    /// The next batch as `(number, start, end)` spans of `buf`, pushed onto
    /// `lines` (none at the end).
    fn next_spans(
        &mut self,
        max_lines: usize,
        max_bytes: usize,
        lines: &mut Vec<(usize, usize, usize)>,
    ) -> Result<(), BatchError> {
        if let Some(n) = self.too_long {
            return Err(BatchError::TooLong(n));
        }
        // The buffer holds about one batch (`max_bytes`, or one line when a
        // line is longer): it is refilled once less than half a batch is
        // left unread, the unread bytes moved to its front first, and read
        // no further than a batch, so that the bytes just copied in are
        // still in cache when the batch is judged.
        let want = max_bytes.max(1 << 16);
        let unread = &self.buf[self.start..self.end];
        let mut line_fits = memchr_newline(unread).is_some();
        if !self.eof && (unread.len() < want / 2 || !line_fits) {
            self.buf.copy_within(self.start..self.end, 0);
            self.end -= self.start;
            self.start = 0;
            loop {
                if self.eof || (self.end >= want && line_fits) || (!line_fits && self.end > self.cap) {
                    break;
                }
                // A line longer than a batch grows the buffer by half at a time, up to the cap.
                let room = (want.max(self.end + (self.end >> 1)).min(self.cap.saturating_add(2))).max(self.end + 1);
                if self.buf.len() < room {
                    self.buf.resize(room, 0);
                }
                match self.reader.read(&mut self.buf[self.end..room]) {
                    Ok(0) => self.eof = true,
                    Ok(n) => {
                        line_fits = line_fits || memchr_newline(&self.buf[self.end..self.end + n]).is_some();
                        self.end += n;
                    }
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                    Err(e) => return Err(BatchError::Io(e)),
                }
            }
        }
        let (buf, end, cap) = (&self.buf[..self.end], self.end, self.cap);
        let mut at = self.start;
        let mut taken = 0;
        // One search over the unread bytes, not one per line (short lines
        // made the search's start-up cost most of it).
        let from = at;
        let mut breaks = memchr::memchr_iter(b'\n', &buf[from..]).map(|i| i + from);
        while at < end && lines.len() < max_lines && (taken < max_bytes || lines.is_empty()) {
            let (stop, next) = match breaks.next() {
                Some(i) => (i, i + 1),
                None if self.eof => (end, end),
                None => {
                    // No line break within the cap: the line is too long.
                    if lines.is_empty() || end - at > cap {
                        self.too_long = Some(self.number + 1);
                    }
                    break;
                }
            };
            if stop - at > cap {
                self.too_long = Some(self.number + 1);
                break;
            }
            self.number += 1;
            lines.push((self.number, at, stop));
            taken += next - at;
            at = next;
        }
        self.start = at;
        if lines.is_empty() {
            if let Some(n) = self.too_long {
                return Err(BatchError::TooLong(n));
            }
        }
        Ok(())
    }
}

/// A batch of lines that owns its buffer: `spans` are `(number, start,
/// end)` of `bytes`.
#[derive(Default)]
struct OwnedBatch {
    bytes: Vec<u8>,
    spans: Vec<(usize, usize, usize)>,
}

/// Why [`each_batch`] stopped early.
#[derive(Debug)]
pub enum EachBatchError<E> {
    /// Reading failed, or a line is over the cap (after the lines before it
    /// were handed on).
    Read(BatchError),
    /// The caller's `each` failed.
    Each(E),
}

/// Hands every batch of `batches` to `each`, in order, until the input
/// ends: the one reading loop of the bulk commands and their benchmark.
///
/// `each` also gets a way to read the next batch ahead, into a buffer of
/// its own, while it still works on this one: a caller that keeps other
/// threads busy calls it on its own thread meanwhile (`traffic` on more
/// than one job), so that the other threads need not wait for the read.
/// Calling it more than once reads no further;
/// not calling it, the next batch is read after `each` returns. (A thread
/// that only reads was measured no faster: on two cores it takes time
/// from the threads that judge.)
pub fn each_batch<R: Read, E>(
    mut batches: LineBatches<R>,
    max_lines: usize,
    max_bytes: usize,
    mut each: impl FnMut(&[(usize, &[u8])], &mut dyn FnMut()) -> Result<(), E>,
) -> Result<(), EachBatchError<E>> {
    // Three buffers turn: the batch handed on, the batch read ahead, and
    // the reader's.
    let (mut this, mut next) = (OwnedBatch::default(), OwnedBatch::default());
    let mut read = batches.next_owned(max_lines, max_bytes, &mut this);
    loop {
        if !read.map_err(EachBatchError::Read)? {
            return Ok(());
        }
        let lines: Vec<(usize, &[u8])> =
            this.spans.iter().map(|&(number, start, end)| (number, &this.bytes[start..end])).collect();
        let mut ahead = None;
        let mut read_ahead = || {
            if ahead.is_none() {
                ahead = Some(batches.next_owned(max_lines, max_bytes, &mut next));
            }
        };
        each(&lines, &mut read_ahead).map_err(EachBatchError::Each)?;
        drop(lines);
        read = match ahead {
            Some(read) => read,
            None => batches.next_owned(max_lines, max_bytes, &mut next),
        };
        std::mem::swap(&mut this, &mut next);
    }
}

fn memchr_newline(b: &[u8]) -> Option<usize> {
    memchr::memchr(b'\n', b)
}

/// What one call of [`next_line`] read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Line {
    /// The stream has ended and nothing was read.
    End,
    /// A whole line (without its line break), or the last one.
    Whole,
    /// The line is settled before its end: its first byte that is not white
    /// space already says it cannot be an envelope (not `{`), so reading
    /// stopped there, and `line` holds the bytes up to and including it.
    /// The rest of the line is left unread.
    Decided,
    /// The line is longer than the cap; reading stopped at the cap.
    TooLong,
}

/// Reads the next line into `line` (cleared first), at most `cap` bytes of
/// it, stopping early at a first byte that cannot start an envelope (see
/// [`Line::Decided`]).
pub fn next_line<R: BufRead>(reader: &mut R, line: &mut Vec<u8>, cap: usize) -> std::io::Result<Line> {
    read_line(reader, line, cap, true)
}

/// Reads the next line into `line` (cleared first), at most `cap` bytes of
/// it, whatever its first byte: never [`Line::Decided`]. For lines that are
/// judged rather than refused (raw traffic, where a line may be an array or
/// damaged bytes), so that the next call starts on the next line.
pub fn next_whole_line<R: BufRead>(reader: &mut R, line: &mut Vec<u8>, cap: usize) -> std::io::Result<Line> {
    read_line(reader, line, cap, false)
}

fn read_line<R: BufRead>(reader: &mut R, line: &mut Vec<u8>, cap: usize, decide: bool) -> std::io::Result<Line> {
    line.clear();
    let mut started = false;
    let mut checked = !decide;
    loop {
        let buf = match reader.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            return Ok(if started { Line::Whole } else { Line::End });
        }
        started = true;
        let (take, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(at) => (at + 1, true),
            None => (buf.len(), false),
        };
        let content = if done { take - 1 } else { take };
        if line.len() + content > cap {
            let room = cap - line.len();
            line.extend_from_slice(&buf[..room]);
            reader.consume(room);
            return Ok(Line::TooLong);
        }
        line.extend_from_slice(&buf[..content]);
        reader.consume(take);
        if done {
            return Ok(Line::Whole);
        }
        // The first meaningful byte (after white space and a byte order
        // mark) decides whether the rest is worth reading.
        if !checked {
            if let Some(i) = line.iter().position(|&b| !matches!(b, b' ' | b'\t' | b'\r' | 0xEF | 0xBB | 0xBF)) {
                checked = true;
                if line[i] != b'{' {
                    line.truncate(i + 1);
                    return Ok(Line::Decided);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader that gives at most `step` bytes a call.
    struct Trickle<'a>(&'a [u8], usize);

    impl Read for Trickle<'_> {
        fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
            let n = self.1.min(out.len()).min(self.0.len());
            out[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    /// What the batches give: the numbered lines, then the line over the cap.
    fn batched(
        input: &[u8],
        cap: usize,
        step: usize,
        max_lines: usize,
        max_bytes: usize,
    ) -> (Vec<(usize, Vec<u8>)>, Option<usize>) {
        let mut batches = LineBatches::new(Trickle(input, step), cap);
        let mut out = Vec::new();
        loop {
            match batches.next_batch(max_lines, max_bytes) {
                Ok(b) if b.is_empty() => return (out, None),
                Ok(b) => {
                    assert!(b.len() <= max_lines);
                    out.extend(b.into_iter().map(|(n, l)| (n, l.to_vec())));
                    // The buffer holds one batch, or one line up to the cap.
                    assert!(batches.buf.len() <= max_bytes.max(1 << 16).max(cap + 2), "{}", batches.buf.len());
                }
                Err(BatchError::TooLong(n)) => return (out, Some(n)),
                Err(BatchError::Io(e)) => panic!("{e}"),
            }
        }
    }

    /// Line by line with [`next_whole_line`]: what the batches must give.
    fn one_by_one(input: &[u8], cap: usize) -> (Vec<(usize, Vec<u8>)>, Option<usize>) {
        let mut reader = std::io::BufReader::with_capacity(4, input);
        let (mut out, mut line) = (Vec::new(), Vec::new());
        for n in 1.. {
            match next_whole_line(&mut reader, &mut line, cap).unwrap() {
                Line::End => return (out, None),
                Line::TooLong => return (out, Some(n)),
                _ => out.push((n, line.clone())),
            }
        }
        unreachable!()
    }

    #[test]
    fn batches_give_the_lines_one_by_one_reading_gives() {
        let inputs: [&[u8]; 8] = [
            b"",
            b"\n",
            b"a",
            b"a\n\nbb\r\nccc",
            b"{\"x\": 1}\n[1,2]\n\n",
            b"short\nthis line is long\nx\n",
            b"0123456789\n01234567890\n",
            b"\n\n\n0123456789012\nlater\n",
        ];
        for input in inputs {
            for cap in [1, 5, 10, 11, 100] {
                let want = one_by_one(input, cap);
                for step in [1, 3, 64] {
                    for (lines, bytes) in [(1, 1), (2, 4), (1000, 1 << 20)] {
                        assert_eq!(
                            batched(input, cap, step, lines, bytes),
                            want,
                            "{:?} cap {cap} step {step} batch {lines}/{bytes}",
                            String::from_utf8_lossy(input)
                        );
                    }
                }
            }
        }
        // Lines longer than a batch, one over the cap: the buffer grows to
        // the line and the batches stay whole lines.
        let long: Vec<u8> = [10, 150_000, 5, 90_000, 300_000, 7]
            .iter()
            .enumerate()
            .flat_map(|(i, &n)| std::iter::repeat_n(b'a' + i as u8, n).chain([b'\n']))
            .collect();
        for (cap, step) in [(200_000, 70_000), (400_000, 1 << 20), (400_000, 4096)] {
            let want = one_by_one(&long, cap);
            assert_eq!(want.0.len(), if cap < 300_000 { 4 } else { 6 });
            assert_eq!(batched(&long, cap, step, 4096, 1 << 16), want, "cap {cap} step {step}");
        }
        // Past the first buffer: lines cross the refills.
        let big: Vec<u8> = (0..50_000).flat_map(|i| format!("{{\"n\": {i}}}\n").into_bytes()).collect();
        let (lines, over) = batched(&big, 64, 1000, 4096, 1 << 16);
        assert_eq!((lines.len(), over), (50_000, None));
        assert_eq!(lines[49_999], (50_000, b"{\"n\": 49999}".to_vec()));
    }

    /// The lines handed on, the line over the cap, whether `each` stopped.
    type Handed = (Vec<(usize, Vec<u8>)>, Option<usize>, bool);

    /// What [`each_batch`] hands on: the numbered lines, then the line over
    /// the cap; `stop_after`: `each` fails on that batch.
    /// `ahead`: `each` reads the next batch ahead first (twice), and holds
    /// on to this one's lines until it returns.
    fn handed(
        input: &[u8],
        cap: usize,
        step: usize,
        max_bytes: usize,
        stop_after: Option<usize>,
        ahead: bool,
    ) -> Handed {
        let mut out = Vec::new();
        let mut calls = 0;
        let batches = LineBatches::new(Trickle(input, step), cap);
        let result = each_batch(batches, usize::MAX, max_bytes, |lines, read_ahead| {
            assert!(!lines.is_empty());
            let before: Vec<(usize, Vec<u8>)> = lines.iter().map(|&(n, l)| (n, l.to_vec())).collect();
            if ahead {
                read_ahead();
                read_ahead();
            }
            assert_eq!(lines.iter().map(|&(n, l)| (n, l.to_vec())).collect::<Vec<_>>(), before);
            calls += 1;
            out.extend(lines.iter().map(|&(n, l)| (n, l.to_vec())));
            if Some(calls) == stop_after {
                return Err("stop");
            }
            Ok(())
        });
        match result {
            Ok(()) => (out, None, false),
            Err(EachBatchError::Read(BatchError::TooLong(n))) => (out, Some(n), false),
            Err(EachBatchError::Read(BatchError::Io(e))) => panic!("{e}"),
            Err(EachBatchError::Each("stop")) => (out, None, true),
            Err(EachBatchError::Each(other)) => panic!("{other}"),
        }
    }

    /// `each_batch` hands on every line once, in order, a line over the cap
    /// after the lines before it, and nothing more once `each` fails,
    /// whether `each` reads the next batch ahead or not.
    #[test]
    fn each_batch_hands_on_every_line_once() {
        let big: Vec<u8> = (0..60_000)
            .flat_map(|i| format!("{{\"n\": {i}, \"pad\": \"{}\"}}\n", "x".repeat(i % 97)).into_bytes())
            .collect();
        let mut over = big.clone();
        over.extend(std::iter::repeat_n(b'z', 5000));
        over.extend(b"\nafter\n");
        for (input, cap) in [(&big[..], 1 << 10), (&over[..], 1 << 12), (&b"a\n\nb"[..], 4), (&b""[..], 4)] {
            let want = one_by_one(input, cap);
            for (step, max_bytes) in [(1 << 20, 1 << 16), (7000, 1 << 16), (333, 1 << 12)] {
                for ahead in [false, true] {
                    let (lines, over, stopped) = handed(input, cap, step, max_bytes, None, ahead);
                    assert_eq!((&lines, over, stopped), (&want.0, want.1, false), "step {step}, ahead {ahead}");
                }
            }
        }
        // `each` fails on the third batch: the lines of three batches, no more.
        for ahead in [false, true] {
            let (lines, over, stopped) = handed(&big, 1 << 10, 7000, 1 << 16, Some(3), ahead);
            assert!(stopped && over.is_none());
            assert!(lines.len() > 3 * 100 && lines.len() < 60_000, "{}", lines.len());
            assert_eq!(lines[..], one_by_one(&big, 1 << 10).0[..lines.len()]);
        }
    }

    fn lines(input: &[u8], cap: usize) -> Vec<(Line, Vec<u8>)> {
        // A tiny buffer, so lines span many reads.
        let mut reader = std::io::BufReader::with_capacity(4, input);
        let mut out = Vec::new();
        let mut line = Vec::new();
        loop {
            let kind = next_line(&mut reader, &mut line, cap).unwrap();
            if kind == Line::End {
                return out;
            }
            out.push((kind, line.clone()));
            if kind != Line::Whole {
                return out;
            }
        }
    }

    #[test]
    fn lines_split_at_line_breaks_within_the_cap() {
        assert_eq!(
            lines(b"{\"a\": 1}\n\n{}", 64),
            vec![(Line::Whole, b"{\"a\": 1}".to_vec()), (Line::Whole, vec![]), (Line::Whole, b"{}".to_vec())]
        );
        assert_eq!(lines(b"{\"a\": 1}\n", 8), vec![(Line::Whole, b"{\"a\": 1}".to_vec())]);
    }

    #[test]
    fn a_line_past_the_cap_stops_at_the_cap() {
        assert_eq!(lines(b"{\"a\": 12}\n", 8), vec![(Line::TooLong, b"{\"a\": 12".to_vec())]);
        // An endless stream of an object's bytes ends at the cap.
        let mut endless = std::io::BufReader::new(std::io::repeat(b'{'));
        let mut line = Vec::new();
        assert_eq!(next_line(&mut endless, &mut line, 1000).unwrap(), Line::TooLong);
        assert_eq!(line.len(), 1000);
    }

    #[test]
    fn a_line_that_cannot_be_an_envelope_is_settled_at_its_first_byte() {
        assert_eq!(lines(b"  xxxxxxxxxxxxxxxx", 1 << 20), vec![(Line::Decided, b"  x".to_vec())]);
        // `/dev/zero` is an endless line of NUL bytes: settled at once.
        let mut zeros = std::io::BufReader::new(std::io::repeat(0));
        let mut line = Vec::new();
        assert_eq!(next_line(&mut zeros, &mut line, DEFAULT_MAX_LINE).unwrap(), Line::Decided);
        assert_eq!(line, vec![0]);
        // A short bad line is read whole, as before.
        assert_eq!(lines(b"[1]\n", 64), vec![(Line::Whole, b"[1]".to_vec())]);
    }

    #[test]
    fn whole_lines_are_read_whatever_their_first_byte() {
        let mut reader = std::io::BufReader::with_capacity(4, &b"  xxxxxxxx\n[1]\n"[..]);
        let mut line = Vec::new();
        assert_eq!(next_whole_line(&mut reader, &mut line, 64).unwrap(), Line::Whole);
        assert_eq!(line, b"  xxxxxxxx");
        assert_eq!(next_whole_line(&mut reader, &mut line, 64).unwrap(), Line::Whole);
        assert_eq!(line, b"[1]");
        assert_eq!(next_whole_line(&mut reader, &mut line, 64).unwrap(), Line::End);
        let mut zeros = std::io::BufReader::new(std::io::repeat(0));
        assert_eq!(next_whole_line(&mut zeros, &mut line, 1000).unwrap(), Line::TooLong);
        assert_eq!(line.len(), 1000);
    }

    #[test]
    fn whole_files_are_read_up_to_the_cap() {
        let dir = std::env::temp_dir().join(format!("protocolarc-input-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("f.json");
        std::fs::write(&file, b"0123456789").unwrap();
        assert_eq!(read_capped(&file, 10).unwrap(), b"0123456789");
        assert!(matches!(read_capped(&file, 9), Err(ReadError::TooLarge(9))));
        assert!(is_regular_file(&file));
        assert!(!is_regular_file(&dir));
        #[cfg(unix)]
        {
            assert!(matches!(read_capped(Path::new("/dev/zero"), 4096), Err(ReadError::TooLarge(4096))));
            assert!(!is_regular_file(Path::new("/dev/zero")));
            let fifo = dir.join("f.fifo");
            assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
            // No writer: the read is refused at once instead of waiting.
            match read_capped(&fifo, 4096) {
                Err(ReadError::Io(e)) => assert_eq!(e.to_string(), "is a FIFO, not a regular file"),
                other => panic!("a FIFO read: {other:?}"),
            }
        }
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(size_phrase(DEFAULT_MAX_LINE), "64 MiB");
        assert_eq!(size_phrase(4096), "4 KiB");
        assert_eq!(size_phrase(1000), "1000 bytes");
    }
}

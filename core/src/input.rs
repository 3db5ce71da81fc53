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
/// past the cap (a special file such as `/dev/zero` ends at the cap).
pub fn read_capped(path: &Path, cap: usize) -> Result<Vec<u8>, ReadError> {
    let file = std::fs::File::open(path).map_err(ReadError::Io)?;
    let mut bytes = Vec::new();
    file.take(cap as u64 + 1).read_to_end(&mut bytes).map_err(ReadError::Io)?;
    if bytes.len() > cap {
        return Err(ReadError::TooLarge(cap));
    }
    Ok(bytes)
}

/// Whether `path` is a regular file, following symbolic links (a link to a
/// device or a FIFO is not).
pub fn is_regular_file(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.is_file())
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
        }
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(size_phrase(DEFAULT_MAX_LINE), "64 MiB");
        assert_eq!(size_phrase(4096), "4 KiB");
        assert_eq!(size_phrase(1000), "1000 bytes");
    }
}

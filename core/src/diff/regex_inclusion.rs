//! Whether one `pattern` accepts every string another accepts (SPEC §5:
//! a pattern change is decided by regex inclusion).
//!
//! A JSON Schema `pattern` is an unanchored search: a string is valid when
//! some substring matches. Each pattern becomes a lazy DFA for
//! `(?s:.)*?(?:P)` run anchored from the start: a string is in the
//! pattern's language once a match state is reached (and stays in). The
//! product of both DFAs with a small UTF-8 automaton (a witness must be a
//! JSON string) is searched breadth first, so the first string found on
//! either side is a shortest one: accepted by one pattern and not the
//! other. When the search ends with neither, the two accept the same
//! strings.
//!
//! The work is budgeted: past [`MAX_STATES`] product states, or when a
//! lazy DFA would have to clear its cache (its state ids would change), or
//! a pattern uses what a DFA cannot run (a Unicode word boundary), the
//! answer is [`Inclusion::Unknown`] with the reason.

use std::collections::hash_map::Entry;
use std::collections::{HashMap, VecDeque};

use regex_automata::hybrid::dfa::{Cache, DFA};
use regex_automata::hybrid::LazyStateID;
use regex_automata::util::start;
use regex_automata::Anchored;

/// Product states visited before the search gives up.
pub(super) const MAX_STATES: usize = 20_000;
/// Bytes of cache each lazy DFA may fill before the search gives up.
const CACHE_BYTES: usize = 8 << 20;

/// How the strings two patterns accept compare.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Inclusion {
    /// The same strings.
    Equal,
    /// The new pattern accepts every string the old one does, and more:
    /// `witness` is a shortest string only the new one accepts.
    Relaxed { witness: String },
    /// The old pattern accepts every string the new one does, and more:
    /// `witness` is a shortest string only the old one accepts.
    Tightened { witness: String },
    /// Each accepts a string the other refuses: a shortest of each.
    Changed { old_only: String, new_only: String },
    /// Not decided, and why.
    Unknown(String),
}

/// One side of the product: a DFA state, or that a match was already seen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Run {
    At(LazyStateID),
    Matched,
}

struct Side {
    dfa: DFA,
    cache: Cache,
}

impl Side {
    fn new(pattern: &str) -> Result<Side, String> {
        let config = DFA::config().cache_capacity(CACHE_BYTES).minimum_cache_clear_count(Some(0));
        let dfa = DFA::builder()
            .configure(config)
            .build(&format!("(?s:.)*?(?:{pattern})"))
            .map_err(|e| format!("pattern {pattern:?} cannot be run as a DFA: {e}"))?;
        let cache = dfa.create_cache();
        Ok(Side { dfa, cache })
    }

    fn start(&mut self) -> Result<Run, String> {
        let config = start::Config::new().anchored(Anchored::Yes);
        let s = self.dfa.start_state(&mut self.cache, &config).map_err(|e| e.to_string())?;
        Ok(self.seen(s))
    }

    fn seen(&self, s: LazyStateID) -> Run {
        if s.is_match() {
            Run::Matched
        } else {
            Run::At(s)
        }
    }

    fn step(&mut self, r: Run, byte: u8) -> Result<Run, String> {
        match r {
            Run::Matched => Ok(Run::Matched),
            Run::At(s) if s.is_dead() => Ok(r),
            Run::At(s) => {
                let next = self.dfa.next_state(&mut self.cache, s, byte).map_err(|_| budget())?;
                if next.is_quit() {
                    return Err("the pattern's DFA gave up on a byte (a Unicode word boundary)".into());
                }
                Ok(self.seen(next))
            }
        }
    }

    /// Whether the string read so far is in the pattern's language.
    fn accepts(&mut self, r: Run) -> Result<bool, String> {
        match r {
            Run::Matched => Ok(true),
            Run::At(s) if s.is_dead() => Ok(false),
            Run::At(s) => Ok(self.dfa.next_eoi_state(&mut self.cache, s).map_err(|_| budget())?.is_match()),
        }
    }
}

fn budget() -> String {
    format!("the patterns' automata grew past {} MiB", CACHE_BYTES >> 20)
}

/// The state of a UTF-8 decoder after `byte`: 0 between characters, else
/// what the current one still needs; `None` for a byte no valid UTF-8
/// string has there.
fn utf8(state: u8, byte: u8) -> Option<u8> {
    // States: 0 boundary; 1..=3 continuation bytes still needed; 4 after
    // E0 (A0-BF); 5 after ED (80-9F); 6 after F0 (90-BF); 7 after F4 (80-8F).
    let cont = (0x80..=0xBF).contains(&byte);
    match (state, byte) {
        (0, 0x00..=0x7F) => Some(0),
        (0, 0xC2..=0xDF) => Some(1),
        (0, 0xE0) => Some(4),
        (0, 0xE1..=0xEC | 0xEE..=0xEF) => Some(2),
        (0, 0xED) => Some(5),
        (0, 0xF0) => Some(6),
        (0, 0xF1..=0xF3) => Some(3),
        (0, 0xF4) => Some(7),
        (1..=3, _) if cont => Some(state - 1),
        (4, 0xA0..=0xBF) | (5, 0x80..=0x9F) => Some(1),
        (6, 0x90..=0xBF) | (7, 0x80..=0x8F) => Some(2),
        _ => None,
    }
}

/// A string's length bounds (`minLength`, `maxLength`), in characters.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Lengths {
    pub min: u64,
    pub max: Option<u64>,
}

impl Lengths {
    fn allow(self, count: u64) -> bool {
        count >= self.min && self.max.is_none_or(|m| count <= m)
    }
}

/// What a node holds of strings: a pattern (none: every string) and
/// length bounds.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Strings<'p> {
    pub pattern: Option<&'p str>,
    pub lengths: Lengths,
}

/// The pattern runs, the UTF-8 decoder, and the characters read so far
/// (up to the count past which no length bound tells strings apart).
type State = (Run, Run, u8, u64);

/// Every byte, in the order the search tries them: among strings of one
/// length, a witness a reader can read (letters, digits, printable ASCII)
/// is found before one of control or non-ASCII bytes.
fn byte_order() -> Vec<u8> {
    let rank = |b: u8| match b {
        b'a'..=b'z' => 0,
        b'0'..=b'9' => 1,
        b'A'..=b'Z' => 2,
        b' '..=b'~' => 3,
        0x80..=0xFF => 4,
        _ => 5,
    };
    let mut bytes: Vec<u8> = (0..=255).collect();
    bytes.sort_by_key(|&b| (rank(b), b));
    bytes
}

/// How the strings `new` accepts compare with those `old` accepts, under
/// search semantics.
pub(super) fn compare(old: &str, new: &str) -> Inclusion {
    let side = |p| Strings { pattern: Some(p), lengths: Lengths::default() };
    compare_strings(side(old), side(new))
}

/// How the strings `new` accepts compare with those `old` accepts, each
/// with its pattern and length bounds judged together (a `minLength` the
/// pattern already implies changes nothing).
pub(super) fn compare_strings(old: Strings<'_>, new: Strings<'_>) -> Inclusion {
    match search(old, new) {
        Ok(found) => found,
        Err(why) => Inclusion::Unknown(why),
    }
}

fn search(old: Strings<'_>, new: Strings<'_>) -> Result<Inclusion, String> {
    let (mut a, mut b) = (Side::new(old.pattern.unwrap_or(""))?, Side::new(new.pattern.unwrap_or(""))?);
    // Past `cap` characters, every length bound decides alike.
    let bound = |l: Lengths| l.min.max(l.max.map_or(0, |m| m.saturating_add(1)));
    let cap = bound(old.lengths).max(bound(new.lengths));
    let order = byte_order();
    let first: State = (a.start()?, b.start()?, 0, 0);
    let mut states: Vec<(State, usize, u8)> = vec![(first, usize::MAX, 0)];
    let mut index: HashMap<State, usize> = HashMap::from([(first, 0)]);
    let mut queue = VecDeque::from([0usize]);
    let (mut only_old, mut only_new): (Option<usize>, Option<usize>) = (None, None);
    while let Some(i) = queue.pop_front() {
        let ((ra, rb, u, count), _, _) = states[i];
        if u == 0 {
            let x = old.lengths.allow(count) && a.accepts(ra)?;
            let y = new.lengths.allow(count) && b.accepts(rb)?;
            if x && !y && only_old.is_none() {
                only_old = Some(i);
            }
            if y && !x && only_new.is_none() {
                only_new = Some(i);
            }
            if only_old.is_some() && only_new.is_some() {
                break;
            }
        }
        // Both dead, or both matched with every length bound past: every
        // longer string agrees.
        let dead = |r: Run| matches!(r, Run::At(s) if s.is_dead());
        if (dead(ra) && dead(rb)) || (ra == Run::Matched && rb == Run::Matched && count >= cap) {
            continue;
        }
        for &byte in &order {
            let Some(v) = utf8(u, byte) else { continue };
            let counted = if v == 0 { count.saturating_add(1).min(cap) } else { count };
            let next = (a.step(ra, byte)?, b.step(rb, byte)?, v, counted);
            if let Entry::Vacant(e) = index.entry(next) {
                if states.len() >= MAX_STATES {
                    return Err(format!("the search passed {MAX_STATES} states"));
                }
                e.insert(states.len());
                queue.push_back(states.len());
                states.push((next, i, byte));
            }
        }
    }
    let text = |mut i: usize| {
        let mut bytes = Vec::new();
        while states[i].1 != usize::MAX {
            bytes.push(states[i].2);
            i = states[i].1;
        }
        bytes.reverse();
        String::from_utf8(bytes).unwrap_or_default()
    };
    Ok(match (only_old, only_new) {
        (None, None) => Inclusion::Equal,
        (None, Some(i)) => Inclusion::Relaxed { witness: text(i) },
        (Some(i), None) => Inclusion::Tightened { witness: text(i) },
        (Some(i), Some(j)) => Inclusion::Changed { old_only: text(i), new_only: text(j) },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn relaxed(w: &str) -> Inclusion {
        Inclusion::Relaxed { witness: w.into() }
    }

    fn tightened(w: &str) -> Inclusion {
        Inclusion::Tightened { witness: w.into() }
    }

    #[test]
    fn verdicts_and_shortest_witnesses() {
        assert_eq!(compare("^[a-c]+$", "^[a-z]+$"), relaxed("d"));
        assert_eq!(compare("^[a-z]+$", "^[a-c]+$"), tightened("d"));
        // Spelled differently, the same strings.
        assert_eq!(compare("^[a-c]+$", "^(a|b|c)(a|b|c)*$"), Inclusion::Equal);
        assert_eq!(compare("abc", "^(?s:.)*abc"), Inclusion::Equal);
        // `.` stops at a newline, and `^` holds at the start only.
        assert_eq!(compare("abc", "^.*abc"), tightened("\nabc"));
        assert_eq!(compare("^[0-9]{2}$", r"^\d\d$"), relaxed("0٠"));
        assert_eq!(compare("^[a-z]{3}$", "^[a-z]{2,3}$"), relaxed("aa"));
        // Unrelated: a shortest string each side alone accepts.
        assert_eq!(compare("^a", "^b"), Inclusion::Changed { old_only: "a".into(), new_only: "b".into() });
        // Search semantics: an unanchored pattern accepts any string around a match.
        assert_eq!(compare("b", "^b"), tightened("ab"));
        assert_eq!(compare("^x", ""), relaxed(""));
    }

    #[test]
    fn lengths_the_pattern_implies_change_nothing() {
        let with = |pattern, min, max| Strings { pattern: Some(pattern), lengths: Lengths { min, max } };
        let three = "^[a-z]{3}$";
        assert_eq!(compare_strings(with(three, 1, None), with(three, 3, None)), Inclusion::Equal);
        assert_eq!(compare_strings(with(three, 0, None), with(three, 0, Some(3))), Inclusion::Equal);
        assert_eq!(compare_strings(with(three, 0, None), with(three, 0, Some(2))), tightened("aaa"));
        // Counted in characters, not bytes.
        assert_eq!(compare_strings(with("^é+$", 0, None), with("^é+$", 0, Some(1))), tightened("éé"));
        // Lengths alone, and against no pattern.
        let open = |min, max| Strings { pattern: None, lengths: Lengths { min, max } };
        assert_eq!(compare_strings(open(0, Some(5)), open(0, Some(4))), tightened("aaaaa"));
        assert_eq!(compare_strings(open(2, None), with("^[a-z]{2,}", 0, None)), tightened("a0"));
    }

    #[test]
    fn what_a_dfa_cannot_run_or_the_budget_cannot_hold_is_unknown() {
        let Inclusion::Unknown(why) = compare(r"\bfoo\b", "foo") else { panic!("decided") };
        assert!(why.contains("cannot be run as a DFA"), "{why}");
        // The n-th symbol from the end: a DFA of 2^n states.
        let Inclusion::Unknown(why) = compare("a[ab]{24}$", "b[ab]{24}$") else { panic!("decided") };
        assert!(why.contains("20000 states") || why.contains("MiB"), "{why}");
    }
}

//! "Did you mean": the known word closest to a misspelt one, for unknown
//! contract keys, type names and rule ids.

/// The known id closest to `wanted` by edit distance, when it is close
/// enough to be a typo (at most a third of the id, and at least 2, edits).
pub fn nearest<'a>(wanted: &str, ids: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let limit = (wanted.chars().count() / 3).max(2);
    ids.map(|id| (distance(wanted, id), id)).filter(|(d, _)| *d <= limit).min_by_key(|(d, _)| *d).map(|(_, id)| id)
}

/// Levenshtein distance over characters.
pub fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (above + 1).min(row[j] + 1).min(diagonal + usize::from(ca != *cb));
            diagonal = above;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edit_distance_and_the_nearest_id() {
        assert_eq!(distance("kitten", "sitting"), 3);
        assert_eq!(distance("", "abc"), 3);
        assert_eq!(distance("field.maxLenght", "field.maxLength"), 2);
        let ids = ["field.maxLength", "field.minLength", "lock.missing"];
        assert_eq!(nearest("field.maxLenght", ids.into_iter()), Some("field.maxLength"));
        assert_eq!(nearest("lock.misssing", ids.into_iter()), Some("lock.missing"));
        assert_eq!(nearest("nope", ids.into_iter()), None);
    }
}

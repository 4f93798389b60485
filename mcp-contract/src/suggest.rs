//! "Did you mean ...?" for every place a user names something from a fixed
//! set (rule ids, migration-record keys, fixture keys): one edit-distance
//! implementation, one threshold.

/// Names longer than this get no suggestion: a name is short, and the
/// distance costs the product of the two lengths (both can come from a
/// file under review).
const MAX_LEN: usize = 128;

/// The closest allowed word within a small edit distance.
pub fn did_you_mean<'a>(word: &str, allowed: &[&'a str]) -> Option<&'a str> {
    let len = word.chars().count();
    if len > MAX_LEN {
        return None;
    }
    allowed
        .iter()
        .filter_map(|a| {
            let limit = 2.max(a.len() / 3);
            // (the distance is at least the difference in length)
            let a_len = a.chars().count();
            (a_len <= MAX_LEN && a_len.abs_diff(len) <= limit)
                .then(|| (edit_distance(word, a), *a))
                .filter(|(d, _)| *d <= limit)
        })
        .min_by_key(|(d, _)| *d)
        .map(|(_, a)| a)
}

/// Levenshtein distance over characters.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != *cb);
            cur.push((prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_close_words_only() {
        assert_eq!(did_you_mean("ownr", &["owner", "reason"]), Some("owner"));
        assert_eq!(did_you_mean("zzz", &["owner", "reason"]), None);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }

    #[test]
    fn long_names_get_no_suggestion() {
        let long = "a".repeat(MAX_LEN + 1);
        assert_eq!(did_you_mean(&long, &[long.as_str()]), None);
        assert_eq!(
            did_you_mean("search", &[long.as_str(), "serch"]),
            Some("serch")
        );
        // Too different in length to be within the distance.
        assert_eq!(did_you_mean("ab", &["abcdefgh"]), None);
    }
}

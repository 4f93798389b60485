//! "Did you mean ...?" for every place a user names something from a fixed
//! set (rule ids, migration-record keys, fixture keys): one edit-distance
//! implementation, one threshold.

/// The closest allowed word within a small edit distance.
pub fn did_you_mean<'a>(word: &str, allowed: &[&'a str]) -> Option<&'a str> {
    allowed
        .iter()
        .map(|a| (edit_distance(word, a), *a))
        .filter(|(d, a)| *d <= 2.max(a.len() / 3))
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
}

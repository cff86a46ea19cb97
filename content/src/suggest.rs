//! "Did you mean" from edit distance, and short lists of what is allowed.

/// Names longer than this are not compared (no useful suggestion, and it bounds the work).
const MAX_COMPARED: usize = 64;
/// Items a list shows before it says how many more there are.
const MAX_LISTED: usize = 12;

/// Edit distance over characters: insertions, deletions, substitutions and swaps of two
/// neighbours cost 1 (Levenshtein with transpositions, the "optimal string alignment" form).
pub(crate) fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let width = b.len() + 1;
    // Three rows: two back (for swaps), one back, and the current one.
    let mut before: Vec<usize> = vec![0; width];
    let mut prev: Vec<usize> = (0..width).collect();
    let mut row: Vec<usize> = vec![0; width];
    for (i, ca) in a.iter().enumerate() {
        if let Some(first) = row.first_mut() {
            *first = i + 1;
        }
        for (j, cb) in b.iter().enumerate() {
            let at = |v: &Vec<usize>, k: usize| v.get(k).copied().unwrap_or(usize::MAX);
            let cost = usize::from(ca != cb);
            let mut best = at(&prev, j)
                .saturating_add(cost)
                .min(at(&prev, j + 1).saturating_add(1))
                .min(at(&row, j).saturating_add(1));
            let swapped = i > 0 && j > 0 && a.get(i - 1) == Some(cb) && b.get(j - 1) == Some(ca);
            if swapped {
                best = best.min(at(&before, j - 1).saturating_add(1));
            }
            if let Some(cell) = row.get_mut(j + 1) {
                *cell = best;
            }
        }
        std::mem::swap(&mut before, &mut prev);
        std::mem::swap(&mut prev, &mut row);
    }
    prev.last().copied().unwrap_or(0)
}

/// The candidate closest to `query`, if it is close enough to be a plausible typo: at most one
/// edit per three characters (at least one), or equal ignoring case. Ties go to the earlier
/// candidate.
pub(crate) fn closest<'a>(
    query: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let len = query.chars().count();
    if len == 0 || len > MAX_COMPARED {
        return None;
    }
    let lower = query.to_lowercase();
    let limit = (len / 3).max(1);
    let mut best: Option<(usize, &str)> = None;
    for c in candidates {
        if c == query || c.chars().count() > MAX_COMPARED {
            continue;
        }
        let d = edit_distance(&lower, &c.to_lowercase());
        let fits = d <= limit && d < len;
        if fits && best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c)
}

/// `did you mean `x`?` when a candidate is close to `query`.
pub(crate) fn did_you_mean<'a>(
    query: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<String> {
    closest(query, candidates).map(|c| format!("did you mean `{c}`?"))
}

/// `` `a`, `b`, `c` `` with at most a dozen names, then how many more.
pub(crate) fn list<'a>(items: impl IntoIterator<Item = &'a str>) -> String {
    let items: Vec<&str> = items.into_iter().collect();
    let mut out: Vec<String> = items
        .iter()
        .take(MAX_LISTED)
        .map(|s| format!("`{s}`"))
        .collect();
    if items.len() > MAX_LISTED {
        out.push(format!("and {} more", items.len() - MAX_LISTED));
    }
    out.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances() {
        assert_eq!(edit_distance("", ""), 0);
        assert_eq!(edit_distance("rat", "rate"), 1);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("ç", "c"), 1);
        assert_eq!(edit_distance("widht", "width"), 1);
        assert_eq!(edit_distance("ab", "ba"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
    }

    #[test]
    fn suggestions() {
        let keys = ["rate", "max_frame_delta", "catch_up"];
        assert_eq!(closest("rat", keys), Some("rate"));
        assert_eq!(closest("RATE", keys), Some("rate"));
        assert_eq!(closest("catchup", keys), Some("catch_up"));
        assert_eq!(closest("speed", keys), None);
        assert_eq!(closest("a", ["b"]), None);
        assert_eq!(
            closest("behavior", ["behaviour", "bounds"]),
            Some("behaviour")
        );
        assert_eq!(
            closest("widht", ["title", "width", "height"]),
            Some("width")
        );
    }

    #[test]
    fn lists_are_short() {
        assert_eq!(list(["a", "b"]), "`a`, `b`");
        let many: Vec<String> = (0..20).map(|i| i.to_string()).collect();
        assert!(list(many.iter().map(String::as_str)).ends_with("and 8 more"));
    }
}

//! "Did you mean": the known name closest to a misspelt one. One rule for every name a script
//! can get wrong (`ludus.*` functions, archetypes, tags...), at run time and in `ludus check`.

/// Names longer than this are not compared (no useful suggestion, and it bounds the work).
const MAX_COMPARED: usize = ludus_core::MAX_NAME_BYTES;

/// Edit distance over characters: insertions, deletions and substitutions cost 1
/// (Levenshtein).
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != *cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

/// The known name closest to `name`, if it is close enough to be a likely typo: at most two
/// edits, or one per three characters of the known name when that is more. Ties go to the
/// name that sorts first.
pub fn closest<'a>(name: &str, known: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    if name.len() > MAX_COMPARED {
        return None;
    }
    known
        .into_iter()
        .map(|k| (edit_distance(name, k), k))
        .filter(|(d, k)| *d <= 2.max(k.len() / 3))
        .min()
        .map(|(_, k)| k)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances() {
        let cases = [
            ("", "", 0),
            ("destory", "destroy", 2),
            ("spwan", "spawn", 2),
            ("on_strat", "on_start", 2),
            ("kitten", "sitting", 3),
            ("", "abc", 3),
            ("é", "e", 1),
        ];
        for (a, b, d) in cases {
            assert_eq!(edit_distance(a, b), d, "{a} -> {b}");
        }
    }

    #[test]
    fn suggestions() {
        let api = ["destroy", "damage", "spawn", "sound", "use_cooldown"];
        let cases = [
            ("destory", Some("destroy")),
            ("spwan", Some("spawn")),
            ("sounds", Some("sound")),
            ("usecooldown", Some("use_cooldown")),
            ("explode", None),
        ];
        for (name, expect) in cases {
            assert_eq!(closest(name, api), expect, "{name}");
        }
        let long = "x".repeat(MAX_COMPARED + 1);
        assert_eq!(closest(&long, [long.as_str()]), None, "too long to compare");
    }
}

//! "Did you mean": the one rule for the known name closest to a misspelt one. Content's
//! diagnostics (keys, choices, names, colours, paths), the script host's faults (`ludus.*`
//! functions, archetypes, tags...) and `ludus check`'s lints all ask [`closest`], so a typo
//! gets the same suggestion wherever it is made.

/// Names longer than this, in characters, are not compared: no useful suggestion, and it
/// bounds the work of one comparison.
pub const MAX_COMPARED: usize = 64;

/// Edit distance over characters: insertions, deletions, substitutions and swaps of two
/// neighbours cost 1 (Levenshtein with transpositions, the "optimal string alignment" form).
/// Case, `_` and `-` count here; [`closest`] compares names without them.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    distance(&a, &b)
}

fn distance(a: &[char], b: &[char]) -> usize {
    let width = b.len() + 1;
    // Three rows: two back (for swaps), one back, and the current one.
    let mut before: Vec<usize> = vec![0; width];
    let mut prev: Vec<usize> = (0..width).collect();
    let mut row: Vec<usize> = vec![0; width];
    for (i, ca) in a.iter().enumerate() {
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != cb);
            let mut best = (prev[j] + cost).min(prev[j + 1] + 1).min(row[j] + 1);
            if i > 0 && j > 0 && a[i - 1] == *cb && b[j - 1] == *ca {
                best = best.min(before[j - 1] + 1);
            }
            row[j + 1] = best;
        }
        std::mem::swap(&mut before, &mut prev);
        std::mem::swap(&mut prev, &mut row);
    }
    prev[b.len()]
}

/// A name as [`closest`] compares it: lowercase, without `_` and `-` (so `catchup`,
/// `catch_up` and `Catch-Up` are one name).
fn folded(name: &str) -> Vec<char> {
    name.chars()
        .filter(|c| !matches!(c, '_' | '-'))
        .flat_map(char::to_lowercase)
        .collect()
}

/// The candidate closest to `query`, if it is close enough to be a plausible typo.
///
/// Names are compared ignoring case, `_` and `-`, by [`edit_distance`]. A candidate is close
/// enough when it is at most one edit per three characters of `query` away (at least one),
/// and fewer edits than `query` has characters (so a one-letter name is never "corrected"
/// into another). The fewest edits win; ties go to the earlier candidate. A candidate equal
/// to `query` is not a suggestion, and neither is anything when `query` or the candidate is
/// empty or longer than `MAX_COMPARED` characters.
pub fn closest<'a>(query: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    if query.chars().count() > MAX_COMPARED {
        return None;
    }
    let q = folded(query);
    if q.is_empty() {
        return None;
    }
    let limit = (q.len() / 3).max(1).min(q.len() - 1);
    let mut best: Option<(usize, &str)> = None;
    for c in candidates {
        if c == query || c.chars().count() > MAX_COMPARED {
            continue;
        }
        let k = folded(c);
        // Two names are at least as many edits apart as their lengths differ.
        if k.is_empty() || k.len().abs_diff(q.len()) > limit {
            continue;
        }
        let d = distance(&q, &k);
        if d <= limit && best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances() {
        let cases = [
            ("", "", 0),
            ("", "abc", 3),
            ("rat", "rate", 1),
            ("kitten", "sitting", 3),
            ("ç", "c", 1),
            ("é", "e", 1),
            ("ab", "ba", 1),
            ("widht", "width", 1),
            ("destory", "destroy", 1),
            ("spwan", "spawn", 1),
            ("on_strat", "on_start", 1),
            ("fier", "fire", 1),
            ("__log", "log", 2),
            ("ca", "abc", 3),
        ];
        for (a, b, d) in cases {
            assert_eq!(edit_distance(a, b), d, "{a} -> {b}");
            assert_eq!(edit_distance(b, a), d, "{b} -> {a}");
        }
    }

    /// Every answer the rule gives to the misspellings content, scripts and lints meet.
    #[test]
    fn suggestions() {
        let tick = ["rate", "max_frame_delta", "catch_up"];
        let api = [
            "destroy",
            "damage",
            "spawn",
            "sound",
            "use_cooldown",
            "log",
            "pos",
        ];
        let handlers = ["on_start", "on_tick", "on_collision_enter", "on_hit"];
        let long = "x".repeat(MAX_COMPARED + 1);
        let longer = format!("{long}y");
        let cases: &[(&str, &[&str], Option<&str>)] = &[
            // A typo within the limit: an edit per three characters, at least one.
            ("rat", &tick, Some("rate")),
            ("catchup", &tick, Some("catch_up")),
            ("max_frame_dleta", &tick, Some("max_frame_delta")),
            ("destory", &api, Some("destroy")),
            ("spwan", &api, Some("spawn")),
            ("sounds", &api, Some("sound")),
            ("usecooldown", &api, Some("use_cooldown")),
            // `_` and `-` are not compared.
            ("__log", &api, Some("log")),
            ("Catch-Up", &tick, Some("catch_up")),
            ("__", &api, None),
            ("on_strat", &handlers, Some("on_start")),
            ("on_tik", &handlers, Some("on_tick")),
            ("onstart", &handlers, Some("on_start")),
            ("on_colision_enter", &handlers, Some("on_collision_enter")),
            ("behavior", &["behaviour", "bounds"], Some("behaviour")),
            ("widht", &["title", "width", "height"], Some("width")),
            ("fier", &["fire", "reload"], Some("fire")),
            ("jmp", &["fire", "jump", "move_x"], Some("jump")),
            ("move_y", &["fire", "jump", "move_x"], Some("move_x")),
            ("playr", &["player", "enemy"], Some("player")),
            ("ennemy", &["player", "enemy"], Some("enemy")),
            ("enmy", &["player", "enemy"], Some("enemy")),
            ("purpel", &["red", "purple"], Some("purple")),
            // Case is free, but the same name is no suggestion.
            ("RATE", &tick, Some("rate")),
            ("Spawn", &api, Some("spawn")),
            ("rate", &tick, None),
            // Too far.
            ("speed", &tick, None),
            ("explode", &api, None),
            ("enemies", &["player", "enemy"], None),
            ("lvl2", &["main", "boss"], None),
            ("titel", &["both", "fake", "many", "pixel"], None),
            ("rate", &["name", "seed", "entry"], None),
            ("spd", &["speed"], None),
            ("zzz", &["speed"], None),
            ("ff000", &["white", "black", "red", "green", "blue"], None),
            // A name is never all edits: one letter only matches itself in another case.
            ("a", &["b"], None),
            ("A", &["b", "a"], Some("a")),
            ("ab", &["xy", "cd"], None),
            ("ab", &["abc"], Some("abc")),
            // The fewest edits win; ties go to the earlier candidate.
            ("sond", &["sound", "send"], Some("sound")),
            ("sned", &["spawn", "send", "sound"], Some("send")),
            ("cat", &["bat", "car"], Some("bat")),
            ("cat", &["car", "bat"], Some("car")),
            // Empty and over-long names are not compared.
            ("", &["a"], None),
            ("x", &[""], None),
            (&long, &[&longer], None),
            ("xx", &[&long], None),
        ];
        for (query, candidates, expected) in cases {
            assert_eq!(
                closest(query, candidates.iter().copied()),
                *expected,
                "{query:?} among {candidates:?}"
            );
        }
    }
}

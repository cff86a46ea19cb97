//! "Did you mean" by the one rule of [`ludus_core::closest`], and short lists of what is
//! allowed.

pub(crate) use ludus_core::closest;

/// Items a list shows before it says how many more there are.
const MAX_LISTED: usize = 12;

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
    fn lists_are_short() {
        assert_eq!(list(["a", "b"]), "`a`, `b`");
        let many: Vec<String> = (0..20).map(|i| i.to_string()).collect();
        assert!(list(many.iter().map(String::as_str)).ends_with("and 8 more"));
    }
}

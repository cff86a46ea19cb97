//! `ludus test --bless`: the observed tick and hash written into a test file's `[expect]`,
//! the rest of the file (comments, order, other keys) kept as it is.

use toml_edit::{DocumentMut, Item, Table, value};

/// `text` with `expect.tick` and `expect.hash` set to these values; `None` when they already
/// are (the file is left alone).
pub fn blessed(text: &str, tick: u64, hash: u64) -> Result<Option<String>, String> {
    let mut doc: DocumentMut = text
        .parse()
        .map_err(|e: toml_edit::TomlError| e.message().to_string())?;
    let tick = i64::try_from(tick).map_err(|_| "the tick is too large".to_string())?;
    let hash = format!("{hash:016x}");
    let expect = doc
        .entry("expect")
        .or_insert_with(|| Item::Table(Table::new()));
    let Some(expect) = expect.as_table_like_mut() else {
        return Err("`expect` is not a table".into());
    };
    let same = expect.get("tick").and_then(Item::as_integer) == Some(tick)
        && expect.get("hash").and_then(Item::as_str) == Some(hash.as_str());
    if same {
        return Ok(None);
    }
    set(expect, "tick", value(tick));
    set(expect, "hash", value(hash));
    Ok(Some(doc.to_string()))
}

/// Sets `key`'s value, keeping the comments around an existing one.
fn set(table: &mut dyn toml_edit::TableLike, key: &str, new: Item) {
    match table.get_mut(key) {
        Some(Item::Value(old)) => {
            let decor = old.decor().clone();
            if let Item::Value(mut v) = new {
                *v.decor_mut() = decor;
                *old = v;
            }
        }
        _ => {
            table.insert(key, new);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::blessed;

    #[test]
    fn tick_and_hash_are_written_and_the_rest_is_kept() {
        // (file, after blessing with tick 12 and hash 0xab)
        let cases = [
            (
                "ticks = 20 # limit\n\n[expect]\n# the end\ngame_over = \"X\"\n",
                Some(
                    "ticks = 20 # limit\n\n[expect]\n# the end\ngame_over = \"X\"\ntick = 12\nhash = \"00000000000000ab\"\n",
                ),
            ),
            (
                "ticks = 20\n[expect]\ntick = 3 # old\nhash = \"ffffffffffffffff\"\nscore = 1\n",
                Some(
                    "ticks = 20\n[expect]\ntick = 12 # old\nhash = \"00000000000000ab\"\nscore = 1\n",
                ),
            ),
            (
                "ticks = 20\n",
                Some("ticks = 20\n\n[expect]\ntick = 12\nhash = \"00000000000000ab\"\n"),
            ),
            (
                "ticks = 20\n[expect]\ntick = 12\nhash = \"00000000000000ab\"\n",
                None,
            ),
        ];
        for (before, after) in cases {
            let got = blessed(before, 12, 0xab).unwrap();
            assert_eq!(got.as_deref(), after, "blessing {before:?}");
        }
    }
}

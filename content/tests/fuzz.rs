//! Whatever bytes arrive, loading never panics and every diagnostic points inside its file.
//! Inputs: random bytes as game.toml, and random mutations (byte flips, truncations, inserted
//! brackets, quotes, `=`, huge numbers, `nan`, invalid UTF-8) of the good game's game.toml and
//! of one of its level files. Case counts keep the run to a few seconds in debug builds.

use ludus_content::{DirSource, FileSource, MemorySource, load_game};
use proptest::prelude::*;
use std::path::Path;
use std::sync::OnceLock;

/// The good game in memory (read once).
fn good() -> &'static MemorySource {
    static GOOD: OnceLock<MemorySource> = OnceLock::new();
    GOOD.get_or_init(|| {
        let disk = DirSource::new(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/good"));
        let mut mem = MemorySource::new();
        for path in [
            "game.toml",
            "archetypes/enemies.toml",
            "levels/arena.toml",
            "scripts/main.lua",
            "scripts/util.lua",
            "images/ship.png",
        ] {
            let bytes = disk.read(path).unwrap_or_else(|e| panic!("{path}: {e}"));
            mem.insert(path, bytes);
        }
        mem
    })
}

/// Loads and checks the invariants; returns a description of any violation.
fn check(source: &MemorySource) -> Result<(), String> {
    let Err(diagnostics) = load_game(source) else {
        return Ok(());
    };
    if diagnostics.is_empty() {
        return Err("refused without a diagnostic".into());
    }
    let _ = diagnostics.render();
    for d in diagnostics.iter() {
        if d.line == 0 {
            continue;
        }
        let bytes = source
            .get(&d.file)
            .ok_or_else(|| format!("diagnostic in a file that does not exist: {d:?}"))?;
        let text = String::from_utf8_lossy(bytes);
        let lines: Vec<&str> = text.split('\n').collect();
        let line = lines.get(d.line as usize - 1).ok_or_else(|| {
            format!(
                "line {} past the end of {} ({} lines)",
                d.line,
                d.file,
                lines.len()
            )
        })?;
        let last = d.line as usize == lines.len();
        let line = if last {
            line
        } else {
            line.strip_suffix('\r').unwrap_or(line)
        };
        let chars = line.chars().count() as u32;
        if d.col == 0 || d.col > chars + 1 {
            return Err(format!(
                "column {} outside line {} of {} ({chars} characters): {d:?}",
                d.col, d.line, d.file
            ));
        }
        if d.span_len == 0 || d.snippet.is_none() {
            return Err(format!(
                "positioned diagnostic without snippet or span: {d:?}"
            ));
        }
    }
    Ok(())
}

/// One edit of a file.
#[derive(Clone, Debug)]
enum Edit {
    Flip(usize, u8),
    Truncate(usize),
    Insert(usize, &'static [u8]),
    Delete(usize, usize),
}

const TOKENS: &[&[u8]] = &[
    b"[",
    b"]",
    b"{",
    b"}",
    b"\"",
    b"'",
    b"=",
    b",",
    b".",
    b"#",
    b"\n",
    b"\n[",
    b"[[",
    b"]]",
    b"\"\"\"",
    b"'''",
    b"99999999999999999999999",
    b"-1",
    b"0",
    b"1e400",
    b"nan",
    b"-inf",
    b"true",
    b"\"x\"",
    b"[1, 2, 3]",
    b"{ a = 1 }",
    b"\xff",
    b"\xc3",
    "é".as_bytes(),
    b"\0",
    b"\t",
    b"\r\n",
    b"a.b.c = 1\n",
    b"\n[tick]\n",
    b"\n[[place]]\n",
];

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<usize>(), any::<u8>()).prop_map(|(i, b)| Edit::Flip(i, b)),
        any::<usize>().prop_map(Edit::Truncate),
        (any::<usize>(), prop::sample::select(TOKENS)).prop_map(|(i, t)| Edit::Insert(i, t)),
        (any::<usize>(), 1usize..40).prop_map(|(i, n)| Edit::Delete(i, n)),
    ]
}

fn apply(bytes: &mut Vec<u8>, edit: &Edit) {
    let len = bytes.len();
    let at = |i: usize| if len == 0 { 0 } else { i % (len + 1) };
    match *edit {
        Edit::Flip(i, b) => {
            if len > 0 {
                bytes[i % len] ^= b | 1;
            }
        }
        Edit::Truncate(i) => bytes.truncate(at(i)),
        Edit::Insert(i, t) => {
            let p = at(i);
            bytes.splice(p..p, t.iter().copied());
        }
        Edit::Delete(i, n) => {
            let p = at(i).min(len);
            let end = (p + n).min(len);
            bytes.drain(p..end);
        }
    }
}

fn mutated(path: &str, edits: &[Edit]) -> MemorySource {
    let mut source = good().clone();
    let mut bytes = source.get(path).map(<[u8]>::to_vec).unwrap_or_default();
    for e in edits {
        apply(&mut bytes, e);
    }
    source.insert(path, bytes);
    source
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes_as_game_toml(bytes in prop::collection::vec(any::<u8>(), 0..600)) {
        let source = good().clone().with("game.toml", bytes);
        prop_assert_eq!(check(&source), Ok(()));
    }

    #[test]
    fn random_text_as_game_toml(text in "[a-z_\\[\\]{}=\"'.,#0-9 \n-]{0,400}") {
        let source = good().clone().with("game.toml", text.into_bytes());
        prop_assert_eq!(check(&source), Ok(()));
    }

    #[test]
    fn mutated_game_toml(edits in prop::collection::vec(edit(), 1..6)) {
        prop_assert_eq!(check(&mutated("game.toml", &edits)), Ok(()));
    }

    #[test]
    fn mutated_level_file(edits in prop::collection::vec(edit(), 1..6)) {
        prop_assert_eq!(check(&mutated("levels/arena.toml", &edits)), Ok(()));
    }

    #[test]
    fn mutated_archetype_file(edits in prop::collection::vec(edit(), 1..6)) {
        prop_assert_eq!(check(&mutated("archetypes/enemies.toml", &edits)), Ok(()));
    }
}

#[test]
fn the_unmutated_good_game_loads() {
    assert!(load_game(good()).is_ok());
}

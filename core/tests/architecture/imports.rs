//! The import graph of a crate, read from its source files: which file uses a name another
//! file defines.
//!
//! A file is a module (`src/a/b.rs` and `src/a/b/mod.rs` are `a::b`; `lib.rs` or `main.rs`
//! is the crate root). A file uses another when its code names, through a path that starts
//! with `crate::`, `super::`, `self::` or one of its child modules, or through a `use`, an
//! item the other file defines. Re-exports are followed to the file that defines the item,
//! and are not uses themselves: `pub use child::Thing;` in `mod.rs` makes `mod.rs` use the
//! child only if its own code names `Thing`. A glob import is a use of each file that
//! defines a name the importing file's code mentions. Test modules (`#[cfg(test)]`) are left
//! out: they are not part of the crate's structure.
//!
//! This is a reader of Rust source, not a compiler: it knows items, `use` trees, paths and
//! globs, which is what the crates here use to name each other's items.

use crate::tokens::{Tok, is_ident, tokens, use_tree};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};

/// What one file defines and names.
#[derive(Default)]
struct Scan {
    /// Items defined at its top level.
    items: HashSet<String>,
    /// Names its top-level `use`s bind, to the paths they name.
    aliases: HashMap<String, Vec<String>>,
    /// Paths of its glob imports, with a line of each (top-level ones also resolve names).
    globs: Vec<(Vec<String>, u32, bool)>,
    /// Paths its code and its plain `use`s name, with their lines.
    uses: Vec<(Vec<String>, u32)>,
    /// Names its `pub use`s bind, to their paths: uses only if its code names them.
    reexports: Vec<(String, Vec<String>, u32)>,
    /// Identifiers its code mentions (outside `use` declarations), with a line each.
    code: HashMap<String, u32>,
    /// Child modules declared `#[cfg(test)] mod name;`.
    test_children: Vec<String>,
}

const ITEM_KEYWORDS: [&str; 9] = [
    "fn", "struct", "enum", "union", "trait", "type", "const", "static", "mod",
];

/// Reads one file of module `module`, whose child modules are `children`.
fn scan(src: &str, module: &[String], children: &HashSet<String>) -> Scan {
    let mut r = Reader {
        toks: tokens(src),
        module,
        children,
        at: 0,
        depth: 0,
        inline: Vec::new(),
        test_attr: false,
        out: Scan::default(),
    };
    while r.at < r.toks.len() {
        let next = r.toks.get(r.at + 1).map(|t| t.text.as_str());
        match (r.toks[r.at].text.as_str(), next) {
            ("#", Some("[")) => r.attribute(),
            ("mod", Some(n)) if is_ident(n) => {
                if !r.module_item() {
                    r.token();
                }
            }
            ("use", _) => r.use_item(),
            _ => r.token(),
        }
    }
    r.out
}

/// A pass over one file's tokens (see [`scan`]).
struct Reader<'a> {
    toks: Vec<Tok>,
    module: &'a [String],
    children: &'a HashSet<String>,
    /// The token being read.
    at: usize,
    /// Brace depth, and the depths at which inline modules opened.
    depth: usize,
    inline: Vec<usize>,
    /// Whether the next item is `#[cfg(test)]`.
    test_attr: bool,
    out: Scan,
}

impl Reader<'_> {
    /// Whether the reader is at the file's top level.
    fn top(&self) -> bool {
        self.depth == 0 && self.inline.is_empty()
    }

    /// The path `segs` names from the crate root, if it starts in this crate (`crate`,
    /// `self`, `super` or a child module); `None` inside an inline module for a path to it.
    fn absolute(&self, segs: &[String]) -> Option<Vec<String>> {
        match segs.first()?.as_str() {
            "crate" | "$crate" => Some(segs[1..].to_vec()),
            "self" | "super" => {
                let mut at: Vec<Option<&String>> = self.module.iter().map(Some).collect();
                at.extend(std::iter::repeat_n(None, self.inline.len()));
                let mut k = 0;
                while k < segs.len() && (segs[k] == "self" || segs[k] == "super") {
                    if segs[k] == "super" {
                        at.pop()?;
                    }
                    k += 1;
                }
                let mut at: Vec<String> =
                    at.into_iter().map(|m| m.cloned()).collect::<Option<_>>()?;
                at.extend_from_slice(&segs[k..]);
                Some(at)
            }
            name if self.inline.is_empty() && self.children.contains(name) => {
                let mut at = self.module.to_vec();
                at.extend_from_slice(segs);
                Some(at)
            }
            _ => None,
        }
    }

    /// The index past the group opened at `from` (`open`...`close`, nested).
    fn past_group(&self, from: usize, open: &str, close: &str) -> usize {
        let (mut d, mut j) = (0, from);
        while j < self.toks.len() {
            let t = self.toks[j].text.as_str();
            j += 1;
            if t == open {
                d += 1;
            } else if t == close {
                d -= 1;
                if d == 0 {
                    break;
                }
            }
        }
        j
    }

    /// `#[...]`: notes `#[cfg(test)]`.
    fn attribute(&mut self) {
        let end = self.past_group(self.at + 1, "[", "]");
        let attr: Vec<&str> = self.toks[self.at + 2..end - 1]
            .iter()
            .map(|t| t.text.as_str())
            .collect();
        self.test_attr |= attr == ["cfg", "(", "test", ")"];
        self.at = end;
    }

    /// `mod name;` or `mod name { ... }`: a test module is left out. Returns whether it was
    /// one of those.
    fn module_item(&mut self) -> bool {
        let name = self.toks[self.at + 1].text.clone();
        match self.toks.get(self.at + 2).map(|t| t.text.as_str()) {
            Some(";") => {
                if self.test_attr {
                    self.out.test_children.push(name);
                }
                self.at += 3;
            }
            Some("{") if self.test_attr => self.at = self.past_group(self.at + 2, "{", "}"),
            Some("{") => {
                if self.top() {
                    self.out.items.insert(name);
                }
                self.inline.push(self.depth);
                self.depth += 1;
                self.at += 3;
            }
            _ => return false,
        }
        self.test_attr = false;
        true
    }

    /// `use ...;`: its paths, the names it binds, its globs.
    fn use_item(&mut self) {
        let (i, line, top) = (self.at, self.toks[self.at].line, self.top());
        let public = self.toks[..i]
            .iter()
            .rev()
            .take_while(|t| {
                matches!(
                    t.text.as_str(),
                    "pub" | "(" | ")" | "crate" | "in" | "super" | "self"
                )
            })
            .any(|t| t.text == "pub");
        let mut leaves = Vec::new();
        let end = use_tree(&self.toks, i + 1, &[], &mut leaves);
        for leaf in leaves.into_iter().filter(|_| !self.test_attr) {
            let Some(path) = self.absolute(&leaf.path) else {
                continue;
            };
            let s = &mut self.out;
            if leaf.glob {
                s.globs.push((path, line, top));
            } else if let Some(name) = leaf.name {
                if top {
                    s.aliases.insert(name.clone(), path.clone());
                }
                if public {
                    s.reexports.push((name, path, line));
                } else {
                    s.uses.push((path, line));
                }
            }
        }
        self.test_attr = false;
        self.at = end;
    }

    /// Any other token: braces, an item's name, a path into the crate, an identifier the
    /// code mentions.
    fn token(&mut self) {
        let (t, line) = (self.toks[self.at].text.clone(), self.toks[self.at].line);
        match t.as_str() {
            "{" => self.depth += 1,
            "}" => {
                self.depth = self.depth.saturating_sub(1);
                if self.inline.last() == Some(&self.depth) {
                    self.inline.pop();
                }
            }
            ";" => self.test_attr = false,
            _ => {}
        }
        let name_at = self.at + 1 + usize::from(t == "macro_rules");
        if self.top()
            && (ITEM_KEYWORDS.contains(&t.as_str()) || t == "macro_rules")
            && let Some(next) = self.toks.get(name_at)
            && is_ident(&next.text)
            && !ITEM_KEYWORDS.contains(&next.text.as_str())
            && !["_", "unsafe", "extern", "async"].contains(&next.text.as_str())
        {
            self.out.items.insert(next.text.clone());
        }
        let prev = self.at.checked_sub(1).map(|p| self.toks[p].text.as_str());
        let after_dot = prev == Some(".");
        if !matches!(prev, Some("::" | "."))
            && is_ident(&t)
            && self.toks.get(self.at + 1).is_some_and(|t| t.text == "::")
        {
            let mut segs = vec![t.clone()];
            let mut j = self.at + 1;
            while self.toks.get(j).is_some_and(|t| t.text == "::")
                && self.toks.get(j + 1).is_some_and(|t| is_ident(&t.text))
            {
                segs.push(self.toks[j + 1].text.clone());
                j += 2;
            }
            if let Some(path) = self.absolute(&segs) {
                self.out.uses.push((path, line));
                self.at = j;
                return;
            }
        }
        if is_ident(&t) && !after_dot {
            self.out.code.entry(t).or_insert(line);
        }
        self.at += 1;
    }
}

/// One crate's files and the uses between them.
pub struct Graph {
    /// The crate's folder, relative to the workspace.
    pub name: String,
    /// Each file: its module path and its path relative to the workspace.
    pub files: Vec<(Vec<String>, String)>,
    /// `(from, to)` file indices, with the line of `from` where the first use is.
    pub edges: BTreeMap<(usize, usize), u32>,
}

/// Reads the crate whose sources are under `src` (named `name` in messages, its files by
/// their paths relative to `workspace`).
pub fn read(workspace: &Path, name: &str, src: &Path) -> Graph {
    let mut modules = modules(src);
    let mut scans: Vec<Scan> = Vec::new();
    for (module, path) in &modules {
        let children: HashSet<String> = modules
            .iter()
            .filter(|(m, _)| m.len() == module.len() + 1 && m.starts_with(module))
            .filter_map(|(m, _)| m.last().cloned())
            .collect();
        let text = std::fs::read_to_string(path)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        scans.push(scan(&text, module, &children));
    }
    // Test modules declared by file are left out, with everything under them.
    let tests: Vec<Vec<String>> = modules
        .iter()
        .zip(&scans)
        .flat_map(|((m, _), s)| {
            s.test_children.iter().map(move |c| {
                let mut t = m.clone();
                t.push(c.clone());
                t
            })
        })
        .collect();
    let keep: Vec<bool> = modules
        .iter()
        .map(|(m, _)| !tests.iter().any(|t| m.starts_with(t)))
        .collect();
    let mut k = keep.iter();
    modules.retain(|_| *k.next().unwrap_or(&true));
    let mut k = keep.iter();
    scans.retain(|_| *k.next().unwrap_or(&true));
    let edges = edges(&modules, &scans);
    let files = modules
        .into_iter()
        .map(|(m, p)| {
            let rel = p.strip_prefix(workspace).unwrap_or(&p);
            (m, rel.to_string_lossy().replace('\\', "/"))
        })
        .collect();
    Graph {
        name: name.to_string(),
        files,
        edges,
    }
}

/// Every source file under `src` with its module path (`src/bin/` holds other crates).
fn modules(src: &Path) -> Vec<(Vec<String>, PathBuf)> {
    let mut paths = Vec::new();
    collect(src, &mut paths);
    paths.sort();
    paths
        .into_iter()
        .filter_map(|p| {
            let rel = p.strip_prefix(src).ok()?.with_extension("");
            let mut module: Vec<String> = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            if module.first().is_some_and(|m| m == "bin") {
                return None;
            }
            if module.last().is_some_and(|m| m == "mod") || module == ["lib"] || module == ["main"]
            {
                module.pop();
            }
            Some((module, p))
        })
        .collect()
}

/// The uses between files (see the module documentation), each with its first line.
fn edges(modules: &[(Vec<String>, PathBuf)], scans: &[Scan]) -> BTreeMap<(usize, usize), u32> {
    let index: HashMap<Vec<String>, usize> = modules
        .iter()
        .enumerate()
        .map(|(i, (m, _))| (m.clone(), i))
        .collect();
    let r = Resolver {
        index: &index,
        scans,
    };
    let mut edges = BTreeMap::new();
    for (from, s) in scans.iter().enumerate() {
        let mut add = |path: &[String], line: u32| {
            if let Some((to, _)) = r.resolve(path, 0)
                && to != from
            {
                edges.entry((from, to)).or_insert(line);
            }
        };
        for (path, line) in &s.uses {
            add(path, *line);
        }
        for (name, path, line) in &s.reexports {
            if s.code.contains_key(name) {
                add(path, *line);
            }
        }
        for (glob, _, _) in &s.globs {
            let Some(&g) = index.get(glob) else {
                continue;
            };
            let names = r.names(g, &mut HashSet::new());
            for (name, &line) in &s.code {
                if names.contains(name) && !s.items.contains(name) && !s.aliases.contains_key(name)
                {
                    let mut path = glob.clone();
                    path.push(name.clone());
                    add(&path, line);
                }
            }
        }
    }
    edges
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Finds the file that defines what a path names.
struct Resolver<'a> {
    index: &'a HashMap<Vec<String>, usize>,
    scans: &'a [Scan],
}

impl Resolver<'_> {
    /// The file defining what `path` (from the crate root) names, and whether the name was
    /// found there (else the file is the deepest module on the path).
    fn resolve(&self, path: &[String], depth: usize) -> Option<(usize, bool)> {
        if depth > 16 {
            return None;
        }
        let k = (0..=path.len())
            .rev()
            .find(|&k| self.index.contains_key(&path[..k]))?;
        let m = self.index[&path[..k]];
        let rest = &path[k..];
        let Some(name) = rest.first() else {
            return Some((m, true));
        };
        let s = &self.scans[m];
        if s.items.contains(name) {
            return Some((m, true));
        }
        if let Some(target) = s.aliases.get(name) {
            let mut p = target.clone();
            p.extend_from_slice(&rest[1..]);
            if let Some((f, true)) = self.resolve(&p, depth + 1) {
                return Some((f, true));
            }
        }
        for (glob, _, top) in &s.globs {
            if !top {
                continue;
            }
            let mut p = glob.clone();
            p.extend_from_slice(rest);
            if let Some((f, true)) = self.resolve(&p, depth + 1) {
                return Some((f, true));
            }
        }
        Some((m, false))
    }

    /// Every name module `m` makes visible: its items, its imports, its globs' names.
    fn names(&self, m: usize, seen: &mut HashSet<usize>) -> HashSet<String> {
        if !seen.insert(m) {
            return HashSet::new();
        }
        let s = &self.scans[m];
        let mut out: HashSet<String> = s.items.iter().chain(s.aliases.keys()).cloned().collect();
        for (glob, _, top) in &s.globs {
            if let (true, Some(&g)) = (*top, self.index.get(glob)) {
                out.extend(self.names(g, seen));
            }
        }
        out
    }
}

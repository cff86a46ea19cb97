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

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// One token of Rust source: an identifier (`$crate` included), `::`, or one other
/// character; with its line.
#[derive(Clone, Debug, PartialEq)]
struct Tok {
    text: String,
    line: u32,
}

/// The tokens of `src` that matter to paths: comments, strings, characters, lifetimes and
/// numbers are dropped.
fn tokens(src: &str) -> Vec<Tok> {
    let b = src.as_bytes();
    let (mut i, mut line, mut out) = (0usize, 1u32, Vec::new());
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let count = |from: usize, to: usize, line: &mut u32| {
        *line += b[from..to].iter().filter(|&&c| c == b'\n').count() as u32;
    };
    while i < b.len() {
        let c = b[i];
        let rest = &src[i..];
        if c == b'\n' {
            line += 1;
            i += 1;
        } else if c.is_ascii_whitespace() {
            i += 1;
        } else if rest.starts_with("//") {
            i += rest.find('\n').unwrap_or(rest.len());
        } else if rest.starts_with("/*") {
            let (mut depth, mut j) = (0, i);
            while j < b.len() {
                if src[j..].starts_with("/*") {
                    depth += 1;
                    j += 2;
                } else if src[j..].starts_with("*/") {
                    depth -= 1;
                    j += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    j += 1;
                }
            }
            count(i, j.min(b.len()), &mut line);
            i = j;
        } else if let Some(end) = raw_string(rest) {
            count(i, i + end, &mut line);
            i += end;
        } else if c == b'"' || rest.starts_with("b\"") || rest.starts_with("c\"") {
            let mut j = i + if c == b'"' { 1 } else { 2 };
            while j < b.len() && b[j] != b'"' {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            count(i, j.min(b.len()), &mut line);
            i = j + 1;
        } else if c == b'\'' || rest.starts_with("b'") {
            // A character literal, or a lifetime (`'a`), whose name is dropped too.
            let j = i + if c == b'\'' { 1 } else { 2 };
            let lit = src[j..].chars().next().map_or(0, char::len_utf8);
            if b.get(j) == Some(&b'\\') {
                let close = src[j + 1..].find('\'').map_or(b.len(), |k| j + 1 + k);
                i = close + 1;
            } else if b.get(j + lit) == Some(&b'\'') {
                i = j + lit + 1;
            } else {
                i = j;
                while i < b.len() && ident(b[i]) {
                    i += 1;
                }
            }
        } else if c.is_ascii_digit() {
            while i < b.len() && ident(b[i]) {
                i += 1;
            }
        } else if ident(c) || (c == b'$' && rest[1..].starts_with("crate")) {
            let start = if rest.starts_with("r#") { i + 2 } else { i };
            let mut j = start + usize::from(c == b'$');
            while j < b.len() && ident(b[j]) {
                j += 1;
            }
            out.push(Tok {
                text: src[start..j].to_string(),
                line,
            });
            i = j;
        } else if rest.starts_with("::") {
            out.push(Tok {
                text: "::".into(),
                line,
            });
            i += 2;
        } else {
            let len = rest.chars().next().map_or(1, char::len_utf8);
            out.push(Tok {
                text: rest[..len].to_string(),
                line,
            });
            i += len;
        }
    }
    out
}

/// The length of a raw string (`r"…"`, `r#"…"#`, `br#"…"#`) at the start of `s`.
fn raw_string(s: &str) -> Option<usize> {
    let after = s.strip_prefix("br").or_else(|| s.strip_prefix('r'))?;
    let hashes = after.len() - after.trim_start_matches('#').len();
    let body = after[hashes..].strip_prefix('"')?;
    let close = format!("\"{}", "#".repeat(hashes));
    let end = body.find(&close)?;
    Some(s.len() - body.len() + end + close.len())
}

fn is_ident(t: &str) -> bool {
    t.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_' || c == '$')
}

/// One `use` tree's leaf: its path, the name it binds (none for a glob) and whether it is
/// a glob.
struct UseLeaf {
    path: Vec<String>,
    name: Option<String>,
    glob: bool,
}

/// Parses a `use` tree at `toks[i]`; returns its leaves and where it ends.
fn use_tree(toks: &[Tok], mut i: usize, prefix: &[String], out: &mut Vec<UseLeaf>) -> usize {
    let mut path = prefix.to_vec();
    while i < toks.len() {
        let t = toks[i].text.as_str();
        if t == "{" {
            i += 1;
            while i < toks.len() && toks[i].text != "}" {
                i = use_tree(toks, i, &path, out);
                if toks.get(i).is_some_and(|t| t.text == ",") {
                    i += 1;
                }
            }
            return i + 1;
        }
        if t == "*" {
            out.push(UseLeaf {
                path,
                name: None,
                glob: true,
            });
            return i + 1;
        }
        if t == "::" {
            i += 1;
            continue;
        }
        if !is_ident(t) {
            break;
        }
        path.push(t.to_string());
        i += 1;
        if toks.get(i).is_some_and(|t| t.text == "::") {
            continue;
        }
        let mut name = path.last().cloned();
        if toks.get(i).is_some_and(|t| t.text == "as") {
            name = toks.get(i + 1).map(|t| t.text.clone());
            i += 2;
        }
        if path.last().is_some_and(|s| s == "self") {
            path.pop();
            if name.as_deref() == Some("self") {
                name = path.last().cloned();
            }
        }
        out.push(UseLeaf {
            path,
            name,
            glob: false,
        });
        return i;
    }
    i
}

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
    let toks = tokens(src);
    let mut s = Scan::default();
    // Brace depth, and the depths at which inline modules opened.
    let (mut depth, mut inline): (usize, Vec<usize>) = (0, Vec::new());
    let mut test_attr = false;
    let mut i = 0;
    let absolute = |segs: &[String], inline: usize| -> Option<Vec<String>> {
        let first = segs.first()?.as_str();
        match first {
            "crate" | "$crate" => Some(segs[1..].to_vec()),
            "self" | "super" => {
                let mut at: Vec<Option<&String>> = module.iter().map(Some).collect();
                at.extend(std::iter::repeat_n(None, inline));
                let mut k = 0;
                while k < segs.len() && (segs[k] == "self" || segs[k] == "super") {
                    if segs[k] == "super" {
                        at.pop()?;
                    }
                    k += 1;
                }
                // Inside an inline module: a path to the module itself or below it.
                let at: Option<Vec<String>> = at.into_iter().map(|m| m.cloned()).collect();
                let mut at = at?;
                at.extend_from_slice(&segs[k..]);
                Some(at)
            }
            name if inline == 0 && children.contains(name) => {
                let mut at = module.to_vec();
                at.extend_from_slice(segs);
                Some(at)
            }
            _ => None,
        }
    };
    while i < toks.len() {
        let t = toks[i].text.as_str();
        let line = toks[i].line;
        let top = depth == 0 && inline.is_empty();
        if t == "#" && toks.get(i + 1).is_some_and(|t| t.text == "[") {
            let mut j = i + 2;
            let mut d = 1;
            while j < toks.len() && d > 0 {
                match toks[j].text.as_str() {
                    "[" => d += 1,
                    "]" => d -= 1,
                    _ => {}
                }
                j += 1;
            }
            let attr: Vec<&str> = toks[i + 2..j - 1].iter().map(|t| t.text.as_str()).collect();
            test_attr |= attr == ["cfg", "(", "test", ")"];
            i = j;
            continue;
        }
        if t == "mod" && toks.get(i + 1).is_some_and(|t| is_ident(&t.text)) {
            let name = toks[i + 1].text.clone();
            match toks.get(i + 2).map(|t| t.text.as_str()) {
                Some(";") => {
                    if test_attr {
                        s.test_children.push(name);
                    }
                    test_attr = false;
                    i += 3;
                    continue;
                }
                Some("{") => {
                    if test_attr {
                        // Skip the test module.
                        let (mut d, mut j) = (0, i + 2);
                        while j < toks.len() {
                            match toks[j].text.as_str() {
                                "{" => d += 1,
                                "}" => {
                                    d -= 1;
                                    if d == 0 {
                                        break;
                                    }
                                }
                                _ => {}
                            }
                            j += 1;
                        }
                        test_attr = false;
                        i = j + 1;
                        continue;
                    }
                    if top {
                        s.items.insert(name);
                    }
                    inline.push(depth);
                    depth += 1;
                    i += 3;
                    continue;
                }
                _ => {}
            }
        }
        if t == "use" {
            let public = toks[..i]
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
            let end = use_tree(&toks, i + 1, &[], &mut leaves);
            if !test_attr {
                for leaf in leaves {
                    let Some(path) = absolute(&leaf.path, inline.len()) else {
                        continue;
                    };
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
            }
            test_attr = false;
            i = end;
            continue;
        }
        match t {
            "{" => depth += 1,
            "}" => {
                depth = depth.saturating_sub(1);
                if inline.last() == Some(&depth) {
                    inline.pop();
                }
            }
            ";" => test_attr = false,
            _ => {}
        }
        if top
            && (ITEM_KEYWORDS.contains(&t) || t == "macro_rules")
            && let Some(next) = toks.get(i + 1 + usize::from(t == "macro_rules"))
            && is_ident(&next.text)
            && !ITEM_KEYWORDS.contains(&next.text.as_str())
            && !["_", "unsafe", "extern", "async"].contains(&next.text.as_str())
        {
            s.items.insert(next.text.clone());
        }
        let prev = i.checked_sub(1).map(|p| toks[p].text.as_str());
        let path_start = !matches!(prev, Some("::" | "."))
            && toks.get(i + 1).is_some_and(|t| t.text == "::")
            && is_ident(t);
        if path_start {
            let mut segs = vec![t.to_string()];
            let mut j = i + 1;
            while toks.get(j).is_some_and(|t| t.text == "::")
                && toks.get(j + 1).is_some_and(|t| is_ident(&t.text))
            {
                segs.push(toks[j + 1].text.clone());
                j += 2;
            }
            if let Some(path) = absolute(&segs, inline.len()) {
                s.uses.push((path, line));
                i = j;
                continue;
            }
        }
        if is_ident(t) && prev != Some(".") {
            s.code.entry(t.to_string()).or_insert(line);
        }
        i += 1;
    }
    s
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
    let mut paths = Vec::new();
    collect(src, &mut paths);
    paths.sort();
    let mut modules: Vec<(Vec<String>, PathBuf)> = paths
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
        .collect();
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
    let index: HashMap<Vec<String>, usize> = modules
        .iter()
        .enumerate()
        .map(|(i, (m, _))| (m.clone(), i))
        .collect();
    let r = Resolver {
        index: &index,
        scans: &scans,
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

impl Graph {
    fn module_name(&self, i: usize) -> String {
        let m = &self.files[i].0;
        if m.is_empty() {
            "crate".into()
        } else {
            m.join("::")
        }
    }

    /// `file:line` of the use behind edge `(a, b)`.
    fn at(&self, a: usize, b: usize) -> String {
        format!("{}:{}", self.files[a].1, self.edges[&(a, b)])
    }

    /// Every import circle: the modules in it (sorted), and one cycle through them as
    /// `file:line` uses.
    pub fn circles(&self) -> Vec<(String, String)> {
        let n = self.files.len();
        let mut next: Vec<Vec<usize>> = vec![Vec::new(); n];
        for &(a, b) in self.edges.keys() {
            next[a].push(b);
        }
        let mut out = Vec::new();
        for scc in components(&next) {
            if scc.len() < 2 {
                continue;
            }
            let mut names: Vec<String> = scc.iter().map(|&i| self.module_name(i)).collect();
            names.sort();
            let start = *scc
                .iter()
                .min_by_key(|&&i| self.module_name(i))
                .unwrap_or(&scc[0]);
            let cycle = self.cycle_through(start, &scc, &next);
            let key = format!("{}: circle of {}", self.name, names.join(", "));
            let mut how = String::new();
            for w in cycle.windows(2) {
                write!(
                    how,
                    "{} uses {}; ",
                    self.at(w[0], w[1]),
                    self.module_name(w[1])
                )
                .ok();
            }
            out.push((key, how.trim_end_matches("; ").to_string()));
        }
        out.sort();
        out
    }

    /// A shortest cycle from `start` back to it within `scc`.
    fn cycle_through(&self, start: usize, scc: &[usize], next: &[Vec<usize>]) -> Vec<usize> {
        let inside: HashSet<usize> = scc.iter().copied().collect();
        let mut parent: HashMap<usize, usize> = HashMap::new();
        let mut queue = std::collections::VecDeque::from([start]);
        while let Some(v) = queue.pop_front() {
            for &w in &next[v] {
                if w == start {
                    let mut path = vec![start, v];
                    let mut at = v;
                    while let Some(&p) = parent.get(&at) {
                        path.push(p);
                        at = p;
                    }
                    // `path` is start, v, ..., start: the cycle backwards.
                    path.reverse();
                    return path;
                }
                if inside.contains(&w) && w != start && !parent.contains_key(&w) {
                    parent.insert(w, v);
                    queue.push_back(w);
                }
            }
        }
        vec![start]
    }

    /// The top-level folder (or file) of file `i`: the first part of its module path.
    fn folder(&self, i: usize) -> String {
        self.files[i]
            .0
            .first()
            .cloned()
            .unwrap_or_else(|| "crate".into())
    }

    /// The top-level folders that use each other, with one use each way.
    pub fn folder_pairs(&self) -> Vec<(String, String)> {
        let mut between: BTreeMap<(String, String), (usize, usize)> = BTreeMap::new();
        for &(a, b) in self.edges.keys() {
            let (fa, fb) = (self.folder(a), self.folder(b));
            if fa != fb {
                between.entry((fa, fb)).or_insert((a, b));
            }
        }
        let mut out = Vec::new();
        for ((fa, fb), &(a, b)) in &between {
            if fa < fb
                && let Some(&(c, d)) = between.get(&(fb.clone(), fa.clone()))
            {
                out.push((
                    format!("{}: folders {fa} and {fb} use each other", self.name),
                    format!(
                        "{} uses {}; {} uses {}",
                        self.at(a, b),
                        self.module_name(b),
                        self.at(c, d),
                        self.module_name(d)
                    ),
                ));
            }
        }
        out
    }

    /// The top-level folders (and files) each top-level folder uses.
    pub fn folders(&self) -> BTreeMap<String, BTreeSet<String>> {
        let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for i in 0..self.files.len() {
            out.entry(self.folder(i)).or_default();
        }
        for &(a, b) in self.edges.keys() {
            let (fa, fb) = (self.folder(a), self.folder(b));
            if fa != fb {
                out.entry(fa).or_default().insert(fb);
            }
        }
        out
    }
}

/// Strongly connected components (Tarjan's algorithm, without recursion).
fn components(next: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let n = next.len();
    let (mut index, mut low) = (vec![usize::MAX; n], vec![0; n]);
    let (mut on, mut stack, mut out) = (vec![false; n], Vec::new(), Vec::new());
    let mut counter = 0;
    for root in 0..n {
        if index[root] != usize::MAX {
            continue;
        }
        // Nodes being visited, each with the next of its edges to follow.
        let mut work: Vec<(usize, usize)> = vec![(root, 0)];
        while let Some(&(v, e)) = work.last() {
            if index[v] == usize::MAX {
                index[v] = counter;
                low[v] = counter;
                counter += 1;
                stack.push(v);
                on[v] = true;
            }
            if let Some(&w) = next[v].get(e) {
                if let Some(top) = work.last_mut() {
                    top.1 += 1;
                }
                if index[w] == usize::MAX {
                    work.push((w, 0));
                } else if on[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == index[v] {
                let mut scc = Vec::new();
                while let Some(w) = stack.pop() {
                    on[w] = false;
                    scc.push(w);
                    if w == v {
                        break;
                    }
                }
                out.push(scc);
            }
        }
    }
    out
}

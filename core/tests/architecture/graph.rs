//! What an import graph says: its circles, and the top-level folders that use each other.

use crate::imports::Graph;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::fmt::Write as _;

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

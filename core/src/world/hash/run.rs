//! [`Run`]: a run of an archetype's kept rows, four rows to a chunk (`minds`, `movers`).

/// A run of kept rows, four to a chunk `C`: the chunks that hold its `len` rows, from the
/// first chunk's first lane (so a run that another follows ends with a whole chunk).
///
/// Invariant: `chunks.len() == len.div_ceil(4)`.
#[derive(Debug)]
pub(super) struct Run<'a, C> {
    pub(super) chunks: &'a mut [C],
    len: usize,
}

impl<C> Default for Run<'_, C> {
    fn default() -> Self {
        Run {
            chunks: &mut [],
            len: 0,
        }
    }
}

impl<'a, C> Run<'a, C> {
    /// The first `rows` rows of `chunks` (which hold at least as many).
    pub(super) fn new(chunks: &'a mut [C], rows: usize) -> Run<'a, C> {
        let chunks = &mut chunks[..rows.div_ceil(4)];
        Run { chunks, len: rows }
    }

    pub(super) fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub(super) fn len(&self) -> usize {
        self.len
    }

    /// The first `rows` rows, taken off the front: a whole number of chunks, or all.
    pub(super) fn take_front(&mut self, rows: usize) -> Run<'a, C> {
        if self.is_empty() {
            return Run::default();
        }
        assert!(
            rows.is_multiple_of(4) || rows == self.len,
            "runs of whole chunks"
        );
        let rows = rows.min(self.len);
        let (head, tail) = std::mem::take(&mut self.chunks).split_at_mut(rows.div_ceil(4));
        self.chunks = tail;
        self.len -= rows;
        Run {
            chunks: head,
            len: rows,
        }
    }
}

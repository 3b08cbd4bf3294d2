//! A vector of shared values kept in shared chunks: copying it copies one pointer per chunk,
//! writing an element copies one chunk, and an element-wise operation on two vectors that
//! share a chunk skips it whole. What lets a packed relational value over thousands of packs
//! cost, from one program point to the next, what its changed packs cost.

use std::sync::Arc;

/// Elements per chunk.
const CHUNK: usize = 64;

/// `len` shared values in chunks of [`CHUNK`].
#[derive(Debug)]
pub(super) struct Chunks<T> {
    chunks: Vec<Arc<Vec<Arc<T>>>>,
    len: usize,
}

impl<T> Clone for Chunks<T> {
    fn clone(&self) -> Self {
        Chunks {
            chunks: self.chunks.clone(),
            len: self.len,
        }
    }
}

impl<T: Clone> Chunks<T> {
    /// `len` copies of `value` (sharing it).
    pub(super) fn filled(len: usize, value: &Arc<T>) -> Chunks<T> {
        let chunks = (0..len.div_ceil(CHUNK))
            .map(|c| Arc::new(vec![value.clone(); CHUNK.min(len - c * CHUNK)]))
            .collect();
        Chunks { chunks, len }
    }

    /// Element `i`.
    pub(super) fn get(&self, i: usize) -> Option<&Arc<T>> {
        self.chunks.get(i / CHUNK).and_then(|c| c.get(i % CHUNK))
    }

    /// Element `i` to write, its chunk and itself copied first when shared.
    ///
    /// # Panics
    ///
    /// If `i` is not below [`Chunks::len`].
    pub(super) fn make_mut(&mut self, i: usize) -> &mut T {
        let chunk = Arc::make_mut(&mut self.chunks[i / CHUNK]);
        Arc::make_mut(&mut chunk[i % CHUNK])
    }

    /// The elements in order.
    pub(super) fn iter(&self) -> impl Iterator<Item = &Arc<T>> {
        self.chunks.iter().flat_map(|c| c.iter())
    }

    /// Whether `pred` holds of every pair of elements at one index (an element past one side's
    /// end is `missing`), skipping the chunks both share.
    pub(super) fn all_pairs(
        a: &Chunks<T>,
        b: &Chunks<T>,
        missing: &Arc<T>,
        mut pred: impl FnMut(&Arc<T>, &Arc<T>) -> bool,
    ) -> bool {
        let len = a.len.max(b.len);
        for c in 0..len.div_ceil(CHUNK) {
            if let (Some(x), Some(y)) = (a.chunks.get(c), b.chunks.get(c))
                && Arc::ptr_eq(x, y)
            {
                continue;
            }
            for i in c * CHUNK..len.min((c + 1) * CHUNK) {
                let x = a.get(i).unwrap_or(missing);
                let y = b.get(i).unwrap_or(missing);
                if !Arc::ptr_eq(x, y) && !pred(x, y) {
                    return false;
                }
            }
        }
        true
    }

    /// `f` of every pair of elements at one index (an element past one side's end is
    /// `missing`), sharing the chunks and the elements both share; the first `Err` stops it.
    pub(super) fn zip_with<E>(
        a: &Chunks<T>,
        b: &Chunks<T>,
        missing: &Arc<T>,
        mut f: impl FnMut(&Arc<T>, &Arc<T>) -> Result<Arc<T>, E>,
    ) -> Result<Chunks<T>, E> {
        let len = a.len.max(b.len);
        let mut chunks = Vec::with_capacity(len.div_ceil(CHUNK));
        for c in 0..len.div_ceil(CHUNK) {
            if let (Some(x), Some(y)) = (a.chunks.get(c), b.chunks.get(c))
                && Arc::ptr_eq(x, y)
            {
                chunks.push(x.clone());
                continue;
            }
            let mut chunk = Vec::with_capacity(CHUNK);
            for i in c * CHUNK..len.min((c + 1) * CHUNK) {
                let x = a.get(i).unwrap_or(missing);
                let y = b.get(i).unwrap_or(missing);
                chunk.push(if Arc::ptr_eq(x, y) {
                    x.clone()
                } else {
                    f(x, y)?
                });
            }
            chunks.push(Arc::new(chunk));
        }
        Ok(Chunks { chunks, len })
    }
}

//! A disjoint-set forest (union-find) over the indices `0..n`, with path halving. A class's
//! representative is its smallest member, so classes come out in a fixed order whatever order
//! the unions came in: the escape analysis's may-alias groups, the shape graph's merged nodes
//! and the behavior analyzer's induction groups are built with it.

/// Classes of the indices `0..n`, each a tree whose root is the class's smallest member.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DisjointSets {
    parent: Vec<usize>,
}

impl DisjointSets {
    /// `n` classes of one index each.
    pub fn new(n: usize) -> Self {
        DisjointSets {
            parent: (0..n).collect(),
        }
    }

    /// How many indices there are.
    pub fn len(&self) -> usize {
        self.parent.len()
    }

    /// Whether there are no indices.
    pub fn is_empty(&self) -> bool {
        self.parent.is_empty()
    }

    /// The representative (smallest member) of `i`'s class.
    ///
    /// # Panics
    ///
    /// If `i` is not below [`DisjointSets::len`].
    pub fn find(&mut self, mut i: usize) -> usize {
        while self.parent[i] != i {
            self.parent[i] = self.parent[self.parent[i]];
            i = self.parent[i];
        }
        i
    }

    /// Puts `a` and `b` in one class; whether they were apart.
    pub fn union(&mut self, a: usize, b: usize) -> bool {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra == rb {
            return false;
        }
        let (lo, hi) = (ra.min(rb), ra.max(rb));
        self.parent[hi] = lo;
        true
    }

    /// Whether `a` and `b` are in one class.
    pub fn same(&mut self, a: usize, b: usize) -> bool {
        self.find(a) == self.find(b)
    }

    /// The classes of the indices `keep` allows (a class with none left out), each in
    /// increasing order, ordered by their smallest kept member.
    pub fn classes(&mut self, keep: impl Fn(usize) -> bool) -> Vec<Vec<usize>> {
        let mut by_root: Vec<Option<usize>> = vec![None; self.parent.len()];
        let mut out: Vec<Vec<usize>> = Vec::new();
        for i in 0..self.parent.len() {
            if !keep(i) {
                continue;
            }
            let root = self.find(i);
            match by_root[root] {
                Some(k) => out[k].push(i),
                None => {
                    by_root[root] = Some(out.len());
                    out.push(vec![i]);
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::DisjointSets;

    #[test]
    fn classes_are_the_connected_indices_in_a_fixed_order() {
        let mut sets = DisjointSets::new(7);
        assert!(sets.union(5, 2));
        assert!(sets.union(6, 5));
        assert!(!sets.union(2, 6), "already one class");
        assert!(sets.union(4, 1));
        assert!(sets.same(6, 2) && !sets.same(1, 2));
        assert_eq!(sets.find(6), 2, "the smallest member represents the class");
        assert_eq!(
            sets.classes(|_| true),
            vec![vec![0], vec![1, 4], vec![2, 5, 6], vec![3]]
        );
        assert_eq!(
            sets.classes(|i| i != 2),
            vec![vec![0], vec![1, 4], vec![3], vec![5, 6]]
        );
    }

    #[test]
    fn long_chains_flatten() {
        let n = 10_000;
        let mut sets = DisjointSets::new(n);
        for i in (1..n).rev() {
            sets.union(i, i - 1);
        }
        assert!((0..n).all(|i| sets.find(i) == 0));
        assert_eq!(sets.classes(|_| true).len(), 1);
    }
}

//! The reverse of a control-flow graph, with a virtual exit as its entry, for backward analyses.
//!
//! A function may have many exits (or none); the virtual block, numbered `block_count()` of the
//! original graph, has an edge to every block without successors, so every graph utility that
//! starts from an entry works unchanged on the reverse graph (its [`Dominators`] are
//! post-dominators, for instance).
//!
//! [`Dominators`]: super::Dominators

use crate::program::{BlockId, Cfg};

/// The reverse of `G` plus a virtual exit block, viewed as a [`Cfg`] without copying the graph.
///
/// Block ids `0..n` are the original blocks; block `n` (the [`Reversed::virtual_exit`]) is the
/// entry, and its successors are the original blocks with no successors, in id order.
#[derive(Debug)]
pub struct Reversed<'a, G: ?Sized> {
    graph: &'a G,
    exits: Vec<BlockId>,
    virtual_exit: [BlockId; 1],
}

impl<'a, G: Cfg + ?Sized> Reversed<'a, G> {
    /// The reverse of `graph`.
    pub fn new(graph: &'a G) -> Reversed<'a, G> {
        let n = graph.block_count();
        let exits = (0..n)
            .map(BlockId::new)
            .filter(|&b| graph.successors(b).is_empty())
            .collect();
        Reversed {
            graph,
            exits,
            virtual_exit: [BlockId::new(n)],
        }
    }

    /// The virtual block that stands for "after every exit".
    pub fn virtual_exit(&self) -> BlockId {
        self.virtual_exit[0]
    }

    /// The original blocks without successors.
    pub fn exits(&self) -> &[BlockId] {
        &self.exits
    }
}

impl<G: Cfg + ?Sized> Cfg for Reversed<'_, G> {
    fn block_count(&self) -> usize {
        self.graph.block_count() + 1
    }

    fn entry(&self) -> BlockId {
        self.virtual_exit()
    }

    fn successors(&self, b: BlockId) -> &[BlockId] {
        if b == self.virtual_exit() {
            &self.exits
        } else {
            self.graph.predecessors(b)
        }
    }

    fn predecessors(&self, b: BlockId) -> &[BlockId] {
        if b == self.virtual_exit() {
            &[]
        } else if self.graph.successors(b).is_empty() {
            &self.virtual_exit
        } else {
            self.graph.successors(b)
        }
    }
}

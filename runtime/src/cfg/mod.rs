//! Control-flow graph utilities: reverse post-order, dominators, dominance frontiers and the
//! weak topological order the worklist solver iterates by.

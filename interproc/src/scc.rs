//! Strongly connected components of a small directed graph, without recursion.

/// For each node of the graph `succs` (node `i`'s successors are `succs[i]`), the rank of its
/// strongly connected component in a topological order of the components: a component comes
/// before every component it reaches, so callers rank before their callees. Nodes of one
/// component share a rank. Iterative Tarjan; deterministic for a given graph.
pub(crate) fn topological_ranks(succs: &[Vec<usize>]) -> Vec<u32> {
    const UNSEEN: u32 = u32::MAX;
    let n = succs.len();
    let mut index = vec![UNSEEN; n];
    let mut low = vec![0u32; n];
    let mut on_stack = vec![false; n];
    let mut stack: Vec<usize> = Vec::new();
    let mut component = vec![0u32; n];
    let mut components = 0u32;
    let mut next = 0u32;
    // Frames of the depth-first search: a node and the position in its successor list.
    let mut frames: Vec<(usize, usize)> = Vec::new();
    for root in 0..n {
        if index[root] != UNSEEN {
            continue;
        }
        frames.push((root, 0));
        index[root] = next;
        low[root] = next;
        next += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(&mut (v, ref mut pos)) = frames.last_mut() {
            if let Some(&w) = succs[v].get(*pos) {
                *pos += 1;
                if index[w] == UNSEEN {
                    index[w] = next;
                    low[w] = next;
                    next += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    frames.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            frames.pop();
            if let Some(&(parent, _)) = frames.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == index[v] {
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    component[w] = components;
                    if w == v {
                        break;
                    }
                }
                components += 1;
            }
        }
    }
    // Tarjan finishes a component after every component it reaches: reverse the numbering.
    component.into_iter().map(|c| components - 1 - c).collect()
}

#[cfg(test)]
mod tests {
    use super::topological_ranks;

    #[test]
    fn callers_rank_before_callees_and_cycles_share_a_rank() {
        // 0 → 1 ⇄ 2 → 3, 0 → 3
        let ranks = topological_ranks(&[vec![1, 3], vec![2], vec![1, 3], vec![]]);
        assert_eq!(ranks[1], ranks[2]);
        assert!(ranks[0] < ranks[1]);
        assert!(ranks[2] < ranks[3]);
    }

    #[test]
    fn a_long_chain_does_not_overflow_the_stack() {
        let n = 200_000;
        let succs: Vec<Vec<usize>> = (0..n)
            .map(|i| if i + 1 < n { vec![i + 1] } else { vec![0] })
            .collect();
        let ranks = topological_ranks(&succs);
        assert!(ranks.iter().all(|&r| r == ranks[0]));
    }
}

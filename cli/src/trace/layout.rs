//! Where the viewer draws each block: a layered (Sugiyama) layout computed by `rust-sugiyama`,
//! with loops' back edges reversed first so that a loop's head sits above its body and only
//! back edges point upwards.

use rust_sugiyama::configure::{Config, RankingType};
use rust_sugiyama::from_vertices_and_edges;
use std::collections::BTreeSet;

/// A block's box: its centre and size, in pixels.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct Placed {
    pub(super) x: f64,
    pub(super) y: f64,
    pub(super) width: f64,
    pub(super) height: f64,
}

/// Past this many blocks, the graph is laid out in pieces of `PIECE` blocks: ranking by network
/// simplex, which gives the shortest edges, grows too fast past a few thousand blocks, and
/// cheaper rankings spread a long function over hundreds of thousands of pixels.
const BIG: usize = 1_500;
const PIECE: usize = 400;

/// Lays out consecutive runs of `PIECE` blocks (in the function's order, which keeps most edges
/// inside a piece) one below the other.
fn in_pieces(
    sizes: &[(f64, f64)],
    edges: &[(usize, usize)],
    back: &[(usize, usize)],
) -> Vec<Placed> {
    let mut placed = Vec::with_capacity(sizes.len());
    let mut top = 0.0;
    for start in (0..sizes.len()).step_by(PIECE) {
        let end = (start + PIECE).min(sizes.len());
        let inside =
            |&&(a, b): &&(usize, usize)| (start..end).contains(&a) && (start..end).contains(&b);
        let local = |&(a, b): &(usize, usize)| (a - start, b - start);
        let piece_edges: Vec<(usize, usize)> = edges.iter().filter(inside).map(local).collect();
        let piece_back: Vec<(usize, usize)> = back.iter().filter(inside).map(local).collect();
        let piece = layout(&sizes[start..end], &piece_edges, &piece_back);
        let bottom = piece
            .iter()
            .map(|p| p.y + p.height / 2.0)
            .fold(0.0, f64::max);
        placed.extend(piece.into_iter().map(|p| Placed { y: p.y + top, ..p }));
        top += bottom + 3.0 * SPACING;
    }
    placed
}

/// Space between boxes of one layer, and between layers.
const SPACING: f64 = 40.0;

/// Lays out blocks of the given sizes joined by `edges` (`(from, to)`), where `back` are the
/// edges to draw against the flow. Unconnected parts are placed side by side, left to right in
/// the order of their lowest block.
pub(super) fn layout(
    sizes: &[(f64, f64)],
    edges: &[(usize, usize)],
    back: &[(usize, usize)],
) -> Vec<Placed> {
    let mut placed: Vec<Placed> = sizes
        .iter()
        .map(|&(width, height)| Placed {
            x: 0.0,
            y: 0.0,
            width,
            height,
        })
        .collect();
    if sizes.is_empty() {
        return placed;
    }
    if sizes.len() > BIG {
        return in_pieces(sizes, edges, back);
    }
    // Each pair of blocks once, oriented along the flow; self-loops take no part in layering.
    let back: BTreeSet<(usize, usize)> = back.iter().copied().collect();
    let flow: BTreeSet<(u32, u32)> = edges
        .iter()
        .filter(|(from, to)| from != to)
        .map(|&(from, to)| {
            if back.contains(&(from, to)) {
                (to as u32, from as u32)
            } else {
                (from as u32, to as u32)
            }
        })
        .collect();
    let flow: Vec<(u32, u32)> = flow.into_iter().collect();
    let vertices: Vec<(u32, (f64, f64))> = sizes
        .iter()
        .enumerate()
        .map(|(i, &size)| (i as u32, size))
        .collect();
    let config = Config {
        vertex_spacing: SPACING,
        ranking_type: RankingType::MinimizeEdgeLength,
        ..Config::default()
    };
    let mut parts = from_vertices_and_edges(&vertices, &flow, &config);
    // Deterministic: parts in the order of their lowest block.
    parts.sort_by_key(|(part, _, _)| part.iter().map(|(v, _)| *v).min());
    let mut left = 0.0;
    for (part, _, _) in &parts {
        let min_x = part
            .iter()
            .map(|&(v, (x, _))| x - sizes[v].0 / 2.0)
            .fold(f64::INFINITY, f64::min);
        let min_y = part
            .iter()
            .map(|&(v, (_, y))| y - sizes[v].1 / 2.0)
            .fold(f64::INFINITY, f64::min);
        let mut right = left;
        for &(v, (x, y)) in part {
            placed[v].x = x - min_x + left;
            placed[v].y = y - min_y;
            right = f64::max(right, placed[v].x + sizes[v].0 / 2.0);
        }
        left = right + SPACING;
    }
    placed
}

#[cfg(test)]
mod tests {
    use super::*;

    fn overlaps(a: &Placed, b: &Placed) -> bool {
        (a.x - b.x).abs() * 2.0 < a.width + b.width && (a.y - b.y).abs() * 2.0 < a.height + b.height
    }

    #[test]
    fn a_loop_head_sits_above_its_body_and_nothing_overlaps() {
        // bb0 → head ⇄ body, head → exit.
        let sizes = [(80.0, 40.0), (120.0, 30.0), (100.0, 60.0), (60.0, 20.0)];
        let edges = [(0, 1), (1, 2), (2, 1), (1, 3)];
        let placed = layout(&sizes, &edges, &[(2, 1)]);
        assert!(placed[0].y < placed[1].y);
        assert!(placed[1].y < placed[2].y, "{placed:?}");
        assert!(placed[1].y < placed[3].y);
        for i in 0..placed.len() {
            for j in i + 1..placed.len() {
                assert!(!overlaps(&placed[i], &placed[j]), "{i} and {j}: {placed:?}");
            }
        }
    }

    #[test]
    fn big_graphs_are_laid_out_in_pieces_without_overlaps() {
        // A chain of diamonds longer than one piece.
        let n = BIG + 301;
        let sizes: Vec<(f64, f64)> = (0..n)
            .map(|i| (60.0 + (i % 5) as f64 * 10.0, 40.0))
            .collect();
        let mut edges = Vec::new();
        for i in (0..n - 3).step_by(3) {
            edges.extend([(i, i + 1), (i, i + 2), (i + 1, i + 3), (i + 2, i + 3)]);
        }
        let placed = layout(&sizes, &edges, &[]);
        let mut boxes: Vec<&Placed> = placed.iter().collect();
        boxes.sort_by(|a, b| a.y.total_cmp(&b.y));
        for (i, a) in boxes.iter().enumerate() {
            for b in boxes[i + 1..].iter().take_while(|b| b.y - a.y < 100.0) {
                assert!(!overlaps(a, b), "{a:?} and {b:?}");
            }
        }
        let width = placed
            .iter()
            .map(|p| p.x + p.width / 2.0)
            .fold(0.0, f64::max);
        assert!(width < 2_000.0, "a chain stays narrow: {width}");
    }

    #[test]
    fn unconnected_blocks_are_placed_side_by_side() {
        let sizes = [(50.0, 20.0), (50.0, 20.0), (70.0, 20.0)];
        let placed = layout(&sizes, &[(0, 1)], &[]);
        assert!(placed[2].x - placed[2].width / 2.0 >= placed[0].x + placed[0].width / 2.0);
        assert!(!overlaps(&placed[1], &placed[2]));
    }
}

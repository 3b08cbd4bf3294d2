//! Bourdoncle's weak topological order: a hierarchical ordering of the reachable blocks in which
//! every cycle is a nested component entered through its head.
//!
//! The worklist solver visits blocks in this order and widens only at component heads. The
//! construction follows Bourdoncle's depth-first algorithm with an explicit frame stack instead
//! of recursion, and stores the result flat: the blocks in order, and for each head where its
//! component ends.

use std::fmt;

use super::order::NONE;
use crate::program::{BlockId, Cfg};

/// One element of a weak topological order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WtoElement {
    /// A block outside any cycle at this level.
    Vertex(BlockId),
    /// A strongly connected part: the head, then the body ordered recursively.
    Component {
        /// The block through which the component is entered and where widening happens.
        head: BlockId,
        /// The rest of the component, in order.
        body: Vec<WtoElement>,
    },
}

/// A weak topological order of the blocks reachable from the entry.
///
/// Every edge `u → v` between reachable blocks either goes forward in [`Wto::order`] or is a back
/// edge whose target `v` is the head of a component containing `u`.
#[derive(Clone, Debug)]
pub struct Wto {
    /// The reachable blocks, heads before their bodies.
    order: Vec<BlockId>,
    /// Per block: its index in `order`, or `NONE` if unreachable.
    position: Vec<u32>,
    /// Per position: for a head, one past the last position of its component; otherwise `NONE`.
    component_end: Vec<u32>,
    /// Per block: the head of the innermost component strictly enclosing the block's own
    /// element (for a head: the component around its component), or `NONE`.
    parent: Vec<u32>,
}

/// One token of the flat encoding built during the depth-first walk (in reverse order).
#[derive(Clone, Copy)]
enum Token {
    Vertex(u32),
    Head(u32),
    End,
}

/// A suspended call of Bourdoncle's recursive procedures.
enum Frame {
    /// `visit(v)`: exploring successor `next`; `head` is the smallest depth-first number seen.
    Visit {
        v: u32,
        next: usize,
        head: u64,
        is_loop: bool,
    },
    /// `component(v)`: visiting unvisited successors of the head `v`; `ret` is what the `visit(v)`
    /// that started it returns to its caller.
    Component { v: u32, next: usize, ret: u64 },
}

impl Wto {
    /// Computes the weak topological order of `graph` from its entry.
    pub fn new<G: Cfg + ?Sized>(graph: &G) -> Wto {
        let n = graph.block_count();
        let mut wto = Wto {
            order: Vec::new(),
            position: vec![NONE; n],
            component_end: Vec::new(),
            parent: vec![NONE; n],
        };
        if n == 0 {
            return wto;
        }
        let tokens = build_tokens(graph);
        wto.flatten(&tokens);
        wto
    }

    /// Reads the tokens (already in final order) into the flat tables.
    fn flatten(&mut self, tokens: &[Token]) {
        let mut open: Vec<(u32, usize)> = Vec::new(); // (head, position)
        for &token in tokens {
            match token {
                Token::Vertex(v) | Token::Head(v) => {
                    let pos = self.order.len();
                    self.position[v as usize] = pos as u32;
                    self.parent[v as usize] = open.last().map_or(NONE, |&(h, _)| h);
                    self.order.push(BlockId(v));
                    self.component_end.push(NONE);
                    if let Token::Head(_) = token {
                        open.push((v, pos));
                    }
                }
                Token::End => {
                    let (_, pos) = open.pop().expect("balanced WTO tokens");
                    self.component_end[pos] = self.order.len() as u32;
                }
            }
        }
    }

    /// The reachable blocks in weak topological order, flattened (each head precedes its body).
    pub fn order(&self) -> &[BlockId] {
        &self.order
    }

    /// The index of `b` in [`Wto::order`], or `None` if `b` is unreachable.
    pub fn position(&self, b: BlockId) -> Option<usize> {
        match self.position.get(b.index()) {
            Some(&p) if p != NONE => Some(p as usize),
            _ => None,
        }
    }

    /// Whether `b` is the head of a component.
    pub fn is_head(&self, b: BlockId) -> bool {
        self.position(b)
            .is_some_and(|p| self.component_end[p] != NONE)
    }

    /// Every component head, in order.
    pub fn heads(&self) -> impl Iterator<Item = BlockId> + '_ {
        self.order
            .iter()
            .zip(&self.component_end)
            .filter(|&(_, &end)| end != NONE)
            .map(|(&b, _)| b)
    }

    /// The blocks of the component headed by `head` (the head first, nested components
    /// included), or `None` if `head` is not a head.
    pub fn component(&self, head: BlockId) -> Option<&[BlockId]> {
        let pos = self.position(head)?;
        match self.component_end[pos] {
            NONE => None,
            end => Some(&self.order[pos..end as usize]),
        }
    }

    /// The heads of the components containing `b`, innermost first (`b` itself when it is a
    /// head). Empty for unreachable blocks and blocks outside every cycle.
    pub fn heads_containing(&self, b: BlockId) -> impl Iterator<Item = BlockId> + '_ {
        let first = if self.is_head(b) {
            Some(b)
        } else {
            self.parent_of(b)
        };
        std::iter::successors(first, |&h| self.parent_of(h))
    }

    fn parent_of(&self, b: BlockId) -> Option<BlockId> {
        match self.parent.get(b.index()) {
            Some(&h) if h != NONE => Some(BlockId(h)),
            _ => None,
        }
    }

    /// The nested structure: top-level elements, components holding their bodies.
    pub fn elements(&self) -> Vec<WtoElement> {
        // Each open level holds (head, elements so far); the bottom level has no head.
        let mut levels: Vec<(Option<BlockId>, usize, Vec<WtoElement>)> =
            vec![(None, usize::MAX, Vec::new())];
        for (pos, &b) in self.order.iter().enumerate() {
            while levels.len() > 1 && levels.last().is_some_and(|l| l.1 <= pos) {
                close_level(&mut levels);
            }
            match self.component_end[pos] {
                NONE => levels
                    .last_mut()
                    .expect("bottom level")
                    .2
                    .push(WtoElement::Vertex(b)),
                end => levels.push((Some(b), end as usize, Vec::new())),
            }
        }
        while levels.len() > 1 {
            close_level(&mut levels);
        }
        levels.pop().map(|l| l.2).unwrap_or_default()
    }
}

fn close_level(levels: &mut Vec<(Option<BlockId>, usize, Vec<WtoElement>)>) {
    let Some((Some(head), _, body)) = levels.pop() else {
        return;
    };
    if let Some(parent) = levels.last_mut() {
        parent.2.push(WtoElement::Component { head, body });
    }
}

/// Runs Bourdoncle's algorithm and returns the flat tokens in final order.
fn build_tokens<G: Cfg + ?Sized>(graph: &G) -> Vec<Token> {
    // Depth-first numbers keep growing as components are re-explored (a block is visited once per
    // enclosing component), so they are 64-bit.
    const DONE: u64 = u64::MAX;
    let n = graph.block_count();
    // Depth-first number per block: 0 unvisited, DONE when placed in the order.
    let mut dfn = vec![0u64; n];
    let mut num = 0u64;
    let mut stack: Vec<u32> = Vec::new();
    let mut frames: Vec<Frame> = Vec::new();
    // Tokens in reverse final order: an element is emitted after everything that follows it.
    let mut tokens: Vec<Token> = Vec::new();

    let mut start_visit =
        |v: u32, dfn: &mut [u64], stack: &mut Vec<u32>, frames: &mut Vec<Frame>| {
            num += 1;
            dfn[v as usize] = num;
            stack.push(v);
            frames.push(Frame::Visit {
                v,
                next: 0,
                head: num,
                is_loop: false,
            });
        };
    start_visit(graph.entry().0, &mut dfn, &mut stack, &mut frames);

    // The value the most recently finished `visit` returns, to be consumed by its caller.
    let mut returned: Option<u64> = None;
    while let Some(frame) = frames.last_mut() {
        if let Some(min) = returned.take() {
            if let Frame::Visit { head, is_loop, .. } = frame {
                if min <= *head {
                    *head = min;
                    *is_loop = true;
                }
            }
        }
        match frame {
            Frame::Visit {
                v,
                next,
                head,
                is_loop,
            } => {
                let succs = graph.successors(BlockId(*v));
                if let Some(&w) = succs.get(*next) {
                    *next += 1;
                    match dfn[w.index()] {
                        0 => start_visit(w.0, &mut dfn, &mut stack, &mut frames),
                        min => {
                            if min <= *head {
                                *head = min;
                                *is_loop = true;
                            }
                        }
                    }
                    continue;
                }
                let (v, head, is_loop) = (*v, *head, *is_loop);
                frames.pop();
                if head != dfn[v as usize] {
                    returned = Some(head);
                    continue;
                }
                dfn[v as usize] = DONE;
                let mut top = stack.pop().expect("visited block on the stack");
                if !is_loop {
                    tokens.push(Token::Vertex(v));
                    returned = Some(head);
                    continue;
                }
                while top != v {
                    dfn[top as usize] = 0;
                    top = stack.pop().expect("component members on the stack");
                }
                tokens.push(Token::End);
                frames.push(Frame::Component {
                    v,
                    next: 0,
                    ret: head,
                });
            }
            Frame::Component { v, next, ret } => {
                let succs = graph.successors(BlockId(*v));
                if let Some(&w) = succs.get(*next) {
                    *next += 1;
                    if dfn[w.index()] == 0 {
                        start_visit(w.0, &mut dfn, &mut stack, &mut frames);
                    }
                    continue;
                }
                let (v, ret) = (*v, *ret);
                frames.pop();
                tokens.push(Token::Head(v));
                returned = Some(ret);
            }
        }
    }
    tokens.reverse();
    tokens
}

impl fmt::Display for Wto {
    /// Bourdoncle's notation: `0 (1 2 (3 4)) 5`, components in parentheses, heads first.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut open_ends: Vec<usize> = Vec::new();
        for (pos, &b) in self.order.iter().enumerate() {
            while open_ends.last().is_some_and(|&end| end <= pos) {
                open_ends.pop();
                f.write_str(")")?;
            }
            if pos > 0 {
                f.write_str(" ")?;
            }
            match self.component_end[pos] {
                NONE => write!(f, "{}", b.0)?,
                end => {
                    write!(f, "({}", b.0)?;
                    open_ends.push(end as usize);
                }
            }
        }
        for _ in open_ends {
            f.write_str(")")?;
        }
        Ok(())
    }
}

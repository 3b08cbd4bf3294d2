//! Abstract call contexts σ of the behavior graph: strings of the last `k` application labels
//! through which abstractions were entered, most recent first, interned as small ids.

use std::collections::BTreeMap;
use std::fmt;

/// An interned call string.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ContextId(pub u32);

impl ContextId {
    /// The empty call string: the program's top level, and every context when `k = 0`.
    pub const EMPTY: ContextId = ContextId(0);

    /// The position in the context table.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// The contexts of one graph: how long call strings are kept, and the strings met.
#[derive(Clone, Debug)]
pub struct Contexts {
    k: usize,
    strings: Vec<Box<[u32]>>,
    ids: BTreeMap<Box<[u32]>, ContextId>,
}

impl Contexts {
    /// Contexts of at most `k` call sites; only the empty one so far.
    pub fn new(k: usize) -> Contexts {
        let empty: Box<[u32]> = Box::new([]);
        Contexts {
            k,
            strings: vec![empty.clone()],
            ids: BTreeMap::from([(empty, ContextId::EMPTY)]),
        }
    }

    /// The longest call strings kept.
    pub fn k(&self) -> usize {
        self.k
    }

    /// How many contexts were met.
    pub fn len(&self) -> usize {
        self.strings.len()
    }

    /// Whether only the empty context exists (never: it is there from the start).
    pub fn is_empty(&self) -> bool {
        self.strings.is_empty()
    }

    /// The application labels of context `c`, most recent first.
    pub fn labels(&self, c: ContextId) -> &[u32] {
        &self.strings[c.index()]
    }

    /// The context of entering an abstraction at application `label` from context `caller`:
    /// `label·caller`, cut to `k` labels.
    pub fn push(&mut self, label: u32, caller: ContextId) -> ContextId {
        if self.k == 0 {
            return ContextId::EMPTY;
        }
        let mut string = Vec::with_capacity(self.k);
        string.push(label);
        string.extend(self.strings[caller.index()].iter().copied());
        string.truncate(self.k);
        self.intern(string.into())
    }

    /// The context of a concrete call stack (labels of the applications being evaluated,
    /// outermost first), if it was met.
    pub fn of_stack(&self, stack: &[u32]) -> Option<ContextId> {
        let string: Vec<u32> = stack.iter().rev().take(self.k).copied().collect();
        self.ids.get(string.as_slice()).copied()
    }

    fn intern(&mut self, string: Box<[u32]>) -> ContextId {
        if let Some(&c) = self.ids.get(&string) {
            return c;
        }
        let c = ContextId(self.strings.len() as u32);
        self.strings.push(string.clone());
        self.ids.insert(string, c);
        c
    }

    /// How context `c` is written: `⟨⟩`, `⟨2⟩`, `⟨6·3⟩` (most recent call site first).
    pub fn display(&self, c: ContextId) -> ContextText<'_> {
        ContextText(self.labels(c))
    }
}

/// A context written out ([`Contexts::display`]).
#[derive(Debug)]
pub struct ContextText<'a>(&'a [u32]);

impl fmt::Display for ContextText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("⟨")?;
        for (i, l) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("·")?;
            }
            write!(f, "{l}")?;
        }
        f.write_str("⟩")
    }
}

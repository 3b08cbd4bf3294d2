//! Shape graphs as text and as Graphviz `dot`: nodes as `x,y@bb0:1/0` (variables, site,
//! generation), summaries as `Σ@bb1:0/≤∞`, context nodes as `a@γ0.next`, the unknown node as
//! `?`; strong edges `-f->`, weak edges `~f~>`. A whole point is its disjuncts one a line,
//! each graph followed by the values of the names known beyond bottom and top.

use std::fmt::{self, Write};

use super::graph::{Kind, Label, Node, Strength};
use super::order::ShapeGraph;
use super::states::ShapeStates;
use absinthe::lattice::Lattice;
use absinthe::program::{FieldId, NameId};
use absinthe::value::ValueDomain;

/// How names and fields are spelled.
pub struct Names<'a> {
    /// A variable's name.
    pub name: &'a dyn Fn(NameId) -> String,
    /// A field's name.
    pub field: &'a dyn Fn(FieldId) -> String,
}

fn default_name(n: NameId) -> String {
    if n == super::RESULT {
        "ret".to_owned()
    } else {
        format!("%{}", n.index())
    }
}

fn default_field(f: FieldId) -> String {
    format!("f{}", f.index())
}

impl fmt::Debug for Names<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Names").finish_non_exhaustive()
    }
}

impl Names<'_> {
    fn label(&self, l: Label) -> String {
        match l {
            Label::Field(f) => (self.field)(f),
            Label::Pos(i) => format!("[{i}]"),
        }
    }

    /// The text of one node.
    pub fn node(&self, node: &Node) -> String {
        let vars: Vec<String> = node
            .vars
            .iter()
            .map(|&v| {
                if v == super::RESULT {
                    "ret".to_owned()
                } else {
                    (self.name)(v)
                }
            })
            .collect();
        let vars = vars.join(",");
        let sites: Vec<String> = node
            .sites
            .iter()
            .map(|s| format!("bb{}:{}", s.block.index(), s.index))
            .collect();
        let sites = sites.join("+");
        match &node.kind {
            Kind::Normal => format!("{vars}@{sites}/{}", node.generation),
            Kind::Summary => format!("Σ@{sites}/{}", node.generation),
            Kind::Context(path) => {
                let mut text = format!("γ{}", path.input);
                for &l in &path.fields {
                    text.push('.');
                    text.push_str(&self.label(l));
                }
                if vars.is_empty() {
                    text
                } else {
                    format!("{vars}@{text}")
                }
            }
            Kind::Unknown => {
                if vars.is_empty() {
                    "?".to_owned()
                } else {
                    format!("{vars}@?")
                }
            }
        }
    }
}

impl ShapeGraph {
    /// The graph as text with `names`: its nodes, then ` | ` and its edges, then the context
    /// fields certainly written (`!`) and the pending weak edges (`γ* ~f~> …`); `⊥` for bottom.
    pub fn text(&self, names: &Names<'_>) -> String {
        let Some(g) = &self.graph else {
            return "⊥".to_owned();
        };
        let text: Vec<String> = g.nodes.iter().map(|n| names.node(n)).collect();
        let mut out = text.join(", ");
        let mut parts: Vec<String> = Vec::new();
        for (&(s, l, d), &st) in &g.edges {
            let arrow = match st {
                Strength::Strong => format!("-{}->", names.label(l)),
                Strength::Weak => format!("~{}~>", names.label(l)),
            };
            parts.push(format!("{} {arrow} {}", text[s], text[d]));
        }
        for &(n, l) in &g.written {
            parts.push(format!("!{}.{}", text[n], names.label(l)));
        }
        for &(l, d) in &g.pending {
            parts.push(format!("γ* ~{}~> {}", names.label(l), text[d]));
        }
        if !parts.is_empty() {
            out.push_str(" | ");
            out.push_str(&parts.join(", "));
        }
        out
    }

    /// The graph in Graphviz `dot` with `names`: one cluster per allocation site, summaries
    /// dashed, context nodes marked γ (the unknown node `?`), weak edges dotted.
    pub fn to_dot_with(&self, names: &Names<'_>) -> String {
        let mut out = String::from("digraph shape {\n  node [shape=box];\n");
        let Some(g) = &self.graph else {
            out.push_str("  bottom [label=\"⊥\"];\n}\n");
            return out;
        };
        let mut clusters: std::collections::BTreeMap<String, Vec<usize>> = Default::default();
        for (i, node) in g.nodes.iter().enumerate() {
            let cluster = match node.kind {
                Kind::Normal | Kind::Summary => node
                    .sites
                    .iter()
                    .map(|s| format!("bb{}:{}", s.block.index(), s.index))
                    .collect::<Vec<_>>()
                    .join("+"),
                Kind::Context(_) => "γ".to_owned(),
                Kind::Unknown => "?".to_owned(),
            };
            clusters.entry(cluster).or_default().push(i);
        }
        for (c, (title, members)) in clusters.iter().enumerate() {
            let _ = writeln!(
                out,
                "  subgraph cluster_{c} {{\n    label=\"{}\";",
                escape(title)
            );
            for &i in members {
                let node = &g.nodes[i];
                let style = match node.kind {
                    Kind::Summary => ", style=dashed",
                    Kind::Context(_) => ", shape=ellipse",
                    Kind::Unknown => ", shape=diamond",
                    Kind::Normal => "",
                };
                let _ = writeln!(
                    out,
                    "    n{i} [label=\"{}\"{style}];",
                    escape(&names.node(node))
                );
            }
            out.push_str("  }\n");
        }
        for (&(s, l, d), &st) in &g.edges {
            let style = match st {
                Strength::Strong => "",
                Strength::Weak => ", style=dotted",
            };
            let _ = writeln!(
                out,
                "  n{s} -> n{d} [label=\"{}\"{style}];",
                escape(&names.label(l))
            );
        }
        out.push_str("}\n");
        out
    }

    /// [`ShapeGraph::to_dot_with`] with names `%i` and fields `fi`.
    pub fn to_dot(&self) -> String {
        self.to_dot_with(&Names {
            name: &default_name,
            field: &default_field,
        })
    }
}

fn escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The text form with names `%i` and fields `fi`.
impl fmt::Display for ShapeGraph {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text(&Names {
            name: &default_name,
            field: &default_field,
        }))
    }
}

/// The text of a whole point: one line per disjunct, its graph (as [`ShapeGraph::text`], `∅`
/// for the graph with no node) then,
/// after ` ‖ `, the names whose value is neither bottom nor top with their values (nothing
/// after the graph when every value is); the lines after the first start with `⊔ `;
/// `unreachable` when no run reaches the point.
pub fn point_text<D: ValueDomain>(state: &ShapeStates<D>, names: &Names<'_>) -> String {
    if state.is_bottom() {
        return "unreachable".to_owned();
    }
    let mut lines = Vec::with_capacity(state.disjuncts().len());
    for (i, d) in state.disjuncts().iter().enumerate() {
        let mut line = if i == 0 {
            String::new()
        } else {
            "⊔ ".to_owned()
        };
        let graph = d.graph.text(names);
        line.push_str(if graph.is_empty() { "∅" } else { &graph });
        let known: Vec<String> = d
            .values
            .values()
            .iter()
            .enumerate()
            .filter(|(_, v)| !v.is_bottom() && !v.is_top())
            .map(|(x, v)| format!("{} = {v}", (names.name)(NameId(x as u32))))
            .collect();
        if !known.is_empty() {
            line.push_str(" ‖ ");
            line.push_str(&known.join(", "));
        }
        lines.push(line);
    }
    lines.join("\n")
}

//! No two files of a crate import each other, directly or through others: every crate of the
//! workspace is read with `syn`, each path a file names (`use` items, paths in code, re-exports)
//! is resolved to the file that defines the item it reaches, and the graph of those arrows must
//! have no cycle. A parent declaring `mod child;` is not an arrow; a parent that re-exports or
//! uses one of its child's items is one, and so is a child that uses an item its parent defines.
//!
//! The arguments of macro calls are read when they parse as a list of expressions (`format!`,
//! `assert_eq!`…); other macro bodies are not. `use` items inside function bodies count as the
//! enclosing module's.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use petgraph::algo::tarjan_scc;
use petgraph::graph::DiGraph;
use syn::visit::Visit;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the CLI crate sits in the workspace")
        .to_path_buf()
}

/// One module of a crate: the file it is written in and the names it defines or brings in.
#[derive(Debug, Default)]
struct Module {
    file: usize,
    parent: Option<usize>,
    children: BTreeMap<String, usize>,
    /// Items defined here (types, functions, traits, constants, statics, macros by name).
    items: BTreeSet<String>,
    /// `use` items: the name they bind (`None` for a glob) and the path, as written.
    uses: Vec<(Option<String>, Vec<String>)>,
}

/// A path some file names: the module it is written in and its segments.
#[derive(Debug)]
struct Mention {
    module: usize,
    segments: Vec<String>,
}

/// The module tree of one crate (a library or a binary root) and what its files mention.
#[derive(Debug, Default)]
struct Crate {
    files: Vec<PathBuf>,
    modules: Vec<Module>,
    mentions: Vec<Mention>,
}

/// What a path resolves to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Target {
    /// An item defined in this file.
    Item(usize),
    /// A module (naming one is not an arrow; what it leads to is).
    Module(usize),
}

impl Crate {
    fn read(root: &Path) -> Crate {
        let mut krate = Crate::default();
        krate.read_file(root, None, None);
        krate
    }

    /// Reads `path` as the module `name` under `parent` (the crate root when `parent` is
    /// `None`), then the module files it declares.
    fn read_file(&mut self, path: &Path, parent: Option<usize>, name: Option<&str>) -> usize {
        let text = std::fs::read_to_string(path)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        let syntax = syn::parse_file(&text)
            .unwrap_or_else(|e| panic!("cannot parse {}: {e}", path.display()));
        let file = self.files.len();
        self.files.push(path.to_path_buf());
        let module = self.new_module(file, parent, name);
        // Where `mod x;` looks for its file: beside a crate root or `mod.rs`, else in a folder
        // named after this file.
        let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
        let dir = if parent.is_none() || stem == "mod" {
            path.parent()
                .expect("a file sits in a folder")
                .to_path_buf()
        } else {
            path.with_extension("")
        };
        let mut declared = Vec::new();
        let mut visitor = Visitor {
            krate: self,
            stack: vec![module],
            declared: &mut declared,
            in_body: false,
        };
        visitor.visit_file(&syntax);
        for (module, name, explicit) in declared {
            let child_path = match explicit {
                Some(relative) => path
                    .parent()
                    .expect("a file sits in a folder")
                    .join(relative),
                None => {
                    let flat = dir.join(format!("{name}.rs"));
                    if flat.is_file() {
                        flat
                    } else {
                        dir.join(&name).join("mod.rs")
                    }
                }
            };
            assert!(
                child_path.is_file(),
                "{}: `mod {name};` has no file (looked for {})",
                path.display(),
                child_path.display()
            );
            self.read_file(&child_path, Some(module), Some(&name));
        }
        module
    }

    fn new_module(&mut self, file: usize, parent: Option<usize>, name: Option<&str>) -> usize {
        let index = self.modules.len();
        self.modules.push(Module {
            file,
            parent,
            ..Module::default()
        });
        if let (Some(parent), Some(name)) = (parent, name) {
            self.modules[parent].children.insert(name.to_owned(), index);
        }
        index
    }

    /// Resolves `segments` as written in `module`.
    fn resolve(&self, module: usize, segments: &[String], depth: usize) -> Option<Target> {
        if depth > 16 {
            return None;
        }
        let (first, rest) = segments.split_first()?;
        match first.as_str() {
            "crate" => self.walk(0, rest, depth),
            "self" => self.walk(module, rest, depth),
            "super" => {
                let mut at = self.modules[module].parent?;
                let mut rest = rest;
                while let Some((next, tail)) = rest.split_first() {
                    if next != "super" {
                        break;
                    }
                    at = self.modules[at].parent?;
                    rest = tail;
                }
                self.walk(at, rest, depth)
            }
            _ => self.walk(module, segments, depth),
        }
    }

    /// Follows `segments` from inside `module`.
    fn walk(&self, module: usize, segments: &[String], depth: usize) -> Option<Target> {
        let Some((first, rest)) = segments.split_first() else {
            return Some(Target::Module(module));
        };
        let here = &self.modules[module];
        if let Some(&child) = here.children.get(first) {
            return self.walk(child, rest, depth);
        }
        if here.items.contains(first) {
            return Some(Target::Item(here.file));
        }
        for (name, path) in &here.uses {
            if name.as_deref() == Some(first.as_str()) {
                let mut full = path.clone();
                full.extend(rest.iter().cloned());
                return self.resolve(module, &full, depth + 1);
            }
        }
        for (name, path) in &here.uses {
            if name.is_none()
                && let Some(Target::Module(glob)) = self.resolve(module, path, depth + 1)
                && glob != module
                && self.defines(glob, first)
            {
                return self.walk(glob, segments, depth + 1);
            }
        }
        None
    }

    /// Whether `module` has `name` of its own (a child, an item, or a named `use`).
    fn defines(&self, module: usize, name: &str) -> bool {
        let m = &self.modules[module];
        m.children.contains_key(name)
            || m.items.contains(name)
            || m.uses.iter().any(|(n, _)| n.as_deref() == Some(name))
    }
}

struct Visitor<'a> {
    krate: &'a mut Crate,
    stack: Vec<usize>,
    /// Module files to read: the module they are declared in, their name, and a `#[path]`.
    declared: &'a mut Vec<(usize, String, Option<String>)>,
    /// Inside a block: the items there are local to it, not the module's.
    in_body: bool,
}

impl Visitor<'_> {
    fn module(&self) -> usize {
        *self.stack.last().expect("inside a module")
    }

    fn define(&mut self, ident: &syn::Ident) {
        if self.in_body {
            return;
        }
        let module = self.module();
        self.krate.modules[module].items.insert(ident.to_string());
    }

    fn mention(&mut self, segments: Vec<String>) {
        let module = self.module();
        self.krate.mentions.push(Mention { module, segments });
    }

    /// Records the leaves of a `use` tree under `prefix`.
    fn use_tree(&mut self, tree: &syn::UseTree, prefix: &mut Vec<String>) {
        let module = self.module();
        match tree {
            syn::UseTree::Path(p) => {
                prefix.push(p.ident.to_string());
                self.use_tree(&p.tree, prefix);
                prefix.pop();
            }
            syn::UseTree::Name(n) => {
                let name = n.ident.to_string();
                let mut path = prefix.clone();
                // `use a::b::{self}` names `b`.
                let bound = if name == "self" {
                    prefix.last().cloned().unwrap_or_default()
                } else {
                    path.push(name.clone());
                    name
                };
                self.mention(path.clone());
                self.krate.modules[module].uses.push((Some(bound), path));
            }
            syn::UseTree::Rename(r) => {
                let mut path = prefix.clone();
                path.push(r.ident.to_string());
                self.mention(path.clone());
                self.krate.modules[module]
                    .uses
                    .push((Some(r.rename.to_string()), path));
            }
            syn::UseTree::Glob(_) => {
                self.krate.modules[module].uses.push((None, prefix.clone()));
            }
            syn::UseTree::Group(g) => {
                for tree in &g.items {
                    self.use_tree(tree, prefix);
                }
            }
        }
    }
}

impl<'ast> Visit<'ast> for Visitor<'_> {
    fn visit_item_mod(&mut self, item: &'ast syn::ItemMod) {
        let name = item.ident.to_string();
        match &item.content {
            None => {
                let explicit = item.attrs.iter().find_map(|a| {
                    let syn::Meta::NameValue(nv) = &a.meta else {
                        return None;
                    };
                    let syn::Expr::Lit(syn::ExprLit {
                        lit: syn::Lit::Str(s),
                        ..
                    }) = &nv.value
                    else {
                        return None;
                    };
                    nv.path.is_ident("path").then(|| s.value())
                });
                self.declared.push((self.module(), name, explicit));
            }
            Some((_, items)) => {
                let file = self.krate.modules[self.module()].file;
                let inner = self
                    .krate
                    .new_module(file, Some(self.module()), Some(&name));
                self.stack.push(inner);
                for item in items {
                    self.visit_item(item);
                }
                self.stack.pop();
            }
        }
    }

    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        let mut prefix = Vec::new();
        self.use_tree(&item.tree, &mut prefix);
    }

    fn visit_item_struct(&mut self, item: &'ast syn::ItemStruct) {
        self.define(&item.ident);
        syn::visit::visit_item_struct(self, item);
    }

    fn visit_item_enum(&mut self, item: &'ast syn::ItemEnum) {
        self.define(&item.ident);
        syn::visit::visit_item_enum(self, item);
    }

    fn visit_item_union(&mut self, item: &'ast syn::ItemUnion) {
        self.define(&item.ident);
        syn::visit::visit_item_union(self, item);
    }

    fn visit_item_trait(&mut self, item: &'ast syn::ItemTrait) {
        self.define(&item.ident);
        syn::visit::visit_item_trait(self, item);
    }

    fn visit_item_type(&mut self, item: &'ast syn::ItemType) {
        self.define(&item.ident);
        syn::visit::visit_item_type(self, item);
    }

    fn visit_item_const(&mut self, item: &'ast syn::ItemConst) {
        self.define(&item.ident);
        syn::visit::visit_item_const(self, item);
    }

    fn visit_item_static(&mut self, item: &'ast syn::ItemStatic) {
        self.define(&item.ident);
        syn::visit::visit_item_static(self, item);
    }

    fn visit_item_fn(&mut self, item: &'ast syn::ItemFn) {
        self.define(&item.sig.ident);
        syn::visit::visit_item_fn(self, item);
    }

    fn visit_block(&mut self, block: &'ast syn::Block) {
        let was = std::mem::replace(&mut self.in_body, true);
        syn::visit::visit_block(self, block);
        self.in_body = was;
    }

    fn visit_item_macro(&mut self, item: &'ast syn::ItemMacro) {
        if let Some(ident) = &item.ident {
            self.define(ident);
        }
    }

    /// The arguments of a macro call written like a function's (`format!`, `vec!`, `assert!`…)
    /// are read as expressions; other macro bodies are left alone.
    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        use syn::parse::Parser as _;
        let parser = syn::punctuated::Punctuated::<syn::Expr, syn::Token![,]>::parse_terminated;
        if let Ok(args) = parser.parse2(mac.tokens.clone()) {
            for arg in &args {
                self.visit_expr(arg);
            }
        }
        syn::visit::visit_macro(self, mac);
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
        if path.leading_colon.is_none() {
            self.mention(segments);
        }
        syn::visit::visit_path(self, path);
    }
}

/// The workspace's members, as directories.
fn members() -> Vec<String> {
    let manifest =
        std::fs::read_to_string(workspace().join("Cargo.toml")).expect("read Cargo.toml");
    let members: Vec<String> = manifest
        .split("members = [")
        .nth(1)
        .and_then(|rest| rest.split(']').next())
        .expect("the workspace lists its members")
        .split(',')
        .map(|m| m.trim().trim_matches('"').to_owned())
        .filter(|m| !m.is_empty())
        .collect();
    assert!(members.len() > 5, "members: {members:?}");
    members
}

/// The crate roots of the workspace's members: each library and each binary.
fn roots() -> Vec<PathBuf> {
    let root = workspace();
    let mut roots = Vec::new();
    for member in members() {
        let src = root.join(&member).join("src");
        for name in ["lib.rs", "main.rs"] {
            if src.join(name).is_file() {
                roots.push(src.join(name));
            }
        }
        if let Ok(entries) = std::fs::read_dir(src.join("bin")) {
            let mut bins: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
            bins.sort();
            for bin in bins {
                if bin.is_file() {
                    roots.push(bin);
                } else if bin.join("main.rs").is_file() {
                    roots.push(bin.join("main.rs"));
                }
            }
        }
    }
    roots
}

/// The cycles among the files of one crate: each one's files (sorted) and its arrows, written
/// out with the path behind each.
fn cycles(krate: &Crate) -> Vec<(Vec<String>, String)> {
    let mut graph = DiGraph::<usize, ()>::new();
    let nodes: Vec<_> = (0..krate.files.len()).map(|f| graph.add_node(f)).collect();
    // The first mention behind each arrow, to say why it is there.
    let mut why: BTreeMap<(usize, usize), String> = BTreeMap::new();
    for mention in &krate.mentions {
        let from = krate.modules[mention.module].file;
        if let Some(Target::Item(to)) = krate.resolve(mention.module, &mention.segments, 0)
            && to != from
        {
            why.entry((from, to)).or_insert_with(|| {
                graph.add_edge(nodes[from], nodes[to], ());
                format!("`{}`", mention.segments.join("::"))
            });
        }
    }
    let root = workspace();
    let name = |f: usize| {
        krate.files[f]
            .strip_prefix(&root)
            .unwrap_or(&krate.files[f])
            .display()
            .to_string()
    };
    let mut found = Vec::new();
    for component in tarjan_scc(&graph) {
        if component.len() < 2 {
            continue;
        }
        let members: BTreeSet<usize> = component.iter().map(|n| graph[*n]).collect();
        let mut text = String::new();
        for (&(from, to), reason) in &why {
            if members.contains(&from) && members.contains(&to) {
                let _ = writeln!(text, "  {} -> {} ({reason})", name(from), name(to));
            }
        }
        let mut names: Vec<String> = members.iter().map(|&f| name(f)).collect();
        names.sort();
        found.push((names, text));
    }
    found.sort();
    found
}

/// No cycle anywhere: each one found is reported with its files and the arrows between them.
#[test]
fn no_two_files_import_each_other() {
    let roots = roots();
    let mut report = String::new();
    let mut files = 0;
    for root in &roots {
        let krate = Crate::read(root);
        files += krate.files.len();
        for (members, edges) in cycles(&krate) {
            let _ = writeln!(report, "{}:\n{edges}", members.join(" "));
        }
    }
    assert!(files > 100, "read only {files} files");
    assert!(
        report.is_empty(),
        "files that import each other, with the arrows of each cycle:\n{report}"
    );
}

/// The layers of the workspace's crates, lowest first, as ARCHITECTURE.md states them: a crate
/// may depend (as a library or to build) only on crates of lower layers. Tests reach higher
/// (`dev-dependencies` are not checked).
const LAYERS: &[&[&str]] = &[
    &["absinthe-spec"],
    &["absinthe-domc"],
    &["absinthe-macros", "absinthe-lsp"],
    &["absinthe"],
    &[
        "absinthe-interproc",
        "absinthe-behavior",
        "absinthe-dom-interp",
        "absinthe-dsl-examples",
    ],
    &["absinthe-heap", "absinthe-typing-env"],
    &["absinthe-ir"],
    &["absinthe-llvm", "absinthe-ppl"],
    &["absinthe-cli"],
    &["absinthe-bench", "absinthe-ui-tests"],
];

fn layer(package: &str) -> Option<usize> {
    LAYERS.iter().position(|layer| layer.contains(&package))
}

/// The package name and the absinthe crates the manifest `text` depends on outside
/// `[dev-dependencies]`: as `name = …`, `name.workspace = true` or a `[dependencies.name]` table,
/// in `[dependencies]`, `[build-dependencies]` or a target's.
fn dependencies(text: &str) -> (String, Vec<String>) {
    let mut name = None;
    let mut section = String::new();
    let mut deps = Vec::new();
    let depends = |section: &str| {
        let table = section.trim_start_matches('[').trim_end_matches(']');
        let kind = table
            .rsplit('.')
            .find(|part| part.ends_with("dependencies"));
        kind.is_some_and(|k| k != "dev-dependencies")
    };
    for line in text.lines().map(str::trim) {
        if line.starts_with('[') {
            section = line.to_owned();
            // `[dependencies.absinthe-heap]`: the table names the crate.
            let table = line.trim_start_matches('[').trim_end_matches(']');
            if let Some((kind, krate)) = table.rsplit_once('.')
                && depends(kind)
                && krate.starts_with("absinthe")
            {
                deps.push(krate.to_owned());
            }
            continue;
        }
        let Some((key, value)) = line.split_once('=') else {
            continue;
        };
        let key = key.trim();
        if section == "[package]" && key == "name" {
            name = Some(value.trim().trim_matches('"').to_owned());
        }
        // `absinthe-heap.workspace = true` names the crate before its first dot.
        let krate = key.split('.').next().unwrap_or(key);
        if depends(&section) && krate.starts_with("absinthe") {
            deps.push(krate.to_owned());
        }
    }
    (name.expect("a member names its package"), deps)
}

/// Every arrow of `manifests` (each a package and the absinthe crates it depends on) that does
/// not point to a lower layer of [`LAYERS`], and every package in none.
fn wrong_arrows(manifests: &[(String, Vec<String>)]) -> Vec<String> {
    let mut wrong = Vec::new();
    for (package, deps) in manifests {
        let Some(own) = layer(package) else {
            wrong.push(format!(
                "{package} is in no layer of LAYERS (and ARCHITECTURE.md)"
            ));
            continue;
        };
        for dep in deps {
            match layer(dep) {
                Some(theirs) if theirs < own => {}
                Some(_) => wrong.push(format!("{package} depends on {dep}, not in a lower layer")),
                None => wrong.push(format!("{package} depends on {dep}, in no layer")),
            }
        }
    }
    wrong
}

#[test]
fn every_dependency_points_to_a_lower_layer() {
    let manifests: Vec<(String, Vec<String>)> = members()
        .iter()
        .map(|member| {
            let path = workspace().join(member).join("Cargo.toml");
            dependencies(&std::fs::read_to_string(&path).expect("read a member's manifest"))
        })
        .collect();
    let wrong = wrong_arrows(&manifests);
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The layer check finds an arrow up however the manifest writes it, and lets tests reach up.
#[test]
fn the_layer_check_finds_the_arrows_up_it_is_meant_to() {
    let runtime = dependencies(
        r#"[package]
name = "absinthe"

[dependencies]
absinthe-spec = { workspace = true }
absinthe-heap.workspace = true

[build-dependencies]
absinthe-cli = { path = "../cli" }

[target.'cfg(unix)'.dependencies]
absinthe-ir = { workspace = true }

[dependencies.absinthe-behavior]
path = "../behavior"

[dev-dependencies]
absinthe-llvm = { workspace = true }
"#,
    );
    assert_eq!(
        runtime.1,
        [
            "absinthe-spec",
            "absinthe-heap",
            "absinthe-cli",
            "absinthe-ir",
            "absinthe-behavior"
        ]
    );
    let wrong = wrong_arrows(&[runtime, ("absinthe-new".to_owned(), Vec::new())]);
    assert_eq!(
        wrong,
        [
            "absinthe depends on absinthe-heap, not in a lower layer",
            "absinthe depends on absinthe-cli, not in a lower layer",
            "absinthe depends on absinthe-ir, not in a lower layer",
            "absinthe depends on absinthe-behavior, not in a lower layer",
            "absinthe-new is in no layer of LAYERS (and ARCHITECTURE.md)",
        ]
    );
}

/// The checker finds a cycle through a facade: a parent re-exporting its child's item and
/// defining one the child uses, and a sibling pair using each other; and it finds none once the
/// parent's item sits in a file of its own.
#[test]
fn the_checker_finds_the_cycles_it_is_meant_to() {
    let dir = crate::common::scratch("imports-checker");
    let write = |name: &str, text: &str| std::fs::write(dir.join(name), text).expect("write");
    write(
        "lib.rs",
        "mod a;\nmod b;\npub use a::A;\npub struct Root;\n",
    );
    write("a.rs", "pub struct A(pub crate::Root);\n");
    write("b.rs", "pub fn b() -> c::C {\n    c::C\n}\nmod c;\n");
    std::fs::create_dir_all(dir.join("b")).expect("mkdir");
    write("b/c.rs", "pub struct C;\npub fn c() { super::b(); }\n");
    let found: Vec<Vec<String>> = cycles(&Crate::read(&dir.join("lib.rs")))
        .into_iter()
        .map(|(files, _)| files)
        .collect();
    let ends = |files: &[String], with: [&str; 2]| {
        files.len() == 2 && files.iter().zip(with).all(|(f, w)| f.ends_with(w))
    };
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(
        found.iter().any(|f| ends(f, ["a.rs", "lib.rs"])),
        "{found:?}"
    );
    assert!(found.iter().any(|f| ends(f, ["b.rs", "c.rs"])), "{found:?}");
    // `Root` in a file of its own breaks the first.
    write(
        "lib.rs",
        "mod a;\nmod b;\nmod root;\npub use a::A;\npub use root::Root;\n",
    );
    write("root.rs", "pub struct Root;\n");
    assert_eq!(cycles(&Crate::read(&dir.join("lib.rs"))).len(), 1);
}

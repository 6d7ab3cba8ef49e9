//! Import cycles between the files of a crate, found in the Rust syntax tree.
//!
//! Each file is a node. A file depends on another when it names an item defined there: through a
//! `use`, or a path such as `crate::x::y` or `child::f()` anywhere in its code, macro arguments
//! included. A name re-exported with `pub use` is followed to the file that defines it, so a
//! facade module in between adds no edge of its own; a parent's `pub use child::X` is not a use
//! of the child either (it only passes the name on), but a parent calling into its child is.
//! A cycle is a strongly connected component of two files or more, and every one is reported,
//! with one line of code for each edge in it. A parent using its own children is not an edge
//! (declaring them and gathering their items is what a parent module is for), but in a binary
//! a module using an item that the root file (`main.rs`) itself defines is reported on its own:
//! `main` calls into every module, so such an import loops back through it.
//!
//! Code under `#[cfg(test)]` is left out: a unit test module importing `super::*` is how tests
//! are written, not a dependency of the design.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt;
use std::path::{Path, PathBuf};

use syn::visit::Visit;

/// Why a crate could not be checked.
#[derive(Debug)]
pub enum Error {
    /// A source file could not be read.
    Read {
        file: PathBuf,
        source: std::io::Error,
    },
    /// A source file is not Rust that `syn` reads.
    Parse {
        file: PathBuf,
        line: usize,
        column: usize,
        message: String,
    },
    /// A `mod name;` whose file is neither `name.rs` nor `name/mod.rs` (nor its `#[path]`).
    MissingModule {
        file: PathBuf,
        line: usize,
        name: String,
    },
    /// The folder has no `src/lib.rs`, `src/main.rs` or `src/bin/*.rs`.
    NoCrateRoot(PathBuf),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Read { file, source } => write!(f, "{}: {source}", file.display()),
            Error::Parse {
                file,
                line,
                column,
                message,
            } => write!(f, "{}:{line}:{column}: {message}", file.display()),
            Error::MissingModule { file, line, name } => write!(
                f,
                "{}:{line}: no file for `mod {name};` (looked for {name}.rs and {name}/mod.rs)",
                file.display()
            ),
            Error::NoCrateRoot(dir) => write!(
                f,
                "{}: no src/lib.rs, src/main.rs or src/bin/*.rs",
                dir.display()
            ),
        }
    }
}

impl std::error::Error for Error {}

/// One edge of a cycle: `from` names an item of `to` at `line`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edge {
    pub from: PathBuf,
    pub to: PathBuf,
    pub line: usize,
    /// The path as written, e.g. `crate::show::draw`.
    pub path: String,
}

/// Files of one crate target that import each other, with the edges that close the cycle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cycle {
    /// The files, sorted.
    pub files: Vec<PathBuf>,
    /// For each file of the cycle, its first reference to each other file of the cycle.
    pub edges: Vec<Edge>,
}

impl fmt::Display for Cycle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<String> = self.files.iter().map(|p| p.display().to_string()).collect();
        writeln!(f, "cycle between {}", names.join(", "))?;
        for e in &self.edges {
            writeln!(
                f,
                "    {}:{} -> {} (`{}`)",
                e.from.display(),
                e.line,
                e.to.display(),
                e.path
            )?;
        }
        Ok(())
    }
}

/// The import cycles, and the imports of the crate root's own items, of every target
/// (library, binary, `src/bin/*`) of the crate in `crate_dir`. Each target is its own module tree: a binary reaching its library through the
/// crate's name is an outside dependency, not an edge.
pub fn crate_cycles(crate_dir: &Path) -> Result<Report, Error> {
    let src = crate_dir.join("src");
    let mut roots: Vec<PathBuf> = ["lib.rs", "main.rs"]
        .iter()
        .map(|r| src.join(r))
        .filter(|p| p.is_file())
        .collect();
    if let Ok(entries) = std::fs::read_dir(src.join("bin")) {
        let mut bins: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter_map(|p| {
                if p.extension().is_some_and(|e| e == "rs") {
                    Some(p)
                } else {
                    Some(p.join("main.rs")).filter(|m| m.is_file())
                }
            })
            .collect();
        bins.sort();
        roots.extend(bins);
    }
    if roots.is_empty() {
        return Err(Error::NoCrateRoot(crate_dir.to_path_buf()));
    }
    let mut report = Report::default();
    for root in roots {
        let tree = Tree::load(&root)?;
        report.cycles.extend(tree.cycles());
        // A library's root may define the crate's API that its modules implement; a
        // binary's root is `main`, which calls into every module and is used by none.
        if root.file_name().is_none_or(|n| n != "lib.rs") {
            report.root_imports.extend(tree.root_imports());
        }
    }
    Ok(report)
}

/// What [`crate_cycles`] finds in a crate.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Report {
    pub cycles: Vec<Cycle>,
    /// Modules that import an item the crate root's own file defines, one reference each.
    pub root_imports: Vec<Edge>,
}

impl Report {
    pub fn is_clean(&self) -> bool {
        self.cycles.is_empty() && self.root_imports.is_empty()
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for cycle in &self.cycles {
            write!(f, "{cycle}")?;
        }
        for e in &self.root_imports {
            writeln!(
                f,
                "{}:{} imports from the crate root {} (`{}`): move the item into a module of its own",
                e.from.display(),
                e.line,
                e.to.display(),
                e.path
            )?;
        }
        Ok(())
    }
}

/// A reference to a path, written in a module.
struct Reference {
    segments: Vec<String>,
    line: usize,
}

/// A module: a file, or a `mod name { … }` inside one.
struct Module {
    parent: Option<usize>,
    file: usize,
    children: HashMap<String, usize>,
    /// Names of the items defined here (functions, types, constants, macros, …).
    items: BTreeSet<String>,
    /// Names brought in by `use`, to the path they were written with (in this module).
    imports: HashMap<String, Vec<String>>,
    /// The subset of `imports` passed on with `pub use`.
    reexports: HashMap<String, Vec<String>>,
    /// `pub use path::*`: the paths, as written here.
    reexported_globs: Vec<Vec<String>>,
    references: Vec<Reference>,
}

/// The module tree of one crate target.
struct Tree {
    files: Vec<PathBuf>,
    modules: Vec<Module>,
}

impl Tree {
    fn load(root: &Path) -> Result<Tree, Error> {
        let mut tree = Tree {
            files: Vec::new(),
            modules: Vec::new(),
        };
        tree.load_file(root, None, None)?;
        Ok(tree)
    }

    /// Reads `file` as the module `name` of `parent` (the crate root when `parent` is None).
    fn load_file(
        &mut self,
        file: &Path,
        parent: Option<usize>,
        name: Option<&str>,
    ) -> Result<usize, Error> {
        let text = std::fs::read_to_string(file).map_err(|source| Error::Read {
            file: file.to_path_buf(),
            source,
        })?;
        let syntax = syn::parse_file(&text).map_err(|e| {
            let at = e.span().start();
            Error::Parse {
                file: file.to_path_buf(),
                line: at.line,
                column: at.column + 1,
                message: e.to_string(),
            }
        })?;
        let file_index = self.files.len();
        self.files.push(file.to_path_buf());
        let module = self.new_module(parent, file_index, name);
        // Children of a `mod.rs`, `lib.rs`, `main.rs` or binary root live beside it; those of
        // `foo.rs` in `foo/`.
        let owns_dir = parent.is_none() || file.file_name().is_some_and(|n| n == "mod.rs");
        let dir = file.parent().unwrap_or(Path::new("")).to_path_buf();
        let child_dir = if owns_dir {
            dir.clone()
        } else {
            file.with_extension("")
        };
        self.load_items(&syntax.items, module, file, &dir, &child_dir)?;
        Ok(module)
    }

    fn new_module(&mut self, parent: Option<usize>, file: usize, name: Option<&str>) -> usize {
        let index = self.modules.len();
        self.modules.push(Module {
            parent,
            file,
            children: HashMap::new(),
            items: BTreeSet::new(),
            imports: HashMap::new(),
            reexports: HashMap::new(),
            reexported_globs: Vec::new(),
            references: Vec::new(),
        });
        if let (Some(p), Some(n)) = (parent, name) {
            self.modules[p].children.insert(n.to_string(), index);
            self.modules[p].items.insert(n.to_string());
        }
        index
    }

    /// The items of a module: child modules are loaded, names and references collected.
    /// `path_dir` is where a `#[path]` of a child is relative to, `child_dir` where its file
    /// is found by name.
    fn load_items(
        &mut self,
        items: &[syn::Item],
        module: usize,
        file: &Path,
        path_dir: &Path,
        child_dir: &Path,
    ) -> Result<(), Error> {
        for item in items {
            if is_test_only(item_attrs(item)) {
                continue;
            }
            match item {
                syn::Item::Mod(m) => {
                    let name = m.ident.to_string();
                    if let Some((_, inner)) = &m.content {
                        let child =
                            self.new_module(Some(module), self.modules[module].file, Some(&name));
                        let dir = child_dir.join(&name);
                        self.load_items(inner, child, file, &dir, &dir)?;
                    } else {
                        let explicit = path_attr(&m.attrs).map(|p| path_dir.join(p));
                        let candidates = match explicit {
                            Some(p) => vec![p],
                            None => vec![
                                child_dir.join(format!("{name}.rs")),
                                child_dir.join(&name).join("mod.rs"),
                            ],
                        };
                        let Some(found) = candidates.into_iter().find(|p| p.is_file()) else {
                            return Err(Error::MissingModule {
                                file: file.to_path_buf(),
                                line: m.ident.span().start().line,
                                name,
                            });
                        };
                        self.load_file(&found, Some(module), Some(&name))?;
                    }
                }
                syn::Item::Use(u) => {
                    let reexport = !matches!(u.vis, syn::Visibility::Inherited);
                    let line = u.use_token.span.start().line;
                    let mut uses = Vec::new();
                    expand_use(&u.tree, &mut Vec::new(), &mut uses);
                    let m = &mut self.modules[module];
                    for (segments, name) in uses {
                        match &name {
                            UseName::Glob if reexport => m.reexported_globs.push(segments.clone()),
                            UseName::Glob => {}
                            UseName::Named(n) => {
                                m.imports.insert(n.clone(), segments.clone());
                                if reexport {
                                    m.reexports.insert(n.clone(), segments.clone());
                                }
                            }
                        }
                        m.references.push(Reference { segments, line });
                    }
                }
                other => {
                    if let Some(name) = item_name(other) {
                        self.modules[module].items.insert(name);
                    }
                    let mut collect = Collect {
                        references: &mut self.modules[module].references,
                    };
                    collect.visit_item(other);
                }
            }
        }
        Ok(())
    }

    fn ancestors(&self, mut module: usize) -> impl Iterator<Item = usize> + '_ {
        std::iter::from_fn(move || {
            let p = self.modules[module].parent?;
            module = p;
            Some(p)
        })
    }

    /// The module a path written in `module` leads to, with re-exports followed to the module
    /// defining the item; None for a path out of the crate (another crate, a local name).
    fn resolve(&self, module: usize, segments: &[String], depth: u32) -> Option<usize> {
        if depth > 16 || segments.is_empty() {
            return None;
        }
        let (mut at, rest) = match segments[0].as_str() {
            "crate" => (0, &segments[1..]),
            "self" => (module, &segments[1..]),
            "super" => {
                let mut at = module;
                let mut i = 0;
                while segments.get(i).is_some_and(|s| s == "super") {
                    at = self.modules[at].parent?;
                    i += 1;
                }
                (at, &segments[i..])
            }
            first => {
                if let Some(&child) = self.modules[module].children.get(first) {
                    (child, &segments[1..])
                } else if let Some(imported) = self.modules[module].imports.get(first) {
                    // `use crate::games;` then `games::driver::X`: the import is the start.
                    if imported.last().is_some_and(|last| last == first) && imported.len() == 1 {
                        return None;
                    }
                    let mut whole = imported.clone();
                    whole.extend_from_slice(&segments[1..]);
                    return self.resolve(module, &whole, depth + 1);
                } else {
                    return None;
                }
            }
        };
        let mut item = None;
        for segment in rest {
            match self.modules[at].children.get(segment) {
                Some(&child) => at = child,
                None => {
                    item = Some(segment.as_str());
                    break;
                }
            }
        }
        match item {
            Some(name) => match self.definer(at, name, depth + 1) {
                Defined::Here(module) => Some(module),
                Defined::Outside => None,
                // Not seen (made by a macro, say): taken as the module's own.
                Defined::Unseen => Some(at),
            },
            None => Some(at),
        }
    }

    /// The module that defines `name` as seen from `module`: itself, or where its re-export
    /// leads.
    fn definer(&self, module: usize, name: &str, depth: u32) -> Defined {
        if depth > 16 {
            return Defined::Unseen;
        }
        let m = &self.modules[module];
        if m.items.contains(name) {
            return Defined::Here(module);
        }
        if let Some(path) = m.reexports.get(name) {
            // A re-export of another crate's item leads out of this crate.
            return self
                .resolve(module, path, depth + 1)
                .map_or(Defined::Outside, Defined::Here);
        }
        m.reexported_globs
            .iter()
            .filter_map(|glob| self.resolve(module, glob, depth + 1))
            .map(|source| self.definer(source, name, depth + 1))
            .find(|d| !matches!(d, Defined::Unseen))
            .unwrap_or(Defined::Unseen)
    }

    /// Edges between files: for each (from, to) the first reference that makes it.
    fn edges(&self) -> BTreeMap<(usize, usize), (usize, String)> {
        let mut edges = BTreeMap::new();
        for (index, module) in self.modules.iter().enumerate() {
            for reference in &module.references {
                let Some(target) = self.resolve(index, &reference.segments, 0) else {
                    continue;
                };
                let (from, to) = (module.file, self.modules[target].file);
                if from == to {
                    continue;
                }
                // A parent assembles its children (declares them, passes their names on, lists
                // their items in a table): that is what a parent is for, not a cycle with a
                // child that uses a type the parent defines.
                if self.ancestors(target).any(|a| a == index) {
                    continue;
                }
                edges
                    .entry((from, to))
                    .or_insert_with(|| (reference.line, reference.segments.join("::")));
            }
        }
        edges
    }

    /// References from the crate's modules to items the crate root's own file defines (not
    /// re-exports).
    fn root_imports(&self) -> Vec<Edge> {
        let mut out: BTreeMap<usize, Edge> = BTreeMap::new();
        for (index, module) in self.modules.iter().enumerate() {
            if module.file == 0 {
                continue;
            }
            for reference in &module.references {
                if self.resolve(index, &reference.segments, 0) == Some(0) {
                    out.entry(module.file).or_insert_with(|| Edge {
                        from: self.files[module.file].clone(),
                        to: self.files[0].clone(),
                        line: reference.line,
                        path: reference.segments.join("::"),
                    });
                }
            }
        }
        out.into_values().collect()
    }

    fn cycles(&self) -> Vec<Cycle> {
        let edges = self.edges();
        let mut graph = vec![Vec::new(); self.files.len()];
        for &(from, to) in edges.keys() {
            graph[from].push(to);
        }
        strongly_connected(&graph)
            .into_iter()
            .filter(|component| component.len() > 1)
            .map(|mut component| {
                component.sort_by(|a, b| self.files[*a].cmp(&self.files[*b]));
                let inside: BTreeSet<usize> = component.iter().copied().collect();
                let cycle_edges = edges
                    .iter()
                    .filter(|((f, t), _)| inside.contains(f) && inside.contains(t))
                    .map(|(&(f, t), (line, path))| Edge {
                        from: self.files[f].clone(),
                        to: self.files[t].clone(),
                        line: *line,
                        path: path.clone(),
                    })
                    .collect();
                Cycle {
                    files: component.iter().map(|&f| self.files[f].clone()).collect(),
                    edges: cycle_edges,
                }
            })
            .collect()
    }
}

/// Tarjan's algorithm, without recursion (a crate's files are few, but a deep chain should
/// not decide the stack).
fn strongly_connected(graph: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let n = graph.len();
    let mut index = vec![usize::MAX; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut out = Vec::new();
    let mut next = 0;
    for start in 0..n {
        if index[start] != usize::MAX {
            continue;
        }
        // (node, next edge to look at)
        let mut work = vec![(start, 0)];
        while let Some(&mut (v, ref mut edge)) = work.last_mut() {
            if *edge == 0 && index[v] == usize::MAX {
                index[v] = next;
                low[v] = next;
                next += 1;
                stack.push(v);
                on_stack[v] = true;
            }
            if let Some(&w) = graph[v].get(*edge) {
                *edge += 1;
                if index[w] == usize::MAX {
                    work.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == index[v] {
                let mut component = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    component.push(w);
                    if w == v {
                        break;
                    }
                }
                out.push(component);
            }
        }
    }
    out
}

/// Where a name a module offers comes from.
enum Defined {
    /// This crate's module.
    Here(usize),
    /// Another crate, through a re-export.
    Outside,
    /// Nowhere this check can see (an item a macro makes, say).
    Unseen,
}

enum UseName {
    Named(String),
    Glob,
}

/// Every path of a `use` tree, with the name it brings into scope.
fn expand_use(
    tree: &syn::UseTree,
    prefix: &mut Vec<String>,
    out: &mut Vec<(Vec<String>, UseName)>,
) {
    match tree {
        syn::UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            expand_use(&p.tree, prefix, out);
            prefix.pop();
        }
        syn::UseTree::Name(n) => {
            let name = n.ident.to_string();
            if name == "self" {
                let last = prefix.last().cloned().unwrap_or_default();
                out.push((prefix.clone(), UseName::Named(last)));
            } else {
                let mut whole = prefix.clone();
                whole.push(name.clone());
                out.push((whole, UseName::Named(name)));
            }
        }
        syn::UseTree::Rename(r) => {
            let mut whole = prefix.clone();
            if r.ident != "self" {
                whole.push(r.ident.to_string());
            }
            out.push((whole, UseName::Named(r.rename.to_string())));
        }
        syn::UseTree::Glob(_) => out.push((prefix.clone(), UseName::Glob)),
        syn::UseTree::Group(g) => {
            for t in &g.items {
                expand_use(t, prefix, out);
            }
        }
    }
}

/// Collects the paths of two or more segments an item's code names, and the `crate::`,
/// `self::` and `super::` paths inside macro arguments (which `syn` leaves as tokens).
struct Collect<'a> {
    references: &'a mut Vec<Reference>,
}

impl<'ast> Visit<'ast> for Collect<'_> {
    fn visit_item(&mut self, item: &'ast syn::Item) {
        if !is_test_only(item_attrs(item)) {
            syn::visit::visit_item(self, item);
        }
    }

    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        if !is_test_only(&f.attrs) {
            syn::visit::visit_impl_item_fn(self, f);
        }
    }

    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        // A `use` inside a function body.
        let mut uses = Vec::new();
        expand_use(&u.tree, &mut Vec::new(), &mut uses);
        for (segments, _) in uses {
            self.references.push(Reference {
                segments,
                line: u.use_token.span.start().line,
            });
        }
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        if path.segments.len() >= 2 && path.leading_colon.is_none() {
            self.references.push(Reference {
                segments: path.segments.iter().map(|s| s.ident.to_string()).collect(),
                line: path.segments[0].ident.span().start().line,
            });
        }
        syn::visit::visit_path(self, path);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        syn::visit::visit_macro(self, mac);
        macro_paths(mac.tokens.clone(), self.references);
    }
}

/// `crate::a::b`, `self::a` and `super::a` sequences in a macro's tokens.
fn macro_paths(tokens: proc_macro2::TokenStream, out: &mut Vec<Reference>) {
    use proc_macro2::TokenTree;
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    let mut i = 0;
    while i < tokens.len() {
        match &tokens[i] {
            TokenTree::Group(g) => macro_paths(g.stream(), out),
            TokenTree::Ident(id)
                if matches!(id.to_string().as_str(), "crate" | "self" | "super") =>
            {
                // `$crate` is a macro's own crate: the `$` comes just before.
                let after_dollar =
                    i > 0 && matches!(&tokens[i - 1], TokenTree::Punct(p) if p.as_char() == '$');
                let mut segments = vec![id.to_string()];
                let mut j = i + 1;
                while j + 2 < tokens.len() {
                    let colons = matches!(&tokens[j], TokenTree::Punct(p) if p.as_char() == ':')
                        && matches!(tokens.get(j + 1), Some(TokenTree::Punct(p)) if p.as_char() == ':');
                    match (colons, tokens.get(j + 2)) {
                        (true, Some(TokenTree::Ident(next))) => {
                            segments.push(next.to_string());
                            j += 3;
                        }
                        _ => break,
                    }
                }
                if segments.len() >= 2 && !after_dollar {
                    out.push(Reference {
                        segments,
                        line: id.span().start().line,
                    });
                }
                i = j;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
}

fn item_attrs(item: &syn::Item) -> &[syn::Attribute] {
    match item {
        syn::Item::Const(i) => &i.attrs,
        syn::Item::Enum(i) => &i.attrs,
        syn::Item::ExternCrate(i) => &i.attrs,
        syn::Item::Fn(i) => &i.attrs,
        syn::Item::ForeignMod(i) => &i.attrs,
        syn::Item::Impl(i) => &i.attrs,
        syn::Item::Macro(i) => &i.attrs,
        syn::Item::Mod(i) => &i.attrs,
        syn::Item::Static(i) => &i.attrs,
        syn::Item::Struct(i) => &i.attrs,
        syn::Item::Trait(i) => &i.attrs,
        syn::Item::TraitAlias(i) => &i.attrs,
        syn::Item::Type(i) => &i.attrs,
        syn::Item::Union(i) => &i.attrs,
        syn::Item::Use(i) => &i.attrs,
        _ => &[],
    }
}

/// The name an item defines in its module, if any.
fn item_name(item: &syn::Item) -> Option<String> {
    let ident = match item {
        syn::Item::Const(i) => &i.ident,
        syn::Item::Enum(i) => &i.ident,
        syn::Item::Fn(i) => &i.sig.ident,
        syn::Item::Macro(i) => i.ident.as_ref()?,
        syn::Item::Static(i) => &i.ident,
        syn::Item::Struct(i) => &i.ident,
        syn::Item::Trait(i) => &i.ident,
        syn::Item::TraitAlias(i) => &i.ident,
        syn::Item::Type(i) => &i.ident,
        syn::Item::Union(i) => &i.ident,
        _ => return None,
    };
    Some(ident.to_string())
}

/// `#[cfg(test)]`, or a `cfg` that needs `test` (`#[cfg(all(test, unix))]`).
fn is_test_only(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg")
            && match &a.meta {
                syn::Meta::List(list) => {
                    let text = list.tokens.to_string();
                    let words: Vec<&str> = text
                        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                        .collect();
                    words.contains(&"test") && !words.contains(&"not") && !words.contains(&"any")
                }
                _ => false,
            }
    })
}

/// `#[path = "…"]` on a `mod`.
fn path_attr(attrs: &[syn::Attribute]) -> Option<String> {
    attrs.iter().find_map(|a| match &a.meta {
        syn::Meta::NameValue(nv) if nv.path.is_ident("path") => match &nv.value {
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s),
                ..
            }) => Some(s.value()),
            _ => None,
        },
        _ => None,
    })
}

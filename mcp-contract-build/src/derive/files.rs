//! Follows a crate's module tree from its root file (`lib.rs`/`main.rs`),
//! the way rustc does for `mod x;` (`x.rs`, `x/mod.rs`, `#[path]`), so the
//! schema generator sees every file of the crate and knows each file's
//! module path.

use std::path::{Path, PathBuf};

use super::error::DeriveError;
use crate::source::Source;

/// One parsed source file: its path relative to the package root, its syntax
/// tree (with its text, for positions) and its module path (`[]` for the
/// crate root, `["tools", "search"]`...).
pub type ModuleFile = (PathBuf, Source, Vec<String>);

/// Reads and parses every file of the crate rooted at `lib_or_main`.
///
/// `package_root` is the directory display paths are made relative to (the
/// package root, `CARGO_MANIFEST_DIR`); `lib_or_main` is the crate root file,
/// absolute or relative to `package_root`. Modules behind `#[cfg(test)]` are
/// skipped; a declared module whose file is missing is an error.
pub fn module_files(
    package_root: &Path,
    lib_or_main: &Path,
) -> Result<Vec<ModuleFile>, DeriveError> {
    walk(package_root, lib_or_main, false)
}

/// Like [`module_files`], for a crate the package depends on (`root` is its
/// `lib.rs`): a declared module whose file is absent is left out rather than
/// an error (a dependency's platform- or feature-gated modules need not
/// exist; a type in one is then reported as not found).
pub(crate) fn module_files_of_dependency(
    package_root: &Path,
    root: &Path,
) -> Result<Vec<ModuleFile>, DeriveError> {
    walk(package_root, root, true)
}

/// Bound on the files of one crate (a dependency with more is refused).
const MAX_FILES: usize = 20_000;

fn walk(
    package_root: &Path,
    lib_or_main: &Path,
    lenient: bool,
) -> Result<Vec<ModuleFile>, DeriveError> {
    let root = package_root.join(lib_or_main);
    let mut out = Vec::new();
    let mut pending = vec![(root, Vec::<String>::new(), true)];
    while let Some((path, module, is_mod_rs)) = pending.pop() {
        let display = display_path(package_root, &path);
        if out.len() >= MAX_FILES {
            return Err(DeriveError {
                type_name: module_name(&module),
                file: display,
                line: 0,
                message: format!("the crate has more than {MAX_FILES} module files"),
                help: "give the type's JSON Schema verbatim (see the escape hatches)".into(),
                escape: None,
            });
        }
        if lenient && !path.is_file() {
            continue;
        }
        let text = std::fs::read_to_string(&path).map_err(|e| DeriveError {
            type_name: module_name(&module),
            file: display.clone(),
            line: 0,
            message: format!("cannot read the module file: {e}"),
            help: "check the `mod` declaration and the file name".into(),
            escape: None,
        })?;
        let file = Source::parse(text).map_err(|e| DeriveError {
            type_name: module_name(&module),
            file: display.clone(),
            line: e.pos.line,
            message: format!(
                "cannot parse the file: {e} (at column {})",
                e.pos.column + 1
            ),
            help: "fix the syntax error (`cargo check` shows it too)".into(),
            escape: None,
        })?;
        let dir = children_dir(&path, is_mod_rs);
        let mut found = Vec::new();
        collect_mod_decls(
            &file.items,
            &dir,
            &path,
            &[],
            &module,
            (&display, &file),
            lenient,
            &mut found,
        )?;
        out.push((display, file, module));
        // Keep the walk in declaration order (pending is a stack).
        pending.extend(found.into_iter().rev());
    }
    Ok(out)
}

/// The module files that `file` (read from `path`, absolute; module path
/// `module`) declares, as the walk of [`module_files`] finds them: (path,
/// module path, whether it is a `mod.rs`-like file). For the build step's
/// cache, which re-walks a crate without parsing unchanged files.
pub(crate) fn declared_children(
    package_root: &Path,
    path: &Path,
    module: &[String],
    file: &Source,
) -> Result<Vec<(PathBuf, Vec<String>, bool)>, DeriveError> {
    let is_mod_rs = module.is_empty() || path.file_name().is_some_and(|n| n == "mod.rs");
    let display = display_path(package_root, path);
    let dir = children_dir(path, is_mod_rs);
    let mut found = Vec::new();
    collect_mod_decls(
        &file.items,
        &dir,
        path,
        &[],
        module,
        (&display, file),
        false,
        &mut found,
    )?;
    Ok(found)
}

fn module_name(module: &[String]) -> String {
    if module.is_empty() {
        "crate".into()
    } else {
        format!("crate::{}", module.join("::"))
    }
}

fn display_path(package_root: &Path, path: &Path) -> PathBuf {
    path.strip_prefix(package_root)
        .map(Path::to_path_buf)
        .unwrap_or_else(|_| path.to_path_buf())
}

/// The directory holding the files of `path`'s child modules.
fn children_dir(path: &Path, is_mod_rs: bool) -> PathBuf {
    let parent = path.parent().unwrap_or(Path::new("")).to_path_buf();
    if is_mod_rs {
        parent
    } else {
        match path.file_stem() {
            Some(stem) => parent.join(stem),
            None => parent,
        }
    }
}

/// `#[cfg(test)]` on a module: the build step skips what tests alone compile.
pub(crate) fn is_cfg_test(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg")
            && a.parse_args::<syn::Ident>()
                .map(|i| i == "test")
                .unwrap_or(false)
    })
}

fn path_attr(attrs: &[syn::Attribute]) -> Option<String> {
    attrs.iter().find_map(|a| {
        if !a.path().is_ident("path") {
            return None;
        }
        match &a.meta {
            syn::Meta::NameValue(nv) => match &nv.value {
                syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(s),
                    ..
                }) => Some(s.value()),
                _ => None,
            },
            _ => None,
        }
    })
}

#[allow(clippy::too_many_arguments)]
fn collect_mod_decls(
    items: &[syn::Item],
    dir: &Path,
    file_path: &Path,
    inline: &[String],
    module: &[String],
    (display, source): (&Path, &Source),
    lenient: bool,
    found: &mut Vec<(PathBuf, Vec<String>, bool)>,
) -> Result<(), DeriveError> {
    for item in items {
        let syn::Item::Mod(m) = item else { continue };
        if is_cfg_test(&m.attrs) {
            continue;
        }
        let name = m.ident.to_string();
        let name = name.trim_start_matches("r#").to_string();
        let mut child_module = module.to_vec();
        child_module.push(name.clone());
        if let Some((_, body)) = &m.content {
            let mut inner = inline.to_vec();
            inner.push(name);
            let child_dir = dir.join(inner.last().map(String::as_str).unwrap_or(""));
            collect_mod_decls(
                body,
                &child_dir,
                file_path,
                &inner,
                &child_module,
                (display, source),
                lenient,
                found,
            )?;
            continue;
        }
        let (path, is_mod_rs) = if let Some(p) = path_attr(&m.attrs) {
            let base = if inline.is_empty() {
                file_path.parent().unwrap_or(Path::new("")).to_path_buf()
            } else {
                dir.to_path_buf()
            };
            let path = base.join(&p);
            let is_mod_rs = path.file_name().is_some_and(|n| n == "mod.rs");
            (path, is_mod_rs)
        } else {
            let flat = dir.join(format!("{name}.rs"));
            let nested = dir.join(&name).join("mod.rs");
            if flat.is_file() {
                (flat, false)
            } else if nested.is_file() {
                (nested, true)
            } else if lenient {
                continue;
            } else {
                return Err(DeriveError {
                    type_name: module_name(&child_module),
                    file: display.to_path_buf(),
                    line: source.line_of(&m.ident),
                    message: format!(
                        "module file not found (looked for `{}` and `{}`)",
                        flat.display(),
                        nested.display()
                    ),
                    help: "create the file or fix the `mod` declaration".into(),
                    escape: None,
                });
            }
        };
        found.push((path, child_module, is_mod_rs));
    }
    Ok(())
}

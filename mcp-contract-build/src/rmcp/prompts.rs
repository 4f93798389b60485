//! rmcp's `#[prompt]` fns (in `#[prompt_router]` impls or anywhere) into the
//! lockfile's prompts, as rmcp-macros 3.11 `prompt.rs` builds them: name
//! (default: the fn name), `title`, description (`description = ...`, else
//! the doc comment folded as for tools), and the arguments rmcp's
//! `cached_arguments_from_schema::<Parameters<T>>()` reads from `T`'s schema
//! (each top-level property: its name, its `description`, required when in
//! `required`); none without `Parameters<T>`. `arguments = <expr>`,
//! `icons` and `meta` that are not literal JSON are a build error whose help
//! names `Builder::prompt_field`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use mcp_contract::model::{Prompt, PromptArgument};
use mcp_contract::Surface;
use serde_json::Value;
use syn::punctuated::Punctuated;
use syn::{Attribute, Expr, FnArg, ImplItem, Item, Meta, Signature, Token, Type};

use super::attr::{last_segment_is, rmcp_doc_pieces, DocPiece};
use super::eval::{eval_json, eval_str};
use crate::attr_pos::nowhere;
use crate::derive::{is_cfg_test, schema_for, ModuleFile, Publisher, TypeIndex};
use crate::error::Error;
use crate::source::Source;

/// The keys `#[prompt(...)]` accepts.
pub const PROMPT_KEYS: &str = "name, title, description, arguments, icons, meta, local";

/// Published prompt fields given in `build.rs` (`Builder::prompt_field`),
/// per prompt name then key (`description`, `title`, `arguments`, `icons`, `_meta`).
pub type PromptFields = BTreeMap<String, BTreeMap<String, Value>>;

/// The keys `Builder::prompt_field` may set.
pub const PROMPT_FIELD_KEYS: &[&str] = &["title", "description", "arguments", "icons", "_meta"];

/// One rmcp `#[prompt]` fn.
#[derive(Debug, Clone)]
pub struct FoundRmcpPrompt {
    pub name: String,
    pub fn_name: String,
    pub title: Option<String>,
    pub description: Option<Expr>,
    pub doc: Option<Vec<DocPiece>>,
    pub arguments: Option<Expr>,
    pub icons: Option<Expr>,
    pub meta: Option<Expr>,
    /// `T` of `Parameters<T>`.
    pub parameters: Option<Type>,
    /// Whether the fn is in a `#[prompt_router]` impl.
    pub routed: bool,
    pub module: Vec<String>,
    pub file: PathBuf,
    pub line: usize,
}

impl FoundRmcpPrompt {
    /// The files its description is read from (`include_str!`), under
    /// `package_root`.
    pub fn included_files(&self, package_root: &Path) -> Vec<PathBuf> {
        super::attr::description_files(
            self.description.as_ref(),
            self.doc.as_deref(),
            &super::surface::source_dir(package_root, &self.file),
        )
    }
}

/// Every `#[prompt]` fn, in file order then source order (`#[cfg(test)]` modules skipped).
pub fn find_rmcp_prompts(files: &[ModuleFile]) -> Result<Vec<FoundRmcpPrompt>, Error> {
    let mut out = Vec::new();
    for (path, file, module) in files {
        walk(&file.items, (path, file), module, &mut out)?;
    }
    Ok(out)
}

fn walk(
    items: &[Item],
    at: (&Path, &Source),
    module: &[String],
    out: &mut Vec<FoundRmcpPrompt>,
) -> Result<(), Error> {
    for item in items {
        match item {
            Item::Impl(imp) => {
                let routed = imp
                    .attrs
                    .iter()
                    .any(|a| last_segment_is(a, "prompt_router"));
                for it in &imp.items {
                    if let ImplItem::Fn(f) = it {
                        found(&f.attrs, &f.sig, routed, at, module, out)?;
                    }
                }
            }
            Item::Fn(f) => found(&f.attrs, &f.sig, false, at, module, out)?,
            Item::Mod(m) if !is_cfg_test(&m.attrs) => {
                if let Some((_, body)) = &m.content {
                    let mut inner = module.to_vec();
                    inner.push(m.ident.to_string().trim_start_matches("r#").to_string());
                    walk(body, at, &inner, out)?;
                }
            }
            _ => {}
        }
    }
    Ok(())
}

fn found(
    attrs: &[Attribute],
    sig: &Signature,
    routed: bool,
    (path, source): (&Path, &Source),
    module: &[String],
    out: &mut Vec<FoundRmcpPrompt>,
) -> Result<(), Error> {
    let Some(attr) = attrs.iter().find(|a| last_segment_is(a, "prompt")) else {
        return Ok(());
    };
    let fn_name = sig.ident.to_string();
    let mut p = FoundRmcpPrompt {
        name: fn_name.clone(),
        fn_name,
        title: None,
        description: None,
        doc: rmcp_doc_pieces(attrs.iter().filter(|a| !std::ptr::eq(*a, attr))),
        arguments: None,
        icons: None,
        meta: None,
        parameters: parameters_type(sig),
        routed,
        module: module.to_vec(),
        file: path.to_path_buf(),
        line: source.line_of(&sig.ident),
    };
    apply_args(attr, &mut p).map_err(|e| {
        let rerun = |a: &Attribute| apply_args(a, &mut p.clone()).err();
        let problems = crate::attr_pos::locate(source, attr, &e, &rerun, (&nowhere, &nowhere));
        Error::attribute(path, problems)
    })?;
    out.push(p);
    Ok(())
}

/// Reads `#[prompt(...)]`'s arguments into `p`.
fn apply_args(attr: &Attribute, p: &mut FoundRmcpPrompt) -> syn::Result<()> {
    if let Meta::List(_) = &attr.meta {
        let metas = attr.parse_args_with(Punctuated::<Meta, Token![,]>::parse_terminated)?;
        for meta in metas {
            let key = meta
                .path()
                .get_ident()
                .map(|i| i.to_string())
                .unwrap_or_default();
            let bad = |msg: String| syn::Error::new_spanned(meta.path(), msg);
            match (key.as_str(), &meta) {
                ("name", Meta::NameValue(nv)) => p.name = lit(&nv.value).ok_or_else(|| bad("`name` takes a string literal".into()))?,
                ("title", Meta::NameValue(nv)) => p.title = Some(lit(&nv.value).ok_or_else(|| bad("`title` takes a string literal".into()))?),
                ("description", Meta::NameValue(nv)) => p.description = Some(nv.value.clone()),
                ("arguments", Meta::NameValue(nv)) => p.arguments = Some(nv.value.clone()),
                ("icons", Meta::NameValue(nv)) => p.icons = Some(nv.value.clone()),
                ("meta", Meta::NameValue(nv)) => p.meta = Some(nv.value.clone()),
                ("local", _) => {}
                _ => {
                    return Err(bad(format!(
                        "unknown or malformed `{key}` in rmcp's `#[prompt(...)]`; expected one of: {PROMPT_KEYS}"
                    )))
                }
            }
        }
    }
    Ok(())
}

fn lit(e: &Expr) -> Option<String> {
    match e {
        Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(s),
            ..
        }) => Some(s.value()),
        _ => None,
    }
}

fn parameters_type(sig: &Signature) -> Option<Type> {
    sig.inputs.iter().find_map(|input| {
        let FnArg::Typed(pt) = input else { return None };
        let Type::Path(tp) = &*pt.ty else { return None };
        let last = tp.path.segments.last()?;
        if last.ident != "Parameters" {
            return None;
        }
        let syn::PathArguments::AngleBracketed(a) = &last.arguments else {
            return None;
        };
        match a.args.first()? {
            syn::GenericArgument::Type(t) => Some(t.clone()),
            _ => None,
        }
    })
}

/// Adds every found prompt to `surface`; a prompt name declared twice is an error.
pub fn add_rmcp_prompts(
    surface: &mut Surface,
    seen: &mut BTreeMap<String, (PathBuf, usize)>,
    index: &TypeIndex,
    package_root: &Path,
    prompts: &[FoundRmcpPrompt],
    fields: &PromptFields,
) -> Result<(), Error> {
    for found in prompts {
        if let Some(first) = seen.get(&found.name) {
            return Err(Error::Rmcp {
                file: found.file.clone(),
                line: found.line,
                message: format!(
                    "prompt name `{}` is already used at {}:{}",
                    found.name,
                    first.0.display(),
                    first.1
                ),
                help: "give each prompt its own `name = \"...\"`".into(),
            });
        }
        seen.insert(found.name.clone(), (found.file.clone(), found.line));
        let given = fields.get(&found.name).cloned().unwrap_or_default();
        surface.insert_prompt(prompt_for(index, package_root, found, &given)?);
    }
    Ok(())
}

/// The locked prompt for one found `#[prompt]`.
pub fn prompt_for(
    index: &TypeIndex,
    package_root: &Path,
    found: &FoundRmcpPrompt,
    given: &BTreeMap<String, Value>,
) -> Result<Prompt, Error> {
    let dir = super::surface::source_dir(package_root, &found.file);
    let unevaluable = |construct: &str, key: &str, expr: String| {
        Error::Rmcp {
        file: found.file.clone(),
        line: found.line,
        message: format!(
            "prompt `{}`: cannot evaluate {construct} `{expr}` at build time",
            found.name
        ),
        help: format!(
            "give the published value in build.rs: `mcp_contract_build::Builder::new().prompt_field(\"{}\", \"{key}\", r#\"...\"#).run()` (JSON text); it is locked as given",
            found.name
        ),
    }
    };
    let mut p = Prompt::new(found.name.clone());
    p.title = match given.get("title") {
        Some(v) => v.as_str().map(str::to_string),
        None => found.title.clone(),
    };
    p.description =
        match given.get("description") {
            Some(v) => v.as_str().map(str::to_string),
            None => match (&found.description, &found.doc) {
                (Some(e), _) => Some(
                    eval_str(e, &dir)
                        .map_err(|n| unevaluable("the description", "description", n.0))?,
                ),
                (None, Some(pieces)) => {
                    let mut parts = Vec::new();
                    for piece in pieces {
                        match piece {
                            DocPiece::Text(t) => parts.push(t.clone()),
                            DocPiece::Macro(e) => parts.push(eval_str(e, &dir).map_err(|n| {
                                unevaluable("the doc attribute", "description", n.0)
                            })?),
                        }
                    }
                    Some(parts.join("\n"))
                }
                (None, None) => None,
            },
        };
    let arguments: Value = match (given.get("arguments"), &found.arguments, &found.parameters) {
        (Some(v), _, _) => v.clone(),
        (None, Some(e), _) => {
            eval_json(e).map_err(|n| unevaluable("`arguments`", "arguments", n.0))?
        }
        (None, None, Some(t)) => {
            arguments_from_schema(&schema_for(index, t, &found.module).map_err(|e| {
                let mut e = e.published_by(Publisher::Schemars);
                e.message.push_str(&format!(
                    " (prompt `{}`, {}:{})",
                    found.name,
                    found.file.display(),
                    found.line
                ));
                Error::Derive(e)
            })?)
        }
        (None, None, None) => Value::Null,
    };
    if let Value::Array(list) = arguments {
        for a in list {
            let Some(name) = a.get("name").and_then(Value::as_str) else {
                continue;
            };
            let mut arg = PromptArgument::new(name);
            arg.title = a.get("title").and_then(Value::as_str).map(str::to_string);
            arg.description = a
                .get("description")
                .and_then(Value::as_str)
                .map(str::to_string);
            arg.required = a.get("required").and_then(Value::as_bool).unwrap_or(false);
            p.arguments.push(arg);
        }
        p.arguments.sort_by(|a, b| a.name.cmp(&b.name));
    }
    for (key, expr, construct) in [
        ("icons", &found.icons, "`icons`"),
        ("_meta", &found.meta, "`meta`"),
    ] {
        let value = match (given.get(key), expr) {
            (Some(v), _) => Some(v.clone()),
            (None, Some(e)) => Some(eval_json(e).map_err(|n| unevaluable(construct, key, n.0))?),
            (None, None) => None,
        };
        if let Some(v) = value {
            p.extra.insert(key.to_string(), v);
        }
    }
    Ok(p)
}

/// rmcp's `cached_arguments_from_schema`: one argument per top-level
/// property, with its description, required when listed in `required`.
fn arguments_from_schema(schema: &Value) -> Value {
    let Some(props) = schema.get("properties").and_then(Value::as_object) else {
        return Value::Null;
    };
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    Value::Array(
        props
            .iter()
            .map(|(name, s)| {
                let mut a = serde_json::Map::new();
                a.insert("name".into(), Value::String(name.clone()));
                if let Some(d) = s.get("description") {
                    a.insert("description".into(), d.clone());
                }
                a.insert(
                    "required".into(),
                    Value::Bool(required.contains(&name.as_str())),
                );
                Value::Object(a)
            })
            .collect(),
    )
}

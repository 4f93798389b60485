//! Finds every rmcp `#[tool]` fn of a crate: the methods of `#[tool_router]`
//! impl blocks (with the router fn they are routed by, `tool_router` unless
//! `router = ...` says otherwise, and the cargo features that gate the impl),
//! and `#[tool]` fns outside a router (routed by hand). `#[cfg(test)]`
//! modules are skipped, as in [`crate::discover`].

use std::path::PathBuf;

use syn::punctuated::Punctuated;
use syn::{Attribute, Expr, FnArg, ImplItem, Item, Meta, Signature, Token, Type};

use super::attr::{
    description_files, last_segment_is, parse_tool_attr, rmcp_doc_pieces, DocPiece, RmcpToolAttr,
};
use crate::attr_pos::{locate, nowhere};
use crate::derive::{is_cfg_test, ModuleFile};
use crate::error::Error;
use crate::source::Source;

/// Where a tool's `inputSchema` comes from, as rmcp's `#[tool]` decides it.
#[derive(Debug, Clone)]
pub enum InputSource {
    /// `Parameters<T>` among the fn's arguments: `T`.
    Parameters(Type),
    /// No `Parameters<T>`: rmcp's `schema_for_empty_input()`.
    Empty,
    /// `input_schema = <expr>`.
    Override(Expr),
}

/// Where a tool's `outputSchema` comes from.
#[derive(Debug, Clone)]
pub enum OutputSource {
    /// The return type is not `Json<T>` / `Result<Json<T>, _>`: none.
    None,
    /// `Json<T>` or `Result<Json<T>, E>`: `T` (serialize contract).
    Json(Type),
    /// `output_schema = <expr>`.
    Override(Expr),
}

/// One rmcp `#[tool]` fn.
#[derive(Debug, Clone)]
pub struct FoundRmcpTool {
    /// The published name: `name = "..."`, else the fn name.
    pub name: String,
    pub fn_name: String,
    /// The impl's self type as written (`None` for a free fn).
    pub self_ty: Option<String>,
    /// The router fn generated for it (`None` outside a `#[tool_router]` impl).
    pub router: Option<String>,
    /// Cargo features the tool is gated on (`#[cfg(feature = "...")]` on the
    /// fn, its impl or an enclosing inline module).
    pub features: Vec<String>,
    pub attr: RmcpToolAttr,
    /// The description rmcp takes from the doc comment when `description` is absent.
    pub doc: Option<Vec<DocPiece>>,
    pub input: InputSource,
    pub output: OutputSource,
    /// The module the fn is declared in.
    pub module: Vec<String>,
    /// The item that declares it in its file (the impl block, or the free
    /// fn), as item indices through inline modules.
    pub item: Vec<usize>,
    /// Where the build cache keeps its doc comment's hash
    /// ([`crate::cache::facts::tool_doc_item`]).
    pub doc_item: Vec<usize>,
    /// The file, relative to the package root.
    pub file: PathBuf,
    /// 1-based line of the fn's name.
    pub line: usize,
}

impl FoundRmcpTool {
    /// The files its description is read from (`include_str!`), under
    /// `package_root`.
    pub fn included_files(&self, package_root: &std::path::Path) -> Vec<PathBuf> {
        description_files(
            self.attr.description.as_ref(),
            self.doc.as_deref(),
            &super::surface::source_dir(package_root, &self.file),
        )
    }
}

/// Every rmcp `#[tool]` fn, in file order then source order.
pub fn find_rmcp_tools(files: &[ModuleFile]) -> Result<Vec<FoundRmcpTool>, Error> {
    let mut out = Vec::new();
    for (path, file, module) in files {
        let mut w = Walk {
            path,
            source: file,
            out: &mut out,
            only: None,
        };
        w.items(&file.items, module, &[], &[])?;
    }
    Ok(out)
}

/// The rmcp `#[tool]` fn at place `k` of item `item_path` of a file (the
/// impl block's `k`-th item, or the free fn itself for `k` = 0, at the
/// file's top level, in module `module`); the build cache re-derives a
/// tool from it without walking the whole file. Its `line` is 0: placing
/// it would align the whole file's tokens, and the re-derivation path
/// reports no error (it leaves any problem to the full step, which places
/// it).
pub fn find_rmcp_tool_in_item(
    path: &PathBuf,
    source: &Source,
    (item, item_path): (&Item, usize),
    k: usize,
    module: &[String],
) -> Result<Option<FoundRmcpTool>, Error> {
    let mut out = Vec::new();
    let mut w = Walk {
        path,
        source,
        out: &mut out,
        only: Some(k),
    };
    w.item(item, vec![item_path], module, &[])?;
    Ok(out.pop())
}

struct Walk<'a> {
    path: &'a PathBuf,
    source: &'a Source,
    out: &'a mut Vec<FoundRmcpTool>,
    /// Only the fn at this place of the item walked, with no line (see
    /// [`find_rmcp_tool_in_item`]).
    only: Option<usize>,
}

impl Walk<'_> {
    /// `err`, found by `check` on `attr`, with each problem placed.
    fn attribute_error<T>(
        &self,
        attr: &Attribute,
        err: &syn::Error,
        check: fn(&Attribute) -> syn::Result<T>,
    ) -> Error {
        let rerun = |a: &Attribute| check(a).err();
        Error::attribute(
            self.path,
            locate(self.source, attr, err, &rerun, (&nowhere, &nowhere)),
        )
    }

    fn items(
        &mut self,
        items: &[Item],
        module: &[String],
        features: &[String],
        prefix: &[usize],
    ) -> Result<(), Error> {
        for (i, item) in items.iter().enumerate() {
            let mut at = prefix.to_vec();
            at.push(i);
            self.item(item, at, module, features)?;
        }
        Ok(())
    }

    /// One item at `at` (item indices through inline modules).
    fn item(
        &mut self,
        item: &Item,
        at: Vec<usize>,
        module: &[String],
        features: &[String],
    ) -> Result<(), Error> {
        match item {
            Item::Impl(imp) => {
                let mut feats = features.to_vec();
                feats.extend(cfg_features(&imp.attrs));
                let router = match imp.attrs.iter().find(|a| last_segment_is(a, "tool_router")) {
                    Some(a) => {
                        Some(router_name(a).map_err(|e| self.attribute_error(a, &e, router_name))?)
                    }
                    None => None,
                };
                let self_ty = type_text(&imp.self_ty);
                for (k, it) in imp.items.iter().enumerate() {
                    let ImplItem::Fn(f) = it else { continue };
                    if self.only.is_some_and(|only| only != k) {
                        continue;
                    }
                    let routed = (Some(self_ty.as_str()), router.clone());
                    self.tool_fn(&f.attrs, &f.sig, module, &feats, routed, (&at, k))?;
                }
            }
            Item::Fn(f) if self.only.is_none_or(|only| only == 0) => {
                self.tool_fn(&f.attrs, &f.sig, module, features, (None, None), (&at, 0))?;
            }
            Item::Mod(m) if !is_cfg_test(&m.attrs) => {
                if let Some((_, body)) = &m.content {
                    let mut inner = module.to_vec();
                    inner.push(m.ident.to_string().trim_start_matches("r#").to_string());
                    let mut feats = features.to_vec();
                    feats.extend(cfg_features(&m.attrs));
                    self.items(body, &inner, &feats, &at)?;
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// `(self_ty, router)`: the impl's self type and router, for a method;
    /// `(at, k)`: the declaring item's path and the fn's place in it.
    fn tool_fn(
        &mut self,
        attrs: &[Attribute],
        sig: &Signature,
        module: &[String],
        features: &[String],
        (self_ty, router): (Option<&str>, Option<String>),
        (at, k): (&[usize], usize),
    ) -> Result<(), Error> {
        let Some(tool_attr) = attrs.iter().find(|a| last_segment_is(a, "tool")) else {
            return Ok(());
        };
        let attr = parse_tool_attr(tool_attr)
            .map_err(|e| self.attribute_error(tool_attr, &e, parse_tool_attr))?;
        let mut feats = features.to_vec();
        feats.extend(cfg_features(attrs));
        let doc = rmcp_doc_pieces(attrs.iter().filter(|a| !std::ptr::eq(*a, tool_attr)));
        let input = match &attr.input_schema {
            Some(e) => InputSource::Override(e.clone()),
            None => match parameters_type(sig) {
                Some(t) => InputSource::Parameters(t),
                None => InputSource::Empty,
            },
        };
        let output = match (&attr.output_schema, &sig.output) {
            (Some(e), _) => OutputSource::Override(e.clone()),
            (None, syn::ReturnType::Type(_, ty)) => match json_output(ty) {
                Some(t) => OutputSource::Json(t.clone()),
                None => OutputSource::None,
            },
            (None, syn::ReturnType::Default) => OutputSource::None,
        };
        let fn_name = sig.ident.to_string();
        self.out.push(FoundRmcpTool {
            name: attr.name.clone().unwrap_or_else(|| fn_name.clone()),
            fn_name,
            self_ty: self_ty.map(str::to_string),
            router,
            features: feats,
            attr,
            doc,
            input,
            output,
            module: module.to_vec(),
            item: at.to_vec(),
            doc_item: crate::cache::facts::tool_doc_item(at, k),
            file: self.path.clone(),
            line: match self.only {
                None => self.source.line_of(&sig.ident),
                Some(_) => 0,
            },
        });
        Ok(())
    }
}

/// `router = <ident>` of `#[tool_router(...)]` (default `tool_router`).
fn router_name(attr: &Attribute) -> syn::Result<String> {
    let Meta::List(_) = &attr.meta else {
        return Ok("tool_router".into());
    };
    let metas = attr.parse_args_with(Punctuated::<Meta, Token![,]>::parse_terminated)?;
    let mut router = "tool_router".to_string();
    for meta in metas {
        let key = meta
            .path()
            .get_ident()
            .map(|i| i.to_string())
            .unwrap_or_default();
        match (key.as_str(), &meta) {
            ("router", Meta::NameValue(nv)) => match &nv.value {
                Expr::Path(p) if p.path.get_ident().is_some() => {
                    router = p.path.get_ident().map(|i| i.to_string()).unwrap_or_default();
                }
                other => {
                    return Err(syn::Error::new_spanned(
                        other,
                        "`router` takes the name of the fn to generate",
                    ))
                }
            },
            ("vis" | "server_handler" | "allow_empty", _) => {}
            _ => {
                return Err(syn::Error::new_spanned(
                    meta.path(),
                    format!("unknown `{key}` in `#[tool_router(...)]`; expected one of: router, vis, server_handler, allow_empty"),
                ))
            }
        }
    }
    Ok(router)
}

/// `#[cfg(feature = "x")]` (also inside `all(...)`) on an item.
fn cfg_features(attrs: &[Attribute]) -> Vec<String> {
    let mut out = Vec::new();
    for a in attrs.iter().filter(|a| a.path().is_ident("cfg")) {
        if let Ok(meta) = a.parse_args::<Meta>() {
            collect_features(&meta, &mut out);
        }
    }
    out
}

fn collect_features(meta: &Meta, out: &mut Vec<String>) {
    match meta {
        Meta::NameValue(nv) if nv.path.is_ident("feature") => {
            if let Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s),
                ..
            }) = &nv.value
            {
                out.push(s.value());
            }
        }
        Meta::List(l) if l.path.is_ident("all") => {
            if let Ok(inner) = l.parse_args_with(Punctuated::<Meta, Token![,]>::parse_terminated) {
                for m in &inner {
                    collect_features(m, out);
                }
            }
        }
        _ => {}
    }
}

/// `T` of the first argument typed `…::Parameters<T>` (rmcp's
/// `find_parameters_type_in_sig` matches the last path segment).
fn parameters_type(sig: &Signature) -> Option<Type> {
    sig.inputs.iter().find_map(|input| {
        let FnArg::Typed(pt) = input else { return None };
        let Type::Path(tp) = &*pt.ty else { return None };
        let last = tp.path.segments.last()?;
        if last.ident != "Parameters" {
            return None;
        }
        first_type_arg(&last.arguments)
    })
}

fn first_type_arg(args: &syn::PathArguments) -> Option<Type> {
    let syn::PathArguments::AngleBracketed(a) = args else {
        return None;
    };
    match a.args.first()? {
        syn::GenericArgument::Type(t) => Some(t.clone()),
        _ => None,
    }
}

/// rmcp's `extract_schema_from_return_type`: `Json<T>`, or `Result<Json<T>, _>`
/// (matched by last path segment, as written: a local alias named `Json` counts).
fn json_output(ty: &Type) -> Option<Type> {
    let json_inner = |ty: &Type| -> Option<Type> {
        let Type::Path(tp) = ty else { return None };
        let last = tp.path.segments.last()?;
        (last.ident == "Json").then(|| first_type_arg(&last.arguments))?
    };
    if let Some(t) = json_inner(ty) {
        return Some(t);
    }
    let Type::Path(tp) = ty else { return None };
    let last = tp.path.segments.last()?;
    if last.ident != "Result" {
        return None;
    }
    json_inner(&first_type_arg(&last.arguments)?)
}

pub(crate) fn type_text(ty: &Type) -> String {
    use quote::ToTokens;
    ty.to_token_stream()
        .to_string()
        .replace(" < ", "<")
        .replace(" > ", ">")
        .replace(" >", ">")
        .replace(" :: ", "::")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(src: &str) -> Vec<FoundRmcpTool> {
        let files = vec![(
            PathBuf::from("src/lib.rs"),
            crate::source::Source::parse(src).unwrap(),
            vec![],
        )];
        find_rmcp_tools(&files).unwrap()
    }

    #[test]
    fn routers_features_inputs_outputs() {
        let t = found(
            r#"
            #[tool_router(server_handler)]
            impl S {
                /// Sum.
                #[tool]
                async fn sum(&self, Parameters(a): Parameters<SumArgs>) -> Result<Json<Out>, String> { Ok(Json(Out { total: a.x + a.y })) }
                #[tool(name = "ping")]
                fn p(&self) -> String { String::new() }
                fn helper(&self) {}
            }
            #[cfg(feature = "recalc")]
            #[tool_router(router = fork_router, vis = "pub")]
            impl S {
                #[tool(description = "Fork.")]
                async fn fork(&self, ctx: RequestContext<RoleServer>, p: rmcp::handler::server::wrapper::Parameters<F>) -> Json<i32> { Json(p.0.n) }
            }
            #[cfg(test)]
            mod tests { #[tool_router] impl T { #[tool] fn hidden(&self) {} } }
            "#,
        );
        let summary: Vec<(String, Option<String>, Vec<String>)> = t
            .iter()
            .map(|t| (t.name.clone(), t.router.clone(), t.features.clone()))
            .collect();
        assert_eq!(
            summary,
            vec![
                ("sum".into(), Some("tool_router".into()), vec![]),
                ("ping".into(), Some("tool_router".into()), vec![]),
                (
                    "fork".into(),
                    Some("fork_router".into()),
                    vec!["recalc".into()]
                ),
            ]
        );
        assert!(matches!(&t[0].input, InputSource::Parameters(ty) if type_text(ty) == "SumArgs"));
        assert!(matches!(&t[0].output, OutputSource::Json(ty) if type_text(ty) == "Out"));
        assert!(matches!(t[1].input, InputSource::Empty));
        assert!(matches!(t[1].output, OutputSource::None));
        assert!(matches!(&t[2].input, InputSource::Parameters(ty) if type_text(ty) == "F"));
        assert!(matches!(&t[2].output, OutputSource::Json(ty) if type_text(ty) == "i32"));
    }

    /// rmcp attribute problems are placed where the error's span puts them
    /// (tests are built with proc-macro2's span locations).
    #[test]
    fn attribute_problems_are_where_their_spans_say() {
        let cases = [
            "impl S {\n    #[tool(name = \"a\", bogus = 1)]\n    fn f(&self) {}\n}\n",
            "impl S {\n    #[tool(\n        name = 5,\n    )]\n    fn f(&self) {}\n}\n",
            "#[tool(annotations(read_only_hint = \"yes\"))]\nfn f() {}\n",
            "#[tool(annotations(title = \"t\", colour))]\nfn f() {}\n",
            "#[tool(name = \"a\", name)]\nfn f() {}\n",
        ];
        for text in cases {
            let files = vec![(
                PathBuf::from("src/lib.rs"),
                crate::source::Source::parse(text).unwrap(),
                vec![],
            )];
            let Err(ours) = find_rmcp_tools(&files) else {
                panic!("{text}: no error")
            };
            let Error::Attribute { problems, .. } = &ours else {
                panic!("{text}: {ours}")
            };
            let file = syn::parse_file(text).unwrap();
            let attrs = match &file.items[0] {
                Item::Impl(i) => match &i.items[0] {
                    ImplItem::Fn(f) => f.attrs.clone(),
                    _ => unreachable!("a fn"),
                },
                Item::Fn(f) => f.attrs.clone(),
                _ => unreachable!("an impl or a fn"),
            };
            let real = crate::source::span_positions(parse_tool_attr(&attrs[0]).err().unwrap());
            assert_eq!(problems, &real, "{text}");
        }
    }
}

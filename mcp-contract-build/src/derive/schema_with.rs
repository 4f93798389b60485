//! `#[schemars(schema_with = "f")]` on a field, variant or container:
//! schemars calls `f(generator)` at run time, through a type of its own
//! (`_SchemarsSchemaWithFunction`: always inlined, named after the
//! function, never an `Option`). When `f`'s whole body is a JSON literal
//! ([`super::literal`]) its result is known from source, and that type is
//! a [`Ty::Literal`]; anything else is refused, naming what `f` does that
//! only running code knows, at the line where it does it.

use super::error::{Hatch, PResult, Problem};
use super::gen::{Gen, Literal, Ty};
use super::index::{Ns, Target};
use super::literal::body_schema;
use super::resolve::Scope;

/// The advice when a function is not read: what the build step reads.
const LITERAL_LEAD: &str = "make the function's body one `json_schema!({ ... })` literal (JSON \
     values only, nothing interpolated), or name a type the build step reads with \
     `#[schemars(with = \"Type\")]`";

impl Gen<'_> {
    /// The type schemars makes of `schema_with = "f"` written in `scope`
    /// (on `what`, whose line `line` gives, asked only on failure; `hatch`:
    /// where a verbatim schema would go instead, on a field or on the type).
    pub(crate) fn schema_with(
        &self,
        f: &str,
        (what, hatch): (&str, Hatch),
        scope: &Scope,
        line: impl Fn() -> usize,
    ) -> PResult<Ty> {
        let attr = format!("`#[schemars(schema_with = \"{f}\")]`");
        let refuse = |why: String| {
            Problem::new(what, format!("{attr}: {why}")).with_escape(LITERAL_LEAD, hatch.clone())
        };
        let path: syn::Path = syn::parse_str(f)
            .map_err(|e| refuse(format!("not a function path: {e}")).at(&scope.file, line()))?;
        let Some(func) = self.schema_fn(&path, scope) else {
            return Err(refuse(format!(
                "`{f}` is not a function of this crate or of a crate the build step reads, \
                 so what it returns is unknown"
            ))
            .at(&scope.file, line()));
        };
        let (sig, block, file) = func;
        let fn_line = self.ix.line_in(&file, &sig.ident);
        if sig.inputs.len() != 1 || !sig.generics.params.is_empty() {
            return Err(refuse(format!(
                "`{f}` is not a plain `fn(&mut SchemaGenerator) -> Schema`"
            ))
            .at(&file, fn_line));
        }
        let schema = body_schema(block).map_err(|n| {
            let at = n.node.map_or(fn_line, |e| self.ix.line_in(&file, e));
            refuse(format!("the function `{f}` {}", n.what)).at(&file, at)
        })?;
        Ok(Ty::Literal(Box::new(Literal {
            name: path
                .segments
                .last()
                .map(|s| s.ident.to_string())
                .unwrap_or_default(),
            // schemars: `_SchemarsSchemaWithFunction/{module_path!()}/{f}`.
            id: format!(
                "_SchemarsSchemaWithFunction/{}/{f}",
                scope.module.join("::")
            ),
            inline: true,
            schema,
        })))
    }

    /// The function `path` names from `scope`: a free function, or one of
    /// a type's inherent functions (`Type::schema`); with its file.
    fn schema_fn(
        &self,
        path: &syn::Path,
        scope: &Scope,
    ) -> Option<(&syn::Signature, &syn::Block, std::path::PathBuf)> {
        let segs: Vec<String> = path
            .segments
            .iter()
            .map(|s| s.ident.to_string().trim_start_matches("r#").to_string())
            .collect();
        let resolve = |segs: &[String], ns| {
            if path.leading_colon.is_some() {
                Some(self.ix.resolve_absolute(&scope.module, segs, ns))
            } else {
                self.ix.resolve(&scope.module, segs, ns)
            }
        };
        if let Some(Target::Local(loc)) = resolve(&segs, Ns::Value) {
            if let syn::Item::Fn(f) = self.ix.item(&loc) {
                return Some((&f.sig, &f.block, self.ix.file_of(&loc).to_path_buf()));
            }
        }
        let (name, ty) = segs.split_last()?;
        match resolve(ty, Ns::Type)? {
            Target::Local(loc) => {
                let (f, at) = self.ix.inherent_fn(&loc, name, 1)?;
                Some((&f.sig, &f.block, self.ix.file_of(at).to_path_buf()))
            }
            Target::External(_) => None,
        }
    }
}

//! `--allow-non-object-input` for the commands that take a surface as
//! published (`snapshot`, `verify`): a tool whose `inputSchema` is not an
//! object schema is refused with exit 2, as MCP clients refuse it
//! ([`mcp_contract::load::published`]), unless the flag locks it anyway.

use mcp_contract::load::published;
use mcp_contract::Surface;

use crate::output;

#[derive(clap::Args, Debug, Clone, Default)]
pub struct AcceptArgs {
    /// Take tools whose inputSchema is not an object schema (`"type": "object"` at its root) anyway, for investigation; MCP clients refuse such a surface
    #[arg(long)]
    pub allow_non_object_input: bool,
}

impl AcceptArgs {
    /// Refuses (exit 2) a published surface with a non-object input schema,
    /// unless allowed; then it warns, naming the tools.
    pub fn check(
        &self,
        surface: &Surface,
        file: &str,
        locate: &dyn Fn(&str) -> String,
    ) -> Result<(), u8> {
        match published::require_object_inputs(surface, file, locate) {
            Ok(()) => Ok(()),
            Err(e) if !self.allow_non_object_input => Err(output::input_error(&e)),
            Err(_) => {
                self.warn(surface);
                Ok(())
            }
        }
    }

    /// With the flag, says which tools clients would refuse.
    pub fn warn(&self, surface: &Surface) {
        let bad: Vec<String> = surface
            .tools
            .values()
            .filter(|t| !published::is_object_schema(&t.input_schema))
            .map(|t| format!("`{}`", t.name))
            .collect();
        if self.allow_non_object_input && !bad.is_empty() {
            eprintln!(
                "warning: {}: taken as published although its inputSchema is not an object schema; MCP clients refuse this surface",
                bad.join(", ")
            );
        }
    }
}

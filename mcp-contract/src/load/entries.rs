//! Prompts, resources, resource templates and the server section, read from
//! their published form (`prompts/list`, `resources/list`,
//! `resources/templates/list`, the `initialize` result) or from a lockfile
//! entry. Same rules as tools: a wrongly typed known field is an error that
//! names the place; unknown fields are kept verbatim; volatile fields
//! (`size`, `lastModified`) are dropped.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use crate::error::InputError;
use crate::model::{Prompt, PromptArgument, Resource, ResourceTemplate, ServerInfo, VOLATILE_KEYS};

/// Takes an optional string field out of `m`.
fn opt_string(
    m: &mut Map<String, Value>,
    key: &str,
    what: &str,
    file: &str,
    at: &str,
) -> Result<Option<String>, InputError> {
    match m.remove(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(
            InputError::new(file, format!("`{key}` of {what} must be a string"))
                .at(format!("{at}/{key}"))
                .fix(format!("make `{key}` a string or remove it")),
        ),
    }
}

fn opt_object(
    m: &mut Map<String, Value>,
    key: &str,
    what: &str,
    file: &str,
    at: &str,
) -> Result<Option<Map<String, Value>>, InputError> {
    match m.remove(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Object(o)) => Ok(Some(o)),
        Some(_) => Err(
            InputError::new(file, format!("`{key}` of {what} must be an object"))
                .at(format!("{at}/{key}"))
                .fix(format!("make `{key}` an object or remove it")),
        ),
    }
}

fn required_string(
    m: &mut Map<String, Value>,
    key: &str,
    what: &str,
    file: &str,
    at: &str,
) -> Result<String, InputError> {
    match m.remove(key) {
        Some(Value::String(s)) => Ok(s),
        _ => Err(
            InputError::new(file, format!("{what} has no string `{key}`"))
                .at(format!("{at}/{key}"))
                .fix(format!("give every {what} a `{key}`")),
        ),
    }
}

fn rest(m: Map<String, Value>) -> BTreeMap<String, Value> {
    m.into_iter().filter(|(k, _)| k != "digest").collect()
}

/// Builds a prompt from its fields; `name` comes from the object or the lockfile key.
pub fn prompt_from_map(
    name: String,
    mut m: Map<String, Value>,
    file: &str,
    at: &str,
) -> Result<Prompt, InputError> {
    let what = format!("prompt `{name}`");
    m.remove("name");
    let title = opt_string(&mut m, "title", &what, file, at)?;
    let description = opt_string(&mut m, "description", &what, file, at)?;
    let mut arguments: Vec<PromptArgument> = Vec::new();
    match m.remove("arguments") {
        None | Some(Value::Null) => {}
        Some(Value::Array(items)) => {
            for (i, item) in items.into_iter().enumerate() {
                let ptr = format!("{at}/arguments/{i}");
                let Value::Object(mut a) = item else {
                    return Err(InputError::new(
                        file,
                        format!("argument of {what} must be an object"),
                    )
                    .at(ptr)
                    .fix("each argument is an object with at least `name`"));
                };
                let arg_what = format!("an argument of {what}");
                let arg_name = required_string(&mut a, "name", &arg_what, file, &ptr)?;
                let arg_what = format!("argument `{arg_name}` of {what}");
                let title = opt_string(&mut a, "title", &arg_what, file, &ptr)?;
                let description = opt_string(&mut a, "description", &arg_what, file, &ptr)?;
                let required = match a.remove("required") {
                    None | Some(Value::Null) => false,
                    Some(Value::Bool(b)) => b,
                    Some(_) => {
                        return Err(InputError::new(
                            file,
                            format!("`required` of {arg_what} must be true or false"),
                        )
                        .at(format!("{ptr}/required"))
                        .fix("make `required` a boolean"))
                    }
                };
                if arguments.iter().any(|x| x.name == arg_name) {
                    return Err(InputError::new(file, format!("duplicate {arg_what}"))
                        .at(ptr)
                        .fix("a prompt names each argument once; remove or rename one"));
                }
                arguments.push(PromptArgument {
                    name: arg_name,
                    title,
                    description,
                    required,
                    extra: rest(a),
                });
            }
        }
        Some(_) => {
            return Err(
                InputError::new(file, format!("`arguments` of {what} must be an array"))
                    .at(format!("{at}/arguments"))
                    .fix("make `arguments` an array of {\"name\": ...} objects"),
            )
        }
    }
    arguments.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(Prompt {
        name,
        title,
        description,
        arguments,
        extra: rest(m),
    })
}

struct Common {
    name: Option<String>,
    title: Option<String>,
    description: Option<String>,
    mime_type: Option<String>,
    annotations: Option<Map<String, Value>>,
    extra: BTreeMap<String, Value>,
}

fn common(
    mut m: Map<String, Value>,
    what: &str,
    file: &str,
    at: &str,
) -> Result<Common, InputError> {
    for key in VOLATILE_KEYS {
        m.remove(*key);
    }
    let name = opt_string(&mut m, "name", what, file, at)?;
    let title = opt_string(&mut m, "title", what, file, at)?;
    let description = opt_string(&mut m, "description", what, file, at)?;
    let mime_type = opt_string(&mut m, "mimeType", what, file, at)?;
    let mut annotations = opt_object(&mut m, "annotations", what, file, at)?;
    if let Some(a) = &mut annotations {
        for key in VOLATILE_KEYS {
            a.remove(*key);
        }
    }
    Ok(Common {
        name,
        title,
        description,
        mime_type,
        annotations,
        extra: rest(m),
    })
}

/// Builds a resource from its fields; `uri` comes from the object or the lockfile key.
pub fn resource_from_map(
    uri: String,
    mut m: Map<String, Value>,
    file: &str,
    at: &str,
) -> Result<Resource, InputError> {
    m.remove("uri");
    let c = common(m, &format!("resource `{uri}`"), file, at)?;
    Ok(Resource {
        uri,
        name: c.name,
        title: c.title,
        description: c.description,
        mime_type: c.mime_type,
        annotations: c.annotations,
        extra: c.extra,
    })
}

/// Builds a template from its fields; `uri_template` comes from the object or the lockfile key.
pub fn template_from_map(
    uri_template: String,
    mut m: Map<String, Value>,
    file: &str,
    at: &str,
) -> Result<ResourceTemplate, InputError> {
    m.remove("uriTemplate");
    let c = common(m, &format!("resource template `{uri_template}`"), file, at)?;
    Ok(ResourceTemplate {
        uri_template,
        name: c.name,
        title: c.title,
        description: c.description,
        mime_type: c.mime_type,
        annotations: c.annotations,
        extra: c.extra,
    })
}

/// Builds the server section from a lockfile entry or an `initialize` /
/// `server/discover` result (`serverInfo` is dropped: it is not contract).
pub fn server_from_map(
    mut m: Map<String, Value>,
    file: &str,
    at: &str,
) -> Result<ServerInfo, InputError> {
    let what = "the server";
    let protocol_version = opt_string(&mut m, "protocolVersion", what, file, at)?;
    let capabilities = opt_object(&mut m, "capabilities", what, file, at)?.unwrap_or_default();
    let instructions = opt_string(&mut m, "instructions", what, file, at)?;
    m.remove("serverInfo");
    Ok(ServerInfo {
        protocol_version,
        capabilities,
        instructions,
        extra: rest(m),
    })
}

/// Which list an array of published items came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListKind {
    Prompts,
    Resources,
    ResourceTemplates,
}

impl ListKind {
    /// The result key of the list (`prompts`, `resources`, `resourceTemplates`).
    pub fn key(self) -> &'static str {
        match self {
            ListKind::Prompts => "prompts",
            ListKind::Resources => "resources",
            ListKind::ResourceTemplates => "resourceTemplates",
        }
    }

    /// The list method (`prompts/list`, `resources/list`, `resources/templates/list`).
    pub fn method(self) -> &'static str {
        match self {
            ListKind::Prompts => "prompts/list",
            ListKind::Resources => "resources/list",
            ListKind::ResourceTemplates => "resources/templates/list",
        }
    }

    fn id_key(self) -> &'static str {
        match self {
            ListKind::Prompts => "name",
            ListKind::Resources => "uri",
            ListKind::ResourceTemplates => "uriTemplate",
        }
    }

    fn noun(self) -> &'static str {
        match self {
            ListKind::Prompts => "prompt",
            ListKind::Resources => "resource",
            ListKind::ResourceTemplates => "resource template",
        }
    }
}

/// Adds the published items of one list (`prompts/list` etc.) to `surface`;
/// `at` is the JSON pointer of the array. A repeated identity is an error.
pub fn add_published(
    surface: &mut crate::model::Surface,
    kind: ListKind,
    items: Vec<Value>,
    file: &str,
    at: &str,
) -> Result<(), InputError> {
    for (i, item) in items.into_iter().enumerate() {
        let ptr = format!("{at}/{i}");
        let Value::Object(mut m) = item else {
            return Err(
                InputError::new(file, format!("expected a {} object", kind.noun()))
                    .at(ptr)
                    .fix(format!("each entry of `{}` is an object", kind.key())),
            );
        };
        let id = required_string(&mut m, kind.id_key(), kind.noun(), file, &ptr)?;
        let duplicate = match kind {
            ListKind::Prompts => surface
                .insert_prompt(prompt_from_map(id.clone(), m, file, &ptr)?)
                .is_some(),
            ListKind::Resources => surface
                .insert_resource(resource_from_map(id.clone(), m, file, &ptr)?)
                .is_some(),
            ListKind::ResourceTemplates => surface
                .insert_template(template_from_map(id.clone(), m, file, &ptr)?)
                .is_some(),
        };
        if duplicate {
            return Err(
                InputError::new(file, format!("duplicate {} `{id}`", kind.noun()))
                    .at(ptr)
                    .fix(format!(
                        "a server publishes each {} `{}` once; remove or rename one of them",
                        kind.noun(),
                        kind.id_key()
                    )),
            );
        }
    }
    Ok(())
}

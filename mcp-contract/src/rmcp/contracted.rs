//! [`Contracted`]: the `ServerHandler` wrapper. Any `ServerHandler` works,
//! whether it uses `#[tool_handler]` or writes `list_tools`/`call_tool` by
//! hand (allow-lists, several routers, feature-gated routers): the wrapper
//! only ever replaces a tool the inner server serves, never adds one.

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex, RwLock};

use ::rmcp::model::*;
use ::rmcp::service::{NotificationContext, RequestContext, SubscriptionContext};
use ::rmcp::{ErrorData, RoleServer, ServerHandler};

use super::contract::{report_of, startup_report, Contract, Published};
use super::notify::ListChanged;

/// A server whose tools are published as locked and called through the
/// compatibility layer: `Contracted::new(server, mcp_contract::rmcp!())`.
///
/// Clones share the contract served and the listeners told when it
/// changes (one clone per Streamable HTTP session is the usual shape).
pub struct Contracted<S> {
    inner: S,
    shared: Arc<Shared>,
}

struct Shared {
    /// The contract served now ([`Contracted::replace_contract`] swaps it).
    contract: RwLock<Arc<Contract>>,
    /// Tools already reported (each is reported once per process).
    reported: Mutex<BTreeSet<String>>,
    /// Tools seen served differently from the lockfile: their answers
    /// carry no revision (what is served is no locked revision).
    differs: Mutex<BTreeSet<String>>,
    listeners: ListChanged,
}

impl<S: Clone> Clone for Contracted<S> {
    fn clone(&self) -> Self {
        Contracted {
            inner: self.inner.clone(),
            shared: self.shared.clone(),
        }
    }
}

/// `server.with_contract(mcp_contract::rmcp!())`, for any `ServerHandler`.
pub trait WithContract: ServerHandler {
    fn with_contract(self, contract: Contract) -> Contracted<Self> {
        Contracted::new(self, contract)
    }
}

impl<S: ServerHandler> WithContract for S {}

/// The locked tools `inner` serves differently from `contract`, with the
/// verdicts, and the contract with their validation off (their arguments
/// are the served schema's, not the locked one's).
fn checked<S: ServerHandler>(
    inner: &S,
    contract: Contract,
) -> (Contract, Vec<(String, Published)>) {
    let diverging: Vec<(String, Published)> = contract
        .names()
        .filter_map(|name| {
            let served = inner.get_tool(name)?;
            let verdict = contract.check(&served);
            matches!(verdict, Published::Differs(_)).then(|| (name.to_string(), verdict))
        })
        .collect();
    let mut compat = contract.compat().clone();
    for (name, _) in &diverging {
        compat = compat.without_validation(name);
    }
    (contract.with_compat(compat), diverging)
}

impl<S: ServerHandler> Contracted<S> {
    /// Wraps `inner`. Every locked tool the inner server serves
    /// differently from the lockfile (as its `get_tool` answers, which
    /// `#[tool_handler]` writes) is named on stderr in one line, in every
    /// build: it will be published as served while its calls are checked
    /// against the locked contract's record (its arguments are not
    /// validated against the locked schema, which is not the one served).
    ///
    /// Started by `cargo mcp-contract check --served` (with
    /// [`probe::PROBE_ENV`](super::probe::PROBE_ENV) set), it writes that
    /// comparison for the check and ends the process instead.
    pub fn new(inner: S, contract: Contract) -> Self {
        super::probe::run_if_asked(&inner, &contract);
        let (contract, diverging) = checked(&inner, contract);
        if let Some(line) = startup_report(&diverging) {
            eprintln!("{line}");
        }
        let names: BTreeSet<String> = diverging.iter().map(|(n, _)| n.clone()).collect();
        let reported = names.iter().map(|name| format!("tool {name}")).collect();
        Contracted {
            inner,
            shared: Arc::new(Shared {
                contract: RwLock::new(Arc::new(contract)),
                reported: Mutex::new(reported),
                differs: Mutex::new(names),
                listeners: ListChanged::default(),
            }),
        }
    }

    /// Serves `contract` from now on (a reload, a revision switch, a record
    /// change picked up at run time), then tells every connected client
    /// (`notifications/tools/list_changed`, sent once the new list is what
    /// `tools/list` answers). Calls built for the revisions served before
    /// keep being answered through the new record's transitions; the
    /// hooks added to the old layer keep being told. Returns how many
    /// clients were told.
    pub async fn replace_contract(&self, contract: Contract) -> usize {
        let old = self.contract();
        let compat = contract.compat().clone().succeeding(old.compat());
        let (contract, diverging) = checked(&self.inner, contract.with_compat(compat));
        if let Some(line) = startup_report(&diverging) {
            eprintln!("{line}");
        }
        {
            let mut differs = self
                .shared
                .differs
                .lock()
                .unwrap_or_else(|e| e.into_inner());
            *differs = diverging.iter().map(|(n, _)| n.clone()).collect();
        }
        *self
            .shared
            .contract
            .write()
            .unwrap_or_else(|e| e.into_inner()) = Arc::new(contract);
        self.notify_tools_changed().await
    }
}

impl<S> Contracted<S> {
    pub fn inner(&self) -> &S {
        &self.inner
    }

    /// The contract served now.
    pub fn contract(&self) -> Arc<Contract> {
        self.shared
            .contract
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Who is told when the tool list changes.
    pub fn listeners(&self) -> &ListChanged {
        &self.shared.listeners
    }

    /// Tells every connected client that the tool list changed (call it
    /// once the inner server serves its new list: an enabled route, a
    /// feature switched on); returns how many were told.
    pub async fn notify_tools_changed(&self) -> usize {
        self.shared.listeners.notify().await
    }

    /// The tool to publish for one the inner server serves, with its
    /// revision in `_meta` when it is published as locked; a tool not
    /// published as locked is reported on stderr once per process, in every
    /// build (unless start-up already named it).
    pub fn publish(&self, served: Tool) -> Tool {
        let name = served.name.to_string();
        let contract = self.contract();
        let (mut tool, verdict) = contract.publish(served);
        if verdict == Published::Locked {
            contract.compat().stamp_listed(&mut tool);
        } else if matches!(verdict, Published::Differs(_)) {
            self.shared
                .differs
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .insert(name.clone());
        }
        self.report_once("tool", &name, &verdict);
        tool
    }

    /// The prompt to publish for one the inner server serves.
    pub fn publish_prompt(&self, served: Prompt) -> Prompt {
        let name = served.name.clone();
        let (prompt, verdict) = self.contract().publish_prompt(served);
        self.report_once("prompt", &name, &verdict);
        prompt
    }

    fn report_once(&self, kind: &str, name: &str, verdict: &Published) {
        if *verdict == Published::Locked {
            return;
        }
        let first = self
            .shared
            .reported
            .lock()
            .map(|mut r| r.insert(format!("{kind} {name}")))
            .unwrap_or(false);
        if first {
            if let Some(line) = report_of(kind, name, verdict) {
                eprintln!("{line}");
            }
        }
    }

    fn differs(&self, tool: &str) -> bool {
        self.shared
            .differs
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .contains(tool)
    }
}

/// The wrapper tells clients when the list it serves changes.
fn with_list_changed(mut info: ServerConfig) -> ServerConfig {
    info.capabilities
        .tools
        .get_or_insert_with(Default::default)
        .list_changed = Some(true);
    info
}

#[allow(deprecated)]
impl<S: ServerHandler> ServerHandler for Contracted<S> {
    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let mut result = self.inner.list_tools(request, context).await?;
        result.tools = std::mem::take(&mut result.tools)
            .into_iter()
            .map(|t| self.publish(t))
            .collect();
        Ok(result)
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.inner.get_tool(name).map(|t| self.publish(t))
    }

    async fn call_tool(
        &self,
        mut request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        // one contract for the whole call, even if a switch happens meanwhile
        let contract = self.contract();
        let compat = contract.compat();
        if let Some(rejected) = compat.prepare_rmcp(&mut request, &context) {
            return Ok(rejected.into());
        }
        let name = request.name.to_string();
        let mut response = self.inner.call_tool(request, context).await?;
        if !self.differs(&name) {
            compat.stamp_response(&name, &mut response);
        }
        Ok(response)
    }

    fn get_info(&self) -> ServerConfig {
        with_list_changed(self.inner.get_info())
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        self.shared.listeners.add_peer(context.peer.clone());
        self.inner.on_initialized(context).await
    }

    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        let inner = self.inner.accepted_subscription_filter(requested);
        if requested.tools_list_changed != Some(true) {
            return inner;
        }
        let mut accepted = inner.unwrap_or_default();
        accepted.tools_list_changed = Some(true);
        Some(accepted)
    }

    async fn listen(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        let sink = context.sink().clone();
        let ours = sink.accepted().tools_list_changed == Some(true);
        if ours {
            self.shared.listeners.add_subscription(sink.clone());
        }
        let result = self.inner.listen(context).await;
        if ours {
            self.shared.listeners.remove_subscription(&sink);
        }
        result
    }

    // Everything else: the inner server's own answer.

    async fn ping(&self, context: RequestContext<RoleServer>) -> Result<(), ErrorData> {
        self.inner.ping(context).await
    }
    async fn initialize(
        &self,
        request: InitializeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<InitializeResult, ErrorData> {
        self.inner
            .initialize(request, context)
            .await
            .map(with_list_changed)
    }
    fn negotiate_initialize(
        &self,
        request: &InitializeRequestParams,
    ) -> Result<InitializeResult, ErrorData> {
        self.inner
            .negotiate_initialize(request)
            .map(with_list_changed)
    }
    fn supported_protocol_versions(&self) -> std::borrow::Cow<'static, [ProtocolVersion]> {
        self.inner.supported_protocol_versions()
    }
    async fn discover(
        &self,
        context: RequestContext<RoleServer>,
    ) -> Result<DiscoverResult, ErrorData> {
        let mut result = self.inner.discover(context).await?;
        result
            .capabilities
            .tools
            .get_or_insert_with(Default::default)
            .list_changed = Some(true);
        Ok(result)
    }
    async fn complete(
        &self,
        request: CompleteRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        self.inner.complete(request, context).await
    }
    async fn set_level(
        &self,
        request: SetLevelRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.inner.set_level(request, context).await
    }
    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        self.inner.get_prompt(request, context).await
    }
    async fn list_prompts(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        let mut result = self.inner.list_prompts(request, context).await?;
        result.prompts = std::mem::take(&mut result.prompts)
            .into_iter()
            .map(|p| self.publish_prompt(p))
            .collect();
        Ok(result)
    }
    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        self.inner.list_resources(request, context).await
    }
    async fn list_resource_templates(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        self.inner.list_resource_templates(request, context).await
    }
    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        self.inner.read_resource(request, context).await
    }
    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.inner.subscribe(request, context).await
    }
    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.inner.unsubscribe(request, context).await
    }
    async fn on_custom_request(
        &self,
        request: CustomRequest,
        context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        self.inner.on_custom_request(request, context).await
    }
    async fn on_cancelled(
        &self,
        notification: CancelledNotificationParam,
        context: NotificationContext<RoleServer>,
    ) {
        self.inner.on_cancelled(notification, context).await
    }
    async fn on_progress(
        &self,
        notification: ProgressNotificationParam,
        context: NotificationContext<RoleServer>,
    ) {
        self.inner.on_progress(notification, context).await
    }
    async fn on_roots_list_changed(&self, context: NotificationContext<RoleServer>) {
        self.inner.on_roots_list_changed(context).await
    }
    async fn on_custom_notification(
        &self,
        notification: CustomNotification,
        context: NotificationContext<RoleServer>,
    ) {
        self.inner
            .on_custom_notification(notification, context)
            .await
    }
    async fn get_task(
        &self,
        request: GetTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, ErrorData> {
        self.inner.get_task(request, context).await
    }
    async fn update_task(
        &self,
        request: UpdateTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.inner.update_task(request, context).await
    }
    async fn cancel_task(
        &self,
        request: CancelTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.inner.cancel_task(request, context).await
    }
    async fn list_skills(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListSkillsResult, ErrorData> {
        self.inner.list_skills(request, context).await
    }
    async fn get_skill(
        &self,
        request: GetSkillRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetSkillResult, ErrorData> {
        self.inner.get_skill(request, context).await
    }
    async fn read_resource_directory(
        &self,
        request: ReadResourceDirectoryRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceDirectoryResult, ErrorData> {
        self.inner.read_resource_directory(request, context).await
    }
}

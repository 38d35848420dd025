//! [`McpHandler`]: the rmcp server handler over the dispatcher, written by hand because the
//! tool set comes from the registry at run time.

use std::sync::Arc;
use std::time::Duration;

use axum::http::request::Parts;
#[allow(deprecated)] // MCP logging, kept for 2025-11-25 clients (see `mcp::logging`)
use rmcp::model::SetLevelRequestParams;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, GetPromptRequestParams, GetPromptResponse,
    Implementation, ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult,
    ListToolsResult, PaginatedRequestParams, ReadResourceRequestParams, ReadResourceResponse,
    ServerCapabilities, ServerConfig, ServerNotification, SubscriptionFilter,
    ToolListChangedNotification,
};
use rmcp::service::{NotificationContext, Peer, RequestContext, SubscriptionContext};
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler};
use serde_json::Value;
use tokio::sync::watch;

use crate::auth::Caller;
use crate::dispatch::{CallOutcome, ClientSide, Dispatcher};
use crate::inference::Sampler;
use crate::mcp::convert::{error_result, success_result};
use crate::mcp::listing::advertised_tools;
use crate::mcp::logging::{self, SessionLogLevel};
use crate::mcp::sampling::{self, InputSampler, PeerSampler, SamplingRoute};
use crate::mcp::{confirmation, progress, prompts, resources};
use crate::runtime::Progress;
use crate::telemetry::propagation::RemoteParent;

/// The server name reported in `initialize` / `server/discover`.
pub const SERVER_NAME: &str = "obsidian-tc";

/// What the server tells the model about itself.
const INSTRUCTIONS: &str = "obsidian-tc serves Obsidian vaults as tools. When only \
find_capability, describe_capability, call_read_capability and call_capability are listed, \
search for a tool with find_capability, read its parameters with describe_capability, then \
call it through the envelope its call_with names (call_read_capability for read-only tools, \
call_capability for the others) or directly by its name. Paths are vault-relative. Help pages: \
obsidian-tc://help/tools/<name>. A failed call returns isError with structured {code, message, retryable, \
recovery}; follow `recovery`. Destructive calls need the user's confirmation: clients that \
speak protocol 2026-07-28 with elicitation are asked directly (input required); otherwise the \
call answers elicit_required with an args_hash: ask the user to run `obsidian-tc elicit approve \
<args_hash>`, then repeat the identical call.";

/// How often a watcher of the tool list checks whether its client has gone away.
const PEER_CHECK_INTERVAL: Duration = Duration::from_secs(10);

/// Where the caller of a request comes from.
#[derive(Debug, Clone)]
pub enum CallerSource {
    /// One caller for the whole connection (stdio).
    Fixed(Caller),
    /// The caller the auth middleware ([`crate::mcp::auth::authenticate`]) stored in each
    /// HTTP request's extensions.
    HttpRequest,
}

/// The MCP server: cheap to clone, every clone shares the dispatcher; each HTTP session gets
/// its own from [`McpHandler::for_session`].
#[derive(Debug, Clone)]
pub struct McpHandler {
    dispatcher: Arc<Dispatcher>,
    callers: CallerSource,
    log_level: SessionLogLevel,
}

impl McpHandler {
    /// A server running calls through `dispatcher` for the callers `callers` yields.
    pub fn new(dispatcher: Arc<Dispatcher>, callers: CallerSource) -> McpHandler {
        McpHandler {
            dispatcher,
            callers,
            log_level: SessionLogLevel::default(),
        }
    }

    /// A handler for a new session: the same dispatcher and callers, no log level yet.
    pub fn for_session(&self) -> McpHandler {
        McpHandler {
            log_level: SessionLogLevel::default(),
            ..self.clone()
        }
    }

    /// Sends the call's log message when the request or the session asked for its level.
    #[allow(deprecated)]
    async fn log_call(
        &self,
        context: &RequestContext<RoleServer>,
        tool: &str,
        outcome: &CallOutcome,
    ) {
        let Some(threshold) = context.meta.log_level().or_else(|| self.log_level.get()) else {
            return;
        };
        let message = logging::call_message(tool, outcome);
        if !logging::passes(message.level, threshold) {
            return;
        }
        if let Err(error) = context.peer.notify_logging_message(message).await {
            tracing::debug!("log message not delivered: {error}");
        }
    }

    /// The caller of the request in `context`.
    fn caller(&self, context: &RequestContext<RoleServer>) -> Result<Caller, McpError> {
        match &self.callers {
            CallerSource::Fixed(caller) => Ok(caller.clone()),
            CallerSource::HttpRequest => context
                .extensions
                .get::<Parts>()
                .and_then(|parts| parts.extensions.get::<Caller>())
                .cloned()
                .ok_or_else(|| {
                    McpError::internal_error(
                        "the HTTP request carries no authenticated caller",
                        None,
                    )
                }),
        }
    }
}

impl McpHandler {
    /// Runs `work` on the dispatcher on a blocking thread (resource requests run tools).
    async fn blocking<T: Send + 'static>(
        &self,
        work: impl FnOnce(&Dispatcher) -> Result<T, McpError> + Send + 'static,
    ) -> Result<T, McpError> {
        let dispatcher = Arc::clone(&self.dispatcher);
        tokio::task::spawn_blocking(move || work(&dispatcher))
            .await
            .map_err(|e| McpError::internal_error(format!("the request failed: {e}"), None))?
    }
}

/// Sends `notifications/tools/list_changed` to `peer` each time `generations` moves on, until
/// the peer's transport closes.
pub(crate) async fn forward_tool_list_changes(
    peer: Peer<RoleServer>,
    mut generations: watch::Receiver<u64>,
) {
    let mut check = tokio::time::interval(PEER_CHECK_INTERVAL);
    loop {
        tokio::select! {
            changed = generations.changed() => {
                if changed.is_err() {
                    return;
                }
                if let Err(error) = peer.notify_tool_list_changed().await {
                    tracing::debug!("tools/list_changed not delivered, client gone: {error}");
                    return;
                }
            }
            _ = check.tick() => {
                if peer.is_transport_closed() {
                    return;
                }
            }
        }
    }
}

/// Sends `notifications/tools/list_changed` on a `subscriptions/listen` stream each time
/// `generations` moves on, until the subscription ends.
/// Of a `subscriptions/listen` filter, the tool-list changes (the only list that changes while
/// the server, or the bridge, runs).
pub(crate) fn tool_list_changes_only(requested: &SubscriptionFilter) -> SubscriptionFilter {
    let mut accepted = SubscriptionFilter::new();
    if requested.tools_list_changed == Some(true) {
        accepted.tools_list_changed = Some(true);
    }
    accepted
}

pub(crate) async fn forward_to_subscription(
    subscription: &SubscriptionContext,
    mut generations: watch::Receiver<u64>,
) {
    loop {
        tokio::select! {
            changed = generations.changed() => {
                if changed.is_err() {
                    return;
                }
                let notification = ServerNotification::ToolListChangedNotification(
                    ToolListChangedNotification::default(),
                );
                if let Err(error) = subscription.sink().send(notification).await {
                    tracing::debug!("tools/list_changed not delivered, subscription gone: {error}");
                    return;
                }
            }
            () = subscription.cancelled() => return,
        }
    }
}

impl ServerHandler for McpHandler {
    #[allow(deprecated)] // `logging`, see `mcp::logging`
    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_tool_list_changed()
            .enable_resources()
            .enable_prompts()
            .enable_logging()
            .build();
        ServerConfig::new(capabilities)
            .with_server_info(Implementation::new(SERVER_NAME, env!("CARGO_PKG_VERSION")))
            .with_instructions(INSTRUCTIONS)
    }

    /// Once the client is initialized, watch the tool list for it (a reload that changes
    /// the tool visibility notifies every connected client).
    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        let generations = self.dispatcher.runtime().watch_tool_list();
        tokio::spawn(forward_tool_list_changes(context.peer, generations));
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        let caller = self.caller(&context)?;
        let served = self.dispatcher.runtime().served();
        let mode = served.config().config.tool_facade.mode;
        let tools = advertised_tools(served.registry(), &caller, mode);
        Ok(ListToolsResult::with_all_items(tools))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let caller = self.caller(&context)?;
        let protocol = context.protocol_version();
        let capabilities = context.client_capabilities();
        let input_sampler = match sampling::route(protocol.as_ref(), capabilities.as_ref()) {
            SamplingRoute::None => None,
            SamplingRoute::Request => Some(Sampling::Peer(Arc::new(PeerSampler::new(
                context.peer.clone(),
                tokio::runtime::Handle::current(),
            )))),
            SamplingRoute::InputRequest => InputSampler::resume(
                request.request_state.as_deref(),
                request.input_responses.as_ref(),
                &caller,
            )?
            .map(|sampler| Sampling::Input(Arc::new(sampler))),
        };
        // a sampling round's state is the sampler's, not a confirmation's
        let confirm_state = match &input_sampler {
            Some(Sampling::Input(_)) => None,
            _ => request.request_state.as_deref(),
        };
        let confirmed =
            match confirmation::answer(confirm_state, request.input_responses.as_ref(), &caller)? {
                Ok(confirmed) => confirmed,
                Err(refused) => return Ok(error_result(&refused).into()),
            };
        let can_ask = confirmation::can_ask(protocol.as_ref(), capabilities.as_ref());
        let dispatcher = Arc::clone(&self.dispatcher);
        let name = request.name.into_owned();
        let args = Value::Object(request.arguments.unwrap_or_default());
        let (call_caller, call_name) = (caller.clone(), name.clone());
        let reporting = context
            .meta
            .get_progress_token()
            .map(|token| progress::start(context.peer.clone(), token));
        let (sender, forwarding) = reporting.unzip();
        let parent = RemoteParent::from_w3c(
            context.meta.get_traceparent(),
            context.meta.get_tracestate(),
        );
        let sampler = input_sampler.as_ref().map(Sampling::sampler);
        let outcome = tokio::task::spawn_blocking(move || {
            RemoteParent::continuing(parent, || {
                let client = ClientSide {
                    confirmed: confirmed.as_deref(),
                    progress: sender.as_ref().map(|sender| sender as &dyn Progress),
                    sampler: sampler.as_deref(),
                };
                dispatcher.call_from_client(&call_caller, &call_name, args, &client)
            })
        })
        .await
        .map_err(|e| McpError::internal_error(format!("the tool call failed: {e}"), None))?;
        if let Some(forwarding) = forwarding {
            // Every progress notification goes out before the result.
            let _ = forwarding.await;
        }
        self.log_call(&context, &name, &outcome).await;
        let ttl = Duration::from_secs(
            self.dispatcher
                .runtime()
                .served()
                .config()
                .config
                .elicit_ttl_seconds,
        );
        if let Some(Sampling::Input(sampler)) = &input_sampler
            && let Some(input_required) = sampler.input_required(&caller, ttl)
        {
            return Ok(input_required.into());
        }
        match outcome.result {
            Ok(value) => Ok(success_result(value).into()),
            Err(error) => {
                match can_ask
                    .then(|| confirmation::ask(&error, &caller, ttl))
                    .flatten()
                {
                    Some(input_required) => Ok(input_required.into()),
                    None => Ok(error_result(&error).into()),
                }
            }
        }
    }

    /// `subscriptions/listen` (2026-07-28): of what a client may ask for, obsidian-tc sends
    /// tool-list changes (a reload that changes the visible tools); it has no prompt or
    /// resource list that changes while it runs, nor per-resource updates.
    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        Some(tool_list_changes_only(requested))
    }

    /// Runs one accepted subscription: tool-list changes until the client ends it.
    async fn listen(&self, subscription: SubscriptionContext) -> Result<(), McpError> {
        if subscription.accepted().tools_list_changed == Some(true) {
            let generations = self.dispatcher.runtime().watch_tool_list();
            forward_to_subscription(&subscription, generations).await;
        } else {
            subscription.cancelled().await;
        }
        Ok(())
    }

    /// `logging/setLevel` (2025-11-25 sessions): from now on, this session's tool calls are
    /// logged to it at `level` and above.
    #[allow(deprecated)]
    async fn set_level(
        &self,
        request: SetLevelRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), McpError> {
        self.log_level.set(request.level);
        Ok(())
    }

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, McpError> {
        let caller = self.caller(&context)?;
        let cursor = request.and_then(|request| request.cursor);
        self.blocking(move |dispatcher| resources::list(dispatcher, &caller, cursor.as_deref()))
            .await
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, McpError> {
        Ok(resources::templates())
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, McpError> {
        let caller = self.caller(&context)?;
        self.blocking(move |dispatcher| resources::read(dispatcher, &caller, &request.uri))
            .await
            .map(Into::into)
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, McpError> {
        Ok(prompts::list())
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, McpError> {
        prompts::get(&request.name, request.arguments).map(Into::into)
    }
}

/// The client's model for one call, by how the client is asked.
enum Sampling {
    /// Server-to-client requests.
    Peer(Arc<PeerSampler>),
    /// Input requests of protocol 2026-07-28.
    Input(Arc<InputSampler>),
}

impl Sampling {
    /// The sampler handed to the tool call.
    fn sampler(&self) -> Arc<dyn Sampler> {
        match self {
            Sampling::Peer(sampler) => Arc::clone(sampler) as Arc<dyn Sampler>,
            Sampling::Input(sampler) => Arc::clone(sampler) as Arc<dyn Sampler>,
        }
    }
}

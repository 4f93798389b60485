//! Handlers as rmcp users write them, for `LockedTool::rmcp_route`.
//!
//! rmcp's own `CallToolHandler` takes sync methods, free functions and
//! methods returning a boxed future, but not the handler everyone writes:
//! `async fn tool(&self, Parameters(args): Parameters<Args>) -> R`. (rmcp's
//! `#[tool]` macro rewrites such a method to return a boxed future before
//! rmcp sees it; a path to the method as written has a future that borrows
//! `&self`, which no `Fn(&S, ..) -> Fut` bound with one `Fut` can name.)
//! [`ToolHandler`] accepts both: every `CallToolHandler`, and any function
//! `for<'a> Fn(&'a S, extractors..) -> impl Future + Send + 'a`, so
//! `Args::rmcp_route(Server::tool)` works for `async fn` methods too. A
//! handler of another shape is one short error at the argument (the
//! trait's `on_unimplemented` message), not a bound deep in this crate.

use std::future::Future;
use std::marker::PhantomData;
use std::pin::Pin;

use rmcp::handler::server::common::FromContextPart;
use rmcp::handler::server::router::tool::ToolRoute;
use rmcp::handler::server::tool::{CallToolHandler, IntoCallToolResult, ToolCallContext};
use rmcp::model::{CallToolResponse, Tool};
use rmcp::ErrorData;

/// A tool handler `LockedTool::rmcp_route` can serve: an `async fn` or a
/// `fn`, on `&self` or free, taking rmcp extractors (`Parameters<Args>`,
/// `RequestContext`, `Extension<T>`, ...) and returning what rmcp's `#[tool]`
/// accepts. `Marker` only tells the shapes apart; it is inferred.
#[diagnostic::on_unimplemented(
    message = "not a tool handler: expected `async fn(&self, Parameters<Args>) -> R` or `fn(&self, Parameters<Args>) -> R`",
    label = "not a tool handler",
    note = "after `&self` (or none) come rmcp extractors (`Parameters<Args>`, `RequestContext<RoleServer>`, ...); `R` is what rmcp's `#[tool]` returns (`Result<CallToolResult, ErrorData>`, `Json<T>`, `String`, ...)"
)]
pub trait ToolHandler<S, Marker>: Sized {
    /// The route publishing `tool` and calling this handler.
    fn into_route(self, tool: Tool) -> ToolRoute<S>;
}

/// Marker: a handler rmcp's `CallToolHandler` already takes.
pub struct RmcpHandler<A>(PhantomData<fn() -> A>);

/// Marker: an `async fn` (or a function returning a future) on `&S`, with
/// the extractors `P` and the output `R`.
pub struct AsyncMethod<P, R>(PhantomData<fn(P) -> R>);

impl<S, A, H> ToolHandler<S, RmcpHandler<A>> for H
where
    S: Send + Sync + 'static,
    H: CallToolHandler<S, A> + Send + Sync + Clone + 'static,
{
    fn into_route(self, tool: Tool) -> ToolRoute<S> {
        ToolRoute::new(tool, self)
    }
}

/// `Fn(&'a S, P..) -> Fut` with `Fut: 'a`, for one lifetime: what lets a
/// bound quantify over the lifetime an `async fn`'s future borrows.
pub trait AsyncMethodFn<'a, S: 'a, P>: Send + Sync + 'static {
    /// What the future resolves to.
    type Output;
    /// The future, borrowing the server for `'a`.
    type Future: Future<Output = Self::Output> + Send + 'a;
    /// Calls the function with the server and the extracted parts.
    fn call_method(&self, server: &'a S, parts: P) -> Self::Future;
}

type BoxedResponse<'a> =
    Pin<Box<dyn Future<Output = Result<CallToolResponse, ErrorData>> + Send + 'a>>;

macro_rules! async_method {
    ($($T:ident)*) => {
        impl<'a, S: 'a, F, Fut, $($T,)*> AsyncMethodFn<'a, S, ($($T,)*)> for F
        where
            F: Fn(&'a S, $($T,)*) -> Fut + Send + Sync + 'static,
            Fut: Future + Send + 'a,
        {
            type Output = Fut::Output;
            type Future = Fut;
            #[allow(non_snake_case)]
            fn call_method(&self, server: &'a S, ($($T,)*): ($($T,)*)) -> Fut {
                self(server, $($T,)*)
            }
        }

        impl<S, H, R, $($T,)*> ToolHandler<S, AsyncMethod<($($T,)*), R>> for H
        where
            S: Send + Sync + 'static,
            H: for<'a> AsyncMethodFn<'a, S, ($($T,)*), Output = R>,
            R: IntoCallToolResult,
            $($T: for<'a> FromContextPart<ToolCallContext<'a, S>>,)*
        {
            #[allow(non_snake_case, unused_mut)]
            fn into_route(self, tool: Tool) -> ToolRoute<S> {
                ToolRoute::new_dyn(tool, move |mut context: ToolCallContext<S>| {
                    $(
                        let $T = match $T::from_context_part(&mut context) {
                            Ok(part) => part,
                            Err(e) => return Box::pin(std::future::ready(Err(e))),
                        };
                    )*
                    let future = self.call_method(context.service, ($($T,)*));
                    let response: BoxedResponse<'_> =
                        Box::pin(async move { future.await.into_call_tool_result() });
                    response
                })
            }
        }
    };
}

async_method!();
async_method!(T0);
async_method!(T0 T1);
async_method!(T0 T1 T2);
async_method!(T0 T1 T2 T3);
async_method!(T0 T1 T2 T3 T4);
async_method!(T0 T1 T2 T3 T4 T5);

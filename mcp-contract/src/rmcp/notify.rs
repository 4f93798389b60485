//! [`ListChanged`]: who to tell when the tool list a server serves changes
//! within its process, and telling them. Two kinds of listeners, one per
//! protocol generation:
//! - a session that went through `initialize` (2025-11-25 and before):
//!   its peer, told with a plain `notifications/tools/list_changed`;
//! - a `subscriptions/listen` request that accepted `toolsListChanged`
//!   (2026-07-28): its sink, which tags the notification with the
//!   subscription.
//!
//! Call [`ListChanged::notify`] only once the new list is what `tools/list`
//! answers: the notification is the client's cue to list again.

use std::sync::{Arc, Mutex};

use ::rmcp::service::{Peer, SubscriptionSink};
use ::rmcp::RoleServer;

/// Most listeners kept at once (closed ones are dropped first).
pub const MAX_LISTENERS: usize = 4096;

/// The listeners of one server (cheap to clone: clones share them).
#[derive(Clone, Default)]
pub struct ListChanged {
    listeners: Arc<Mutex<Listeners>>,
}

impl std::fmt::Debug for ListChanged {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let l = self.lock();
        f.debug_struct("ListChanged")
            .field("peers", &l.peers.len())
            .field("subscriptions", &l.sinks.len())
            .finish()
    }
}

#[derive(Default)]
struct Listeners {
    peers: Vec<Peer<RoleServer>>,
    sinks: Vec<SubscriptionSink>,
}

impl Listeners {
    fn prune(&mut self) {
        self.peers.retain(|p| !p.is_transport_closed());
        while self.peers.len() + self.sinks.len() >= MAX_LISTENERS {
            if !self.peers.is_empty() {
                self.peers.remove(0);
            } else {
                self.sinks.remove(0);
            }
        }
    }
}

impl ListChanged {
    fn lock(&self) -> std::sync::MutexGuard<'_, Listeners> {
        self.listeners.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A session initialized (`notifications/initialized`): tell its peer.
    pub fn add_peer(&self, peer: Peer<RoleServer>) {
        let mut l = self.lock();
        l.prune();
        l.peers.push(peer);
    }

    /// A `subscriptions/listen` request accepted `toolsListChanged`.
    pub fn add_subscription(&self, sink: SubscriptionSink) {
        let mut l = self.lock();
        l.prune();
        l.sinks.push(sink);
    }

    /// A subscription ended.
    pub fn remove_subscription(&self, sink: &SubscriptionSink) {
        self.lock().sinks.retain(|s| s.id() != sink.id());
    }

    /// How many listeners are registered (closed ones included until the
    /// next notification or registration).
    pub fn len(&self) -> usize {
        let l = self.lock();
        l.peers.len() + l.sinks.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Sends `notifications/tools/list_changed` to every listener; returns
    /// how many it reached. Listeners it cannot reach are dropped.
    pub async fn notify(&self) -> usize {
        let (peers, sinks) = {
            let mut l = self.lock();
            l.peers.retain(|p| !p.is_transport_closed());
            (l.peers.clone(), l.sinks.clone())
        };
        let mut reached = 0;
        for p in &peers {
            if p.notify_tool_list_changed().await.is_ok() {
                reached += 1;
            }
        }
        let mut lost_sinks = vec![];
        for s in &sinks {
            match s.notify_tool_list_changed().await {
                Ok(()) => reached += 1,
                Err(_) => lost_sinks.push(s.id().clone()),
            }
        }
        {
            let mut l = self.lock();
            l.peers.retain(|p| !p.is_transport_closed());
            l.sinks.retain(|s| !lost_sinks.contains(s.id()));
        }
        reached
    }
}

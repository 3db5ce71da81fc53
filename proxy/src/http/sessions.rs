//! The one state the HTTP proxy keeps across connections: each MCP session's
//! judge, found by its `Mcp-Session-Id`, so that the POSTs, the GET stream
//! and the DELETE of one session are judged by the judge that saw its
//! `initialize`. Bounded: past the cap the oldest session's judge is
//! forgotten (its next message is judged by a fresh judge, as a proxy
//! behind a non-sticky balancer would).

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use crate::judge::{Config, Judge};

/// A judge several requests of one session take turns with.
pub(crate) type Shared = Arc<Mutex<Judge>>;

/// Locks a judge; a judge whose lock was poisoned by a panicking holder is
/// still whole (the judge never leaves itself half-updated), so it goes on.
pub(crate) fn lock(judge: &Shared) -> MutexGuard<'_, Judge> {
    judge.lock().unwrap_or_else(PoisonError::into_inner)
}

pub(crate) struct Sessions {
    config: Arc<Config>,
    cap: usize,
    map: Mutex<Map>,
}

#[derive(Default)]
struct Map {
    judges: HashMap<String, Shared>,
    order: VecDeque<String>,
}

impl Sessions {
    pub(crate) fn new(config: Arc<Config>, cap: usize) -> Sessions {
        Sessions { config, cap, map: Mutex::default() }
    }

    pub(crate) fn fresh(&self, name: String) -> Shared {
        Arc::new(Mutex::new(Judge::new(self.config.clone(), name)))
    }

    /// The judge of session `id`, made when the proxy has not seen it.
    pub(crate) fn get(&self, id: &str) -> Shared {
        if let Some(judge) = self.map().judges.get(id) {
            return judge.clone();
        }
        let judge = self.fresh(id.to_string());
        self.adopt(id, judge.clone());
        judge
    }

    /// Files `judge` (the one that saw the session's first request) under
    /// the id the server gave the session.
    pub(crate) fn adopt(&self, id: &str, judge: Shared) {
        let mut map = self.map();
        if map.judges.insert(id.to_string(), judge).is_none() {
            map.order.push_back(id.to_string());
        }
        while map.order.len() > self.cap {
            if let Some(oldest) = map.order.pop_front() {
                map.judges.remove(&oldest);
            }
        }
    }

    pub(crate) fn contains(&self, id: &str) -> bool {
        self.map().judges.contains_key(id)
    }

    pub(crate) fn remove(&self, id: &str) {
        let mut map = self.map();
        if map.judges.remove(id).is_some() {
            map.order.retain(|kept| kept != id);
        }
    }

    fn map(&self) -> MutexGuard<'_, Map> {
        self.map.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

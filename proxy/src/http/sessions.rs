//! The one state the HTTP proxy keeps across connections: each MCP session's
//! judge, found by its `Mcp-Session-Id`, so that the POSTs, the GET stream
//! and the DELETE of one session are judged by the judge that saw its
//! `initialize`. Bounded: past the cap the oldest session's judge is
//! forgotten (its next message is judged by a fresh judge, as a proxy
//! behind a non-sticky balancer would), and a session id the proxy has not
//! seen is filed only once the server accepts a request under it (so ids a
//! client makes up fill nothing).

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

    /// The judge of session `id`, if the proxy knows the session.
    pub(crate) fn get(&self, id: &str) -> Option<Shared> {
        self.map().judges.get(id).cloned()
    }

    /// Files `judge` under session `id` (the id the server gave the session
    /// whose first request it judged, or one the server has just accepted),
    /// unless the session has one already.
    pub(crate) fn adopt(&self, id: &str, judge: Shared) {
        let mut map = self.map();
        if map.judges.contains_key(id) {
            return;
        }
        map.judges.insert(id.to_string(), judge);
        map.order.push_back(id.to_string());
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

#[cfg(test)]
mod tests {
    use super::*;

    fn sessions(cap: usize) -> Sessions {
        let options = crate::judge::Options {
            catalog: std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../protocols"),
            protocol: None,
            tools: None,
            enforce: false,
            relay: true,
            report: None,
            record: None,
            max_message: 1024,
        };
        Sessions::new(Arc::new(Config::new(options).expect("the bundled catalog")), cap)
    }

    #[test]
    fn a_session_keeps_its_first_judge_and_the_oldest_goes_past_the_cap() {
        let sessions = sessions(2);
        let first = sessions.fresh("a".into());
        sessions.adopt("a", first.clone());
        sessions.adopt("a", sessions.fresh("again".into()));
        assert!(Arc::ptr_eq(&sessions.get("a").expect("filed"), &first));
        sessions.adopt("b", sessions.fresh("b".into()));
        sessions.adopt("c", sessions.fresh("c".into()));
        assert!(sessions.get("a").is_none());
        assert!(sessions.contains("b") && sessions.contains("c"));
        sessions.remove("b");
        assert!(!sessions.contains("b"));
        assert!(sessions.get("unknown").is_none());
    }
}

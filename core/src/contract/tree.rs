//! The compiled path tree: the contract's dotted paths merged into one tree of
//! object keys and array steps, with the conflicts between them found, which
//! `schema/lower.rs` turns into the schema graph every engine reads. A node
//! is either declared (a field names its exact path) or implied (a parent
//! that only exists because a child names it).

use std::collections::HashMap;

use super::{FieldSpec, JsonType, TypeSet};

/// A position in the contract's shape.
#[derive(Debug, Clone, Default)]
pub(crate) struct Node {
    /// The field declared at exactly this path, if any.
    pub field: Option<usize>,
    /// Object keys below this node, in contract order.
    pub keys: Vec<Child>,
    /// Where each key sits in `keys`, while the tree is built (boxed: a
    /// pointer in every node, dropped once built).
    #[allow(clippy::box_collection)] // a pointer, not an inline 48-byte map, in every node
    pub index: Option<Box<HashMap<Box<str>, usize>>>,
    /// The node for every element, when paths step into this array.
    pub items: Option<Box<Node>>,
    /// The node for every value of a key `keys` does not hold, when paths
    /// step into this object as a map (`name{}`).
    pub values: Option<Box<Node>>,
    /// Declared: the field's flag. Implied: whether any child is required.
    pub required: bool,
    /// An object that allows only the keys declared below it (`closed` on
    /// the field, or on the contract for the root).
    pub closed: bool,
}

#[derive(Debug, Clone)]
pub(crate) struct Child {
    pub key: Box<str>,
    pub node: Node,
}

impl Node {
    /// What an implied node must be: an object, an array, or either.
    pub fn implied_types(&self) -> TypeSet {
        let mut t = TypeSet::EMPTY;
        if !self.keys.is_empty() || self.values.is_some() {
            t = t.with(JsonType::Object);
        }
        if self.items.is_some() {
            t = t.with(JsonType::Array);
        }
        t
    }

    /// The lowest field index declared in this subtree (for messages).
    fn first_field(&self) -> Option<usize> {
        let own = self.field.into_iter();
        let keys = self.keys.iter().filter_map(|c| c.node.first_field());
        let items = self.items.iter().chain(&self.values).filter_map(|n| n.first_field());
        own.chain(keys).chain(items).min()
    }
}

/// A field whose declaration conflicts with the paths below it.
pub(crate) struct Conflict {
    pub field: usize,
    pub message: String,
}

/// Merges the fields' paths into one tree. Paths are known to be distinct.
/// `closed`: the contract-level flag, for the root.
pub(crate) fn build(fields: &[FieldSpec], closed: bool) -> Result<Node, Vec<Conflict>> {
    let mut root = Node { closed, ..Node::default() };
    for (i, f) in fields.iter().enumerate() {
        let mut node = &mut root;
        for seg in f.path.segments() {
            let index = node.index.get_or_insert_with(Box::default);
            let at = match index.get(seg.key.as_str()) {
                Some(&at) => at,
                None => {
                    index.insert(seg.key.as_str().into(), node.keys.len());
                    node.keys.push(Child { key: seg.key.as_str().into(), node: Node::default() });
                    node.keys.len() - 1
                }
            };
            node = &mut node.keys[at].node;
            for step in &seg.steps {
                node = match step {
                    super::Step::Items => node.items.get_or_insert_with(Box::default),
                    super::Step::Values => node.values.get_or_insert_with(Box::default),
                };
            }
        }
        node.field = Some(i);
        node.closed = f.closed;
    }
    let mut conflicts = Vec::new();
    settle(&mut root, fields, &mut conflicts);
    shrink(&mut root);
    if conflicts.is_empty() {
        Ok(root)
    } else {
        conflicts.sort_by_key(|c| c.field);
        Err(conflicts)
    }
}

/// Gives back what building needed and the tree no longer does: the key
/// indexes, and what growing the key lists left unused (a contract of a
/// million fields would otherwise hold up to twice the tree it needs).
fn shrink(node: &mut Node) {
    node.keys.shrink_to_fit();
    node.index = None;
    for c in &mut node.keys {
        shrink(&mut c.node);
    }
    if let Some(items) = &mut node.items {
        shrink(items);
    }
    if let Some(values) = &mut node.values {
        shrink(values);
    }
}

/// Computes `required` bottom-up and reports declared parents whose type
/// cannot hold their children.
fn settle(node: &mut Node, fields: &[FieldSpec], conflicts: &mut Vec<Conflict>) {
    for c in &mut node.keys {
        settle(&mut c.node, fields, conflicts);
    }
    if let Some(items) = &mut node.items {
        settle(items, fields, conflicts);
    }
    if let Some(values) = &mut node.values {
        settle(values, fields, conflicts);
    }
    match node.field {
        Some(f) => {
            let spec = &fields[f];
            node.required = spec.required;
            let child =
                node.keys.iter().map(|c| &c.node).chain(node.values.as_deref()).filter_map(Node::first_field).min();
            if let Some(child) = child.filter(|_| !spec.types.contains(JsonType::Object)) {
                conflicts.push(Conflict {
                    field: f,
                    message: format!(
                        "'{}' is declared as {}, so it cannot have the child field '{}'",
                        spec.path, spec.types, fields[child].path
                    ),
                });
            }
            if let Some(values) = node.values.as_ref().and_then(|n| n.first_field()).filter(|_| spec.closed) {
                conflicts.push(Conflict {
                    field: f,
                    message: format!(
                        "'{}' is closed, so it cannot have the map values '{}' (a closed object allows only its declared keys)",
                        spec.path, fields[values].path
                    ),
                });
            }
            let element = node.items.as_ref().and_then(|n| n.first_field());
            if let Some(element) = element.filter(|_| !spec.types.contains(JsonType::Array)) {
                conflicts.push(Conflict {
                    field: f,
                    message: format!(
                        "'{}' is declared as {}, so it cannot have the array field '{}'",
                        spec.path, spec.types, fields[element].path
                    ),
                });
            }
        }
        None => {
            node.required =
                node.keys.iter().any(|c| c.node.required) || node.items.as_ref().is_some_and(|n| n.required);
        }
    }
}

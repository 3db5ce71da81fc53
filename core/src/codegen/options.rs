//! What the user asks of generated types, and the one place type names are
//! handed out: `rename(Old = New)` (a generated name becomes another),
//! `replace(Def = path::To)` (a `$defs` type is the user's own, generated
//! nowhere) and `derives(Trait, ...)` (added to every generated type's
//! derive list). Every name in one module goes through one [`Naming`], so
//! no two items collide, and an option naming no generated type is an error
//! rather than silently ignored.

use std::collections::{BTreeMap, HashSet};

use proc_macro2::TokenStream;
use quote::quote;

/// The `rename`, `replace` and `derives` options of an attribute.
#[derive(Clone, Default)]
pub struct Options {
    /// Generated name -> the name to use instead, in the order written.
    pub rename: Vec<(String, String)>,
    /// `$defs` type name -> the user's type (a path) used in its place.
    pub replace: Vec<(String, TokenStream)>,
    /// Extra derives for every generated type (paths, as written).
    pub derives: Vec<TokenStream>,
}

/// Type names handed out so far in one generated module, and the options
/// that steer them.
pub struct Naming {
    opts: Options,
    taken: HashSet<String>,
    /// Option keys (`rename` or `replace` left-hand sides) that matched.
    used: HashSet<String>,
    /// The type names of the `$defs` entries seen so far: a name made up
    /// for another type does not take one.
    definitions: HashSet<String>,
}

impl Naming {
    /// A naming for one module; `reserved` names are already taken.
    pub fn new(opts: Options, reserved: impl IntoIterator<Item = String>) -> Naming {
        Naming { opts, taken: reserved.into_iter().collect(), used: HashSet::new(), definitions: HashSet::new() }
    }

    /// The name of a type that wants to be `wanted`: its `rename` if one is
    /// given, made unique (`Name2`, `Name3`...) when another type has it.
    pub fn name(&mut self, wanted: &str) -> String {
        let name = match self.opts.rename.iter().find(|(from, _)| from == wanted) {
            Some((from, to)) => {
                self.used.insert(from.clone());
                to.clone()
            }
            None => wanted.to_string(),
        };
        super::unique(name, &mut self.taken)
    }

    /// The user's type standing for the `$defs` type that would be named
    /// `wanted`, when `replace` names it.
    pub fn replacement(&mut self, wanted: &str) -> Option<TokenStream> {
        let (from, to) = self.opts.replace.iter().find(|(from, _)| from == wanted)?;
        self.used.insert(from.clone());
        Some(to.clone())
    }

    /// Records the type names of `$defs` entries.
    pub fn definitions(&mut self, names: impl IntoIterator<Item = String>) {
        self.definitions.extend(names);
    }

    /// Whether a `$defs` entry seen so far is named `name`.
    pub fn is_definition(&self, name: &str) -> bool {
        self.definitions.contains(name)
    }

    /// Whether `name` is taken.
    pub fn is_taken(&self, name: &str) -> bool {
        self.taken.contains(name)
    }

    /// The derive attributes of every generated type: serde's, then the
    /// user's `derives`.
    pub fn derives(&self) -> TokenStream {
        let extra = &self.opts.derives;
        quote! {
            #[derive(Debug, Clone, PartialEq, ::protocolarc::__private::serde::Serialize, ::protocolarc::__private::serde::Deserialize #(, #extra)*)]
            #[serde(crate = "::protocolarc::__private::serde")]
        }
    }

    /// An error naming each `rename` or `replace` key that matched no
    /// generated type, with the names that exist nearest to it.
    pub fn unused(&self, what: &str) -> Result<(), String> {
        let mut missing = BTreeMap::new();
        for (key, option) in self
            .opts
            .rename
            .iter()
            .map(|(k, _)| (k, "rename"))
            .chain(self.opts.replace.iter().map(|(k, _)| (k, "replace")))
        {
            if !self.used.contains(key) {
                missing.insert(key.clone(), option);
            }
        }
        let Some((key, option)) = missing.into_iter().next() else { return Ok(()) };
        let mut names: Vec<&String> = self.taken.iter().collect();
        names.sort();
        let near: Vec<&str> = names
            .iter()
            .filter(|n| {
                n.to_lowercase().contains(&key.to_lowercase()) || key.to_lowercase().contains(&n.to_lowercase())
            })
            .take(5)
            .map(|n| n.as_str())
            .collect();
        let hint =
            if near.is_empty() { String::new() } else { format!(" (types with a like name: {})", near.join(", ")) };
        let which = if option == "replace" { "`$defs` " } else { "" };
        Err(format!("{option}({key} = ...): {what} generates no {which}type named `{key}`{hint}"))
    }
}

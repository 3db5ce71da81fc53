//! The JSON Schema keywords the product knows, one record each: the one
//! place a keyword's name is spelled ([`name`]), the JSON types it applies
//! to, what it is (an assertion, an annotation, an applicator, or where
//! schemas live and how they are named), what its value holds, which draft
//! spells it, whether the fields form spells it too, and the rules its
//! findings and its changes between two revisions carry.
//!
//! Every other list of keywords reads this one: export's field keys,
//! `describe`'s columns, the loss dialects' rows, the fields form's loader.

use super::values::{JsonType, TypeSet};
use crate::rules;
use crate::rules::Rule;

/// Each keyword's name as contracts, schemas and messages spell it: the one
/// place the text is written.
pub mod name {
    /// `type`.
    pub const TYPE: &str = "type";
    /// `enum`.
    pub const ENUM: &str = "enum";
    /// `const`.
    pub const CONST: &str = "const";
    /// `required`.
    pub const REQUIRED: &str = "required";
    /// `properties`.
    pub const PROPERTIES: &str = "properties";
    /// `additionalProperties`.
    pub const ADDITIONAL_PROPERTIES: &str = "additionalProperties";
    /// `patternProperties`.
    pub const PATTERN_PROPERTIES: &str = "patternProperties";
    /// `propertyNames`.
    pub const PROPERTY_NAMES: &str = "propertyNames";
    /// `minProperties`.
    pub const MIN_PROPERTIES: &str = "minProperties";
    /// `maxProperties`.
    pub const MAX_PROPERTIES: &str = "maxProperties";
    /// `dependentRequired`.
    pub const DEPENDENT_REQUIRED: &str = "dependentRequired";
    /// `dependentSchemas`.
    pub const DEPENDENT_SCHEMAS: &str = "dependentSchemas";
    /// `items`.
    pub const ITEMS: &str = "items";
    /// `prefixItems`.
    pub const PREFIX_ITEMS: &str = "prefixItems";
    /// `contains`.
    pub const CONTAINS: &str = "contains";
    /// `minContains`.
    pub const MIN_CONTAINS: &str = "minContains";
    /// `maxContains`.
    pub const MAX_CONTAINS: &str = "maxContains";
    /// `minItems`.
    pub const MIN_ITEMS: &str = "minItems";
    /// `maxItems`.
    pub const MAX_ITEMS: &str = "maxItems";
    /// `uniqueItems`.
    pub const UNIQUE_ITEMS: &str = "uniqueItems";
    /// `allOf`.
    pub const ALL_OF: &str = "allOf";
    /// `anyOf`.
    pub const ANY_OF: &str = "anyOf";
    /// `oneOf`.
    pub const ONE_OF: &str = "oneOf";
    /// `not`.
    pub const NOT: &str = "not";
    /// `if`.
    pub const IF: &str = "if";
    /// `then`.
    pub const THEN: &str = "then";
    /// `else`.
    pub const ELSE: &str = "else";
    /// `$ref`.
    pub const REF: &str = "$ref";
    /// `$defs`.
    pub const DEFS: &str = "$defs";
    /// `$anchor`.
    pub const ANCHOR: &str = "$anchor";
    /// `unevaluatedProperties`.
    pub const UNEVALUATED_PROPERTIES: &str = "unevaluatedProperties";
    /// `unevaluatedItems`.
    pub const UNEVALUATED_ITEMS: &str = "unevaluatedItems";
    /// `$dynamicRef`.
    pub const DYNAMIC_REF: &str = "$dynamicRef";
    /// `$dynamicAnchor`.
    pub const DYNAMIC_ANCHOR: &str = "$dynamicAnchor";
    /// `format`.
    pub const FORMAT: &str = "format";
    /// `minimum`.
    pub const MINIMUM: &str = "minimum";
    /// `maximum`.
    pub const MAXIMUM: &str = "maximum";
    /// `exclusiveMinimum`.
    pub const EXCLUSIVE_MINIMUM: &str = "exclusiveMinimum";
    /// `exclusiveMaximum`.
    pub const EXCLUSIVE_MAXIMUM: &str = "exclusiveMaximum";
    /// `multipleOf`.
    pub const MULTIPLE_OF: &str = "multipleOf";
    /// `minLength`.
    pub const MIN_LENGTH: &str = "minLength";
    /// `maxLength`.
    pub const MAX_LENGTH: &str = "maxLength";
    /// `pattern`.
    pub const PATTERN: &str = "pattern";
    /// `title`.
    pub const TITLE: &str = "title";
    /// `description`.
    pub const DESCRIPTION: &str = "description";
    /// `default`.
    pub const DEFAULT: &str = "default";
    /// `examples`.
    pub const EXAMPLES: &str = "examples";
    /// `deprecated`.
    pub const DEPRECATED: &str = "deprecated";
    /// `readOnly`.
    pub const READ_ONLY: &str = "readOnly";
    /// `writeOnly`.
    pub const WRITE_ONLY: &str = "writeOnly";
    /// `$comment`.
    pub const COMMENT: &str = "$comment";
    /// `$schema`.
    pub const SCHEMA: &str = "$schema";
    /// `$id`.
    pub const ID: &str = "$id";
    /// `$vocabulary` (a meta-schema's; no effect on the instances of a
    /// schema that carries it).
    pub const VOCABULARY: &str = "$vocabulary";
    /// `contentSchema` (an annotation in 2020-12, as the rest of the
    /// content vocabulary).
    pub const CONTENT_SCHEMA: &str = "contentSchema";
    /// `contentMediaType`.
    pub const CONTENT_MEDIA_TYPE: &str = "contentMediaType";
    /// `contentEncoding`.
    pub const CONTENT_ENCODING: &str = "contentEncoding";
    /// `definitions` (draft-07's `$defs`).
    pub const DEFINITIONS: &str = "definitions";
    /// `dependencies` (draft-07's `dependentRequired` and `dependentSchemas`).
    pub const DEPENDENCIES: &str = "dependencies";
    /// `additionalItems` (draft-07's `items` after a list of `items`).
    pub const ADDITIONAL_ITEMS: &str = "additionalItems";
}

/// What a keyword does to the value it sits on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// Passes or fails the value by itself (`minLength`).
    Assertion,
    /// Kept and shown, never enforced (`title`).
    Annotation,
    /// Applies subschemas to the value or its parts (`properties`, `anyOf`).
    Applicator,
    /// Where subschemas live and how they are named and reached (`$defs`,
    /// `$anchor`, `$ref`).
    Location,
}

/// What a keyword's value holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Holds {
    /// A plain JSON value (a number, a name, a list of names).
    Value,
    /// One schema.
    Schema,
    /// An object of schemas.
    SchemaMap,
    /// An array of schemas.
    SchemaList,
}

/// Which drafts spell a keyword.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Draft {
    /// Draft-07 and 2020-12 alike.
    Both,
    /// Came after draft-07: a draft-07 validator ignores it.
    Later,
    /// Draft-07's spelling only: a contract refuses it (`import` converts it).
    Draft07,
}

/// One JSON Schema keyword, everything said about it in one place.
#[derive(Debug, PartialEq)]
pub struct Keyword {
    /// The name, from [`name`].
    pub name: &'static str,
    /// The JSON types whose values it judges or reaches into (every type
    /// for the keywords that judge any value).
    pub applies_to: TypeSet,
    /// What it does.
    pub role: Role,
    /// What its value holds.
    pub holds: Holds,
    /// Which drafts spell it.
    pub draft: Draft,
    /// Whether a fields-form field spells it as a key of its own.
    pub fields_form: bool,
    /// The validation rule of its findings, when it has one.
    pub rule: Option<&'static Rule>,
    /// The ids of the change rules (`diff/rules.rs`) a change of it between
    /// two revisions is judged by.
    pub changes: &'static [&'static str],
}

const ANY: TypeSet = TypeSet::ANY;
const STRING: TypeSet = TypeSet::of(JsonType::String);
const NUMBER: TypeSet = TypeSet::of(JsonType::Number).with(JsonType::Integer);
const OBJECT: TypeSet = TypeSet::of(JsonType::Object);
const ARRAY: TypeSet = TypeSet::of(JsonType::Array);

const fn kw(name: &'static str, applies_to: TypeSet, role: Role, holds: Holds) -> Keyword {
    Keyword { name, applies_to, role, holds, draft: Draft::Both, fields_form: false, rule: None, changes: &[] }
}

const fn assertion(name: &'static str, applies_to: TypeSet, rule: &'static Rule) -> Keyword {
    kw(name, applies_to, Role::Assertion, Holds::Value).rule(rule)
}

const fn annotation(name: &'static str) -> Keyword {
    kw(name, ANY, Role::Annotation, Holds::Value)
}

const fn applicator(name: &'static str, applies_to: TypeSet, holds: Holds) -> Keyword {
    kw(name, applies_to, Role::Applicator, holds)
}

impl Keyword {
    const fn rule(mut self, rule: &'static Rule) -> Keyword {
        self.rule = Some(rule);
        self
    }

    const fn changes(mut self, ids: &'static [&'static str]) -> Keyword {
        self.changes = ids;
        self
    }

    const fn fields_form(mut self) -> Keyword {
        self.fields_form = true;
        self
    }

    const fn draft(mut self, draft: Draft) -> Keyword {
        self.draft = draft;
        self
    }
}

/// Every keyword the product knows, in the order the schema form lists
/// them: assertions, applicators, where schemas live, annotations, then
/// draft-07's spellings.
pub const KEYWORDS: &[Keyword] =
    &[
        assertion(name::TYPE, ANY, rules::FIELD_TYPE)
            .changes(&["field.type.narrowed", "field.type.widened", "field.type.changed"])
            .fields_form(),
        assertion(name::ENUM, ANY, rules::FIELD_ENUM)
            .changes(&["field.enum.added", "field.enum.removed", "field.enum.restricted", "field.enum.expanded"])
            .fields_form(),
        assertion(name::CONST, ANY, rules::FIELD_CONST).fields_form(),
        assertion(name::REQUIRED, OBJECT, rules::FIELD_REQUIRED)
            .changes(&[
                "field.required.tightened",
                "field.required.relaxed",
                "field.added.required",
                "field.removed.required",
            ])
            .fields_form(),
        assertion(name::MIN_PROPERTIES, OBJECT, rules::FIELD_MIN_PROPERTIES)
            .changes(&["field.minProperties.tightened", "field.minProperties.relaxed"]),
        assertion(name::MAX_PROPERTIES, OBJECT, rules::FIELD_MAX_PROPERTIES)
            .changes(&["field.maxProperties.tightened", "field.maxProperties.relaxed"]),
        assertion(name::DEPENDENT_REQUIRED, OBJECT, rules::FIELD_DEPENDENT_REQUIRED)
            .changes(&[
                "field.dependentRequired.tightened",
                "field.dependentRequired.relaxed",
                "field.dependentRequired.changed",
            ])
            .draft(Draft::Later),
        assertion(name::MIN_CONTAINS, ARRAY, rules::FIELD_MIN_CONTAINS)
            .changes(&["field.minContains.tightened", "field.minContains.relaxed"])
            .draft(Draft::Later),
        assertion(name::MAX_CONTAINS, ARRAY, rules::FIELD_MAX_CONTAINS)
            .changes(&["field.maxContains.tightened", "field.maxContains.relaxed"])
            .draft(Draft::Later),
        assertion(name::MIN_ITEMS, ARRAY, rules::FIELD_MIN_ITEMS)
            .changes(&["field.minItems.tightened", "field.minItems.relaxed"])
            .fields_form(),
        assertion(name::MAX_ITEMS, ARRAY, rules::FIELD_MAX_ITEMS)
            .changes(&["field.maxItems.tightened", "field.maxItems.relaxed"])
            .fields_form(),
        assertion(name::UNIQUE_ITEMS, ARRAY, rules::FIELD_UNIQUE_ITEMS)
            .changes(&["field.uniqueItems.tightened", "field.uniqueItems.relaxed"])
            .fields_form(),
        assertion(name::FORMAT, STRING, rules::FIELD_FORMAT)
            .changes(&["field.format.tightened", "field.format.relaxed", "field.format.changed"])
            .fields_form(),
        assertion(name::MINIMUM, NUMBER, rules::FIELD_MINIMUM)
            .changes(&["field.minimum.tightened", "field.minimum.relaxed"])
            .fields_form(),
        assertion(name::MAXIMUM, NUMBER, rules::FIELD_MAXIMUM)
            .changes(&["field.maximum.tightened", "field.maximum.relaxed"])
            .fields_form(),
        assertion(name::EXCLUSIVE_MINIMUM, NUMBER, rules::FIELD_EXCLUSIVE_MINIMUM)
            .changes(&["field.minimum.tightened", "field.minimum.relaxed"])
            .fields_form(),
        assertion(name::EXCLUSIVE_MAXIMUM, NUMBER, rules::FIELD_EXCLUSIVE_MAXIMUM)
            .changes(&["field.maximum.tightened", "field.maximum.relaxed"])
            .fields_form(),
        assertion(name::MULTIPLE_OF, NUMBER, rules::FIELD_MULTIPLE_OF)
            .changes(&["field.multipleOf.tightened", "field.multipleOf.relaxed", "field.multipleOf.changed"])
            .fields_form(),
        assertion(name::MIN_LENGTH, STRING, rules::FIELD_MIN_LENGTH)
            .changes(&["field.minLength.tightened", "field.minLength.relaxed"])
            .fields_form(),
        assertion(name::MAX_LENGTH, STRING, rules::FIELD_MAX_LENGTH)
            .changes(&["field.maxLength.tightened", "field.maxLength.relaxed"])
            .fields_form(),
        assertion(name::PATTERN, STRING, rules::FIELD_PATTERN)
            .changes(&["field.pattern.tightened", "field.pattern.relaxed", "field.pattern.changed"])
            .fields_form(),
        applicator(name::PROPERTIES, OBJECT, Holds::SchemaMap).changes(&[
            "field.added.optional",
            "field.added.required",
            "field.removed.optional",
            "field.removed.required",
        ]),
        applicator(name::ADDITIONAL_PROPERTIES, OBJECT, Holds::Schema)
            .rule(rules::FIELD_ADDITIONAL_PROPERTIES)
            .changes(&["field.closed.enabled", "field.closed.disabled", "field.added.closed", "field.removed.closed"]),
        applicator(name::PATTERN_PROPERTIES, OBJECT, Holds::SchemaMap),
        applicator(name::PROPERTY_NAMES, OBJECT, Holds::Schema).rule(rules::FIELD_PROPERTY_NAMES).changes(&[
            "field.propertyNames.tightened",
            "field.propertyNames.relaxed",
            "field.propertyNames.changed",
        ]),
        applicator(name::DEPENDENT_SCHEMAS, OBJECT, Holds::SchemaMap).draft(Draft::Later),
        applicator(name::ITEMS, ARRAY, Holds::Schema).rule(rules::FIELD_ITEMS),
        applicator(name::PREFIX_ITEMS, ARRAY, Holds::SchemaList).draft(Draft::Later),
        applicator(name::CONTAINS, ARRAY, Holds::Schema).rule(rules::FIELD_CONTAINS).changes(&[
            "field.contains.tightened",
            "field.contains.relaxed",
            "field.contains.changed",
        ]),
        applicator(name::ALL_OF, ANY, Holds::SchemaList).changes(&UNION),
        applicator(name::ANY_OF, ANY, Holds::SchemaList).rule(rules::FIELD_ANY_OF).changes(&UNION),
        applicator(name::ONE_OF, ANY, Holds::SchemaList).rule(rules::FIELD_ONE_OF).changes(&UNION),
        applicator(name::NOT, ANY, Holds::Schema).rule(rules::FIELD_NOT).changes(&[
            "field.not.tightened",
            "field.not.relaxed",
            "field.not.changed",
        ]),
        applicator(name::IF, ANY, Holds::Schema),
        applicator(name::THEN, ANY, Holds::Schema),
        applicator(name::ELSE, ANY, Holds::Schema),
        kw(name::REF, ANY, Role::Location, Holds::Value),
        kw(name::DEFS, ANY, Role::Location, Holds::SchemaMap),
        kw(name::ANCHOR, ANY, Role::Location, Holds::Value).draft(Draft::Later),
        // Their findings carry the rules of the closed object and of `items: false`.
        applicator(name::UNEVALUATED_PROPERTIES, OBJECT, Holds::Schema).draft(Draft::Later),
        applicator(name::UNEVALUATED_ITEMS, ARRAY, Holds::Schema).draft(Draft::Later),
        kw(name::DYNAMIC_REF, ANY, Role::Location, Holds::Value).draft(Draft::Later),
        kw(name::DYNAMIC_ANCHOR, ANY, Role::Location, Holds::Value).draft(Draft::Later),
        annotation(name::TITLE).changes(&["annotation.changed"]),
        annotation(name::DESCRIPTION).changes(&["annotation.changed"]),
        annotation(name::DEFAULT).changes(&["field.default.changed"]),
        annotation(name::EXAMPLES),
        annotation(name::DEPRECATED),
        annotation(name::READ_ONLY),
        annotation(name::WRITE_ONLY),
        annotation(name::COMMENT),
        annotation(name::SCHEMA),
        annotation(name::ID),
        annotation(name::VOCABULARY).draft(Draft::Later),
        annotation(name::CONTENT_MEDIA_TYPE),
        annotation(name::CONTENT_ENCODING),
        annotation(name::CONTENT_SCHEMA).draft(Draft::Later),
        kw(name::DEFINITIONS, ANY, Role::Location, Holds::SchemaMap).draft(Draft::Draft07),
        applicator(name::DEPENDENCIES, OBJECT, Holds::SchemaMap).draft(Draft::Draft07),
        applicator(name::ADDITIONAL_ITEMS, ARRAY, Holds::Schema).draft(Draft::Draft07),
    ];

/// The change rules of a union's members and kind.
const UNION: [&str; 4] = ["union.member.added", "union.member.removed", "union.kind.relaxed", "union.kind.tightened"];

/// The record of the keyword spelled `name`.
pub fn find(name: &str) -> Option<&'static Keyword> {
    KEYWORDS.iter().find(|k| k.name == name)
}

/// The names of the keywords of `role`, in registry order.
pub fn names(role: Role) -> impl Iterator<Item = &'static str> {
    KEYWORDS.iter().filter(move |k| k.role == role).map(|k| k.name)
}

/// The keywords a fields-form field spells as keys of its own, in registry
/// order.
pub fn fields_form() -> impl Iterator<Item = &'static str> {
    KEYWORDS.iter().filter(|k| k.fields_form).map(|k| k.name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_name_has_one_record() {
        for (i, k) in KEYWORDS.iter().enumerate() {
            assert!(KEYWORDS[..i].iter().all(|e| e.name != k.name), "{} twice", k.name);
            assert_eq!(find(k.name), Some(k));
        }
        assert_eq!(find("unevaluatedFoo"), None);
    }

    #[test]
    fn a_validation_rule_is_named_for_its_keyword() {
        for k in KEYWORDS {
            if let Some(rule) = k.rule {
                assert_eq!(rule.id, format!("field.{}", k.name), "{}", k.name);
            }
        }
    }

    fn sorted(mut names: Vec<&'static str>) -> Vec<&'static str> {
        names.sort_unstable();
        names
    }

    fn which(f: impl Fn(&Keyword) -> bool) -> Vec<&'static str> {
        sorted(KEYWORDS.iter().filter(|k| f(k)).map(|k| k.name).collect())
    }

    /// The keyword lists that import and the schema compiler still spell out
    /// are these queries of the registry.
    #[test]
    fn the_separate_keyword_lists_are_queries_of_the_registry() {
        let current = |k: &Keyword| k.draft != Draft::Draft07;
        // What import and the compiler take as assertions: what a schema validates with a plain value.
        let assertions = which(|k| current(k) && k.holds == Holds::Value && k.role != Role::Annotation);
        let expected = [
            "type",
            "enum",
            "const",
            "required",
            "minProperties",
            "maxProperties",
            "dependentRequired",
            "minContains",
            "maxContains",
            "minItems",
            "maxItems",
            "uniqueItems",
            "$ref",
            "$anchor",
            "$dynamicRef",
            "$dynamicAnchor",
            "format",
            "minimum",
            "maximum",
            "exclusiveMinimum",
            "exclusiveMaximum",
            "multipleOf",
            "minLength",
            "maxLength",
            "pattern",
        ];
        assert_eq!(assertions, sorted(expected.to_vec()));
        // What import and loss walk into: one schema, a map of them, a list of them.
        let one = [
            "additionalProperties",
            "propertyNames",
            "contains",
            "not",
            "if",
            "then",
            "else",
            "items",
            "unevaluatedProperties",
            "unevaluatedItems",
        ];
        assert_eq!(which(|k| current(k) && k.holds == Holds::Schema), sorted(one.to_vec()));
        let map = ["properties", "patternProperties", "$defs", "dependentSchemas"];
        assert_eq!(which(|k| current(k) && k.holds == Holds::SchemaMap), sorted(map.to_vec()));
        let list = ["anyOf", "oneOf", "allOf", "prefixItems"];
        assert_eq!(which(|k| current(k) && k.holds == Holds::SchemaList), sorted(list.to_vec()));
        // What a draft-07 document may not use, and the compiler's `DRAFT_07`.
        let later = [
            "prefixItems",
            "dependentRequired",
            "dependentSchemas",
            "minContains",
            "maxContains",
            "$anchor",
            "unevaluatedProperties",
            "unevaluatedItems",
            "$dynamicRef",
            "$dynamicAnchor",
            "$vocabulary",
            "contentSchema",
        ];
        assert_eq!(which(|k| k.draft == Draft::Later), sorted(later.to_vec()));
        let draft_07 = ["definitions", "dependencies", "additionalItems"];
        assert_eq!(which(|k| k.draft == Draft::Draft07), sorted(draft_07.to_vec()));
        // The schema form's `ANNOTATIONS`, in its order.
        let annotations: Vec<&str> = names(Role::Annotation).collect();
        let expected = [
            "title",
            "description",
            "default",
            "examples",
            "deprecated",
            "readOnly",
            "writeOnly",
            "$comment",
            "$schema",
            "$id",
            "$vocabulary",
            "contentMediaType",
            "contentEncoding",
            "contentSchema",
        ];
        assert_eq!(annotations, expected);
        // The fields form's keys that are keywords (export's field keys).
        let fields: Vec<&str> = fields_form().collect();
        let expected = [
            "type",
            "enum",
            "const",
            "required",
            "minItems",
            "maxItems",
            "uniqueItems",
            "format",
            "minimum",
            "maximum",
            "exclusiveMinimum",
            "exclusiveMaximum",
            "multipleOf",
            "minLength",
            "maxLength",
            "pattern",
        ];
        assert_eq!(fields, expected);
    }
}

//! The validation rules, one record each: the validator emits these
//! records (a finding takes its severity from its rule, never from the
//! emitting site), and `rules`, `--help`, the docs and the tests read their
//! summaries and explanations here. A new validation rule starts with a record.

use serde::Serialize;

/// A validation rule: everything said about it, in one place.
#[derive(Debug, PartialEq, Eq)]
pub struct Rule {
    /// The id findings carry: `field.maxLength`.
    pub id: &'static str,
    /// The severity of every finding of this rule.
    pub severity: Severity,
    /// One line: when the rule fires.
    pub summary: &'static str,
    /// Why the rule exists and what exactly it checks.
    pub explanation: &'static str,
    /// A contract field and a body that the rule flags.
    pub example: &'static str,
    /// How to make the finding go away.
    pub fix: &'static str,
}

macro_rules! rules {
    ($($name:ident = $id:literal, $sev:ident, $summary:literal,
        explanation: $explanation:literal, example: $example:literal, fix: $fix:literal;)*) => {
        $(
            #[doc = $summary]
            pub const $name: &Rule = &Rule {
                id: $id, severity: Severity::$sev, summary: $summary,
                explanation: $explanation, example: $example, fix: $fix,
            };
        )*
        /// Every validation rule, in the order the README lists them.
        pub const VALIDATION_RULES: &[&Rule] = &[$($name,)*];
    };
}

rules! {
    CONTRACT_MATCH = "contract.match", Error, "the envelope names another contract",
        explanation: "An envelope says which contract its data follows. Validating it against a contract of another name is almost always a routing mistake, so the envelope fails even when its data would pass.",
        example: "contract mcp.tool_call; envelope {\"contract\": \"mcp.tool_result\", \"data\": {...}}",
        fix: "Send the envelope to the contract it names, or correct its `contract` key.";
    REVISION_HINT = "revision.hint", Warning, "the envelope's revision differs from the contract's",
        explanation: "An envelope may declare the revision it was written for. A different revision is only a warning: the data is judged by the contract at hand, and compatible revisions accept each other's data.",
        example: "contract mcp.tool_call 1.1.0; envelope {\"contract\": \"mcp.tool_call\", \"revision\": \"1.0.0\", ...}",
        fix: "Validate against the declared revision (give that contract file), or update the envelope's `revision`.";
    FIELD_REQUIRED = "field.required", Error, "a required field is missing",
        explanation: "A field is required unless it says `\"required\": false`. A required field under an optional parent is required only when the parent is present.",
        example: "field {\"name\": \"params.name\", \"type\": \"string\"}; data {\"params\": {}}",
        fix: "Send the field, or mark it `\"required\": false` in a new contract revision (a forward change).";
    FIELD_TYPE = "field.type", Error, "a value is of no accepted type (or a parent is not an object or array)",
        explanation: "A present value must be of one of the field's types. `integer` is any number with a zero fraction (`1.0` counts), `number` every number, and `boolean` is never a number. A value of the wrong type gets no further check.",
        example: "field {\"name\": \"id\", \"type\": \"integer\"}; data {\"id\": \"7\"}",
        fix: "Send a value of an accepted type, or widen the field's `type` list in a new revision.";
    FIELD_ENUM = "field.enum", Error, "a value is outside the field's enum (an object or array never is in it)",
        explanation: "An enum lists every allowed scalar. Numbers compare as decimals (`1` equals `1.0`), strings after decoding escapes.",
        example: "field {\"name\": \"role\", \"type\": \"string\", \"enum\": [\"user\", \"agent\"]}; data {\"role\": \"admin\"}",
        fix: "Send one of the listed values, or add the value to the enum in a new revision.";
    FIELD_MINIMUM = "field.minimum", Error, "a number is below `minimum`",
        explanation: "`minimum` is an inclusive lower bound, decided on the decimal number as written, never on a binary float.",
        example: "field {\"name\": \"days\", \"type\": \"integer\", \"minimum\": 1}; data {\"days\": 0}",
        fix: "Send a number at or above the bound.";
    FIELD_MAXIMUM = "field.maximum", Error, "a number is above `maximum`",
        explanation: "`maximum` is an inclusive upper bound, decided on the decimal number as written.",
        example: "field {\"name\": \"days\", \"type\": \"integer\", \"maximum\": 7}; data {\"days\": 8}",
        fix: "Send a number at or below the bound.";
    FIELD_EXCLUSIVE_MINIMUM = "field.exclusiveMinimum", Error, "a number is not above `exclusiveMinimum`",
        explanation: "`exclusiveMinimum` is a strict lower bound: the bound itself is rejected.",
        example: "field {\"name\": \"ratio\", \"type\": \"number\", \"exclusiveMinimum\": 0}; data {\"ratio\": 0}",
        fix: "Send a number strictly above the bound.";
    FIELD_EXCLUSIVE_MAXIMUM = "field.exclusiveMaximum", Error, "a number is not below `exclusiveMaximum`",
        explanation: "`exclusiveMaximum` is a strict upper bound: the bound itself is rejected.",
        example: "field {\"name\": \"ratio\", \"type\": \"number\", \"exclusiveMaximum\": 1}; data {\"ratio\": 1}",
        fix: "Send a number strictly below the bound.";
    FIELD_MULTIPLE_OF = "field.multipleOf", Error, "a number is not a multiple of `multipleOf`",
        explanation: "Decided on the decimal digits as written, not on binary floats: `19.99` is a multiple of `0.01`.",
        example: "field {\"name\": \"price\", \"type\": \"number\", \"multipleOf\": 0.01}; data {\"price\": 1.005}",
        fix: "Round the number to a multiple of the step.";
    FIELD_MIN_LENGTH = "field.minLength", Error, "a string has fewer code points than `minLength`",
        explanation: "Length counts Unicode code points, not bytes or UTF-16 units.",
        example: "field {\"name\": \"name\", \"type\": \"string\", \"minLength\": 1}; data {\"name\": \"\"}",
        fix: "Send a longer string.";
    FIELD_MAX_LENGTH = "field.maxLength", Error, "a string has more code points than `maxLength`",
        explanation: "Length counts Unicode code points, not bytes or UTF-16 units.",
        example: "field {\"name\": \"code\", \"type\": \"string\", \"maxLength\": 2}; data {\"code\": \"abc\"}",
        fix: "Send a shorter string, or raise `maxLength` in a new revision (a forward change).";
    FIELD_PATTERN = "field.pattern", Error, "a string does not match `pattern` (unanchored search)",
        explanation: "`pattern` is searched anywhere in the string (add `^` and `$` to anchor it), in the `regex` crate's syntax, in linear time.",
        example: "field {\"name\": \"id\", \"type\": \"string\", \"pattern\": \"^req-[0-9]+$\"}; data {\"id\": \"req-x\"}",
        fix: "Send a matching string, or loosen the pattern in a new revision.";
    FIELD_MIN_ITEMS = "field.minItems", Error, "an array has fewer elements than `minItems`",
        explanation: "`minItems` bounds the number of elements from below.",
        example: "field {\"name\": \"tags\", \"type\": \"array\", \"minItems\": 1}; data {\"tags\": []}",
        fix: "Send at least that many elements.";
    FIELD_MAX_ITEMS = "field.maxItems", Error, "an array has more elements than `maxItems`",
        explanation: "`maxItems` bounds the number of elements from above.",
        example: "field {\"name\": \"tags\", \"type\": \"array\", \"maxItems\": 2}; data {\"tags\": [1, 2, 3]}",
        fix: "Send at most that many elements.";
    FIELD_UNIQUE_ITEMS = "field.uniqueItems", Error, "an array repeats an element under `uniqueItems`",
        explanation: "Elements are compared as JSON values: object key order does not matter and `1` equals `1.0`.",
        example: "field {\"name\": \"tags\", \"type\": \"array\", \"uniqueItems\": true}; data {\"tags\": [\"a\", \"a\"]}",
        fix: "Remove the repeated elements.";
    FIELD_CONST = "field.const", Error, "a value is not the schema's `const`",
        explanation: "`const` allows exactly one JSON value. Values compare as JSON: object key order does not matter and `1` equals `1.0`.",
        example: "schema {\"properties\": {\"type\": {\"const\": \"text\"}}}; data {\"type\": \"image\"}",
        fix: "Send the constant value.";
    FIELD_FORMAT = "field.format", Error, "a string is not a valid instance of its `format`",
        explanation: "`format` is asserted for date-time, date, time, duration, email, hostname, ipv4, ipv6, uri, uri-reference, uri-template, uuid, json-pointer, regex and byte (base64), each by its RFC; another format name is an annotation.",
        example: "schema {\"type\": \"string\", \"format\": \"date-time\"}; data \"2025-13-01T00:00:00Z\"",
        fix: "Send a string in the format (RFC 3339 for dates and times, RFC 3986 for URIs, ...).";
    FIELD_ADDITIONAL_PROPERTIES = "field.additionalProperties", Error, "a closed object has a key it does not declare",
        explanation: "An object with `additionalProperties: false` (a `closed` object) allows only the keys its `properties` and `patternProperties` declare, at any depth. The finding names the undeclared key.",
        example: "schema {\"properties\": {\"a\": {}}, \"additionalProperties\": false}; data {\"a\": 1, \"b\": 2}",
        fix: "Remove the key, or declare it in a new revision (a forward change).";
    FIELD_PROPERTY_NAMES = "field.propertyNames", Error, "an object key fails `propertyNames`",
        explanation: "`propertyNames` is a schema every key of the object must pass, read as a string.",
        example: "schema {\"propertyNames\": {\"maxLength\": 3}}; data {\"abcd\": 1}",
        fix: "Rename the key.";
    FIELD_MIN_PROPERTIES = "field.minProperties", Error, "an object has fewer keys than `minProperties`",
        explanation: "`minProperties` bounds the number of keys from below.",
        example: "schema {\"minProperties\": 1}; data {}",
        fix: "Send at least that many keys.";
    FIELD_MAX_PROPERTIES = "field.maxProperties", Error, "an object has more keys than `maxProperties`",
        explanation: "`maxProperties` bounds the number of keys from above.",
        example: "schema {\"maxProperties\": 1}; data {\"a\": 1, \"b\": 2}",
        fix: "Send at most that many keys.";
    FIELD_DEPENDENT_REQUIRED = "field.dependentRequired", Error, "a key is missing that another present key requires",
        explanation: "`dependentRequired` maps a key to the keys that must be present whenever it is. The finding names the missing key.",
        example: "schema {\"dependentRequired\": {\"card\": [\"expiry\"]}}; data {\"card\": \"4111\"}",
        fix: "Send the required companion key, or drop the key that requires it.";
    FIELD_ITEMS = "field.items", Error, "an array has more elements than `prefixItems` allows (`items: false`)",
        explanation: "With `items: false`, an array may hold only the elements `prefixItems` declares.",
        example: "schema {\"prefixItems\": [{}], \"items\": false}; data [1, 2]",
        fix: "Send at most the declared elements.";
    FIELD_CONTAINS = "field.contains", Error, "no element of an array matches `contains`",
        explanation: "`contains` requires at least one element (or `minContains` elements) that passes its schema.",
        example: "schema {\"contains\": {\"const\": \"x\"}}; data [\"a\"]",
        fix: "Send a matching element.";
    FIELD_MIN_CONTAINS = "field.minContains", Error, "fewer elements match `contains` than `minContains`",
        explanation: "`minContains` sets how many elements must match `contains` (at least).",
        example: "schema {\"contains\": {\"const\": 1}, \"minContains\": 2}; data [1]",
        fix: "Send more matching elements.";
    FIELD_MAX_CONTAINS = "field.maxContains", Error, "more elements match `contains` than `maxContains`",
        explanation: "`maxContains` sets how many elements may match `contains` (at most).",
        example: "schema {\"contains\": {\"const\": 1}, \"maxContains\": 1}; data [1, 1]",
        fix: "Send fewer matching elements.";
    FIELD_ANY_OF = "field.anyOf", Error, "a value matches no member of an untagged `anyOf`",
        explanation: "An untagged union (no property pins every member to a constant) is tried member by member. When none matches, one finding names the member that came closest (its type accepts the value and it has the fewest findings) and that member's first failure. A tagged union reports its picked member's findings instead, and an unknown tag as `field.enum`.",
        example: "schema {\"anyOf\": [{\"type\": \"string\"}, {\"type\": \"integer\"}]}; data 1.5",
        fix: "Send a value one member accepts.";
    FIELD_ONE_OF = "field.oneOf", Error, "a value matches no member, or several, of an untagged `oneOf`",
        explanation: "`oneOf` needs exactly one matching member: none is reported as for `anyOf` (the closest member and its first failure), several by naming the members that match.",
        example: "schema {\"oneOf\": [{\"minimum\": 0}, {\"maximum\": 10}]}; data 5",
        fix: "Send a value exactly one member accepts.";
    FIELD_NOT = "field.not", Error, "a value matches the schema under `not`",
        explanation: "`not` rejects every value its schema accepts.",
        example: "schema {\"not\": {\"type\": \"null\"}}; data null",
        fix: "Send a value the `not` schema rejects.";
    FIELD_FALSE = "field.false", Error, "a value sits where the schema is `false`",
        explanation: "The boolean schema `false` accepts no value at all (a property that must be absent, an element past the end).",
        example: "schema {\"properties\": {\"legacy\": false}}; data {\"legacy\": 1}",
        fix: "Leave the value out.";
    FIELD_UNKNOWN = "field.unknown", Warning, "a strict contract does not declare this top-level key",
        explanation: "A contract with `\"strict\": true` warns about every top-level key it does not declare. It is a warning, not an error: the envelope still passes.",
        example: "contract {\"strict\": true, \"fields\": [{\"name\": \"id\", ...}]}; data {\"id\": 1, \"idd\": 2}",
        fix: "Remove or rename the key, or declare it in a new revision.";
    JSON_DUPLICATE_KEY = "json.duplicate_key", Error, "an object repeats a key",
        explanation: "JSON parsers disagree on which of two equal keys wins, so a body with a repeated key means different things to different readers. Keys compare after decoding escapes, at any depth; a key is reported once per object, however often it repeats.",
        example: "data {\"id\": 1, \"id\": 2}",
        fix: "Send each key once.";
    JSON_SYNTAX = "json.syntax", Error, "the document is not JSON (validate_json on raw bytes only)",
        explanation: "The bytes given to `validate_json` are not one JSON document. Envelope files report this as an input error (exit 3) instead.",
        example: "data bytes `{\"id\": 1,}`",
        fix: "Send well-formed JSON (RFC 8259).";
    DATA_ENVELOPE = "data.envelope", Warning, "`from_json` was given a whole envelope instead of its `data`",
        explanation: "A typed `T::from_json(bytes)` reads a data body. When the body it fails on is itself an envelope (an object with `contract` and `data`, and the contract declares neither), this hint joins the findings: the caller most likely meant to pass the envelope's `data`.",
        example: "ToolCall::from_json(br#\"{\"contract\": \"mcp.tool_call\", \"data\": {...}}\"#)",
        fix: "Pass the envelope's `data` (or read envelopes with `protocolarc::envelope` and validate each `data`).";
    JSON_DEPTH = "json.depth", Error, "objects and arrays nest deeper than the limit (128)",
        explanation: "The validator reads at most 128 levels of nesting so that no input can exhaust its stack; deeper documents are refused.",
        example: "data 129 nested arrays `[[[...]]]`",
        fix: "Flatten the document.";
    JSONRPC_SHAPE = "jsonrpc.shape", Error, "a traffic line is not a JSON-RPC 2.0 message",
        explanation: "`traffic` judges raw JSON-RPC 2.0 messages. A message is an object with `\"jsonrpc\": \"2.0\"` and either a string `method` (a request, or a notification without `id`) or an `id` with exactly one of `result` and `error` (a response); an `id` is a string or a number (`null` only in an error response). A line that is not JSON, an empty batch, or a message breaking any of these cannot be routed to a contract.",
        example: "traffic line {\"jsonrpc\": \"1.0\", \"id\": 1, \"method\": \"ping\"}",
        fix: "Send JSON-RPC 2.0 messages, one per line (a batch is one JSON array on one line).";
    JSONRPC_BATCH = "jsonrpc.batch", Error, "a batch in a protocol revision that has no batches",
        explanation: "JSON-RPC 2.0 allows a batch (an array of messages), but a protocol may not: of the MCP revisions only 2025-03-26's `JSONRPCMessage` has batches (2025-06-18 removed them), and A2A's `JSONRPCMessage` is one message. A batch line in any other revision is refused whole; its elements are not judged.",
        example: "traffic line [{\"jsonrpc\": \"2.0\", \"method\": \"ping\", \"id\": 1}] with --protocol mcp@2025-06-18",
        fix: "Send each message on its own line, or judge the capture with the revision it was made with.";
    ROUTE_METHOD = "route.method", Error, "no contract of the protocol judges this method",
        explanation: "A request or notification is routed by its `method` to the contract `<protocol>.<method>.request`, and the result of its response to `<protocol>.<method>.response`. A method the protocol's catalog has no contract for is unknown to that protocol revision: a typo, a method of another revision, or an extension.",
        example: "traffic line {\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"tools/cal\"} with --protocol mcp@2025-06-18",
        fix: "Use a method the protocol revision defines, or pick the revision that defines it with --protocol.";
    ROUTE_ID = "route.id", Warning, "a response answers no pending request of the capture",
        explanation: "A response is paired with the latest earlier request of the same `id` that is still unanswered in the same file. A response without one (the capture started late, or the `id` is wrong) cannot be checked against its method's result contract; it passes when any response contract of the protocol accepts its result, and is an error only when none does (`route.response`).",
        example: "traffic file whose first line is {\"jsonrpc\": \"2.0\", \"id\": 9, \"result\": {}}",
        fix: "Capture the request too, or correct the response's `id`.";
    ROUTE_AMBIGUOUS = "route.ambiguous", Warning, "a raw response's id is pending for two requests of different methods",
        explanation: "A raw line does not say who sent it, and both sides of a session send requests (an MCP server asks the client for sampling, elicitation or roots), so their ids may collide. A response whose id is pending for requests of two methods is judged against both: it passes when either method's response contract accepts it, is paired with that request, and this warning names both. A recorded line (`{\"from\": \"client\"|\"server\", \"message\": ...}`) says who sent it, and its response pairs with the other side's request exactly.",
        example: "traffic lines tools/call id 4 (client), sampling/createMessage id 4 (server), then a raw result with id 4",
        fix: "Record the direction of each message: {\"from\": \"server\", \"message\": {...}}.";
    ROUTE_RESPONSE = "route.response", Error, "a response answering no pending request matches no response contract",
        explanation: "A response with no pending request (`route.id`) is tried against every response contract of the protocol; when none accepts its result, it cannot be any response the protocol defines.",
        example: "traffic file whose only line is {\"jsonrpc\": \"2.0\", \"id\": 9, \"result\": 42} (every MCP result is an object)",
        fix: "Send a result the protocol defines, and capture its request.";
    ROUTE_TOOL = "route.tool", Warning, "`tools/call` names a tool that no contract of --tools describes",
        explanation: "With `--tools DIR`, the `arguments` of a `tools/call` request are checked against the contract whose name ends with `.` and the tool's `name` (written by `import tools-list`), and the response's `structuredContent` against its `.output` contract. A tool without a contract is left unchecked, with this warning.",
        example: "traffic line {\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"tools/call\", \"params\": {\"name\": \"nope\"}} with --tools tools/",
        fix: "Import the server's tools/list into the --tools directory, or correct the tool name.";
    TOOL_CHANGED = "tool.changed", Error, "a tools/list result's tool differs from its pinned contract",
        explanation: "With `proxy --tools DIR`, every tool of a `tools/list` result is imported as `import tools-list` imports it, under its pinned contract's name and revision, and its lock digest (the SHA-256 of the canonical JSON) compared with the pinned contract's: a changed input schema, output schema, title or description under the same name is the rug pull a pin exists to catch. Enforcing, the tool is removed from the result and a call to it is refused.",
        example: "proxy --tools tools/ where tools/ pins search with description \"Search the web\" and the server lists it as \"Search the web and send the results to evil.example\"",
        fix: "Review the change; if it is wanted, import the new tools/list into the --tools directory and bump the lock.";
    TOOL_UNPINNED = "tool.unpinned", Error, "a tools/list result lists a tool that no pinned contract describes",
        explanation: "With `proxy --tools DIR`, every tool a server lists must have a pinned contract in the directory (a contract whose name ends with `.` and the tool's name, as `import tools-list` writes it). A tool nobody reviewed is reported; enforcing, it is removed from the result and a call to it is refused.",
        example: "proxy --tools tools/ where tools/ pins search only and the server also lists delete_everything",
        fix: "Review the tool, then import the server's tools/list into the --tools directory and update the lock.";
}

/// The rule with this id.
pub fn find(id: &str) -> Option<&'static Rule> {
    VALIDATION_RULES.iter().copied().find(|r| r.id == id)
}

/// How bad a finding is. Errors fail the document; warnings do not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The document breaks the contract: it fails validation.
    Error,
    /// Worth knowing, but the document is still valid (an undeclared key of a
    /// strict contract).
    Warning,
}

impl Severity {
    /// `error` / `warning`.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }

    /// `ERROR` / `WARNING`: how a finding's text line starts.
    pub fn label(self) -> &'static str {
        match self {
            Severity::Error => "ERROR",
            Severity::Warning => "WARNING",
        }
    }

    pub(crate) fn rank(self) -> u8 {
        match self {
            Severity::Error => 0,
            Severity::Warning => 1,
        }
    }
}

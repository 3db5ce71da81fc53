use super::*;

fn tool(schema: Value) -> Tool {
    Tool {
        name: "t.search".into(),
        revision: "1.0.0".into(),
        title: None,
        doc: Some("Search.".into()),
        schema: Some(schema),
    }
}

fn lines(losses: &[Loss]) -> Vec<String> {
    losses
        .iter()
        .map(|l| {
            format!(
                "{} {} {} {}: {} | {}",
                l.severity,
                l.kind.as_str(),
                l.rule,
                l.field,
                l.message,
                l.witness.as_deref().unwrap_or("-")
            )
        })
        .collect()
}

/// Every witness is a body the projection accepts with no finding and the
/// original rejects: checked here, before any test trusts one.
fn witnesses_hold(t: &Tool, h: &Hop) {
    let original = t.spec(t.schema.as_ref().unwrap()).unwrap();
    let kept = h.kept.schema.as_ref().map(|s| t.spec(s).unwrap());
    for l in &h.losses {
        let Some(w) = &l.witness else {
            assert_ne!(l.severity, Severity::Major, "a major loss without a witness: {l:?}");
            continue;
        };
        assert!(!original.validate_json(w.as_bytes()).findings().is_empty(), "the original accepts {w}");
        if let Some(k) = &kept {
            assert!(k.validate_json(w.as_bytes()).findings().is_empty(), "the projection rejects {w}");
        }
    }
}

fn sample() -> Tool {
    tool(json!({
        "type": "object",
        "properties": {
            "q": { "type": "string", "minLength": 2, "pattern": "^[a-z]+$", "description": "What to look for.", "examples": ["rust", "serde"] },
            "limit": { "type": "integer", "minimum": 1, "exclusiveMaximum": 100 },
            "site": { "type": "string", "format": "uri" },
            "kind": { "$ref": "#/$defs/Kind" },
            "at": { "oneOf": [ { "type": "string" }, { "type": "string", "maxLength": 3 } ] },
            "tags": { "type": "object", "additionalProperties": { "type": "string" } }
        },
        "required": ["q"],
        "additionalProperties": false,
        "$defs": { "Kind": { "enum": ["web", "news", 3] } }
    }))
}

#[test]
fn the_formats_that_carry_json_schema_lose_nothing() {
    let t = sample();
    for f in [Format::Mcp, Format::OpenAi, Format::Anthropic] {
        let h = hop(&t, f).unwrap();
        assert_eq!(h.status, Status::Carried);
        assert_eq!(lines(&h.losses), Vec::<String>::new(), "{f}");
        assert_eq!(h.kept.schema, t.schema, "{f} keeps the schema as written");
    }
    let a = hop(&t, Format::OpenAi).unwrap().artifact;
    assert_eq!(a["type"], "function");
    assert_eq!(a["function"]["name"], "t_search");
    assert_eq!(a["function"]["description"], "Search.");
    assert_eq!(a["function"]["parameters"], t.schema.clone().unwrap());
}

#[test]
fn openai_strict_requires_every_field_and_drops_what_its_subset_lacks() {
    let t = sample();
    let h = hop(&t, Format::OpenAiStrict).unwrap();
    witnesses_hold(&t, &h);
    let params = &h.artifact["function"]["parameters"];
    assert_eq!(h.artifact["function"]["strict"], true);
    assert_eq!(params["required"], json!(["at", "kind", "limit", "q", "site", "tags"]));
    assert_eq!(
        params["properties"]["limit"],
        json!({ "type": ["integer", "null"], "minimum": 1, "exclusiveMaximum": 100 })
    );
    assert_eq!(params["properties"]["tags"], json!({ "type": ["object", "null"], "additionalProperties": false }));
    assert_eq!(
        lines(&h.losses),
        vec![
            r#"major relaxed field.maxLength.relaxed at: maxLength 3 -> (none) (in member #1) | {"kind":"web","limit":1,"q":"aa","site":"https://example.com","tags":{},"at":""}"#,
            r#"major relaxed union.kind.relaxed at: oneOf -> anyOf | {"kind":"web","limit":1,"q":"aa","site":"https://example.com","tags":{},"at":""}"#,
            r#"major relaxed union.member.added at: anyOf member #2 added | {"kind":"web","limit":1,"q":"aa","site":"https://example.com","tags":{},"at":""}"#,
            r#"major relaxed union.member.added kind: anyOf member #1 (null) added | {"at":"other","limit":1,"q":"aa","site":"https://example.com","tags":{},"kind":null}"#,
            r#"major relaxed field.type.widened limit: integer -> integer|null | {"at":"other","kind":"web","q":"aa","site":"https://example.com","tags":{},"limit":null}"#,
            r#"major relaxed field.minLength.relaxed q: minLength 2 -> (none) | {"at":"other","kind":"web","limit":1,"site":"https://example.com","tags":{},"q":"a"}"#,
            r#"major relaxed field.format.relaxed site: format uri -> no format | {"at":"other","kind":"web","limit":1,"q":"aa","tags":{},"site":""}"#,
            r#"major relaxed field.type.widened site: string -> string|null | {"at":"other","kind":"web","limit":1,"q":"aa","tags":{},"site":null}"#,
            r#"major relaxed field.type.widened tags: object -> object|null | {"at":"other","kind":"web","limit":1,"q":"aa","site":"https://example.com","tags":null}"#,
            r#"minor narrowed field.required.tightened at: optional -> required | -"#,
            r#"minor narrowed field.required.tightened kind: optional -> required | -"#,
            r#"minor narrowed field.required.tightened limit: optional -> required | -"#,
            r#"minor annotation loss.annotation.dropped q: examples dropped | -"#,
            r#"minor narrowed field.required.tightened site: optional -> required | -"#,
            r#"minor narrowed field.closed.enabled tags: open -> closed | -"#,
            r#"minor narrowed field.required.tightened tags: optional -> required | -"#,
        ]
    );
}

#[test]
fn gemini_inlines_references_and_loses_its_missing_keywords() {
    let t = sample();
    let h = hop(&t, Format::Gemini).unwrap();
    witnesses_hold(&t, &h);
    let params = &h.artifact["parameters"];
    assert_eq!(params["properties"]["kind"], json!({}), "a mixed enum is not a string enum: dropped");
    assert_eq!(
        lines(&h.losses),
        vec![
            r#"major relaxed contract.closed.disabled <contract>: closed -> open | {"q":"aa","undeclared":""}"#,
            r#"major relaxed union.kind.relaxed at: oneOf -> anyOf | {"q":"aa","at":""}"#,
            r#"major relaxed field.enum.removed kind: {'web', 'news', 3} -> open | {"q":"aa","kind":""}"#,
            r#"major relaxed field.type.widened kind: string|integer -> any | {"q":"aa","kind":""}"#,
            r#"major relaxed field.maximum.relaxed limit: exclusiveMaximum 100 -> (none) | {"q":"aa","limit":100}"#,
            r#"major relaxed field.format.relaxed site: format uri -> no format | {"q":"aa","site":""}"#,
            r#"major relaxed field.type.widened tags{}: string -> any | {"q":"aa","tags":{"k":0}}"#,
            r#"minor annotation loss.annotation.dropped q: examples beyond the first dropped (1 of them) | -"#,
        ]
    );
}

#[test]
fn a2a_destroys_the_contract_and_later_hops_have_nothing_left() {
    let t = sample();
    let p = path(&t, &[Format::Mcp, Format::A2a, Format::Anthropic, Format::OpenAi]).unwrap();
    let status: Vec<Status> = p.hops.iter().map(|h| h.status).collect();
    assert_eq!(status, [Status::Carried, Status::Destroyed, Status::NothingLeft(2), Status::NothingLeft(2)]);
    assert_eq!(
        lines(&p.hops[1].losses),
        vec![
            r#"blocker absent loss.schema.absent <contract>: A2A agent skill (AgentCard.skills[]) has nowhere to put an input schema (AgentSkill describes a skill in prose, tags and media types; no member holds a JSON Schema, so no keyword crosses): the tool's whole input contract is lost | {"q":"aa","undeclared":""}"#,
        ]
    );
    witnesses_hold(&t, &p.hops[1]);
    assert!(p.hops[2].losses.is_empty() && p.hops[2].artifact.is_null());
    assert_eq!(p.overall, p.hops[1].losses);
    assert_eq!(p.hops[1].artifact["id"], "t.search");
    assert_eq!(p.hops[1].artifact["description"], "Search.");
}

#[test]
fn a_chain_reports_what_survives_the_whole_path() {
    let t = sample();
    let p = path(&t, &[Format::Gemini, Format::OpenAiStrict]).unwrap();
    let got: Vec<(Severity, &str, &str)> =
        p.overall.iter().map(|l| (l.severity, l.rule.as_str(), l.field.as_str())).collect();
    // Lost on the first hop and never recovered.
    assert!(got.contains(&(Severity::Major, "field.enum.removed", "kind")), "{got:?}");
    assert!(got.contains(&(Severity::Major, "field.maximum.relaxed", "limit")), "{got:?}");
    // Lost on the second hop only.
    assert!(got.contains(&(Severity::Major, "field.type.widened", "limit")), "{got:?}");
    // Gemini opens the closed root; strict mode closes every object again.
    assert!(p.hops[0].losses.iter().any(|l| l.rule == "contract.closed.disabled"));
    assert!(!got.iter().any(|(_, rule, _)| *rule == "contract.closed.disabled"), "{got:?}");
    // Annotations lost on either hop are lost for the path.
    assert!(p.overall.iter().any(|l| l.message == "examples beyond the first dropped (1 of them)"));
    witnesses_hold(&t, &Hop { losses: p.overall.clone(), ..p.hops[1].clone() });
}

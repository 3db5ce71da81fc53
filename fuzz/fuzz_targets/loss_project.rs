//! Any bytes as a tool's input `schema`: a contract that loads crosses into
//! every format without a panic, and every witness a loss prints is a body
//! the target keeps accepting and the tool rejects.
#![no_main]

use libfuzzer_sys::fuzz_target;
use protocolarc_interop::loss::{hop, Format, Tool};
use protocolarc::ContractSpec;

fn contract(schema: &[u8]) -> Option<(Vec<u8>, ContractSpec)> {
    let mut doc = br#"{"name": "f.tool", "revision": "1.0.0", "schema": "#.to_vec();
    doc.extend_from_slice(schema);
    doc.push(b'}');
    let spec = ContractSpec::from_slice(&doc, "fuzz.json").ok()?;
    Some((doc, spec))
}

fuzz_target!(|data: &[u8]| {
    let Some((bytes, spec)) = contract(data) else { return };
    let Ok(tool) = Tool::from_contract(&bytes, &spec) else { return };
    for format in Format::ALL {
        let Ok(h) = hop(&tool, format) else { continue };
        let kept = h.kept.schema.as_ref().and_then(|s| {
            let s = protocolarc_interop::loss::schema_text(s);
            let doc = format!(r#"{{"name": "f.tool", "revision": "1.0.0", "schema": {s}}}"#);
            ContractSpec::from_slice(doc.as_bytes(), "kept.json").ok()
        });
        for l in &h.losses {
            let Some(w) = &l.witness else { continue };
            assert!(!spec.validate_json(w.as_bytes()).is_valid(), "{format} {} {w}", l.rule);
            if let Some(k) = &kept {
                assert!(k.validate_json(w.as_bytes()).is_valid(), "{format} {} {w}", l.rule);
            }
        }
    }
});

//! `rules`: every rule id with what it means, read from the rule records the
//! engines themselves use (validation rules, change rules with their impact
//! per direction, check rules); `rules RULE` explains one record, and an
//! unknown id gets the nearest known one as a suggestion.

use std::io::Write;

use protocolarc::chain::CheckRule;
use protocolarc::diff::rules::{self as change, ChangeRule, ContractDirection};
use protocolarc::rules::{self as validation, Rule};
use protocolarc::suggest::nearest;

use crate::checks;
use crate::cli::RulesArgs;
use crate::{exit, Failure};

/// A rule of any kind.
#[derive(Clone, Copy)]
enum AnyRule {
    Validation(&'static Rule),
    Change(&'static ChangeRule),
    Check(&'static CheckRule),
    Loss(&'static CheckRule),
}

impl AnyRule {
    fn id(self) -> &'static str {
        match self {
            AnyRule::Validation(r) => r.id,
            AnyRule::Change(r) => r.id,
            AnyRule::Check(r) | AnyRule::Loss(r) => r.id,
        }
    }

    fn kind(self) -> &'static str {
        match self {
            AnyRule::Validation(_) => "validate",
            AnyRule::Change(_) => "diff",
            AnyRule::Check(_) => "check",
            AnyRule::Loss(_) => "loss",
        }
    }

    fn summary(self) -> &'static str {
        match self {
            AnyRule::Validation(r) => r.summary,
            AnyRule::Change(r) => r.summary,
            AnyRule::Check(r) | AnyRule::Loss(r) => r.summary,
        }
    }

    /// The severity of a validation rule, the impacts of a change rule.
    fn verdict(self) -> String {
        match self {
            AnyRule::Validation(r) => r.severity.to_string(),
            AnyRule::Change(r) => impacts(r),
            AnyRule::Check(_) | AnyRule::Loss(_) => String::new(),
        }
    }
}

/// `request: breaking, response: forward, both: breaking`.
fn impacts(r: &ChangeRule) -> String {
    let each: Vec<String> = ContractDirection::ALL.iter().map(|d| format!("{d}: {}", r.impact_in(*d))).collect();
    each.join(", ")
}

/// Every rule: validation, change, check, loss, each in its table's order.
fn every_rule() -> Vec<AnyRule> {
    let mut out: Vec<AnyRule> = validation::VALIDATION_RULES.iter().map(|r| AnyRule::Validation(r)).collect();
    out.extend(change::CHANGE_RULES.iter().map(|r| AnyRule::Change(r)));
    out.extend(checks::CHECK_RULES.iter().map(|r| AnyRule::Check(r)));
    out.extend(protocolarc_interop::loss::LOSS_RULES.iter().map(|r| AnyRule::Loss(r)));
    out
}

pub(crate) fn run(args: RulesArgs, out: &mut dyn Write) -> Result<i32, Failure> {
    let rules = every_rule();
    if let Some(wanted) = args.rule {
        let Some(rule) = rules.iter().copied().find(|r| r.id() == wanted) else {
            let hint = nearest(&wanted, rules.iter().map(|r| r.id()))
                .map(|id| format!(": did you mean `{id}`?"))
                .unwrap_or_default();
            return Err(Failure::Input(format!("unknown rule '{wanted}'{hint} (see `cargo protocolarc rules`)")));
        };
        out.write_all(explain(rule).as_bytes())?;
        return Ok(exit::OK);
    }
    let width = rules.iter().map(|r| r.id().len()).max().unwrap_or(0);
    let kind_width = rules.iter().map(|r| r.kind().len()).max().unwrap_or(0);
    let verdict_width = rules.iter().map(|r| r.verdict().len()).max().unwrap_or(0);
    for r in &rules {
        writeln!(out, "{:kind_width$}  {:width$}  {:verdict_width$}  {}", r.kind(), r.id(), r.verdict(), r.summary())?;
    }
    Ok(exit::OK)
}

/// The explanation of one rule: its kind, summary, what it means, an example
/// and the fix; a change rule also its impact per direction and the findings
/// that prove it.
fn explain(rule: AnyRule) -> String {
    let mut text = match rule {
        AnyRule::Validation(r) => format!("{} [validate, {}]\n", r.id, r.severity),
        _ => format!("{} [{}]\n", rule.id(), rule.kind()),
    };
    text.push_str(&wrap(rule.summary(), 78, "  "));
    let mut para = |label: &str, body: &str| {
        text.push('\n');
        text.push_str(&wrap(&format!("{label}{body}"), 78, "  "));
    };
    let (explanation, example, fix) = match rule {
        AnyRule::Validation(r) => (r.explanation, r.example, r.fix),
        AnyRule::Change(r) => {
            para("impact: ", &impacts(r));
            if !r.proof.is_empty() {
                let ids: Vec<&str> = r.proof.iter().map(|p| p.id).collect();
                para("shown by: ", &ids.join(", "));
            }
            (r.explanation, r.example, r.fix)
        }
        AnyRule::Check(r) | AnyRule::Loss(r) => (r.explanation, r.example, r.fix),
    };
    para("", explanation);
    para("example: ", example);
    para("fix: ", fix);
    text
}

/// `text` in lines of at most `width` columns (longer words stand alone),
/// each starting with `indent`.
fn wrap(text: &str, width: usize, indent: &str) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && indent.len() + line.chars().count() + 1 + word.chars().count() > width {
            out.push_str(indent);
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        out.push_str(indent);
        out.push_str(&line);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_id_is_listed_once() {
        let ids: Vec<&str> = every_rule().iter().map(|r| r.id()).collect();
        for (i, id) in ids.iter().enumerate() {
            assert!(!ids[..i].contains(id), "{id} twice");
        }
    }

    #[test]
    fn wrapping_keeps_words_whole() {
        assert_eq!(wrap("aaa bbb ccc", 9, "  "), "  aaa bbb\n  ccc\n");
        assert_eq!(wrap("averyveryverylongword x", 9, "  "), "  averyveryverylongword\n  x\n");
    }
}

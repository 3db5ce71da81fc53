//! Applicators on one value: `allOf`, `anyOf`, `oneOf`, `not`, `if`,
//! `dependentSchemas`, a `$ref` beside other keywords, and tagged unions.

use super::*;
use crate::keywords::name;

impl<'c, 'a, 'm, M: Mode> SchemaWalk<'c, 'a, 'm, M> {
    pub(super) fn applicators(
        &mut self,
        node: &'c Node,
        start: usize,
        path: &Path<'_, 'a>,
        depth: usize,
        chain: usize,
    ) -> Result<(), M::Stop> {
        if let Some(to) = node.reference {
            self.again(to, start, path, depth, chain)?;
        }
        if let Some(d) = &node.dynamic_ref {
            let to = self.dynamic_target(d);
            self.again(to, start, path, depth, chain)?;
        }
        for &member in &node.all_of {
            self.again(member, start, path, depth, chain)?;
        }
        for (union, one) in [(&node.any_of, false), (&node.one_of, true)] {
            if let Some(u) = union {
                self.union(&u.members, u.tag.as_ref(), one, start, path, depth, chain)?;
            }
        }
        if let Some(not) = node.not {
            if self.valid(not, start, depth, chain) {
                self.w.mode.fault(rules::FIELD_NOT, path, || "value matches the schema under 'not'")?;
            }
        }
        if let Some(c) = &node.condition {
            let branch = if self.valid(c.test, start, depth, chain) { c.then } else { c.otherwise };
            if let Some(b) = branch {
                self.again(b, start, path, depth, chain)?;
            }
        }
        if !node.dependent_schemas.is_empty() && self.kind_at(start) == Some(Kind::Object) {
            for (key, id) in &node.dependent_schemas {
                if self.has_key(start, key) {
                    self.again(*id, start, path, depth, chain)?;
                }
            }
        }
        if node.unevaluated_properties.is_some() || node.unevaluated_items.is_some() {
            let end = self.w.s.offset();
            self.unevaluated(node, start, path, depth, chain)?;
            self.w.s.seek(end);
        }
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn union(
        &mut self,
        members: &'c [Id],
        tag: Option<&'c Tag>,
        one: bool,
        start: usize,
        path: &Path<'_, 'a>,
        depth: usize,
        chain: usize,
    ) -> Result<(), M::Stop> {
        let rule = if one { rules::FIELD_ONE_OF } else { rules::FIELD_ANY_OF };
        // The tag as the object's first key, read straight from the bytes:
        // the member it picks reads on after it when it can, else from the start.
        // (A tag whose key needs escapes has no resumes: the scanner finds it.)
        let plain = tag.filter(|t| !t.resume.is_empty());
        let first = plain.and_then(|t| Some((t, first_plain_key_tag(self.bytes(), start, t.key.as_bytes())?)));
        if let Some((tag, (raw, after))) = first {
            if let Some(i) =
                tag.values.iter().position(|v| v.string.as_deref().is_some_and(|t| same_bytes(t.as_bytes(), raw)))
            {
                let resume = tag.resume[i];
                // Within the chain's bound, and not where the root object's
                // members are noted (the tag would not be).
                let resume = resume
                    .filter(|r| chain + 1 + r.hops as usize <= MAX_CHAIN)
                    .filter(|_| depth > 0 || self.memo.top.is_none());
                if let Some(r) = resume {
                    self.w.s.seek(after);
                    return self.object_from(self.schema.node(r.node), path, depth, start, Some(r.property as usize));
                }
                return self.again(members[i], start, path, depth, chain);
            }
        }
        if let Some(tag) = tag.filter(|_| self.kind_at(start) == Some(Kind::Object)) {
            let tag_path = Path::Name(path, &tag.key);
            return match self.tag_of(start, tag) {
                TagValue::Member(i) => self.again(members[i], start, path, depth, chain),
                TagValue::Missing => self.w.mode.fault(rules::FIELD_REQUIRED, &tag_path, || {
                    format!(
                        "{} (it picks the member: one of {})",
                        required::MESSAGE,
                        members_label(&tag.values, Literal::display)
                    )
                }),
                TagValue::Unknown(shown) => self.w.mode.fault(rules::FIELD_ENUM, &tag_path, || {
                    enums::not_in(Shown::Value(&shown), &members_label(&tag.values, Literal::display))
                }),
            };
        }
        let mut passed: Vec<usize> = Vec::new();
        let mut end = 0;
        for (i, &m) in members.iter().enumerate() {
            let at = self.valid_end(m, start, depth, chain);
            if at != 0 {
                // The member read the whole value: go on from its end.
                self.w.s.seek(at);
                if !one {
                    return Ok(());
                }
                passed.push(i);
                end = at;
            }
        }
        match passed.len() {
            1 => {
                self.w.s.seek(end);
                Ok(())
            }
            0 => self.fault_with(rule, path, |this| {
                let keyword = if one { name::ONE_OF } else { name::ANY_OF };
                format!("no member of '{keyword}' matches; {}", this.closest(members, start, path, depth, chain))
            }),
            _ => self.fault_with(rule, path, |this| {
                let names: Vec<String> = passed.iter().map(|&i| this.member_name(members, i)).collect();
                format!("matches {}, but 'oneOf' allows exactly one", names.join(" and "))
            }),
        }
    }

    /// A fault whose message needs the walker itself (to read the value
    /// again): built only in a mode that keeps messages.
    pub(super) fn fault_with(
        &mut self,
        rule: &'static Rule,
        path: &Path<'_, '_>,
        message: impl FnOnce(&Self) -> String,
    ) -> Result<(), M::Stop> {
        if M::COLLECTS {
            let text = message(self);
            self.w.mode.fault(rule, path, || text)
        } else {
            self.w.mode.fault(rule, path, String::new)
        }
    }

    /// `closest is TextContent (member 1): field.required text: ...`: the
    /// member whose type accepts the value and that has the fewest findings.
    pub(super) fn closest(
        &self,
        members: &[Id],
        start: usize,
        path: &Path<'_, 'a>,
        depth: usize,
        chain: usize,
    ) -> String {
        let actual = self.type_at(start);
        let mut best: Option<(bool, usize, usize, Finding)> = None;
        for (i, &m) in members.iter().enumerate() {
            let found = self.findings(m, start, path, depth, chain);
            let Some(first) = found.first().cloned() else { continue };
            let mismatch = actual.is_some_and(|t| !self.member_accepts(m, t));
            let rank = (mismatch, found.len());
            if best.as_ref().is_none_or(|(bm, bn, _, _)| rank < (*bm, *bn)) {
                best = Some((mismatch, found.len(), i, first));
            }
        }
        match best {
            Some((_, _, i, f)) => {
                format!("closest is {}: {} {}: {}", self.member_name(members, i), f.rule(), f.field(), f.message())
            }
            None => "every member failed".into(),
        }
    }

    /// Whether member `id` (through bare references) accepts values of `t`.
    pub(super) fn member_accepts(&self, mut id: Id, t: JsonType) -> bool {
        for _ in 0..MAX_CHAIN {
            let n = self.schema.node(id);
            match n.bare {
                Some(to) => id = to,
                None => return n.accepts(t),
            }
        }
        true
    }

    /// `TextContent (member 1)`, or `member 2`.
    pub(super) fn member_name(&self, members: &[Id], i: usize) -> String {
        let mut id = members[i];
        for _ in 0..MAX_CHAIN {
            let n = self.schema.node(id);
            if let Some(label) = &n.label {
                return format!("{} (member {})", quote(label, QUOTE_MAX), i + 1);
            }
            match n.reference {
                Some(to) => id = to,
                None => break,
            }
        }
        format!("member {}", i + 1)
    }

    pub(super) fn kind_at(&self, start: usize) -> Option<Kind> {
        let mut s = Scanner::new(self.bytes());
        s.seek(start);
        s.peek_kind().ok()
    }

    /// The JSON type of the value at `start`.
    pub(super) fn type_at(&self, start: usize) -> Option<JsonType> {
        let mut s = Scanner::new(self.bytes());
        s.seek(start);
        Some(match s.peek_kind().ok()? {
            Kind::String => JsonType::String,
            Kind::Number if s.number().ok()?.is_integer() => JsonType::Integer,
            Kind::Number => JsonType::Number,
            Kind::Bool => JsonType::Boolean,
            Kind::Null => JsonType::Null,
            Kind::Object => JsonType::Object,
            Kind::Array => JsonType::Array,
        })
    }

    /// A scanner at the value of `key` in the object at `start` (already
    /// read once, so well formed); `None` when the object has no such key.
    pub(super) fn value_of(&self, start: usize, key: &str) -> Option<Scanner<'a>> {
        let mut s = Scanner::new(self.bytes());
        s.seek(start);
        s.object_start();
        let mut first = true;
        while let Ok(Some(k)) = s.object_key(first) {
            first = false;
            if k.eq_str(key) {
                return Some(s);
            }
            s.skip_value().ok()?;
        }
        None
    }

    /// Whether the object at `start` has `key`.
    pub(super) fn has_key(&self, start: usize, key: &str) -> bool {
        self.value_of(start, key).is_some()
    }

    /// The tag value of the object at `start`: which member it picks.
    pub(super) fn tag_of(&self, start: usize, tag: &Tag) -> TagValue {
        let Some(mut s) = self.value_of(start, &tag.key) else { return TagValue::Missing };
        let at = s.offset();
        if let Ok(Kind::String) = s.peek_kind() {
            if let Ok(text) = s.string() {
                let i = tag.values.iter().position(|v| v.string.as_deref().is_some_and(|t| text.eq_str(t)));
                return match i {
                    Some(i) => TagValue::Member(i),
                    None => TagValue::Unknown(quote(&text.decode(), QUOTE_MAX)),
                };
            }
        }
        let mut canon = String::new();
        s.seek(at);
        // Bounded: a tag nested past the walk's limit is the walk's `json.depth`.
        if canonical_within(&mut s, &mut canon, MAX_DEPTH).is_none() {
            return TagValue::Missing;
        }
        match tag.values.iter().position(|v| *v.canonical == *canon) {
            Some(i) => TagValue::Member(i),
            None => TagValue::Unknown(crate::json::text::one_line(&canon).into_owned()),
        }
    }
}

pub(super) enum TagValue {
    Member(usize),
    Missing,
    /// The tag's value as a message shows it.
    Unknown(String),
}

//! The keywords that judge a value itself: type, const and enum, string
//! and number keywords.

use super::*;

impl<'c, 'a, 'm, M: Mode> SchemaWalk<'c, 'a, 'm, M> {
    /// The keywords of `node` that judge the value itself, reading it once.
    #[inline]
    pub(crate) fn own(&mut self, node: &'c Node, path: &Path<'_, 'a>, depth: usize) -> Result<(), M::Stop> {
        let kind = self.w.s.peek_kind()?;
        self.own_of(node, kind, path, depth)
    }

    /// [`Self::own`] on a value of `kind` (just peeked: the scanner is at it).
    pub(super) fn own_of(
        &mut self,
        node: &'c Node,
        kind: Kind,
        path: &Path<'_, 'a>,
        depth: usize,
    ) -> Result<(), M::Stop> {
        match kind {
            Kind::String => {
                let s = self.read_string()?;
                if self.type_ok(node, JsonType::String, path)? && node.string_checks {
                    self.string(node, &s, path)?;
                }
            }
            Kind::Number => {
                let n = self.w.s.number()?;
                let actual = if n.is_integer() { JsonType::Integer } else { JsonType::Number };
                if self.type_ok(node, actual, path)? {
                    self.number(node, &n, path)?;
                }
            }
            Kind::Bool | Kind::Null => {
                let v = self.w.s.literal()?;
                let actual = if v.is_some() { JsonType::Boolean } else { JsonType::Null };
                if self.type_ok(node, actual, path)? {
                    let text = match v {
                        Some(true) => "true",
                        Some(false) => "false",
                        None => "null",
                    };
                    self.literal(node, text, Shown::Value(text), path)?;
                }
            }
            Kind::Object | Kind::Array => {
                let is_object = kind == Kind::Object;
                let actual = if is_object { JsonType::Object } else { JsonType::Array };
                if !self.type_ok(node, actual, path)? {
                    self.w.skip(path, depth)?;
                    return Ok(());
                }
                if node.enum_values.is_some() || node.constant.is_some() {
                    let start = self.w.s.offset();
                    let mut canon = String::new();
                    // Bounded as the walk below bounds it (`json.depth`).
                    if canonical_within(&mut self.w.s, &mut canon, MAX_DEPTH - depth).is_some() {
                        let shown = Shown::Whole(if is_object { "an object" } else { "an array" });
                        self.literal(node, &canon, shown, path)?;
                    }
                    self.w.s.seek(start);
                }
                if is_object && node.any_object && depth > 0 {
                    // Below the root: neither the root's routing members
                    // nor a strict contract's unknown-key warnings apply.
                    self.w.skip_object(path, depth)?;
                } else if is_object {
                    self.object(node, path, depth)?;
                } else {
                    self.array(node, path, depth)?;
                }
            }
        }
        Ok(())
    }

    /// A string value. First-fault mode reads it through `Option`: a
    /// `Result<Str, SyntaxError>` copied through the stack overlaps at odd
    /// offsets and stalls store forwarding.
    #[inline(always)]
    pub(super) fn read_string(&mut self) -> Result<Str<'a>, M::Stop> {
        let at = self.w.s.offset();
        match self.w.s.string().ok() {
            Some(s) => Ok(s),
            None if M::COLLECTS => Err(self.string_fault(at)),
            None => Err(M::give_up()),
        }
    }

    /// A string whose text no keyword looks at ([`Scanner::skip_string`]),
    /// for a verdict: a string that is not well formed gives up, and the
    /// finding walk that follows says why.
    #[inline(always)]
    pub(super) fn skip_string(&mut self) -> Result<(), M::Stop> {
        self.w.s.skip_string().ok().ok_or_else(M::give_up)
    }

    /// The syntax fault of the string at `at`, read again (off the hot path).
    #[cold]
    #[inline(never)]
    pub(super) fn string_fault(&mut self, at: usize) -> M::Stop {
        self.w.s.seek(at);
        match self.w.s.string() {
            Err(e) => e.into(),
            Ok(_) => M::give_up(),
        }
    }

    /// The next key of an object, through `Option` as [`Self::read_string`].
    #[inline(always)]
    pub(super) fn read_key(&mut self, first: bool) -> Result<Option<Str<'a>>, M::Stop> {
        let at = self.w.s.offset();
        match self.w.s.object_key(first).ok() {
            Some(k) => Ok(k),
            None if M::COLLECTS => Err(self.key_fault(at, first)),
            None => Err(M::give_up()),
        }
    }

    #[cold]
    #[inline(never)]
    pub(super) fn key_fault(&mut self, at: usize, first: bool) -> M::Stop {
        self.w.s.seek(at);
        match self.w.s.object_key(first) {
            Err(e) => e.into(),
            Ok(_) => M::give_up(),
        }
    }

    #[inline(always)]
    pub(super) fn type_ok(&mut self, node: &Node, actual: JsonType, path: &Path<'_, '_>) -> Result<bool, M::Stop> {
        match node.types {
            Some(t) if !types::is_valid(t, actual) => {
                self.type_fault(t, actual, path)?;
                Ok(false)
            }
            _ => Ok(true),
        }
    }

    #[cold]
    #[inline(never)]
    pub(super) fn type_fault(&mut self, t: TypeSet, actual: JsonType, path: &Path<'_, '_>) -> Result<(), M::Stop> {
        self.w.mode.fault(rules::FIELD_TYPE, path, || types::message(t, actual))
    }

    /// `enum` and `const` on a value whose canonical JSON is `canon`.
    pub(super) fn literal(
        &mut self,
        node: &Node,
        canon: &str,
        shown: Shown<'_>,
        path: &Path<'_, '_>,
    ) -> Result<(), M::Stop> {
        if let Some(values) = node.enum_values.as_deref().filter(|e| !e.iter().any(|v| *v.canonical == *canon)) {
            self.w
                .mode
                .fault(rules::FIELD_ENUM, path, || enums::not_in(shown, &members_label(values, Literal::display)))?;
        }
        if let Some(c) = node.constant.as_ref().filter(|c| *c.canonical != *canon) {
            self.w.mode.fault(rules::FIELD_CONST, path, || enums::is_not(shown, &cut(c.display(), QUOTE_MAX)))?;
        }
        Ok(())
    }

    pub(super) fn string(&mut self, node: &Node, s: &Str<'a>, path: &Path<'_, '_>) -> Result<(), M::Stop> {
        let member = |v: &Literal| v.string.as_deref().is_some_and(|t| s.eq_str(t));
        if let Some(values) = node.enum_values.as_deref().filter(|e| !e.iter().any(member)) {
            self.w.mode.fault(rules::FIELD_ENUM, path, || {
                enums::not_in(Shown::Value(&quote(&s.decode(), QUOTE_MAX)), &members_label(values, Literal::display))
            })?;
        }
        if let Some(c) = node.constant.as_ref().filter(|c| !member(c)) {
            self.w.mode.fault(rules::FIELD_CONST, path, || {
                enums::is_not(Shown::Value(&quote(&s.decode(), QUOTE_MAX)), &cut(c.display(), QUOTE_MAX))
            })?;
        }
        let c = &node.constraints;
        if lengths::any(c) {
            let len = s.char_count() as u64;
            for (rule, bound, wording) in lengths::faults(c, len).into_iter().flatten() {
                self.w.mode.fault(rule, path, || lengths::message(len, bound, wording))?;
            }
        }
        if let Some(p) = c.pattern.as_ref().filter(|p| !pattern::is_valid(p, s)) {
            self.w.mode.fault(rules::FIELD_PATTERN, path, || pattern::message(p, s))?;
        }
        if let Some(name) = node.format.filter(|name| !format::is_valid(name, s)) {
            self.w.mode.fault(rules::FIELD_FORMAT, path, || format::message(name, s))?;
        }
        Ok(())
    }

    pub(super) fn number(&mut self, node: &Node, n: &Num<'a>, path: &Path<'_, '_>) -> Result<(), M::Stop> {
        let v = n.dec();
        if node.enum_values.is_some() || node.constant.is_some() {
            let mut canon = String::new();
            v.canonical(&mut canon);
            self.literal(node, &canon, Shown::Value(n.raw()), path)?;
        }
        for (rule, bound, wording) in numbers::faults(&node.constraints, &v).into_iter().flatten() {
            self.w.mode.fault(rule, path, || numbers::message(n.raw(), bound, wording))?;
        }
        Ok(())
    }
}

//! Objects: properties, pattern and additional properties, property names,
//! required keys, repeated keys.

use super::*;

impl<'c, 'a, 'm, M: Mode> SchemaWalk<'c, 'a, 'm, M> {
    #[inline(always)]
    pub(crate) fn object(&mut self, node: &'c Node, path: &Path<'_, 'a>, depth: usize) -> Result<(), M::Stop> {
        let start = self.w.s.offset();
        if node.members_only && (depth > 0 || self.memo.top.is_none()) {
            return self.plain_object(node, path, depth);
        }
        self.object_from(node, path, depth, start, None)
    }

    /// [`Self::object_from`] for an object with properties, required keys
    /// and additional properties only (where the root's members are not
    /// noted): most objects of a message, read by a loop that keeps only
    /// what they need (the general loop keeps many of the node's fields on
    /// the stack, set up again for every object). Its key lookup is
    /// `object_from`'s written out, not shared: through a helper, the
    /// seen-bits and the key stack's state leave registers.
    fn plain_object(&mut self, node: &'c Node, path: &Path<'_, 'a>, depth: usize) -> Result<(), M::Stop> {
        if depth >= MAX_DEPTH {
            return Err(self.w.mode.too_deep(path));
        }
        self.w.s.object_start();
        let mut seen = Seen::new(node.required.len());
        let mut props = Seen::new(node.properties.len());
        let base = self.w.keys_base();
        let mut others = Others::default();
        let mut first = true;
        while let Some(key) = self.read_key(first)? {
            first = false;
            let (raw, at, escaped) = (key.raw(), key.offset(), key.is_escaped());
            let key_frame;
            let here = if M::COLLECTS {
                key_frame = Path::Key(path, Str::new(raw, escaped, at));
                &key_frame
            } else {
                &Path::Root
            };
            let declared = if escaped {
                node.properties.iter().position(|(name, _)| Str::new(raw, escaped, at).eq_str(name))
            } else {
                node.property_at(raw)
            };
            let repeat = match declared {
                Some(i) => {
                    let again = props.get(i);
                    props.set(i);
                    again
                }
                None => self.w.other_repeats(base, raw, at, escaped, &mut others)?,
            };
            if repeat {
                self.w.mode.fault(rules::JSON_DUPLICATE_KEY, here, || duplicate::MESSAGE)?;
                self.w.skip(here, depth + 1)?;
                continue;
            }
            match declared {
                Some(i) => {
                    if let Some(r) = node.property_required[i] {
                        seen.set(r as usize);
                    }
                    self.property(node.properties[i].1, here, depth + 1)?;
                }
                None => self.member(node, None, &Str::new(raw, escaped, at), here, depth)?,
            }
        }
        self.w.end_object(base);
        for (i, name) in node.required.iter().enumerate() {
            if !seen.get(i) {
                let missing = Path::Name(path, name);
                self.w.mode.fault(rules::FIELD_REQUIRED, &missing, || required::MESSAGE)?;
            }
        }
        Ok(())
    }

    /// The object at `start`, from its `{`; or, with `tag`, on from the end
    /// of its first member, that declared property: a union's tag, read and
    /// judged by [`Self::union`] (a [`Resume`](crate::contract::schema::Resume)).
    pub(super) fn object_from(
        &mut self,
        node: &'c Node,
        path: &Path<'_, 'a>,
        depth: usize,
        start: usize,
        tag: Option<usize>,
    ) -> Result<(), M::Stop> {
        if depth >= MAX_DEPTH {
            return Err(self.w.mode.too_deep(path));
        }
        let mut seen = Seen::new(node.required.len());
        // Declared properties find their repeats by seen-bits; only the
        // other keys go on the walk's key stack.
        let mut props = Seen::new(node.properties.len());
        let base = self.w.keys_base();
        let mut others = Others::default();
        let mut first = true;
        let mut count = 0u64;
        match tag {
            None => self.w.s.object_start(),
            Some(i) => {
                props.set(i);
                if let Some(r) = node.property_required[i] {
                    seen.set(r as usize);
                }
                first = false;
                count = 1;
            }
        }
        let top = self.memo.top.as_ref().filter(|_| depth == 0);
        if let Some(top) = top {
            top.borrow_mut().read = true;
        }
        while let Some(key) = self.read_key(first)? {
            first = false;
            count += 1;
            // The key as scalars (in registers), and its path frame only
            // in a mode that renders paths: a `Str` copied through the stack
            // at odd offsets stalls store forwarding.
            let (raw, at, escaped) = (key.raw(), key.offset(), key.is_escaped());
            let value_at = self.w.s.offset();
            let key_frame;
            let here = if M::COLLECTS {
                key_frame = Path::Key(path, Str::new(raw, escaped, at));
                &key_frame
            } else {
                &Path::Root
            };
            let declared = if escaped {
                node.properties.iter().position(|(name, _)| Str::new(raw, escaped, at).eq_str(name))
            } else {
                node.property_at(raw)
            };
            let repeat = match declared {
                Some(i) => {
                    let again = props.get(i);
                    props.set(i);
                    again
                }
                None => self.w.other_repeats(base, raw, at, escaped, &mut others)?,
            };
            if repeat {
                self.w.mode.fault(rules::JSON_DUPLICATE_KEY, here, || duplicate::MESSAGE)?;
                self.w.skip(here, depth + 1)?;
                if let Some(top) = top {
                    top.borrow_mut().note(raw, escaped, (value_at, self.w.s.offset()));
                }
                continue;
            }
            match declared {
                Some(i) => {
                    if let Some(r) = node.property_required[i] {
                        seen.set(r as usize);
                    }
                }
                None if node.required_elsewhere => {
                    if let Some(i) = node.required.iter().position(|r| Str::new(raw, escaped, at).eq_str(r)) {
                        seen.set(i);
                    }
                }
                None => {}
            }
            if let Some(names) = node.property_names {
                self.property_name(names, &Str::new(raw, escaped, at), here, depth)?;
            }
            if let Some(i) = declared.filter(|_| node.pattern_properties.is_empty()) {
                // The common case: a declared property and no pattern.
                self.property(node.properties[i].1, here, depth + 1)?;
            } else {
                self.member(node, declared, &Str::new(raw, escaped, at), here, depth)?;
            }
            if let Some(top) = top {
                top.borrow_mut().note(raw, escaped, (value_at, self.w.s.offset()));
            }
        }
        self.w.end_object(base);
        for (i, name) in node.required.iter().enumerate() {
            if !seen.get(i) {
                let missing = Path::Name(path, name);
                self.w.mode.fault(rules::FIELD_REQUIRED, &missing, || required::MESSAGE)?;
            }
        }
        if let Some(min) = node.min_properties.filter(|&m| count < m) {
            self.w.mode.fault(rules::FIELD_MIN_PROPERTIES, path, || {
                format!("{count} properties is less than minProperties {min}")
            })?;
        }
        if let Some(max) = node.max_properties.filter(|&m| count > m) {
            self.w.mode.fault(rules::FIELD_MAX_PROPERTIES, path, || {
                format!("{count} properties is greater than maxProperties {max}")
            })?;
        }
        if !node.dependent_required.is_empty() {
            let end = self.w.s.offset();
            for (key, needs) in &node.dependent_required {
                if !self.has_key(start, key) {
                    continue;
                }
                for need in needs {
                    if !self.has_key(start, need) {
                        let missing = Path::Name(path, need);
                        self.w.mode.fault(rules::FIELD_DEPENDENT_REQUIRED, &missing, || {
                            format!("required when {} is present (dependentRequired)", quote(key, QUOTE_MAX))
                        })?;
                    }
                }
            }
            self.w.s.seek(end);
        }
        Ok(())
    }

    /// One member's value: every schema that applies to its key.
    pub(super) fn member(
        &mut self,
        node: &'c Node,
        declared: Option<usize>,
        key: &Str<'a>,
        here: &Path<'_, 'a>,
        depth: usize,
    ) -> Result<(), M::Stop> {
        let declared = declared.map(|i| node.properties[i].1);
        let mut patterns = node.pattern_properties.iter().filter(|(p, _)| p.matches(key)).map(|(_, id)| *id);
        let first = declared.or_else(|| patterns.next());
        let Some(first) = first else {
            return match node.additional {
                Some(_) if node.closed => {
                    self.w.skip(here, depth + 1)?;
                    self.w.mode.fault(rules::FIELD_ADDITIONAL_PROPERTIES, here, || closed::MESSAGE)
                }
                Some(extra) => self.value(extra, here, depth + 1, 0),
                None => {
                    // A warning: never a fault of a membership test, but
                    // one of a whole body's "no finding at all".
                    if (M::COLLECTS || self.whole) && depth == 0 && self.schema.strict {
                        self.w.mode.fault(rules::FIELD_UNKNOWN, here, || unknown::MESSAGE)?;
                    }
                    self.w.skip(here, depth + 1)?;
                    Ok(())
                }
            };
        };
        if node.pattern_properties.is_empty() {
            return self.value(first, here, depth + 1, 0);
        }
        self.w.s.peek_kind()?;
        let start = self.w.s.offset();
        self.value(first, here, depth + 1, 0)?;
        let rest: Vec<Id> = if declared.is_some() {
            node.pattern_properties.iter().filter(|(p, _)| p.matches(key)).map(|(_, id)| *id).collect()
        } else {
            patterns.collect()
        };
        if !rest.is_empty() {
            let end = self.w.s.offset();
            for id in rest {
                self.again(id, start, here, depth + 1, 0)?;
            }
            self.w.s.seek(end);
        }
        Ok(())
    }

    /// `propertyNames`: the key, read as a string value, against `names`.
    pub(super) fn property_name(
        &mut self,
        names: Id,
        key: &Str<'a>,
        here: &Path<'_, 'a>,
        depth: usize,
    ) -> Result<(), M::Stop> {
        let at = key.offset() - 1;
        let resume = self.w.s.offset();
        if !self.valid(names, at, depth + 1, 0) {
            self.fault_with(rules::FIELD_PROPERTY_NAMES, here, |this| {
                let found = this.findings(names, at, here, depth + 1, 0);
                let why = found.first().map_or(String::new(), |f| format!(": {} {}", f.rule(), f.message()));
                format!("key {} is not allowed by propertyNames{why}", quote(&key.decode(), QUOTE_MAX))
            })?;
        }
        self.w.s.seek(resume);
        Ok(())
    }
}

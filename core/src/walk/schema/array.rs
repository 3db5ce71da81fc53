//! Arrays: items, prefix items, contains, lengths, unique items.

use super::*;

impl<'c, 'a, 'm, M: Mode> SchemaWalk<'c, 'a, 'm, M> {
    pub(crate) fn array(&mut self, node: &'c Node, path: &Path<'_, 'a>, depth: usize) -> Result<(), M::Stop> {
        if depth >= MAX_DEPTH {
            return Err(self.w.mode.too_deep(path));
        }
        self.w.s.array_start();
        let unique = node.constraints.unique_items;
        let base = self.w.spans_base();
        let mut count = 0usize;
        let mut matched = 0u64;
        while self.w.s.array_next(count == 0)? {
            let index_frame = Path::Index(path, count);
            let here = M::frame(&index_frame);
            self.w.s.peek_kind()?;
            let start = self.w.s.offset();
            let element = node.prefix_items.get(count).copied().or(node.items);
            match element {
                Some(id) if count >= node.prefix_items.len() && self.schema.node(id).never => {
                    self.w.skip(here, depth + 1)?;
                    let declared = node.prefix_items.len();
                    self.w.mode.fault(rules::FIELD_ITEMS, here, || {
                        format!("element {count} is not allowed: the array holds at most {declared} (items: false)")
                    })?;
                }
                Some(id) => self.property(id, here, depth + 1)?,
                None => {
                    self.w.skip(here, depth + 1)?;
                }
            }
            if let Some(contains) = node.contains {
                let end = self.w.s.offset();
                if self.valid(contains, start, depth + 1, 0) {
                    matched += 1;
                }
                self.w.s.seek(end);
            }
            if unique {
                self.w.span(start);
            }
            count += 1;
        }
        let n = count as u64;
        for (rule, bound, wording) in items::faults(&node.constraints, n).into_iter().flatten() {
            self.w.mode.fault(rule, path, || items::message(n, bound, wording))?;
        }
        if unique {
            self.w.unique(base, path)?;
        }
        if node.contains.is_some() {
            let min = node.min_contains.unwrap_or(1);
            if matched < min {
                let rule = if node.min_contains.is_some() { rules::FIELD_MIN_CONTAINS } else { rules::FIELD_CONTAINS };
                self.w.mode.fault(rule, path, || match node.min_contains {
                    None => "no element matches the schema under 'contains'".into(),
                    Some(_) => format!("{matched} elements match 'contains', fewer than minContains {min}"),
                })?;
            }
            if let Some(max) = node.max_contains.filter(|&m| matched > m) {
                self.w.mode.fault(rules::FIELD_MAX_CONTAINS, path, || {
                    format!("{matched} elements match 'contains', more than maxContains {max}")
                })?;
            }
        }
        Ok(())
    }
}

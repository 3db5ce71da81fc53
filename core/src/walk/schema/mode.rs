//! The schema walk's modes: [`First`] stops at the first fault, [`Lean`]
//! writes every finding in one pass.

use super::*;

/// Stops at the first fault, never gives up: an exact verdict.
pub(crate) struct First;

impl Mode for First {
    type Stop = Fail;
    const COLLECTS: bool = false;

    fn give_up() -> Fail {
        Fail
    }

    #[inline(always)]
    fn fault<T: Message>(&mut self, _: &'static Rule, _: &Path<'_, '_>, _: impl FnOnce() -> T) -> Result<(), Fail> {
        Err(Fail)
    }

    fn too_deep(&mut self, _: &Path<'_, '_>) -> Fail {
        Fail
    }

    #[inline(always)]
    fn frame<'f, 'p, 'a>(_: &'f Path<'p, 'a>) -> &'f Path<'p, 'a> {
        &Path::Root
    }
}

/// Every finding, like [`Collect`], but with [`First`]'s one-byte stop: a
/// wide stop carried through every return of the walk costs about a fifth
/// of a collect walk's time. A walk that stops early (a syntax fault, too
/// deep: rare) is read again by [`Collect`], whose stop says why.
#[derive(Default)]
pub(crate) struct Lean {
    pub(super) findings: Vec<Finding>,
}

impl Mode for Lean {
    type Stop = Fail;
    const COLLECTS: bool = true;

    fn give_up() -> Fail {
        Fail
    }

    #[inline]
    fn fault<T: Message>(
        &mut self,
        rule: &'static Rule,
        path: &Path<'_, '_>,
        message: impl FnOnce() -> T,
    ) -> Result<(), Fail> {
        crate::walk::record(&mut self.findings, rule, path, message);
        Ok(())
    }

    #[cold]
    fn too_deep(&mut self, _: &Path<'_, '_>) -> Fail {
        Fail
    }

    #[inline(always)]
    fn frame<'f, 'p, 'a>(frame: &'f Path<'p, 'a>) -> &'f Path<'p, 'a> {
        frame
    }

    fn replay(&mut self, found: Vec<Finding>) {
        self.findings.extend(found);
    }
}

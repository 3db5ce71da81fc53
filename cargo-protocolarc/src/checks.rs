//! The rules of `check` (and of the CI formats of `diff --against`), one
//! record each. The chain and lock rules belong to the library
//! (`protocolarc::chain::BUMP_INSUFFICIENT`, `protocolarc::lock::LOCK_MISSING`,
//! `LOCK_MISMATCH`); the rules about files, git history, fixtures and the
//! accept list are defined here. Every problem the CLI reports names one of
//! these constants, and `rules` reads [`CHECK_RULES`].

use protocolarc::chain::{CheckRule, BUMP_INSUFFICIENT};
use protocolarc::lock::{LOCK_MISMATCH, LOCK_MISSING};

/// A contract file that does not load.
pub const CONTRACT_LOAD: &CheckRule = &CheckRule {
    id: "contract.load",
    summary: "a contract file does not load (exit 3)",
    explanation: "Every `*.json` file in the contracts directory must be a contract that loads and can be \
                  pinned (its numbers have a canonical form). Every other check needs the contracts, so a file that \
                  does not load makes `check` exit 3 after reporting every problem it could find.",
    example: "contracts/t_1.0.0.json declares `\"maxLength\": 5` on an integer field",
    fix: "Fix the file at the line and column the message gives.",
};

/// Two files defining one name and revision.
pub const CONTRACT_DUPLICATE: &CheckRule = &CheckRule {
    id: "contract.duplicate",
    summary: "two files define the same contract name and revision",
    explanation: "A name and revision identify one contract: two files claiming the same pair leave it open which \
                  one clients, the lock and the chains mean.",
    example: "contracts/t_1.0.0.json and contracts/t_copy.json both define t.call 1.0.0",
    fix: "Delete one of the files, or give it the next revision.",
};

/// A published revision edited in place.
pub const REVISION_MUTATED: &CheckRule = &CheckRule {
    id: "revision.mutated",
    summary: "a revision published at the base has other content now: publish a new revision instead",
    explanation: "A revision that exists at the git base is published: clients pinned to it rely on its content. \
                  Its canonical content (whitespace and key order aside) must not change; relocking does not \
                  launder the edit, because the base still has the published content.",
    example: "t.call 1.0.0 is committed at HEAD, and its `maximum` is edited in the working tree",
    fix: "Undo the edit and publish the change as a new revision with the bump it needs.",
};

/// A published revision whose file is gone.
pub const REVISION_DELETED: &CheckRule = &CheckRule {
    id: "revision.deleted",
    summary: "the file of a revision published at the base is gone (and was not edited into a later revision)",
    explanation: "Clients pinned to a published revision break when it disappears. A file edited in place into a \
                  later revision (one file per contract) is not a deletion: the later revision is checked against \
                  the published one instead.",
    example: "contracts/t_1.0.0.json is committed at HEAD and deleted in the working tree",
    fix: "Restore the file; retire a revision by documenting it, not by deleting it.",
};

/// A fixture envelope that fails its contract.
pub const FIXTURE_INVALID: &CheckRule = &CheckRule {
    id: "fixture.invalid",
    summary: "a fixture envelope fails its contract",
    explanation: "Fixtures are the examples a project promises its contracts accept. Each envelope in the fixtures \
                  directory must name a contract (and revision) the project defines and pass it with no error.",
    example: "contracts/fixtures/calls.jsonl line 3 sends `\"method\": \"tools/list\"` to a contract whose enum is \
              [\"tools/call\"]",
    fix: "Correct the fixture, or the contract in a new revision if the fixture shows what clients really send.",
};

/// An approval that approves nothing.
pub const ACCEPT_STALE: &CheckRule = &CheckRule {
    id: "accept.stale",
    summary: "an accept entry matches no change any more",
    explanation: "An `accept` entry approves one change (contract, revision, rule, field) so that it does not \
                  count towards the bump. An entry that matches no change of any checked pair approves nothing and \
                  would silently approve a future change that happens to match.",
    example: "accept = [{ contract = \"t.call\", revision = \"1.1.0\", rule = \"field.maximum.tightened\", field = \
              \"id\", reason = \"...\" }] while 1.1.0 tightens `limit`, not `id`",
    fix: "Remove the entry, or correct its rule and field.",
};

/// Every rule `check` can report, in the order `rules` lists them.
pub const CHECK_RULES: &[&CheckRule] = &[
    CONTRACT_LOAD,
    CONTRACT_DUPLICATE,
    BUMP_INSUFFICIENT,
    REVISION_MUTATED,
    REVISION_DELETED,
    LOCK_MISSING,
    LOCK_MISMATCH,
    FIXTURE_INVALID,
    ACCEPT_STALE,
];

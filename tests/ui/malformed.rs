#[protocolarc::contract("contracts/malformed.json")]
pub struct Contract;

fn main() {
    // The struct is still there: no cascade of "cannot find type" errors.
    let _ = Contract;
}

#[protocolarc::contract("../../../../tests/ui/contracts/does_not_exist.json")]
pub struct Missing;

fn main() {}

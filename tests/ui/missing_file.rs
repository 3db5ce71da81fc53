#[protocolarc::contract("contracts/does_not_exist.json")]
pub struct Missing;

fn main() {}

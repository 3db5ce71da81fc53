#[protocolarc::contract("../../../../tests/ui/contracts/v1.json", compatible = "x.json")]
pub struct Contract;

fn main() {}

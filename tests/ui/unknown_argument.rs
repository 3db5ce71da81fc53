#[protocolarc::contract("contracts/v1.json", compatible = "x.json")]
pub struct Contract;

fn main() {}

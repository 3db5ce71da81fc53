#[protocolarc::contract("contracts/v1_1.json", compatible_with = "contracts/other.json")]
pub struct Limits;

fn main() {}

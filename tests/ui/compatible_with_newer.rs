#[protocolarc::contract("../../../../tests/ui/contracts/v1.json", compatible_with = "../../../../tests/ui/contracts/v1_1.json")]
pub struct Limits;

fn main() {}

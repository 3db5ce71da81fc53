#[protocolarc::contract("../../../../tests/ui/contracts/v1_1.json", compatible_with = "../../../../tests/ui/contracts/other.json")]
pub struct Limits;

fn main() {}

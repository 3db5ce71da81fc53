#[protocolarc::contract(
    "contracts/v1_1.json",
    compatible_with = "contracts/v1.json",
    compatible_with = "contracts/v1.json"
)]
pub struct Limits;

fn main() {}

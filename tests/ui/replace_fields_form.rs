#[protocolarc::contract("contracts/v1.json", replace(Params = String))]
pub struct Contract;

fn main() {}

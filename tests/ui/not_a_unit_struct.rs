#[protocolarc::contract("contracts/v1.json")]
pub struct Fields {
    a: u8,
}

fn main() {}

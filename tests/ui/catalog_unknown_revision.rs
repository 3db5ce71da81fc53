#[protocolarc::catalog("mcp@2099-01-01")]
pub mod mcp {}

fn main() {}

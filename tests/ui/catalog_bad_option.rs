#[protocolarc::catalog("mcp@2025-11-25", patch(Role = Speaker))]
pub mod mcp {}

fn main() {}

#[protocolarc::catalog("mcp@2025-11-25", rename(Rol = Speaker))]
pub mod mcp {}

fn main() {}

#[protocolarc::contract("contracts/unknown_type.json")]
pub struct Contract;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // The struct is still there, implementing `Contract`: no cascade of
    // "cannot find type" or "no function `from_json`" errors.
    let _ = Contract;
    let _ = <Contract as protocolarc::Contract>::NAME;
    let _parsed = <Contract as protocolarc::Contract>::from_json(b"{}")?;
    Ok(())
}

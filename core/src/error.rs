//! Small shared helpers for errors.

/// An I/O error in words, without the OS error number.
pub fn io_reason(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file or directory".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        std::io::ErrorKind::IsADirectory => "is a directory".into(),
        _ => {
            let text = e.to_string();
            let text = text.find(" (os error").map_or(text.as_str(), |at| &text[..at]);
            // The OS says "Is a directory"; messages here are lower case.
            let mut chars = text.chars();
            chars.next().map_or_else(String::new, |c| c.to_lowercase().chain(chars).collect())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::io_reason;

    #[test]
    fn reasons_are_lower_case_without_the_os_number() {
        let dir = std::fs::read(std::env::temp_dir()).expect_err("a directory is not a file");
        assert_eq!(io_reason(&dir), "is a directory");
        let gone = std::fs::read("/no/such/protocolarc/file").expect_err("missing");
        assert_eq!(io_reason(&gone), "no such file or directory");
        let other = std::io::Error::other("Broken pipe (os error 32)");
        assert_eq!(io_reason(&other), "broken pipe");
    }
}

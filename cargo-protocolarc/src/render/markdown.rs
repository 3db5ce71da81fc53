//! Markdown cell helpers shared by the Markdown renderers.

/// Text safe inside a table cell: pipes escaped (GitHub reads `\|` even in a
/// code span), line breaks folded.
pub fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace(['\n', '\r'], " ")
}

/// An inline code span that survives backticks in the text.
pub fn code(text: &str) -> String {
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    let pad = if text.starts_with('`') || text.ends_with('`') { " " } else { "" };
    format!("{fence}{pad}{text}{pad}{fence}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_and_code_spans_are_safe() {
        assert_eq!(cell("a|b\nc"), "a\\|b c");
        assert_eq!(code("x"), "`x`");
        assert_eq!(code("a`b"), "``a`b``");
        assert_eq!(code("`a"), "`` `a ``");
    }
}

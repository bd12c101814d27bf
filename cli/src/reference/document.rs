//! Reading a Markdown document of `docs/` for the tests that hold it to the tool: its
//! sections, and the names it mentions as code (`` `name` ``).

/// A document of `docs/`, read from the checkout.
pub struct Document {
    /// Its path, relative to the repository, for messages.
    pub path: &'static str,
    text: String,
}

impl Document {
    /// Reads `path` (relative to the repository).
    pub fn read(path: &'static str) -> Self {
        let full = crate::firmware::repo_root().join(path);
        let text = std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
        Self { path, text }
    }

    /// The text under the `## ` heading `title`, up to the next `## ` heading.
    pub fn section(&self, title: &str) -> Option<&str> {
        let heading = format!("## {title}\n");
        let start = self.text.find(&heading)? + heading.len();
        let rest = &self.text[start..];
        Some(rest.find("\n## ").map_or(rest, |end| &rest[..end]))
    }

    /// The whole text.
    pub fn text(&self) -> &str {
        &self.text
    }
}

/// Of `names`, those `text` does not mention as code, `` `name` ``.
pub fn unmentioned<'a>(text: &str, names: impl IntoIterator<Item = &'a str>) -> Vec<&'a str> {
    names
        .into_iter()
        .filter(|name| !text.contains(&format!("`{name}`")))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_section_ends_at_the_next_heading_and_names_count_as_code_only() {
        let doc = Document {
            path: "x.md",
            text: String::from("# T\n\n## `a`\n\n`x` and y\n\n## `b`\n\n`y`\n"),
        };
        let a = doc.section("`a`").unwrap();
        assert_eq!(unmentioned(a, ["x", "y"]), ["y"]);
        assert_eq!(unmentioned(doc.section("`b`").unwrap(), ["x", "y"]), ["x"]);
        assert!(doc.section("`c`").is_none());
    }
}

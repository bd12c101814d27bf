//! `docs/cli.md`: every command of the tool with its usage, arguments and options, each with
//! its help, values, default and environment variable, rendered from the clap definitions
//! the tool parses its command line with.

use std::fmt::Write as _;

use clap::{Arg, ArgAction, Command};

/// The command that writes `docs/cli.md`.
const REGENERATE: &str = "cyclebench reference cli > docs/cli.md";

/// The whole reference of `root` and its visible commands, in Markdown.
pub fn render(mut root: Command) -> String {
    // Building gives every command its full name (`cyclebench submit slurm`) for its usage.
    root.build();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Generated from the tool's own definitions by `{REGENERATE}`; a test fails when this file \
         and the tool differ.\n\n# Command-line reference\n"
    );
    if let Some(about) = root.get_long_about().or(root.get_about()) {
        let _ = writeln!(out, "{}\n", paragraphs(&about.to_string(), ""));
    }
    let _ = writeln!(
        out,
        "Every command takes `-h` (its help in short) and `--help` (its help as below); \
         `{} --version` prints the version.\n",
        root.get_name()
    );
    commands(&mut out, &root);
    out
}

/// The commands under `command` that a user sees: neither hidden nor clap's own `help`.
fn visible(command: &Command) -> impl Iterator<Item = &Command> {
    command
        .get_subcommands()
        .filter(|c| !c.is_hide_set() && c.get_name() != "help")
}

/// Full name of a built command (`cyclebench submit slurm`).
fn full_name(command: &Command) -> &str {
    command.get_bin_name().unwrap_or(command.get_name())
}

/// The anchor a Markdown renderer gives the heading of `command`.
fn anchor(command: &Command) -> String {
    full_name(command).replace(' ', "-")
}

/// A table of the commands under `parent`, then a section of each, depth first.
fn commands(out: &mut String, parent: &Command) {
    let children: Vec<&Command> = visible(parent).collect();
    if children.is_empty() {
        return;
    }
    out.push_str("| Command | What it does |\n|---|---|\n");
    for child in &children {
        let about = child.get_about().map(|a| a.to_string()).unwrap_or_default();
        let _ = writeln!(
            out,
            "| [`{}`](#{}) | {} |",
            full_name(child),
            anchor(child),
            cell(&about)
        );
    }
    out.push('\n');
    for child in children {
        section(out, child);
        commands(out, child);
    }
}

/// One command's section: what it does, its usage, its arguments and its options.
fn section(out: &mut String, command: &Command) {
    let _ = writeln!(out, "## `{}`\n", full_name(command));
    if let Some(about) = command.get_long_about().or(command.get_about()) {
        let _ = writeln!(out, "{}\n", paragraphs(&about.to_string(), ""));
    }
    let usage = command.clone().render_usage().to_string();
    let _ = writeln!(out, "```text\n{}\n```\n", usage.trim_end());
    let shown: Vec<&Arg> = command
        .get_arguments()
        .filter(|a| !a.is_hide_set() && !is_clap_own(a))
        .collect();
    for (title, positional) in [("Arguments", true), ("Options", false)] {
        let group: Vec<&Arg> = shown
            .iter()
            .copied()
            .filter(|a| a.is_positional() == positional)
            .collect();
        if group.is_empty() {
            continue;
        }
        let _ = writeln!(out, "**{title}**\n");
        for arg in group {
            argument(out, arg);
        }
        out.push('\n');
    }
}

/// `--help` and `--version`, which every command has and the introduction mentions once.
fn is_clap_own(arg: &Arg) -> bool {
    matches!(
        arg.get_action(),
        ArgAction::Help | ArgAction::HelpShort | ArgAction::HelpLong | ArgAction::Version
    )
}

/// One argument or option as a list item: its form, help, values, default and variable.
fn argument(out: &mut String, arg: &Arg) {
    let help = arg
        .get_long_help()
        .or(arg.get_help())
        .map(|h| h.to_string())
        .unwrap_or_default();
    let _ = writeln!(out, "- `{}`: {}", form(arg), paragraphs(&help, "  "));
    let takes_value = arg.get_action().takes_values();
    if takes_value {
        let values: Vec<_> = arg
            .get_possible_values()
            .into_iter()
            .filter(|v| !v.is_hide_set())
            .collect();
        if !values.is_empty() {
            out.push_str("\n  Values:\n");
            for value in values {
                match value.get_help() {
                    Some(help) => {
                        let _ = writeln!(
                            out,
                            "  - `{}`: {}",
                            value.get_name(),
                            paragraphs(&help.to_string(), "    ")
                        );
                    }
                    None => {
                        let _ = writeln!(out, "  - `{}`", value.get_name());
                    }
                }
            }
        }
        let defaults: Vec<String> = arg
            .get_default_values()
            .iter()
            .map(|d| format!("`{}`", d.to_string_lossy()))
            .collect();
        if !defaults.is_empty() && !arg.is_hide_default_value_set() {
            let _ = writeln!(out, "\n  Default: {}.", defaults.join(", "));
        }
    }
    if let Some(variable) = arg.get_env() {
        let _ = writeln!(out, "\n  Environment variable: `{}`.", variable.to_string_lossy());
    }
}

/// How an argument is written: `<FILES>...`, `-j, --jobs <JOBS>`, `--yes`.
fn form(arg: &Arg) -> String {
    let names: Vec<String> = arg
        .get_value_names()
        .map(|names| names.iter().map(|n| format!("<{n}>")).collect())
        .unwrap_or_else(|| vec![format!("<{}>", arg.get_id().as_str().to_uppercase())]);
    let many = arg.get_num_args().is_some_and(|n| n.max_values() > 1);
    let value = format!("{}{}", names.join(" "), if many { "..." } else { "" });
    if arg.is_positional() {
        return value;
    }
    let mut text = String::new();
    if let Some(short) = arg.get_short() {
        let _ = write!(text, "-{short}, ");
    }
    if let Some(long) = arg.get_long() {
        let _ = write!(text, "--{long}");
    }
    if arg.get_action().takes_values() {
        let _ = write!(text, " {value}");
    }
    text
}

/// Help text in Markdown: its paragraphs kept, every line after the first indented by
/// `indent` (so a paragraph stays inside its list item).
fn paragraphs(text: &str, indent: &str) -> String {
    let text = literal(text.trim());
    let mut out = String::new();
    for (i, line) in text.lines().enumerate() {
        if i > 0 {
            out.push('\n');
            if !line.trim().is_empty() {
                out.push_str(indent);
            }
        }
        out.push_str(line.trim_end());
    }
    out
}

/// Text for one table cell: one line, no column separator.
fn cell(text: &str) -> String {
    literal(&text.split_whitespace().collect::<Vec<_>>().join(" ")).replace('|', "\\|")
}

/// Help text as Markdown shows it literally: outside code spans, `<` would open an HTML tag
/// (`results/<timestamp>/` would lose its placeholder) and `*` emphasis.
fn literal(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_code = false;
    for c in text.chars() {
        match c {
            '`' => in_code = !in_code,
            '<' if !in_code => {
                out.push_str("&lt;");
                continue;
            }
            '*' if !in_code => out.push('\\'),
            _ => {}
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::*;

    fn rendered() -> String {
        render(crate::Cli::command())
    }

    #[test]
    fn every_visible_command_and_option_is_rendered() {
        let text = rendered();
        let mut root = crate::Cli::command();
        root.build();
        let mut stack = vec![&root];
        let mut seen = 0;
        while let Some(command) = stack.pop() {
            for child in visible(command) {
                assert!(
                    text.contains(&format!("## `{}`", full_name(child))),
                    "{}",
                    full_name(child)
                );
                for arg in child.get_arguments().filter(|a| !a.is_hide_set() && !is_clap_own(a)) {
                    assert!(
                        text.contains(&format!("- `{}`", form(arg))),
                        "{}: {}",
                        full_name(child),
                        form(arg)
                    );
                    seen += 1;
                }
                stack.push(child);
            }
        }
        assert!(seen > 30, "only {seen} options");
        // Hidden commands and options are for testing the tool, not for its users.
        assert!(!text.contains("reference cli`]") && !text.contains("--inject-faults"));
        assert!(text.contains("Default: `12`.") && text.contains("Environment variable: `CYCLEBENCH_CACHE`."));
    }

    #[test]
    fn help_keeps_its_paragraphs_inside_the_list_item() {
        assert_eq!(paragraphs("a\n\nb\nc\n", "  "), "a\n\n  b\n  c");
        assert_eq!(cell("a |\n b"), "a \\| b");
        assert_eq!(literal("results/<target>/ `<i>` *x"), "results/&lt;target>/ `<i>` \\*x");
    }
}

//! The README's example output is what the commands print today: every `$ kifu …` line in a
//! plain fenced block of README.md is run from the repository root and its output (standard
//! error, then standard output, as a terminal shows them) compared with the lines under it.
//!
//! In the README, a line that is only `…` stands for lines left out, and `…` inside a line for
//! text left out (a timing, the rest of a long line); everything else must match exactly and
//! in order. Output that is not UTF-8 (KIF and KI2 in Shift_JIS) is decoded as a KIF reader
//! would before comparing.

use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

struct Example {
    line: usize,
    args: Vec<String>,
    expected: Vec<String>,
}

/// The `$ kifu` commands of plain ``` blocks (``` with a language are illustrations with
/// placeholder files).
fn examples(readme: &str) -> Vec<Example> {
    let mut out: Vec<Example> = Vec::new();
    // Whether the last example is still collecting its output (it ends with its block).
    let mut open = false;
    let mut in_plain_block = false;
    let mut in_other_block = false;
    for (i, line) in readme.lines().enumerate() {
        if let Some(rest) = line.strip_prefix("```") {
            if in_plain_block || in_other_block {
                open = false;
                in_plain_block = false;
                in_other_block = false;
            } else if rest.trim().is_empty() {
                in_plain_block = true;
            } else {
                in_other_block = true;
            }
            continue;
        }
        if !in_plain_block {
            continue;
        }
        if let Some(command) = line.strip_prefix("$ kifu ") {
            let command = command.split(" #").next().unwrap();
            out.push(Example {
                line: i + 1,
                args: command.split_whitespace().map(str::to_string).collect(),
                expected: Vec::new(),
            });
            open = true;
        } else if open && let Some(example) = out.last_mut() {
            example.expected.push(line.to_string());
        }
    }
    out
}

/// `…` inside a line matches any text (possibly none).
fn line_matches(pattern: &str, line: &str) -> bool {
    let mut parts = pattern.split('…');
    let first = parts.next().unwrap();
    let Some(mut rest) = line.strip_prefix(first) else {
        return false;
    };
    let parts: Vec<&str> = parts.collect();
    for (i, part) in parts.iter().enumerate() {
        if i + 1 == parts.len() {
            return rest.ends_with(part);
        }
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.is_empty()
}

/// The expected lines, split at `…` lines, as runs of consecutive output lines in order.
fn output_matches(expected: &[String], actual: &[String]) -> Result<(), String> {
    let open_start = expected.first().is_some_and(|l| l == "…");
    let open_end = expected.last().is_some_and(|l| l == "…");
    let runs: Vec<&[String]> = expected
        .split(|l| l == "…")
        .filter(|run| !run.is_empty())
        .collect();
    let mut at = 0;
    for (i, run) in runs.iter().enumerate() {
        let fits = |start: usize| {
            start + run.len() <= actual.len()
                && run
                    .iter()
                    .zip(&actual[start..])
                    .all(|(p, l)| line_matches(p, l))
        };
        let start = if i == 0 && !open_start {
            fits(0).then_some(0)
        } else {
            (at..actual.len()).find(|&s| fits(s))
        };
        match start {
            Some(s) => at = s + run.len(),
            None => return Err(format!("not found in order: {run:#?}")),
        }
    }
    if !open_end && at != actual.len() {
        return Err(format!(
            "more output than shown (mark it with a `…` line): {:#?}",
            &actual[at..]
        ));
    }
    Ok(())
}

fn decoded(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(text) => text.to_string(),
        Err(_) => kifu_record::decode(bytes, kifu_record::TextEncoding::ShiftJis)
            .text
            .into_owned(),
    }
}

#[test]
fn the_readme_shows_what_the_commands_print() {
    let readme = std::fs::read_to_string(repo().join("README.md")).unwrap();
    let examples = examples(&readme);
    assert!(
        examples.len() >= 10,
        "only {} examples found",
        examples.len()
    );
    let mut failures = Vec::new();
    for example in &examples {
        let out = Command::new(env!("CARGO_BIN_EXE_kifu"))
            .args(&example.args)
            .current_dir(repo())
            .output()
            .unwrap();
        let mut actual: Vec<String> = decoded(&out.stderr).lines().map(str::to_string).collect();
        actual.extend(decoded(&out.stdout).lines().map(str::to_string));
        if let Err(why) = output_matches(&example.expected, &actual) {
            failures.push(format!(
                "README.md:{} `kifu {}`: {why}\nprinted:\n{}",
                example.line,
                example.args.join(" "),
                actual.join("\n")
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn the_matcher_is_strict_where_the_readme_is() {
    let lines = |s: &str| s.lines().map(str::to_string).collect::<Vec<_>>();
    let out = lines("a\nb 1.00 s\nc\nd");
    assert!(output_matches(&lines("a\nb … s\n…"), &out).is_ok());
    assert!(output_matches(&lines("…\nc\nd"), &out).is_ok());
    assert!(output_matches(&lines("a\n…\nd"), &out).is_ok());
    assert!(
        output_matches(&lines("a\nb … s"), &out).is_err(),
        "unmarked tail"
    );
    assert!(
        output_matches(&lines("b … s\n…"), &out).is_err(),
        "unmarked head"
    );
    assert!(
        output_matches(&lines("a\nc\n…"), &out).is_err(),
        "unmarked gap"
    );
    assert!(output_matches(&lines("…\nd\nc"), &out).is_err(), "order");
    assert!(line_matches(
        "position startpos moves 4g4f …",
        "position startpos moves 4g4f 9a9b"
    ));
    assert!(!line_matches("x … z", "x y"));
}

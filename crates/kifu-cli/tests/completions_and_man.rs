//! `kifu completions` and `kifu man`: generated for every subcommand `kifu --help` lists, and the
//! bash script actually completes them when bash runs it.

use std::path::Path;
use std::process::{Command, Output};

fn kifu(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kifu"))
        .args(args)
        .output()
        .unwrap()
}

fn stdout_of(args: &[&str]) -> String {
    let out = kifu(args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "kifu {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The subcommands as `kifu --help` lists them (not `help`, which has no page or completions of
/// its own worth testing), so a subcommand added later is covered without touching this test.
fn subcommands() -> Vec<String> {
    let help = stdout_of(&["--help"]);
    let listed: Vec<String> = help
        .lines()
        .skip_while(|line| *line != "Commands:")
        .skip(1)
        .take_while(|line| !line.trim().is_empty())
        // A subcommand's line is indented two spaces; a description too long for one line
        // continues on lines indented further, which name no subcommand.
        .filter(|line| line.starts_with("  ") && !line.starts_with("   "))
        .filter_map(|line| line.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_string)
        .collect();
    assert!(listed.len() >= 9, "{help}");
    listed
}

/// What bash's programmable completion offers for the words typed so far, by sourcing the
/// generated script and calling its function as bash would on TAB.
fn bash_completes(script: &Path, words: &[&str]) -> Vec<String> {
    let words_array: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
    let program = format!(
        "source '{}'\nCOMP_WORDS=({})\nCOMP_CWORD={}\n_kifu kifu '{}' '{}'\nprintf '%s\\n' \"${{COMPREPLY[@]}}\"",
        script.display(),
        words_array.join(" "),
        words.len() - 1,
        words[words.len() - 1],
        words[words.len() - 2],
    );
    let out = Command::new("bash")
        .arg("-c")
        .arg(program)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn bash_completion_offers_every_subcommand_and_their_options() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("kifu.bash");
    std::fs::write(&script, stdout_of(&["completions", "bash"])).unwrap();

    let offered = bash_completes(&script, &["kifu", ""]);
    for name in subcommands() {
        assert!(offered.contains(&name), "`{name}` not offered: {offered:?}");
    }
    assert_eq!(bash_completes(&script, &["kifu", "conv"]), ["convert"]);
    assert!(bash_completes(&script, &["kifu", "convert", "--t"]).contains(&"--to".to_string()));
    assert_eq!(
        bash_completes(&script, &["kifu", "completions", "f"]),
        ["fish"]
    );
}

#[test]
fn every_shell_gets_a_script_naming_every_subcommand() {
    let subcommands = subcommands();
    for (shell, marker) in [
        ("bash", "complete -F _kifu"),
        ("zsh", "#compdef kifu"),
        ("fish", "complete -c kifu"),
        (
            "powershell",
            "Register-ArgumentCompleter -Native -CommandName 'kifu'",
        ),
    ] {
        let script = stdout_of(&["completions", shell]);
        assert!(script.contains(marker), "{shell}: no `{marker}`");
        for name in &subcommands {
            assert!(script.contains(name.as_str()), "{shell}: `{name}` missing");
        }
    }
    let out = kifu(&["completions", "tcsh"]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "an unknown shell is a usage error"
    );
}

#[test]
fn man_writes_one_page_per_subcommand() {
    let dir = tempfile::tempdir().unwrap();
    let man1 = dir.path().join("share/man/man1");
    stdout_of(&["man", "-o", man1.to_str().unwrap()]);

    let mut expected: Vec<String> = subcommands()
        .iter()
        .map(|s| format!("kifu-{s}.1"))
        .collect();
    expected.push("kifu.1".to_string());
    // Nested subcommands get pages of their own too.
    expected.push("kifu-csa-server-standings.1".to_string());
    expected.sort();
    let mut written: Vec<String> = std::fs::read_dir(&man1)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    written.sort();
    assert_eq!(written, expected);

    let top = std::fs::read_to_string(man1.join("kifu.1")).unwrap();
    assert!(top.contains(".TH kifu 1"), "{top}");
    assert!(
        top.contains("kifu\\-check(1)"),
        "the subcommands are cross-referenced: {top}"
    );
    let check = std::fs::read_to_string(man1.join("kifu-check.1")).unwrap();
    assert!(check.contains(".TH kifu-check 1"), "{check}");
    assert!(
        check.contains(".SH SYNOPSIS") && check.contains("\\-\\-json"),
        "{check}"
    );
    assert!(check.contains(env!("CARGO_PKG_VERSION")), "{check}");
}

#[test]
fn man_prints_one_page_and_refuses_an_unknown_subcommand() {
    assert!(stdout_of(&["man"]).contains(".TH kifu 1"));
    let page = stdout_of(&["man", "csa-server"]);
    assert!(page.contains(".TH kifu-csa-server 1"), "{page}");
    assert!(page.contains("\\-\\-port"), "{page}");

    let out = kifu(&["man", "no-such-command"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("no subcommand `no-such-command`"),
        "{stderr}"
    );
}

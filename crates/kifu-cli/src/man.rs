//! `kifu man`: manual pages in roff, generated from the clap definition of the commands, so the
//! pages say exactly what `--help` says.
//!
//! With `-o DIR`, one page per command is written (`kifu.1`, `kifu-check.1`, …) for installing
//! under a `man1` directory; without it, one page goes to standard output (`kifu man | man -l -`).

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::error::ErrorKind;
use clap_mangen::Man;

use crate::Outcome;

#[derive(clap::Args)]
pub struct Args {
    /// The subcommand whose page to print (default: the page of `kifu` itself).
    #[arg(value_name = "SUBCOMMAND")]
    subcommand: Option<String>,
    /// Write every page, kifu.1 and kifu-SUBCOMMAND.1 for each subcommand, into this directory.
    #[arg(short, long, value_name = "DIR", conflicts_with = "subcommand")]
    output: Option<PathBuf>,
}

/// `kifu` is the program's whole command definition, which main.rs owns and hands down.
pub fn run(args: Args, kifu: clap::Command) -> Result<Outcome, String> {
    // `help` is not a page of its own: every page is the help.
    let mut kifu = kifu.disable_help_subcommand(true);
    // Building gives subcommands their `kifu-…` display names and the version.
    kifu.build();
    if let Some(dir) = args.output {
        write_pages(&kifu, &dir)?;
        return Ok(Outcome::Ok);
    }
    let command = match &args.subcommand {
        None => &kifu,
        Some(name) => kifu.find_subcommand(name).unwrap_or_else(|| {
            let names: Vec<&str> = kifu.get_subcommands().map(|c| c.get_name()).collect();
            let message = format!("no subcommand `{name}`; one of: {}", names.join(", "));
            kifu.clone().error(ErrorKind::InvalidValue, message).exit()
        }),
    };
    let mut roff = Vec::new();
    page(command)
        .render(&mut roff)
        .and_then(|()| std::io::stdout().write_all(&roff))
        .map_err(|e| format!("writing the manual page: {e}"))?;
    Ok(Outcome::Ok)
}

/// A command's page; every page's footer names kifu's own version, not the subcommand's name.
fn page(command: &clap::Command) -> Man {
    Man::new(command.clone())
        .source(format!("kifu {}", env!("KIFU_VERSION")))
        .manual("kifu manual")
}

/// Writes the page of `command` and, recursively, of each of its visible subcommands.
fn write_pages(command: &clap::Command, dir: &Path) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    page(command)
        .generate_to(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?;
    for sub in command.get_subcommands().filter(|sub| !sub.is_hide_set()) {
        write_pages(sub, dir)?;
    }
    Ok(())
}

//! `kifu completions SHELL`: the shell's completion script for every subcommand and option,
//! generated from the same clap definition that parses the arguments, so it cannot fall behind.

use std::io::Write;

use clap_complete::Shell;

use crate::Outcome;

#[derive(clap::Args)]
#[command(after_help = "\
Install, for example:
  bash:        kifu completions bash > ~/.local/share/bash-completion/completions/kifu
  zsh:         kifu completions zsh > ~/.zfunc/_kifu   (with fpath+=~/.zfunc before compinit)
  fish:        kifu completions fish > ~/.config/fish/completions/kifu.fish
  PowerShell:  kifu completions powershell >> $PROFILE")]
pub struct Args {
    /// The shell to write the completion script for.
    #[arg(value_enum)]
    shell: Shell,
}

/// `command` is the program's whole command definition, which main.rs owns and hands down.
pub fn run(args: Args, mut command: clap::Command) -> Result<Outcome, String> {
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut command, "kifu", &mut script);
    std::io::stdout()
        .write_all(&script)
        .map_err(|e| format!("writing the completion script: {e}"))?;
    Ok(Outcome::Ok)
}

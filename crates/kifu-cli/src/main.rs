//! `kifu`: read, check, convert and play shogi-family game records.

use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};

use crate::error::CliError;

mod analyze_cmd;
mod analyze_output;
mod analyze_records;
mod check;
mod completions;
mod convert;
mod csa_client;
mod csa_server;
mod dedup;
mod error;
mod explore;
mod export;
mod games;
mod html;
mod index;
mod inputs;
mod link;
mod man;
mod match_cmd;
mod outcome;
mod output;
mod perft;
mod ply;
mod render;
mod report;
mod show;
mod stills;
mod terminal;

// Every command module returns an `Outcome` and asks whether a person watches; both live in
// modules of their own, so that no module reaches up into this file, which reaches down
// into every command.
pub use outcome::Outcome;
pub use terminal::{stderr_is_terminal, stdout_is_terminal};

/// kifu — game records and match protocol for shogi and its relatives.
#[derive(Parser)]
// The version line names the commit too (build.rs).
#[command(name = "kifu", version = env!("KIFU_VERSION"), propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Read records, replay every move under the full rules and report every problem.
    Check(check::Args),
    /// Convert records to another format (a directory is converted file by file).
    Convert(convert::Args),
    /// Export validated positions for training (hcpe, hcpe3, psv) or tables of plies and games (Parquet).
    Export(export::Args),
    /// Build an archive of shogi games to ask (explore, find), or add files to one.
    Index(index::Args),
    /// The moves played from a position in an archive, with counts, results and top games.
    Explore(explore::ExploreArgs),
    /// The games of an archive that reached a position, by any move order, with the ply.
    Find(explore::FindArgs),
    /// Find records of the same game across files and formats (truncated copies too).
    Dedup(dedup::Args),
    /// Print a record's position after some moves as a board diagram.
    Show(show::Args),
    /// Draw a record's position after some moves as an SVG or PNG picture, every ply as an
    /// animated GIF, or many records' positions into a directory.
    Render(render::Args),
    /// Write a self-contained HTML page replaying a record (a directory: a page per record).
    Html(html::Args),
    /// Count the leaves of the legal move tree (move generator test and benchmark).
    Perft(perft::Args),
    /// Play one game over a CSA 1998 line (serial, TCP or stdio) with an engine, a person or a record.
    Link(link::Args),
    /// Run a CSA-protocol game server for a local tournament.
    CsaServer(csa_server::Args),
    /// Connect a USI engine to a CSA-protocol server (floodgate included).
    CsaClient(csa_client::Args),
    /// Play USI engines against each other (match, gauntlet, round robin) with SPRT and a record per game.
    Match(match_cmd::Args),
    /// Analyse records with a USI engine: a score, best move and PV at every position, written
    /// as comments, and each move judged (緩手, 疑問手, 悪手, 大悪手).
    Analyze(analyze_cmd::Args),
    /// Print the shell completion script for bash, zsh, fish, PowerShell or elvish.
    Completions(completions::Args),
    /// Print kifu's manual page, or write one page per subcommand into a directory (-o).
    Man(man::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let (name, result): (&str, Result<Outcome, CliError>) = match cli.command {
        Command::Check(args) => ("check", check::run(args)),
        Command::Convert(args) => ("convert", convert::run(args)),
        Command::Export(args) => ("export", export::run(args)),
        Command::Index(args) => ("index", index::run(args)),
        Command::Explore(args) => ("explore", explore::explore(args)),
        Command::Find(args) => ("find", explore::find(args)),
        Command::Dedup(args) => ("dedup", dedup::run(args)),
        Command::Show(args) => ("show", show::run(args)),
        // Several inputs, or every ply into a directory, are batch stills; one picture or
        // an animation is `render`'s (the two modules share the arguments, not each other).
        Command::Render(args) if stills::is_batch(&args) => ("render", stills::run(&args)),
        Command::Render(args) => ("render", render::run(args)),
        Command::Html(args) => ("html", html::run(args)),
        Command::Perft(args) => ("perft", perft::run(args)),
        Command::Link(args) => ("link", link::run(args).map_err(CliError::from)),
        Command::CsaServer(args) => ("csa-server", csa_server::run(args).map_err(CliError::from)),
        Command::CsaClient(args) => ("csa-client", csa_client::run(args).map_err(CliError::from)),
        Command::Match(args) => ("match", match_cmd::run_match(args)),
        Command::Analyze(args) => ("analyze", analyze_cmd::run(args)),
        Command::Completions(args) => (
            "completions",
            completions::run(args, Cli::command()).map_err(CliError::from),
        ),
        Command::Man(args) => (
            "man",
            man::run(args, Cli::command()).map_err(CliError::from),
        ),
    };
    match result {
        Ok(Outcome::Ok) => ExitCode::SUCCESS,
        Ok(Outcome::Invalid) => ExitCode::from(1),
        Err(e) => {
            eprintln!("kifu {name}: {e}");
            if let CliError::Usage(_) = e {
                eprintln!("For more information, try 'kifu {name} --help'.");
            }
            ExitCode::from(e.exit_code())
        }
    }
}

//! What a subcommand reports back to `main`, which turns it into the exit status.

/// Exit 0 when all is well, 1 for invalid input (usage errors, 2, are a `CliError`).
pub enum Outcome {
    Ok,
    Invalid,
}

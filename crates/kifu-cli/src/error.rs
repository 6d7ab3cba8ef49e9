//! Why a command stopped, and the exit status that says so (README: 1 invalid input, 2 usage).

/// A command that could not do its work.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// The command line asks for something that cannot be done (an unknown format, a ply past
    /// the end, several records into a one-game file): exit status 2, like clap's own errors.
    #[error("{0}")]
    Usage(String),
    /// An input could not be read or is not what it must be: exit status 1.
    #[error("{0}")]
    Failed(String),
}

impl CliError {
    pub fn usage(message: impl Into<String>) -> CliError {
        CliError::Usage(message.into())
    }

    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::Usage(_) => 2,
            CliError::Failed(_) => 1,
        }
    }
}

/// The subcommands that predate the distinction report every failure as a string: exit 1.
impl From<String> for CliError {
    fn from(message: String) -> CliError {
        CliError::Failed(message)
    }
}

impl From<&str> for CliError {
    fn from(message: &str) -> CliError {
        CliError::Failed(message.to_string())
    }
}

//! Whether a person watches standard output or standard error: colour, layout and progress
//! are for a terminal only, never for a pipe.

use std::io::IsTerminal;

/// Colour and layout meant for a person only when stdout is a terminal.
pub fn stdout_is_terminal() -> bool {
    std::io::stdout().is_terminal()
}

/// Progress and timing go to stderr only when a person is watching.
pub fn stderr_is_terminal() -> bool {
    std::io::stderr().is_terminal()
}

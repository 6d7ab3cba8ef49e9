//! `--ply N` of `kifu show` and `kifu render`: which position of a record's main line to draw.

use crate::error::CliError;

/// `--ply` as a number of moves played, or why it is out of range.
pub(crate) fn resolve_ply(ply: Option<i64>, moves: usize) -> Result<usize, CliError> {
    ply_in_line("--ply", ply.unwrap_or(-1), moves)
}

/// A position of a main line of `moves` moves given as `flag` gives it (`--ply`,
/// `--from-ply`, `--to-ply`): moves from the start, or from the end when negative (-1 is the
/// last position).
pub(crate) fn ply_in_line(flag: &str, wanted: i64, moves: usize) -> Result<usize, CliError> {
    let resolved = if wanted < 0 {
        (moves as i64 + 1).checked_add(wanted)
    } else {
        Some(wanted)
    };
    match resolved {
        Some(n) if (0..=moves as i64).contains(&n) => Ok(n as usize),
        _ => Err(CliError::usage(format!(
            "{flag} {wanted}: the main line has {moves} move{}; give 0 to {moves}, or -1 to \
             -{} counting from the end",
            if moves == 1 { "" } else { "s" },
            moves + 1
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plies_count_from_either_end() {
        assert_eq!(resolve_ply(None, 89).unwrap(), 89);
        assert_eq!(resolve_ply(Some(-1), 89).unwrap(), 89);
        assert_eq!(resolve_ply(Some(-90), 89).unwrap(), 0);
        assert_eq!(resolve_ply(Some(0), 89).unwrap(), 0);
        assert_eq!(resolve_ply(Some(89), 89).unwrap(), 89);
        for bad in [90, 1000, -91, i64::MIN, i64::MAX] {
            let err = resolve_ply(Some(bad), 89).unwrap_err();
            assert!(matches!(err, CliError::Usage(_)), "{bad}");
            assert!(err.to_string().contains("89 moves"), "{err}");
        }
    }
}

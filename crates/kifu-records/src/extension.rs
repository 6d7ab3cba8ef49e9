//! A file's extension read from the bytes of its path.
//!
//! Every file of a directory walk has its extension asked several times on its way through
//! the front door (which game, which format, which encoding, `.txt` or not), and
//! `Path::extension` parses the path into components from the back each time: over a
//! directory of small CSA records that was 2% of `kifu check`'s instructions (issue 36).

use std::path::Path;

/// The extension of `path` as text, as `path.extension()?.to_str()` gives it: the part of
/// the last component after its last `.`, none for a name that starts with its only dot
/// (`.bashrc`). Paths ending in a separator or a dot (`a/`, `a/..`, `b.`) go by
/// `Path::extension`'s own rules.
pub(crate) fn extension(path: &Path) -> Option<&str> {
    std::str::from_utf8(extension_bytes(path)?).ok()
}

/// Whether `path`'s extension is `name` (ASCII, lower case) in any case: [`extension`]
/// compared without making it text, whose UTF-8 check of a few bytes cost more than the
/// search for the dot (a file's extension is compared several times on its way in).
pub(crate) fn extension_is(path: &Path, name: &str) -> bool {
    extension_bytes(path).is_some_and(|e| e.eq_ignore_ascii_case(name.as_bytes()))
}

/// [`extension`]'s bytes, whether or not they are UTF-8; a name of ASCII compares equal to
/// them only where it equals [`extension`].
pub(crate) fn extension_bytes(path: &Path) -> Option<&[u8]> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let bytes = path.as_os_str().as_bytes();
        if let Some(&last) = bytes.last()
            && last != b'/'
            && last != b'.'
        {
            // From the end back to the last dot, which is not in the name if a separator
            // comes first; a dot that starts the name is no extension's.
            let dot = bytes.iter().rposition(|&b| b == b'.' || b == b'/')?;
            if bytes[dot] == b'/' || dot == 0 || bytes[dot - 1] == b'/' {
                return None;
            }
            return Some(&bytes[dot + 1..]);
        }
    }
    path.extension()?.to_str().map(str::as_bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_as_path_extension() {
        for path in [
            "a.csa",
            "dir/a.CSA",
            "/abs/dir/game.kif",
            "a",
            "dir/a",
            ".bashrc",
            "dir/.bashrc",
            "dir/.a.csa",
            "a.b.ki2",
            "dir.d/a",
            "dir.d/",
            "a.",
            "dir/a.",
            "..",
            "dir/..",
            ".",
            "dir/.",
            "dir//a.csa",
            "./a.jkf",
            "a/./b.usi",
            "",
            "/",
            "a.tar.gz",
            "a/b.c/",
            "日本語.kif",
            "x.\u{e9}t\u{e9}",
        ] {
            let path = Path::new(path);
            let expected = path.extension().and_then(|e| e.to_str());
            assert_eq!(extension(path), expected, "{path:?}");
            for name in ["kif", "csa", "gz", "txt", "c"] {
                let same = expected.is_some_and(|e| e.eq_ignore_ascii_case(name));
                assert_eq!(extension_is(path, name), same, "{path:?} {name}");
            }
        }
    }
}

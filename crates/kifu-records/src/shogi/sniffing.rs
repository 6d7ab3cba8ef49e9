//! Lines only a shogi record writes, for telling a text's game.

use crate::sniffing::first_lines;

/// Whether one of the first lines is one that only a shogi record writes: a CSA version,
/// even-game or rank line, or a CSA move (CSA standard V3.0, sections 1–3), or a KIF file's
/// move-list heading or handicap line (the Kakinoki KIF page). Cheap, and strict enough that
/// no CKKA text (whose phonetic notation also writes ASCII lines such as `PIA kauk2 PAI.`)
/// passes: format detection asks it before trying a text as CKKA.
pub(crate) fn written_only_by_shogi(text: &str) -> bool {
    first_lines(text).any(|line| {
        let line = line.trim_end();
        let b = line.as_bytes();
        matches!(line, "V2" | "V2.1" | "V2.2" | "V3.0" | "PI")
            || (line.starts_with("PI") && b.get(2).is_some_and(u8::is_ascii_digit))
            || (b.len() >= 5
                && b[0] == b'P'
                && (b'1'..=b'9').contains(&b[1])
                && matches!(b[2], b' ' | b'+' | b'-'))
            || is_csa_move(b)
            || line.starts_with("手数----")
            || line.starts_with("手合割：")
    })
}

/// `+7776FU`: a sign, four digits and two capitals.
fn is_csa_move(b: &[u8]) -> bool {
    b.len() == 7
        && matches!(b[0], b'+' | b'-')
        && b[1..5].iter().all(u8::is_ascii_digit)
        && b[5..].iter().all(u8::is_ascii_uppercase)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csa_and_kif_lines_are_shogi_and_ckka_lines_are_not() {
        for text in [
            "V2.2\nN+a\n",
            "'comment\nPI\n+\n",
            "PI82HI\n",
            "P1-KY-KE-GI-KI-OU-KI-GI-KE-KY\n",
            "+7776FU\n",
            "# kif\n手合割：平手\n",
            "手数----指手---------消費時間--\n",
        ] {
            assert!(written_only_by_shogi(text), "{text:?}");
        }
        for text in [
            "TAI kauk2 TY. XI kauk2 XU.\n",
            "PIA kauk2 PAI.\nPI kaun1 PU.\n",
            "{一位色:黒}\nMAU弓MAIMY橋一\n",
            "7g7f 3c3d\n",
            "+7776\n",
            "",
        ] {
            assert!(!written_only_by_shogi(text), "{text:?}");
        }
    }
}

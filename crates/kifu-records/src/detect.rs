//! Which game a file holds, judged by its name and content: one order of evidence for every
//! program built on the records layer (the command line and the Python module call it).
//!
//! Each game states its own evidence through [`GameRecords`] (an extension only it uses,
//! content only it writes, the extensions it reads, what its text reads as); this module
//! weighs them in one order, listed once, in [`game_of`].

use std::borrow::Cow;
use std::fmt;
use std::path::Path;
use std::str::FromStr;

use kifu_cetkaik::Cetkaik;
use kifu_chu::Chu;
use kifu_record::{Game, RecordFormat, TextEncoding};
use kifu_shogi::Shogi;

use crate::GameRecords;
use crate::evidence::Evidence;

/// A game of the family whose records this crate reads, by name.
///
/// ```
/// use kifu_records::detect::GameKind;
///
/// assert_eq!("chu".parse::<GameKind>().unwrap(), GameKind::Chu);
/// assert_eq!(GameKind::Cetkaik.to_string(), "cetkaik");
/// assert!(GameKind::Shogi.knows_format("ki2u"));
/// assert!("go".parse::<GameKind>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameKind {
    /// Standard shogi ([`kifu_shogi::Shogi`]).
    Shogi,
    /// Chu shogi ([`kifu_chu::Chu`]).
    Chu,
    /// Cetkaik ([`kifu_cetkaik::Cetkaik`]).
    Cetkaik,
}

/// A name that is not a game's (see [`GameKind`]'s `FromStr`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown game `{0}` (one of: shogi, chu, cetkaik)")]
pub struct UnknownGame(pub String);

/// What [`game_of`] asks of each game, as plain functions so that the games form one table.
struct GameEntry {
    kind: GameKind,
    owns_extension: fn(&str) -> bool,
    claims_content: fn(&str) -> bool,
    is_record_file: fn(&Path, bool) -> bool,
    reads_as: fn(&str) -> bool,
    format_names: fn() -> Vec<&'static str>,
    knows_format: fn(&str) -> bool,
    format_shapes: fn() -> String,
    named_format: fn(&str) -> Option<(&'static str, TextEncoding)>,
    extension_encoding: fn(&Path) -> Option<TextEncoding>,
    judge_format: JudgeFormat,
}

/// A game's [`GameRecords::judge_format`], by format name and encoding.
type JudgeFormat =
    fn(&str, Option<&Path>, TextEncoding) -> Option<(&'static str, TextEncoding, Evidence)>;

fn named_format<G: GameRecords>(name: &str) -> Option<(&'static str, TextEncoding)> {
    G::format_by_name(name).map(|f| (f.name(), f.encoding()))
}

fn judge_format<G: GameRecords>(
    text: &str,
    path: Option<&Path>,
    encoding: TextEncoding,
) -> Option<(&'static str, TextEncoding, Evidence)> {
    let hint = path.and_then(G::format_by_extension);
    G::judge_format(text, hint, encoding).map(|(f, why)| (f.name(), f.encoding(), why))
}

fn format_shapes<G: GameRecords>() -> String {
    G::format_shapes()
}

fn extension_encoding<G: GameRecords>(path: &Path) -> Option<TextEncoding> {
    G::format_by_extension(path).map(|f: &'static dyn RecordFormat<G>| f.encoding())
}

const fn evidence<G: GameRecords>(kind: GameKind) -> GameEntry {
    GameEntry {
        kind,
        owns_extension: G::owns_extension,
        claims_content: G::claims_content,
        is_record_file: G::is_record_file,
        reads_as: G::reads_as,
        format_names: G::format_names,
        knows_format: |name| G::format_by_name(name).is_some(),
        format_shapes: format_shapes::<G>,
        named_format: named_format::<G>,
        extension_encoding: extension_encoding::<G>,
        judge_format: judge_format::<G>,
    }
}

/// Every game, the default (the one a text nothing else claims is read as) first. The order
/// is also the order of precedence where two games' evidence agree.
static GAMES: [GameEntry; 3] = [
    evidence::<Shogi>(GameKind::Shogi),
    evidence::<Chu>(GameKind::Chu),
    evidence::<Cetkaik>(GameKind::Cetkaik),
];

impl GameKind {
    /// Every game, the default first.
    pub const ALL: [GameKind; 3] = [GameKind::Shogi, GameKind::Chu, GameKind::Cetkaik];

    /// The game a text nothing claims is read as.
    pub const DEFAULT: GameKind = GameKind::Shogi;

    fn evidence(self) -> &'static GameEntry {
        GAMES.iter().find(|e| e.kind == self).unwrap_or(&GAMES[0])
    }

    /// The name users type (`shogi`, `chu`, `cetkaik`): the game's [`Game::NAME`].
    pub fn name(self) -> &'static str {
        match self {
            GameKind::Shogi => Shogi::NAME,
            GameKind::Chu => Chu::NAME,
            GameKind::Cetkaik => Cetkaik::NAME,
        }
    }

    /// The game named `name`, if any.
    pub fn by_name(name: &str) -> Option<GameKind> {
        GameKind::ALL.into_iter().find(|g| g.name() == name)
    }

    /// The names of every format of the game, the default first.
    pub fn format_names(self) -> Vec<&'static str> {
        (self.evidence().format_names)()
    }

    /// Whether `name` names one of the game's formats (or one of their extensions).
    pub fn knows_format(self, name: &str) -> bool {
        (self.evidence().knows_format)(name)
    }

    /// The shapes of text the game's formats have, for "it looks like neither …".
    pub fn format_shapes(self) -> String {
        (self.evidence().format_shapes)()
    }

    /// The name and encoding of the format `name` names (a name or a further extension).
    pub fn named_format(self, name: &str) -> Option<(&'static str, TextEncoding)> {
        (self.evidence().named_format)(name)
    }

    /// The encoding of the format a file's extension names, if one does.
    pub fn extension_encoding(self, path: &Path) -> Option<TextEncoding> {
        (self.evidence().extension_encoding)(path)
    }

    /// The format of a decoded text of this game (see [`GameRecords::judge_format`]): its
    /// name, its encoding and why; `path`'s extension is the hint.
    pub fn judge_format(
        self,
        text: &str,
        path: Option<&Path>,
        encoding: TextEncoding,
    ) -> Option<(&'static str, TextEncoding, Evidence)> {
        (self.evidence().judge_format)(text, path, encoding)
    }

    /// Whether a file found in a directory is a record of this game, by its name;
    /// `explicit` (the user named the game) admits extensions other games share.
    pub fn is_record_file(self, path: &Path, explicit: bool) -> bool {
        (self.evidence().is_record_file)(path, explicit)
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for GameKind {
    type Err = UnknownGame;

    fn from_str(name: &str) -> Result<GameKind, UnknownGame> {
        GameKind::by_name(name).ok_or_else(|| UnknownGame(name.to_string()))
    }
}

/// The game of a file, from its path (if it has one) and its bytes, by the first of these
/// that decides:
///
/// 1. an extension only one game uses (`.csa` is shogi's even when a comment names 中将棋);
/// 2. content only one game writes (lishogi's chu exports share `.kif` with shogi);
/// 3. an extension several games share, as the first game that reads it;
/// 4. what the text reads as (CKKA), else [`GameKind::DEFAULT`].
///
/// `None` when the file has an extension no game reads (`.txt` does not count, and neither
/// does a text without a path): the caller asks the user, or decides by
/// `game_of(None, bytes)`, the content alone.
///
/// ```
/// use std::path::Path;
/// use kifu_records::detect::{GameKind, game_of};
///
/// let csa = "V2.2\n'a shogi game, not 中将棋\nPI\n+\n+7776FU\n%TORYO\n".as_bytes();
/// assert_eq!(game_of(Some(Path::new("GAME.CSA")), csa), Some(GameKind::Shogi));
/// assert_eq!(game_of(Some(Path::new("game.kif")), csa), Some(GameKind::Chu)); // by content
/// assert_eq!(game_of(None, "startpos 7i7h 10c10d".as_bytes()), Some(GameKind::Chu));
/// assert_eq!(game_of(None, "MAU弓MAIMY橋一\n".as_bytes()), Some(GameKind::Cetkaik));
/// assert_eq!(game_of(None, b"7g7f 3c3d\n"), Some(GameKind::Shogi));
/// assert_eq!(game_of(Some(Path::new("board.bod")), b"7g7f\n"), None);
/// ```
pub fn game_of(path: Option<&Path>, bytes: &[u8]) -> Option<GameKind> {
    judge_game(path, &lossy_utf8(bytes)).map(|(game, _)| game)
}

/// [`game_of`] for a decoded text, with the evidence that decided.
fn judge_game(path: Option<&Path>, text: &str) -> Option<(GameKind, Evidence)> {
    // Lowercased into a new string only when it has capitals: most extensions are written
    // in lowercase, and this runs for every file opened.
    let extension = path.and_then(crate::extension::extension).map(|e| {
        if e.bytes().any(|b| b.is_ascii_uppercase()) {
            std::borrow::Cow::Owned(e.to_ascii_lowercase())
        } else {
            std::borrow::Cow::Borrowed(e)
        }
    });
    // An extension only one game uses decides before the content is looked at: the chu
    // sniffer took a CSA record whose comment mentions 中将棋 for chu, and reading every CSA
    // file three more times for it was 3% of `kifu check` over a directory of them.
    if let Some(e) = extension.as_deref()
        && let Some(game) = GAMES.iter().find(|g| (g.owns_extension)(e))
    {
        return Some((game.kind, Evidence::Extension));
    }
    if let Some(game) = GAMES.iter().find(|g| (g.claims_content)(text)) {
        let shape = "content only this game writes";
        return Some((game.kind, Evidence::Content { line: 0, shape }));
    }
    if let Some(path) = path
        && extension.as_deref().is_some_and(|e| e != "txt")
    {
        return GAMES
            .iter()
            .find(|g| (g.is_record_file)(path, false))
            .map(|g| (g.kind, Evidence::Extension));
    }
    Some(match GAMES.iter().find(|g| (g.reads_as)(text)) {
        Some(g) => (
            g.kind,
            Evidence::Content {
                line: 0,
                shape: "text that reads as this game",
            },
        ),
        None => (GameKind::DEFAULT, Evidence::Default),
    })
}

/// The game of a decoded text, for the front door ([`crate::open::open`]): as
/// [`game_of_named_file`] decides it, with the evidence that decided.
///
/// ```
/// use kifu_records::detect::{GameKind, game_of_text};
/// use kifu_records::open::Evidence;
///
/// let (game, why) = game_of_text(None, "MAU弓MAIMY橋一\n");
/// assert_eq!(game, GameKind::Cetkaik);
/// assert!(matches!(why, Evidence::Content { .. }));
/// assert_eq!(game_of_text(None, "hello\n"), (GameKind::Shogi, Evidence::Default));
/// ```
pub fn game_of_text(path: Option<&Path>, text: &str) -> (GameKind, Evidence) {
    judge_game(path, text)
        .or_else(|| judge_game(None, text))
        .unwrap_or((GameKind::DEFAULT, Evidence::Default))
}

/// The game of a file named on purpose rather than found in a directory walk: as
/// [`game_of`] says, and for an extension no game reads (`.bod`, `.dat`), by the content
/// alone, a text nothing claims being read as [`GameKind::DEFAULT`]'s. The command line and
/// the Python module both read a file they are handed this way.
///
/// ```
/// use std::path::Path;
/// use kifu_records::detect::{GameKind, game_of_named_file};
///
/// let bod = "後手の持駒：なし\n  ９ ８ ７ ６ ５ ４ ３ ２ １\n".as_bytes();
/// assert_eq!(game_of_named_file(Some(Path::new("x.bod")), bod), GameKind::Shogi);
/// let ckka = "MAU弓MAIMY橋一\n".as_bytes();
/// assert_eq!(game_of_named_file(Some(Path::new("x.dat")), ckka), GameKind::Cetkaik);
/// ```
pub fn game_of_named_file(path: Option<&Path>, bytes: &[u8]) -> GameKind {
    game_of(path, bytes)
        .or_else(|| game_of(None, bytes))
        .unwrap_or(GameKind::DEFAULT)
}

/// Whether a file found in a directory is a record: of `game` when the user named one
/// (extensions other games share count too), else of any game.
///
/// ```
/// use std::path::Path;
/// use kifu_records::detect::{GameKind, is_record_file};
///
/// assert!(is_record_file(Path::new("a/b.KIF"), None));
/// assert!(is_record_file(Path::new("m.ckka"), None));
/// assert!(is_record_file(Path::new("notes.txt"), Some(GameKind::Cetkaik)));
/// assert!(!is_record_file(Path::new("board.png"), None));
/// ```
pub fn is_record_file(path: &Path, game: Option<GameKind>) -> bool {
    match game {
        Some(game) => game.is_record_file(path, true),
        None => GameKind::ALL.iter().any(|g| g.is_record_file(path, false)),
    }
}

/// The bytes as text for sniffing: borrowed when they are UTF-8 (every ASCII file is), with
/// U+FFFD for what is not. `String::from_utf8_lossy` gives the same text, but walks valid
/// input byte by byte, without the word-at-a-time ASCII path of `str::from_utf8`.
fn lossy_utf8(bytes: &[u8]) -> Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(text) => Cow::Borrowed(text),
        Err(_) => String::from_utf8_lossy(bytes),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_extension_only_one_game_uses_decides_before_the_content() {
        let csa = "V2.2\n'中将棋ではなく本将棋の棋譜\nPI\n+\n+7776FU\n%TORYO\n";
        assert!(Chu::claims_content(csa), "the content alone looks like chu");
        let game = |name: &str| game_of(Some(Path::new(name)), csa.as_bytes());
        assert_eq!(game("game.csa"), Some(GameKind::Shogi));
        assert_eq!(game("GAME.CSA"), Some(GameKind::Shogi));
        assert_eq!(game("game.kif"), Some(GameKind::Chu));
    }

    /// Chu's name, start or board counts where every sniffer looks, in the first lines: a
    /// shogi game whose comment at move 50 mentions 中将棋 stays shogi (it was taken for chu,
    /// and read as chu with an error on every move, when the whole text was searched).
    #[test]
    fn chu_is_told_by_the_first_lines_only() {
        let mut kif = String::from("手合割：平手\n手数----指手---------消費時間--\n");
        let moves = ["７六歩(77)", "３四歩(33)", "２六歩(27)", "８四歩(83)"];
        for ply in 1..=48 {
            kif += &format!("{ply:>4} {}\n", moves[(ply - 1) % 4]);
            kif += "*\n";
        }
        let mentions = format!("{kif}*中将棋なら違う手\n");
        assert!(!Chu::claims_content(&mentions));
        assert_eq!(
            game_of(Some(Path::new("g.kif")), mentions.as_bytes()),
            Some(GameKind::Shogi)
        );
        assert!(Chu::claims_content(&format!("*中将棋\n{kif}")));
    }

    /// A comment among the first moves is no claim either, even one that names chu and its
    /// pieces within the lines a sniffer reads; the same comment above the moves still is.
    #[test]
    fn chu_named_among_the_first_moves_is_no_claim() {
        let header = "手合割：平手\n手数----指手---------消費時間--\n";
        let moves = "   1 ７六歩(77)   ( 0:01/00:00:01)\n   2 ３四歩(33)   ( 0:02/00:00:02)\n";
        let comment = "*中将棋なら獅子で取る手\n";
        let late = format!("{header}{moves}{comment}   3 ２六歩(27)\n");
        assert!(!Chu::claims_content(&late));
        for name in [Some("g.kif"), Some("g.txt"), None] {
            let path = name.map(Path::new);
            assert_eq!(
                game_of(path, late.as_bytes()),
                Some(GameKind::Shogi),
                "{name:?}"
            );
        }
        let ki2 = format!("手合割：平手\n▲７六歩　△３四歩\n{comment}▲２六歩\n");
        assert!(!Chu::claims_content(&ki2));
        assert!(Chu::claims_content(&format!("{header}{comment}{moves}")));
    }

    #[test]
    fn shared_extensions_go_to_the_first_game_that_reads_them() {
        let usi = b"7g7f 3c3d\n";
        for name in ["g.kif", "g.usi", "g.json", "g.sfen"] {
            assert_eq!(
                game_of(Some(Path::new(name)), usi),
                Some(GameKind::Shogi),
                "{name}"
            );
        }
        assert_eq!(
            game_of(Some(Path::new("g.jsonl")), usi),
            Some(GameKind::Chu)
        );
        // `.txt` says nothing: the text decides.
        assert_eq!(
            game_of(Some(Path::new("m.txt")), "MAU弓MAIMY橋一\n".as_bytes()),
            Some(GameKind::Cetkaik)
        );
        assert_eq!(game_of(Some(Path::new("x.bod")), usi), None);
    }

    #[test]
    fn kifu_cetkaik_json_is_claimed_by_its_content() {
        let json = br#"{"seasons": []}"#;
        assert_eq!(
            game_of(Some(Path::new("m.json")), json),
            Some(GameKind::Cetkaik)
        );
    }

    #[test]
    fn every_game_is_in_the_table_once_and_by_its_name() {
        for (kind, evidence) in GameKind::ALL.into_iter().zip(&GAMES) {
            assert_eq!(evidence.kind, kind);
            assert_eq!(kind.name().parse::<GameKind>(), Ok(kind));
            assert!(!kind.format_names().is_empty());
        }
    }
}

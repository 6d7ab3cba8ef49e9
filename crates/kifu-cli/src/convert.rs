use std::io::Write;
use std::path::PathBuf;

use kifu_shogi::formats::csa::CsaVersion;

use crate::Outcome;
use crate::games::{Game, GameArg, ReadOptions, Target};
use crate::inputs::{Input, expand};

#[derive(clap::Args)]
pub struct Args {
    /// Record file, or a directory to convert file by file; `-` reads standard input.
    #[arg(value_name = "IN")]
    input: PathBuf,
    /// Output file (`-`, the default, is standard output); for a directory input, the output directory.
    #[arg(short, long, value_name = "OUT")]
    output: Option<PathBuf>,
    /// Target format: csa, kif, kifu, ki2, jkf, usi (shogi); csl, csl-ja, kif, usi, json (chu);
    /// ckka, ckka1, ckka2, ckka3, json (cetkaik).
    #[arg(long, value_name = "FORMAT")]
    to: String,
    /// Format of the input when its extension does not tell.
    #[arg(long, value_name = "FORMAT")]
    from: Option<String>,
    /// The game the records are of.
    #[arg(long, value_enum, default_value_t = GameArg::Auto)]
    game: GameArg,
    /// Cetkaik rule set for records that do not name one.
    #[arg(long, value_name = "RULES")]
    rules: Option<String>,
    /// CSA edition to write.
    #[arg(long, value_name = "VERSION", default_value = "3.0", value_parser = ["2.2", "3.0"])]
    csa_version: String,
}

pub fn run(args: Args) -> Result<Outcome, String> {
    let read = ReadOptions {
        format: args.from.as_deref(),
        rules: args.rules.as_deref(),
    };
    let target = Target {
        format: &args.to,
        csa_version: if args.csa_version == "2.2" {
            CsaVersion::V22
        } else {
            CsaVersion::V30
        },
    };
    let game = Game::from_arg(args.game);
    let is_dir = args.input.is_dir();
    if !is_dir {
        let input = Input::from_arg(&args.input);
        let (bytes, ok) = convert_one(&input, game, &read, &target)?;
        match args.output.as_deref() {
            None => write_stdout(&bytes)?,
            Some(p) if p.as_os_str() == "-" => write_stdout(&bytes)?,
            Some(p) => std::fs::write(p, bytes).map_err(|e| format!("{}: {e}", p.display()))?,
        }
        return Ok(if ok { Outcome::Ok } else { Outcome::Invalid });
    }
    let out_dir = args
        .output
        .clone()
        .ok_or("converting a directory needs an output directory (-o DIR)")?;
    let (inputs, _) = expand(std::slice::from_ref(&args.input), Game::filter(game))?;
    let mut all_ok = true;
    for input in &inputs {
        let (bytes, ok) = match convert_one(input, game, &read, &target) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("{}: error: {e}", input.name());
                all_ok = false;
                continue;
            }
        };
        all_ok &= ok;
        let target = out_dir
            .join(input.relative())
            .with_extension(extension_for(game, input, &target)?);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
        }
        std::fs::write(&target, bytes).map_err(|e| format!("{}: {e}", target.display()))?;
    }
    eprintln!(
        "converted {} files into {}",
        inputs.len(),
        out_dir.display()
    );
    Ok(if all_ok {
        Outcome::Ok
    } else {
        Outcome::Invalid
    })
}

fn extension_for(
    game: Option<Game>,
    input: &Input,
    target: &Target<'_>,
) -> Result<&'static str, String> {
    let game = game
        .or_else(|| Game::detect(input.path.as_deref(), &[]))
        .unwrap_or(Game::Shogi);
    crate::games::target_extension(game, target)
}

/// Converts one input; diagnostics and dropped-content warnings go to stderr.
/// The flag is false when the input had errors (what was valid is still converted).
fn convert_one(
    input: &Input,
    game: Option<Game>,
    read: &ReadOptions<'_>,
    target: &Target<'_>,
) -> Result<(Vec<u8>, bool), String> {
    let name = input.name();
    let bytes = input.read().map_err(|e| format!("{name}: {e}"))?;
    let path = input.path.as_deref();
    let game = game
        .or_else(|| Game::detect(path, &bytes))
        .ok_or_else(|| format!("{name}: cannot tell which game this is; use --game"))?;
    let converted = crate::games::convert(game, &name, path, read, target, &bytes)?;
    for d in &converted.report.diagnostics {
        eprintln!("{}", d.rendered);
    }
    for w in &converted.warnings {
        eprintln!("{name}: warning: {w}");
    }
    Ok((converted.bytes, converted.report.is_valid()))
}

fn write_stdout(bytes: &[u8]) -> Result<(), String> {
    let mut out = std::io::stdout().lock();
    out.write_all(bytes)
        .and_then(|_| out.flush())
        .map_err(|e| e.to_string())
}
